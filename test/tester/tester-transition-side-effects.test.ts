// A legal transition that changed a field it has no say in (clearing an assignee, restamping another transition's
// time) passed: states.pairs held its answer and a read after to the state and the stamp only, and walked objects
// made with the required fields alone, so an optional field a transition cleared was never there to clear. Now a new
// object to walk holds every optional field, and what the transition has no say in (a field a client writes but its
// `requires`, the identifier, a create_time, another transition's stamp) must be as the walk left it (an outside
// sweep's helpdesk transition-clears-assignee and close-stamps-resolved).

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { PLAIN_ERRORS } from '../support/specs.js';
import { startSpecText, type OrdersServer } from './helpers.js';
import { json, startProxy } from './mutant-proxy.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText(
    'jobs.yaml',
    `servicespec: 1
resources:
  Job:
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string, minLength: 1, maxLength: 40 }
      assignee: { type: string, minLength: 1, maxLength: 20, optional: true, nullable: true }
      status: { type: state }
      note: { type: string, maxLength: 40, optional: true }
      started_at: { type: datetime, readOnly: true, optional: true }
      done_at: { type: datetime, readOnly: true, optional: true }
      updated_at: { type: datetime, readOnly: true, generated: update_time }
states:
  Job:
    initial: queued
    terminal: [done]
    transitions:
      run: { from: queued, to: running, stamp: started_at }
      finish: { from: running, to: done, stamp: done_at, requires: [note] }
endpoints:
  operations:
    createJob: { method: POST, path: /jobs, action: create, resource: Job }
    getJob: { method: GET, path: "/jobs/{id}", action: read, resource: Job }
    editJob: { method: PATCH, path: "/jobs/{id}", action: update, resource: Job }
    runJob: { method: POST, path: "/jobs/{id}/run", action: transition, resource: Job, transition: run }
    finishJob: { method: POST, path: "/jobs/{id}/finish", action: transition, resource: Job, transition: finish }
authentication:
  default: none
${PLAIN_ERRORS}    wrong_state: { status: 409, when: [illegal_transition] }
`,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const pairs = async (baseUrl: string) =>
  (await testService(s.model, { baseUrl, ...s.options, seed: 1, only: ['states.pairs'] })).results
    .filter((r) => r.check === 'states.pairs')
    .map((r) => ({ target: r.target, outcome: r.outcome, expected: r.failure?.expected, actual: r.failure?.actual }));

it('passes the faithful service, whose transitions change the state, their stamp and what they require only', async () => {
  const results = await pairs(s.url);
  expect(results.length).toBeGreaterThan(0);
  expect(results.filter((r) => r.outcome !== 'passed')).toEqual([]);
});

it('fails a service whose run clears the assignee', async () => {
  // The run answered, then the assignee cleared in storage (an update the proxy sends), and the answer shows it.
  const proxy = await startProxy(s.url, {
    response: async (res, req, send) => {
      const m = /^\/jobs\/([^/]+)\/run$/.exec(req.path);
      if (!m || res.status !== 200) return res;
      const headers = { 'content-type': 'application/json' };
      const cleared = await send({ method: 'PATCH', path: `/jobs/${m[1]!}`, headers, body: Buffer.from('{"assignee":null}') });
      const body = json(cleared);
      const answer = Buffer.from(JSON.stringify({ ...json(res), assignee: body?.assignee ?? null }));
      return { ...res, headers: { ...res.headers, 'content-length': String(answer.length) }, body: answer };
    },
  });
  try {
    const failed = (await pairs(proxy.url)).filter((r) => r.outcome === 'failed');
    expect(failed.map((r) => r.target)).toContain('Job in queued');
    expect(failed[0]!.expected).toBe('run from queued changes status and started_at, nothing else');
    expect(failed[0]!.actual).toMatch(/^assignee ".+" before run, null after$/);
  } finally {
    await proxy.close();
  }
});
