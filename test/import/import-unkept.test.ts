// Import never changes the contract silently (issue 26, item 8): what the spec cannot keep yet is a diagnostic at
// its JSON pointer — a discriminator with the property names only its subtypes have, a body that is one of several
// shapes, named examples, a webhook payload that the format delivers inside its event envelope.
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';

const DOC = {
  openapi: '3.1.0',
  info: { title: 'Connections', version: '1' },
  paths: {
    '/connections': {
      post: {
        operationId: 'createConnection',
        parameters: [{ name: 'dryRun', in: 'query', schema: { type: 'boolean' }, examples: { yes: { value: true } } }],
        requestBody: {
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/Connection' },
              examples: { s3: { value: { kind: 's3' } }, sql: { value: { kind: 'sql' } } },
            },
          },
        },
        responses: { '201': { description: 'made', content: { 'application/json': { schema: { $ref: '#/components/schemas/Connection' } } } } },
      },
    },
    '/probe': {
      post: {
        operationId: 'probe',
        requestBody: { content: { 'application/json': { schema: { oneOf: [{ $ref: '#/components/schemas/S3' }, { $ref: '#/components/schemas/Sql' }] } } } },
        responses: { '204': { description: 'ok' } },
      },
    },
  },
  webhooks: {
    connected: {
      post: {
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Connection' } } } },
        responses: { '200': { description: 'ok' } },
      },
    },
  },
  components: {
    schemas: {
      Connection: {
        type: 'object',
        required: ['id', 'kind'],
        properties: { id: { type: 'string', readOnly: true }, kind: { type: 'string' } },
        discriminator: { propertyName: 'kind', mapping: { s3: '#/components/schemas/S3', sql: '#/components/schemas/Sql' } },
      },
      S3: { allOf: [{ $ref: '#/components/schemas/Connection' }, { type: 'object', properties: { roleArn: { type: 'string' }, bucket: { type: 'string' } } }] },
      Sql: { allOf: [{ $ref: '#/components/schemas/Connection' }, { type: 'object', properties: { connectionConfigInfo: { type: 'string' } } }] },
    },
  },
};

describe('import says what it cannot keep, at its pointer', () => {
  it('discriminators, union bodies, named examples and webhook payloads are kept, so nothing is said of them', async () => {
    const r = await importOpenApiDocument(JSON.parse(JSON.stringify(DOC)) as unknown, 'unions.json');
    const at = (pointer: string) => r.diagnostics.filter((d) => d.pointer === pointer).map((d) => [d.code, d.message]);
    // Discriminators and bodies that are one of several objects are kept as unions now (test/import/import-unions.test.ts).
    expect(at('/components/schemas/Connection/discriminator')).toEqual([]);
    // The union is the request of two operations: written once, under `shapes`, and used by name.
    expect(r.document!.endpoints!.operations!.createConnection!.request).toEqual({ shape: 'Connection' });
    expect(r.document!.shapes!.Connection).toMatchObject({
      discriminator: 'kind',
      variants: { S3: { tag: 's3', fields: { id: {}, roleArn: {}, bucket: {} } }, Sql: { tag: 'sql', fields: { id: {}, connectionConfigInfo: {} } } },
    });
    expect(at('/paths/~1probe/post/requestBody/content/application~1json/schema/oneOf')).toEqual([]);
    // …but an untagged oneOf whose subtypes one object can match is the checker's finding, at the imported union.
    expect(r.compiled!.diagnostics.filter((d) => d.code === 'union-indistinguishable').map((d) => d.pointer)).toEqual([
      '/endpoints/operations/probe/request/variants/Sql',
    ]);
    // Named examples of a request body and a parameter are kept (an operation's examples), so nothing is said.
    expect(at('/paths/~1connections/post/requestBody/content/application~1json/examples')).toEqual([]);
    expect(at('/paths/~1connections/post/parameters/0/examples')).toEqual([]);
    expect(Object.keys(r.document!.endpoints!.operations!.createConnection!.examples!.request!)).toEqual(['s3', 'sql']);
    // A webhook payload is kept as it is (a raw event kind), so nothing is said about it.
    expect(at('/webhooks/connected/post/requestBody/content/application~1json/schema')).toEqual([]);
    expect(r.document!.events!.kinds!.connected).toMatchObject({ body: 'raw' });
  });

  it('a servicespec export says none of them (its own shapes come back as they were)', async () => {
    const { exportOpenApi } = await import('../../src/export/export-openapi.js');
    const { exampleModel } = await import('../export/helpers.js');
    const doc = exportOpenApi(exampleModel('orders')).document;
    const r = await importOpenApiDocument(JSON.parse(JSON.stringify(doc)) as unknown, 'orders.json');
    expect(r.diagnostics.filter((d) => /discriminator|named examples|event envelope|one of \d+ shapes/.test(d.message))).toEqual([]);
  });
});

describe('validation keywords the format has no counterpart of', () => {
  it('are said at their pointer (import-dropped), once each, and nothing else is', async () => {
    const doc = {
      openapi: '3.1.0',
      info: { title: 'Items', version: '1' },
      paths: {
        '/items/{id}': {
          patch: {
            operationId: 'patchItem',
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/ItemPatch' } } } },
            responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } } },
          },
          get: {
            operationId: 'getItem',
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } } },
          },
        },
      },
      components: {
        schemas: {
          Item: {
            type: 'object',
            required: ['id', 'name'],
            properties: {
              id: { type: 'string', readOnly: true },
              name: { type: 'string' },
              labels: { type: 'object', maxProperties: 5, properties: { a: { type: 'string' } } },
              sizes: { type: 'array', items: { type: 'integer' }, contains: { minimum: 10 } },
            },
          },
          ItemPatch: { type: 'object', minProperties: 1, properties: { name: { type: 'string' } } },
        },
      },
    };
    const r = await importOpenApiDocument(doc, 'items.json');
    const dropped = r.diagnostics.filter((d) => d.code === 'import-dropped' && /minProperties|maxProperties|contains/.test(d.message));
    expect(dropped.map((d) => d.pointer).sort()).toEqual([
      '/components/schemas/Item/properties/labels/maxProperties',
      '/components/schemas/Item/properties/sizes/contains',
      '/components/schemas/ItemPatch/minProperties',
    ]);
    expect(dropped.every((d) => d.message.includes('the served contract does not hold it'))).toBe(true);
  });
});
