// Unions (docs/format.md, "Unions"): the model keeps variants in order with their tags, and check refuses the unions
// a body could not be told to be one variant of, with a stable code at the place.
import { describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { getShapeSchema, getResourceSchema } from '../../src/model/model-schemas.js';
import { UNION_SPEC } from '../support/unions.js';
import { CATCH_ALL_ERRORS } from './helpers.js';

function withUnion(union: string): string {
  return `servicespec: 1
resources:
  Thing:
    fields:
      id: { type: uuid, readOnly: true }
      shape:
${union.replace(/^/gm, '        ')}
authentication:
  default: none
${CATCH_ALL_ERRORS}`;
}

function errors(text: string): { code: string; pointer: string | undefined }[] {
  return compileSpecText(text)
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => ({ code: d.code, pointer: d.pointer }));
}

function findings(text: string, code: string): { severity: string; pointer: string | undefined }[] {
  return compileSpecText(text)
    .diagnostics.filter((d) => d.code === code)
    .map((d) => ({ severity: d.severity, pointer: d.pointer }));
}

describe('unions in the model and check', () => {
  it('builds the shared union spec with no findings, variants in order, tags defaulting to the name', () => {
    const c = compileSpecText(UNION_SPEC);
    expect(c.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
    const method = c.model!.resources[0]!.fields.find((f) => f.name === 'method')!;
    expect(method.union?.discriminator).toBe('kind');
    expect(method.union?.variants.map((v) => [v.name, v.tag])).toEqual([
      ['card', 'card'],
      ['bank_transfer', 'bank'],
    ]);
    const quote = c.model!.endpoints!.operations.find((o) => o.id === 'quote')!;
    expect(quote.request?.union?.discriminator).toBeUndefined();
    expect(quote.request?.union?.variants.map((v) => v.tag)).toEqual([undefined, undefined]);
    expect(quote.response?.union?.variants.map((v) => v.tag)).toEqual(['quote', 'refusal']);
  });

  it('gives a tagged union oneOf of closed variants, each requiring its tag first, and the discriminator', () => {
    const c = compileSpecText(UNION_SPEC);
    const s = getResourceSchema(c.model!, c.model!.resources[0]!, 'create') as { properties: Record<string, unknown> };
    expect(s.properties.method).toEqual({
      // type: object as well: Ajv's discriminator keyword lets a value that is no object through without it
      type: 'object',
      oneOf: [
        {
          type: 'object',
          properties: { kind: { type: 'string', enum: ['card'] }, number: { type: 'string', pattern: '^[0-9]{12,19}$' }, holder: { type: 'string' } },
          additionalProperties: false,
          required: ['kind', 'number'],
        },
        {
          type: 'object',
          properties: { kind: { type: 'string', enum: ['bank'] }, iban: { type: 'string', minLength: 15 } },
          additionalProperties: false,
          required: ['kind', 'iban'],
        },
      ],
      discriminator: { propertyName: 'kind' },
    });
    const quote = c.model!.endpoints!.operations.find((o) => o.id === 'quote')!;
    expect(getShapeSchema(c.model!, quote.request!, 'create')).toEqual({
      oneOf: [
        { type: 'object', properties: { grams: { type: 'integer', minimum: 1 } }, additionalProperties: false, required: ['grams'] },
        { type: 'object', properties: { litres: { type: 'number' } }, additionalProperties: false, required: ['litres'] },
      ],
    });
  });

  it('says union-needs-variants for a union with none', () => {
    expect(errors(withUnion('type: union'))).toEqual([{ code: 'union-needs-variants', pointer: '/resources/Thing/fields/shape' }]);
  });

  it('says union-tag-duplicate when two variants share a tag', () => {
    const text = withUnion(`type: union
discriminator: kind
variants:
  a: { fields: { x: { type: string } } }
  b: { tag: a, fields: { y: { type: string } } }`);
    expect(errors(text)).toEqual([{ code: 'union-tag-duplicate', pointer: '/resources/Thing/fields/shape/variants/b' }]);
  });

  it('says union-tag-field when a variant lists the discriminator itself', () => {
    const text = withUnion(`type: union
discriminator: kind
variants:
  a: { fields: { kind: { type: string }, x: { type: string } } }`);
    expect(errors(text)).toEqual([{ code: 'union-tag-field', pointer: '/resources/Thing/fields/shape/variants/a/fields/kind' }]);
  });

  it('says union-tag-without-discriminator for a tag in an untagged union', () => {
    const text = withUnion(`type: union
variants:
  a: { tag: x, fields: { x: { type: string } } }`);
    expect(errors(text)).toEqual([{ code: 'union-tag-without-discriminator', pointer: '/resources/Thing/fields/shape/variants/a/tag' }]);
  });

  it('says union-indistinguishable for untagged variants one object could match, and not for ones a field tells apart', () => {
    const same = withUnion(`type: union
variants:
  a: { fields: { x: { type: string }, y: { type: string, optional: true } } }
  b: { fields: { x: { type: string } , z: { type: string, optional: true } } }`);
    // A warning, not an error: the union is a oneOf, so a value both variants admit is refused (as OpenAPI's oneOf
    // refuses it) and the spec still works; an imported document's own ambiguous oneOf imports and says so.
    expect(findings(same, 'union-indistinguishable')).toEqual([{ severity: 'warning', pointer: '/resources/Thing/fields/shape/variants/b' }]);
    expect(errors(same)).toEqual([]);
    const byType = withUnion(`type: union
variants:
  a: { fields: { x: { type: string } } }
  b: { fields: { x: { type: integer } } }`);
    expect(errors(byType)).toEqual([]);
    const byEnum = withUnion(`type: union
variants:
  a: { fields: { x: { type: enum, values: [one] } } }
  b: { fields: { x: { type: enum, values: [two] } } }`);
    expect(errors(byEnum)).toEqual([]);
    const byField = withUnion(`type: union
variants:
  a: { fields: { x: { type: string } } }
  b: { fields: { y: { type: string } } }`);
    expect(errors(byField)).toEqual([]);
  });

  it('says union-shape-mixed for a body with variants beside fields, and refuses variants on another type and a filter on a union', () => {
    const mixed = UNION_SPEC.replace('      request:\n        variants:', '      request:\n        fields: { a: { type: string } }\n        variants:');
    expect(errors(mixed)).toEqual([{ code: 'union-shape-mixed', pointer: '/endpoints/operations/quote/request/fields' }]);
    const misplaced = withUnion(`type: object
fields: { a: { type: string } }
variants:
  a: { fields: { x: { type: string } } }`);
    expect(
      compileSpecText(misplaced)
        .diagnostics.filter((d) => d.code === 'constraint-type-mismatch')
        .map((d) => d.pointer),
    ).toEqual(['/resources/Thing/fields/shape']);
    const filtered = UNION_SPEC.replace('action: list, resource: Payment }', 'action: list, resource: Payment, filter: [method] }');
    expect(errors(filtered)).toEqual([{ code: 'filter-type-invalid', pointer: '/endpoints/operations/listPayments/filter/0' }]);
  });

  it('refuses unknown keys in a variant at structure', () => {
    const text = withUnion(`type: union
variants:
  a: { feilds: { x: { type: string } } }`);
    expect(errors(text).map((e) => e.code)).toEqual(['unknown-key']);
  });
});
