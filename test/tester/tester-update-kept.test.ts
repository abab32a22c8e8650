// An update must keep what it answers: a service that answers the change but does not store it (the answer built
// from the request) fails endpoints.valid-requests on the read afterwards. The tester compared the answer only.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startSpecText, type OrdersServer } from './helpers.js';
import { json, startProxy, withJson } from './mutant-proxy.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText(
    'pets.yaml',
    `servicespec: 1
resources:
  Pet:
    fields:
      id: { type: integer, readOnly: true }
      name: { type: string, maxLength: 10 }
endpoints:
  operations:
    createPet: { method: POST, path: /pets, action: create, resource: Pet }
    getPet: { method: GET, path: "/pets/{id}", action: read, resource: Pet, errors: [missing] }
    updatePet: { method: PATCH, path: "/pets/{id}", action: update, resource: Pet, errors: [invalid, missing] }
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

it('passes the faithful service', async () => {
  const r = await run(s.url);
  expect(r.results.filter((x) => x.outcome === 'failed').map((f) => [f.target, f.failure?.actual])).toEqual([]);
  expect(r.results.find((x) => x.target === 'updatePet')?.outcome).toBe('passed');
}, 60_000);

it('catches an update answered as made but not kept', async () => {
  // The PATCH is sent on as a GET (nothing changes); its answer is the object read with the request's fields.
  const proxy = await startProxy(s.url, {
    request: (r) => (r.method === 'PATCH' ? { ...r, method: 'GET', headers: { ...r.headers, 'x-sent': r.body.toString('utf8') }, body: Buffer.alloc(0) } : r),
    response: (r, req) =>
      req.headers['x-sent'] !== undefined && r.status === 200 ? withJson(r, { ...(json(r) as object), ...(JSON.parse(req.headers['x-sent']) as object) }) : r,
  });
  try {
    const r = await run(proxy.url);
    const failed = r.results.filter((x) => x.outcome === 'failed').map((f) => `${f.target}: ${f.failure?.expected} | ${f.failure?.actual}`);
    expect(failed).toEqual([expect.stringMatching(/^updatePet: field name kept as sent \(.*\) in a read after the update \| name is /)]);
    const curl = r.results.find((x) => x.target === 'updatePet')?.failure?.curl ?? '';
    expect(curl).toMatch(/^curl -i -X PATCH .*\n# then \(getPet\)\ncurl -i -X GET /);
  } finally {
    await proxy.close();
  }
}, 60_000);
