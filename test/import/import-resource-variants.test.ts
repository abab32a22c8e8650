// Import of a resource of several shapes (docs/import.md, "Resources of several shapes"): a tagged oneOf component
// whose variants share an identifier (Pet of Cat and Dog, the shape of issue 26, written here for the test) is one
// resource with `discriminator` and `variants`, its operations the resource actions the paths say (no custom 501
// operation), its create body's union (NewPet of NewCat and NewDog) the create's, and no variant component a resource.
// Served, it answers 201 and 200 with each variant's members only, and `servicespec test` against it passes. A
// servicespec export of such a resource imports back to the same resource.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { testService } from '../../src/tester/tester-run.js';
import { startService, type Running } from '../runtime/helpers.js';
import { PET_VARIANTS_SPEC } from '../support/resource-variants.js';
import { checkedModel } from '../support/specs.js';

const PETS = `openapi: 3.0.3
info: { title: Pets, version: '1.0' }
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        '200': { description: the pets, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Pet' } } } } }
    post:
      operationId: createPet
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/NewPet' } } } }
      responses:
        '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } } }
  /pets/{petId}:
    parameters: [{ name: petId, in: path, required: true, schema: { type: string } }]
    get:
      operationId: getPet
      responses:
        '200': { description: the pet, content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } } }
components:
  schemas:
    Pet:
      oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }]
      discriminator: { propertyName: kind, mapping: { cat: '#/components/schemas/Cat', dog: '#/components/schemas/Dog' } }
    Cat:
      type: object
      required: [id, kind, name]
      properties: { id: { type: string, readOnly: true }, kind: { type: string, enum: [cat] }, name: { type: string }, indoor: { type: boolean } }
    Dog:
      type: object
      required: [id, kind, name, breed]
      properties: { id: { type: string, readOnly: true }, kind: { type: string, enum: [dog] }, name: { type: string }, breed: { type: string } }
    NewPet:
      oneOf: [{ $ref: '#/components/schemas/NewCat' }, { $ref: '#/components/schemas/NewDog' }]
      discriminator: { propertyName: kind, mapping: { cat: '#/components/schemas/NewCat', dog: '#/components/schemas/NewDog' } }
    NewCat:
      type: object
      required: [kind, name]
      properties: { kind: { type: string, enum: [cat] }, name: { type: string }, indoor: { type: boolean } }
    NewDog:
      type: object
      required: [kind, name, breed]
      properties: { kind: { type: string, enum: [dog] }, name: { type: string }, breed: { type: string } }
`;

describe('import of a resource of several shapes', () => {
  let imported: Awaited<ReturnType<typeof importOpenApiDocument>>;
  let s: Running | undefined;
  beforeAll(async () => {
    imported = await importOpenApiDocument(parse(PETS) as Record<string, unknown>, 'pets.yaml');
    s = await startService(checkedModel(imported.text!), { allowGaps: true });
  });
  afterAll(async () => s?.close());

  it('reads Pet as one resource of the variants Cat and Dog, its operations resource actions', () => {
    const doc = imported.document!;
    expect(Object.keys(doc.resources!)).toEqual(['Pet']);
    expect(doc.resources!.Pet).toEqual({
      discriminator: 'kind',
      fields: { id: { type: 'string', readOnly: true }, name: { type: 'string' } },
      variants: { Cat: { tag: 'cat', fields: { indoor: { type: 'boolean', optional: true } } }, Dog: { tag: 'dog', fields: { breed: { type: 'string' } } } },
    });
    const ops = doc.endpoints!.operations!;
    expect(Object.fromEntries(Object.entries(ops).map(([id, o]) => [id, [o.action, o.resource]]))).toEqual({
      listPets: ['list', 'Pet'],
      createPet: ['create', 'Pet'],
      getPet: ['read', 'Pet'],
    });
    expect(imported.diagnostics.filter((d) => d.code === 'import-custom-operation')).toEqual([]);
  });

  it('serves the import: 201 and 200 with the variant members only, not 501', async () => {
    const dog = await s!.call('POST', '/pets', { kind: 'dog', name: 'Rex', breed: 'pug' });
    expect([dog.status, dog.body]).toEqual([201, { id: dog.body.id, name: 'Rex', kind: 'dog', breed: 'pug' }]);
    const cat = await s!.call('POST', '/pets', { kind: 'cat', name: 'Tom' });
    expect([cat.status, cat.body]).toEqual([201, { id: cat.body.id, name: 'Tom', kind: 'cat' }]);
    const read = await s!.call('GET', `/pets/${dog.body.id as string}`);
    expect([read.status, read.body]).toEqual([200, dog.body]);
    const list = await s!.call('GET', '/pets');
    expect(list.status).toBe(200);
    // String identifiers are random: a list is in their order.
    expect(list.body).toHaveLength(2);
    expect(list.body).toEqual(expect.arrayContaining([dog.body, cat.body]));
  });

  it('servicespec test against the served import passes', async () => {
    const r = await testService(checkedModel(imported.text!), { baseUrl: s!.url, seed: 1 });
    expect(r.results.filter((x) => x.outcome === 'failed').map((x) => x.failure)).toEqual([]);
    expect(r.results.filter((x) => x.outcome === 'passed').length).toBeGreaterThan(10);
  });

  it('a servicespec export of a resource of several shapes imports back to the same resource', async () => {
    const openapi = exportOpenApi(checkedModel(PET_VARIANTS_SPEC)).document;
    const back = await importOpenApiDocument(structuredClone(openapi) as Record<string, unknown>, 'pets.json');
    expect(Object.keys(back.document!.resources!)).toEqual(['Pet']);
    const original = compileSpecText(PET_VARIANTS_SPEC).document!.resources!.Pet;
    // `identifier` written out, as the export of any resource carries it (x-servicespec-resource).
    expect(back.document!.resources!.Pet).toEqual({ ...original, identifier: 'id' });
    expect(
      Object.values(back.document!.endpoints!.operations!)
        .map((o) => o.action)
        .sort(),
    ).toEqual(['create', 'delete', 'list', 'read', 'replace', 'update']);
  });
});
