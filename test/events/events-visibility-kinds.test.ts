// Which events a reader sees when the payload is not the whole object, when no operation reads the resource, and
// when the reader has no credential at all (fixtures/events-owned.yaml; docs/events.md "Who receives what").

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckedModel } from '../../src/model/model-types.js';
import { createApiKey } from '../../src/runtime/auth/auth-credentials.js';
import { createAuthenticator } from '../../src/runtime/auth/auth-authenticator.js';
import { addWebhookEndpoint } from '../../src/runtime/events/events-webhooks.js';
import { parseTargetPolicy } from '../../src/runtime/events/events-targets.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { loadSqliteDriver } from '../../src/runtime/storage/storage-sqlite-driver.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import type { Storage } from '../../src/runtime/storage/storage-types.js';
import { loadModel } from '../runtime/helpers.js';
import { callJson } from '../support/http.js';
import { LOOPBACK, openStream, openTestStorage, startReceiver, until, type Receiver } from './helpers.js';

const SPEC = new URL('./fixtures/events-owned.yaml', import.meta.url).pathname;

interface Running {
  url: string;
  storage: Storage;
  model: CheckedModel;
  keys: Record<'alice' | 'bob' | 'admin', Record<string, string>>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies of many shapes
  call(method: string, path: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
}

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0)) await c();
});

async function start(anonymousDefault = false): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), 'servicespec-kinds-'));
  let path = SPEC;
  if (anonymousDefault) {
    path = join(dir, 'spec.yaml');
    writeFileSync(path, readFileSync(SPEC, 'utf8').replace('default: { schemes: [key], scopes: [] }', 'default: none'));
  }
  const model = loadModel(path);
  const { storage, drop } = await openTestStorage(dir);
  const authenticator = await createAuthenticator(model, storage, { allowGaps: true });
  const key = async (subject: string, scopes: string[]) => ({ 'x-api-key': (await createApiKey(storage, model, { subject, scopes })).key });
  const keys = {
    alice: await key('alice', ['notes:read', 'notes:write']),
    bob: await key('bob', ['notes:read', 'notes:write']),
    admin: await key('admin', ['notes:read', 'notes:all']),
  };
  const app: FastifyInstance = await createService(model, {
    storage,
    allowGaps: true,
    authenticator,
    webhooks: { allowTargets: LOOPBACK, jitter: 0, pollIntervalMs: 200 },
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  cleanup.push(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
    await drop();
  });
  return { url, storage, model, keys, call: (method, p, body, headers = {}) => callJson(url, method, p, body, headers) };
}

/** alice writes a note (then deletes it), an audit and a notice; the notice, which anyone may read, comes last. */
async function writeEach(s: Running): Promise<string> {
  const note = await s.call('POST', '/notes', { text: 'mine' }, s.keys.alice);
  expect(note.status).toBe(201);
  expect((await s.call('DELETE', `/notes/${note.body.id}`, undefined, s.keys.alice)).status).toBe(204);
  expect((await s.call('POST', '/audits', { text: 'audited' }, s.keys.alice)).status).toBe(201);
  const notice = await s.call('POST', '/notices', { text: 'for everyone' }, s.keys.alice);
  expect(notice.status).toBe(201);
  return notice.body.id as string;
}

async function kindsSeen(s: Running, headers: Record<string, string>): Promise<string[]> {
  const stream = await openStream(`${s.url}/events?after=0`, headers);
  expect(stream.status).toBe(200);
  await until(() => stream.events.some((e) => e.event === 'notice.created'), 10_000, 'the notice');
  stream.close();
  return stream.events.map((e) => e.event!);
}

