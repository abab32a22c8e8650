import fc from 'fast-check';
import { FORM_MEDIA_TYPE, isLeftOutIn, isNullableInRequests, mayLeaveOut } from '../model/model-defaults.js';
import { getResource } from '../model/model-lookup.js';
import { createModelAjv, typedDiscriminators } from '../model/model-ajv.js';
import { getUnionSchema, isWritable, type JsonSchema, type SchemaView } from '../model/model-schemas.js';
import type { FieldModel, OperationModel, ParameterModel, ResourceModel, ServiceModel, UnionModel, VariantModel } from '../model/model-types.js';

// fast-check arbitraries built from the model's field types and constraints: valid values (shrinkable), and
// one invalid variant per constraint a field declares.

/** A placeholder for an identifier of an existing object of `to`, filled in just before sending. */
export interface RefPlaceholder {
  $ref: string;
}

export const isRefPlaceholder = (v: unknown): v is RefPlaceholder => typeof v === 'object' && v !== null && typeof (v as RefPlaceholder).$ref === 'string';

/**
 * `arb` kept to the values `ok` takes, from a few drawn at once: never fast-check's filter, which draws forever where
 * no value passes (a pattern whose matches are longer than its maxLength, a range holding no multiple), and would
 * hold the run past every time limit. Where none of them passes, the first is taken: the service judges it.
 */
function fitting<T>(arb: fc.Arbitrary<T>, ok: (v: T) => boolean, tries = 8): fc.Arbitrary<T> {
  return fc.array(arb, { minLength: tries, maxLength: tries }).map((xs) => xs.find(ok) ?? xs[0]!);
}

/** `fitting`, drawing the others only where the first drawn does not pass (a union's values mostly do: one draw each). */
function fittingFirst<T>(arb: fc.Arbitrary<T>, ok: (v: T) => boolean, tries = 8): fc.Arbitrary<T> {
  return arb.chain((x) => (ok(x) ? fc.constant(x) : fitting(arb, ok, tries - 1).map((y) => (ok(y) ? y : x))));
}

/**
 * One atom repeated, the whole text (`^[a-f0-9]+$`, `^\\d*$`, `^.+$`), or after a prefix of a fixed length: literal
 * characters or a group of literal alternatives of one length (Okta's `00g[0-9a-zA-Z]+`, `(00u|pca)[0-9a-zA-Z]+`,
 * with minLength and maxLength 20). Unanchored too: a whole match also matches anywhere.
 */
const REPEATED_ATOM =
  /^(\^?)((?:[A-Za-z0-9_:/-]|\\[^A-Za-z0-9])*|\((?:[A-Za-z0-9_-]+\|)*[A-Za-z0-9_-]+\))(\[(?:\\.|[^\]\\])*\]|\\.|[^\\()[\]{}|*+?^$])([+*])(\$?)$/;

/** The length of a REPEATED_ATOM prefix, or undefined where its alternatives differ in length. */
function prefixLength(prefix: string): number | undefined {
  if (!prefix.startsWith('(')) return prefix.replace(/\\(.)/g, '$1').length;
  const lengths = new Set(
    prefix
      .slice(1, -1)
      .split('|')
      .map((a) => a.length),
  );
  return lengths.size === 1 ? [...lengths][0] : undefined;
}

/**
 * A pattern whose matches a draw can give the declared length: one atom repeated, after a prefix of a fixed length,
 * repeated as often as the bounds say (`^[a-f0-9]+$` with minLength 64, a token); any other pattern as it is.
 */
function boundedPattern(re: RegExp, minLength: number | undefined, maxLength: number | undefined): RegExp {
  const m = REPEATED_ATOM.exec(re.source);
  if (!m || (minLength === undefined && maxLength === undefined)) return re;
  const fixed = prefixLength(m[2]!);
  if (fixed === undefined) return re;
  const min = Math.max((minLength ?? 0) - fixed, m[4] === '+' ? 1 : 0);
  const max = Math.max(min, maxLength === undefined ? min + 24 : maxLength - fixed);
  return new RegExp(`^${m[2]}${m[3]}{${min},${max}}$`, re.flags);
}

/**
 * Strings matching `re`, drawn by fast-check, which builds no generator for lookarounds (linode's
 * `^[a-zA-Z]((?!--|__|..)[a-zA-Z0-9-_.])+$`) or back references: a lookaround is left out of the pattern drawn from
 * (the draws are then kept only where the whole pattern matches them, `fitting`). Undefined when nothing can be drawn.
 */
function patternArbitrary(re: RegExp): fc.Arbitrary<string> | undefined {
  // Built once per pattern: fast-check's stringMatching tokenizes the pattern and its string arbitraries their
  // shrinking slices on every build (13 % of a default run's CPU when built per draw). An arbitrary is a pure
  // description, so a shared one draws what a new one would.
  const key = `${re.flags}/${re.source}`;
  if (patternArbitraries.has(key)) return patternArbitraries.get(key);
  if (patternArbitraries.size >= PATTERN_ARBITRARIES_MAX) patternArbitraries.clear();
  const arb = buildPatternArbitrary(re);
  patternArbitraries.set(key, arb);
  return arb;
}

const PATTERN_ARBITRARIES_MAX = 1_000;
const patternArbitraries = new Map<string, fc.Arbitrary<string> | undefined>();

function buildPatternArbitrary(re: RegExp): fc.Arbitrary<string> | undefined {
  try {
    return fc.stringMatching(re);
  } catch {
    const loose = withoutLookarounds(re.source);
    if (loose === undefined || loose === re.source) return undefined;
    try {
      return fc.stringMatching(new RegExp(loose, re.flags));
    } catch {
      return undefined;
    }
  }
}

/** A pattern's source with its lookaheads and lookbehinds (`(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`) taken out; undefined if unbalanced. */
export function withoutLookarounds(source: string): string | undefined {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      out += source.slice(i, i + 2);
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
    } else if (c === '(' && /^\(\?<?[=!]/.test(source.slice(i, i + 4))) {
      let depth = 0;
      let cls = false;
      let j = i;
      for (; j < source.length; j++) {
        const d = source[j]!;
        if (d === '\\') j++;
        else if (cls) cls = d !== ']';
        else if (d === '[') cls = true;
        else if (d === '(') depth++;
        else if (d === ')' && --depth === 0) break;
      }
      if (j >= source.length) return undefined;
      i = j;
    } else out += c;
  }
  return out;
}

function stringArbitrary(f: FieldModel): fc.Arbitrary<string> {
  const min = f.minLength ?? 0;
  if (f.pattern !== undefined) {
    let re: RegExp;
    try {
      re = new RegExp(f.pattern, 'u');
    } catch {
      return fc.constant(typeof f.example === 'string' ? f.example : '');
    }
    // Only the declared bounds: a pattern says its own length (a 64-character checksum).
    const fits = (s: string) => [...s].length >= min && [...s].length <= (f.maxLength ?? Infinity) && re.test(s);
    const from = f.hasExample && typeof f.example === 'string' && fits(f.example) ? [fc.constant(f.example)] : [];
    const matching = patternArbitrary(boundedPattern(re, f.minLength, f.maxLength));
    if (matching === undefined) return from[0] ?? fc.constant('');
    return fc.oneof(...from, fitting(matching, fits));
  }
  const max = f.maxLength ?? Math.max(min, 24);
  return fc.string({ minLength: min, maxLength: Math.min(max, min + 24), unit: 'grapheme-ascii' });
}

