// Conditional requests imported (docs/import.md, "Conditional requests"): a resource whose read answers an ETag, or
// whose one-object changes take If-Match, becomes `etag: true`; those operations stay read, update, replace and
// delete (before, the If-Match header made a PUT a custom operation, served 501 without a handler); a required
// If-Match is `if_match: required`; the read's 304 is absorbed, 412 and 428 answer precondition_failed and
// precondition_required. What it cannot keep is said at its pointer. The export imported back is the same spec.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { ETAG_SPEC } from '../support/etag-spec.js';

const doc = {
  type: 'object',
  required: ['id', 'title'],
  properties: { id: { type: 'string', format: 'uuid', readOnly: true }, title: { type: 'string' } },
  additionalProperties: false,
};
const json = (schema: unknown) => ({ 'application/json': { schema } });
const answered = (etag: boolean) => ({
  description: 'the document',
  ...(etag ? { headers: { ETag: { description: 'its tag', schema: { type: 'string' } } } } : {}),
  content: json({ $ref: '#/components/schemas/Document' }),
});
const ifMatch = (required: boolean) => ({ name: 'If-Match', in: 'header', required, schema: { type: 'string' } });
const DOCUMENTS = (opts: { readTag?: boolean; putIfMatch?: boolean | 'required'; postIfMatch?: boolean } = {}) => ({
  openapi: '3.1.0',
  info: { title: 'Documents', version: '1' },
  paths: {
    '/documents': {
      post: {
        operationId: 'createDocument',
        ...(opts.postIfMatch ? { parameters: [ifMatch(false)] } : {}),
        requestBody: { required: true, content: json({ $ref: '#/components/schemas/Document' }) },
        responses: { '201': answered(false), '422': { description: 'invalid' } },
      },
    },
    '/documents/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
      get: {
        operationId: 'getDocument',
        parameters: [{ name: 'If-None-Match', in: 'header', schema: { type: 'string' } }],
        responses: { '200': answered(opts.readTag ?? true), '304': { description: 'not modified' }, '404': { description: 'none' } },
      },
      put: {
        operationId: 'putDocument',
        ...(opts.putIfMatch !== undefined && opts.putIfMatch !== false ? { parameters: [ifMatch(opts.putIfMatch === 'required')] } : {}),
        requestBody: { required: true, content: json({ $ref: '#/components/schemas/Document' }) },
        responses: {
          '200': answered(opts.readTag ?? true),
          '404': { description: 'none' },
          '412': { description: 'stale' },
          '428': { description: 'tag needed' },
        },
      },
      delete: {
        operationId: 'deleteDocument',
        parameters: [ifMatch(false)],
        responses: { '204': { description: 'gone' }, '404': { description: 'none' }, '412': { description: 'stale' } },
      },
    },
  },
  components: { schemas: { Document: doc } },
});

describe('import: conditional requests', () => {
  it('an ETag answered and If-Match taken: etag: true, the actions kept, if_match: required, 304/412/428 absorbed', async () => {
    const r = await importOpenApiDocument(DOCUMENTS({ putIfMatch: 'required' }), 'documents.json');
    const d = r.document!;
    expect(d.resources!.Document!.etag).toBe(true);
    const ops = d.endpoints!.operations!;
    expect(ops.getDocument).toMatchObject({ action: 'read', resource: 'Document' });
    expect(ops.putDocument).toMatchObject({ action: 'replace', resource: 'Document', if_match: 'required' });
    expect(ops.deleteDocument).toMatchObject({ action: 'delete', resource: 'Document' });
    expect(ops.deleteDocument!.if_match).toBeUndefined();
    expect(ops.getDocument!.response_headers).toBeUndefined();
    const when = Object.values(d.errors!.codes!).flatMap((c) => c.when ?? []);
    expect(when).toEqual(expect.arrayContaining(['precondition_failed', 'precondition_required']));
    expect(r.diagnostics.filter((x) => x.code !== 'import-errors-merged' && /ETag|If-Match|If-None-Match|304|412|428/.test(x.message))).toEqual([]);
    const c = compileSpecText(stringify(d));
    expect(c.diagnostics.filter((x) => x.severity === 'error')).toEqual([]);
    expect(c.model!.resources.find((x) => x.name === 'Document')!.etag).toBe(true);
  });

  it('If-Match alone (no ETag answered) is enough: the PUT stays a replace, not a custom operation', async () => {
    const r = await importOpenApiDocument(DOCUMENTS({ readTag: false, putIfMatch: true }), 'documents.json');
    expect(r.document!.resources!.Document!.etag).toBe(true);
    expect(r.document!.endpoints!.operations!.putDocument).toMatchObject({ action: 'replace' });
    expect(r.document!.endpoints!.operations!.putDocument!.if_match).toBeUndefined();
    expect(r.diagnostics.map((x) => x.code)).not.toContain('import-custom-operation');
  });

  it('what etag: true adds to an operation the document does not declare it for is said at that operation', async () => {
    // The PUT takes no If-Match here (putIfMatch unset): etag: true makes it honour one all the same (412).
    const r = await importOpenApiDocument(DOCUMENTS(), 'documents.json');
    const said = r.diagnostics.filter((x) => x.code === 'import-approximated' && x.message.includes('that honours'));
    expect(said.map((x) => [x.pointer, x.message.split(':')[0]])).toEqual([
      ['/paths/~1documents~1{id}/put', 'operation putDocument is imported as one that honours If-Match (refused 412 when it does not match)'],
    ]);
    // Every operation declaring its header: nothing added, nothing said.
    const full = await importOpenApiDocument(DOCUMENTS({ putIfMatch: true }), 'documents.json');
    expect(full.diagnostics.filter((x) => x.message.includes('that honours'))).toEqual([]);
  });

  it('If-Match on a create is dropped, said at its pointer; the create stays a create', async () => {
    const r = await importOpenApiDocument(DOCUMENTS({ postIfMatch: true }), 'documents.json');
    expect(r.document!.endpoints!.operations!.createDocument).toMatchObject({ action: 'create' });
    const dropped = r.diagnostics.find((x) => x.code === 'import-dropped' && x.message.includes('If-Match'));
    expect(dropped?.pointer).toBe('/paths/~1documents/post/parameters/0');
  });

  it("servicespec's own export imported back: the same etag and if_match", async () => {
    const exported = exportOpenApi(compileSpecText(ETAG_SPEC()).checked!).document;
    const back = await importOpenApiDocument(structuredClone(exported) as unknown, 'export.json');
    expect(back.document!.resources!.Note!.etag).toBe(true);
    expect(back.document!.resources!.Contract!.etag).toBe(true);
    expect(back.document!.endpoints!.operations!.updateContract!.if_match).toBe('required');
    expect(back.document!.endpoints!.operations!.updateNote!.if_match).toBeUndefined();
    const again = compileSpecText(stringify(back.document));
    expect(again.diagnostics.filter((x) => x.severity === 'error')).toEqual([]);
  });
});
