// The edge cases of the input space agree with the schemas the runtime validates with: every targeted body (and its
// one-field variants) is valid, so a refusal is the service's fault; every mutation, multipleOf and uniqueItems
// included, is refused by the same schema.

import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getResourceSchema, MULTIPLE_OF_PRECISION, type SchemaView } from '../../src/model/model-schemas.js';
import type { ServiceModel } from '../../src/model/model-types.js';
import { compileSpecFile, compileSpecText } from '../../src/program.js';
import { fieldArbitrary, getMutations, isRefPlaceholder, objectArbitrary } from '../../src/tester/tester-arbitraries.js';
import { getEdgeCases, UNBOUNDED_STRING_LENGTHS } from '../../src/tester/tester-input-edges.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: false, multipleOfPrecision: MULTIPLE_OF_PRECISION }));
const SPECS = [
  '../../examples/orders.yaml',
  '../../examples/library.yaml',
  '../runtime/fixtures/tickets.yaml',
  './fixtures/greenhouse.yaml',
  './fixtures/helpdesk.yaml',
  './fixtures/pantry.yaml',
].map((p) => new URL(p, import.meta.url).pathname);

const EDGY = `
servicespec: 1
resources:
  Probe:
    fields:
      id: { type: uuid, readOnly: true }
      label: { type: string, minLength: 2, maxLength: 90 }
      note: { type: string, optional: true, nullable: true }
      code: { type: string, pattern: "^[A-Z]{3}$" }
      step: { type: integer, minimum: 5, maximum: 95, multipleOf: 5 }
      ratio: { type: number, exclusiveMinimum: 0, exclusiveMaximum: 1 }
      kind: { type: enum, values: [a, b, c, d] }
      tags: { type: array, items: { type: string, maxLength: 8 }, minItems: 1, maxItems: 4, uniqueItems: true }
`;

function fill(model: ServiceModel, v: unknown): unknown {
  if (isRefPlaceholder(v)) {
    const target = model.resources.find((r) => r.name === v.$ref);
    const id = target?.fields.find((f) => f.name === target.identifier);
    if (id?.type === 'integer') return 1;
    // An identifier in its own form (a string with a pattern or length, say), as a real object's would be.
    return id && id.type !== 'uuid'
      ? fc.sample(fieldArbitrary(model, { ...id, nullable: false }, target), { seed: 1, numRuns: 1 })[0]
      : '01a20891-70f4-7307-bb1a-57a0e10a8c7c';
  }
  if (Array.isArray(v)) return v.map((x) => fill(model, x));
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(model, x)]));
  return v;
}

const models: ServiceModel[] = [...SPECS.map((p) => compileSpecFile(p).model!), compileSpecText(EDGY).model!];

describe('edge cases of the input space', () => {
  for (const model of models) {
    for (const resource of model.resources) {
      for (const view of ['create', 'update', 'replace'] as SchemaView[]) {
        it(`${model.purpose?.name ?? model.file} ${resource.name} ${view}: every edge body and one-field variant passes the runtime's schema`, () => {
          const validate = ajv.compile(getResourceSchema(model, resource, view, { safeIntegers: true }));
          for (const seed of [1, 2, 3]) {
            const base = fill(model, fc.sample(objectArbitrary(model, resource.fields, resource, view, true), { seed, numRuns: 1 })[0]) as Record<
              string,
              unknown
            >;
            for (const c of getEdgeCases(model, resource.fields, resource, view, base)) {
              for (const b of [c.body, ...c.single.map((x) => x.body)]) {
                const body = fill(model, b);
                expect(validate(body), `${c.label}: ${JSON.stringify(validate.errors?.[0])} ${JSON.stringify(body).slice(0, 300)}`).toBe(true);
              }
            }
          }
        });
      }
    }
  }

  it('reaches every edge of a field: bounds and just inside, Unicode, control characters, NUL, each enum value, null, only the required', () => {
    const model = compileSpecText(EDGY).model!;
    const r = model.resources[0]!;
    const base = fill(model, fc.sample(objectArbitrary(model, r.fields, r, 'create', true), { seed: 4, numRuns: 1 })[0]) as Record<string, unknown>;
    const cases = getEdgeCases(model, r.fields, r, 'create', base);
    const values = (field: string) => cases.map((c) => c.body[field]);
    expect(values('label')).toEqual(expect.arrayContaining(['aa', 'x'.repeat(90), expect.stringMatching(/^(xy){44}x$/)]));
    expect(values('note')).toEqual(expect.arrayContaining([null, expect.stringMatching(new RegExp(`^.{${UNBOUNDED_STRING_LENGTHS[0]}}$`))]));
    expect(values('note').some((v) => typeof v === 'string' && [...v].length === UNBOUNDED_STRING_LENGTHS[1])).toBe(true);
    expect(values('label').some((v) => typeof v === 'string' && /[\u{10000}-\u{10FFFF}]/u.test(v) && /\u0301/.test(v) && /[\u0590-\u06ff]/.test(v))).toBe(true);
    expect(values('label').some((v) => typeof v === 'string' && v.includes('\u0000'))).toBe(true);
    expect(values('label').some((v) => typeof v === 'string' && v.includes('\u001f'))).toBe(true);
    expect(values('step')).toEqual(expect.arrayContaining([5, 10, 90, 95]));
    expect(values('ratio').every((v) => typeof v === 'number' && v > 0 && v < 1)).toBe(true);
    expect(values('kind')).toEqual(expect.arrayContaining(['a', 'b', 'c', 'd']));
    expect(values('tags').map((t) => (Array.isArray(t) ? t.length : -1))).toEqual(expect.arrayContaining([1, 4]));
    expect(values('code').every((v) => typeof v === 'string' && /^[A-Z]{3}$/.test(v))).toBe(true);
    expect(cases.some((c) => !('note' in c.body) && c.label.startsWith('only the required'))).toBe(true);
    expect(cases.find((c) => c.label.includes('NUL'))?.mayRefuse).toBe(true);
  });

  it('mutations break multipleOf and uniqueItems too, each refused by the schema', () => {
    const model = compileSpecText(EDGY).model!;
    const r = model.resources[0]!;
    const validate = ajv.compile(getResourceSchema(model, r, 'create', { safeIntegers: true }));
    const base = fill(model, fc.sample(objectArbitrary(model, r.fields, r, 'create', true), { seed: 5, numRuns: 1 })[0]) as Record<string, unknown>;
    const mutations = getMutations(model, r.fields, r, 'create');
    const labels = mutations.map((m) => m.label);
    expect(labels).toEqual(expect.arrayContaining(['step not a multiple of 5', 'tags with a repeated item (uniqueItems)']));
    for (const m of mutations) expect(validate(m.apply(base)), m.label).toBe(false);
  });
});