function numberArbitrary(f: FieldModel): fc.Arbitrary<number> {
  if (f.type === 'integer') {
    let min = f.minimum ?? (f.exclusiveMinimum !== undefined ? Math.floor(f.exclusiveMinimum) + 1 : -1_000_000);
    let max = f.maximum ?? (f.exclusiveMaximum !== undefined ? Math.ceil(f.exclusiveMaximum) - 1 : 1_000_000);
    // Drawn within the safe integers: past them (DigitalOcean's uint64 maximum 18446744073709552000) pure-rand's
    // uniform draw never ends, and the run held past every time limit.
    min = Math.max(Math.ceil(min), Number.MIN_SAFE_INTEGER);
    max = Math.min(Math.floor(max), Number.MAX_SAFE_INTEGER);
    const arb = fc.integer({ min, max: Math.max(min, max) });
    return f.multipleOf !== undefined
      ? fitting(
          arb.map((n) => Math.round(n / f.multipleOf!) * f.multipleOf!),
          (n) => n >= min && n <= max,
        )
      : arb;
  }
  const min = f.minimum ?? f.exclusiveMinimum ?? -1e6;
  const max = f.maximum ?? f.exclusiveMaximum ?? 1e6;
  const m = f.multipleOf;
  if (m !== undefined) {
    // Whole multiples of `m` within the bounds, kept only where the quotient is whole in floating point too
    // (0.1 * 3 is 0.30000000000000004, which a validator refuses as a multiple of 0.1).
    const inRange = (n: number) =>
      (f.exclusiveMinimum !== undefined ? n > f.exclusiveMinimum : n >= min) && (f.exclusiveMaximum !== undefined ? n < f.exclusiveMaximum : n <= max);
    const lo = Math.ceil(min / m);
    const hi = Math.floor(max / m);
    return fitting(
      fc.integer({ min: Math.max(lo, -1_000_000), max: Math.max(Math.max(lo, -1_000_000), Math.min(hi, 1_000_000)) }).map((k) => k * m),
      (n) => inRange(n) && Number.isInteger(n / m) && !Object.is(n, -0),
    );
  }
  return fc
    .double({
      min,
      max: Math.max(min, max),
      noNaN: true,
      noDefaultInfinity: true,
      minExcluded: f.exclusiveMinimum !== undefined,
      maxExcluded: f.exclusiveMaximum !== undefined,
    })
    .filter((n) => !Object.is(n, -0));
}

/**
 * Valid values of one field. `complete`: every optional nested field present, no null anywhere, and arrays of objects
 * not empty, so that a mutation of any nested field has a place to go and what a later change leaves out is there to
 * be kept or cleared.
 */
export function fieldArbitrary(model: ServiceModel, f: FieldModel, resource: ResourceModel | undefined, complete = false): fc.Arbitrary<unknown> {
  let arb: fc.Arbitrary<unknown>;
  switch (f.type) {
    case 'string':
      arb = stringArbitrary(f);
      break;
    case 'email':
      // A part drawn from a uuid as well: a service may hold an address unique where the spec does not say so (one
      // registration per address), and addresses drawn from a small space repeat within a run. At most 23 characters,
      // as before.
      arb = fc
        .tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,3}$/), fc.noBias(fc.uuid({ version: 4 })), fc.constantFrom('example.com', 'example.org'))
        .map(([l, u, d]) => `${l}.${u.slice(0, 6)}@${d}`);
      break;
    case 'uuid':
      arb = fc.uuid({ version: 4 });
      break;
    case 'uri':
      arb = fc.stringMatching(/^[a-z]{1,10}$/).map((p) => `https://example.com/${p}`);
      break;
    case 'date':
      arb = fc
        .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
      break;
    case 'datetime':
      arb = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
      break;
    case 'integer':
    case 'number':
      arb = numberArbitrary(f);
      break;
    case 'boolean':
      arb = fc.boolean();
      break;
    case 'enum':
      arb = fc.constantFrom(...(f.values ?? ['']));
      break;
    case 'ref':
      arb = fc.constant({ $ref: f.to ?? '' } satisfies RefPlaceholder);
      break;
    case 'array': {
      const item = f.items ? fieldArbitrary(model, f.items, resource, complete) : fc.constant(null);
      const minLength = complete && f.items?.type === 'object' && f.maxItems !== 0 ? Math.max(1, f.minItems ?? 0) : (f.minItems ?? 0);
      arb = fc.array(item, { minLength, maxLength: Math.min(f.maxItems ?? minLength + 3, minLength + 3) });
      if (f.uniqueItems)
        arb = fc.uniqueArray(item, { minLength, maxLength: Math.min(f.maxItems ?? minLength + 3, minLength + 3), selector: (v) => JSON.stringify(v) });
      break;
    }
    case 'object':
      arb = objectArbitrary(model, f.fields ?? [], undefined, 'create', complete);
      break;
    case 'map':
      // A few member names of plain letters (no name the format or JavaScript reserves), each value its field's.
      arb = fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/), f.items ? fieldArbitrary(model, f.items, resource, complete) : fc.constant(''), {
        maxKeys: 3,
        noNullPrototype: true,
      });
      break;
    case 'state':
    case 'json':
      arb = fc.constant({});
      break;
    case 'union':
      arb = f.union ? unionArbitrary(model, f.union, complete) : fc.constant({});
      break;
  }
  return isNullableInRequests(f) && !complete ? fc.option(arb, { nil: null, freq: 5 }) : arb;
}

