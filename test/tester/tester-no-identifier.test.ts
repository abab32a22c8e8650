// The tester on a spec whose resources have no identifier (docs/format.md, "Resources without an identifier"): it
// lists and creates them, and addresses a Tag by the unique name its path binds; every check passes against the
// runtime, and every operation is reached with a success answer.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startSpec, type OrdersServer } from './helpers.js';

const SPEC = new URL('../fixtures/no-identifier.yaml', import.meta.url).pathname;

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpec(SPEC);
});
afterAll(async () => {
  await s?.close();
});

it('no-identifier.yaml: every check passes, and every operation is reached with a success answer', async () => {
  const report = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 5, runs: 5 });
  const failed = report.results.filter((r) => r.outcome === 'failed');
  expect(failed.map((r) => [r.check, r.target, r.failure?.expected, r.failure?.actual])).toEqual([]);
  const valid = report.results.filter((r) => r.check === 'endpoints.valid-requests');
  expect(valid.map((r) => [r.target, r.outcome]).sort()).toEqual(
    ['createNote', 'createTag', 'deleteTag', 'getTag', 'listNotes', 'listTags', 'replaceTag', 'updateTag'].map((t) => [t, 'passed']),
  );
}, 120_000);
