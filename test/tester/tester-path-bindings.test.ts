// The tester on a spec whose paths bind fields (`bind`): it fills each bound path parameter from the objects it
// made (a read by username, a repository under its owner), and every check passes against the runtime.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startSpec, type OrdersServer } from './helpers.js';

const SPEC = new URL('../fixtures/path-bindings.yaml', import.meta.url).pathname;

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpec(SPEC);
});
afterAll(async () => {
  await s?.close();
});

it('path-bindings.yaml: every check passes, and every operation is reached with a success answer', async () => {
  const report = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 5, runs: 5 });
  const failed = report.results.filter((r) => r.outcome === 'failed');
  expect(failed.map((r) => [r.check, r.target, r.failure?.expected, r.failure?.actual])).toEqual([]);
  const valid = report.results.filter((r) => r.check === 'endpoints.valid-requests');
  expect(valid.map((r) => [r.target, r.outcome]).sort()).toEqual(
    ['createRepo', 'createUser', 'deleteRepo', 'deleteUser', 'getRepo', 'getUser', 'listRepos', 'replaceRepo', 'updateUser'].map((t) => [t, 'passed']),
  );
}, 120_000);