describe('events whose object a reader cannot wholly see', () => {
  it('a payload without the owner field reaches only override-scope holders; a resource no operation reads reaches no reader', async () => {
    const s = await start();
    await writeEach(s);
    expect(await kindsSeen(s, s.keys.alice)).toEqual(['note.created', 'notice.created']);
    expect(await kindsSeen(s, s.keys.bob)).toEqual(['notice.created']);
    expect(await kindsSeen(s, s.keys.admin)).toEqual(['note.created', 'note.deleted', 'notice.created']);
  });

  it('an operator-registered endpoint receives every kind; an API-registered one what its key may read', async () => {
    const s = await start();
    const [ro, ra] = [await startReceiver(), await startReceiver()];
    cleanup.push(
      () => ro.close(),
      () => ra.close(),
    );
    await addWebhookEndpoint({ storage: s.storage, model: s.model, policy: parseTargetPolicy(LOOPBACK) }, { url: ro.url });
    expect((await s.call('POST', '/webhooks', { url: ra.url }, s.keys.admin)).status).toBe(201);
    const refused = await s.call('POST', '/webhooks', { url: ra.url, kinds: ['audit.created'] }, s.keys.admin);
    expect({ status: refused.status, errors: refused.body.errors }).toEqual({
      status: 422,
      errors: [{ pointer: '/kinds', message: 'this endpoint would receive none of these: no operation reads Audit, so no caller sees audit.created' }],
    });
    await writeEach(s);
    const types = (r: Receiver) => r.received.map((x) => (JSON.parse(x.body) as { type: string }).type);
    await until(() => ro.received.length >= 4 && ra.received.length >= 3, 10_000, 'the deliveries');
    await until(async () => (await s.storage.listDeliveries({ status: 'pending' })).length === 0, 10_000, 'no pending deliveries');
    expect(types(ro).sort()).toEqual(['audit.created', 'note.created', 'note.deleted', 'notice.created']);
    expect(types(ra).sort()).toEqual(['note.created', 'note.deleted', 'notice.created']);
  });
});

describe('readers without a credential (authentication.default: none)', () => {
  it('see on the stream, and receive at an endpoint they registered, only events of what needs no credential to read; manage only their endpoints', async () => {
    const s = await start(true);
    const r = await startReceiver();
    cleanup.push(() => r.close());
    const registered = await s.call('POST', '/webhooks', { url: r.url }, {});
    expect(registered.status).toBe(201);
    const noticeId = await writeEach(s);
    expect(await kindsSeen(s, {})).toEqual(['notice.created']);
    // An operator's endpoint is not theirs: not listed, not removable, not rotatable.
    const operator = await addWebhookEndpoint({ storage: s.storage, model: s.model, policy: parseTargetPolicy(LOOPBACK) }, { url: r.url });
    expect((await s.call('GET', '/webhooks', undefined)).body.items.map((e: { id: string }) => e.id)).toEqual([registered.body.id]);
    expect((await s.call('POST', `/webhooks/${operator.endpoint.id}/rotate`, {})).status).toBe(404);
    expect((await s.call('DELETE', `/webhooks/${operator.endpoint.id}`, undefined)).status).toBe(404);
    expect(await s.storage.getWebhookEndpoint(operator.endpoint.id)).toBeDefined();
    await until(() => r.received.length >= 1, 10_000, 'the notice delivered');
    await until(async () => (await s.storage.listDeliveries({ status: 'pending' })).length === 0, 10_000, 'no pending deliveries');
    const delivered = await s.storage.listDeliveries({ endpointId: registered.body.id });
    expect(delivered.map((d) => d.eventType)).toEqual(['notice.created']);
    expect(JSON.parse(r.received[0]!.body)).toMatchObject({ type: 'notice.created', data: { object: { id: noticeId } } });
  });
});

describe('a database from before endpoints stored who registered them', () => {
  it('gains the column; an API-registered endpoint (a subject) then holds no scopes, an operator one stays unrestricted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'servicespec-kinds-'));
    cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'old.db');
    const Driver = loadSqliteDriver();
    const old = new Driver(path);
    old.exec(
      `CREATE TABLE _servicespec_webhooks (id TEXT NOT NULL PRIMARY KEY, url TEXT NOT NULL, kinds TEXT CHECK (kinds IS NULL OR json_valid(kinds)), description TEXT, subject TEXT, secrets TEXT NOT NULL CHECK (json_valid(secrets)), created_at TEXT NOT NULL, disabled_at TEXT, disabled_reason TEXT, after_seq INTEGER NOT NULL) STRICT`,
    );
    const insert = old.prepare(
      `INSERT INTO _servicespec_webhooks (id, url, kinds, subject, secrets, created_at, after_seq) VALUES (?, 'http://127.0.0.1:1/', NULL, ?, '[]', '2026-01-01T00:00:00.000Z', 0)`,
    );
    insert.run('ep_api', 'alice');
    insert.run('ep_operator', null);
    old.close();
    const storage = createSqliteStorage({ path, synchronous: 'normal' });
    try {
      expect((await storage.getWebhookEndpoint('ep_api'))?.access).toEqual({ subject: 'alice', scopes: [] });
      expect((await storage.getWebhookEndpoint('ep_operator'))?.access).toBeUndefined();
    } finally {
      await storage.close();
    }
  });
});
