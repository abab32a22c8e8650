// The tester on a spec whose paths bind nested fields under a key unique together (a Kubernetes-style Lease with no
// identifier, named by metadata.name within metadata.namespace): it fills each bound path parameter from the
// objects it made, and every check passes against the runtime, every operation reached with a success answer.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startSpec, type OrdersServer } from './helpers.js';

const SPEC = new URL('../fixtures/nested-bindings.yaml', import.meta.url).pathname;

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpec(SPEC);
});
afterAll(async () => {
  await s?.close();
});

it('nested-bindings.yaml: every check passes, and every operation is reached with a success answer', async () => {
  const report = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 5, runs: 5 });
  const failed = report.results.filter((r) => r.outcome === 'failed');
  expect(failed.map((r) => [r.check, r.target, r.failure?.expected, r.failure?.actual])).toEqual([]);
  const valid = report.results.filter((r) => r.check === 'endpoints.valid-requests');
  expect(valid.map((r) => [r.target, r.outcome]).sort()).toEqual(
    ['createLease', 'deleteLease', 'listAllLeases', 'listLeases', 'readLease', 'replaceLease'].map((t) => [t, 'passed']),
  );
}, 120_000);
