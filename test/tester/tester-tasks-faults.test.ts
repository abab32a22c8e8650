// The second OpenAPI-first sweep, as users run the tester: fixtures/tasks.openapi.yaml (OpenAPI 3.1, written by hand:
// projects and their nested tasks, bearer auth, a page/per_page bare-array list with Link, a `{data, has_more}` list,
// an RPC `complete`, a discriminated assignee, RFC 9457 problems without a `code` member) imported as
// `servicespec import openapi` makes it, nothing edited, run against fixtures/tasks-server.mjs (node:http, written
// from the document alone) with faults planted one at a time (tasks-sweep.ts; bench/tester-tasks-sweep.ts prints the
// whole table). The faithful server must pass with no check failed (its merge-patch PATCH imported as
// request_media_type: application/merge-patch+json); each fault listed is caught by the check named, on a default run. On main before this sweep, 52 checks failed on the
// faithful server and every task fault got through (the task paths were imported as custom operations).

import { describe, expect, it } from 'vitest';
import { failedChecks, runTasks } from './tasks-sweep.js';

describe('the Projects and Tasks service, by hand from an OpenAPI 3.1 document', () => {
  it('without a fault passes a default run (seed 1), its merge-patch PATCH included', async () => {
    const report = await runTasks([], { seed: 1 });
    const failed = report.results.filter((r) => r.outcome === 'failed');
    // updateProject takes application/merge-patch+json only: imported as request_media_type, sent as that type.
    expect(failed.map((r) => `${r.check} ${r.target}: ${r.failure?.actual}`)).toEqual([]);
    for (const check of ['endpoints.valid-requests', 'endpoints.input-space'])
      expect(report.results.find((r) => r.check === check && r.target === 'updateProject')?.outcome, check).toBe('passed');
    // Reached with real objects: the task actions (bound under a project that exists) and the RPC complete.
    for (const check of ['errors.other-scope', 'errors.missing-parent', 'endpoints.invalid-requests', 'authentication.no-credential'])
      expect(report.results.filter((r) => r.check === check && r.outcome === 'passed').length, check).toBeGreaterThan(0);
    expect(report.results.some((r) => r.check === 'endpoints.valid-requests' && r.target === 'completeTask' && r.outcome === 'passed')).toBe(true);
    // The credential checks reach the RPC too, on a task the run made (they skipped it: "no object to address").
    for (const check of ['authentication.no-credential', 'authentication.bad-credential'])
      expect(report.results.find((r) => r.check === check && r.target === 'completeTask')?.outcome, check).toBe('passed');
    expect(report.verdict).toBe('passed');
  }, 60_000);
});

/** Faults and the check that catches each on a default run (seed 1); `before` names the change that made it caught. */
const CAUGHT: { fault: string; check: string; before?: string }[] = [
  { fault: 'create-project-200', check: 'endpoints.status' },
  { fault: 'delete-task-200', check: 'endpoints.status', before: 'nested task paths imported as resource actions' },
  { fault: 'task-missing-priority', check: 'resources.response-shape', before: 'nested task paths' },
  { fault: 'due-as-datetime', check: 'resources.response-shape', before: 'nested task paths' },
  { fault: 'assignee-no-tag', check: 'endpoints.union-variants', before: 'nested task paths' },
  { fault: 'priority-range-ignored', check: 'endpoints.invalid-requests', before: 'nested task paths' },
  { fault: 'priority-string-accepted', check: 'endpoints.invalid-requests', before: 'nested task paths' },
  { fault: 'put-partial-accepted', check: 'endpoints.invalid-requests', before: 'optionalInRequests: create' },
  { fault: 'cross-project-read', check: 'errors.other-scope', before: 'errors.other-scope' },
  { fault: 'cross-project-write', check: 'errors.other-scope', before: 'errors.other-scope' },
  { fault: 'create-missing-project', check: 'errors.missing-parent', before: 'errors.missing-parent' },
  { fault: 'list-missing-project', check: 'errors.missing-parent', before: 'errors.missing-parent' },
  { fault: 'error-json-media', check: 'errors.media-type', before: 'a declared body’s stated media type' },
  { fault: 'problem-status-mismatch', check: 'errors.declared-codes', before: 'a declared body’s status field' },
  { fault: 'complete-201', check: 'endpoints.status', before: 'an action below a read path sent to an object made' },
  { fault: 'done-undeclared', check: 'endpoints.answer-shape', before: 'an action below a read path sent to an object made' },
  { fault: 'link-next-same', check: 'endpoints.list-paging' },
  { fault: 'total-count-wrong', check: 'endpoints.list-paging', before: 'X-Total-Count imported as paging.total_header' },
  { fault: 'has-more-wrong', check: 'endpoints.list-paging', before: 'the {data, has_more} list imported as paging style after' },
  { fault: 'cursor-repeat', check: 'endpoints.list-paging', before: 'style after' },
  { fault: 'task-limit-ignored', check: 'endpoints.list-edges', before: 'style after' },
  { fault: 'status-filter-ignored', check: 'endpoints.list-paging', before: 'a filter sent a value of its enum no object holds' },
  { fault: 'per-page-max-ignored', check: 'limits.page-size' },
  { fault: 'no-token-accepted', check: 'authentication.no-credential' },
  { fault: 'any-token-accepted', check: 'authentication.bad-credential' },
  { fault: 'complete-no-token', check: 'authentication.no-credential', before: 'the auth checks address an action below a read path' },
  { fault: 'delete-not-deleting', check: 'endpoints.valid-requests', before: 'nested task paths' },
  { fault: 'patch-not-stored', check: 'endpoints.valid-requests', before: 'request_media_type: application/merge-patch+json' },
  { fault: 'patch-null-clears-name', check: 'endpoints.invalid-requests', before: 'request_media_type: application/merge-patch+json' },
  { fault: 'unknown-dropped', check: 'endpoints.invalid-requests', before: 'unknown_fields: refuse, from additionalProperties: false' },
  { fault: 'readonly-ignored', check: 'endpoints.invalid-requests', before: 'unknown_fields: refuse, from additionalProperties: false' },
];

describe('each planted fault, caught by the check that names it', () => {
  for (const f of CAUGHT)
    it(`${f.fault}${f.before ? ` (${f.before})` : ''}: ${f.check} fails`, async () => {
      const report = await runTasks([f.fault], { seed: 1 });
      expect(failedChecks(report)).toContain(f.check);
    }, 60_000);
});