/** A valid object of `fields` for the given view: required fields always, optional ones sometimes (`complete`: always). */
export function objectArbitrary(
  model: ServiceModel,
  fields: readonly FieldModel[],
  resource: ResourceModel | undefined,
  view: SchemaView,
  complete = false,
  variantTag?: unknown,
): fc.Arbitrary<Record<string, unknown>> {
  // A resource of several shapes, written whole: a create is one variant (`variantTag`'s, else one chosen at random:
  // the shared fields, its tag, its own fields); an update or replace is its stored object's variant's (`variantTag`:
  // the shared fields and that variant's, no tag, which never changes), or of the shared fields only where none is said.
  const u = resource?.variants;
  if (u?.discriminator !== undefined && u.variants.length > 0 && fields.some((f) => f.ofVariants !== undefined || f.name === u.discriminator)) {
    const shared = fields.filter((f) => f.ofVariants === undefined && f.name !== u.discriminator);
    const tag = u.discriminator;
    const taken = new Set(fields.map((f) => f.name));
    const ofVariant = (v: (typeof u.variants)[number]) => {
      const own = new Set(v.fields.map((f) => f.name));
      return [...shared.filter((f) => !own.has(f.name)), ...v.fields.filter((f) => taken.has(f.name))];
    };
    const chosen = u.variants.filter((v) => variantTag === undefined || v.tag === variantTag);
    if (view !== 'create') return objectArbitrary(model, chosen.length === 1 ? ofVariant(chosen[0]!) : shared, resource, view, complete);
    return fc.oneof(
      ...(chosen.length > 0 ? chosen : u.variants).map((v) =>
        objectArbitrary(model, ofVariant(v), resource, view, complete).map((body) => ({ [tag]: v.tag, ...body })),
      ),
    );
  }
  // A create's optional callback URL is left out: given one, the service would subscribe it and send it events (the
  // tester's own events.callback check gives one on this machine).
  const callbackUrls =
    view === 'create' && resource
      ? new Set(
          (model.endpoints?.operations ?? []).flatMap((o) =>
            o.action === 'create' && o.resource === resource.name ? (o.callbacks ?? []).map((c) => c.url) : [],
          ),
        )
      : undefined;
  const writable = fields.filter((f) => isWritable(resource, f, view) && !(f.optional && callbackUrls?.has(f.name)));
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  const requiredKeys: string[] = [];
  for (const f of writable) {
    record[f.name] = fieldArbitrary(model, f, resource, complete);
    // A field whose value the spec leaves to the service when a request leaves it out (optionalInRequests) is sent:
    // leaving it out is a gap's request, tried once by endpoints.input-space's "only the required fields".
    if (complete || (view !== 'update' && (!mayLeaveOut(f, view) || isLeftOutIn(f, view)))) requiredKeys.push(f.name);
  }
  return fc.record(record, { requiredKeys }) as fc.Arbitrary<Record<string, unknown>>;
}

/** A valid value of a union: one of its variants (nested fields are written whole, as in a create), tagged when the union is. */
export function unionArbitrary(model: ServiceModel, union: UnionModel, complete = false): fc.Arbitrary<Record<string, unknown>> {
  if (union.variants.length === 0) return fc.constant({});
  // An untagged variant every value of which another also fits (vonage-dispatch's `sendMessage`, all of whose
  // fields `sendWithFailoverMessage` has, with nothing more required) has no valid value: the oneOf refuses them all.
  const names = (v: VariantModel) => new Set(v.fields.map((f) => f.name));
  const required = (v: VariantModel) => v.fields.filter((f) => !f.optional && !f.hasDefault).map((f) => f.name);
  const subsumed = (v: VariantModel) =>
    union.discriminator === undefined &&
    union.variants.some((o) => o !== v && [...names(v)].every((n) => names(o).has(n)) && required(o).every((n) => required(v).includes(n)));
  const drawn = union.variants.filter((v) => !subsumed(v));
  const d = union.discriminator;
  const one = fc.oneof(
    ...(drawn.length > 0 ? drawn : union.variants).map((v) => {
      // Untagged, a field of an enum whose values no other variant's field of that name takes (Discord's auto-moderation
      // rule partials, all optional, each with its own `trigger_type`) says which variant a value is: it is always sent.
      // Before, a value without it (`{}`) fitted every variant, the oneOf refused it, and valid-requests failed.
      const tell =
        d === undefined
          ? v.fields.find(
              (f) =>
                f.optional &&
                f.type === 'enum' &&
                (f.values ?? []).length > 0 &&
                union.variants.every((o) => {
                  const g = o === v ? undefined : o.fields.find((x) => x.name === f.name);
                  return g === undefined || (g.type === 'enum' && !(g.values ?? []).some((x) => (f.values ?? []).includes(x as never)));
                }),
            )
          : undefined;
      const fields = tell ? v.fields.map((f) => (f === tell ? { ...f, optional: false } : f)) : v.fields;
      const body = objectArbitrary(model, fields, undefined, 'create', complete);
      if (d !== undefined) return v.tag !== undefined ? body.map((b) => ({ [d]: v.tag, ...b })) : body;
      // Untagged: a value another variant also takes is refused (a union is a oneOf; check warns
      // union-indistinguishable), so only values this variant alone takes are valid, judged by the schema serve
      // validates with (getUnionVariantMatches). Before, only field names were compared: InfluxDB's ExportTemplate
      // (two variants of the same optional members, told apart inside `resources[]`) was drawn as `{}` or `{ stackID }`,
      // both variants' values, and serve's refusal failed valid-requests. Kept by `fitting`, never fast-check's filter:
      // where no drawn value is this variant alone (its telling field read-only, never drawn; PagerDuty's REST
      // document) the filter drew forever and held the run past its time limit.
      return union.variants.length === 1 ? body : fittingFirst(body, (b) => isOnlyVariant(model, union, v, b));
    }),
  );
  // A variant none of whose draws is it alone gives way to another's: the value is then still one variant's.
  return d === undefined && union.variants.length > 1 ? fittingFirst(one, (b) => getUnionVariantMatches(model, union, b).length === 1, 3) : one;
}

/** The union's variants' request schemas, compiled once per union with the Ajv options serve and the judge use. */
const variantValidators = new WeakMap<UnionModel, ((value: unknown) => boolean)[]>();
let variantAjv: ReturnType<typeof createModelAjv> | undefined;

/**
 * The names of the variants of `union` that take `value` as a request's member (its references to other objects
 * read as identifiers of them): exactly one for a value serve takes, the union being a oneOf. The schemas are the
 * model's (getUnionSchema), compiled as serve compiles them (createModelAjv).
 */
export function getUnionVariantMatches(model: ServiceModel, union: UnionModel, value: unknown): string[] {
  let validators = variantValidators.get(union);
  if (!validators) {
    const ajv = (variantAjv ??= createModelAjv({ allErrors: false }));
    const oneOf = (getUnionSchema(model, union, undefined, 'create').oneOf ?? []) as JsonSchema[];
    validators = oneOf.map((s) => {
      const validate = ajv.compile(typedDiscriminators(s) as JsonSchema);
      return (x: unknown) => validate(x) === true;
    });
    variantValidators.set(union, validators);
  }
  const plain = withSampleIdentifiers(model, value);
  return union.variants.filter((_, i) => validators[i]!(plain)).map((v) => v.name);
}

/** Whether `value` is variant `v` of `union` and no other (getUnionVariantMatches). */
function isOnlyVariant(model: ServiceModel, union: UnionModel, v: VariantModel, value: unknown): boolean {
  const m = getUnionVariantMatches(model, union, value);
  return m.length === 1 && m[0] === v.name;
}

