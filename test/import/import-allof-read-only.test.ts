// A property declared by several parts of an `allOf` is read-only where any part says so. Stripe-style documents
// declare `object: { readOnly: true }` on a base `ApiResource` and re-declare it in each subtype with its one enum
// value; the subtype's declaration, merged last, made `object` a writable required field, so every create had to
// send it and (the create body leaving it out) the served create was a gap answering 501.
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { startService } from '../runtime/helpers.js';

type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });

const API_RESOURCE = {
  type: 'object',
  required: ['id', 'object'],
  properties: { id: { type: 'string', readOnly: true }, object: { type: 'string', readOnly: true, description: "The object's type." } },
};
const OWN = { type: 'object', required: ['email'], properties: { object: { type: 'string', enum: ['customer'] }, email: { type: 'string' } } };

function doc(customer: Json, openapi = '3.0.3'): Json {
  return {
    openapi,
    info: { title: 'payments', version: '1' },
    paths: {
      '/v1/customers': {
        post: {
          operationId: 'CreateCustomer',
          requestBody: { required: true, ...json({ type: 'object', required: ['email'], properties: { email: { type: 'string' } } }) },
          responses: { '200': { description: 'made', ...json(ref('Customer')) } },
        },
      },
      '/v1/customers/{id}': {
        get: {
          operationId: 'GetCustomer',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'ok', ...json(ref('Customer')) } },
        },
      },
    },
    components: { schemas: { ApiResource: API_RESOURCE, Customer: customer } },
  };
}

describe('readOnly in an allOf', () => {
  for (const [name, customer] of [
    ['the subtype part after the base', { allOf: [ref('ApiResource'), OWN] }],
    ['the subtype part before the base', { allOf: [OWN, ref('ApiResource')] }],
    ['the base in allOf, the subtype its own properties', { ...OWN, allOf: [ref('ApiResource')] }],
  ] as const)
    it(`is kept where another part re-declares the property (${name})`, async () => {
      const r = await importOpenApiDocument(doc(customer), 'payments.json');
      expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      const object = r.document!.resources!.Customer!.fields!.object!;
      expect(object.readOnly).toBe(true);
      expect(r.document!.endpoints!.operations!.CreateCustomer).toMatchObject({ action: 'create', resource: 'Customer' });
    });

  it('served, a create need not send it: no gap, no 501', async () => {
    const r = await importOpenApiDocument(doc({ allOf: [ref('ApiResource'), OWN] }), 'payments.json');
    expect(r.document!.resources!.Customer!.fields!.object).toMatchObject({ type: 'enum', values: ['customer'], readOnly: true });
    expect(JSON.stringify(r.gaps!.parts.flatMap((p) => p.missing))).not.toContain('CreateCustomer');
    const s = await startService(r.compiled!.model!);
    try {
      const made = await s.call('POST', '/v1/customers', { email: 'a@b.c' });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      expect(made.body).toMatchObject({ email: 'a@b.c' });
    } finally {
      await s.close();
    }
  });

  it('a 3.1 reference re-declaring the property keeps it read-only too', async () => {
    const d = doc({ allOf: [ref('ApiResource'), { ...OWN, properties: { ...OWN.properties, object: ref('CustomerObject') } }] }, '3.1.0');
    (d.components as { schemas: Json }).schemas = { ...(d.components as { schemas: Json }).schemas, CustomerObject: { type: 'string', enum: ['customer'] } };
    const r = await importOpenApiDocument(d, 'payments.json');
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.document!.resources!.Customer!.fields!.object!.readOnly).toBe(true);
  });
});

describe('writeOnly in an allOf', () => {
  it('is kept where another part re-declares the property: a base password stays write-only, never answered', async () => {
    const base = { type: 'object', required: ['id'], properties: { id: { type: 'string', readOnly: true }, password: { type: 'string', writeOnly: true } } };
    const own = { type: 'object', required: ['email'], properties: { password: { type: 'string', minLength: 8 }, email: { type: 'string' } } };
    const d = doc({ allOf: [ref('ApiResource'), own] });
    (d.components as { schemas: Json }).schemas = { ApiResource: base, Customer: { allOf: [ref('ApiResource'), own] } };
    const r = await importOpenApiDocument(d, 'payments.json');
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.document!.resources!.Customer!.fields!.password).toMatchObject({ type: 'string', minLength: 8, writeOnly: true });
  });
});
