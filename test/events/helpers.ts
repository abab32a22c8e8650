// A real service with real webhook receivers, all on 127.0.0.1 (the tests allow loopback targets; nothing is ever
// sent anywhere else), and a small server-sent events reader.

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createApiKey } from '../../src/runtime/auth/auth-credentials.js';
import { createAuthenticator } from '../../src/runtime/auth/auth-authenticator.js';
import type { CheckedModel, ServiceModel } from '../../src/model/model-types.js';
import { createService, type ServiceOptions } from '../../src/runtime/service/runtime-service.js';
import { createPostgresStorage } from '../../src/runtime/storage/storage-postgres.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import type { Storage } from '../../src/runtime/storage/storage-types.js';
import type { SchedulerClock } from '../../src/runtime/events/events-scheduler.js';
import { loadModel } from '../runtime/helpers.js';
import { callJson } from '../support/http.js';
import { dropTestSchema, getPostgresSkipReason, getTestSchemaUrl } from '../support/postgres.js';

export const EVENTS_SPEC = new URL('./fixtures/events.yaml', import.meta.url).pathname;
export const LOOPBACK = ['127.0.0.0/8'];

/** A clock that moves only when told; timers due at or before now fire on the next turn. */
export function manualClock(
  start: number,
): SchedulerClock & { advance(ms: number): void; jump(ms: number): void; pending(): number; nextDue(): number | undefined } {
  let t = start;
  const timers = new Set<{ at: number; fire: () => void }>();
  const due = () => {
    for (const h of [...timers].sort((a, b) => a.at - b.at)) {
      if (h.at > t) break;
      timers.delete(h);
      h.fire();
    }
  };
  return {
    now: () => t,
    setTimer(fire, ms) {
      const h = { at: t + ms, fire };
      timers.add(h);
      if (ms <= 0) setImmediate(due);
      return h;
    },
    clearTimer: (h) => void timers.delete(h as { at: number; fire: () => void }),
    advance(ms) {
      t += ms;
      due();
    },
    /** Moves now without firing a timer, as time passes while code blocks the event loop; they fire at the next advance. */
    jump(ms) {
      t += ms;
    },
    pending: () => timers.size,
    /** When the earliest armed timer is due (undefined when none is). */
    nextDue: () => (timers.size === 0 ? undefined : Math.min(...[...timers].map((h) => h.at))),
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it returns a value that is not undefined/false, or fails after `ms`. */
export async function until<T>(check: () => T | Promise<T>, ms = 10_000, what = 'condition'): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false && v !== null) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/**
 * Waits until the storage holds `count` deliveries and none is pending: every attempt has ended, so what a receiver
 * got is final (fan-out goes in outbox order, so anything queued for an earlier event is among them).
 */
export async function untilDeliveriesSettled(storage: Storage, count: number, ms = 10_000): Promise<void> {
  await until(
    async () => {
      const all = await storage.listDeliveries({});
      return all.length >= count && all.every((d) => d.status !== 'pending');
    },
    ms,
    `${count} settled deliveries`,
  );
}

export interface TestStorage {
  storage: Storage;
  /** The SQLite file, or the PostgreSQL URL (SERVICESPEC_TEST_DB=postgres). */
  dbPath: string;
  /** Removes the PostgreSQL schema; call after the storage is closed. Nothing for SQLite (its folder is the caller's). */
  drop(): Promise<void>;
}

/**
 * The storage an events test runs on: `service.db` in `dir`, or, with SERVICESPEC_TEST_DB=postgres (as
 * test/runtime/helpers.ts), a fresh schema of the test PostgreSQL database.
 */
const schemaOf = new Map<string, string>();

export async function openTestStorage(dir: string): Promise<TestStorage> {
  if (process.env.SERVICESPEC_TEST_DB === 'postgres') {
    const reason = await getPostgresSkipReason();
    if (reason !== undefined) throw new Error(`SERVICESPEC_TEST_DB=postgres, but ${reason}`);
    // One schema per folder, as one SQLite file: a service started again on a folder finds what the last one left.
    const url = schemaOf.get(dir) ?? getTestSchemaUrl();
    schemaOf.set(dir, url);
    return { storage: createPostgresStorage({ url, poolSize: 4 }), dbPath: url, drop: () => dropTestSchema(url) };
  }
  const dbPath = join(dir, 'service.db');
  return { storage: createSqliteStorage({ path: dbPath, synchronous: 'normal' }), dbPath, drop: async () => undefined };
}

export interface EventService {
  url: string;
  app: FastifyInstance;
  storage: Storage;
  dir: string;
  /** The SQLite file, or the PostgreSQL URL (SERVICESPEC_TEST_DB=postgres). */
  dbPath: string;
  model: ServiceModel;
  /** An API key with every scope; `readerKey` holds only tickets:read. */
  adminKey: string;
  readerKey: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read response bodies of many shapes
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; body: any }>;
  close(): Promise<void>;
}