/** `value` with each reference placeholder replaced by an identifier of its resource's type (drawn with a fixed seed). */
function withSampleIdentifiers(model: ServiceModel, value: unknown): unknown {
  if (isRefPlaceholder(value)) {
    const r = getResource(model, value.$ref);
    const id = r?.fields.find((f) => f.name === r.identifier);
    return id && id.type !== 'ref' ? fc.sample(fieldArbitrary(model, { ...id, nullable: false }, r, true), { seed: 1, numRuns: 1 })[0] : value;
  }
  if (Array.isArray(value)) return value.map((x) => withSampleIdentifiers(model, x));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, withSampleIdentifiers(model, x)]));
  return value;
}

/**
 * A complete valid value of one variant (its tag included), drawn with a fixed seed; undefined when it refers to other
 * objects, or, untagged, when none of a few draws is this variant alone (another variant takes each: the oneOf
 * refuses them, and no value can be said to be this variant).
 */
export function sampleVariant(model: ServiceModel, union: UnionModel, v: VariantModel, seed = 0x5eed): Record<string, unknown> | undefined {
  if (JSON.stringify(v.fields).includes('"type":"ref"')) return undefined;
  const arb = objectArbitrary(model, v.fields, undefined, 'create', true);
  if (union.discriminator !== undefined) {
    const body = fc.sample(arb, { seed, numRuns: 1 })[0]!;
    return v.tag !== undefined ? { [union.discriminator]: v.tag, ...body } : body;
  }
  return fc.sample(arb, { seed, numRuns: 8 }).find((b) => union.variants.length === 1 || isOnlyVariant(model, union, v, b));
}

/** Whether `value` is taken by exactly one variant of `union` (as serve reads it: a oneOf). */
function isUnionValue(model: ServiceModel, union: UnionModel, value: unknown): boolean {
  return getUnionVariantMatches(model, union, value).length === 1;
}

/**
 * The invalid values of a union at `path` (the whole body when empty): a tag no variant has, and each variant with
 * one of its required fields left out — in an untagged union, only where what is left is no other variant —, and each
 * holding another variant's member (untagged, only where that is no variant).
 */
export function unionMutations(model: ServiceModel, union: UnionModel, path: readonly (string | number)[]): Mutation[] {
  const name = path.length === 0 ? 'the body' : path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
  const put = (value: Record<string, unknown>) => (b: Record<string, unknown>) => (path.length === 0 ? clone(value) : setAt(b, path, clone(value)));
  const out: Mutation[] = [];
  const d = union.discriminator;
  const first = union.variants[0];
  const firstSample = first ? sampleVariant(model, union, first) : undefined;
  if (d !== undefined && firstSample)
    out.push({ label: `${name} with a ${d} no variant has`, condition: 'validation', apply: put({ ...firstSample, [d]: '__no_such_variant__' }) });
  for (const v of union.variants) {
    const sample = sampleVariant(model, union, v);
    if (!sample) continue;
    for (const f of v.fields) {
      if (f.optional || f.hasDefault || !isWritable(undefined, f, 'create')) continue;
      const { [f.name]: _gone, ...rest } = sample;
      if (d === undefined && isUnionValue(model, union, rest)) continue;
      out.push({ label: `${name} as variant ${v.name} without its required ${f.name}`, condition: 'validation', apply: put(rest) });
    }
    // Each of the variant's own members broken as a field is (an enum, a pattern, a bound), under its tag: a service
    // telling the variants apart and checking none of their members takes these. Untagged, only where no other
    // variant would take the broken value.
    for (const f of v.fields) {
      if (f.name === d || !isWritable(undefined, f, 'create') || f.type === 'union') continue;
      for (const m of fieldMutations(model, f, [f.name], false)) {
        const broken = m.apply(structuredClone(sample));
        if (d === undefined && isUnionValue(model, union, broken)) continue;
        // A merge patch's null removes an optional member: not a refusal there.
        if (broken[f.name] === null && (f.optional || f.hasDefault)) continue;
        out.push({ label: `${name} (variant ${v.name}) ${m.label}`, condition: m.condition, apply: put(broken) });
      }
    }
    // A member another variant has, beside this variant's (under its tag, where tagged): a service checking the tag
    // and any variant's members takes it. Each variant is closed; an unknown field to this one, judged as the
    // format's rule is. Untagged, only where the value is then no variant at all (a rental holding a purchase's
    // price): it must match exactly one.
    for (const w of union.variants) {
      const other = w === v ? undefined : w.fields.find((g) => g.name !== d && !v.fields.some((x) => x.name === g.name));
      const value = other && sampleVariant(model, union, w)?.[other.name];
      if (!other || value === undefined) continue;
      if (d === undefined && isUnionValue(model, union, { ...sample, [other.name]: value })) continue;
      out.push({
        label: `${name} (variant ${v.name}, sent ${w.name}'s ${other.name}) with an unknown field`,
        condition: 'validation',
        apply: put({ ...sample, [other.name]: value }),
      });
    }
  }
  return out;
}

/** One way to break a valid body, and the condition the spec says it meets. */
export interface Mutation {
  /** What is broken, e.g. `items[0].quantity above maximum 999`. */
  label: string;
  condition: 'validation' | 'reference_not_found';
  apply: (body: Record<string, unknown>) => Record<string, unknown>;
}

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** Item types whose mutations are values of their own (not objects, lists or unions, which have their own paths). */
const SCALAR_ITEM_TYPES: ReadonlySet<FieldModel['type']> = new Set([
  'string',
  'email',
  'uri',
  'date',
  'datetime',
  'uuid',
  'integer',
  'number',
  'boolean',
  'enum',
]);

function setAt(body: Record<string, unknown>, path: readonly (string | number)[], value: unknown, remove = false): Record<string, unknown> {
  const out = clone(body);
  let at: Record<string | number, unknown> = out;
  for (const key of path.slice(0, -1)) {
    const next = at[key];
    if (typeof next !== 'object' || next === null) return out;
    at = next as Record<string | number, unknown>;
  }
  const last = path[path.length - 1]!;
  if (remove) delete at[last];
  else at[last] = value;
  return out;
}

function wrongType(f: FieldModel): unknown {
  switch (f.type) {
    case 'integer':
    case 'number':
      return 'not a number';
    case 'boolean':
      return 'true';
    case 'array':
      return { not: 'an array' };
    case 'object':
    case 'map':
      return ['not', 'an', 'object'];
    case 'json':
      return undefined;
    case 'ref':
      // Of no identifier's type (uuid, integer, string): an integer may name an object, or nothing (reference_not_found).
      return true;
    default:
      return 12345;
  }
}

/** A number-typed field's value in its bounds, written as text; undefined for other types. */
function numberAsText(f: FieldModel): string | undefined {
  if (f.type !== 'integer' && f.type !== 'number') return undefined;
  let v = f.minimum ?? (f.exclusiveMinimum !== undefined ? f.exclusiveMinimum + 1 : 1);
  if (f.maximum !== undefined && v > f.maximum) v = f.maximum;
  if (f.multipleOf !== undefined) v = Math.ceil(v / f.multipleOf) * f.multipleOf;
  return String(f.type === 'integer' ? Math.ceil(v) : v);
}

