// Rate-limited services: a complete default run against a spec limited to 50 requests a minute per credential
// paces itself on the service's RateLimit headers (and Retry-After) instead of ending INCOMPLETE, and says how
// long it waited and why. The service's limiter and the tester share one virtual clock, moved by the tester's waits:
// a minute's window passes at once, and nothing reads the wall clock.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compileSpecFile } from '../../src/program.js';
import { formatReportText } from '../../src/tester/tester-report.js';
import { readRateLimit } from '../../src/tester/tester-http.js';
import { getRunDefaults, type Clock } from '../../src/tester/tester-pacing.js';
import { testService } from '../../src/tester/tester-run.js';
import { ORDERS, startSpec, type OrdersServer } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'servicespec-pacing-'));
const spec = join(dir, 'orders-50.yaml');
// The failed-credential bound is widened: the runtime counts it on the wall clock, which this test does not speed
// up (its waits are the authentication checks' business); the rate budget is the one at 50 a minute.
writeFileSync(
  spec,
  readFileSync(ORDERS, 'utf8')
    .replace(/name: per_credential\n(\s+)requests: 100/, 'name: per_credential\n$1requests: 50')
    .replace(/failed_auth:\n(\s+)attempts: 10\n/, 'failed_auth:\n$1attempts: 10000\n'),
);
/**
 * The limiter's clock and the tester's, one virtual clock that moves only when the tester waits: on a clock that
 * ran with the wall's (even sped up), a run slowed by a loaded machine saw its windows refill and never waited.
 */
let now = Date.UTC(2026, 0, 1);
const clock: Clock = {
  now: () => now,
  sleep: (ms) =>
    new Promise((resolve) => {
      now += ms;
      setImmediate(resolve);
    }),
};

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpec(spec, new URL('../../examples/orders-handlers.js', import.meta.url).href, () => now);
}, 60_000);
afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('reads the RateLimit header in both drafts: the least remaining and when it refills', () => {
  expect(readRateLimit('"per_credential";r=3;t=20, "per_address";r=900;t=50', 1000)).toEqual({ remaining: 3, resetAt: 21_000, nextAt: 21_000 });
  // With the policy's quota, the next request is due after one quota's share of the reset.
  expect(readRateLimit('"per_credential";r=0;t=60', 0, '"per_credential";q=50;w=60')).toEqual({ remaining: 0, resetAt: 60_000, nextAt: 1200 });
  expect(readRateLimit('limit=100, remaining=0, reset=7', 0)).toEqual({ remaining: 0, resetAt: 7000, nextAt: 7000 });
  expect(readRateLimit(null, 0)).toBeUndefined();
  expect(readRateLimit('(((', 0)).toBeUndefined();
});

it('the defaults follow from the declared budget: fewer generated cases, a time limit that waits for its refills', () => {
  const model = compileSpecFile(spec).model!;
  const d = getRunDefaults(model, 10, 60_000);
  expect(d.runs).toBe(3);
  expect(d.timeLimitMs).toBeGreaterThan(60_000);
  expect(d.reason).toMatch(/50 requests per 60 s per credential \(per_credential\)/);
  // 100 a minute: every case, with time to wait for the refills.
  expect(getRunDefaults(compileSpecFile(ORDERS).model!, 10, 60_000)).toMatchObject({ runs: 10, timeLimitMs: 480_000 });
  expect(getRunDefaults(compileSpecFile(new URL('../../examples/empty.yaml', import.meta.url).pathname).model!, 10, 60_000)).toEqual({
    runs: 10,
    timeLimitMs: 60_000,
  });
  // library.yaml: 60 a minute on every operation, 10 an hour on createLoan alone: the defaults follow the first.
  expect(getRunDefaults(compileSpecFile(new URL('../../examples/library.yaml', import.meta.url).pathname).model!, 10, 60_000).reason).toMatch(
    /60 requests per 60 s per credential \(per_credential\)/,
  );
});

it('a default run against 50 requests a minute per credential completes, pacing itself, and says how long it waited and why', async () => {
  const r = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 7, clock });
  const notRun = r.results.filter((x) => x.outcome === 'skipped' && /not run|not finished|rate limit/.test(x.reason ?? ''));
  expect(notRun.map((x) => [x.check, x.target, x.reason])).toEqual([]);
  expect(r.stoppedBy).toBeUndefined();
  expect(r.results.filter((x) => x.outcome === 'failed').map((x) => [x.check, x.target, x.failure?.actual])).toEqual([]);
  expect(r.waited!.count).toBeGreaterThan(0);
  expect(Object.keys(r.waited!.byReason).join(' ')).toMatch(/RateLimit header said the credential's budget was spent/);
  // The budget is spent where checks need it: one case per kind of constraint (bench/tester-rate-limited.ts times it);
  // ~410 with the deterministic refusal checks (405, unknown path, header size) on every path; ~460 with a transition
  // sent twice with one idempotency key and the list read once after a change.
  expect(r.requests).toBeLessThan(500);
  expect(formatReportText(r)).toMatch(
    /waited \d+\.\d s for the service's rate budget \(.*RateLimit header.*\); the spec allows 50 requests per 60 s per credential/,
  );
}, 120_000);

it('a policy of one operation paces only that operation: its spent budget waits there, not on the others', async () => {
  const { createServer } = await import('node:http');
  const { TestClient, Throttled } = await import('../../src/tester/tester-http.js');
  // A loopback service: /loans carries a 10-per-hour policy that is spent, /books only the per-credential one.
  const server = createServer((req, res) => {
    const loans = req.url?.startsWith('/loans') ?? false;
    res.setHeader('ratelimit-policy', loans ? '"per_credential";q=60;w=60, "loans";q=10;w=3600' : '"per_credential";q=60;w=60');
    res.setHeader('ratelimit', loans ? '"per_credential";r=50;t=60, "loans";r=0;t=3600' : '"per_credential";r=49;t=60');
    res.setHeader('content-type', 'application/json');
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  let now = 0;
  const slept: number[] = [];
  const fake: Clock = { now: () => now, sleep: async (ms) => void (slept.push(ms), (now += ms)) };
  try {
    const client = new TestClient({
      baseUrl: `http://127.0.0.1:${port}`,
      maxRequests: 100,
      deadline: 1_000_000,
      clock: fake,
      credentialHeaders: ['x-api-key'],
    });
    const h = { 'x-api-key': 'k1' };
    await client.send({ method: 'POST', path: '/loans', headers: h });
    await client.send({ method: 'GET', path: '/books', headers: h });
    await client.send({ method: 'GET', path: '/books', headers: h });
    expect(slept).toEqual([]);
    // The next loan waits for one request's share of the hour (3600 s / 10), within the time limit.
    await client.send({ method: 'POST', path: '/loans', headers: h });
    expect(slept).toEqual([360_020]);
    expect(client.waits.count).toBe(1);
    // Another credential has its own budget.
    await client.send({ method: 'POST', path: '/loans', headers: { 'x-api-key': 'k2' } });
    expect(slept).toHaveLength(1);
    // Past the time limit the wait is not made: the check is skipped (Throttled), the run goes on.
    const short = new TestClient({ baseUrl: `http://127.0.0.1:${port}`, maxRequests: 100, deadline: 60_000, clock: fake, credentialHeaders: ['x-api-key'] });
    now = 0;
    await short.send({ method: 'POST', path: '/loans', headers: h });
    await expect(short.send({ method: 'POST', path: '/loans', headers: h })).rejects.toBeInstanceOf(Throttled);
    await short.send({ method: 'GET', path: '/books', headers: h });
  } finally {
    server.close();
  }
});
