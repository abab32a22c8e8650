// Which resource a DELETE deletes is what its path names (its GET, PUT, PATCH, or its collection), never what it
// answers: Stripe's `DELETE /v1/customers/{customer}` answering a `DeletedCustomer { id, object, deleted }` became
// `action: delete, resource: DeletedCustomer`, so deleting a Customer answered 404 "no DeletedCustomer with that
// identifier". A delete answers the object it deleted or nothing (docs/format.md): such a DELETE stays custom, said.
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { startService } from '../runtime/helpers.js';

type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const answer = (schema: unknown) => ({ description: 'ok', content: { 'application/json': { schema } } });
const customerParam = [{ name: 'customer', in: 'path', required: true, schema: { type: 'string' } }];

function doc(deleteAnswers: string): Json {
  return {
    openapi: '3.0.3',
    info: { title: 'payments', version: '1' },
    paths: {
      '/v1/customers': {
        post: {
          operationId: 'CreateCustomer',
          requestBody: { required: true, content: { 'application/json': { schema: ref('CustomerCreate') } } },
          responses: { '200': answer(ref('Customer')) },
        },
      },
      '/v1/customers/{customer}': {
        get: { operationId: 'GetCustomer', parameters: customerParam, responses: { '200': answer(ref('Customer')) } },
        delete: { operationId: 'DeleteCustomer', parameters: customerParam, responses: { '200': answer(ref(deleteAnswers)) } },
      },
    },
    components: {
      schemas: {
        Customer: {
          type: 'object',
          required: ['id', 'email'],
          properties: { id: { type: 'string', readOnly: true }, email: { type: 'string' } },
        },
        CustomerCreate: { type: 'object', required: ['email'], properties: { email: { type: 'string' } } },
        DeletedCustomer: {
          type: 'object',
          required: ['id', 'object', 'deleted'],
          properties: { id: { type: 'string' }, object: { type: 'string', enum: ['customer'] }, deleted: { type: 'boolean', enum: [true] } },
        },
      },
    },
  };
}

describe('a DELETE answering another schema than the resource its path names', () => {
  it('is no delete of what it answers: it stays custom, and import-custom-operation says why', async () => {
    const r = await importOpenApiDocument(doc('DeletedCustomer'), 'payments.json');
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const ops = r.document!.endpoints!.operations!;
    expect(ops.GetCustomer).toMatchObject({ action: 'read', resource: 'Customer' });
    expect(ops.DeleteCustomer).toMatchObject({ action: 'custom', response: { resource: 'DeletedCustomer' } });
    expect(ops.DeleteCustomer!.resource).toBeUndefined();
    const why = r.diagnostics.find((d) => d.code === 'import-custom-operation' && d.message.includes('DeleteCustomer'));
    expect(why?.message).toContain('its success response is a DeletedCustomer, a body other than the object it deletes (the Customer its path names)');

    // Served: the read finds the Customer; the delete is no longer a delete of DeletedCustomer answering 404.
    const s = await startService(r.compiled!.model!);
    try {
      const made = await s.call('POST', '/v1/customers', { email: 'a@b.c' });
      expect(made.status).toBe(200);
      const id = (made.body as { id: string }).id;
      const gone = await s.call('DELETE', `/v1/customers/${id}`);
      expect(gone.status, JSON.stringify(gone.body)).toBe(501);
      expect((await s.call('GET', `/v1/customers/${id}`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('one answering the Customer it deleted stays a delete with that response', async () => {
    const r = await importOpenApiDocument(doc('Customer'), 'payments.json');
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.document!.endpoints!.operations!.DeleteCustomer).toMatchObject({
      action: 'delete',
      resource: 'Customer',
      response: { resource: 'Customer' },
    });
  });
});
