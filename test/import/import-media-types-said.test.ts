// A body's media types besides the one the format keeps (JSON first) are said, never dropped without a word: a
// request in another is refused, an answer is given in the one kept.
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';

const pet = { $ref: '#/components/schemas/Pet' };
const components = {
  schemas: { Pet: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' } } } },
};

describe("import of a body's other media types", () => {
  it('says the request body and each answer given in XML or a form beside JSON, at the first left out; another JSON type as read as JSON', async () => {
    const r = await importOpenApiDocument(
      {
        openapi: '3.0.3',
        info: { title: 'pets', version: '1' },
        paths: {
          '/pets': {
            post: {
              operationId: 'createPet',
              requestBody: {
                content: {
                  'application/json': { schema: pet },
                  'application/xml': { schema: pet },
                  'application/vnd.pets+json': { schema: pet },
                  'application/x-www-form-urlencoded': { schema: pet },
                },
              },
              responses: { '201': { description: 'made', content: { 'application/json': { schema: pet }, 'application/xml': { schema: pet } } } },
            },
          },
          '/pets/{id}': {
            get: {
              operationId: 'getPet',
              parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
              responses: { '200': { description: 'ok', content: { 'application/json': { schema: pet } } } },
            },
          },
        },
        components,
      },
      'pets.yaml',
    );
    const said = r.diagnostics.filter((d) => d.code === 'import-dropped' && / as /.test(d.message)).map((d) => [d.pointer, d.message]);
    expect(said).toEqual([
      [
        '/paths/~1pets/post/responses/201/content/application~1xml',
        expect.stringContaining('operation createPet: the 201 response as application/xml has no place'),
      ],
      [
        '/paths/~1pets/post/requestBody/content/application~1xml',
        expect.stringContaining('operation createPet: the request body as application/xml, application/x-www-form-urlencoded has no place'),
      ],
    ]);
    expect(said[1]![1]).toContain('(application/json is kept): a request in another is refused (unsupported_media_type)');
    // Another JSON type is read as JSON (the runtime takes any), so said as read so, not as left out.
    const json = r.diagnostics.find((d) => d.code === 'import-approximated' && d.message.includes('vnd.pets+json'));
    expect(json?.pointer).toBe('/paths/~1pets/post/requestBody/content/application~1vnd.pets+json');
    expect(json?.message).toContain('is imported as a body read as application/json');
  });

  it("a Swagger 2.0 document's several produces are said once, at produces, and several consumes at the body parameter", async () => {
    const r = await importOpenApiDocument(
      {
        swagger: '2.0',
        info: { title: 'pets', version: '1' },
        paths: {
          '/pets': {
            post: {
              operationId: 'createPet',
              consumes: ['application/json', 'application/xml'],
              produces: ['application/json', 'application/xml'],
              parameters: [{ name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/Pet' } }],
              responses: { '201': { description: 'made', schema: { $ref: '#/definitions/Pet' } } },
            },
          },
        },
        definitions: components.schemas,
      },
      'pets.json',
    );
    const said = r.diagnostics.filter((d) => /application\/xml/.test(d.message)).map((d) => `${d.code} ${d.pointer}`);
    expect(said).toEqual(['import-approximated /paths/~1pets/post/produces', 'import-dropped /paths/~1pets/post/parameters/0']);
  });
});