/** A number within the field's bounds that is not a multiple of its multipleOf, or undefined when none is. */
function notMultiple(f: FieldModel): number | undefined {
  const m = f.multipleOf;
  if (m === undefined) return undefined;
  const lo = f.minimum ?? f.exclusiveMinimum ?? 0;
  const hi = f.maximum ?? f.exclusiveMaximum ?? lo + 10 * m + 10;
  const inside = (n: number) =>
    (f.exclusiveMinimum !== undefined ? n > f.exclusiveMinimum : n >= lo) && (f.exclusiveMaximum !== undefined ? n < f.exclusiveMaximum : n <= hi);
  const start = Math.ceil(lo / m) * m;
  const candidates = f.type === 'integer' ? [start + 1, start - 1, start + Math.floor(m / 2)] : [start + m / 2, start + m / 3];
  return candidates.find((n) => inside(n) && (f.type !== 'integer' || Number.isInteger(n)) && Math.abs(n / m - Math.round(n / m)) > 1e-6);
}

/** A string the pattern refuses, or undefined when none of the candidates is refused. */
function notMatching(pattern: string, min: number, max: number): string | undefined {
  let re: RegExp;
  try {
    re = new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
  const len = Math.max(min, Math.min(max, 4));
  return PATTERN_BREAKERS.map((c) => c.repeat(len)).find((s) => !re.test(s));
}

/**
 * Characters a pattern may refuse, each sent repeated: the usual first, then every printable ASCII character and a
 * few others, so a pattern refusing only some (`^[^<>"']*$`, no markup or quotes) is broken too.
 */
const PATTERN_BREAKERS: readonly string[] = [
  ...new Set(['!', ' ', 'a', '0', 'Z', '-', ...Array.from({ length: 0x7e - 0x20 + 1 }, (_, i) => String.fromCharCode(0x20 + i)), 'é', '中', '😀', '\t']),
];

/**
 * A valid value of a patterned field changed a little (its letters' case swapped, one character more, one less), each
 * kept where the pattern refuses it and its length is still allowed: what a loose match (no anchors, no case) takes.
 */
function nearMisses(model: ServiceModel, f: FieldModel): [string, string][] {
  let re: RegExp;
  try {
    re = new RegExp(f.pattern!, 'u');
  } catch {
    return [];
  }
  const [valid] = fc.sample(fieldArbitrary(model, { ...f, nullable: false, hasExample: false }, undefined, true), { seed: 0x5eed, numRuns: 1 });
  if (typeof valid !== 'string' || !re.test(valid)) return [];
  const chars = [...valid];
  const swapped = chars.map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
  const misses: [string, string][] = [
    ['its case swapped', swapped],
    ['one character more', valid + (chars.at(-1) ?? 'a')],
    ['one character less', chars.slice(0, -1).join('')],
  ];
  const fits = (s: string) => [...s].length >= (f.minLength ?? 0) && [...s].length <= (f.maxLength ?? Infinity);
  return misses.filter(([, s], i) => s !== valid && fits(s) && !re.test(s) && misses.findIndex(([, t]) => t === s) === i);
}

/** Each declared text value with a case variant (upper, lower, capitalized) that is no declared value: [value, variant]. */
export function getCaseVariants(values: readonly (string | number)[]): [string, string][] {
  const out: [string, string][] = [];
  for (const v of values) {
    if (typeof v !== 'string') continue;
    const variants = [v.toUpperCase(), v.toLowerCase(), v.charAt(0).toUpperCase() + v.slice(1)];
    const other = variants.find((x) => x !== v && !values.includes(x));
    if (other !== undefined) out.push([v, other]);
  }
  return out;
}

/** The first declared text value with a case variant that is no declared value: [value, variant]. */
function caseVariant(values: readonly (string | number)[]): [string, string] | undefined {
  return getCaseVariants(values)[0];
}

/** `n` valid items of `items`, no two the same; undefined where its values are too few to draw them. */
function distinctItems(model: ServiceModel, items: FieldModel, n: number): unknown[] | undefined {
  const span =
    items.type === 'enum'
      ? (items.values?.length ?? 0)
      : items.type === 'boolean'
        ? 2
        : items.type === 'integer' && items.minimum !== undefined && items.maximum !== undefined
          ? items.maximum - items.minimum + 1
          : items.type === 'string' && items.maxLength !== undefined && items.maxLength <= 1
            ? 0
            : Infinity;
  if (span < n) return undefined;
  try {
    return fc.sample(fc.uniqueArray(fieldArbitrary(model, items, undefined), { minLength: n, maxLength: n, selector: (v) => JSON.stringify(v) }), {
      seed: 1,
      numRuns: 1,
    })[0];
  } catch {
    return undefined;
  }
}

/** The invalid variants of one field at `path`, derived from its declared constraints. */
function fieldMutations(model: ServiceModel, f: FieldModel, path: readonly (string | number)[], required: boolean): Mutation[] {
  const name = path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
  const out: Mutation[] = [];
  const put = (label: string, value: unknown) => out.push({ label: `${name} ${label}`, condition: 'validation', apply: (b) => setAt(b, path, value) });
  if (required) out.push({ label: `${name} missing (required)`, condition: 'validation', apply: (b) => setAt(b, path, undefined, true) });
  const wrong = wrongType(f);
  if (wrong !== undefined) put(`of the wrong type`, wrong);
  // A number written as text, one the field could hold as a number: a service that converts it (Number(), a loose
  // schema validator's coercion) takes what the declared type refuses.
  const text = numberAsText(f);
  if (text !== undefined) put(`as the string ${JSON.stringify(text)}, of the wrong type`, text);
  if (!isNullableInRequests(f) && f.type !== 'json') put(f.nullable ? 'null (nullable in answers only)' : 'null (not nullable)', null);
  if (['string', 'email', 'uri', 'date', 'datetime', 'uuid'].includes(f.type)) {
    if (f.minLength !== undefined && f.minLength > 0 && f.pattern === undefined) put(`shorter than minLength ${f.minLength}`, 'a'.repeat(f.minLength - 1));
    // One code point short in astral characters, as many UTF-16 units as minLength or more: JSON Schema counts code
    // points, so a service counting `s.length` takes it. A plain string only (a format's text has no emoji).
    if (f.type === 'string' && f.minLength !== undefined && f.minLength > 1 && f.pattern === undefined)
      put(`shorter than minLength ${f.minLength} in code points (astral: ${2 * (f.minLength - 1)} UTF-16 units)`, '😀'.repeat(f.minLength - 1));
    if (f.maxLength !== undefined)
      put(`longer than maxLength ${f.maxLength}`, f.pattern === undefined ? 'a'.repeat(f.maxLength + 1) : 'A'.repeat(f.maxLength + 1));
    if (f.pattern !== undefined) {
      const bad = notMatching(f.pattern, f.minLength ?? 0, f.maxLength ?? 64);
      if (bad !== undefined) put(`not matching pattern ${f.pattern}`, bad);
      // Near misses of a valid value: a service matching without anchors, or ignoring case, takes these.
      for (const [how, miss] of nearMisses(model, f)) put(`not matching pattern ${f.pattern} (${how})`, miss);
    }
    const badFormat: Partial<Record<FieldModel['type'], string>> = {
      email: 'not-an-email',
      uuid: 'not-a-uuid',
      date: '2026-13-45',
      datetime: 'yesterday',
      uri: 'not a uri',
    };
    if (badFormat[f.type] !== undefined) put(`not a valid ${f.type}`, badFormat[f.type]);
    // Each in the other's well-formed text: a service parsing any time (Date.parse) takes both.
    if (f.type === 'date') put('a date-time, not a date', '2026-01-02T03:04:05Z');
    if (f.type === 'datetime') put('a date, not a date-time', '2026-01-02');
  }
  if (f.type === 'integer' || f.type === 'number') {
    // Past a bound by one step of multipleOf where there is one (length 5–720 in fives: 0 and 725, not 4 and 721,
    // which a service checking the step alone refuses too).
    const step = f.multipleOf !== undefined && f.multipleOf > 0 ? f.multipleOf : undefined;
    if (f.minimum !== undefined) put(`below minimum ${f.minimum}`, step !== undefined ? Math.ceil(f.minimum / step) * step - step : f.minimum - 1);
    if (f.maximum !== undefined) put(`above maximum ${f.maximum}`, step !== undefined ? Math.floor(f.maximum / step) * step + step : f.maximum + 1);
    if (f.exclusiveMinimum !== undefined) put(`equal to exclusiveMinimum ${f.exclusiveMinimum}`, f.exclusiveMinimum);
    if (f.exclusiveMaximum !== undefined) put(`equal to exclusiveMaximum ${f.exclusiveMaximum}`, f.exclusiveMaximum);
    if (f.type === 'integer') put('not an integer', 1.5);
    const off = notMultiple(f);
    if (off !== undefined) put(`not a multiple of ${f.multipleOf}`, off);
  }
  if (f.type === 'enum') {
    put(`not one of ${(f.values ?? []).join(', ')}`, '__not_a_declared_value__');
    // A declared value in another case (`PENDING` for `pending`), where that is no declared value itself: enum values
    // are compared exactly, and a service lowercasing (or comparing case-insensitively) takes it.
    const variant = caseVariant(f.values ?? []);
    if (variant !== undefined) put(`${JSON.stringify(variant[1])}, ${JSON.stringify(variant[0])} in another case (not one of its values)`, variant[1]);
  }
  if (f.type === 'array') {
    if (f.minItems !== undefined && f.minItems > 0)
      out.push({ label: `${name} with fewer than minItems ${f.minItems}`, condition: 'validation', apply: (b) => setAt(b, path, []) });
    if (f.maxItems !== undefined && f.maxItems <= 1000) {
      out.push({
        label: `${name} with more than maxItems ${f.maxItems}`,
        condition: 'validation',
        apply: (b) => {
          let arr: unknown = b;
          for (const k of path) arr = (arr as Record<string | number, unknown>)?.[k];
          const first = Array.isArray(arr) && arr.length > 0 ? arr[0] : null;
          // Under uniqueItems, items that differ: copies of one would be refused for repeating, whatever the count.
          const distinct = f.uniqueItems && f.items ? distinctItems(model, f.items, f.maxItems! + 1) : undefined;
          return setAt(b, path, distinct ?? Array.from({ length: f.maxItems! + 1 }, () => clone(first)));
        },
      });
    }
  }
  if (f.type === 'array' && f.uniqueItems && (f.maxItems === undefined || f.maxItems >= 2)) {
    out.push({
      label: `${name} with a repeated item (uniqueItems)`,
      condition: 'validation',
      apply: (b) => {
        let arr: unknown = b;
        for (const k of path) arr = (arr as Record<string | number, unknown>)?.[k];
        // An empty list drawn: two copies of one valid item (two nulls would be refused for being null, not repeated).
        if (!Array.isArray(arr) || arr.length === 0) {
          const item =
            f.items && f.items.type !== 'ref'
              ? fc.sample(fieldArbitrary(model, { ...f.items, nullable: false }, undefined, true), { seed: 0x5eed, numRuns: 1 })[0]
              : null;
          return setAt(b, path, [item, clone(item)]);
        }
        return setAt(b, path, [...arr.slice(0, Math.max(1, Math.min(arr.length, (f.maxItems ?? 2) - 1))), clone(arr[0])]);
      },
    });
  }
  // A nested read-only member is the service's to set: no request sends it (the valid bodies leave it out), so its
  // absence or its type is nothing to refuse.
  if (f.type === 'object') {
    out.push({ label: `${name} with an unknown field`, condition: 'validation', apply: (b) => setAt(b, [...path, '__unknown_field__'], 1) });
    for (const sub of f.fields ?? []) if (isWritable(undefined, sub, 'create')) out.push(...fieldMutations(model, sub, [...path, sub.name], !mayLeaveOut(sub)));
  }
  if (f.type === 'array' && f.items?.type === 'object') {
    for (const sub of f.items.fields ?? [])
      if (isWritable(undefined, sub, 'create')) out.push(...fieldMutations(model, sub, [...path, 0, sub.name], !mayLeaveOut(sub)));
  }
  // A list of union values (Cal.com's locations): its first item broken as a union field is, set whole.
  if (f.type === 'array' && f.items?.type === 'union' && f.items.union && (f.minItems ?? 0) <= 1 && f.maxItems !== 0) {
    for (const m of unionMutations(model, f.items.union, ['item'])) {
      const bad = m.apply({ item: null }).item;
      out.push({ label: `${name}[0]${m.label.slice('item'.length)}`, condition: m.condition, apply: (b) => setAt(b, path, [bad]) });
    }
  }
  // A list of values (tags, emails): one item breaking the item's own type or constraints, sent as the whole list
  // (one item where the list may hold one), so a drawn empty list is no obstacle: a service checking the list but
  // not its items (a tag past its maxLength stored) is caught.
  if (f.type === 'array' && f.items && SCALAR_ITEM_TYPES.has(f.items.type) && (f.minItems ?? 0) <= 1 && f.maxItems !== 0) {
    const item = f.items;
    for (const m of fieldMutations(model, item, ['item'], false)) {
      const bad = m.apply({ item: null }).item;
      out.push({ label: `${name}[0] ${m.label.slice('item '.length)}`, condition: m.condition, apply: (b) => setAt(b, path, [bad]) });
    }
  }
  // A map (metadata): one member whose value breaks the value's own type or constraints, sent as the whole map, so a
  // service checking the map but not its values (a value past its maxLength stored) is caught.
  if (f.type === 'map' && f.items && SCALAR_ITEM_TYPES.has(f.items.type)) {
    for (const m of fieldMutations(model, f.items, ['item'], false)) {
      const bad = m.apply({ item: null }).item;
      out.push({ label: `${name}.key ${m.label.slice('item '.length)}`, condition: m.condition, apply: (b) => setAt(b, path, { key: bad }) });
    }
  }
  if (f.type === 'union' && f.union) out.push(...unionMutations(model, f.union, path));
  return out;
}

/**
 * A resource of several shapes: the fields a body of the variant `tag` names may hold (the shared ones and its own;
 * not the tag, which says the variant and so is no edge or mutation of it). Every field for another resource.
 */
export function getVariantFields(resource: ResourceModel, fields: readonly FieldModel[], tag: unknown): readonly FieldModel[] {
  const u = resource.variants;
  if (u?.discriminator === undefined) return fields;
  const v = u.variants.find((x) => x.tag === tag);
  return fields.filter((f) => f.name !== u.discriminator && (f.ofVariants === undefined || (v !== undefined && f.ofVariants.includes(v.name))));
}

/**
 * Every invalid variant of a body of `fields` (in `view`): each constraint broken, wrong types, an unknown field,
 * each read-only field sent, a reference to nothing.
 */
export function getMutations(
  model: ServiceModel,
  fields: readonly FieldModel[],
  resource: ResourceModel | undefined,
  view: SchemaView,
  bodyFields?: readonly FieldModel[],
): Mutation[] {
  const out: Mutation[] = [{ label: 'an unknown field', condition: 'validation', apply: (b) => ({ ...b, __unknown_field__: 'x' }) }];
  for (const f of bodyFields ?? fields) {
    if (!isWritable(resource, f, view)) continue;
    out.push(...fieldMutations(model, f, [f.name], view !== 'update' && !mayLeaveOut(f, view)));
    if (f.type === 'ref' && getResource(model, f.to)?.identifier !== undefined) {
      const target = getResource(model, f.to)!;
      const idField = target.fields.find((x) => x.name === target.identifier);
      const missing = idField ? missingIdentifier(idField) : '00000000-0000-4000-8000-000000000000';
      out.push({ label: `${f.name} referring to no ${f.to}`, condition: 'reference_not_found', apply: (b) => ({ ...b, [f.name]: missing }) });
    }
  }
  if (resource) {
    // Every field of the resource, not only those the request takes (request_fields): a read-only one is the format's
    // rule wherever it is sent.
    for (const f of resource.fields) {
      if (isWritable(resource, f, view) || !isWritable(resource, f, 'response')) continue;
      if (view === 'update' && f.writeOnce && !f.readOnly) {
        // A value the field could hold (its pattern, bounds, format), so that only its being write-once refuses it:
        // 'x' against a pattern is refused by a service that lets the field be changed. A reference keeps the
        // plain sample: a drawn identifier names nothing, which is refused for that.
        const value = f.type === 'ref' ? sampleOf(f) : fc.sample(fieldArbitrary(model, { ...f, nullable: false }, resource), { seed: 0x5eed, numRuns: 1 })[0];
        out.push({ label: `${f.name} (write-once) sent in an update`, condition: 'validation', apply: (b) => ({ ...b, [f.name]: value }) });
        continue;
      }
      // A value the field could hold (an enum's, a state's): 'x' would be refused as no value of it, whether or not
      // the service takes the field.
      const machine = f.type === 'state' ? model.stateMachines.find((m) => m.resource === resource.name && (m.field ?? f.name) === f.name) : undefined;
      const value = f.values?.at(-1) ?? machine?.states.at(-1)?.name ?? readOnlySample(f);
      out.push({ label: `${f.name} (read-only) sent`, condition: 'validation', apply: (b) => ({ ...b, [f.name]: value }) });
    }
  }
  return out;
}

/**
 * An identifier in the identifier field's own form (type, pattern, length) that names no object: a malformed one
 * would be refused as `validation`, not as `reference_not_found`.
 */
export function missingIdentifier(id: FieldModel): unknown {
  if (id.type === 'integer') return Math.min(2_000_000_000, id.maximum ?? Infinity, id.exclusiveMaximum !== undefined ? id.exclusiveMaximum - 1 : Infinity);
  if (id.type !== 'string' || (id.pattern === undefined && id.minLength === undefined && id.maxLength === undefined))
    return '00000000-0000-4000-8000-000000000000';
  // Drawn with a fixed seed from the field's own generator, far from the values a run's objects get.
  return fc.sample(stringArbitrary({ ...id, hasExample: false }), { seed: 0x5eed, numRuns: 20 }).reverse()[0] ?? '00000000-0000-4000-8000-000000000000';
}

/**
 * A number a read-only field is sent that the service would not make itself in a run (an identifier counting from 1
 * reaches it never), where the field's bounds take it, so that an answer holding it shows it stored
 * (checkReadOnlyEither): Django REST Framework's `id` taken from a create's body. Else sampleOf's.
 */
export const READ_ONLY_NUMBER = 7340033;

function readOnlySample(f: FieldModel): unknown {
  const n = READ_ONLY_NUMBER;
  const fits =
    (f.minimum === undefined || n >= f.minimum) &&
    (f.maximum === undefined || n <= f.maximum) &&
    (f.exclusiveMinimum === undefined || n > f.exclusiveMinimum) &&
    (f.exclusiveMaximum === undefined || n < f.exclusiveMaximum) &&
    f.multipleOf === undefined;
  if ((f.type === 'integer' || f.type === 'number') && fits) return n;
  // A plain text of its own, where nothing constrains it: a comment's `author` taken from the body shows.
  const text = READ_ONLY_TEXT;
  if (f.type === 'string' && f.pattern === undefined && (f.maxLength === undefined || f.maxLength >= text.length) && (f.minLength ?? 0) <= text.length)
    return text;
  return sampleOf(f);
}

/** The text a plain read-only string field is sent (readOnlySample): 8 characters or more, so a stored one shows. */
export const READ_ONLY_TEXT = 'servicespec-read-only';

/** A plausible value of a field's type, for sending a field that must not be sent. */
function sampleOf(f: FieldModel): unknown {
  switch (f.type) {
    case 'uuid':
    case 'ref':
      return '00000000-0000-4000-8000-000000000001';
    case 'datetime':
      return '2026-01-01T00:00:00.000Z';
    case 'date':
      return '2026-01-01';
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    default:
      return 'x';
  }
}

/**
 * A body as a JSON merge patch (RFC 7396) must say it to mean it whole: a union field's object merges into the
 * stored variant, so each member of another variant it does not hold is sent as null (removed; a no-op where
 * absent). The merged value is then the variant sent, and a variant left without a required member is one.
 */
export function padUnionsForMergePatch(resource: ResourceModel, body: Record<string, unknown>): Record<string, unknown> {
  let out = body;
  for (const f of resource.fields) {
    const v = body[f.name];
    if (f.type !== 'union' || !f.union || v === null || typeof v !== 'object' || Array.isArray(v)) continue;
    const held = v as Record<string, unknown>;
    const nulls: Record<string, null> = {};
    for (const variant of f.union.variants)
      for (const m of variant.fields) if (m.name !== f.union.discriminator && !Object.hasOwn(held, m.name)) nulls[m.name] = null;
    if (Object.keys(nulls).length > 0) out = { ...out, [f.name]: { ...nulls, ...held } };
  }
  return out;
}

/** JSON with object members in name order: the same value whatever order a service writes members in. */
export const sortedJson = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x,
  );

