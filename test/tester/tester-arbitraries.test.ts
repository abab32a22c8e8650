// The tester's generators agree with the schemas the runtime validates with: every generated body is valid,
// and every mutation of a valid body is refused by the same schema.

import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getResourceSchema, getShapeSchema, type SchemaView } from '../../src/model/model-schemas.js';
import type { ServiceModel } from '../../src/model/model-types.js';
import { compileSpecFile, compileSpecText } from '../../src/program.js';
import { getMutations, isRefPlaceholder, objectArbitrary } from '../../src/tester/tester-arbitraries.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: false }));
const SPECS = ['../../examples/orders.yaml', '../../examples/library.yaml', '../runtime/fixtures/tickets.yaml'].map(
  (p) => new URL(p, import.meta.url).pathname,
);

const models: ServiceModel[] = SPECS.map((p) => {
  const c = compileSpecFile(p);
  if (!c.model) throw new Error(`${p} does not compile`);
  return c.model;
});

/** Reference placeholders stand for existing identifiers: a valid uuid (or integer) in their place. */
function fill(model: ServiceModel, v: unknown): unknown {
  if (isRefPlaceholder(v)) {
    const target = model.resources.find((r) => r.name === v.$ref);
    const id = target?.fields.find((f) => f.name === target.identifier);
    return id?.type === 'integer' ? 1 : '01a20891-70f4-7307-bb1a-57a0e10a8c7c';
  }
  if (Array.isArray(v)) return v.map((x) => fill(model, x));
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(model, x)]));
  return v;
}

describe('generated request bodies', () => {
  for (const model of models) {
    for (const resource of model.resources) {
      for (const view of ['create', 'update', 'replace'] as SchemaView[]) {
        it(`${model.purpose?.name ?? model.file} ${resource.name} ${view}: valid values pass the runtime's schema; each mutation fails it`, () => {
          const validate = ajv.compile(getResourceSchema(model, resource, view, { safeIntegers: true }));
          fc.assert(
            fc.property(objectArbitrary(model, resource.fields, resource, view), (raw) => {
              const body = fill(model, raw) as Record<string, unknown>;
              expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
            }),
            { numRuns: 50, seed: 42 },
          );
          const [sample] = fc.sample(objectArbitrary(model, resource.fields, resource, view), { numRuns: 1, seed: 7 });
          const base = fill(model, sample) as Record<string, unknown>;
          for (const m of getMutations(model, resource.fields, resource, view)) {
            if (m.condition !== 'validation') continue;
            const broken = m.apply(base);
            // A mutation of an optional field the sample left out changes nothing: nothing to refuse.
            if (JSON.stringify(broken) === JSON.stringify(base)) continue;
            expect(validate(broken), `${resource.name} ${view}: ${m.label}`).toBe(false);
          }
        });
      }
    }
    for (const o of (model.endpoints?.operations ?? []).filter((x) => x.action === 'custom' && x.request)) {
      it(`${model.purpose?.name ?? model.file} ${o.id}: custom request shape`, () => {
        const validate = ajv.compile(getShapeSchema(model, o.request!, 'create'));
        fc.assert(
          fc.property(objectArbitrary(model, o.request!.fields ?? [], undefined, 'create'), (raw) => validate(fill(model, raw)) === true),
          { numRuns: 50, seed: 42 },
        );
      });
    }
  }
});

describe('values no draw can miss forever', () => {
  // fast-check's filter draws until a value passes: a pattern longer than the default length cap (a checksum) held
  // `servicespec test` at 0 requests past every time limit (an IoT sweep's firmware checksum).
  const spec = (field: string) =>
    compileSpecText(`servicespec: 1
resources:
  Release:
    fields:
      id: { type: uuid, readOnly: true }
      value: ${field}
`).model!;
  const draw = (field: string) => {
    const m = spec(field);
    const r = m.resources[0]!;
    return fc.sample(objectArbitrary(m, r.fields, r, 'create', true), { seed: 1, numRuns: 20 }).map((b) => (b as { value: unknown }).value);
  };

  it.each([
    ["{ type: string, pattern: '^[a-f0-9]{32}$' }", /^[a-f0-9]{32}$/],
    ["{ type: string, pattern: '^[a-f0-9]{64}$' }", /^[a-f0-9]{64}$/],
    ["{ type: string, pattern: '^[a-f0-9]+$', minLength: 64, maxLength: 64 }", /^[a-f0-9]{64}$/],
    ["{ type: string, pattern: '^(?:[a-f0-9]{16}){4}$' }", /^[a-f0-9]{64}$/],
    // Okta's identifiers (fourth sweep): a fixed prefix, then one atom repeated, the length given beside it.
    ["{ type: string, pattern: 'req[0-9a-zA-Z]+', minLength: 20, maxLength: 20 }", /^req[0-9a-zA-Z]{17}$/],
    ["{ type: string, pattern: '(00u|pca)[0-9a-zA-Z]+', minLength: 20, maxLength: 20 }", /^(00u|pca)[0-9a-zA-Z]{17}$/],
    ["{ type: string, pattern: '^ab_[0-9]*$', maxLength: 5 }", /^ab_[0-9]{0,2}$/],
    // DigitalOcean's uint64 and int64 bounds (fourth sweep): on the old tester the draw never ended.
    ['{ type: integer, minimum: 0, maximum: 18446744073709552000 }', /^\d+$/],
    ['{ type: integer, minimum: -9223372036854776000, maximum: 9223372036854776000 }', /^-?\d+$/],
  ])('%s: every value drawn matches', (field, re) => {
    for (const v of draw(field)) expect(String(v)).toMatch(re);
  });

  it('an untagged variant told apart only by a field never drawn (read-only): a value is drawn all the same', () => {
    // PagerDuty's REST document (fourth sweep): fast-check's filter drew forever, 'servicespec test' ran until killed.
    const m = compileSpecText(`servicespec: 1
resources:
  Rule:
    fields:
      id: { type: uuid, readOnly: true }
      action:
        type: union
        variants:
          Script: { fields: { name: { type: string, maxLength: 10 }, ran_at: { type: datetime, readOnly: true, optional: true } } }
          Plain: { fields: { name: { type: string, maxLength: 10 } } }
`).model!;
    const r = m.resources[0]!;
    expect(fc.sample(objectArbitrary(m, r.fields, r, 'create', true), { seed: 1, numRuns: 20 })).toHaveLength(20);
  });

  it.each([
    "{ type: string, pattern: '^[a-f0-9]{32}$', maxLength: 10 }",
    '{ type: integer, minimum: 1, maximum: 4, multipleOf: 5 }',
    '{ type: number, minimum: 1, maximum: 4, multipleOf: 5 }',
  ])('%s (no value fits): a value is drawn all the same, the service left to judge it', (field) => {
    expect(draw(field)).toHaveLength(20);
  });
});

describe('a read-only number sent in a body (getMutations)', () => {
  const sent = (bounds: string) => {
    const m = compileSpecText(`servicespec: 1
resources:
  Item:
    fields:
      id: { type: uuid, readOnly: true }
      rank: { type: integer, readOnly: true${bounds} }
`).model!;
    const r = m.resources[0]!;
    const mu = getMutations(m, r.fields, r, 'create').find((x) => x.label === 'rank (read-only) sent')!;
    return mu.apply({}).rank;
  };
  it('is the number no run makes where the bounds take it, else not one outside them (exclusiveMinimum too)', () => {
    expect(sent('')).toBe(7340033);
    expect(sent(', exclusiveMaximum: 7340033')).not.toBe(7340033);
    expect(sent(', exclusiveMinimum: 7340033')).not.toBe(7340033);
  });
});
