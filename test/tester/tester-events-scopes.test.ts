// Events and scopes: an event the tester's own credential may not see (it lacks a scope reading the object needs)
// is skipped naming the scope, never failed; ownership of events is checked for every trigger (create, update,
// delete and each transition), not only creates.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startOrders, type OrdersServer } from './helpers.js';
import { startProxy } from './mutant-proxy.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startOrders();
});
afterAll(async () => s?.close());

it('a key lacking customers:read: customer.created, which the service rightly hides from it, is skipped naming the scope', async () => {
  const key = await s.createKey('dora', ['customers:write', 'orders:read', 'orders:write']);
  const credentials = { ...s.options.credentials, headers: { 'X-API-Key': key } };
  const report = await testService(s.model, { baseUrl: s.url, ...s.options, credentials, seed: 3, runs: 2, only: ['events.emitted'] });
  expect(report.results.filter((r) => r.outcome === 'failed').map((r) => [r.target, r.failure?.actual])).toEqual([]);
  const hidden = report.results.find((r) => r.target.startsWith('customer.created '))!;
  expect(hidden.outcome).toBe('skipped');
  expect(hidden.reason).toMatch(
    /^the credential given lacks customers:read \(reading Customer needs it\), so the service rightly keeps customer\.created from it/,
  );
  expect(hidden.notRun).toBe(true);
  expect(report.verdict).toBe('incomplete');
  // Events the key may see are still checked (pay is skipped: the payment client given is another subject's).
  for (const kind of ['order.created', 'order.cancelled']) expect(report.results.find((r) => r.target.startsWith(`${kind} `))?.outcome).toBe('passed');
}, 60_000);

it("serve: the ownership of every event trigger is checked on the other subject's stream, and passes", async () => {
  const report = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 3, runs: 2, only: ['events.ownership'] });
  expect(report.results.filter((r) => r.outcome !== 'passed' && r.notRun !== undefined).map((r) => [r.target, r.reason, r.failure?.actual])).toEqual([]);
  expect(report.results.filter((r) => r.outcome === 'failed')).toEqual([]);
  const targets = report.results.map((r) => r.target);
  expect(targets).toContain("order.paid on transition pay of Order, on another subject's stream");
  expect(targets).toContain("order.cancelled on transition cancel of Order, on another subject's stream");
  expect(targets.some((t) => t.startsWith('order.created on create of Order'))).toBe(true);
}, 60_000);

it("a stream that hands one owner's transition events to another owner is caught (creates are not leaked)", async () => {
  // The other subject's stream is served as the main subject's, with every *.created event dropped from all streams:
  // only events of updates, deletes and transitions leak.
  const proxy = await startProxy(s.url, {
    name: 'transition events leaked',
    caughtBy: 'events.ownership',
    only: [],
    request: (r) =>
      (r.headers.accept ?? '').includes('text/event-stream') && r.headers['x-api-key'] === s.keys.bob
        ? { ...r, headers: { ...r.headers, 'x-api-key': s.keys.alice } }
        : r,
    event: (block) => (/^event: \w+\.created$/m.test(block) ? undefined : block),
  });
  try {
    const report = await testService(s.model, { baseUrl: proxy.url, ...s.options, seed: 3, runs: 2, only: ['events.ownership'] });
    const failed = report.results.filter((r) => r.outcome === 'failed');
    expect(failed.map((r) => r.target)).toContain("order.paid on transition pay of Order, on another subject's stream");
    expect(failed.find((r) => r.target.startsWith('order.paid'))!.failure!.actual).toMatch(/order\.paid for \S+ seen by the other subject after payOrder/);
  } finally {
    await proxy.close();
  }
}, 60_000);
