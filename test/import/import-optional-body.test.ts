// An OpenAPI request body is optional unless it says `required: true`; the format has no optional JSON request body
// (docs/format.md), so the served import refuses a request without one ("a JSON body is required") and the export
// says `required: true`. That changed the contract without a word: it is now said at the request body's pointer.
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { startService } from '../runtime/helpers.js';

type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });
const idParam = [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }];

function doc(required: boolean | undefined): Json {
  const body = (schema: unknown) => ({ ...(required !== undefined ? { required } : {}), content: json(schema) });
  return {
    openapi: '3.0.3',
    info: { title: 'pets', version: '1' },
    paths: {
      '/pets': {
        post: { operationId: 'createPet', requestBody: body(ref('NewPet')), responses: { '201': { description: 'made', content: json(ref('Pet')) } } },
      },
      '/pets/{id}': {
        get: { operationId: 'readPet', parameters: idParam, responses: { '200': { description: 'ok', content: json(ref('Pet')) } } },
        patch: {
          operationId: 'updatePet',
          parameters: idParam,
          requestBody: body(ref('NewPet')),
          responses: { '200': { description: 'ok', content: json(ref('Pet')) } },
        },
        delete: {
          operationId: 'deletePet',
          parameters: idParam,
          requestBody: body({ type: 'object', properties: { reason: { type: 'string' } } }),
          responses: { '200': { description: 'ok', content: json({ type: 'object', properties: { gone: { type: 'boolean' } } }) } },
        },
      },
      '/pets/{id}/feed': {
        post: {
          operationId: 'feedPet',
          parameters: idParam,
          requestBody: body({ type: 'object', properties: { id: { type: 'string' }, food: { type: 'string' } } }),
          responses: { '200': { description: 'ok', content: json(ref('Pet')) } },
        },
      },
      '/search': {
        post: {
          operationId: 'search',
          requestBody: {
            ...(required !== undefined ? { required } : {}),
            content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { q: { type: 'string' } } } } },
          },
          responses: { '200': { description: 'ok', content: json({ type: 'object', properties: { n: { type: 'integer' } } }) } },
        },
      },
    },
    components: {
      schemas: {
        Pet: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' } } },
        NewPet: { type: 'object', properties: { name: { type: 'string' } } },
      },
    },
  };
}

const said = (r: Awaited<ReturnType<typeof importOpenApiDocument>>) =>
  r.diagnostics.filter((d) => d.code === 'import-approximated' && d.message.includes('its request body, optional')).map((d) => d.pointer);

describe('an optional request body', () => {
  for (const required of [false, undefined])
    it(`(required: ${String(required)}) is said where the import's body must be sent`, async () => {
      const r = await importOpenApiDocument(doc(required), 'pets.json');
      expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      const ops = r.document!.endpoints!.operations!;
      expect([ops.createPet!.action, ops.updatePet!.action, ops.feedPet!.action, ops.deletePet!.action]).toEqual(['create', 'update', 'custom', 'custom']);
      // Not the custom DELETE (its body is not read) nor the form (an absent form is no fields).
      expect(said(r)).toEqual(['/paths/~1pets/post/requestBody', '/paths/~1pets~1{id}/patch/requestBody', '/paths/~1pets~1{id}~1feed/post/requestBody']);
      expect(r.diagnostics.find((d) => d.pointer === '/paths/~1pets/post/requestBody')?.message).toContain('a request that sends none is refused');

      // What it says is what the service does.
      const s = await startService(r.compiled!.model!);
      try {
        const none = await s.call('POST', '/pets');
        expect(none.status).toBe(400);
        expect(JSON.stringify(none.body)).toContain('a JSON body is required');
        expect((await s.call('POST', '/pets', { name: 'Rex' })).status).toBe(201);
      } finally {
        await s.close();
      }
    });

  it('a required one says nothing', async () => {
    expect(said(await importOpenApiDocument(doc(true), 'pets.json'))).toEqual([]);
  });
});

// Twilio's form requests (twilio-oai, spec/yaml/twilio_bulkexports_v1.yaml) leave their body optional: served, an
// absent form reads as no fields. CreateExportCustomJob's form requires StartDay (so a request sending none is
// refused: said, before not), UpdateExportConfiguration's requires nothing (so none is taken: exported
// `required: false`, before `true`).
describe('an optional form request body', () => {
  const form = (properties: Json, required?: string[]) => ({
    content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties, ...(required ? { required } : {}) } } },
  });
  const ok = { '200': { description: 'ok', content: json({ type: 'object', properties: { n: { type: 'integer' } } }) } };
  const forms: Json = {
    openapi: '3.0.1',
    info: { title: 'exports', version: '1' },
    paths: {
      '/jobs': {
        post: { operationId: 'createJob', requestBody: form({ StartDay: { type: 'string' }, Email: { type: 'string' } }, ['StartDay']), responses: ok },
      },
      '/configuration': { post: { operationId: 'updateConfiguration', requestBody: form({ Enabled: { type: 'boolean' } }), responses: ok } },
    },
  };

  it('is said where a field is required, and exported required only there', async () => {
    const r = await importOpenApiDocument(JSON.parse(JSON.stringify(forms)) as unknown, 'exports.json');
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const formSaid = r.diagnostics.filter((d) => d.code === 'import-approximated' && d.message.includes('its form request body, optional'));
    expect(formSaid.map((d) => d.pointer)).toEqual(['/paths/~1jobs/post/requestBody']);
    expect(formSaid[0]!.message).toContain('`StartDay` required');
    const { exportOpenApi } = await import('../../src/export/export-openapi.js');
    const paths = (exportOpenApi(r.compiled!.model!).document as { paths: Record<string, { post: { requestBody: Json } }> }).paths;
    expect(paths['/jobs']!.post.requestBody.required).toBe(true);
    expect(paths['/configuration']!.post.requestBody.required).toBe(false);

    // What it says is what the service does: none is refused where StartDay is required, taken where nothing is
    // (the operation has no handler here: 501, past the body's validation).
    const s = await startService(r.compiled!.model!);
    try {
      expect((await s.call('POST', '/jobs')).status).toBe(422);
      expect((await s.call('POST', '/configuration')).status).toBe(501);
    } finally {
      await s.close();
    }
  });
});
