// A resource of several shapes in the exports (docs/format.md, "Resources of several shapes"): OpenAPI publishes each
// variant as a component (Cat, Dog for answers; CatCreate, DogCreate, … for requests) and the resource as `oneOf` them
// with the discriminator and its mapping (an update or replace, sending no tag, `anyOf` them); the document is valid
// (swagger-parser), and what the served runtime answers and takes its schemas say the same of.
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportAsyncApi } from '../../src/export/export-asyncapi.js';
import { generateClient } from '../../src/export/export-client.js';
import { exportJsonSchemas } from '../../src/export/export-json-schema.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { startService, type Running } from '../runtime/helpers.js';
import { checkedModel } from '../support/specs.js';
import { PET_VARIANTS_SPEC } from '../support/resource-variants.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
type JsonObject = Record<string, unknown>;
type Doc = { paths: Record<string, Record<string, JsonObject>>; components: { schemas: Record<string, JsonObject> } };

describe('a resource of several shapes exported', () => {
  let s: Running | undefined;
  beforeAll(async () => {
    s = await startService(checkedModel(PET_VARIANTS_SPEC), { allowGaps: true });
  });
  afterAll(async () => s?.close());

  for (const version of ['3.1', '3.0'] as const)
    it(`OpenAPI ${version}: one component per variant, the resource oneOf them with the discriminator's mapping; valid`, async () => {
      const doc = exportOpenApi(checkedModel(PET_VARIANTS_SPEC), { openapi: version }).document as Doc;
      await SwaggerParser.validate(structuredClone(doc) as never);
      const schemas = doc.components.schemas;
      expect(schemas.Pet).toMatchObject({
        oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
        discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat', Dog: '#/components/schemas/Dog' } },
      });
      expect(schemas.Pet!['x-servicespec-resource']).toEqual({ plural: 'pets', identifier: 'id' });
      expect(schemas.PetCreate).toMatchObject({
        oneOf: [{ $ref: '#/components/schemas/CatCreate' }, { $ref: '#/components/schemas/DogCreate' }],
        discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/CatCreate', Dog: '#/components/schemas/DogCreate' } },
      });
      expect(schemas.PetUpdate).toMatchObject({ anyOf: [{ $ref: '#/components/schemas/CatUpdate' }, { $ref: '#/components/schemas/DogUpdate' }] });
      expect(schemas.Cat).toMatchObject({ required: ['kind', 'id', 'name'], 'x-servicespec-variant': 'Cat', description: 'A cat.' });
      expect(Object.keys(schemas.Dog!.properties as object)).toEqual(['kind', 'id', 'name', 'breed', 'good_boy']);
      expect(JSON.stringify(doc)).not.toContain('ofVariants');
      expect(doc.paths['/pets']!.post!.requestBody).toMatchObject({ content: { 'application/json': { schema: { $ref: '#/components/schemas/PetCreate' } } } });
    });

  it('the served answers are valid by the exported Pet, and a create body by PetCreate exactly when the runtime takes it', async () => {
    const doc = exportOpenApi(checkedModel(PET_VARIANTS_SPEC)).document as Doc;
    const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
    for (const [name, schema] of Object.entries(doc.components.schemas)) ajv.addSchema(schema, `#/components/schemas/${name}`);
    const pet = ajv.getSchema('#/components/schemas/Pet')!;
    const create = ajv.getSchema('#/components/schemas/PetCreate')!;
    const bodies: JsonObject[] = [
      { kind: 'cat', name: 'Tom' },
      { kind: 'cat', name: 'Tom', breed: 'x' },
      { kind: 'Dog', name: 'Rex', breed: 'pug', good_boy: true },
      { kind: 'Dog', name: 'Rex' },
      { kind: 'bird', name: 'Tweety' },
    ];
    for (const body of bodies) {
      const served = await s!.call('POST', '/pets', body);
      expect([served.status === 201, body]).toEqual([create(body), body]);
      if (served.status === 201) expect([pet(served.body), served.body]).toEqual([true, served.body]);
    }
  });

  it('JSON Schema and AsyncAPI write the same union of variants', () => {
    const model = checkedModel(PET_VARIANTS_SPEC);
    const js = exportJsonSchemas(model).document as { $defs: Record<string, JsonObject> };
    expect((js.$defs.Pet!.oneOf as JsonObject[]).map((v) => v['x-servicespec-variant'])).toEqual(['Cat', 'Dog']);
    expect(js.$defs.Pet!.discriminator).toEqual({ propertyName: 'kind' });
    expect(() => exportAsyncApi(model)).not.toThrow();
  });

  it('the typed client: the resource a union of its variants, each holding its tag as a literal', () => {
    const code = generateClient(checkedModel(PET_VARIANTS_SPEC)).code;
    expect(code).toContain(
      'export type Pet = {\n  kind: "cat";\n  readonly id: string;\n  name: string;\n  indoor?: boolean;\n} | {\n  kind: "Dog";\n  readonly id: string;\n  name: string;\n  breed: string;\n  good_boy?: boolean;\n};',
    );
    expect(code).toContain('export type PetCreate = {\n  kind: "cat";\n  name: string;\n  indoor?: boolean;\n} | {\n  kind: "Dog";');
  });
});
