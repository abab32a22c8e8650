// errors.missing-parent: a create or a list whose path names its parent by a ref (a task's project_id: { type: ref,
// to: Project } under /projects/{projectId}/tasks), under a parent identifier that names nothing (a uuid, an integer
// past the run's), must be the declared missing_resource answer (an imported document's own 404); so must a custom
// GET under a parent's path declaring a 404 of its own (tasks.openapi.yaml's listTasks, a {data, has_more} list the
// format keeps custom). The runtime passes (test/fixtures/bound-parent-ref.yaml: a uuid and an integer parent), and
// the faithful tasks server; the tasks server planting create-missing-project (201) or list-missing-project (200 with
// no tasks) fails it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import type { TestReport } from '../../src/tester/tester-types.js';
import { loadModel, startService, type Running } from '../runtime/helpers.js';
import { runTasks } from './tasks-sweep.js';

const SPEC = new URL('../fixtures/bound-parent-ref.yaml', import.meta.url).pathname;

const results = (report: TestReport) =>
  report.results
    .filter((r) => r.check === 'errors.missing-parent')
    .map((r) => [r.target, r.outcome, r.reason ?? r.failure?.expected] as const)
    .sort();

describe('errors.missing-parent', () => {
  let s: Running;
  beforeAll(async () => {
    s = await startService(loadModel(SPEC));
  });
  afterAll(async () => s?.close());

  it('the runtime: every create and list under a ref-named parent passes, and nothing else fails', async () => {
    const report = await testService(loadModel(SPEC), { baseUrl: s.url, seed: 7, runs: 3 });
    expect(results(report)).toEqual(['createNote', 'createTask', 'listNotes', 'listTasks'].map((t) => [t, 'passed', undefined] as const));
    expect(report.results.filter((r) => r.outcome === 'failed').map((r) => [r.check, r.target, r.failure?.actual])).toEqual([]);
  }, 120_000);

  it('the faithful tasks server passes: its create, and its custom list under /projects/{projectId}', async () => {
    const report = await runTasks([], { seed: 1, only: ['errors.missing-parent'] });
    expect(results(report)).toEqual([
      ['createTask', 'passed', undefined],
      ['listTasks', 'passed', undefined],
    ]);
  }, 120_000);

  for (const [fault, target, status] of [
    ['create-missing-project', 'createTask', '201'],
    ['list-missing-project', 'listTasks', '200'],
  ] as const) {
    it(`the tasks server planting ${fault} fails it on ${target}`, async () => {
      const report = await runTasks([fault], { seed: 1, only: ['errors.missing-parent'] });
      const failed = report.results.filter((r) => r.check === 'errors.missing-parent' && r.outcome === 'failed');
      expect(failed.map((r) => r.target)).toEqual([target]);
      expect(failed[0]!.failure?.expected).toMatch(/under Project 0{8}-0{4}-4000-8000-0{12}, which does not exist/);
      expect(String(failed[0]!.failure?.actual)).toContain(`status ${status}`);
    }, 120_000);
  }
});
