// A resource of several shapes (docs/format.md, "Resources of several shapes"): the model flattens it into one table's
// fields (the tag a write-once enum, each variant's fields marked with their variants), its schemas are a union's, and
// check refuses what one table or one tag could not hold, with stable codes at the place.
import { describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { getResourceSchema } from '../../src/model/model-schemas.js';
import { PET_VARIANTS_SPEC } from '../support/resource-variants.js';
import { CATCH_ALL_ERRORS } from './helpers.js';

function withPet(resource: string): string {
  return `servicespec: 1
resources:
  Pet:
${resource.replace(/^/gm, '    ')}
authentication:
  default: none
${CATCH_ALL_ERRORS}`;
}

function errors(text: string): { code: string; pointer: string | undefined }[] {
  return compileSpecText(text)
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => ({ code: d.code, pointer: d.pointer }));
}

describe('a resource of several shapes in the model and check', () => {
  it('flattens the shared fields, the tag and each variant field once, marked with its variants', () => {
    const c = compileSpecText(PET_VARIANTS_SPEC);
    expect(c.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
    const pet = c.model!.resources[0]!;
    expect(pet.fields.map((f) => [f.name, f.type, f.optional, f.writeOnce, f.ofVariants])).toEqual([
      ['id', 'uuid', false, false, undefined],
      ['name', 'string', false, false, undefined],
      ['kind', 'enum', false, true, undefined],
      ['indoor', 'boolean', true, false, ['Cat']],
      ['breed', 'string', false, false, ['Dog']],
      ['good_boy', 'boolean', true, false, ['Dog']],
    ]);
    expect(pet.fields.find((f) => f.name === 'kind')!.values).toEqual(['cat', 'Dog']);
    expect(pet.variants!.variants.map((v) => [v.name, v.tag])).toEqual([
      ['Cat', 'cat'],
      ['Dog', 'Dog'],
    ]);
  });

  it('answers and creates are oneOf the variants with the discriminator; an update, without the tag, anyOf them', () => {
    const c = compileSpecText(PET_VARIANTS_SPEC);
    const pet = c.model!.resources[0]!;
    const create = getResourceSchema(c.model!, pet, 'create');
    expect(create).toEqual({
      type: 'object',
      oneOf: [
        {
          type: 'object',
          properties: { kind: { type: 'string', enum: ['cat'] }, name: { type: 'string', maxLength: 50 }, indoor: { type: 'boolean' } },
          additionalProperties: false,
          required: ['kind', 'name'],
        },
        {
          type: 'object',
          properties: {
            kind: { type: 'string', enum: ['Dog'] },
            name: { type: 'string', maxLength: 50 },
            breed: { type: 'string', minLength: 1 },
            good_boy: { type: 'boolean' },
          },
          additionalProperties: false,
          required: ['kind', 'name', 'breed'],
        },
      ],
      discriminator: { propertyName: 'kind' },
    });
    const response = getResourceSchema(c.model!, pet, 'response', { annotations: true }) as { oneOf: Record<string, unknown>[] };
    expect(response.oneOf.map((v) => [v['x-servicespec-variant'], v.required])).toEqual([
      ['Cat', ['kind', 'id', 'name']],
      ['Dog', ['kind', 'id', 'name', 'breed']],
    ]);
    const update = getResourceSchema(c.model!, pet, 'update') as { anyOf: { properties: object }[] };
    expect(update.anyOf.map((v) => Object.keys(v.properties))).toEqual([
      ['name', 'indoor'],
      ['name', 'breed', 'good_boy'],
    ]);
  });

  it('refuses variants without a discriminator, and a discriminator without variants', () => {
    expect(errors(withPet(`fields: { id: { type: uuid, readOnly: true } }\nvariants: { A: { fields: { a: { type: string } } } }`))).toEqual([
      { code: 'resource-variants-untagged', pointer: '/resources/Pet/variants' },
    ]);
    expect(errors(withPet(`discriminator: kind\nfields: { id: { type: uuid, readOnly: true } }`))).toEqual([
      { code: 'resource-variants-empty', pointer: '/resources/Pet/discriminator' },
    ]);
  });

  it('refuses a discriminator a field declares, a tag two variants share, a variant field the shared ones hold', () => {
    expect(
      errors(
        withPet(`discriminator: kind
fields: { id: { type: uuid, readOnly: true }, kind: { type: string } }
variants:
  A: { fields: { a: { type: string } } }
  B: { tag: A, fields: { name: { type: string }, id: { type: string }, kind: { type: string } } }`),
      ),
    ).toEqual([
      { code: 'resource-discriminator-field', pointer: '/resources/Pet/fields/kind' },
      { code: 'resource-variant-tag-duplicate', pointer: '/resources/Pet/variants/B' },
      { code: 'resource-variant-field-shared', pointer: '/resources/Pet/variants/B/fields/id' },
      { code: 'resource-discriminator-field', pointer: '/resources/Pet/variants/B/fields/kind' },
    ]);
  });

  it('takes a field two variants declare alike, and refuses one they declare differently', () => {
    const alike = withPet(`discriminator: kind
fields: { id: { type: uuid, readOnly: true } }
variants:
  A: { fields: { size: { type: integer, minimum: 0 } } }
  B: { fields: { size: { type: integer, minimum: 0, optional: true, description: B's size } } }`);
    expect(errors(alike)).toEqual([]);
    expect(compileSpecText(alike).model!.resources[0]!.fields.find((f) => f.name === 'size')!.ofVariants).toEqual(['A', 'B']);
    expect(
      errors(
        withPet(`discriminator: kind
fields: { id: { type: uuid, readOnly: true } }
variants:
  A: { fields: { size: { type: integer }, colour: { type: string, maxLength: 5 } } }
  B: { fields: { size: { type: string }, colour: { type: string, maxLength: 6 } } }`),
      ),
    ).toEqual([
      { code: 'resource-variant-field-clash', pointer: '/resources/Pet/variants/B/fields/size' },
      { code: 'resource-variant-field-clash', pointer: '/resources/Pet/variants/B/fields/colour' },
    ]);
  });

  it('refuses a variant field with a role the service plays for every object', () => {
    expect(
      errors(
        withPet(`discriminator: kind
fields: { id: { type: uuid, readOnly: true } }
variants:
  A: { fields: { code: { type: string, unique: true }, level: { type: integer, default: 1 }, made: { type: datetime, readOnly: true, generated: create_time } } }`),
      ).map((e) => e.code + ' ' + e.pointer),
    ).toEqual([
      'resource-variant-field-unsupported /resources/Pet/variants/A/fields/code',
      'resource-variant-field-unsupported /resources/Pet/variants/A/fields/level',
      'resource-variant-field-unsupported /resources/Pet/variants/A/fields/made',
    ]);
  });

  it('writes out a named shape a resource variant uses', () => {
    const c = compileSpecText(`servicespec: 1
shapes:
  CatFields: { fields: { indoor: { type: boolean } } }
resources:
  Pet:
    discriminator: kind
    fields: { id: { type: uuid, readOnly: true } }
    variants: { Cat: { shape: CatFields } }
authentication:
  default: none
${CATCH_ALL_ERRORS}`);
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(c.model!.resources[0]!.fields.map((f) => f.name)).toEqual(['id', 'kind', 'indoor']);
  });
});
