// The tester on a spec with resources under a parent (`parent`, docs/format.md "Resources under a parent"): it makes
// an article (a board) first and addresses every comment (note) under it, so each operation is reached with a
// success answer and every check passes against the runtime.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startSpec, type OrdersServer } from './helpers.js';

const SPEC = new URL('../fixtures/parent-resource.yaml', import.meta.url).pathname;

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpec(SPEC);
});
afterAll(async () => {
  await s?.close();
});

it('parent-resource.yaml: every check passes, and every operation is reached with a success answer', async () => {
  const report = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 5, runs: 5 });
  const failed = report.results.filter((r) => r.outcome === 'failed');
  expect(failed.map((r) => [r.check, r.target, r.failure?.expected, r.failure?.actual])).toEqual([]);
  const valid = report.results.filter((r) => r.check === 'endpoints.valid-requests');
  expect(valid.map((r) => [r.target, r.outcome]).sort()).toEqual(
    [
      'createArticle',
      'createBoard',
      'createComment',
      'createNote',
      'deleteArticle',
      'deleteBoard',
      'deleteComment',
      'getArticle',
      'getComment',
      'getNote',
      'listAllComments',
      'listComments',
      'listNotes',
      'replaceComment',
      'updateComment',
    ].map((t) => [t, 'passed']),
  );
  // A create and a list under a parent no object is: missing_resource, judged (as for a parent named by a ref).
  const missing = report.results.filter((r) => r.check === 'errors.missing-parent');
  expect(missing.map((r) => [r.target, r.outcome]).sort()).toEqual(['createComment', 'createNote', 'listComments', 'listNotes'].map((t) => [t, 'passed']));
}, 120_000);