export const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Whether `actual` holds an `expected` null (sent, or a default) by leaving the optional field `f` out: an open answer
 * (an imported schema without additionalProperties: false) may leave out a member it does not require (FastAPI's
 * response_model_exclude_none=True drops every null; JSON Schema allows both).
 */
export function nullLeftOut(r: Pick<ResourceModel, 'answerMembers'>, f: Pick<FieldModel, 'optional'> | undefined, actual: unknown, expected: unknown): boolean {
  return r.answerMembers === 'open' && expected === null && actual === undefined && f?.optional === true;
}

/**
 * A value as sent (JSON equal): what a create, a replace and the format's update keep. Where answers may carry
 * members the resource does not name (\`answer_members: open\`), an object answered holds what was sent and may hold more.
 */
export function heldAsSent(r: Pick<ResourceModel, 'answerMembers' | 'fields'>, k: string, actual: unknown, sent: unknown): boolean {
  if (
    nullLeftOut(
      r,
      r.fields.find((f) => f.name === k),
      actual,
      sent,
    )
  )
    return true;
  return r.answerMembers === 'open'
    ? holdsSent(actual, sent)
    : heldField(
        r.fields.find((f) => f.name === k),
        actual,
        sent,
      );
}

/**
 * A value as sent, where the answer may add what the service sets in a nested object (a read-only member, as
 * Shopify's `variants[].id`; a member left out that has a default): every member sent is held, nothing else added.
 */
