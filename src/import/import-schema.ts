import { getValueProblem } from '../check/check-rules.js';
import type { Diagnostic, DiagnosticCode, DiagnosticParams } from '../diagnostics/diagnostics-catalogue.js';
import type { FieldModel } from '../model/model-types.js';
import { createDiagnostic } from '../diagnostics/diagnostics-catalogue.js';
import { joinPointer } from '../util/util-json-pointer.js';
import type { FieldSpec, FieldType, ShapeSpec, VariantSpec } from '../spec/spec-types.js';
import { toFieldName, UniqueNames } from './import-names.js';

// JSON Schema (OpenAPI 3.0 or 3.1 dialect) → the spec's fields. `$ref`s are followed inside the one bundled
// document; a schema that refers to itself becomes a `json` field where the cycle closes. Nothing is invented:
// what has no field type of its own (a map, a oneOf) becomes `json` and is reported.

export type Json = Record<string, unknown>;

export interface Resolved {
  node: unknown;
  /** The JSON pointer of the node the references ended at. */
  pointer: string;
  /** Every pointer passed through, the first one included. */
  chain: string[];
}

export interface SchemaContext {
  root: Json;
  version: '3.0' | '3.1';
  file: string;
  diagnostics: Diagnostic[];
  /** Component pointer (`#/components/schemas/X`) → resource name, for the components that are resources. */
  resources: Map<string, string>;
  /** The component pointers of the resources of several shapes (a tagged union each): read as the resource, not a union. */
  resourceUnions?: Set<string>;
  /** The document is a servicespec export: what it says is the spec's own, examples included, and is kept as it is. */
  fromServicespec?: boolean;
}

/**
 * The component each `fields` or `variants` object the import made was read from (`#/components/schemas/Address` →
 * `Address`): the name import-shapes.ts gives a shape it writes once for its many uses. Keyed by the objects
 * themselves, so nothing outlives the import that made them.
 */
export const componentOfShape = new WeakMap<object, string>();

function noteComponent(ctx: SchemaContext, made: object, node: unknown, pointer: string): void {
  const name = resolve(ctx, node, pointer)
    .chain.slice(1)
    .map(componentName)
    .find((n) => n !== undefined);
  if (name !== undefined) componentOfShape.set(made, name);
}

/**
 * The named shape a servicespec export wrote this schema for (`x-servicespec-shape` on the shape's component, read
 * through the use's `$ref`), or undefined: the export says its shapes itself (x-servicespec-shapes), so its uses are
 * read back by name.
 */
function exportedShape(ctx: SchemaContext, s: Json): string | undefined {
  const name = s['x-servicespec-shape'];
  return ctx.fromServicespec === true && typeof name === 'string' ? name : undefined;
}

/** The description a use of a component writes beside its reference (`{ $ref, description }`, 3.0's `allOf`), or undefined. */
function ownDescription(node: unknown): unknown {
  return isObject(node) ? node.description : undefined;
}

/** Fields nest at most this deep; deeper schemas become `json` (the spec loader limits nesting too). */
export const MAX_FIELD_DEPTH = 8;

export function report<C extends DiagnosticCode>(
  ctx: { file: string; diagnostics: Diagnostic[] },
  code: C,
  params: DiagnosticParams<C>,
  pointer?: string,
): void {
  ctx.diagnostics.push(createDiagnostic(code, params, pointer === undefined ? { file: ctx.file } : { file: ctx.file, pointer }));
}

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function unescape(token: string): string {
  return decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
}

export function getByPointer(root: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '#') return root;
  const tokens = pointer.replace(/^#/, '').split('/').slice(1).map(unescape);
  let node: unknown = root;
  for (const t of tokens) {
    if (Array.isArray(node)) node = node[Number(t)];
    else if (isObject(node)) node = Object.prototype.hasOwnProperty.call(node, t) ? node[t] : undefined;
    else return undefined;
  }
  return node;
}

/** Follows `$ref`s (internal ones: the document is bundled first). 3.1 siblings of `$ref` override the target. */
export function resolve(ctx: { root: Json; version: '3.0' | '3.1' }, node: unknown, pointer: string): Resolved {
  const chain = [pointer];
  let current = node;
  let at = pointer;
  let siblings: Json | undefined;
  for (let i = 0; i < 64 && isObject(current) && typeof current.$ref === 'string'; i++) {
    const ref = current.$ref;
    if (ctx.version === '3.1') {
      const { $ref: _ref, ...rest } = current;
      if (Object.keys(rest).length > 0) siblings = { ...rest, ...siblings };
    }
    if (!ref.startsWith('#')) return { node: undefined, pointer: at, chain };
    at = ref;
    if (chain.includes(at)) return { node: undefined, pointer: at, chain };
    chain.push(at);
    current = getByPointer(ctx.root, ref);
  }
  if (siblings && isObject(current)) current = { ...current, ...siblings };
  return { node: current, pointer: at, chain };
}

/** Whether a property's schema says `readOnly` (or `writeOnly`), itself or in a part of its own `allOf` (one level down only). */
function isMarked(ctx: SchemaContext, node: unknown, pointer: string, key: 'readOnly' | 'writeOnly'): boolean {
  const s = resolve(ctx, node, pointer).node;
  if (!isObject(s)) return false;
  return s[key] === true || (Array.isArray(s.allOf) && s.allOf.some((p) => (resolve(ctx, p, pointer).node as Json | undefined)?.[key] === true));
}

