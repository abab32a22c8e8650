// The spec has one error body. Where a document's error bodies say a field differently (Shopify's `errors`: "Not
// Found" on a 404, `{ title: ["can't be blank"] }` on a 422), the kept body takes both: the field becomes `json`;
// one another body leaves out becomes optional; each said. Before, the first body was kept as it was (`errors:
// string`) while import said "imported as type json", and every faithful 422 failed the tester (a shop sweep's 147
// false failures).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { testService } from '../../src/tester/tester-run.js';

const json = (schema: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } });

const DOC = {
  openapi: '3.1.0',
  info: { title: 'Shop', version: '1' },
  paths: {
    '/products/{id}': {
      get: {
        operationId: 'getProduct',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': { description: 'ok', content: json('Product') },
          '404': { description: 'missing', content: json('NotFound') },
        },
      },
    },
    '/products': {
      post: {
        operationId: 'createProduct',
        requestBody: { required: true, content: json('ProductCreate') },
        responses: {
          '201': { description: 'made', content: json('Product') },
          '422': { description: 'invalid', content: json('ValidationErrors') },
        },
      },
    },
  },
  components: {
    schemas: {
      Product: { type: 'object', required: ['id', 'title'], properties: { id: { type: 'integer', readOnly: true }, title: { type: 'string', minLength: 1 } } },
      ProductCreate: { type: 'object', required: ['title'], properties: { title: { type: 'string', minLength: 1 } } },
      NotFound: { type: 'object', required: ['errors', 'hint'], properties: { errors: { type: 'string' }, hint: { type: 'string' } } },
      ValidationErrors: {
        type: 'object',
        required: ['errors'],
        properties: { errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } },
      },
    },
  },
};

describe('error bodies that say a field differently', () => {
  it('merge into one body taking both: a field of two types is json, one another body leaves out optional, each said', async () => {
    const r = await importOpenApiDocument(structuredClone(DOC), 'shop.json');
    const body = r.document!.errors!.body as { fields: Record<string, { type: string; optional?: boolean }> };
    expect(body.fields).toEqual({ errors: { type: 'json' }, hint: { type: 'string', optional: true } });
    const said = r.diagnostics.filter((d) => d.code === 'import-approximated' && d.message.startsWith("the error body's"));
    expect(said.map((d) => d.message.split(':')[0])).toEqual([
      "the error body's `errors` (string; map at /paths/~1products/post/responses/422) is imported as type json",
      "the error body's `hint` (required) is imported as an optional field",
    ]);
  });

  it("a field only another body has (a 422's errors list beside every body's message) is kept, optional, and said", async () => {
    const doc = structuredClone(DOC);
    doc.components.schemas.NotFound = { type: 'object', required: ['message'], properties: { message: { type: 'string' } } } as never;
    (doc.components.schemas as Record<string, unknown>).ValidationErrors = {
      type: 'object',
      required: ['message', 'errors'],
      properties: {
        message: { type: 'string' },
        errors: { type: 'array', items: { type: 'object', required: ['field', 'code'], properties: { field: { type: 'string' }, code: { type: 'string' } } } },
      },
    };
    const r = await importOpenApiDocument(doc, 'gh.json');
    const body = r.document!.errors!.body as { fields: Record<string, unknown> };
    expect(body.fields).toEqual({
      message: { type: 'string' },
      errors: { type: 'array', optional: true, items: { type: 'object', fields: { field: { type: 'string' }, code: { type: 'string' } } } },
    });
    const said = r.diagnostics.filter((d) => d.code === 'import-approximated' && d.message.startsWith("the error body's"));
    expect(said.map((d) => d.message.split(':')[0])).toEqual([
      "the error body's `errors` (at /paths/~1products/post/responses/422) is imported as an optional field",
    ]);
  });

  it("the tester takes either body from a service answering the document's own", async () => {
    const r = await importOpenApiDocument(structuredClone(DOC), 'shop.json');
    const products = new Map<number, { id: number; title: string }>();
    const server = createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString('utf8')));
      req.on('end', () => {
        const answer = (status: number, body: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        };
        const one = /^\/products\/([^/?]+)$/.exec(req.url ?? '');
        if (req.method === 'GET' && one) {
          const p = /^[0-9]+$/.test(one[1]!) ? products.get(Number(one[1])) : undefined;
          return p ? answer(200, p) : answer(404, { errors: 'Not Found', hint: 'check the id' });
        }
        if (req.method !== 'POST' || req.url !== '/products') return answer(404, { errors: 'Not Found' });
        let b: unknown;
        try {
          b = JSON.parse(text);
        } catch {
          return answer(422, { errors: { base: ['is not JSON'] } });
        }
        const { title, ...rest } = (typeof b === 'object' && b !== null && !Array.isArray(b) ? b : { title: undefined, x: 1 }) as Record<string, unknown>;
        if (typeof title !== 'string' || title.length < 1 || Object.keys(rest).length > 0) return answer(422, { errors: { title: ["can't be blank"] } });
        const p = { id: products.size + 1, title };
        products.set(p.id, p);
        return answer(201, p);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const report = await testService(r.compiled!.checked!, {
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        seed: 1,
        only: ['endpoints.invalid-requests', 'errors.missing-object', 'errors.declared-codes'],
      });
      expect(report.results.filter((x) => x.outcome === 'failed').map((x) => [x.target, x.failure?.actual])).toEqual([]);
      expect(report.results.filter((x) => x.outcome === 'passed').length).toBeGreaterThan(3);
    } finally {
      server.close();
    }
  }, 60_000);
});
