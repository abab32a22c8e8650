// A list whose other query parameters the format cannot read (Shopify's `page_info`, `since_id`) stays a list, those
// parameters its own (validated, not otherwise used) and said; its page size parameter's default and maximum are still the list's. Before, they were
// lost without a word (gaps said page sizes "not shown", and serve used its own 20 and 100): a shop sweep.
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';

const DOC = {
  openapi: '3.1.0',
  info: { title: 'Shop', version: '1' },
  paths: {
    '/products': {
      get: {
        operationId: 'listProducts',
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 250, default: 50 } },
          { name: 'since_id', in: 'query', schema: { type: 'integer' } },
        ],
        responses: {
          '200': {
            description: 'ok',
            headers: { Link: { description: 'the next page, by page_info', schema: { type: 'string' } } },
            content: {
              'application/json': { schema: { type: 'object', properties: { products: { type: 'array', items: { $ref: '#/components/schemas/Product' } } } } },
            },
          },
        },
      },
    },
  },
  components: {
    schemas: { Product: { type: 'object', required: ['id', 'title'], properties: { id: { type: 'integer', readOnly: true }, title: { type: 'string' } } } },
  },
};

describe('a list with a query parameter it cannot read', () => {
  it('keeps its page size default and maximum', async () => {
    const r = await importOpenApiDocument(structuredClone(DOC), 'shop.json');
    const list = r.document!.endpoints!.operations!.listProducts!;
    expect([list.action, list.paging]).toEqual(['list', { style: 'limit', items: 'products' }]);
    expect(r.document!.limits?.page_size).toEqual({ default: 50, max: 250, over_max: 'reject' });
    // `since_id` is the list's own parameter (validated, not otherwise used), said so.
    expect(list.query).toEqual({ since_id: { type: 'integer', optional: true } });
    expect(r.diagnostics.filter((d) => d.code === 'import-approximated' && d.message.includes('since_id')).length).toBe(1);
    // Its Link header is dropped for what it is: a list read as style limit has no next page. Before, the message
    // said the service writes it itself (paging.link), which it does not here.
    const link = r.diagnostics.filter((d) => d.code === 'import-dropped' && d.message.includes('`Link`')).map((d) => d.message);
    expect(link).toHaveLength(1);
    expect(link[0]).toContain('the list is read as paging style limit, which has no next page');
  });
});