/** allOf parts merged into one schema: properties and required united, other keywords from the first that has them. */
function mergeAllOf(ctx: SchemaContext, s: Json, pointer: string, seen: string[]): { schema: Json; refs: string[] } {
  if (!Array.isArray(s.allOf)) return { schema: s, refs: [] };
  const { allOf, ...rest } = s;
  const out: Json = { ...rest };
  const properties: Json = isObject(rest.properties) ? { ...rest.properties } : {};
  const required = new Set<string>(Array.isArray(rest.required) ? (rest.required as string[]) : []);
  const refs: string[] = [];
  const marked = { readOnly: new Set<string>(), writeOnly: new Set<string>() };
  const noteReadOnly = (props: Json) => {
    for (const [k, v] of Object.entries(props)) for (const key of ['readOnly', 'writeOnly'] as const) if (isMarked(ctx, v, pointer, key)) marked[key].add(k);
  };
  noteReadOnly(properties);
  (allOf as unknown[]).forEach((part, i) => {
    const r = resolve(ctx, part, joinPointer(joinPointer(pointer, 'allOf'), i));
    refs.push(...r.chain.slice(1));
    if (!isObject(r.node) || r.chain.slice(1).some((p) => seen.includes(p))) return;
    const inner = mergeAllOf(ctx, r.node, r.pointer, [...seen, ...r.chain.slice(1)]);
    refs.push(...inner.refs);
    for (const [k, v] of Object.entries(inner.schema)) {
      if (k === 'properties' && isObject(v)) {
        noteReadOnly(v);
        Object.assign(properties, v);
      } else if (k === 'required' && Array.isArray(v)) for (const n of v) required.add(String(n));
      else if (!(k in out)) out[k] = v;
    }
  });
  // A property several parts declare is read-only where any of them says so (a Stripe-style base's `object: { readOnly }`
  // re-declared with an enum by its subtype): the part read last must not make it writable, and required in creates.
  // So is `writeOnly` (a base's `password: { writeOnly: true }`): a subtype's re-declaration must not leak it in answers.
  for (const key of ['readOnly', 'writeOnly'] as const)
    for (const k of marked[key]) {
      const v = properties[k];
      if (!isObject(v) || isMarked(ctx, v, pointer, key)) continue;
      properties[k] = typeof v.$ref === 'string' && ctx.version === '3.0' ? { allOf: [v], [key]: true } : { ...v, [key]: true };
    }
  if (Object.keys(properties).length > 0) out.properties = properties;
  if (required.size > 0) out.required = [...required];
  return { schema: out, refs };
}

/** A schema with its references followed and its allOf merged. */
export function flatten(
  ctx: SchemaContext,
  node: unknown,
  pointer: string,
  seen: string[] = [],
): { schema: Json | undefined; pointer: string; refs: string[] } {
  const r = resolve(ctx, node, pointer);
  if (!isObject(r.node)) return { schema: undefined, pointer: r.pointer, refs: r.chain.slice(1) };
  const m = mergeAllOf(ctx, r.node, r.pointer, [...seen, ...r.chain.slice(1)]);
  return { schema: m.schema, pointer: r.pointer, refs: [...r.chain.slice(1), ...m.refs] };
}

function types(s: Json): string[] {
  if (typeof s.type === 'string') return [s.type];
  if (Array.isArray(s.type)) return s.type.map(String);
  return [];
}

/** `{ anyOf: [X, {type: null}] }` → X, and whether null was one of the choices. */
export function unwrapNull(ctx: SchemaContext, s: Json, pointer: string): { schema: Json; pointer: string; nullable: boolean } {
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = s[key];
    if (!Array.isArray(list) || list.length !== 2) continue;
    const nullAt = list.findIndex((x) => isObject(x) && (x.type === 'null' || (Array.isArray(x.enum) && x.enum.length === 1 && x.enum[0] === null)));
    if (nullAt < 0) continue;
    const other = list[1 - nullAt];
    const { [key]: _drop, ...rest } = s;
    const f = flatten(ctx, other, joinPointer(joinPointer(pointer, key), 1 - nullAt));
    if (!f.schema) continue;
    return { schema: { ...f.schema, ...rest }, pointer: f.pointer, nullable: true };
  }
  return { schema: s, pointer, nullable: false };
}

const STRING_FORMATS: Record<string, FieldType> = { date: 'date', 'date-time': 'datetime', uuid: 'uuid', email: 'email', uri: 'uri' };
const QUIET_FORMATS = new Set(['int32', 'int64', 'float', 'double', 'integer', 'number']);

/**
 * String formats with no field type of their own that a pattern says exactly (JSON Schema's `ipv4`: RFC 2673's
 * dotted quad; `hostname`: RFC 1123's labels): kept as that pattern, so that the served contract and the tester's
 * values hold them, where a plain string would take any text.
 */
const FORMAT_PATTERNS: Readonly<Record<string, string>> = {
  ipv4: '^(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(?:\\.(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}$',
  hostname: '^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$',
};
const STRING_CONSTRAINTS = ['minLength', 'maxLength', 'pattern'] as const;

/**
 * A document's pattern as the format's (Unicode) regular expression: itself when valid; else, when it is valid
 * without the Unicode flag, the same expression with its identity escapes of punctuation written plainly (ably's
 * `rel=\"next\"`: `\"` means `"` there, and is an error with the flag); else undefined.
 */
export function toUnicodePattern(pattern: string): string | undefined {
  const valid = (p: string, flags: string) => {
    try {
      new RegExp(p, flags);
      return true;
    } catch {
      return false;
    }
  };
  if (valid(pattern, 'u')) return pattern;
  if (!valid(pattern, '')) return undefined;
  // `\-` stays: inside a class it is a literal hyphen, and `-` there would make a range.
  const plain = pattern.replace(/\\(\\|[^A-Za-z0-9^$.*+?()[\]{}|/-])/g, (m, c: string) => (c === '\\' ? m : c));
  return valid(plain, 'u') ? plain : undefined;
}
const NUMBER_CONSTRAINTS = ['minimum', 'maximum', 'multipleOf'] as const;

/** Formats that say a number is an integer (OpenAPI's data types). */
const INTEGER_FORMATS: ReadonlySet<string> = new Set(['int32', 'int64']);
const INT32 = { minimum: -2147483648, maximum: 2147483647 } as const;

/**
 * `format: int32` is a range (OpenAPI: signed 32 bits), which validators of the original hold answers to (Prism
 * flagged a served count the tester had sent as 2^40): kept as the bounds it states, within any the schema gives.
 */
