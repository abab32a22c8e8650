// An optional query parameter a resource action cannot read is left out with `import-dropped`, which says what the
// service then does. It said "the service refuses a request that sends it" for every action, but only a list reads
// (and refuses) query parameters: a read, create, update or delete never looks at the query, so Stripe's
// `GET /v1/customers/{customer}?expand=…` is answered as if `expand` had not been sent. Each message is held to what
// the served import does.
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { startService } from '../runtime/helpers.js';

const ref = { $ref: '#/components/schemas/Customer' };
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const expand = { name: 'expand', in: 'query', schema: { type: 'array', items: { type: 'string' } } };
const id = { name: 'customer', in: 'path', required: true, schema: { type: 'string' } };
const body = { required: true, ...json({ type: 'object', properties: { name: { type: 'string' } } }) };

const DOC = {
  openapi: '3.0.3',
  info: { title: 'payments', version: '1' },
  paths: {
    '/v1/customers': {
      get: { operationId: 'ListCustomers', parameters: [expand], responses: { '200': { description: 'ok', ...json({ type: 'array', items: ref }) } } },
      post: { operationId: 'CreateCustomer', parameters: [expand], requestBody: body, responses: { '201': { description: 'made', ...json(ref) } } },
    },
    '/v1/customers/{customer}': {
      get: {
        operationId: 'GetCustomer',
        parameters: [id, expand, { name: 'client_secret', in: 'query', schema: { type: 'string' } }],
        responses: { '200': { description: 'ok', ...json(ref) } },
      },
      patch: { operationId: 'UpdateCustomer', parameters: [id, expand], requestBody: body, responses: { '200': { description: 'ok', ...json(ref) } } },
      delete: { operationId: 'DeleteCustomer', parameters: [id, expand], responses: { '204': { description: 'gone' } } },
    },
  },
  components: {
    schemas: {
      Customer: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' } } },
    },
  },
};

describe('an optional query parameter a resource action cannot read', () => {
  it('is dropped saying what the served action does: a list refuses it, the others ignore it', async () => {
    const r = await importOpenApiDocument(structuredClone(DOC) as unknown, 'payments.json');
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const ops = r.document!.endpoints!.operations!;
    expect(Object.values(ops).map((o) => o.action)).toEqual(['list', 'create', 'read', 'update', 'delete']);
    const why = (op: string, name = 'expand') =>
      r.diagnostics.find((d) => d.code === 'import-dropped' && d.message.startsWith(`operation ${op}: query parameter \`${name}\``))?.message;
    expect(why('ListCustomers')).toContain('the service refuses a request that sends it');
    expect(why('CreateCustomer')).toContain('a create reads no query parameters: the service ignores it');
    expect(why('GetCustomer')).toContain('a read reads no query parameters: the service ignores it');
    expect(why('GetCustomer', 'client_secret')).toContain('the service ignores it');
    expect(why('UpdateCustomer')).toContain('an update reads no query parameters: the service ignores it');
    expect(why('DeleteCustomer')).toContain('a delete reads no query parameters: the service ignores it');
    for (const op of ['CreateCustomer', 'GetCustomer', 'UpdateCustomer', 'DeleteCustomer']) expect(why(op)).not.toContain('refuses');

    const s = await startService(r.compiled!.model!);
    try {
      expect((await s.call('GET', '/v1/customers?expand=x')).status, 'a list refuses it').toBe(422);
      const made = await s.call('POST', '/v1/customers?expand=x', { name: 'A' });
      expect(made.status).toBe(201);
      const cus = (made.body as { id: string }).id;
      expect((await s.call('GET', `/v1/customers/${cus}?expand=default_payment_method&client_secret=s`)).status).toBe(200);
      expect((await s.call('PATCH', `/v1/customers/${cus}?expand=x`, { name: 'B' })).status).toBe(200);
      expect((await s.call('DELETE', `/v1/customers/${cus}?expand=x`)).status).toBe(204);
    } finally {
      await s.close();
    }
  });
});
