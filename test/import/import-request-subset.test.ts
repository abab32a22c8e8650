// An update, replace or create whose request body is its own schema naming fewer properties than the resource's
// writable fields (a `CustomerPatch` of name, tier and phone) is not the resource's plain action: importing it as one
// would let a served PATCH accept email, password and tags, which the original does not (issue 26, item 8: import
// never changes the contract silently).
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
  it('is said at the request body when imported as the resource update, and its schema is no phantom resource', async () => {
    const r = await importOpenApiDocument(structuredClone(CUSTOMERS) as unknown, 'customers.json');
    const op = r.document!.endpoints!.operations!.patchCustomer!;
    expect(op).toMatchObject({ action: 'update', resource: 'Customer' });
    const said = r.diagnostics.filter((d) => d.pointer === '/paths/~1customers~1{id}/patch/requestBody/content/application~1json/schema');
    expect(said.map((d) => d.code)).toEqual(['import-approximated']);
    expect(said[0]!.message).toContain('`name`, `tier`, `phone`');
    expect(said[0]!.message).toContain('`email`, `password`, `tags`');
    expect(Object.keys(r.document!.resources!)).toEqual(['Customer']);
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);

    // what the diagnostic says is what the service does: the update takes email too
    const s = await startService(r.compiled!.model!);
    try {
      const made = await s.call('POST', '/customers', { name: 'Ada', email: 'ada@example.com' });
      expect(made.status).toBe(201);
      const id = (made.body as { id: string }).id;
      const patched = await s.call('PATCH', `/customers/${id}`, { tier: 'pro', email: 'ada@example.org' });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ tier: 'pro', email: 'ada@example.org' });
    } finally {
      await s.close();
    }
  });

  it('is said for a create whose inline body names fewer writable fields', async () => {
    const doc = structuredClone(CUSTOMERS);
    const body = { type: 'object', required: ['name', 'email'], properties: { name: { type: 'string' }, email: { type: 'string' } } };
    doc.paths['/customers'].post.requestBody = { required: true, content: { 'application/json': { schema: body } } } as never;
    const r = await importOpenApiDocument(doc as unknown, 'customers.json');
    expect(r.document!.endpoints!.operations!.createCustomer).toMatchObject({ action: 'create', resource: 'Customer' });
    const said = r.diagnostics.filter((d) => d.pointer === '/paths/~1customers/post/requestBody/content/application~1json/schema');
    expect(said.map((d) => d.code)).toEqual(['import-approximated']);
    expect(said[0]!.message).toContain('`password`, `tier`, `phone`, `tags`');
    // Every field the create leaves out is optional in Customer: nothing the document sends is refused.
    expect(said[0]!.message).not.toContain('is refused');
  });

  it("says that a create leaving out a field the resource requires refuses the document's own request", async () => {
    const doc = structuredClone(CUSTOMERS);
    const body = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } };
    doc.paths['/customers'].post.requestBody = { required: true, content: { 'application/json': { schema: body } } } as never;
    const r = await importOpenApiDocument(doc as unknown, 'customers.json');
    const said = r.diagnostics.filter((d) => d.pointer === '/paths/~1customers/post/requestBody/content/application~1json/schema');
    expect(said.map((d) => d.code)).toEqual(['import-approximated']);
    expect(said[0]!.message).toContain('and one without `email` is refused (Customer requires it and gives it no default');
    // Served, the document's own request ({ name }) is refused as the warning says.
    const s = await startService(r.compiled!.model!);
    try {
      expect((await s.call('POST', '/customers', { name: 'Ada' })).status).toBe(422);
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
