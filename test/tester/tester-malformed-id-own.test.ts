// errors.malformed-id where one condition has a declared code and the other does not: an imported document whose one
// 400 code answers `validation` and whose two 404 codes (each operation's own words) answer no condition. A
// malformed identifier is then the operation's own 404, or the declared 400; the check demanded the 400 alone and
// failed the faithful service's 404.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startSpecText, type OrdersServer } from './helpers.js';
import { startProxy } from './mutant-proxy.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText(
    'shop.yaml',
    `servicespec: 1
resources:
  Customer:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string, maxLength: 20 }
  Note:
    fields:
      id: { type: uuid, readOnly: true }
      text: { type: string, maxLength: 20 }
endpoints:
  operations:
    createCustomer: { method: POST, path: /customers, action: create, resource: Customer, errors: [bad] }
    getCustomer: { method: GET, path: "/customers/{id}", action: read, resource: Customer, errors: [not_found] }
    createNote: { method: POST, path: /notes, action: create, resource: Note, errors: [bad] }
    getNote: { method: GET, path: "/notes/{id}", action: read, resource: Note, errors: [not_found_2] }
authentication:
  default: none
errors:
  body:
    fields:
      code: { type: string }
      message: { type: string }
  codes:
    bad: { status: 400, title: Bad request, when: [validation, malformed_request] }
    not_found: { status: 404, title: No such customer }
    not_found_2: { status: 404, title: No such note }
`,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const malformed = async (baseUrl: string) =>
  (await testService(s.model, { baseUrl, ...s.options, seed: 1, only: ['errors.malformed-id'] })).results.filter((r) => r.check === 'errors.malformed-id');

it("passes the faithful service: a malformed identifier answered with the operation's own 404", async () => {
  const results = await malformed(s.url);
  expect(results.map((r) => [r.target, r.outcome])).toEqual([
    ['getCustomer', 'passed'],
    ['getNote', 'passed'],
  ]);
});

it('fails a service answering a malformed identifier 500', async () => {
  const proxy = await startProxy(s.url, {
    response: (r, req) => (req.method === 'GET' && req.path.startsWith('/notes/not-a-uuid') ? { ...r, status: 500 } : r),
  });
  try {
    const results = await malformed(proxy.url);
    expect(results.find((r) => r.target === 'getNote')?.outcome).toBe('failed');
    expect(results.find((r) => r.target === 'getNote')?.failure?.expected).toMatch(
      /^not_found_2 \(404\), the operation's or bad \(400\) for a malformed identifier/,
    );
  } finally {
    await proxy.close();
  }
});
