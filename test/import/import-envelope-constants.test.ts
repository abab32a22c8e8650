// Express-style answers `{ "success": true, "data": … }` and errors `{ "success": false, "error": { code, message } }`
// (docs/import.md, "Response envelopes"): a member the document allows one value is a constant the runtime writes on
// every answer (the envelope field's, or the error body field's, `default`). Before, the reads, creates and lists of
// such a document were custom operations answering 501, the error answers lacked the required `success`, and a
// boolean `enum: [true]` anywhere became a plain boolean without a word.
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { testService } from '../../src/tester/tester-run.js';
import { startService } from '../runtime/helpers.js';

type Json = Record<string, unknown>;

const json = (schema: unknown) => ({ 'application/json': { schema } });
const ok = (data: unknown, success: Json = { type: 'boolean', enum: [true] }) => ({
  type: 'object',
  required: ['success', 'data'],
  properties: { success, data },
});
const failure = { description: 'failed', content: json({ $ref: '#/components/schemas/Failure' }) };
const noteRef = { $ref: '#/components/schemas/Note' };
const idParam = [{ name: 'noteId', in: 'path', required: true, schema: { type: 'integer' } }];

function doc(success?: Json): Json {
  return {
    openapi: '3.0.3',
    info: { title: 'Notes', version: '2' },
    paths: {
      '/notes': {
        get: {
          operationId: 'listNotes',
          parameters: [
            { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 50, default: 10 } },
          ],
          responses: { '200': { description: 'ok', content: json(ok({ type: 'array', items: noteRef }, success)) } },
        },
        post: {
          operationId: 'createNote',
          requestBody: { required: true, content: json({ $ref: '#/components/schemas/NoteInput' }) },
          responses: { '201': { description: 'made', content: json(ok(noteRef, success)) }, '422': failure },
        },
      },
      '/notes/{noteId}': {
        get: {
          operationId: 'getNote',
          parameters: idParam,
          responses: { '200': { description: 'ok', content: json(ok(noteRef, success)) }, '404': failure },
        },
      },
    },
    components: {
      schemas: {
        Failure: {
          type: 'object',
          required: ['success', 'error'],
          properties: {
            success: { type: 'boolean', enum: [false] },
            error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } },
          },
        },
        NoteInput: {
          type: 'object',
          additionalProperties: false,
          required: ['text', 'agreed'],
          properties: { text: { type: 'string', minLength: 1, maxLength: 50 }, agreed: { type: 'boolean', enum: [true] } },
        },
        Note: {
          type: 'object',
          required: ['id', 'text', 'agreed'],
          properties: { id: { type: 'integer', readOnly: true }, text: { type: 'string', minLength: 1, maxLength: 50 }, agreed: { type: 'boolean' } },
        },
      },
    },
  };
}

const approximations = (r: Awaited<ReturnType<typeof importOpenApiDocument>>) =>
  r.diagnostics.filter((d) => d.code === 'import-approximated' && d.message.includes('as type boolean')).map((d) => d.pointer);

describe('a document whose answers hold a constant beside the data', () => {
  it('reads them as resource actions in an envelope whose constant the runtime writes, errors included', async () => {
    const r = await importOpenApiDocument(doc(), 'notes.json');
    const ops = r.document!.endpoints!.operations!;
    expect(Object.fromEntries(Object.entries(ops).map(([id, o]) => [id, o.action]))).toEqual({ listNotes: 'list', createNote: 'create', getNote: 'read' });
    expect(r.document!.endpoints!.envelope).toEqual({ data: 'data', fields: { success: { type: 'boolean', default: true } } });
    expect((r.document!.errors!.body as { fields: Json }).fields.success).toEqual({ type: 'boolean', default: false });
    expect(r.diagnostics.filter((d) => d.code === 'import-custom-operation')).toEqual([]);
    // Said where a request may now send the other value (the terms accepted), and nowhere a constant is written.
    expect(approximations(r)).toEqual(['/components/schemas/NoteInput/properties/agreed']);
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);

    const s = await startService(r.compiled!.model!);
    try {
      const made = await s.call('POST', '/notes', { text: 'hi', agreed: true });
      expect(made.status).toBe(201);
      expect(made.body).toEqual({ data: { id: 1, text: 'hi', agreed: true }, success: true });
      expect((await s.call('GET', '/notes/1')).body).toEqual({ data: { id: 1, text: 'hi', agreed: true }, success: true });
      expect((await s.call('GET', '/notes?limit=5')).body).toEqual({ data: [{ id: 1, text: 'hi', agreed: true }], success: true });
      const missing = await s.call('GET', '/notes/9');
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ success: false, error: { code: expect.any(String) as unknown, message: expect.any(String) as unknown } });
      const refused = await s.call('POST', '/notes', { text: '', agreed: true });
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ success: false });

      const report = await testService(r.compiled!.model!, { baseUrl: s.url, seed: 7, runs: 2 });
      expect(report.results.filter((x) => x.outcome === 'failed').map((x) => [x.check, x.target, x.failure?.actual])).toEqual([]);
      expect(report.results.filter((x) => x.check === 'endpoints.envelope' && x.outcome === 'passed').length).toBeGreaterThan(0);
    } finally {
      await s.close();
    }
  }, 120_000);

  it('keeps a member whose value the document does not state as written: those operations stay custom', async () => {
    const r = await importOpenApiDocument(doc({ type: 'boolean' }), 'notes.json');
    const ops = r.document!.endpoints!.operations!;
    expect(Object.values(ops).map((o) => o.action)).toEqual(['custom', 'custom', 'custom']);
    expect(r.document!.endpoints!.envelope).toBeUndefined();
    // Said with each: what keeps it custom, and what would not.
    const why = r.diagnostics.filter((d) => d.code === 'import-custom-operation').map((d) => [d.pointer!, d.message] as const);
    expect(why).toHaveLength(3);
    // Each member at its pointer, in the operation's own success answer.
    for (const [at, m] of why)
      expect(m).toContain(
        `it holds Note in \`data\` beside \`success\` (${at}/responses/${at.endsWith('/post') ? 201 : 200}/content/application~1json/schema/properties/success), whose value the document does not state (a member of one value, \`enum: [true]\`, is a constant of an envelope the runtime writes)`,
      );
  });
});
