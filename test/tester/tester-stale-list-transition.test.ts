// A list answering an object's state before a transition (a list projection refreshed on create and update, not on
// a transition) passed: states.pairs read each transition back but never listed it, and the stale-list comparison
// of endpoints.valid-requests runs after updates and replaces only. Now each transition's first legal try is
// followed by the resource's lists (every one: `/tickets` and `/queues/{queueId}/tickets` alike), whose copy of
// the object must be the read's (an outside sweep's helpdesk projection-stale-transition). An update's comparison
// paged only the first list the spec names; it pages each.

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
  Board:
    fields:
      id: { type: integer, readOnly: true }
      name: { type: string, minLength: 1, maxLength: 20 }
  Job:
    fields:
      id: { type: uuid, readOnly: true }
      board_id: { type: ref, to: Board, readOnly: true }
      title: { type: string, minLength: 1, maxLength: 40 }
      status: { type: state }
states:
  Job:
    initial: queued
    terminal: [done]
    transitions:
      run: { from: queued, to: running }
      finish: { from: running, to: done }
endpoints:
  operations:
    createBoard: { method: POST, path: /boards, action: create, resource: Board }
    getBoard: { method: GET, path: "/boards/{id}", action: read, resource: Board }
    createJob: { method: POST, path: "/boards/{boardId}/jobs", action: create, resource: Job, bind: { boardId: board_id } }
    listBoardJobs: { method: GET, path: "/boards/{boardId}/jobs", action: list, resource: Job, bind: { boardId: board_id } }
    listJobs: { method: GET, path: /jobs, action: list, resource: Job }
    getJob: { method: GET, path: "/jobs/{id}", action: read, resource: Job }
    runJob: { method: POST, path: "/jobs/{id}/run", action: transition, resource: Job, transition: run }
    finishJob: { method: POST, path: "/jobs/{id}/finish", action: transition, resource: Job, transition: finish }
    editJob: { method: PATCH, path: "/jobs/{id}", action: update, resource: Job }
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

/** A proxy whose list `path` shows each job as it was made: its state before any transition. */
async function staleList(path: RegExp) {
  const made = new Map<string, unknown>();
  const stale = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map((x) => (x && typeof x === 'object' && made.has((x as { id: string }).id) ? made.get((x as { id: string }).id) : stale(x)))
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, stale(x)]))
        : v;
  return startProxy(s.url, {
    response: (res, req) => {
      const body = json(res);
      if (req.method === 'POST' && /^\/boards\/[0-9]+\/jobs$/.test(req.path) && res.status === 201 && body?.id) made.set(body.id, body);
      if (req.method !== 'GET' || !path.test(req.path) || res.status !== 200) return res;
      const text = Buffer.from(JSON.stringify(stale(body)));
      return { ...res, headers: { ...res.headers, 'content-length': String(text.length) }, body: text };
    },
  });
}

it('passes the faithful service, whose lists show each transition', async () => {
  const results = await pairs(s.url);
  expect(results.length).toBeGreaterThan(0);
  expect(results.filter((r) => r.outcome !== 'passed')).toEqual([]);
});

it.each([
  ['the unnested list', /^\/jobs(\?|$)/, 'listJobs'],
  ['the list under its board', /^\/boards\/[0-9]+\/jobs(\?|$)/, 'listBoardJobs'],
])('fails a service whose %s shows each job as it was made', async (_label, path, list) => {
  const proxy = await staleList(path);
  try {
    const failed = (await pairs(proxy.url)).filter((r) => r.outcome === 'failed');
    expect(failed.map((r) => r.target)).toContain('Job in queued');
    expect(failed[0]!.expected).toMatch(/^the list shows Job .* as a read does \(status: "running"\) after run from queued$/);
    expect(failed[0]!.actual).toBe(`${list} shows status: "queued"`);
  } finally {
    await proxy.close();
  }
});

it('fails an update whose second list (not the first the spec names) shows each job as it was made', async () => {
  const proxy = await staleList(/^\/jobs(\?|$)/);
  try {
    const run = await testService(s.model, { baseUrl: proxy.url, ...s.options, seed: 1, only: ['endpoints.valid-requests'] });
    const edit = run.results.find((r) => r.check === 'endpoints.valid-requests' && r.target === 'editJob');
    expect(edit?.outcome).toBe('failed');
    expect(edit?.failure?.expected).toMatch(/^the list shows Job .* as a read does \(title: .*\) after the update$/);
    expect(edit?.failure?.actual).toMatch(/^listJobs shows title: /);
  } finally {
    await proxy.close();
  }
});
