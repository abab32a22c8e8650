// Response envelopes through export and import (docs/import.md, "Response envelopes"): the export validates with
// swagger-parser and writes each success answer in the envelope; with servicespec's extensions the spec comes back
// exactly, and without them (as another tool would write it) the envelope is recognised from the answers alone;
// giphy imports its three lists enveloped and serves them.
import SwaggerParser from '@apidevtools/swagger-parser';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { modelToSpec } from '../../src/export/model-to-spec.js';
import { serializeDocument } from '../../src/export/export-shared.js';
import { importOpenApiDocument, importOpenApiFile } from '../../src/import/import-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { OPENAPI_FIXTURES } from '../export/helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'servicespec-envelopes-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const SPEC = `servicespec: 1
resources:
  Gif:
    fields:
      id: { type: integer, readOnly: true }
      title: { type: string }
      rating: { type: string, optional: true }
endpoints:
  envelope:
    data: data
    fields:
      meta:
        type: object
        fields:
          msg: { type: string }
          status: { type: integer }
          response_id: { type: string }
      pagination:
        type: object
        optional: true
        fields:
          total_count: { type: integer }
          count: { type: integer }
          offset: { type: integer }
    status: meta.status
    status_text: meta.msg
    request_id: meta.response_id
    total: pagination.total_count
    count: pagination.count
    offset: pagination.offset
  operations:
    createGif: { method: POST, path: /gifs, action: create, resource: Gif }
    getGif: { method: GET, path: '/gifs/{id}', action: read, resource: Gif }
    listGifs: { method: GET, path: /gifs, action: list, resource: Gif, filter: [rating], paging: { style: offset, body: array } }
    deleteGif: { method: DELETE, path: '/gifs/{id}', action: delete, resource: Gif }
authentication:
  default: none
errors:
  codes:
    bad: { status: 422, when: [validation] }
    other: { status: 400, when: [malformed_request, route_not_found, method_not_allowed, unsupported_media_type, internal, unique_conflict, missing_resource] }
`;

/** The document without servicespec's own extensions, as another tool would have written it. */
function foreign(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(foreign);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => !k.startsWith('x-servicespec'))
        .map(([k, x]) => [k, foreign(x)]),
    );
  return v;
}

describe('response envelopes through export and import', () => {
  const compiled = compileSpecText(SPEC);
  it('the spec checks', () => expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]));

  it.each(['3.1', '3.0'] as const)('OpenAPI %s: validates, each success answer in the envelope; the spec comes back exactly', async (version) => {
    const doc = exportOpenApi(compiled.model!, { openapi: version }).document as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- read by path
    const file = join(tmp, `envelopes-${version}.json`);
    writeFileSync(file, serializeDocument(doc, 'json'));
    await expect(SwaggerParser.validate(file)).resolves.toBeDefined();
    const read = doc.paths['/gifs/{id}'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(read.properties)).toEqual(['data', 'meta', 'pagination']);
    expect(read.required).toEqual(['data', 'meta']);
    expect(read.properties.data).toEqual({ $ref: '#/components/schemas/Gif' });
    expect(doc.paths['/gifs'].get.responses['200'].content['application/json'].schema.properties.data.type).toBe('array');
    expect(doc.paths['/gifs/{id}'].delete.responses['204'].content).toBeUndefined();
    const back = await importOpenApiDocument(JSON.parse(JSON.stringify(doc)) as unknown, 'exported.json');
    const again = compileSpecText(back.text!);
    expect(modelToSpec(again.model!).endpoints).toEqual(modelToSpec(compiled.model!).endpoints);
  });

  it('without servicespec extensions: the envelope is recognised from the answers, the delete left bare', async () => {
    const doc = foreign(exportOpenApi(compiled.model!, { openapi: '3.1' }).document);
    const r = await importOpenApiDocument(JSON.parse(JSON.stringify(doc)) as unknown, 'foreign.json');
    const back = compileSpecText(r.text!);
    expect(back.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const e = back.model!.endpoints!.envelope!;
    expect([e.data, e.values.map((v) => `${v.source}=${v.path.join('.')}`)]).toEqual([
      'data',
      [
        'status=meta.status',
        'status_text=meta.msg',
        'request_id=meta.response_id',
        'total=pagination.total_count',
        'count=pagination.count',
        'offset=pagination.offset',
      ],
    ]);
    const ops = back.model!.endpoints!.operations;
    expect(ops.map((o) => [o.id, o.action, o.envelope !== undefined])).toEqual([
      ['createGif', 'create', true],
      ['listGifs', 'list', true],
      ['getGif', 'read', true],
      ['deleteGif', 'delete', false],
    ]);
  });

  it("a read's envelope lacking the lists' optional pagination is the same envelope, written once", async () => {
    // giphy's read answers { data, meta }, its lists { data, meta, pagination }: before, each operation got its own copy.
    const doc = foreign(exportOpenApi(compiled.model!, { openapi: '3.1' }).document) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- edited by path
    delete doc.paths['/gifs/{id}'].get.responses['200'].content['application/json'].schema.properties.pagination;
    const r = await importOpenApiDocument(doc, 'foreign.json');
    const back = compileSpecText(r.text!);
    expect(back.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.document!.endpoints!.envelope).toMatchObject({ data: 'data', total: 'pagination.total_count', status: 'meta.status' });
    expect(Object.values(r.document!.endpoints!.operations!).map((o) => o.envelope)).toEqual([undefined, undefined, undefined, undefined]);
    expect(back.model!.endpoints!.operations.map((o) => [o.id, o.envelope !== undefined])).toEqual([
      ['createGif', true],
      ['listGifs', true],
      ['getGif', true],
      ['deleteGif', false],
    ]);
  });

  it('an envelope with a required field no value fills is not one: the answer stays as the document says', async () => {
    const doc = foreign(exportOpenApi(compiled.model!, { openapi: '3.1' }).document) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- edited by path
    const schema = doc.paths['/gifs/{id}'].get.responses['200'].content['application/json'].schema;
    schema.properties.meta.properties.server = { type: 'string' };
    schema.properties.meta.required.push('server');
    const r = await importOpenApiDocument(doc, 'foreign.json');
    const back = compileSpecText(r.text!).model!;
    expect(back.endpoints!.operations.find((o) => o.path === '/gifs/{id}')!.action).toBe('custom');
  });
});

describe("an operation's own envelope through export and import", () => {
  // Found by the round-trip property (import-roundtrip.test.ts, an optional non-nullable `next`): the export carried
  // the operation's `envelope` in x-servicespec-operation, and the import dropped it, with no word.
  const text = `servicespec: 1