function heldField(f: FieldModel | undefined, actual: unknown, sent: unknown): boolean {
  if (f?.type === 'object' && f.fields && isPlainObject(sent)) {
    if (!isPlainObject(actual)) return false;
    const fields = f.fields;
    const added = (k: string) => {
      const sub = fields.find((x) => x.name === k);
      return sub !== undefined && (sub.readOnly || sub.type === 'state' || sub.hasDefault);
    };
    return (
      Object.entries(sent).every(([k, v]) =>
        heldField(
          fields.find((x) => x.name === k),
          actual[k],
          v,
        ),
      ) && Object.keys(actual).every((k) => Object.hasOwn(sent, k) || added(k))
    );
  }
  if (f?.type === 'array' && f.items && Array.isArray(sent))
    return Array.isArray(actual) && actual.length === sent.length && sent.every((v, i) => heldField(f.items, actual[i], v));
  return JSON.stringify(actual) === JSON.stringify(sent);
}

function holdsSent(actual: unknown, sent: unknown): boolean {
  if (isPlainObject(sent)) return isPlainObject(actual) && Object.entries(sent).every(([k, v]) => holdsSent(actual[k], v));
  if (Array.isArray(sent)) return Array.isArray(actual) && actual.length === sent.length && sent.every((v, i) => holdsSent(actual[i], v));
  return JSON.stringify(actual) === JSON.stringify(sent);
}

