// `request_fields`: the tester draws each create, update and replace body from the fields that operation's request
// takes (the model's request schema), so a faithful service passes; and it sends each writable field outside them,
// expecting the declared validation code, so a service that takes one anyway is caught, the field named.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startSpecText, type OrdersServer } from './helpers.js';
import { startProxy } from './mutant-proxy.js';

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
      email: { type: email }
      tier: { type: enum, values: [free, pro], default: free }
      nick: { type: string, optional: true, maxLength: 8 }
endpoints:
  operations:
    createUser: { method: POST, path: /users, action: create, resource: User, request_fields: [name, email], errors: [invalid] }
    getUser: { method: GET, path: "/users/{id}", action: read, resource: User, errors: [missing] }
    updateUser: { method: PATCH, path: "/users/{id}", action: update, resource: User, request_fields: [nick], errors: [invalid, missing] }
    replaceUser: { method: PUT, path: "/users/{id}", action: replace, resource: User, request_fields: [name, tier], errors: [invalid, missing] }
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

const run = (baseUrl: string) =>
  testService(s.model, { baseUrl, ...s.options, seed: 7, only: ['endpoints.valid-requests', 'endpoints.invalid-requests', 'endpoints.input-space'] });

it('passes the faithful service, sending each operation only the fields it takes', async () => {
  const r = await run(s.url);
  expect(r.results.filter((x) => x.outcome === 'failed').map((f) => [f.target, f.failure?.actual])).toEqual([]);
  for (const op of ['createUser', 'updateUser', 'replaceUser'])
    expect(r.results.find((x) => x.target === op && x.check === 'endpoints.valid-requests')?.outcome).toBe('passed');
  const outside = r.results.filter((x) => x.check === 'endpoints.invalid-requests' && x.target.includes('(not in request_fields) sent'));
  expect(outside.map((x) => `${x.target} ${x.outcome}`).sort()).toEqual([
    'createUser: nick (not in request_fields) sent passed',
    'createUser: tier (not in request_fields) sent passed',
    'replaceUser: email (not in request_fields) sent passed',
    'replaceUser: nick (not in request_fields) sent passed',
    'updateUser: email (not in request_fields) sent passed',
    'updateUser: name (not in request_fields) sent passed',
    'updateUser: tier (not in request_fields) sent passed',
  ]);
}, 120_000);

it('fails a service that takes a field outside request_fields', async () => {
  // The mutant drops `tier` from a create's body before the service sees it: a create sending it is taken (201).
  const proxy = await startProxy(s.url, {
    request: (req) => {
      if (req.method !== 'POST' || req.body.length === 0) return req;
      try {
        const body = JSON.parse(req.body.toString('utf8')) as Record<string, unknown>;
        if (!('tier' in body)) return req;
        delete body.tier;
        return {
          ...req,
          body: Buffer.from(JSON.stringify(body)),
          headers: { ...req.headers, 'content-length': String(Buffer.byteLength(JSON.stringify(body))) },
        };
      } catch {
        return req;
      }
    },
  });
  try {
    const r = await run(proxy.url);
    const failed = r.results.filter((x) => x.outcome === 'failed').map((f) => f.target);
    expect(failed).toEqual(['createUser: tier (not in request_fields) sent']);
  } finally {
    await proxy.close();
  }
}, 120_000);
