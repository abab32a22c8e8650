// --rate-limits: the declared budget is spent on a runtime with its real clock; a server that does not refuse,
// or refuses without Retry-After, fails.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import type { TestReport } from '../../src/tester/tester-types.js';
import { ORDERS, startSpec, type OrdersServer } from './helpers.js';
import { startProxy, withJson, type Mutant } from './mutant-proxy.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpec(ORDERS, new URL('../../examples/orders-handlers.js', import.meta.url).href, 1);
});
afterAll(async () => {
  await s?.close();
});

const run = (baseUrl: string): Promise<TestReport> => testService(s.model, { baseUrl, ...s.options, seed: 5, rateLimits: true, only: ['limits.rate-limit'] });
const result = (r: TestReport) => r.results.find((x) => x.check === 'limits.rate-limit')!;

it('without --rate-limits the budget is not spent: skipped with the reason', async () => {
  const r = await testService(s.model, { baseUrl: s.url, ...s.options, only: ['limits.rate-limit'] });
  expect(result(r)).toMatchObject({ outcome: 'skipped', reason: 'not asked for: --rate-limits spends the declared budget' });
});

it('the runtime admits at most the declared 100 per minute, then answers 429 rate_limited with Retry-After and RateLimit headers', async () => {
  const r = await run(s.url);
  expect(result(r)).toMatchObject({ outcome: 'passed', target: 'listCustomers: per_credential 100 per 1m' });
  expect(r.requests).toBeGreaterThanOrEqual(100);
}, 60_000);

const MUTANTS: Mutant[] = [
  {
    name: 'no Retry-After on 429',
    caughtBy: 'limits.rate-limit',
    only: [],
    response: (r) => (r.status === 429 ? { ...r, headers: Object.fromEntries(Object.entries(r.headers).filter(([k]) => k !== 'retry-after')) } : r),
  },
  {
    name: 'the limit not enforced',
    caughtBy: 'limits.rate-limit',
    only: [],
    response: (r) => (r.status === 429 ? withJson({ ...r, status: 200 }, { items: [], next_cursor: null }) : r),
  },
];

it.each(MUTANTS.map((m) => [m.name, m] as const))(
  'mutant: %s is caught',
  async (_n, mutant) => {
    const proxy = await startProxy(s.url, mutant);
    try {
      const r = await run(proxy.url);
      expect(result(r).outcome).toBe('failed');
      expect(result(r).failure!.expected).toMatch(/Retry-After|rate_limited once 100 requests per 1m are spent/);
    } finally {
      await proxy.close();
    }
  },
  60_000,
);