/**
 * A value as a merge patch (RFC 7396) leaves it: an object member by member, a `null` removed. Where answers may carry
 * members the resource does not name (\`answer_members: open\`), an object answered, in a list too, may hold more.
 */
export function heldAsPatched(
  r: ResourceModel | { fields?: readonly FieldModel[] },
  k: string,
  actual: unknown,
  sent: unknown,
  open = 'answerMembers' in r && r.answerMembers === 'open',
): boolean {
  const f = r.fields?.find((x) => x.name === k);
  // A field both optional and nullable may be answered absent or null after it: the two say the same to a client
  // (GitHub answers `homepage: null`).
  if (sent === null) return f?.nullable ? actual === null || (f.optional && actual === undefined) : actual === undefined;
  if (isPlainObject(sent) && (f?.type === 'object' || f?.type === 'map' || f?.type === 'json'))
    return isPlainObject(actual) && Object.entries(sent).every(([sk, sv]) => heldAsPatched(f, sk, actual[sk], sv, open));
  // A union said whole (padUnionsForMergePatch): the variant sent, its nulls removed, in any member order.
  if (isPlainObject(sent) && f?.type === 'union')
    return isPlainObject(actual) && sortedJson(actual) === sortedJson(Object.fromEntries(Object.entries(sent).filter(([, x]) => x !== null)));
  return open ? holdsSent(actual, sent) : JSON.stringify(actual) === JSON.stringify(sent);
}

/**
 * A custom operation's request body: a named resource's create shape, a union's variants, or its own fields;
 * a list of one to three of them where the request is a list. With the resource, for uniqueness.
 */
export function getCustomBodyArbitrary(
  model: ServiceModel,
  request: NonNullable<OperationModel['request']>,
): { arbitrary: fc.Arbitrary<unknown>; resource: ResourceModel | undefined } {
  const resource = request.resource !== undefined ? model.resources.find((r) => r.name === request.resource) : undefined;
  const one = resource
    ? objectArbitrary(model, resource.fields, resource, 'create')
    : request.union
      ? unionArbitrary(model, request.union)
      : objectArbitrary(model, sendableFields(request), undefined, 'create');
  return { arbitrary: request.list ? fc.array(one, { minLength: 1, maxLength: 3 }) : one, resource };
}

/**
 * A custom operation's request fields as a valid request can send them. A form (request.media_type) carries text
 * only: no null (String(null) is the text `null`), and no empty list, a list being its name repeated (none is the
 * field left out, which a required one may not be): there a required list holds an item at least, and no field null.
 * Twilio's messaging forms (fifth sweep): `UseCaseCategories: null` and `MessageSamples: []` were sent as valid and
 * refused by serve, failing endpoints.valid-requests and input-space.
 */
export function sendableFields(request: Pick<NonNullable<OperationModel['request']>, 'fields' | 'mediaType'>): readonly FieldModel[] {
  const fields = request.fields ?? [];
  if (request.mediaType !== FORM_MEDIA_TYPE) return fields;
  return fields.map((f) => ({
    ...f,
    nullable: false,
    ...(f.type === 'array' && !f.optional && f.maxItems !== 0 ? { minItems: Math.max(1, f.minItems ?? 0) } : {}),
  }));
}

/**
 * Valid values of declared parameters (query or headers). A required array holds one item at least: an empty one is
 * no parameter on the wire (the items are repeated), so the request would lack it (sms77's `number`).
 */
export function parametersArbitrary(model: ServiceModel, params: readonly ParameterModel[], complete = false): fc.Arbitrary<Record<string, unknown>> {
  const sendable = params.map((p) => (p.type === 'array' && !p.optional && !p.hasDefault && !((p.minItems ?? 0) > 0) ? { ...p, minItems: 1 } : p));
  return objectArbitrary(model, sendable, undefined, 'create', complete);
}
