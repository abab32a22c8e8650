// `unknown_fields` through import and export: a request schema's `additionalProperties: false` is `refuse`, an open
// one `ignore`, written both ways (the import no longer closes an open request silently); the export writes the open
// request as its own component without `additionalProperties: false`, and reads back what the spec stated.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { generateClient } from '../../src/export/export-client.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { checkedModel } from '../support/specs.js';
import { UNKNOWN_SPEC } from '../support/unknown-fields-spec.js';
import { startService } from '../runtime/helpers.js';

const json = (schema: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } });
const ID = [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }];

const PETS = {
  openapi: '3.1.0',
  info: { title: 'Pets', version: '1' },
  paths: {
    '/pets': {
      post: {
        operationId: 'createPet',
        requestBody: { required: true, content: json('NewPet') },
        responses: { '201': { description: 'made', content: json('Pet') } },
      },
    },
    '/pets/{id}': {
      get: { operationId: 'readPet', parameters: ID, responses: { '200': { description: 'ok', content: json('Pet') } } },
      put: {
        operationId: 'replacePet',
        parameters: ID,
        requestBody: { required: true, content: json('PetReplace') },
        responses: { '200': { description: 'ok', content: json('Pet') } },
      },
    },
  },
  components: {
    schemas: {
      Pet: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' } } },
      NewPet: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
      PetReplace: { type: 'object', additionalProperties: false, required: ['name'], properties: { name: { type: 'string' } } },
    },
  },
};

describe('import: unknown_fields from the request schema', () => {
  it('writes ignore for an open request schema and refuse for additionalProperties: false; served as the document says', async () => {
    const r = await importOpenApiDocument(structuredClone(PETS) as unknown, 'pets.json');
    const ops = r.document!.endpoints!.operations!;
    expect(ops.createPet).toMatchObject({ action: 'create', unknown_fields: 'ignore' });
    expect(ops.replacePet).toMatchObject({ action: 'replace', unknown_fields: 'refuse' });
    expect(ops.readPet!.unknown_fields).toBeUndefined();
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const s = await startService(r.compiled!.model!, { allowGaps: true, allowBuiltIns: true } as never);
    try {
      const made = await s.call('POST', '/pets', { name: 'rex', colour: 'brown' });
      expect(made.status).toBe(201);
      expect(made.body).toEqual({ id: made.body.id, name: 'rex' });
      expect((await s.call('PUT', `/pets/${made.body.id as string}`, { name: 'max', colour: 'brown' })).status).toBeGreaterThanOrEqual(400);
    } finally {
      await s.close();
    }
  });

  it('the Tasks document: TaskCreate, TaskReplace, ProjectCreate and ProjectPatch say additionalProperties: false', async () => {
    const doc = parse(readFileSync(new URL('../tester/fixtures/tasks.openapi.yaml', import.meta.url), 'utf8')) as unknown;
    const r = await importOpenApiDocument(doc, 'tasks.openapi.yaml');
    const ops = Object.values(r.document!.endpoints!.operations!);
    const requests = ops.filter((o) => o.action === 'create' || o.action === 'update' || o.action === 'replace');
    expect(requests.length).toBeGreaterThan(3);
    for (const o of requests) expect(o.unknown_fields).toBe('refuse');
  });

  it('a request whose extra members have a schema of their own is ignore, approximated', async () => {
    const doc = structuredClone(PETS);
    (doc.components.schemas.NewPet as Record<string, unknown>).additionalProperties = { type: 'string' };
    const r = await importOpenApiDocument(doc as unknown, 'pets.json');
    expect(r.document!.endpoints!.operations!.createPet!.unknown_fields).toBe('ignore');
    expect(r.diagnostics.find((d) => d.code === 'import-approximated' && d.pointer === '/components/schemas/NewPet/additionalProperties')).toBeDefined();
  });
});

describe('export: an ignoring request is an open object', () => {
  it('its own component without additionalProperties: false; a refusing one keeps the closed view; import reads back what was stated', async () => {
    const model = checkedModel(UNKNOWN_SPEC);
    type Node = Record<string, Record<string, Record<string, Record<string, unknown>>>>;
    const doc = exportOpenApi(model).document as unknown as { paths: Record<string, Node>; components: { schemas: Record<string, Record<string, unknown>> } };
    const body = (path: string, method: string) =>
      (doc.paths[path]![method]!.requestBody!.content as Record<string, { schema: { $ref: string } }>)['application/json']!.schema.$ref;
    const schema = (ref: string) => doc.components.schemas[ref.split('/').pop()!]!;
    expect(schema(body('/notes', 'post')).additionalProperties).toBeUndefined();
    expect(schema(body('/notes/{id}', 'put')).additionalProperties).toBeUndefined();
    expect(schema(body('/notes/{id}', 'patch')).additionalProperties).toBe(false);
    // Answers stay closed: the service answers no member its resource does not name.
    expect(doc.components.schemas.Note!.additionalProperties).toBe(false);
    const back = await importOpenApiDocument(doc as unknown, 'notes.json');
    const ops = back.document!.endpoints!.operations!;
    expect([ops.createNote!.unknown_fields, ops.replaceNote!.unknown_fields, ops.updateNote!.unknown_fields, ops.readNote!.unknown_fields]).toEqual([
      'ignore',
      'ignore',
      'refuse',
      undefined,
    ]);
  });

  it('the typed client takes other members in an ignoring request', () => {
    const code = generateClient(checkedModel(UNKNOWN_SPEC)).code;
    expect(code).toMatch(/createNote\([^)]*body: NoteCreate & \{ \[key: string\]: unknown \}/);
    expect(code).not.toMatch(/updateNote\([^)]*body: NoteUpdate & /);
  });
});
