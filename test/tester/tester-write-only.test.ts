// A write-only field (a password) is sent and never answered: the tester neither expects it back (kept as sent) nor
// lets an answer carry it — an implementation that answers it fails the answer's shape, the field named.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startSpecText, type OrdersServer } from './helpers.js';
import { json, startProxy, withJson } from './mutant-proxy.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText(
    'users.yaml',
    `servicespec: 1
resources:
  User:
    fields:
      id: { type: integer, readOnly: true }
      name: { type: string, maxLength: 10 }
      password: { type: string, writeOnly: true, minLength: 4, maxLength: 20 }
endpoints:
  operations:
    createUser: { method: POST, path: /users, action: create, resource: User, errors: [invalid] }
    getUser: { method: GET, path: "/users/{id}", action: read, resource: User, errors: [missing] }
    updateUser: { method: PATCH, path: "/users/{id}", action: update, resource: User, errors: [invalid, missing] }
    replaceUser: { method: PUT, path: "/users/{id}", action: replace, resource: User, errors: [invalid, missing] }
authentication:
  default: none
errors:
  body: problem
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

const run = (baseUrl: string) => testService(s.model, { baseUrl, ...s.options, seed: 5, only: ['endpoints.valid-requests'] });

it('passes the faithful service, which never answers the password', async () => {
  const r = await run(s.url);
  expect(r.results.filter((x) => x.outcome === 'failed').map((f) => [f.target, f.failure?.actual])).toEqual([]);
  for (const op of ['createUser', 'updateUser', 'replaceUser']) expect(r.results.find((x) => x.target === op)?.outcome).toBe('passed');
}, 60_000);

it('fails an implementation that answers the password', async () => {
  const proxy = await startProxy(s.url, {
    response: (r) => {
      const body = r.status < 300 ? json(r) : undefined;
      return body !== null && typeof body === 'object' && 'id' in body ? withJson(r, { ...body, password: 'leaked' }) : r;
    },
  });
  try {
    const r = await run(proxy.url);
    const failed = r.results.filter((x) => x.outcome === 'failed').map((f) => `${f.target}: ${f.failure?.actual}`);
    expect(failed.length).toBeGreaterThan(0);
    for (const f of failed) expect(f).toContain('holds the write-only field password, which no answer carries');
  } finally {
    await proxy.close();
  }
}, 60_000);
