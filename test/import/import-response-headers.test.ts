import { describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';

// OpenAPI response headers read into response_headers: kept where the format can keep them, each other one said
// with its JSON pointer (never dropped silently).
const DOC = {
  openapi: '3.1.0',
  info: { title: 'Headers', version: '1' },
  paths: {
    '/widgets': {
      post: {
        operationId: 'createWidget',
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Widget' } } } },
        responses: {
          '201': {
            description: 'Created.',
            headers: {
              Location: { schema: { type: 'string' } },
              'X-Quota-Left': { description: 'Calls left today.', schema: { type: 'integer', minimum: 0 } },
              ETag: { required: true, schema: { type: 'string' } },
              'X-Request-Id': { schema: { type: 'string' } },
            },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Widget' } } },
          },
          '429': { description: 'Slow down.', headers: { 'X-Retry-In': { schema: { type: 'integer' } } } },
        },
      },
    },
    '/quotes': {
      post: {
        operationId: 'quote',
        requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { grams: { type: 'integer' } }, required: ['grams'] } } } },
        responses: {
          '200': {
            description: 'A quote.',
            headers: {
              'X-Cost': { required: true, schema: { type: 'integer' }, example: 3 },
              'X-Trace': { $ref: '#/components/headers/Trace' },
              'Content-Type': { schema: { type: 'string' } },
              'X-Blob': { schema: { type: 'object', properties: { a: { type: 'string' } } } },
            },
            content: { 'application/json': { schema: { type: 'object', properties: { price: { type: 'integer' } }, required: ['price'] } } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Widget: { type: 'object', properties: { id: { type: 'string', format: 'uuid', readOnly: true }, name: { type: 'string' } }, required: ['id', 'name'] },
    },
    headers: { Trace: { description: 'The trace id.', schema: { type: 'string', format: 'uuid' }, deprecated: true } },
  },
};

describe('import of response headers', () => {
  it('keeps what the format can say, and names by pointer each header it cannot keep', async () => {
    const r = await importOpenApiDocument(DOC, 'headers.json');
    const ops = r.document!.endpoints!.operations!;
    expect(ops.createWidget!.action).toBe('create');
    expect(ops.createWidget!.response_headers).toEqual({ 'X-Quota-Left': { type: 'integer', description: 'Calls left today.', optional: true, minimum: 0 } });
    expect(ops.quote!.action).toBe('custom');
    expect(ops.quote!.response_headers).toEqual({
      'X-Cost': { type: 'integer', example: 3 },
      'X-Trace': { type: 'uuid', description: 'The trace id.', optional: true, deprecated: true },
    });
    const dropped = r.diagnostics
      .filter((d) => d.code === 'import-dropped' && d.message.includes('header'))
      .map((d) => d.pointer)
      .sort();
    expect(dropped).toEqual([
      '/paths/~1quotes/post/responses/200/headers/X-Blob',
      '/paths/~1widgets/post/responses/201/headers/Location',
      '/paths/~1widgets/post/responses/201/headers/X-Request-Id',
    ]);
    // An ETag on the created Widget is the format's: the resource takes conditional requests (etag: true).
    expect(r.document!.resources!.Widget!.etag).toBe(true);
    // An error answer's header is its code's (import-error-headers.test.ts), no longer dropped.
    expect(Object.values(r.document!.errors!.codes!).find((c) => c.status === 429)!.headers).toEqual({ 'X-Retry-In': { type: 'integer', optional: true } });
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it("a create's Location is the format's when the resource has a read operation: kept, nothing said", async () => {
    const doc = structuredClone(DOC) as typeof DOC & { paths: Record<string, unknown> };
    doc.paths['/widgets/{id}'] = {
      get: {
        operationId: 'readWidget',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        responses: { '200': { description: 'The widget.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Widget' } } } } },
      },
    };
    const r = await importOpenApiDocument(doc, 'headers.json');
    expect(r.document!.endpoints!.operations!.readWidget!.action).toBe('read');
    expect(r.diagnostics.filter((d) => d.pointer?.endsWith('/headers/Location'))).toEqual([]);
    expect(r.diagnostics.filter((d) => d.message.includes('no `Location` header declared'))).toEqual([]);
  });

  it('a create of a readable resource whose success response declares no Location: `location: false`, nothing approximated', async () => {
    const doc = structuredClone(DOC) as typeof DOC & { paths: Record<string, unknown> };
    doc.paths['/widgets/{id}'] = {
      get: {
        operationId: 'readWidget',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        responses: { '200': { description: 'The widget.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Widget' } } } } },
      },
    };
    // Headers without Location, and none at all.
    const created = doc.paths['/widgets'].post.responses['201'] as { headers?: Record<string, unknown> };
    delete created.headers!.Location;
    for (const headers of [created.headers, undefined]) {
      if (headers === undefined) delete created.headers;
      const r = await importOpenApiDocument(doc, 'headers.json');
      expect(r.document!.endpoints!.operations!.createWidget!.location).toBe(false);
      expect(r.diagnostics.filter((d) => d.message.includes('Location'))).toEqual([]);
    }
    // Without a read there is no Location to answer: nothing written, nothing said.
    delete doc.paths['/widgets/{id}'];
    const r = await importOpenApiDocument(doc, 'headers.json');
    expect(r.document!.endpoints!.operations!.createWidget!.location).toBeUndefined();
    expect(r.diagnostics.filter((d) => d.message.includes('Location'))).toEqual([]);
  });
});