function withInt32Range(out: Record<string, unknown>): void {
  for (const [plain, ex, edge, tighter] of [
    ['minimum', 'exclusiveMinimum', INT32.minimum, Math.max],
    ['maximum', 'exclusiveMaximum', INT32.maximum, Math.min],
  ] as const) {
    if (typeof out[plain] === 'number') out[plain] = tighter(out[plain], edge);
    else if (typeof out[ex] === 'number') {
      if (tighter(out[ex], edge) !== out[ex]) {
        delete out[ex];
        out[plain] = edge;
      }
    } else out[plain] = edge;
  }
}
const ARRAY_CONSTRAINTS = ['minItems', 'maxItems', 'uniqueItems'] as const;

export interface FieldOptions {
  /** Where the field is, in words, for diagnostics ("resource Pet field tag"). */
  where: string;
  depth: number;
  /** Component pointers being expanded (a reference back to one of them closes a cycle). */
  stack: string[];
  /** A resource's own field: OpenAPI's `writeOnly` becomes the field's (elsewhere the format has no write-only field). */
  writeOnly?: boolean;
  /**
   * A resource's own fields: two whose names differ only in case (Grafana's `xAxis` and `xaxis` in meshery's Panel)
   * would be one stored column (check's name-case-clash), so the second is renamed.
   */
  caseless?: boolean;
}

/** The diagnostics saying a boolean of one value is read as a boolean (forgetOneValueBooleans takes them back). */
const oneValueBooleans = new WeakSet<Diagnostic>();

/**
 * Takes back what was said of the booleans of one value at these pointers: each is a constant written on every answer
 * (an envelope's, an error body's), so a boolean's other value is never written and nothing is approximated.
 */
export function forgetOneValueBooleans(ctx: SchemaContext, pointers: ReadonlySet<string>): void {
  for (let i = ctx.diagnostics.length - 1; i >= 0; i--) {
    const d = ctx.diagnostics[i]!;
    if (oneValueBooleans.has(d) && d.pointer !== undefined && pointers.has(d.pointer)) ctx.diagnostics.splice(i, 1);
  }
}

function approximated(ctx: SchemaContext, where: string, as: string, reason: string, pointer: string): void {
  report(ctx, 'import-approximated', { item: where, as, reason }, pointer);
}

/** Validation keywords the format has no counterpart of (docs/import.md, "What is not kept"). */
const UNKEPT_KEYWORDS = [
  'minProperties',
  'maxProperties',
  'patternProperties',
  'propertyNames',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'if',
  'then',
  'else',
  'contains',
  'minContains',
  'maxContains',
  'prefixItems',
  'unevaluatedItems',
] as const;

