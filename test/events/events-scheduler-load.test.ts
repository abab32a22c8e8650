// Webhook retries keep their declared schedule under load (issue 30, item 3): three `serve` instances on one
// PostgreSQL schema, a bounded create load from another process, a receiver on 127.0.0.1 that fails the first attempt
// of every event. Each retry is declared at 1 s with the default jitter (±20 %): it must arrive 0.8–1.2 s after the
// first attempt, plus the scheduler's lag. The receiver's clock is its own (this process does nothing else while the
// load runs); the instances' own measure of the same lag is read from their health.
//
// The load is held at a rate (SCHEDULER_LOAD_RATE, 300 creates/s): pushed as fast as the machine allows, creates
// outran the instances' deliveries on one CI machine (862 creates/s, first attempts 7 s late and growing), and then
// the backlog, not the scheduler, sets every lag. On this machine, quiet, at 600/s this code's gap p95 was 1,205 ms
// and the code before the scheduler's (594ac95~1) 5,804 ms; at 300/s both keep the jitter (bench/RESULTS.md). The
// assertions hold on any machine that sustains the rate: every retry arrives, none before its jitter window opens,
// the instances' own lag (health) agrees with the receiver's clock within 0.5 s, and p95 ≤ the jitter + 2.5 s
// (SCHEDULER_LOAD_TOLERANCE_MS; on a quiet machine 250 holds). SCHEDULER_LOAD_CLI=<path to another checkout's
// src/cli/cli-main.ts> runs the same load on other code. CI runs this file alone (the marker below, .ci/run): beside
// another test file it measured that file's load. A failed measurement is taken again once (`retry: 1`).

// ci: alone

import { spawn } from 'node:child_process';
import { connect as netConnect } from 'node:net';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect as natsConnect } from 'nats';
import { afterAll, describe, expect, it } from 'vitest';
import { dropTestSchema, getPostgresSkipReason, getTestSchemaUrl } from '../support/postgres.js';
import { startReceiver, until } from './helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = process.env.SCHEDULER_LOAD_CLI ?? join(ROOT, 'src', 'cli', 'cli-main.ts');
const INSTANCES = 3;
const LOAD_MS = Number(process.env.SCHEDULER_LOAD_MS ?? 15_000);
/** Creates in flight at most, across the instances. */
const LOAD_CONCURRENCY = 12;
/** Creates started per second at most, across the instances (see the header). */
const LOAD_RATE = Number(process.env.SCHEDULER_LOAD_RATE ?? 300);
const DECLARED_MS = 1_000;
const JITTER = 0.2;
/** See the header: what the machine's load adds beyond the jitter, at p95. */
const TOLERANCE_MS = Number(process.env.SCHEDULER_LOAD_TOLERANCE_MS ?? 2_500);

const pgSkip = await getPostgresSkipReason();
/** With NATS running, the instances also publish every event (serve --broker): the publishes' lag is measured too. */
const natsUp = await new Promise<boolean>((resolve) => {
  const s = netConnect(4222, '127.0.0.1');
  s.once('connect', () => (s.destroy(), resolve(true)));
  s.once('error', () => resolve(false));
});
const dir = mkdtempSync(join(tmpdir(), 'servicespec-sched-load-'));
const schemas: string[] = [];
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  for (const s of schemas) await dropTestSchema(s).catch(() => undefined);
});

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

interface Child {
  url: string;
  kill(): void;
  exited: Promise<unknown>;
}

function serve(args: string[]): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve', ...args, '--port', '0', '--log', 'warn'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stdout!.resume();
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 120_000);
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /serving .* at (http:\/\/[^ ]+) /.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1]!, kill: () => child.kill('SIGTERM'), exited });
      }
    });
    void exited.then((code) => reject(new Error(`serve exited with ${String(code)}: ${err}`)));
  });
}

