// endpoints.input-space sends an array field at exactly its maxItems (where that is 1000 or fewer), not only where it
// is 50 or fewer: a field of maxItems 200 was sent at most a few items, so a service refusing the 200 the spec allows
// (an off-by-one `>=`, a lower limit of its own) passed. An array with no maxItems is not sent a long list.

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
      text: { type: string, minLength: 1, maxLength: 20 }
      tags: { type: array, items: { type: string, maxLength: 8 }, maxItems: 200, optional: true }
      marks: { type: array, items: { type: integer }, optional: true }
endpoints:
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note }
    getNote: { method: GET, path: "/notes/{id}", action: read, resource: Note }
authentication:
  default: none
${PLAIN_ERRORS}`,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const inputSpace = async (baseUrl: string) =>
  (await testService(s.model, { baseUrl, ...s.options, seed: 1, only: ['endpoints.input-space'] })).results.find(
    (r) => r.check === 'endpoints.input-space' && r.target === 'createNote',
  );

it('passes the faithful service', async () => {
  expect((await inputSpace(s.url))?.outcome).toBe('passed');
});

it('fails a service refusing an array at exactly its maxItems (200), naming the field', async () => {
  const longest = { tags: 0, marks: 0 };
  const proxy = await startProxy(s.url, {
    request: (r) => {
      if (r.method !== 'POST' || r.path !== '/notes') return r;
      const b = JSON.parse(r.body.toString('utf8')) as { tags?: unknown[]; marks?: unknown[] };
      longest.tags = Math.max(longest.tags, b.tags?.length ?? 0);
      longest.marks = Math.max(longest.marks, b.marks?.length ?? 0);
      if ((b.tags?.length ?? 0) < 200) return r;
      const body = { type: 'about:blank', title: 'invalid', status: 422, code: 'invalid' };
      return { status: 422, headers: { 'content-type': 'application/problem+json' }, body: Buffer.from(JSON.stringify(body)) };
    },
  });
  try {
    const r = await inputSpace(proxy.url);
    expect(r?.outcome).toBe('failed');
    expect(r?.failure?.expected).toMatch(/tags at its upper bound/);
    expect(longest.tags).toBe(200);
    // No maxItems: no long list (the edges stop at the valid body's own length).
    expect(longest.marks).toBeLessThanOrEqual(50);
  } finally {
    await proxy.close();
  }
});
