// The tester's own credential lacking a scope an operation requires: the service's refusal (the declared
// missing_scope answer) says nothing of the service, so those checks are skipped with the scopes named, not failed.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startOrders, type OrdersServer } from './helpers.js';
import { startProxy, withJson } from './mutant-proxy.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startOrders();
});
afterAll(async () => s?.close());

it('checks of operations whose scopes the main credential lacks are skipped, naming the scopes; none fails on the refusal', async () => {
  const report = await testService(s.model, { baseUrl: s.url, ...s.options, credentials: s.options.limited!, seed: 1, runs: 3, only: ['endpoints'] });
  const refused = report.results.filter((r) => r.outcome === 'failed' && /\b403\b/.test(r.failure?.actual ?? ''));
  expect(refused.map((r) => [r.check, r.target, r.failure?.actual.slice(0, 120)])).toEqual([]);
  const skipped = report.results.filter((r) => r.outcome === 'skipped' && r.reason?.startsWith('the credential given lacks a scope'));
  expect(skipped.length).toBeGreaterThan(0);
  expect(skipped[0]!.reason).toMatch(/requires \([a-z]+:[a-z]+/);
}, 60_000);

it("a 403 for an object that does not exist, from an operation the credential was answered by before, is the service's: errors.missing-object fails", async () => {
  // The read answers 403 (the declared missing_scope body) where it means 404: it tells a client the id is taken.
  const proxy = await startProxy(s.url, {
    response: (res, req) =>
      req.method === 'GET' && /^\/orders\/[^/]+$/.test(req.path) && res.status === 404
        ? withJson(
            { ...res, status: 403, headers: { ...res.headers, 'content-type': 'application/problem+json' } },
            { title: 'Not allowed', status: 403, code: 'forbidden' },
          )
        : res,
  });
  try {
    const report = await testService(s.model, {
      baseUrl: proxy.url,
      ...s.options,
      seed: 1,
      runs: 3,
      only: ['endpoints.valid-requests', 'errors.missing-object'],
    });
    const r = report.results.find((x) => x.check === 'errors.missing-object' && x.target === 'getOrder');
    expect([r?.outcome, r?.reason]).toEqual(['failed', undefined]);
  } finally {
    await proxy.close();
  }
}, 60_000);
