// A page that echoes its page size bounded as the list's own parameter is (`per_page: { minimum: 1, maximum: 100 }`
// beside `per_page` capped at 100) is a page-style list: before, the bound read as a constraint the runtime could
// break, so a warehouse API's list became a custom operation and a wrong total, pages off by one, per_page ignored,
// a wrong Link header and sort ignored all got through (an outside sweep).
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { compileSpecText } from '../../src/program.js';

const warehouse = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' } } };

const doc = (paramMax: number) => ({
  openapi: '3.1.0',
  info: { title: 'warehouses', version: '1' },
  paths: {
    '/warehouses': {
      get: {
        operationId: 'listWarehouses',
        parameters: [
          { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
          { name: 'per_page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: paramMax, default: 25 } },
        ],
        responses: {
          '200': {
            description: 'a page',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['data', 'page', 'per_page', 'total'],
                  properties: {
                    data: { type: 'array', items: { $ref: '#/components/schemas/Warehouse' } },
                    page: { type: 'integer', minimum: 1 },
                    per_page: { type: 'integer', minimum: 1, maximum: 100 },
                    total: { type: 'integer', minimum: 0 },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
  components: { schemas: { Warehouse: warehouse } },
});

describe('a page echoing its bounded page size', () => {
  it('is a page-style list in its envelope when the parameter is capped as the echo is; the spec checks clean', async () => {
    const r = await importOpenApiDocument(doc(100), 'warehouses.json');
    const op = r.document!.endpoints!.operations!.listWarehouses!;
    expect(op.action).toBe('list');
    expect(op.paging).toMatchObject({ style: 'page' });
    expect(r.document!.limits?.page_size).toEqual({ default: 25, max: 100, over_max: 'reject' });
    expect(op.envelope).toMatchObject({ data: 'data', limit: 'per_page', page: 'page', total: 'total' });
    expect(compileSpecText(r.text!).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
  it('stays a custom operation where the parameter allows more than the echo may hold', async () => {
    const r = await importOpenApiDocument(doc(200), 'warehouses.json');
    expect(r.document!.endpoints!.operations!.listWarehouses!.action).toBe('custom');
  });
});
