// A create under a parent path whose parameter binds a read-only field that is part of a unique key (Airflow's
// `POST /dags/{dag_id}/dagRuns`: a DAGRun's `dag_id` is read-only, unique with `dag_run_id`, given by the path
// alone): the body never writes it, so the tester had no value for the path and sent `/dags//dagRuns`, which a
// faithful serve refuses (400, the path is not valid): valid-requests and input-space failed against serve.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startSpecText, type OrdersServer } from './helpers.js';

const SPEC = `
servicespec: 1
resources:
  Run:
    unique_keys: [[dag_id, run_id]]
    fields:
      id: { type: integer, readOnly: true }
      dag_id: { type: string, readOnly: true, optional: true }
      run_id: { type: string, minLength: 1, maxLength: 40 }
endpoints:
  operations:
    createRun: { method: POST, path: '/dags/{dag_id}/runs', action: create, resource: Run, bind: { dag_id: dag_id } }
    listRuns: { method: GET, path: '/dags/{dag_id}/runs', action: list, resource: Run, bind: { dag_id: dag_id } }
authentication:
  default: none
errors:
  codes:
    invalid: { status: 400, when: [validation, malformed_request, unsupported_media_type] }
    taken: { status: 409, when: [unique_conflict] }
`;

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText('runs.yaml', SPEC);
});
afterAll(async () => {
  await s?.close();
});

it('sends a value in the path for a read-only key the body does not write, so no check fails against serve', async () => {
  const report = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 3 });
  const failed = report.results.filter((r) => r.outcome === 'failed');
  expect(failed.map((r) => [r.check, r.target, r.failure?.actual, r.failure?.curl])).toEqual([]);
  expect(report.results.find((r) => r.check === 'endpoints.valid-requests' && r.target === 'createRun')?.outcome).toBe('passed');
}, 120_000);