export async function startEventService(options: Partial<ServiceOptions> & { model?: ServiceModel; dir?: string } = {}): Promise<EventService> {
  const model = options.model ?? loadModel(EVENTS_SPEC);
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'servicespec-events-'));
  const { storage, dbPath, drop } = await openTestStorage(dir);
  const authenticator = await createAuthenticator(model as CheckedModel, storage, { allowGaps: true });
  const admin = await createApiKey(storage, model, { subject: 'admin', scopes: ['tickets:read', 'webhooks:manage'] });
  const reader = await createApiKey(storage, model, { subject: 'reader', scopes: ['tickets:read'] });
  const { model: _m, dir: _d, ...rest } = options;
  const app = await createService(model as CheckedModel, {
    storage,
    allowGaps: true,
    authenticator,
    webhooks: { allowTargets: LOOPBACK, jitter: 0, pollIntervalMs: 200 },
    ...rest,
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    app,
    storage,
    dir,
    dbPath,
    model,
    adminKey: admin.key,
    readerKey: reader.key,
    async close() {
      await app.close();
      // A folder the caller gave is the caller's to reuse (and its schema with it; dropped with the process's schemas).
      if (options.dir === undefined) {
        rmSync(dir, { recursive: true, force: true });
        await drop();
      }
    },
    call: (method, path, body, headers = {}) => callJson(url, method, path, body, headers),
  };
}

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
  path: string;
}

/** What the receiver does with its n-th request (0-based): answer, or hang until the client gives up. */
export type Behaviour = (n: number, r: Received) => { status: number; headers?: Record<string, string> } | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  /** Requests whose answer was not a 2xx (or that hung). */
  failed: number;
  behaviour: Behaviour;
  /** Answers every request left hanging so far with `status`. */
  release(status?: number): void;
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 that records every request. */
export async function startReceiver(behaviour: Behaviour = () => ({ status: 200 })): Promise<Receiver> {
  const hanging = new Set<ServerResponse>();
  const r: Receiver = {
    url: '',
    received: [],
    failed: 0,
    behaviour,
    release(status = 200) {
      for (const res of [...hanging]) {
        hanging.delete(res);
        res.writeHead(status).end();
      }
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec: Received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now(), path: req.url ?? '' };
      const n = r.received.length;
      r.received.push(rec);
      const answer = r.behaviour(n, rec);
      if (answer === 'hang') {
        r.failed++;
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      if (answer.status < 200 || answer.status >= 300) r.failed++;
      res.writeHead(answer.status, answer.headers ?? {});
      res.end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return r;
}

export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

export interface SseReader {
  status: number;
  headers: Headers;
  events: SseEvent[];
  /** Comment lines (heartbeats), in order. */
  comments: string[];
  /** Resolves when `n` events have arrived. */
  waitFor(n: number, ms?: number): Promise<SseEvent[]>;
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens a server-sent events stream (node:http, one connection, closed by `close()`) and parses it as it arrives. */
export async function openStream(url: string, headers: Record<string, string> = {}): Promise<SseReader> {
  const req = request(url, { headers: { accept: 'text/event-stream', ...headers }, agent: false });
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    req.on('response', resolve);
    req.on('error', reject);
    req.end();
  });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const responseHeaders = new Headers();
  for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') responseHeaders.set(k, v);
  let buffer = '';
  let current: SseEvent = { data: '' };
  let hasData = false;
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    buffer += chunk;
    let i: number;
    while ((i = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      if (line === '') {
        if (hasData) events.push(current);
        current = { data: '' };
        hasData = false;
      } else if (line.startsWith(':')) comments.push(line.slice(1).trim());
      else {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') {
          current.data = hasData ? `${current.data}\n${value}` : value;
          hasData = true;
        } else if (field === 'id') current.id = value;
        else if (field === 'event') current.event = value;
      }
    }
  });
  const ended = new Promise<void>((done) => {
    res.on('end', done);
    res.on('close', done);
    res.on('error', () => done());
  });
  return {
    status: res.statusCode ?? 0,
    headers: responseHeaders,
    events,
    comments,
    waitFor: (n, ms = 10_000) => until(() => (events.length >= n ? events.slice(0, n) : undefined), ms, `${n} stream events`),
    ended,
    close: () => req.destroy(),
  };
}