resources:
  Item:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string }
endpoints:
  envelope:
    data: data
    fields: { meta: { type: object, fields: { status: { type: integer } } } }
    status: meta.status
  operations:
    createItem: { method: POST, path: /items, action: create, resource: Item }
    readItem: { method: GET, path: '/items/{id}', action: read, resource: Item, envelope: none }
    listItems:
      method: GET
      path: /items
      action: list
      resource: Item
      envelope:
        data: result
        fields: { metadata: { type: object, optional: true, fields: { continue: { type: string, optional: true } } } }
        next: metadata.continue
authentication:
  default: none
errors:
  codes:
    invalid: { status: 400, when: [validation, malformed_request, unsupported_media_type] }
    missing: { status: 404, when: [missing_resource, route_not_found] }
    other: { status: 405, when: [method_not_allowed] }
    broken: { status: 500, when: [internal, not_implemented] }
`;
  it.each(['3.1', '3.0'] as const)('OpenAPI %s: an operation answering in its own envelope, or in none, keeps it', async (version) => {
    const compiled = compileSpecText(text);
    expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const doc = exportOpenApi(compiled.model!, { openapi: version }).document;
    const back = await importOpenApiDocument(JSON.parse(serializeDocument(doc, 'json')) as unknown, 'exported.json');
    const again = compileSpecText(back.text!);
    expect(again.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const ops = modelToSpec(again.model!).endpoints!.operations!;
    expect(ops.readItem!.envelope).toBe('none');
    expect(ops.listItems!.envelope).toEqual({
      data: 'result',
      fields: { metadata: { type: 'object', optional: true, fields: { continue: { type: 'string', optional: true } } } },
      next: 'metadata.continue',
    });
    expect(modelToSpec(again.model!).endpoints).toEqual(modelToSpec(compiled.model!).endpoints);
  });
});

describe('giphy', () => {
  it('recognises the envelope; Gif has no identifier (its `id` is optional), yet its lists are lists (the storage keys its rows) and {gifId} reads one by its `id`', async () => {
    const r = await importOpenApiFile(join(OPENAPI_FIXTURES, 'giphy-v1.yaml'));
    const compiled = compileSpecText(r.text!);
    expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const lists = compiled.model!.endpoints!.operations.filter((o) => o.action !== 'custom');
    expect(lists.map((o) => [o.id, o.action, o.resource, o.envelope?.data])).toEqual([
      ['getGifsById', 'list', 'Gif', 'data'],
      ['searchGifs', 'list', 'Gif', 'data'],
      ['trendingGifs', 'list', 'Gif', 'data'],
      ['getGifById', 'read', 'Gif', 'data'],
      ['searchStickers', 'list', 'Gif', 'data'],
      ['trendingStickers', 'list', 'Gif', 'data'],
    ]);
    // The searches declare `q` (required) and `lang`: lists that validate them (before: custom operations, 501).
    expect(compiled.model!.endpoints!.operations.find((o) => o.id === 'searchGifs')!.query.map((p) => [p.name, p.optional])).toEqual([
      ['q', false],
      ['lang', true],
    ]);
    expect(r.diagnostics.filter((d) => d.code === 'import-custom-operation' && d.message.includes('trendingGifs'))).toEqual([]);
  });
});
