// A list answering an object's old values after a change a read shows (a list cache not invalidated) passed:
// endpoints.valid-requests read the change back but never listed it. Now, once per update or replace check, the
// list's copy of the changed object is held to the read.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { PLAIN_ERRORS } from '../support/specs.js';
import { startSpecText, type OrdersServer } from './helpers.js';
import { json, startProxy } from './mutant-proxy.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText(
    'notes.yaml',
    `servicespec: 1
resources:
  Note:
    fields:
      id: { type: uuid, readOnly: true }
      text: { type: string, minLength: 1, maxLength: 40 }
      updated_at: { type: datetime, readOnly: true, generated: update_time }
endpoints:
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note }
    getNote: { method: GET, path: "/notes/{id}", action: read, resource: Note }
    listNotes: { method: GET, path: /notes, action: list, resource: Note }
    editNote: { method: PATCH, path: "/notes/{id}", action: update, resource: Note }
    putNote: { method: PUT, path: "/notes/{id}", action: replace, resource: Note }
authentication:
  default: none
${PLAIN_ERRORS}`,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const validRequests = async (baseUrl: string) =>
  (await testService(s.model, { baseUrl, ...s.options, seed: 1, only: ['endpoints.valid-requests'] })).results
    .filter((r) => r.check === 'endpoints.valid-requests' && (r.target === 'editNote' || r.target === 'putNote'))
    .map((r) => ({ target: r.target, outcome: r.outcome, expected: r.failure?.expected }));

it('passes the faithful service, whose list shows each change', async () => {
  expect((await validRequests(s.url)).map((r) => [r.target, r.outcome])).toEqual([
    ['editNote', 'passed'],
    ['putNote', 'passed'],
  ]);
});

it('fails a service whose list shows each note as it was made', async () => {
  const made = new Map<string, unknown>();
  // Each listed note swapped for its copy at create: a list reading a copy no change refreshes.
  const stale = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map((x) => (x && typeof x === 'object' && made.has((x as { id: string }).id) ? made.get((x as { id: string }).id) : stale(x)))
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, stale(x)]))
        : v;
  const proxy = await startProxy(s.url, {
    response: (res, req) => {
      const body = json(res);
      if (req.method === 'POST' && req.path === '/notes' && res.status === 201 && body?.id) made.set(body.id, body);
      if (req.method !== 'GET' || !/^\/notes(\?|$)/.test(req.path) || res.status !== 200) return res;
      const text = Buffer.from(JSON.stringify(stale(body)));
      return { ...res, headers: { ...res.headers, 'content-length': String(text.length) }, body: text };
    },
  });
  try {
    const results = await validRequests(proxy.url);
    expect(results.map((r) => [r.target, r.outcome])).toEqual([
      ['editNote', 'failed'],
      ['putNote', 'failed'],
    ]);
    expect(results[0]!.expected).toMatch(/^the list shows Note .* as a read does \(text: .*\) after the update$/);
  } finally {
    await proxy.close();
  }
});
