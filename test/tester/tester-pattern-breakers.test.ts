// endpoints.invalid-requests sends a text its field's pattern refuses. The candidates were six repeated characters
// (`!!!!`, spaces, letters, digits, dashes), all of which `^[^<>"']*$` (no markup, no quotes) takes, so no probe was
// sent and a service that never checked the pattern passed. Every printable ASCII character is tried now.

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
      label: { type: string, maxLength: 22, pattern: '^[^<>"'']*$' }
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

const probe = async (baseUrl: string) =>
  (await testService(s.model, { baseUrl, ...s.options, seed: 1, only: ['endpoints.invalid-requests'] })).results.filter(
    (r) => r.check === 'endpoints.invalid-requests' && /^createNote: label not matching pattern/.test(r.target),
  );

it('sends a text the pattern refuses, and the faithful service passes it', async () => {
  const results = await probe(s.url);
  expect(results.map((r) => r.target)).toContain('createNote: label not matching pattern ^[^<>"\']*$');
  expect(results.every((r) => r.outcome === 'passed')).toBe(true);
});

it('fails a service that does not check the pattern', async () => {
  // The service as if it took any text: the label is made one the pattern takes before the real service sees it.
  const proxy = await startProxy(s.url, {
    request: (r) => {
      if (r.method !== 'POST' || r.path !== '/notes') return r;
      const b = JSON.parse(r.body.toString('utf8')) as { label?: unknown };
      if (typeof b.label === 'string' && /[<>"']/.test(b.label)) b.label = b.label.replace(/[<>"']/g, 'x');
      return { ...r, body: Buffer.from(JSON.stringify(b)) };
    },
  });
  try {
    const results = await probe(proxy.url);
    const broken = results.find((r) => r.target === 'createNote: label not matching pattern ^[^<>"\']*$');
    expect(broken?.outcome).toBe('failed');
    expect(broken?.failure?.actual).toMatch(/^status 201/);
  } finally {
    await proxy.close();
  }
});
