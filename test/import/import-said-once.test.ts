// One diagnostic per thing said: a component read for every operation that uses it said the same words at the same
// pointer each time (a Shopify-like document's shared error body, `errors: oneOf [string, object]`, 37 times).
import { expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';

const errors = { '404': { $ref: '#/components/responses/Error' }, '422': { $ref: '#/components/responses/Error' } };
const op = (id: string) => ({ operationId: id, responses: { '200': { description: 'ok' }, ...errors } });

it('a shared error body read by many operations is said once', async () => {
  const doc = {
    openapi: '3.1.0',
    info: { title: 'Shop', version: '1' },
    paths: Object.fromEntries(['a', 'b', 'c', 'd'].map((p) => [`/${p}`, { get: op(`get_${p}`), delete: op(`delete_${p}`) }])),
    components: {
      responses: {
        Error: { description: 'An error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Errors' } } } },
      },
      schemas: {
        Errors: {
          type: 'object',
          required: ['errors'],
          properties: { errors: { oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } }] } },
        },
      },
    },
  };
  const r = await importOpenApiDocument(doc, 'shop.json');
  const about = r.diagnostics.filter((d) => d.pointer?.endsWith('/components/schemas/Errors/properties/errors'));
  expect(about.length).toBe(1);
  const keys = r.diagnostics.map((d) => `${d.code} ${d.pointer} ${d.message}`);
  expect(new Set(keys).size).toBe(keys.length);
});
