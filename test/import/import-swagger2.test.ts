// Swagger 2.0 documents are converted to OpenAPI 3.0 in memory (@scalar/openapi-upgrader) and imported: the
// conversion is said once (import-from-swagger2), what it changes is said at pointers into the Swagger 2.0
// document, and a malformed Swagger 2.0 document is refused with a code, never a stack trace.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importOpenApiDocument, importOpenApiFile } from '../../src/import/import-openapi.js';
import { getByPointer } from '../../src/import/import-schema.js';
import { getSwagger2Pointer } from '../../src/import/import-swagger2.js';
import { OPENAPI_FIXTURES, tempDir } from '../export/helpers.js';
import { startService } from '../runtime/helpers.js';

const tmp = tempDir('servicespec-swagger2-');
afterAll(() => tmp.remove());

const errors = (r: { diagnostics: { severity: string }[] }) => r.diagnostics.filter((d) => d.severity === 'error');

describe('importing Swagger 2.0', { timeout: 60_000 }, () => {
  it('imports the Swagger petstore: its operations, resources, the conversion note and what changed, at the original pointers', async () => {
    const r = await importOpenApiFile(join(OPENAPI_FIXTURES, 'swagger2', 'petstore.json'), { specFile: join(tmp.path, 'petstore.servicespec.yaml') });
    expect(errors(r)).toEqual([]);
    expect(r.diagnostics.filter((d) => d.code === 'import-from-swagger2')).toHaveLength(1);
    expect(r.diagnostics.find((d) => d.code === 'import-from-swagger2')!.message).toContain('@scalar/openapi-upgrader 0.4.9');
    const ops = Object.keys(r.document!.endpoints!.operations!);
    expect(ops).toHaveLength(20);
    expect(ops).toEqual(expect.arrayContaining(['addPet', 'getPetById', 'deletePet', 'uploadFile', 'loginUser', 'findPetsByStatus']));
    expect(Object.keys(r.document!.resources!)).toEqual(expect.arrayContaining(['Pet', 'Order', 'User']));
    const said = r.diagnostics.filter((d) => d.code === 'import-approximated' || d.code === 'import-dropped').map((d) => [d.code, d.pointer]);
    expect(said).toContainEqual(['import-approximated', '/paths/~1pet~1{petId}~1uploadImage/post/parameters/2']);
    expect(said).toContainEqual(['import-approximated', '/paths/~1pet/post/produces']);
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    // securityDefinitions: the API key in its header, OAuth2's implicit flow as bearer (said), its scopes, and each
    // operation's own requirement.
    const byId = r.document!.endpoints!.operations as Record<string, { auth?: unknown }>;
    expect(r.document!.authentication).toEqual({
      schemes: { petstore_auth: { type: 'bearer' }, api_key: { type: 'api_key', in: 'header', name: 'api_key' } },
      scopes: { 'write:pets': 'modify pets in your account', 'read:pets': 'read your pets' },
    });
    expect(byId.addPet!.auth).toEqual({ schemes: ['petstore_auth'], scopes: ['write:pets', 'read:pets'] });
    expect(byId.getPetById!.auth).toEqual({ schemes: ['api_key'], scopes: [] });
    const implicit = r.diagnostics.find((d) => d.code === 'import-approximated' && d.message.includes('petstore_auth (OAuth2 implicit)'));
    expect(implicit?.pointer).toBe('/securityDefinitions/petstore_auth');
    // Every pointer of the import names a place the Swagger document has (the importer read the converted one).
    const original = JSON.parse(readFileSync(join(OPENAPI_FIXTURES, 'swagger2', 'petstore.json'), 'utf8')) as unknown;
    const missing = r.diagnostics.filter((d) => d.pointer !== undefined && getByPointer(original, d.pointer) === undefined);
    expect(missing.map((d) => `${d.code} ${d.pointer}`)).toEqual([]);
    // Valid Swagger 2.0: the converter's own slip (an empty form `required` list, invalid in OpenAPI 3.0) is not said as the document's.
    expect(r.diagnostics.filter((d) => d.code === 'import-invalid-openapi')).toEqual([]);
  });

  it('validates a Swagger 2.0 document against the Swagger 2.0 schema: a parameter without its type is said, and the import goes on', async () => {
    const r = await importOpenApiDocument(
      {
        swagger: '2.0',
        info: { title: 'Things', version: '1' },
        paths: { '/things': { get: { parameters: [{ name: 'x', in: 'query' }], responses: { '200': { description: 'ok' } } } } },
      },
      'things.json',
    );
    const invalid = r.diagnostics.filter((d) => d.code === 'import-invalid-openapi');
    expect(invalid).toHaveLength(1);
    expect(invalid[0]!.message).toContain("#/paths/~1things/get/parameters/0 must have required property 'type'");
    expect(r.document).toBeDefined();
  });

  it("points the importer's diagnostics back at the Swagger document: by parameter name through a $ref, a form field, a component", () => {
    const original = {
      swagger: '2.0',
      parameters: { Limit: { name: 'limit', in: 'query', type: 'integer' } },
      definitions: { Pet: { type: 'object', properties: { name: { type: 'string' } } } },
      paths: {
        '/pets': {
          get: { parameters: [{ $ref: '#/parameters/Limit' }, { name: 'tag', in: 'query', type: 'string' }] },
          post: {
            consumes: ['multipart/form-data'],
            parameters: [
              { name: 'tag', in: 'query', type: 'string' },
              { name: 'photo', in: 'formData', type: 'file' },
            ],
          },
        },
      },
    };
    const converted = {
      openapi: '3.0.0',
      paths: {
        '/pets': {
          get: {
            parameters: [
              { name: 'tag', in: 'query' },
              { name: 'limit', in: 'query' },
            ],
          },
          post: { parameters: [{ name: 'tag', in: 'query' }] },
        },
      },
    };
    const back = (p: string) => getSwagger2Pointer(p, original, converted);
    expect(back('/paths/~1pets/get/parameters/1/schema')).toBe('/paths/~1pets/get/parameters/0');
    expect(back('/paths/~1pets/get/parameters/0/schema')).toBe('/paths/~1pets/get/parameters/1');
    expect(back('/paths/~1pets/post/requestBody/content/multipart~1form-data/schema/properties/photo/format')).toBe('/paths/~1pets/post/parameters/1');
    expect(back('/components/schemas/Pet/properties/name/type')).toBe('/definitions/Pet/properties/name/type');
    expect(back('/components/schemas/Gone')).toBe('/definitions');
    expect(back('/paths/~1pets/delete')).toBe('/paths/~1pets');
  });

  it('says collectionFormat OpenAPI 3 cannot express and x- extensions, at the Swagger 2.0 pointers', async () => {
    const r = await importOpenApiDocument({
      swagger: '2.0',
      info: { title: 'Things', version: '1' },
      'x-audience': 'internal',
      paths: {
        '/things': {
          get: {
            operationId: 'listThings',
            'x-ms-pageable': { nextLinkName: 'next' },
            parameters: [
              { name: 'tags', in: 'query', type: 'array', items: { type: 'string' }, collectionFormat: 'tsv' },
              { name: 'X-Ids', in: 'header', type: 'array', items: { type: 'string' }, collectionFormat: 'pipes' },
            ],
            responses: { '200': { description: 'ok', schema: { type: 'array', items: { type: 'string' } } } },
          },
        },
      },
    });
    expect(errors(r)).toEqual([]);
    const said = r.diagnostics.map((d) => [d.code, d.pointer]);
    expect(said).toContainEqual(['import-from-swagger2', undefined]);
    expect(said).toContainEqual(['import-approximated', '/paths/~1things/get/parameters/0/collectionFormat']);
    expect(said).toContainEqual(['import-approximated', '/paths/~1things/get/parameters/1/collectionFormat']);
    expect(said).toContainEqual(['import-dropped', '/x-audience']);
    expect(said).toContainEqual(['import-dropped', '/paths/~1things/get/x-ms-pageable']);
  });

  it('refuses a malformed Swagger document with a code, never a stack trace', async () => {
    const cases: [string, string, string, string][] = [
      ['nopaths.yaml', 'swagger: "2.0"\ninfo: { title: x, version: "1" }\n', 'import-not-openapi', 'has no `paths` mapping'],
      ['v12.yaml', 'swagger: "1.2"\ninfo: { title: x, version: "1" }\npaths: {}\n', 'import-not-openapi', 'it is Swagger 1.2'],
      ['v12b.json', '{"swaggerVersion": "1.2", "apis": []}', 'import-not-openapi', 'it is Swagger 1.2'],
      [
        'dangling.yaml',
        'swagger: "2.0"\ninfo: { title: x, version: "1" }\npaths:\n  /a:\n    get:\n      responses:\n        "200": { description: ok, schema: { $ref: "#/definitions/Nothing" } }\n',
        'import-unresolved-ref',
        '#/definitions/Nothing',
      ],
    ];
    for (const [name, text, code, words] of cases) {
      writeFileSync(join(tmp.path, name), text);
      const r = await importOpenApiFile(join(tmp.path, name));
      expect(r.document).toBeUndefined();
      expect(r.diagnostics.map((d) => d.code)).toEqual([code]);
      expect(r.diagnostics[0]!.message).toContain(words);
      expect(r.diagnostics[0]!.message).not.toMatch(/^\s+at\s/m);
    }
    const dangling = await importOpenApiFile(join(tmp.path, 'dangling.yaml'));
    expect(dangling.diagnostics[0]!.pointer).toBe('/paths/~1a/get/responses/200/schema');
  });

  it('serves the imported petstore-expanded: a pet created is read back and listed', async () => {
    const r = await importOpenApiFile(join(OPENAPI_FIXTURES, 'swagger2', 'petstore-expanded.json'), { specFile: join(tmp.path, 'expanded.servicespec.yaml') });
    expect(errors(r)).toEqual([]);
    expect(r.document!.endpoints!.operations).toMatchObject({
      findPets: { action: 'list', resource: 'Pet' },
      addPet: { action: 'create', resource: 'Pet' },
      'find pet by id': { action: 'read', resource: 'Pet' },
      deletePet: { action: 'delete', resource: 'Pet' },
    });
    const s = await startService(r.compiled!.model!);
    try {
      const created = await fetch(`${s.url}/pets`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Rex', tag: 'dog' }),
      });
      expect(created.status).toBeLessThan(300);
      const pet = (await created.json()) as { id: number; name: string };
      expect(pet.name).toBe('Rex');
      const read = await fetch(`${s.url}/pets/${pet.id}`);
      expect(read.status).toBe(200);
      expect(await read.json()).toMatchObject({ name: 'Rex', tag: 'dog' });
      const list = await fetch(`${s.url}/pets`);
      expect(await list.json()).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Rex' })]));
    } finally {
      await s.close();
    }
  });
});
