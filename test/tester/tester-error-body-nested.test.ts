// A declared error body whose code is nested (`errors.body.code: error.code`, Stripe's { error: { code, message } }):
// the tester reads the code where the spec says, so an implementation answering the right status with another
// code there fails, and the faithful service passes.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startSpecText, type OrdersServer } from './helpers.js';
import { json, startProxy, withJson } from './mutant-proxy.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText(
    'notes.yaml',
    `servicespec: 1
resources:
  Note:
    fields:
      id: { type: integer, readOnly: true }
      text: { type: string, maxLength: 20 }
endpoints:
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note, errors: [invalid] }
    getNote: { method: GET, path: "/notes/{id}", action: read, resource: Note, errors: [missing] }
authentication:
  default: none
errors:
  body:
    fields:
      error:
        type: object
        fields:
          code: { type: string }
          message: { type: string }
    code: error.code
    message: error.message
  codes:
    invalid: { status: 422, when: [validation] }
    missing: { status: 404, when: [missing_resource, route_not_found] }
    other: { status: 400, when: [malformed_request, method_not_allowed, headers_too_large, unsupported_media_type, body_too_large, internal] }
`,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const run = (baseUrl: string) => testService(s.model, { baseUrl, ...s.options, seed: 3 });

it('passes the faithful service', async () => {
  const r = await run(s.url);
  expect(r.results.filter((x) => x.outcome === 'failed').map((f) => [f.check, f.target, f.failure?.actual])).toEqual([]);
}, 60_000);

it('fails an implementation that answers 404 with another code in error.code', async () => {
  const proxy = await startProxy(s.url, {
    response: (r) => {
      const body = r.status === 404 ? json(r) : undefined;
      return body?.error?.code === 'missing' ? withJson(r, { error: { ...body.error, code: 'not_found' } }) : r;
    },
  });
  try {
    const r = await run(proxy.url);
    const failed = r.results.filter((x) => x.outcome === 'failed').map((f) => `${f.check} ${f.target}: ${f.failure?.actual}`);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.join('\n')).toContain('error.code "not_found", not "missing" (missing)');
  } finally {
    await proxy.close();
  }
}, 60_000);
