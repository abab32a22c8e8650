import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type Running } from './helpers.js';
import { checkedModel } from '../support/specs.js';

// Query parameters and headers a built-in action declares (operation.query, operation.headers; Xero's
// `Xero-Tenant-Id` on every operation): validated as a custom operation's are — a missing required one or a bad
// value is `validation` naming it — and otherwise not used. Each case runs on the fast and the plain path.
const SPEC = `
servicespec: 1
resources:
  Invoice:
    fields:
      id: { type: uuid }
      total: { type: integer }
endpoints:
  operations:
    createInvoice:
      method: POST
      path: /invoices
      action: create
      resource: Invoice
      headers: { Xero-Tenant-Id: { type: uuid } }
    readInvoice:
      method: GET
      path: /invoices/{id}
      action: read
      resource: Invoice
      headers: { Xero-Tenant-Id: { type: uuid } }
      query: { summarizeErrors: { type: boolean, optional: true } }
    listInvoices:
      method: GET
      path: /invoices
      action: list
      resource: Invoice
      filter: [total]
      query: { page_hint: { type: integer, optional: true, minimum: 1 } }
      headers: { X-Request-Source: { type: enum, values: [web, app], optional: true } }
    deleteInvoice: { method: DELETE, path: "/invoices/{id}", action: delete, resource: Invoice }
authentication:
  default: none
errors:
  body: problem
  codes:
    invalid: { status: 422, when: [validation] }
    gone: { status: 404, when: [missing_resource] }
    other: { status: 400, when: [malformed_request, route_not_found, method_not_allowed, headers_too_large, body_too_large, unsupported_media_type, internal] }
`;

const TENANT = '0190a7e4-5b0c-7000-8000-000000000001';

for (const fastPaths of [true, false]) {
  describe(`declared parameters of built-in actions (fast paths ${fastPaths ? 'on' : 'off'})`, () => {
    let s: Running;
    beforeAll(async () => {
      s = await startService(checkedModel(SPEC), { fastPaths });
    });
    afterAll(() => s.close());

    it('a create without its required header is refused as validation naming the header, and writes nothing', async () => {
      const r = await s.call('POST', '/invoices', { total: 5 });
      expect(r.status).toBe(422);
      expect(r.body.code).toBe('invalid');
      expect(r.body.errors).toEqual([{ parameter: 'Xero-Tenant-Id', in: 'header', message: 'is required' }]);
      expect((await s.call('GET', '/invoices')).body.items).toEqual([]);
      const bad = await s.call('POST', '/invoices', { total: 5 }, { 'xero-tenant-id': 'not-a-uuid' });
      expect(bad.status).toBe(422);
      expect(bad.body.errors[0]).toMatchObject({ parameter: 'Xero-Tenant-Id', in: 'header' });
    });

    it('with the header, each action answers as it would without declared parameters', async () => {
      const made = await s.call('POST', '/invoices', { total: 5 }, { 'Xero-Tenant-Id': TENANT });
      expect(made.status).toBe(201);
      const id = (made.body as { id: string }).id;
      const read = await s.call('GET', `/invoices/${id}?summarizeErrors=true`, undefined, { 'xero-tenant-id': TENANT });
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ id, total: 5 });
      const missing = await s.call('GET', `/invoices/${id}`);
      expect(missing.status).toBe(422);
      expect(missing.body.errors).toEqual([{ parameter: 'Xero-Tenant-Id', in: 'header', message: 'is required' }]);
      const badQuery = await s.call('GET', `/invoices/${id}?summarizeErrors=yes`, undefined, { 'xero-tenant-id': TENANT });
      expect(badQuery.status).toBe(422);
      expect(badQuery.body.errors).toEqual([{ parameter: 'summarizeErrors', in: 'query', message: 'must be true or false' }]);
      // An object that is not there is still missing_resource once the parameters are good.
      expect((await s.call('GET', '/invoices/0190a7e4-5b0c-7000-8000-0000000000ff', undefined, { 'xero-tenant-id': TENANT })).status).toBe(404);
      expect((await s.call('DELETE', `/invoices/${id}`)).status).toBe(204);
    });

    it('a list takes its declared query parameters beside its own, validated, and refuses undeclared ones as before', async () => {
      await s.call('POST', '/invoices', { total: 7 }, { 'Xero-Tenant-Id': TENANT });
      const r = await s.call('GET', '/invoices?page_hint=2&total=7&limit=1', undefined, { 'x-request-source': 'web' });
      expect(r.status).toBe(200);
      expect(r.body.items.map((i: { total: number }) => i.total)).toEqual([7]);
      const low = await s.call('GET', '/invoices?page_hint=0');
      expect(low.status).toBe(422);
      expect(low.body.errors[0]).toMatchObject({ parameter: 'page_hint', in: 'query' });
      const source = await s.call('GET', '/invoices', undefined, { 'x-request-source': 'cli' });
      expect(source.status).toBe(422);
      expect(source.body.errors).toEqual([{ parameter: 'X-Request-Source', in: 'header', message: 'must be one of web, app' }]);
      const other = await s.call('GET', '/invoices?other=1');
      expect(other.status).toBe(422);
      expect(other.body.errors).toEqual([{ parameter: 'other', in: 'query', message: 'is not a parameter of this operation' }]);
    });
  });
}
