// Every answer judged (tester-judge.ts): whatever check sent the request, its answer is held to the media type,
// the headers and the shape the spec declares, and to no undeclared 5xx. Against the real runtime every judged
// check passes; each mutant planted behind a proxy is caught by the judge's check named.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import type { TestReport } from '../../src/tester/tester-types.js';
import { startOrders, type OrdersServer } from './helpers.js';
import { startProxy, type Mutant } from './mutant-proxy.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startOrders();
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const JUDGED = [
  'endpoints.no-server-error',
  'endpoints.status',
  'endpoints.media-type',
  'errors.media-type',
  'errors.answer-shape',
  'endpoints.location',
  'endpoints.answer-shape',
  'limits.answer-headers',
  'versioning.answer-headers',
];
const run = (baseUrl: string, seed = 3): Promise<TestReport> =>
  testService(s.model, {
    baseUrl,
    ...s.options,
    seed,
    runs: 2,
    only: ['endpoints.valid-requests', 'errors.missing-object', 'errors.malformed-id', 'endpoints.unknown-path', ...JUDGED],
  });
const failed = (r: TestReport) => r.results.filter((x) => x.outcome === 'failed');

it('against the runtime: every judged check passes, on every operation that answered', async () => {
  const r = await run(s.url);
  expect(failed(r).map((x) => [x.check, x.target, x.failure?.actual])).toEqual([]);
  const judged = new Set(r.results.filter((x) => JUDGED.includes(x.check)).map((x) => x.check));
  expect([...judged].sort()).toEqual([
    'endpoints.answer-shape',
    'endpoints.location',
    'endpoints.media-type',
    'endpoints.no-server-error',
    'endpoints.status',
    'errors.answer-shape',
    'errors.media-type',
    'limits.answer-headers',
    'versioning.answer-headers',
  ]);
  // A built-in answer (a path no route matches: endpoints.unknown-path's) is judged too.
  expect(r.results.some((x) => x.check === 'errors.answer-shape' && x.target === 'a request no route matches' && x.outcome === 'passed')).toBe(true);
  expect(r.results.some((x) => x.check === 'endpoints.location' && x.target === 'createOrder' && x.outcome === 'passed')).toBe(true);
}, 120_000);

const strip = (headers: Record<string, string>, name: string) => Object.fromEntries(Object.entries(headers).filter(([k]) => k !== name));

const MUTANTS: (Mutant & { target: RegExp })[] = [
  {
    name: 'errors sent as application/json where the spec says body: problem',
    caughtBy: 'errors.media-type',
    target: /./,
    only: [],
    response: (r) => (r.status >= 400 ? { ...r, headers: { ...r.headers, 'content-type': 'application/json; charset=utf-8' } } : r),
  },
  {
    name: 'no Location header on create',
    caughtBy: 'endpoints.location',
    target: /^createOrder$/,
    only: [],
    response: (r, req) => (req.method === 'POST' && req.path.split('?')[0] === '/orders' ? { ...r, headers: strip(r.headers, 'location') } : r),
  },
  {
    name: 'no RateLimit header on reads',
    caughtBy: 'limits.answer-headers',
    target: /^getOrder$/,
    only: [],
    response: (r, req) => (req.method === 'GET' && /^\/orders\/[^/?]+(\?|$)/.test(req.path) ? { ...r, headers: strip(r.headers, 'ratelimit') } : r),
  },
  {
    name: 'a 500 on every delete',
    caughtBy: 'endpoints.no-server-error',
    target: /^delete/,
    only: [],
    response: (r, req) =>
      req.method === 'DELETE'
        ? {
            ...r,
            status: 500,
            headers: { ...r.headers, 'content-type': 'application/problem+json' },
            body: Buffer.from('{"type":"about:blank","title":"Internal","status":500}'),
          }
        : r,
  },
  {
    name: 'no Vary on the version header',
    caughtBy: 'versioning.answer-headers',
    target: /./,
    only: [],
    response: (r) => ({ ...r, headers: strip(r.headers, 'vary') }),
  },
  {
    name: 'the built-in not-found answer as text/plain',
    caughtBy: 'errors.media-type',
    target: /^a request no route matches$/,
    only: [],
    response: (r, req) =>
      r.status === 404 && req.path.split('?')[0]!.endsWith('/servicespec-no-such-path')
        ? { ...r, headers: { ...r.headers, 'content-type': 'text/plain' }, body: Buffer.from('Not Found') }
        : r,
  },
  {
    name: 'a create answered 200 instead of 201',
    caughtBy: 'endpoints.status',
    target: /^create/,
    only: [],
    response: (r, req) => (req.method === 'POST' && r.status === 201 ? { ...r, status: 200 } : r),
  },
];

it.each(MUTANTS.map((m) => [m.name, m] as const))(
  'mutant: %s is caught',
  async (_n, mutant) => {
    const proxy = await startProxy(s.url, mutant);
    try {
      const r = await run(proxy.url);
      const hit = failed(r).filter((x) => x.check === mutant.caughtBy && mutant.target.test(x.target));
      expect(
        hit.map((x) => x.target),
        JSON.stringify(failed(r).map((x) => [x.check, x.target])),
      ).not.toEqual([]);
      expect(hit[0]!.failure!.curl).toMatch(/^curl /);
    } finally {
      await proxy.close();
    }
  },
  120_000,
);
