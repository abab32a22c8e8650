// endpoints.idempotency held creates only: an update or a replace sent twice with one Idempotency-Key must get its
// first answer again (a client's retry of a change is not applied twice), and a service refusing the retry (a
// Stripe-like "unexpected state" on a replayed action, a 409 for a key it has seen) passed.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { PLAIN_ERRORS } from '../support/specs.js';
import { startSpecText, type OrdersServer } from './helpers.js';
import { startProxy } from './mutant-proxy.js';

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
  idempotency: { header: Idempotency-Key, retention: 24h }
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note }
    getNote: { method: GET, path: "/notes/{id}", action: read, resource: Note }
    editNote: { method: PATCH, path: "/notes/{id}", action: update, resource: Note }
    putNote: { method: PUT, path: "/notes/{id}", action: replace, resource: Note }
authentication:
  default: none
${PLAIN_ERRORS.replace('codes:', 'codes:\n    key_reused: { status: 409, when: [idempotency_conflict] }')}`,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const idempotency = async (baseUrl: string) =>
  (await testService(s.model, { baseUrl, ...s.options, seed: 1, only: ['endpoints.idempotency'] })).results
    .filter((r) => r.check === 'endpoints.idempotency')
    .map((r) => ({ target: r.target, outcome: r.outcome, actual: r.failure?.actual }));

it('passes the faithful service, on the create, the update and the replace', async () => {
  expect(await idempotency(s.url)).toEqual([
    { target: 'createNote', outcome: 'passed', actual: undefined },
    { target: 'editNote', outcome: 'passed', actual: undefined },
    { target: 'putNote', outcome: 'passed', actual: undefined },
  ]);
});

it('fails a service that refuses a change sent again with its key', async () => {
  const seen = new Set<string>();
  const proxy = await startProxy(s.url, {
    request: (r) => {
      const key = r.headers['idempotency-key'];
      if ((r.method !== 'PATCH' && r.method !== 'PUT') || typeof key !== 'string') return r;
      if (!seen.has(key)) {
        seen.add(key);
        return r;
      }
      const body = { type: 'about:blank', title: 'conflict', status: 409, code: 'key_reused' };
      return { status: 409, headers: { 'content-type': 'application/problem+json' }, body: Buffer.from(JSON.stringify(body)) };
    },
  });
  try {
    const results = await idempotency(proxy.url);
    expect(results.map((r) => [r.target, r.outcome])).toEqual([
      ['createNote', 'passed'],
      ['editNote', 'failed'],
      ['putNote', 'failed'],
    ]);
    expect(results[1]!.actual).toMatch(/^first 200 .*; then 409 /);
  } finally {
    await proxy.close();
  }
});
