// An update's JSON merge patch (request_media_type: application/merge-patch+json) in the exports: its own schema
// (NoteMergePatch in OpenAPI and JSON Schema, the client's PatchNoteRequest) says what the runtime takes: a null
// removes a field that may be absent, an object field's members are none of them required (it merges into the stored
// one). Where the exports gave the update's view, a validator or client built from them refused valid patches. Each
// patch below is judged by the exported schema (Ajv) and by the served runtime: both give the same answer.
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateClient } from '../../src/export/export-client.js';
import { exportJsonSchemas } from '../../src/export/export-json-schema.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { startService, type Running } from '../runtime/helpers.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
type JsonObject = Record<string, unknown>;

const spec = (extra = ''): string => `
servicespec: 1
resources:
  Note:
    fields:
      id: { type: uuid, readOnly: true }
      body: { type: string, maxLength: 20 }
      reason: { type: string, optional: true }
      kind: { type: enum, values: [a, b], optional: true }
      note: { type: string, nullable: true }
      place: { type: object, optional: true, fields: { city: { type: string }, zip: { type: string, optional: true } } }
endpoints:
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note }
    getNote: { method: GET, path: "/notes/{id}", action: read, resource: Note }
    patchNote: { method: PATCH, path: "/notes/{id}", action: update, resource: Note, request_media_type: application/merge-patch+json${extra} }
authentication:
  default: none
${PLAIN_ERRORS}`;

const PATCHES: JsonObject[] = [
  { reason: null },
  { kind: null, note: null },
  { place: { zip: null } },
  { place: { city: 'x' } },
  { place: null },
  { body: 'b' },
  { body: null },
  { place: { city: 7 } },
  { place: { city: null } },
  { body: 'x'.repeat(21) },
  { kind: 'c' },
  { other: 1 },
  { id: '0190a0b0-0000-7000-8000-0000000000ff' },
];

describe('an update taking a JSON merge patch, in the exports', () => {
  let s: Running;
  let id: string;
  beforeAll(async () => {
    s = await startService(checkedModel(spec()));
  });
  afterAll(async () => s?.close());

  it('OpenAPI: NoteMergePatch takes what the runtime takes, and refuses what it refuses', async () => {
    const doc = exportOpenApi(checkedModel(spec())).document as {
      paths: Record<string, Record<string, JsonObject>>;
      components: { schemas: Record<string, JsonObject> };
    };
    const body = doc.paths['/notes/{id}']!.patch!.requestBody as { content: Record<string, { schema: JsonObject }> };
    expect(body.content['application/merge-patch+json']!.schema).toEqual({ $ref: '#/components/schemas/NoteMergePatch' });
    await SwaggerParser.validate(structuredClone(doc) as never);
    const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
    for (const [name, schema] of Object.entries(doc.components.schemas)) ajv.addSchema(schema, `#/components/schemas/${name}`);
    const validate = ajv.getSchema('#/components/schemas/NoteMergePatch')!;
    for (const patch of PATCHES) {
      id = (await s.call('POST', '/notes', { body: 'a', reason: 'r', kind: 'a', note: 'n', place: { city: 'c', zip: 'z' } })).body.id as string;
      const served = await s.call('PATCH', `/notes/${id}`, JSON.stringify(patch), { 'content-type': 'application/merge-patch+json' });
      expect([served.status === 200, validate(patch)], JSON.stringify({ patch, served: served.body })).toEqual([validate(patch), served.status === 200]);
      expect([200, 422]).toContain(served.status);
    }
  });

  it('JSON Schema and the client say the same; import reads NoteMergePatch back as the update', async () => {
    const model = checkedModel(spec());
    const js = exportJsonSchemas(model).document as { $defs: Record<string, JsonObject> };
    const openapi = exportOpenApi(model).document as { components: { schemas: Record<string, JsonObject> } };
    const { 'x-servicespec-view': _view, ...patch } = openapi.components.schemas.NoteMergePatch!;
    expect(js.$defs.NoteMergePatch).toMatchObject(patch);
    const client = generateClient(model).code;
    expect(client).toMatch(/reason\?: string \| null/);
    const back = await importOpenApiDocument(structuredClone(openapi), 'notes.json');
    expect(back.document!.endpoints!.operations!.patchNote).toMatchObject({ action: 'update', request_media_type: 'application/merge-patch+json' });
    expect(Object.keys(back.document!.resources!)).toEqual(['Note']);
    // With request_fields, the operation's own component, as a subset is.
    const own = exportOpenApi(checkedModel(spec(', request_fields: [reason, place]'))).document as typeof openapi;
    expect(Object.keys(own.components.schemas.PatchNoteRequest!.properties as object)).toEqual(['reason', 'place']);
    expect(own.components.schemas.NoteMergePatch).toBeUndefined();
  });
});
