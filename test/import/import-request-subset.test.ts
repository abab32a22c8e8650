// An update, replace or create whose request body is its own schema naming fewer properties than the resource's
// writable fields (a `CustomerPatch` of name, tier and phone) is the resource's action with `request_fields`: a served
// PATCH refuses email, password and tags, as the original does not declare them (issue 26, item 8: import never
// changes the contract silently). A create leaving a required field without a value is a gap, said.
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { startService } from '../runtime/helpers.js';

const json = (schema: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } });
const ID = [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }];

const CUSTOMERS = {
  openapi: '3.1.0',
  info: { title: 'Customers', version: '1' },
  paths: {
    '/customers': {
      post: {
        operationId: 'createCustomer',
        requestBody: { required: true, content: json('Customer') },
        responses: { '201': { description: 'made', content: json('Customer') } },
      },
    },
    '/customers/{id}': {
      get: { operationId: 'readCustomer', parameters: ID, responses: { '200': { description: 'ok', content: json('Customer') } } },
      patch: {
        operationId: 'patchCustomer',
        parameters: ID,
        requestBody: { required: true, content: json('CustomerPatch') },
        responses: { '200': { description: 'ok', content: json('Customer') } },
      },
    },
  },
  components: {
    schemas: {
      Customer: {
        type: 'object',
        required: ['id', 'name', 'email'],
        properties: {
          id: { type: 'string', readOnly: true },
          name: { type: 'string' },
          email: { type: 'string' },
          password: { type: 'string', writeOnly: true },
          tier: { type: 'string', enum: ['free', 'pro'] },
          phone: { type: 'string' },
          tags: { type: 'array', items: { type: 'string' } },
        },
      },
      CustomerPatch: {
        type: 'object',
        properties: { name: { type: 'string' }, tier: { type: 'string', enum: ['free', 'pro'] }, phone: { type: 'string' } },
      },
    },
  },
};

describe('a request body naming a subset of the writable fields', () => {
  it("is the update's request_fields, said nowhere, and its schema is no phantom resource", async () => {
    const r = await importOpenApiDocument(structuredClone(CUSTOMERS) as unknown, 'customers.json');
    const op = r.document!.endpoints!.operations!.patchCustomer!;
    expect(op).toMatchObject({ action: 'update', resource: 'Customer', request_fields: ['name', 'tier', 'phone'] });
    expect(r.diagnostics.filter((d) => d.pointer?.includes('/patch/requestBody'))).toEqual([]);
    expect(Object.keys(r.document!.resources!)).toEqual(['Customer']);
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);

    // Served, the update writes what CustomerPatch names only: email, which the open CustomerPatch allows but does
    // not name, is accepted and dropped (unknown_fields: ignore), never written.
    expect(op.unknown_fields).toBe('ignore');
    const s = await startService(r.compiled!.model!);
    try {
      const made = await s.call('POST', '/customers', { name: 'Ada', email: 'ada@example.com' });
      expect(made.status).toBe(201);
      const id = (made.body as { id: string }).id;
      const dropped = await s.call('PATCH', `/customers/${id}`, { tier: 'pro', email: 'ada@example.org' });
      expect(dropped.status).toBe(200);
      expect(dropped.body).toMatchObject({ tier: 'pro', email: 'ada@example.com' });
      const patched = await s.call('PATCH', `/customers/${id}`, { tier: 'free' });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ tier: 'free', email: 'ada@example.com' });
    } finally {
      await s.close();
    }
  });

  it('refuses email as an unknown field where CustomerPatch says additionalProperties: false', async () => {
    const doc = structuredClone(CUSTOMERS);
    (doc.components.schemas.CustomerPatch as Record<string, unknown>).additionalProperties = false;
    const r = await importOpenApiDocument(doc as unknown, 'customers.json');
    expect(r.document!.endpoints!.operations!.patchCustomer).toMatchObject({ request_fields: ['name', 'tier', 'phone'], unknown_fields: 'refuse' });
    const s = await startService(r.compiled!.model!);
    try {
      const id = ((await s.call('POST', '/customers', { name: 'Ada', email: 'ada@example.com' })).body as { id: string }).id;
      expect((await s.call('PATCH', `/customers/${id}`, { tier: 'pro', email: 'ada@example.org' })).status).toBe(422);
    } finally {
      await s.close();
    }
  });

  it("is a create's request_fields when its inline body names fewer writable fields, said nowhere when nothing is left without a value", async () => {
    const doc = structuredClone(CUSTOMERS);
    const body = { type: 'object', required: ['name', 'email'], properties: { name: { type: 'string' }, email: { type: 'string' } } };
    doc.paths['/customers'].post.requestBody = { required: true, content: { 'application/json': { schema: body } } } as never;
    const r = await importOpenApiDocument(doc as unknown, 'customers.json');
    expect(r.document!.endpoints!.operations!.createCustomer).toMatchObject({ action: 'create', resource: 'Customer', request_fields: ['name', 'email'] });
    expect(r.diagnostics.filter((d) => d.pointer === '/paths/~1customers/post/requestBody/content/application~1json/schema')).toEqual([]);
  });

  it('says the gap where a create leaves out a field the resource requires with no default', async () => {
    const doc = structuredClone(CUSTOMERS);
    const body = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } };
    doc.paths['/customers'].post.requestBody = { required: true, content: { 'application/json': { schema: body } } } as never;
    // The PATCH writes `email`: the client gives it, so the create's value for it is a gap. (Were it written by no
    // request, it would be the service's: import-sweep.test.ts, apicurio's GroupMetaData.createdOn.)
    (doc.components.schemas.CustomerPatch.properties as Record<string, unknown>).email = { type: 'string' };
    const r = await importOpenApiDocument(doc as unknown, 'customers.json');
    expect(r.document!.endpoints!.operations!.createCustomer).toMatchObject({ request_fields: ['name'] });
    const said = r.diagnostics.filter((d) => d.pointer === '/paths/~1customers/post/requestBody/content/application~1json/schema');
    expect(said.map((d) => d.code)).toEqual(['import-approximated']);
    expect(said[0]!.message).toBe(
      'operation createCustomer: its request body (`name`) is imported as the create of Customer taking `request_fields` [name]: Customer requires `email`, which the request leaves out and the document gives no default: the spec has a gap there (`servicespec gaps`), and the served create answers not_implemented until it has a `default` or is made `optional` (if the service sets it)',
    );
    // Served (with allowGaps), the document's own request is valid, and answered not implemented rather than refused.
    const s = await startService(r.compiled!.model!);
    try {
      const answer = await s.call('POST', '/customers', { name: 'Ada' });
      expect(answer.status).toBe(501);
    } finally {
      await s.close();
    }
  });

  it('says nothing when the request names every writable field, and keeps a schema something else names', async () => {
    const doc = structuredClone(CUSTOMERS) as typeof CUSTOMERS & { paths: Record<string, unknown> };
    const all = doc.components.schemas.CustomerPatch.properties as Record<string, unknown>;
    Object.assign(all, { email: { type: 'string' }, password: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } });
    doc.paths['/patches/{id}'] = {
      get: { operationId: 'readPatch', parameters: ID, responses: { '200': { description: 'ok', content: json('CustomerPatch') } } },
    };
    const r = await importOpenApiDocument(doc as unknown, 'customers.json');
    expect(r.diagnostics.filter((d) => d.pointer?.includes('/patch/requestBody'))).toEqual([]);
    expect(Object.keys(r.document!.resources!)).toEqual(['Customer', 'CustomerPatch']);
  });
});
