// Query parameters and headers of an operation that is otherwise a resource action (Xero's `Xero-Tenant-Id` on every
// operation, Stripe's `expand`) are the action's own declared parameters: validated by the served action, not
// otherwise used, each said once (import-approximated). Before, a header or a required query parameter made the
// operation custom (served 501 without a handler), and an optional query parameter was dropped (a list then refused
// a request sending it).
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { startService } from '../runtime/helpers.js';

const ref = { $ref: '#/components/schemas/Customer' };
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const expand = { name: 'expand', in: 'query', schema: { type: 'array', items: { type: 'string' } } };
const tenant = { name: 'Xero-Tenant-Id', in: 'header', required: true, schema: { type: 'string', format: 'uuid' } };
const id = { name: 'customer', in: 'path', required: true, schema: { type: 'string' } };
const body = { required: true, ...json({ type: 'object', properties: { name: { type: 'string' } } }) };

const DOC = {
  openapi: '3.0.3',
  info: { title: 'payments', version: '1' },
  paths: {
    '/v1/customers': {
      get: { operationId: 'ListCustomers', parameters: [tenant, expand], responses: { '200': { description: 'ok', ...json({ type: 'array', items: ref }) } } },
      post: { operationId: 'CreateCustomer', parameters: [tenant, expand], requestBody: body, responses: { '201': { description: 'made', ...json(ref) } } },
    },
    '/v1/customers/{customer}': {
      get: { operationId: 'GetCustomer', parameters: [id, tenant, expand], responses: { '200': { description: 'ok', ...json(ref) } } },
      patch: { operationId: 'UpdateCustomer', parameters: [id, tenant], requestBody: body, responses: { '200': { description: 'ok', ...json(ref) } } },
      delete: { operationId: 'DeleteCustomer', parameters: [id, tenant], responses: { '204': { description: 'gone' } } },
    },
  },
  components: {
    schemas: {
      Customer: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' } } },
    },
  },
};

const TENANT = '0190a7e4-5b0c-7000-8000-000000000001';

describe('header and query parameters of resource actions', () => {
  it('are the actions’ own, said once each, and the served actions validate them', async () => {
    const r = await importOpenApiDocument(structuredClone(DOC) as unknown, 'payments.json');
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.diagnostics.filter((d) => d.code === 'import-custom-operation')).toEqual([]);
    const ops = r.document!.endpoints!.operations!;
    expect(Object.values(ops).map((o) => o.action)).toEqual(['list', 'create', 'read', 'update', 'delete']);
    for (const o of Object.values(ops)) expect(o.headers).toEqual({ 'Xero-Tenant-Id': { type: 'uuid' } });
    expect(ops.GetCustomer!.query).toEqual({ expand: { type: 'array', items: { type: 'string' }, optional: true } });
    const said = r.diagnostics.filter((d) => d.code === 'import-approximated').map((d) => [d.message.split(' is imported')[0], d.pointer]);
    expect(said).toEqual([
      [
        'header parameter `Xero-Tenant-Id` of operations ListCustomers, CreateCustomer, GetCustomer, UpdateCustomer, DeleteCustomer',
        '/paths/~1v1~1customers/get/parameters/0',
      ],
      ['query parameter `expand` of operations ListCustomers, CreateCustomer, GetCustomer', '/paths/~1v1~1customers/get/parameters/1'],
    ]);

    const s = await startService(r.compiled!.model!);
    try {
      const h = { 'xero-tenant-id': TENANT };
      const refused = await s.call('POST', '/v1/customers', { name: 'A' });
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toMatchObject([{ parameter: 'Xero-Tenant-Id', in: 'header' }]);
      const made = await s.call('POST', '/v1/customers?expand=x', { name: 'A' }, h);
      expect(made.status).toBe(201);
      const cus = (made.body as { id: string }).id;
      expect((await s.call('GET', '/v1/customers?expand=x', undefined, h)).status, 'a list takes its declared parameter').toBe(200);
      expect((await s.call('GET', `/v1/customers/${cus}?expand=default_payment_method`, undefined, h)).status).toBe(200);
      expect((await s.call('GET', `/v1/customers/${cus}`)).status).toBe(422);
      expect((await s.call('PATCH', `/v1/customers/${cus}`, { name: 'B' }, h)).status).toBe(200);
      expect((await s.call('DELETE', `/v1/customers/${cus}`, undefined, h)).status).toBe(204);
    } finally {
      await s.close();
    }
  });

  it('round-trip through the export: the actions keep their declared parameters, and nothing else becomes one', async () => {
    const first = await importOpenApiDocument(structuredClone(DOC) as unknown, 'payments.json');
    const exported = exportOpenApi(first.compiled!.model!);
    const ext = (exported.document as { paths: Record<string, Record<string, Record<string, unknown>>> }).paths['/v1/customers']!.get![
      'x-servicespec-operation'
    ];
    expect(ext).toMatchObject({ action: 'list', query: ['expand'], headers: ['Xero-Tenant-Id'] });
    const again = await importOpenApiDocument(exported.document as unknown, 'again.json');
    expect(again.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const before = first.compiled!.model!.endpoints!.operations;
    const after = again.compiled!.model!.endpoints!.operations;
    expect(after.map((o) => [o.id, o.action, o.query.map((p) => p.name), o.headers.map((p) => [p.name, p.type, p.optional])])).toEqual(
      before.map((o) => [o.id, o.action, o.query.map((p) => p.name), o.headers.map((p) => [p.name, p.type, p.optional])]),
    );
  });
});