/** The load: another process creating tickets at LOAD_RATE, LOAD_CONCURRENCY at most in flight, round-robin over the instances. */
function load(urls: readonly string[], ms: number): Promise<{ created: number; failed: number }> {
  // Creation i starts no sooner than start + i / LOAD_RATE: the load is held at a rate, not pushed as fast as the
  // machine allows (past the instances' delivery capacity the backlog, not the scheduler, sets every lag).
  const script = `
    const urls = ${JSON.stringify(urls)}; const start = Date.now(), end = start + ${ms}; let i = 0, created = 0, failed = 0;
    const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
    async function one() { for (;;) { const n = i++; const at = start + (n * 1000) / ${LOAD_RATE}; if (at >= end) return;
      if (at > Date.now()) await sleep(at - Date.now()); const url = urls[n % urls.length];
      try { const r = await fetch(url + '/tickets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'load' }) });
        await r.arrayBuffer(); if (r.status === 201) created++; else failed++; } catch { failed++; } } }
    Promise.all(Array.from({ length: ${LOAD_CONCURRENCY} }, one)).then(() => process.stdout.write(JSON.stringify({ created, failed })));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as { created: number; failed: number }) : reject(new Error(`load exited with ${code}`)))),
  );
}

describe.skipIf(pgSkip !== undefined)('webhook retries under load (three PostgreSQL instances)', () => {
  it(`a retry declared at 1 s arrives within the jitter plus ${TOLERANCE_MS} ms at p95 while creates run`, { retry: 1, timeout: 400_000 }, async () => {
    const url = getTestSchemaUrl();
    schemas.push(url);
    const spec = join(dir, `load-${randomBytes(3).toString('hex')}.yaml`);
    const tag = `sl${randomBytes(4).toString('hex')}`;
    let text = readFileSync(new URL('./fixtures/events-public.yaml', import.meta.url), 'utf8').replace(
      'retries: [100ms, 200ms], timeout: 500ms',
      'retries: [1s, 2s], timeout: 2s',
    );
    if (natsUp)
      text = text.replace(
        '    stream: { path: /events, heartbeat: 200ms }\n',
        `    stream: { path: /events, heartbeat: 200ms }\n    broker:\n      nats: { subject: "${tag}.{kind}", stream: ${tag.toUpperCase()} }\n`,
      );
    writeFileSync(spec, text);
    // First attempt of each event: 503; every later one: 204.
    const firstSeen = new Set<string>();
    const receiver = await startReceiver((_n, r) => {
      const id = String(r.headers['webhook-id']);
      if (firstSeen.has(id)) return { status: 204 };
      firstSeen.add(id);
      return { status: 503 };
    });
    const args = [
      spec,
      '--db',
      url,
      '--allow-gaps',
      '--allow-webhook-target',
      '127.0.0.0/8',
      '--metrics',
      ...(natsUp ? ['--broker', 'nats://127.0.0.1:4222'] : []),
    ];
    // The first creates the schema; the others join it.
    const first = await serve(args);
    const instances = [first, ...(await Promise.all(Array.from({ length: INSTANCES - 1 }, () => serve(args))))];
    try {
      const reg = await fetch(`${first.url}/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url, kinds: ['ticket.created'] }),
      });
      expect(reg.status).toBe(201);
      const result = await load(
        instances.map((i) => i.url),
        LOAD_MS,
      );
      expect(result.created).toBeGreaterThan(0);
      // Every event's retry arrives (2 attempts each).
      await until(
        () =>
          new Set(receiver.received.filter((r) => r.headers['webhook-id'] !== undefined).map((r) => r.headers['webhook-id'])).size >= result.created &&
          receiver.received.length >= 2 * result.created,
        120_000,
        'every retry',
      );
      const byId = new Map<string, number[]>();
      for (const r of receiver.received) {
        const id = String(r.headers['webhook-id']);
        byId.set(id, [...(byId.get(id) ?? []), r.at]);
      }
      const gaps = [...byId.values()].filter((a) => a.length >= 2).map((a) => a[1]! - a[0]!);
      const health = await Promise.all(
        instances.map(
          async (i) =>
            (
              (await (await fetch(`${i.url}/_servicespec/health`)).json()) as {
                delivery?: Record<string, { count: number; lag_p50_ms: number; lag_p95_ms: number; lag_max_ms: number }>;
              }
            ).delivery,
        ),
      );
      const figures = {
        created: result.created,
        failedWrites: result.failed,
        createsPerSecond: Math.round(result.created / (LOAD_MS / 1000)),
        gapMs: { p50: quantile(gaps, 0.5), p95: quantile(gaps, 0.95), max: Math.max(...gaps) },
        instanceRetryLag: health.map((h) => h?.['webhook.retry']),
        instanceFirstLag: health.map((h) => h?.['webhook.first']),
        // One instance holds the relay's lease and publishes.
        brokerPublishLag: health.map((h) => h?.['broker.publish']).filter((l) => l !== undefined),
      };
      console.log(`scheduler under load: ${JSON.stringify(figures)}`);
      expect(result.failed).toBe(0);
      expect(gaps.length).toBe(result.created);
      // Never sooner than the jitter allows (the receiver's clock; 5 ms for the two clocks' rounding).
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(DECLARED_MS * (1 - JITTER) - 5);
      expect(figures.gapMs.p95).toBeLessThanOrEqual(DECLARED_MS * (1 + JITTER) + TOLERANCE_MS);
      // The lag the instances report is the lag the receiver sees: its gap's median is the declared delay (the
      // jitter's mean factor is 1) plus the retries' median lag.
      const reported = quantile(
        figures.instanceRetryLag.map((l) => l!.lag_p50_ms),
        0.5,
      );
      expect(Math.abs(figures.gapMs.p50 - DECLARED_MS - reported)).toBeLessThanOrEqual(500);
      if (natsUp) {
        // A publish is due when its event commits: its lag (broker ack − commit) within the same tolerance.
        await until(
          async () => ((await (await fetch(`${first.url}/_servicespec/health`)).json()) as { broker?: { lag: number } }).broker?.lag === 0,
          60_000,
          'every event published',
        );
        expect(figures.brokerPublishLag.length).toBeGreaterThan(0);
        for (const l of figures.brokerPublishLag) expect(l!.lag_p95_ms).toBeLessThanOrEqual(TOLERANCE_MS);
      }
    } finally {
      for (const i of instances) i.kill();
      await Promise.all(instances.map((i) => i.exited));
      await receiver.close();
      if (natsUp) {
        const nc = await natsConnect({ servers: '127.0.0.1:4222' });
        await (await nc.jetstreamManager()).streams.delete(tag.toUpperCase()).catch(() => undefined);
        await nc.close();
      }
    }
  });
});
