// An RFC 9457 problem body without a `code` member (type, title, status, detail, instance: the RFC's members only)
// is imported as a declared error body in application/problem+json, not as the format's `problem`, which carries
// the error code in `code`: served, every error answer is the document's problem; tested, no answer is asked a code.

import { describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { testService } from '../../src/tester/tester-run.js';
import { callJson } from '../support/http.js';

const problem = (ref: string) => ({ description: ref, content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } });
const DOC = {
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1' },
  paths: {
    '/notes': {
      post: {
        operationId: 'createNote',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NoteCreate' } } } },
        responses: {
          '201': { description: 'Made.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } } },
          '400': problem('Not JSON.'),
          '422': problem('Invalid.'),
        },
      },
    },
    '/notes/{id}': {
      get: {
        operationId: 'getNote',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        responses: {
          '200': { description: 'The note.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } } },
          '404': problem('No such note.'),
        },
      },
    },
  },
  components: {
    schemas: {
      NoteCreate: { type: 'object', required: ['text'], properties: { text: { type: 'string', maxLength: 20 } } },
      Note: {
        type: 'object',
        required: ['id', 'text'],
        properties: { id: { type: 'string', format: 'uuid', readOnly: true }, text: { type: 'string', maxLength: 20 } },
      },
      Problem: {
        type: 'object',
        required: ['type', 'title', 'status'],
        properties: {
          type: { type: 'string', default: 'about:blank' },
          title: { type: 'string' },
          status: { type: 'integer', minimum: 400, maximum: 599 },
          detail: { type: 'string' },
          instance: { type: 'string' },
        },
      },
    },
  },
};

describe('an RFC 9457 problem body without a code', () => {
  it('is imported as the declared body in application/problem+json, and served as the document declares it', async () => {
    const r = await importOpenApiDocument(structuredClone(DOC), 'notes.json');
    const body = r.document!.errors!.body as unknown as Record<string, unknown>;
    expect(body).toMatchObject({ media_type: 'application/problem+json' });
    expect(Object.keys(body.fields as object)).toEqual(['type', 'title', 'status', 'detail', 'instance']);
    const app = await createService(r.compiled!.checked!, { storage: createSqliteStorage({ path: ':memory:' }), allowGaps: true });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const missing = await callJson(url, 'GET', '/notes/00000000-0000-4000-8000-000000000000');
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(missing.body).toMatchObject({ type: 'about:blank', status: 404, title: expect.any(String) });
      expect(missing.body).not.toHaveProperty('code');
      // The tester holds the served import to the document's problem: nothing to fail, no code asked.
      const report = await testService(r.compiled!.checked!, { baseUrl: url, seed: 1, only: ['errors', 'endpoints'] });
      expect(report.results.filter((x) => x.outcome === 'failed').map((x) => `${x.check} ${x.target}: ${x.failure?.actual}`)).toEqual([]);
    } finally {
      await app.close();
    }
  }, 60_000);

  it('a problem body declaring a code member stays the format’s problem', async () => {
    const doc = structuredClone(DOC);
    (doc.components.schemas.Problem.properties as Record<string, unknown>).code = { type: 'string' };
    const r = await importOpenApiDocument(doc, 'notes.json');
    expect(r.document!.errors!.body).toBe('problem');
  });
});

describe('a problem body whose code field has another name', () => {
  it('is a declared body with that field as its code (the format’s problem reads `code` only)', async () => {
    const doc = structuredClone(DOC);
    (doc.components.schemas.Problem.properties as Record<string, unknown>).error_code = { type: 'string' };
    const r = await importOpenApiDocument(doc, 'notes.json');
    expect(r.document!.errors!.body).toMatchObject({ code: 'error_code', media_type: 'application/problem+json' });
  });
});
