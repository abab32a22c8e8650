// The tester's own credential lacking a scope an operation requires: the service's refusal (the declared
// missing_scope answer) says nothing of the service, so those checks are skipped with the scopes named, not failed.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startOrders, type OrdersServer } from './helpers.js';

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