/** Each such keyword of a schema said where it is (import-dropped), once however often the schema is read. */
function reportUnkept(ctx: SchemaContext, s: Json, pointer: string, where: string): void {
  if (ctx.fromServicespec === true) return;
  for (const k of UNKEPT_KEYWORDS) {
    if (!(k in s)) continue;
    const at = joinPointer(pointer.replace(/^#/, ''), k);
    if (ctx.diagnostics.some((d) => d.code === 'import-dropped' && d.pointer === at)) continue;
    report(ctx, 'import-dropped', { item: `${where}: ${k}`, reason: 'the format has no such constraint, so the served contract does not hold it' }, at);
  }
}

/**
 * The values of a `oneOf` or `anyOf` whose every choice is constants (`const`, or an `enum`; `{type: null}` or a null
 * constant among them), when they are strings and numbers: the values, null included; else undefined.
 */
function constChoices(ctx: SchemaContext, s: Json): unknown[] | undefined {
  const list = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;
  if (list === undefined || list.length === 0 || isObject(s.properties)) return undefined;
  const values: unknown[] = [];
  for (const x of list) {
    const o = resolve(ctx, x, '').node;
    if (!isObject(o)) return undefined;
    // A choice of enums is an enum of them all: drf-spectacular writes a model field with choices, blank=True and
    // null=True as `oneOf: [StatusEnum, BlankEnum, NullEnum]` (BlankEnum `enum: ['']`, NullEnum `enum: [null]`).
    const vs = 'const' in o ? [o.const] : Array.isArray(o.enum) && o.enum.length > 0 ? o.enum : o.type === 'null' ? [null] : undefined;
    if (vs === undefined) return undefined;
    for (const v of vs) {
      if (!(v === null || typeof v === 'string' || typeof v === 'number')) return undefined;
      if (!values.includes(v)) values.push(v);
    }
  }
  return values.some((v) => v !== null) ? values : undefined;
}

/** One field from its schema. */
export function fieldFromSchema(ctx: SchemaContext, node: unknown, pointer: string, opts: FieldOptions): FieldSpec {
  const flat = flatten(ctx, node, pointer, opts.stack);
  if (flat.refs.some((p) => opts.stack.includes(p))) {
    approximated(ctx, opts.where, 'type json', 'its schema refers back to itself', pointer);
    return { type: 'json' };
  }
  if (!flat.schema) return { type: 'json' };
  const stack = [...opts.stack, ...flat.refs];
  const un = unwrapNull(ctx, flat.schema, flat.pointer);
  let s = un.schema;
  const at = un.pointer;
  reportUnkept(ctx, s, at, opts.where);
  if (Array.isArray(s.enum) && s.enum.length === 0 && ctx.fromServicespec !== true) {
    // An enum of no values allows no value at all (Discord's join request `action`: `enum: []` beside an allOf naming
    // the values), which no field can hold (check's enum-needs-values refused the whole import): left out, said, and
    // the rest of the schema read. A servicespec export's enum of no values reads back as it was, below.
    report(
      ctx,
      'import-dropped',
      { item: `${opts.where}: enum []`, reason: 'an enum of no values allows no value at all, and a field holds some; the rest of its schema is kept' },
      joinPointer(at, 'enum'),
    );
    const { enum: _empty, ...rest } = s;
    s = rest;
  }
  // A choice of constants (`oneOf: [{const: STARTED, title: …}, …]`, Discord's every enum) is an enum of them; before,
  // beside `type: string` it was read as a plain string, any text taken, and nothing said.
  const choices = ctx.fromServicespec === true || Array.isArray(s.enum) || 'const' in s ? undefined : constChoices(ctx, s);
  let nullable = un.nullable || s.nullable === true || (Array.isArray(s.enum) && s.enum.includes(null));
  const ext = isObject(s['x-servicespec-field']) ? (s['x-servicespec-field'] as Json) : {};
  const t = types(s).filter((x) => {
    if (x === 'null') nullable = true;
    return x !== 'null';
  });
  const field: Json = {};
  let type: FieldType;
  /** A string format a pattern says exactly (FORMAT_PATTERNS), where the schema states no pattern of its own. */
  let formatPattern: string | undefined;
  let union: UnionShape | undefined;
  const extType = typeof ext.type === 'string' ? (ext.type as FieldType) : undefined;
  if (extType === 'ref' || extType === 'state') {
    type = extType;
  } else if (Array.isArray(s.enum) || 'const' in s || choices !== undefined) {
    const raw = Array.isArray(s.enum) ? (s.enum as unknown[]) : 'const' in s ? [s.const] : choices!;
    if (raw.includes(null)) nullable = true;
    const values = raw.filter((v) => v !== null);
    if (values.every((v) => typeof v === 'string' || typeof v === 'number') && values.length > 0) {
      type = 'enum';
      field.values = values;
    } else if (values.length === 0 && raw.length > 0 && ctx.fromServicespec !== true) {
      // An enum of null alone (Lob's tracking event details, "null for type=normal"): the format has no enum without
      // values (check's enum-needs-values refused the whole import), so any value, null kept. A servicespec export's
      // enum of no values (nullable) reads back as it was.
      type = 'json';
      approximated(ctx, opts.where, 'type json', 'an enum of null alone: the format has no type holding only null', at);
    } else if (values.length === 0) {
      type = 'enum';
    } else {
      type = t[0] === 'boolean' ? 'boolean' : 'json';
      if (type === 'json') approximated(ctx, opts.where, 'type json', 'an enum of values other than strings and numbers', at);
      // `accepted: { enum: [true] }`: the format's boolean holds both values, so a request holding the other one is
      // taken (an answer's envelope or error body writes the one value: import-envelope.ts, withErrorConstants).
      else if (new Set(values).size === 1 && ctx.fromServicespec !== true) {
        approximated(ctx, opts.where, 'type boolean', `the document allows ${JSON.stringify(values[0])} alone, and a boolean field holds true and false`, at);
        oneValueBooleans.add(ctx.diagnostics[ctx.diagnostics.length - 1]!);
      }
    }
  } else if (t.length > 1) {
    type = 'json';
    approximated(ctx, opts.where, 'type json', `it may be any of ${t.join(', ')}`, at);
  } else if (t[0] === 'string') {
    // `properties` beside `type: string` (ably's `registrationToken`) constrain no value of it: said, not kept.
    if (isObject(s.properties) && Object.keys(s.properties).length > 0 && ctx.fromServicespec !== true)
      report(
        ctx,
        'import-dropped',
        {
          item: `${opts.where}: properties ${Object.keys(s.properties).join(', ')}`,
          reason: 'the schema is a string, which has no properties (they apply to objects only)',
        },
        joinPointer(at, 'properties'),
      );
    const format = typeof s.format === 'string' ? s.format : undefined;
    type = (format !== undefined ? STRING_FORMATS[format] : undefined) ?? 'string';
    if (format !== undefined && FORMAT_PATTERNS[format] !== undefined && typeof s.pattern !== 'string' && ctx.fromServicespec !== true) {
      formatPattern = FORMAT_PATTERNS[format];
      approximated(ctx, opts.where, 'type string with a pattern', `format \`${format}\` has no field type of its own; the pattern says it exactly`, at);
    } else if (format !== undefined && STRING_FORMATS[format] === undefined)
      approximated(ctx, opts.where, 'type string', `format \`${format}\` has no field type of its own`, at);
  } else if (t[0] === 'integer' || t[0] === 'number' || t[0] === 'boolean') {
    // `type: number, format: int32` (Ideal Postcodes' counts) holds integers only, as OpenAPI's formats say.
    type = t[0] === 'number' && INTEGER_FORMATS.has(String(s.format)) ? 'integer' : t[0];
    if (typeof s.format === 'string' && !QUIET_FORMATS.has(s.format))
      approximated(ctx, opts.where, `type ${t[0]}`, `format \`${s.format}\` has no field type of its own`, at);
  } else if (t[0] === 'array') {
    type = 'array';
    if (opts.depth >= MAX_FIELD_DEPTH) {
      approximated(ctx, opts.where, 'type json', `it nests deeper than ${MAX_FIELD_DEPTH} levels`, at);
      type = 'json';
    } else if (s.items === undefined) {
      // 3.1 allows an array with no `items` (any elements) or a tuple (`prefixItems`): the elements become json.
      // A document servicespec exported is read as written (its spec had no items), so a round trip is exact.
      if (ctx.fromServicespec !== true) field.items = { type: 'json' };
      if (s.prefixItems !== undefined)
        report(
          ctx,
          'import-dropped',
          { item: `${opts.where}: prefixItems`, reason: 'a tuple has no field type of its own; its elements are taken as json' },
          joinPointer(at, 'prefixItems'),
        );
    } else if (s.items === true || (isObject(s.items) && Object.keys(s.items).length === 0)) {
      field.items = { type: 'json' };
    } else {
      field.items = fieldFromSchema(ctx, s.items, joinPointer(at, 'items'), { where: `${opts.where} items`, depth: opts.depth + 1, stack });
    }
  } else if (
    (ownDiscriminator(ctx, node) || ((Array.isArray(s.oneOf) || Array.isArray(s.anyOf)) && !isObject(s.properties))) &&
    opts.depth < MAX_FIELD_DEPTH &&
    (union = unionFromSchema(ctx, node, s, at, opts)) !== undefined
  ) {
    type = 'union';
    noteComponent(ctx, union.variants, node, pointer);
  } else if (t[0] === 'object' || (t.length === 0 && isObject(s.properties))) {
    const closed = s.additionalProperties === false || s.additionalProperties === undefined;
    if (isObject(s.properties) && (Object.keys(s.properties).length > 0 || s.additionalProperties === false) && closed) {
      if (opts.depth >= MAX_FIELD_DEPTH) {
        approximated(ctx, opts.where, 'type json', `it nests deeper than ${MAX_FIELD_DEPTH} levels`, at);
        type = 'json';
      } else {
        type = 'object';
        field.fields = fieldsFromSchema(ctx, s, at, { ...opts, depth: opts.depth + 1, stack }, 'nested');
        noteComponent(ctx, field.fields as object, node, pointer);
      }
    } else if (
      (!isObject(s.properties) || Object.keys(s.properties).length === 0) &&
      isObject(s.additionalProperties) &&
      (Object.keys(s.additionalProperties).length > 0 || ctx.fromServicespec === true) &&
      opts.depth < MAX_FIELD_DEPTH
    ) {
      // A map with free member names, each value of one schema (Stripe's metadata, Kubernetes' labels). A document
      // servicespec exported is read as written: `additionalProperties: {}` is a map its spec gave no items.
      type = 'map';
      if (Object.keys(s.additionalProperties).length > 0)
        field.items = fieldFromSchema(ctx, s.additionalProperties, joinPointer(at, 'additionalProperties'), {
          where: `${opts.where} values`,
          depth: opts.depth + 1,
          stack,
        });
    } else {
      type = 'json';
      if (s.additionalProperties !== undefined && s.additionalProperties !== false)
        approximated(
          ctx,
          opts.where,
          'type json',
          isObject(s.properties) && Object.keys(s.properties).length > 0
            ? 'named members beside free ones (properties with additionalProperties) have no field type of their own'
            : 'a map with free keys has no field type of its own',
          at,
        );
    }
  } else if (Array.isArray(s.oneOf) || Array.isArray(s.anyOf)) {
    type = 'json';
    approximated(
      ctx,
      opts.where,
      'type json',
      `a choice of schemas (${Array.isArray(s.oneOf) ? 'oneOf' : 'anyOf'}) other than objects has no field type of its own`,
      at,
    );
  } else {
    type = 'json';
    // 3.1: any value, null included, unless the schema says `not: {type: null}` (how a json field that is not
    // nullable is exported); 3.0 takes null only with `nullable: true`.
    if (ctx.version === '3.1' && !(isObject(s.not) && s.not.type === 'null' && Object.keys(s.not).length === 1)) nullable = true;
    // This exporter's own word for it, which 3.0 has no other way to say (getFieldExtension).
    if (ext.nullable === true) nullable = true;
  }
  const out: Json = { type };
  // A named shape's component carries the shape's own description: the use's is the one beside its reference.
  const description = exportedShape(ctx, s) !== undefined && (type === 'object' || union !== undefined) ? ownDescription(node) : s.description;
  if (typeof description === 'string') out.description = description;
  if (nullable) out.nullable = true;
  if (s.readOnly === true && type !== 'state') out.readOnly = true;
  if (type === 'enum') out.values = field.values;
  if (type === 'string' || type === 'date' || type === 'datetime' || type === 'uuid' || type === 'email' || type === 'uri') {
    for (const k of STRING_CONSTRAINTS) {
      if (s[k] === undefined) continue;
      // A value of the wrong kind (api.video's `pattern: 0`, an invalid document) is no constraint: said, left out.
      const fits = k === 'pattern' ? typeof s[k] === 'string' : Number.isInteger(s[k]) && (s[k] as number) >= 0;
      if (fits) out[k] = s[k];
      else if (ctx.fromServicespec !== true)
        report(
          ctx,
          'import-dropped',
          {
            item: `${opts.where}: ${k} ${JSON.stringify(s[k])}`,
            reason: k === 'pattern' ? 'a pattern is a string (a regular expression)' : `${k} is a whole number, 0 or more`,
          },
          joinPointer(at, k),
        );
      else out[k] = s[k];
    }
    if (formatPattern !== undefined) out.pattern = formatPattern;
    if (typeof s.pattern === 'string' && ctx.fromServicespec !== true) {
      const pattern = toUnicodePattern(s.pattern);
      if (pattern !== undefined) out.pattern = pattern;
      else {
        delete out.pattern;
        report(
          ctx,
          'import-dropped',
          { item: `${opts.where}: pattern ${JSON.stringify(s.pattern)}`, reason: 'it is not a valid regular expression' },
          joinPointer(at, 'pattern'),
        );
      }
    }
  }
  if (type === 'integer' || type === 'number') {
    for (const k of NUMBER_CONSTRAINTS) if (typeof s[k] === 'number') out[k] = s[k];
    for (const [ex, plain] of [
      ['exclusiveMinimum', 'minimum'],
      ['exclusiveMaximum', 'maximum'],
    ] as const) {
      const v = s[ex];
      if (typeof v === 'number') out[ex] = v;
      else if (v === true && typeof s[plain] === 'number') {
        out[ex] = s[plain];
        delete out[plain];
      }
    }
  }
  // An envelope's members are values the runtime writes (a total, an offset), which the format keeps unbounded.
  const envelope = opts.where === 'envelope' || opts.where.startsWith('envelope.');
  if (type === 'integer' && s.format === 'int32' && ctx.fromServicespec !== true && !envelope) withInt32Range(out);
  if (type === 'array') {
    for (const k of ARRAY_CONSTRAINTS) if (s[k] !== undefined) out[k] = s[k];
    if (field.items !== undefined) out.items = field.items;
  }
  if (type === 'map' && field.items !== undefined) out.items = field.items;
  // A servicespec export's named shape (its component says `x-servicespec-shape`): used by name, as the spec did.
  const shape = exportedShape(ctx, s);
  if (shape !== undefined && (type === 'object' || union !== undefined)) out.shape = shape;
  else {
    if (type === 'object') out.fields = field.fields;
    if (union !== undefined) Object.assign(out, union);
  }
  if ('default' in s) {
    // A default that breaks its own schema (ably's `limit: { type: integer, default: '100' }`) is no value the
    // server could apply: left out and said, as an example is, so the rest of the document still imports.
    const problem = getValueProblem({ ...(out as Pick<FieldModel, 'type'>), nullable: out.nullable === true }, s.default);
    if (problem === undefined || ctx.fromServicespec === true) out.default = s.default;
    else
      report(ctx, 'import-dropped', { item: `${opts.where}: default ${JSON.stringify(s.default) ?? ''}`, reason: `it breaks its own schema (${problem})` }, at);
  }
  const example = ctx.version === '3.1' && Array.isArray(s.examples) && s.examples.length > 0 ? s.examples[0] : s.example;
  if (example !== undefined) {
    const problem = getValueProblem({ ...(out as Pick<FieldModel, 'type'>), nullable: out.nullable === true }, example);
    if (problem === undefined || ctx.fromServicespec === true) out.example = example;
    else
      report(ctx, 'import-dropped', { item: `${opts.where}: example ${JSON.stringify(example) ?? ''}`, reason: `it breaks its own schema (${problem})` }, at);
  }
  if (s.writeOnly === true) {
    // check's write-only-invalid: never beside readOnly, never the state field, only on a resource's own fields.
    if (opts.writeOnly === true && out.readOnly !== true && type !== 'state' && ext.type !== 'state') out.writeOnly = true;
    else
      report(
        ctx,
        'import-dropped',
        {
          item: `${opts.where}: writeOnly`,
          reason: opts.writeOnly === true ? 'a read-only or state field is answered' : "only a resource's own fields are write-only",
        },
        at,
      );
  }
  for (const [k, v] of Object.entries(ext)) if (k !== 'type') out[k] = v;
  if (type === 'ref' && typeof ext.to === 'string') out.to = ext.to;
  return out as unknown as FieldSpec;
}

export interface UnionShape {
  discriminator?: string;
  variants: Record<string, VariantSpec>;
}

/** Whether the schema itself (not a base it inherits through allOf) names a discriminator. */
function ownDiscriminator(ctx: SchemaContext, node: unknown): boolean {
  const r = resolve(ctx, node, '');
  return isObject(r.node) && isObject(r.node.discriminator) && typeof r.node.discriminator.propertyName === 'string';
}

/** The last token of a component pointer: `#/components/schemas/Cat` → `Cat`. */
function componentName(pointer: string): string | undefined {
  const m = /^#\/components\/schemas\/([^/]+)$/.exec(pointer);
  return m ? m[1]!.replace(/~1/g, '/').replace(/~0/g, '~') : undefined;
}

/** The subtypes of a base schema with a discriminator and no oneOf: the mapping's, else the components that allOf it. */
function subtypesOf(ctx: SchemaContext, at: string, mapping: Json | undefined): { node: unknown; pointer: string; tag?: string }[] {
  const base = at.startsWith('/') ? `#${at}` : at;
  // Each mapping key is a variant with that tag, two keys naming one schema included (Rebilly's `Alipay` and
  // `AlipayInstrument`): a value holding either is that schema.
  if (mapping !== undefined)
    return Object.entries(mapping)
      .filter((e): e is [string, string] => typeof e[1] === 'string')
      .map(([tag, v]) => ({ node: { $ref: v.startsWith('#') ? v : `#/components/schemas/${v}` }, pointer: base, tag }));
  const schemas = isObject(ctx.root.components) && isObject(ctx.root.components.schemas) ? ctx.root.components.schemas : {};
  const out: { node: unknown; pointer: string }[] = [];
  for (const [key, raw] of Object.entries(schemas)) {
    if (!isObject(raw) || !Array.isArray(raw.allOf)) continue;
    if (raw.allOf.some((x) => isObject(x) && x.$ref === base))
      out.push({ node: { $ref: `#/components/schemas/${key.replace(/~/g, '~0').replace(/\//g, '~1')}` }, pointer: base });
  }
  return out;
}

/**
 * A union from `oneOf` / `anyOf` (with or without a discriminator) or from a base schema with a discriminator that its
 * subtypes extend through `allOf`. Each variant must be an object schema; otherwise there is no union (undefined).
 * Variant names: `x-servicespec-variant` (a servicespec export), else the component's name, else `variant_<n>`; a
 * variant's tag: the discriminator mapping's key for it, else the single value its discriminator property holds, else
 * the component's name (OpenAPI's implicit mapping). The discriminator property is the union's, not a variant field.
 */
export function unionFromSchema(ctx: SchemaContext, node: unknown, s: Json, pointer: string, opts: FieldOptions, untagged = false): UnionShape | undefined {
  const d = isObject(s.discriminator) && typeof s.discriminator.propertyName === 'string' ? s.discriminator : undefined;
  const key = Array.isArray(s.oneOf) ? 'oneOf' : Array.isArray(s.anyOf) ? 'anyOf' : undefined;
  let options: { node: unknown; pointer: string; tag?: string }[];
  // Subtypes extend the base through allOf: reaching the base again from one of them is no cycle.
  let stack = opts.stack;
  if (key !== undefined) options = (s[key] as unknown[]).map((x, i) => ({ node: x, pointer: joinPointer(joinPointer(pointer, key), i) }));
  else if (d !== undefined && ownDiscriminator(ctx, node)) {
    const base = resolve(ctx, node, pointer).pointer;
    options = subtypesOf(ctx, base, isObject(d.mapping) ? d.mapping : undefined);
    stack = stack.filter((p) => p !== base && `#${p}` !== base);
  } else return undefined;
  options = options.filter((o) => !(isObject(o.node) && o.node.type === 'null'));
  if (options.length === 0) return undefined;
  const mapping = d !== undefined && isObject(d.mapping) ? d.mapping : {};
  const prop = untagged ? undefined : (d?.propertyName as string | undefined);
  // What the variants report is said again if they are read once more, untagged (below): only the second reading's stays.
  const reported = ctx.diagnostics.length;
  const names = new UniqueNames('_');
  const variants: Record<string, VariantSpec> = {};
  // Subtypes that leave the discriminator property out of `required`: a tag is always held, so the import tightens.
  const tagOptionalIn: string[] = [];
  // Every variant is looked at before any is read: one that is no object, or that closes a cycle, means no union, and
  // reading the others first was work thrown away whose words stayed said. A recursive union (InfluxDB's Flux AST, an
  // Expression of 23 variants each holding Expressions) read each earlier variant down to the depth limit at every
  // level: 348,975 import-approximated warnings for 199 places, and 20 s.
  const flats: { schema: Json; pointer: string; refs: string[] }[] = [];
  for (const o of options) {
    const flat = flatten(ctx, o.node, o.pointer, stack);
    const v = flat.schema;
    const isObj = v !== undefined && (isObject(v.properties) || v.type === 'object');
    if (!v || flat.refs.some((p) => stack.includes(p)) || !isObj || (v.additionalProperties !== undefined && v.additionalProperties !== false)) {
      ctx.diagnostics.length = reported;
      return undefined;
    }
    flats.push({ ...flat, schema: v });
  }
  for (const [i, o] of options.entries()) {
    const flat = flats[i]!;
    const v = flat.schema;
    const chain = resolve(ctx, o.node, o.pointer).chain;
    const component = chain
      .slice(1)
      .map(componentName)
      .find((n) => n !== undefined);
    const raw = typeof v['x-servicespec-variant'] === 'string' ? v['x-servicespec-variant'] : (component ?? `variant_${i + 1}`);
    const name = names.take(toFieldName(raw));
    const props = isObject(v.properties) ? { ...v.properties } : {};
    let tag: string | undefined;
    if (prop !== undefined) {
      const mapped = Object.entries(mapping).find(([, ref]) => typeof ref === 'string' && chain.slice(1).some((p) => p === ref || componentName(p) === ref));
      const own = resolve(ctx, props[prop], '').node;
      const single = isObject(own) ? (Array.isArray(own.enum) && own.enum.length === 1 ? own.enum[0] : own.const) : undefined;
      tag = o.tag ?? mapped?.[0] ?? (typeof single === 'string' ? single : undefined) ?? component ?? name;
      delete props[prop];
      if (!(Array.isArray(v.required) && v.required.includes(prop))) tagOptionalIn.push(raw);
    }
    const variantSchema = { ...v, properties: props, required: Array.isArray(v.required) ? (v.required as unknown[]).filter((r) => r !== prop) : undefined };
    const out: Json = {};
    const shape = exportedShape(ctx, v);
    const description = shape !== undefined ? ownDescription(o.node) : v.description;
    if (typeof description === 'string') out.description = description;
    if (tag !== undefined && tag !== name) out.tag = tag;
    if (shape !== undefined) {
      out.shape = shape;
      variants[name] = out as VariantSpec;
      continue;
    }
    const fields = fieldsFromSchema(
      ctx,
      variantSchema,
      flat.pointer,
      { where: `${opts.where} variant ${name}`, depth: opts.depth + 1, stack: [...stack, ...flat.refs] },
      'nested',
    );
    if (Object.keys(fields).length > 0) {
      out.fields = fields;
      if (component !== undefined) componentOfShape.set(fields, component);
    }
    variants[name] = out as VariantSpec;
  }
  // Two variants with one tag (OpenAI's `message` items, a system, a user and an assistant one, told apart by `role`):
  // the discriminator cannot say which a value is, and a spec refuses such a union (union-tag-duplicate). The variants
  // are read again as an untagged union, each keeping the property as its own field, which the oneOf validates as the
  // document's does.
  if (prop !== undefined && ctx.fromServicespec !== true) {
    const byTag = new Map<string, string>();
    for (const [name, v] of Object.entries(variants)) {
      const tag = typeof v.tag === 'string' ? v.tag : name;
      const first = byTag.get(tag);
      if (first !== undefined) {
        ctx.diagnostics.length = reported;
        const u = unionFromSchema(ctx, node, s, pointer, opts, true);
        const at = joinPointer(resolve(ctx, node, pointer).pointer, 'discriminator');
        // A union reached from several places is said once.
        if (u !== undefined && !ctx.diagnostics.some((x) => x.code === 'import-approximated' && x.pointer === at))
          approximated(
            ctx,
            `the discriminator \`${prop}\` (${opts.where})`,
            'an untagged union, each variant keeping the property as a field',
            `variants \`${first}\` and \`${name}\` have the same tag \`${tag}\`, so the tag does not say which one a value is`,
            at,
          );
        return u;
      }
      byTag.set(tag, name);
    }
  }
  if (prop !== undefined && tagOptionalIn.length > 0 && ctx.fromServicespec !== true) {
    const at = joinPointer(resolve(ctx, node, pointer).pointer, 'discriminator');
    // A union reached from several places (a component and a property referring to it) is said once.
    if (!ctx.diagnostics.some((x) => x.code === 'import-approximated' && x.pointer === at))
      approximated(
        ctx,
        `the discriminator \`${prop}\` (${opts.where})`,
        'a tag every value holds',
        `${tagOptionalIn.join(', ')} ${tagOptionalIn.length === 1 ? 'does' : 'do'} not require it, and OpenAPI leaves the subtype of a value without it undefined: the served union refuses such a value (validation)`,
        at,
      );
  }
  return prop !== undefined ? { discriminator: toFieldName(prop), variants } : { variants };
}

/**
 * The fields of an object schema. `top` fields are required unless optional (a resource as returned);
 * `nested` fields are also not required when they have a default (objects are written whole, as in a request), and
 * a required one with a default is `requiredInRequests`.
 */
export function fieldsFromSchema(ctx: SchemaContext, s: Json, pointer: string, opts: FieldOptions, mode: 'top' | 'nested'): Record<string, FieldSpec> {
  const props = isObject(s.properties) ? s.properties : {};
  const required = new Set(Array.isArray(s.required) ? (s.required as unknown[]).map(String) : []);
  reportUnkept(ctx, s, pointer, opts.where);
  const names = new UniqueNames('_', opts.caseless === true);
  const out: Record<string, FieldSpec> = {};
  for (const [name, p] of Object.entries(props)) {
    const wanted = toFieldName(name);
    const fname = names.take(wanted);
    const at = joinPointer(joinPointer(pointer, 'properties'), name);
    if (fname !== name)
      report(
        ctx,
        'import-renamed',
        {
          what: `${opts.where} field`,
          from: name,
          to: fname,
          reason:
            wanted === name
              ? "another field has the name, or one differing only in case (a resource's stored columns are named without case); the JSON property name served changes with it"
              : 'field names are letters, digits, underscores and dots, not starting with a digit or a dot; the JSON property name served changes with it',
        },
        at,
      );
    const f = fieldFromSchema(ctx, p, at, {
      where: `${opts.where}.${fname}`,
      depth: opts.depth,
      stack: opts.stack,
      ...(mode === 'top' && opts.writeOnly === true ? { writeOnly: true } : {}),
    }) as FieldSpec & Json;
    const hasDefault = Object.prototype.hasOwnProperty.call(f, 'default');
    const optional = !required.has(name);
    if (optional) f.optional = true;
    // A required property with a default must still be sent (the default only documents it). Top-level fields of a
    // resource are settled against the request bodies that write them (import-openapi's keepRequestRequired).
    if (mode === 'nested' && hasDefault && required.has(name) && ctx.fromServicespec !== true) f.requiredInRequests = true;
    out[fname] = orderField(f);
  }
  return out;
}

const FIELD_ORDER = [
  'type',
  'description',
  'optional',
  'nullable',
  'readOnly',
  'writeOnce',
  'writeOnly',
  'unique',
  'generated',
  'source',
  'to',
  'values',
  'default',
  'requiredInRequests',
  'optionalInRequests',
  'example',
];

export function orderField(f: FieldSpec): FieldSpec {
  const src = f as unknown as Json;
  const out: Json = {};
  for (const k of FIELD_ORDER) if (src[k] !== undefined) out[k] = src[k];
  for (const [k, v] of Object.entries(src)) if (!(k in out) && v !== undefined) out[k] = v;
  return out as unknown as FieldSpec;
}

/** Keys that add nothing to a schema's shape: a lone allOf holding only these besides is its one part. */
const ANNOTATION_KEYS: ReadonlySet<string> = new Set(['allOf', 'default', 'description', 'title']);

/** What a request, response or event body is: a resource (or a list of one), fields written out, or nothing the format can say. */
export function shapeFromSchema(ctx: SchemaContext, node: unknown, pointer: string, where: string, mode: 'top' | 'nested'): ShapeSpec | undefined {
  const resourceOf = (n: unknown, p: string): string | undefined => {
    const r = resolve(ctx, n, p);
    for (const ptr of r.chain) {
      const name = ctx.resources.get(ptr);
      if (name !== undefined) return name;
    }
    if (isObject(r.node) && isObject(r.node['x-servicespec-view']) && typeof r.node['x-servicespec-view'].resource === 'string')
      return r.node['x-servicespec-view'].resource;
    // A lone allOf around a reference, adding only a default or words (Kubernetes' items: { allOf: [$ref], default: {} }), is that reference.
    if (isObject(r.node) && Array.isArray(r.node.allOf) && r.node.allOf.length === 1 && Object.keys(r.node).every((k) => ANNOTATION_KEYS.has(k)))
      return resourceOf(r.node.allOf[0], joinPointer(joinPointer(r.pointer, 'allOf'), 0));
    return undefined;
  };
  const union = (n: unknown, p: string): UnionShape | undefined => {
    const f = flatten(ctx, n, p);
    if (!f.schema || !(Array.isArray(f.schema.oneOf) || Array.isArray(f.schema.anyOf) || ownDiscriminator(ctx, n))) return undefined;
    return unionFromSchema(ctx, n, f.schema, f.pointer, { where, depth: 1, stack: f.refs });
  };
  // A resource of several shapes is the resource its union schema is (read before the union, as no other union is).
  const severalShapes = (n: unknown, p: string): string | undefined =>
    ctx.resourceUnions !== undefined && resolve(ctx, n, p).chain.some((ptr) => ctx.resourceUnions!.has(ptr)) ? resourceOf(n, p) : undefined;
  const several = severalShapes(node, pointer);
  if (several !== undefined) return { resource: several };
  const u = union(node, pointer);
  if (u !== undefined) {
    noteComponent(ctx, u.variants, node, pointer);
    return u;
  }
  const direct = resourceOf(node, pointer);
  if (direct !== undefined) return { resource: direct };
  const flat = flatten(ctx, node, pointer);
  const s = flat.schema;
  if (!s) return undefined;
  if (types(s).includes('array') && s.items !== undefined) {
    const severalItems = severalShapes(s.items, joinPointer(flat.pointer, 'items'));
    if (severalItems !== undefined) return { resource: severalItems, list: true };
    const ui = union(s.items, joinPointer(flat.pointer, 'items'));
    if (ui !== undefined) return { ...ui, list: true };
    const inner = resourceOf(s.items, joinPointer(flat.pointer, 'items'));
    if (inner !== undefined) return { resource: inner, list: true };
    const innerFlat = flatten(ctx, s.items, joinPointer(flat.pointer, 'items'));
    if (innerFlat.schema && isObject(innerFlat.schema.properties)) {
      return { fields: fieldsFromSchema(ctx, innerFlat.schema, innerFlat.pointer, { where, depth: 1, stack: innerFlat.refs }, mode), list: true };
    }
    return undefined;
  }
  if (isObject(s.properties)) {
    const fields = fieldsFromSchema(ctx, s, flat.pointer, { where, depth: 1, stack: flat.refs }, mode);
    noteComponent(ctx, fields, node, pointer);
    return { fields };
  }
  return undefined;
}
