import { dump as dumpYaml } from 'js-yaml';
import { createDiagnostic, type Diagnostic, type DiagnosticCode, type DiagnosticParams } from '../diagnostics/diagnostics-catalogue.js';
import { getResource, getStateField } from '../model/model-lookup.js';
import { getNamedShape, getNamedShapeDescription } from '../model/model-named-shapes.js';
import { getFieldSchema, getShapeSchema, type JsonSchema, type NamedShapeUse } from '../model/model-schemas.js';
import type { EventKindModel, FieldModel, ServiceModel, UnionModel } from '../model/model-types.js';
import { FIELD_BOUND_KEYS } from '../spec/spec-types.js';

// What the exporters share: the result type, the x-servicespec-field annotation of schemas, the OpenAPI 3.0
// schema dialect, component naming, the "servicespec rules" paragraph of descriptions, serialisation.

export type JsonObject = Record<string, unknown>;

export interface ExportResult<T = JsonObject> {
  document: T;
  /** One `export-extension` (info) per item written to an extension, and anything left out. */
  diagnostics: Diagnostic[];
}

export type DocumentFormat = 'yaml' | 'json';

/**
 * YAML without anchors (a repeated object is written out again) or pretty JSON; always ends with a newline.
 * js-yaml writes YAML several times faster than the position-keeping `yaml` package, which matters for
 * documents of thousands of operations.
 */
export function serializeDocument(document: unknown, format: DocumentFormat): string {
  if (format === 'json') return `${JSON.stringify(document, null, 2)}\n`;
  return dumpYaml(document, { noRefs: true, lineWidth: -1 });
}

export function diagnose<C extends DiagnosticCode>(model: ServiceModel, code: C, params: DiagnosticParams<C>, pointer?: string): Diagnostic {
  return createDiagnostic(code, params, pointer === undefined ? { file: model.file } : { file: model.file, pointer });
}

/** Unique names (component keys, operation ids): the first asker gets the plain name, later ones a number. */
/** The component of an operation's own request body (`request_fields`): `signUp` → `SignUpRequest`. */
export function getOperationRequestName(operationId: string): string {
  return `${operationId.charAt(0).toUpperCase()}${operationId.slice(1)}Request`;
}

export class NameAllocator {
  private readonly taken = new Set<string>();
  constructor(reserved: Iterable<string> = []) {
    for (const n of reserved) this.taken.add(n);
  }
  reserve(name: string): void {
    this.taken.add(name);
  }
  has(name: string): boolean {
    return this.taken.has(name);
  }
  allocate(name: string): string {
    let candidate = name;
    for (let i = 2; this.taken.has(candidate); i++) candidate = `${name}${i}`;
    this.taken.add(candidate);
    return candidate;
  }
}

// ---- named shapes -------------------------------------------------------------------------------------------

/** One component of a named shape: its schema in one view (a shape whose views differ has one per view). */
interface ShapeComponent {
  shape: string;
  schema: JsonObject;
  /** What its uses refer to until it is named (publish): a placeholder no component can be named. */
  placeholder: string;
  /** Used in answers (the response view), not in requests only. */
  response: boolean;
}

/**
 * The named shapes of a document (docs/format.md, "Named shapes"): each written once, as a component, and referred to
 * with `$ref` at each use (`refer`, given to the model's schemas as SchemaOptions.namedShape). The content decides
 * the component: a shape whose request view differs from its answers' (a read-only field left out, a default making
 * a field optional) has one per view, as resources do; equal ones share one. The use's own keys (a description,
 * nullable) are written around the reference by getFieldSchema. Components are named once the document is done
 * (`publish`), so that the answers' view has the shape's own name whichever use came first.
 */
export class NamedShapeComponents {
  private readonly components = new Map<string, ShapeComponent>();
  private readonly placeholder: string;

  /**
   * `prefix`: where the components are (`#/components/schemas/`); `convert`: the document's schema dialect;
   * `annotate`: whether the components carry the `x-servicespec-*` annotations (not in plain JSON Schema).
   */
  constructor(
    private readonly prefix: string,
    private readonly convert: (s: JsonObject) => JsonObject = (s) => s,
    private readonly annotate = true,
  ) {
    this.placeholder = `${prefix}\u0000shape:`;
  }

  /** The reference standing for one use: to the component of the shape's content in this view, made when first asked for. */
  refer(use: NamedShapeUse): JsonObject {
    // The shape's own description is the component's (the use's own, beside the reference, stays the use's).
    const description = getNamedShapeDescription('fields' in use.content ? use.content.fields : use.content.union);
    const s = (
      description === undefined || 'description' in (use.schema as JsonObject) ? use.schema : { description, ...(use.schema as JsonObject) }
    ) as JsonObject;
    if (this.annotate) {
      if (!('fields' in use.content)) annotateUnionSchema(s, use.content.union);
      else if (use.body) annotateObjectSchema(s, use.content.fields);
      else annotateNestedObjectSchema(s, use.content.fields);
      s['x-servicespec-shape'] = use.name;
    }
    const converted = this.convert(s);
    const key = `${use.name}\u0000${JSON.stringify(converted)}`;
    let c = this.components.get(key);
    if (c === undefined) {
      c = { shape: use.name, schema: converted, placeholder: `${this.placeholder}${this.components.size}`, response: false };
      this.components.set(key, c);
    }
    if (use.view === 'response') c.response = true;
    return { $ref: c.placeholder };
  }

  /**
   * Names the components `doc` refers to, in the order first used, and adds them to `schemas` (which `doc` holds or
   * is): a shape's answer view (else its only one) by the shape's name, a request view that differs by the name and
   * `Create` (as a resource's create view: an object is written whole in every request), another content with a
   * number. A component no use refers to any more (a schema built and set aside, such as a bound request's
   * written-out part) is left out. Every reference in `doc` is then the component's.
   */
  publish(doc: unknown, names: NameAllocator, schemas: Record<string, JsonObject>): void {
    if (this.components.size === 0) return;
    const byPlaceholder = new Map([...this.components.values()].map((c) => [c.placeholder, c]));
    const isPlaceholder = (k: string, v: unknown): v is string => k === '$ref' && typeof v === 'string' && v.startsWith(this.placeholder);
    const used = new Set<ShapeComponent>();
    const collect = (node: unknown): void => {
      if (Array.isArray(node)) for (const x of node) collect(x);
      else if (typeof node === 'object' && node !== null)
        for (const [k, v] of Object.entries(node)) {
          if (!isPlaceholder(k, v)) collect(v);
          else if (!used.has(byPlaceholder.get(v)!)) {
            used.add(byPlaceholder.get(v)!);
            collect(byPlaceholder.get(v)!.schema);
          }
        }
    };
    collect(doc);
    const primary = new Map<string, ShapeComponent>();
    for (const c of this.components.values())
      if (used.has(c) && (!primary.has(c.shape) || (c.response && !primary.get(c.shape)!.response))) primary.set(c.shape, c);
    const final = new Map<string, string>();
    for (const c of this.components.values()) {
      if (!used.has(c)) continue;
      const name = names.allocate(primary.get(c.shape) === c || c.response ? c.shape : `${c.shape}Create`);
      final.set(c.placeholder, `${this.prefix}${name}`);
      schemas[name] = c.schema;
    }
    const rewrite = (node: unknown): void => {
      if (Array.isArray(node)) for (const x of node) rewrite(x);
      else if (typeof node === 'object' && node !== null)
        for (const [k, v] of Object.entries(node)) {
          if (isPlaceholder(k, v)) (node as JsonObject).$ref = final.get(v)!;
          else rewrite(v);
        }
    };
    rewrite(doc);
    for (const c of used) rewrite(c.schema);
  }
}

// ---- x-servicespec-field ------------------------------------------------------------------------------------

/** The FieldSpec keys a JSON Schema states by itself. */
const NATIVE_FIELD_KEYS = new Set([
  'type',
  'description',
  'optional',
  'nullable',
  'readOnly',
  'writeOnly',
  'default',
  'example',
  'values',
  'items',
  'fields',
  ...FIELD_BOUND_KEYS,
  'uniqueItems',
]);

/** Model keys that are bookkeeping or shown by the schema's structure (`items`, `fields`). */
const SKIP_FIELD_KEYS = new Set([
  // A resource variant's field: said by the variant's component it is in.
  'ofVariants',
  ...NATIVE_FIELD_KEYS,
  'name',
  'pointer',
  'hasDefault',
  'hasExample',
  'union',
]);
const extensions = new WeakMap<FieldModel, JsonObject | null>();

/**
 * The field attributes a JSON Schema cannot state: the servicespec type where the schema is ambiguous (`ref`,
 * `state`), `to`, `unique`, `writeOnce`, `generated`, and any attribute the model gains later (as fieldToSpec
 * writes it: false flags left out). Computed once per field.
 */
export function getFieldExtension(f: FieldModel): JsonObject | undefined {
  const known = extensions.get(f);
  if (known !== undefined) return known ?? undefined;
  const ext: JsonObject = {};
  if (f.type === 'ref' || f.type === 'state') ext.type = f.type;
  // A nullable json field's schema takes any value (`{}`), which OpenAPI 3.0 cannot say includes null (its `nullable`
  // needs a `type` beside it): said here, the same in either version, so an import reads it back nullable.
  if ((f.type === 'json' || (f.type === 'union' && f.union === undefined)) && f.nullable) ext.nullable = true;
  for (const [k, v] of Object.entries(f)) {
    if (SKIP_FIELD_KEYS.has(k) || v === undefined || v === false) continue;
    // As a spec says it (fieldToSpec): the schemas show null in answers only, which import alone reads the same.
    if (k === 'nullableInAnswersOnly') ext.nullable = 'answers';
    else ext[k] = v;
  }
  const out = Object.keys(ext).length > 0 ? ext : null;
  extensions.set(f, out);
  return out ?? undefined;
}

function unwrapNullable(s: JsonObject): JsonObject {
  const any = s.anyOf;
  if (Array.isArray(any) && any.length === 2 && (any[1] as JsonObject).type === 'null') return any[0] as JsonObject;
  return s;
}

/**
 * The object schemas a resource's schema is made of: each variant's of a resource of several shapes (its `oneOf` or
 * `anyOf`), or the schema itself.
 */
export function getObjectBranches(schema: JsonObject): JsonObject[] {
  const branches = schema.oneOf ?? schema.anyOf;
  return Array.isArray(branches) ? (branches as JsonObject[]) : [schema];
}

/** Adds `x-servicespec-field` to a field's schema and to the schemas of its nested fields and items. */
export function annotateFieldSchema(schema: JsonObject, f: FieldModel): void {
  const ext = getFieldExtension(f);
  if (ext) schema['x-servicespec-field'] = ext;
  const inner = unwrapNullable(schema);
  if (f.items && inner.items && typeof inner.items === 'object') annotateFieldSchema(inner.items as JsonObject, f.items);
  if (f.fields) annotateNestedObjectSchema(inner, f.fields);
  if (f.union) annotateUnionSchema(inner, f.union);
}

/**
 * A nested object or a union's variant is read back as a request's object (a default makes a field one a client may
 * leave out), so there an optional field with a default says it is optional: `required` alone cannot tell it from a
 * required one with a default.
 */
function markOptionalDefaults(schema: JsonObject, fields: readonly FieldModel[]): void {
  const props = schema.properties as Record<string, JsonObject> | undefined;
  for (const f of fields) {
    const p = props?.[f.name];
    if (p && f.optional && f.hasDefault) p['x-servicespec-field'] = { ...((p['x-servicespec-field'] as JsonObject | undefined) ?? {}), optional: true };
  }
}

/** Adds `x-servicespec-field` to a nested object's schema (a field's value, or a named shape's) as annotateFieldSchema does. */
export function annotateNestedObjectSchema(schema: JsonObject, fields: readonly FieldModel[]): void {
  annotateObjectSchema(schema, fields);
  markOptionalDefaults(schema, fields);
}

/** Adds `x-servicespec-field` to the properties of each variant of a union schema (getUnionSchema's `oneOf`, in order). */
export function annotateUnionSchema(schema: JsonObject, union: UnionModel): void {
  const oneOf = schema.oneOf;
  if (!Array.isArray(oneOf)) return;
  union.variants.forEach((v, i) => {
    const s = oneOf[i] as JsonObject | undefined;
    if (!s) return;
    annotateObjectSchema(s, v.fields);
    markOptionalDefaults(s, v.fields);
    // A variant whose fields are a named shape's (`shape:`) says so: the import writes it by name again.
    const shape = getNamedShape(v.fields);
    if (shape !== undefined) s['x-servicespec-shape'] = shape;
  });
}

/** Adds `x-servicespec-field` to the properties of an object schema built from these fields. */
export function annotateObjectSchema(schema: JsonObject, fields: readonly FieldModel[]): void {
  const props = schema.properties as Record<string, JsonObject> | undefined;
  if (!props) return;
  for (const f of fields) {
    const p = props[f.name];
    if (p) annotateFieldSchema(p, f);
  }
}

/** Every `x-servicespec-field` annotation made for a field: for the export diagnostics. */
export function walkFieldExtensions(fields: readonly FieldModel[], prefix: string, visit: (f: FieldModel, where: string, ext: JsonObject) => void): void {
  for (const f of fields) {
    const where = `${prefix}.${f.name}`;
    const ext = getFieldExtension(f);
    if (ext) visit(f, where, ext);
    if (f.items) walkFieldExtensions([f.items], where, visit);
    if (f.fields) walkFieldExtensions(f.fields, where, visit);
    if (f.union) for (const v of f.union.variants) walkFieldExtensions(v.fields, `${where}.${v.name}`, visit);
  }
}

// ---- OpenAPI 3.0 schema dialect ------------------------------------------------------------------------------

function jsonType(values: unknown[]): string | undefined {
  const kinds = new Set(values.filter((v) => v !== null).map((v) => (typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v)));
  if (kinds.size === 1) return [...kinds][0];
  if (kinds.size === 2 && kinds.has('integer') && kinds.has('number')) return 'number';
  return undefined;
}

/**
 * A 2020-12 schema (as model-schemas builds them) in the OpenAPI 3.0 dialect: `nullable` for null types,
 * boolean `exclusiveMinimum`/`exclusiveMaximum`, `example` for `examples`, `enum` for `const`.
 */
export function toOas30Schema(input: unknown): unknown {
  if (Array.isArray(input)) return input.map(toOas30Schema);
  if (!input || typeof input !== 'object') return input;
  const s = input as JsonObject;
  if ('$ref' in s) {
    // 3.0 ignores the siblings of a `$ref`: a use's own keys (a description, readOnly) go beside it, in an allOf.
    const { $ref, ...rest } = s;
    return Object.keys(rest).length === 0 ? { $ref } : { allOf: [{ $ref }], ...(toOas30Schema(rest) as JsonObject) };
  }
  const any = s.anyOf;
  if (
    Array.isArray(any) &&
    any.length === 2 &&
    (any[1] as JsonObject).type === 'null' &&
    Object.keys(s).every((k) => k === 'anyOf' || k.startsWith('x-') || k === 'description' || k === 'readOnly' || k === 'default' || k === 'examples')
  ) {
    const { anyOf: _anyOf, ...rest } = s;
    const inner = toOas30Schema(any[0]) as JsonObject;
    const merged = '$ref' in inner ? { allOf: [inner] } : { ...inner };
    return { ...merged, ...(toOas30Schema(rest) as JsonObject), nullable: true };
  }
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(s)) {
    switch (k) {
      case 'properties':
      case 'patternProperties':
        out[k] = Object.fromEntries(Object.entries(v as JsonObject).map(([n, p]) => [n, toOas30Schema(p)]));
        break;
      case 'items':
      case 'additionalProperties':
      case 'not':
        // 3.0 excludes null unless `nullable: true`, so `not: {type: null}` (a json field) says nothing more.
        if (k === 'not' && typeof v === 'object' && v !== null && Object.keys(v).length === 1 && (v as JsonObject).type === 'null') break;
        out[k] = typeof v === 'object' ? toOas30Schema(v) : v;
        break;
      case 'allOf':
      case 'anyOf':
      case 'oneOf':
        out[k] = (v as unknown[]).map(toOas30Schema);
        break;
      case 'type':
        if (Array.isArray(v)) {
          const types = v.filter((t) => t !== 'null');
          if (types.length === 1) out.type = types[0];
          else if (types.length > 1) out.anyOf = types.map((t) => ({ type: t }));
          if (types.length < v.length) out.nullable = true;
        } else out.type = v;
        break;
      case 'examples':
        if (Array.isArray(v) && v.length > 0) out.example = v[0];
        break;
      case 'const':
        out.enum = [v];
        break;
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        break;
      default:
        out[k] = v;
    }
  }
  for (const [ex, plain] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    const v = s[ex];
    if (typeof v !== 'number') continue;
    const current = out[plain];
    const stricter = typeof current !== 'number' || (plain === 'minimum' ? v >= current : v <= current);
    if (stricter) {
      out[plain] = v;
      out[ex] = true;
    }
  }
  if (Array.isArray(out.enum)) {
    if ((out.enum as unknown[]).includes(null)) out.nullable = true;
    if (out.type === undefined) {
      const t = jsonType(out.enum as unknown[]);
      if (t !== undefined) out.type = t;
    }
  }
  return out;
}

// ---- the event envelope's data ----------------------------------------------------------------------------

/** What emits `data.previous` for a kind, in words: its update and transition triggers (create and delete send none). */
function previousSources(k: EventKindModel): string[] {
  const out: string[] = [];
  for (const t of k.triggers) {
    const what =
      t.action === 'update'
        ? `an update or replace of a ${t.resource}`
        : t.action === 'transition'
          ? `the ${t.resource} transition ${code(t.transition)}`
          : undefined;
    if (what !== undefined && !out.includes(what)) out.push(what);
  }
  return out;
}

/**
 * The envelope's `data` as the runtime sends it (src/runtime/service/runtime-actions.ts, emit):
 * `{ object, previous? }`. `object` is the payload (`payloadSchema`, always one object); `previous`, sent on updates
 * and transitions only, holds the values before the change of the fields the change altered (null for one that had
 * none), so its properties are the payload's, none required. `dialect` converts what is built here (not the payload).
 */
export function getEventDataSchema(
  model: ServiceModel,
  k: EventKindModel,
  payloadSchema: JsonObject,
  dialect: (s: JsonObject) => JsonObject = (s) => s,
): JsonObject {
  const properties: JsonObject = { object: payloadSchema };
  const sources = previousSources(k);
  if (sources.length > 0) {
    const shape = k.payload ? (getShapeSchema(model, { ...k.payload, list: false }, 'response') as JsonObject) : {};
    let fields = Object.entries((shape.properties ?? {}) as Record<string, JsonObject>);
    // A transition sends its state field's earlier value only; an update, every field it changed.
    if (k.triggers.every((t) => t.action !== 'update')) {
      const states = new Set(
        model.stateMachines.filter((m) => k.triggers.some((t) => t.action === 'transition' && t.resource === m.resource)).map((m) => getStateField(model, m)),
      );
      fields = fields.filter(([n]) => states.has(n));
    }
    const previous: JsonObject = {
      type: 'object',
      description: `Sent on ${list(sources)}: the value before the change of each field the change altered (null for a field that had none).`,
    };
    if (fields.length > 0)
      previous.properties = Object.fromEntries(fields.map(([n, f]) => [n, { anyOf: [previousField(model, k, n) ?? f, { type: 'null' }] }]));
    properties.previous = dialect(previous);
  }
  return {
    type: 'object',
    description: `The event's data: \`object\` is the payload${sources.length > 0 ? "; `previous` the changed fields' earlier values" : ''}.`,
    properties,
    required: ['object'],
    additionalProperties: false,
  };
}

function hasUnion(f: FieldModel): boolean {
  return f.union !== undefined || (f.items !== undefined && hasUnion(f.items)) || (f.fields ?? []).some(hasUnion);
}

/**
 * A payload field holding a union, as the payload's own schema has it: its variants annotated, so that the OpenAPI
 * export publishes them as the same components with the discriminator's mapping (an inline variant under a
 * discriminator is one no tool can select: Redocly's no-illogical-composition-keywords). Undefined for other fields.
 */
function previousField(model: ServiceModel, k: EventKindModel, name: string): JsonObject | undefined {
  const r = getResource(model, k.payload?.resource);
  const f = (r?.fields ?? k.payload?.fields ?? []).find((x) => x.name === name);
  if (!f || !hasUnion(f)) return undefined;
  const { description: _d, default: _def, examples: _e, readOnly: _r, ...s } = getFieldSchema(model, f, r, { annotations: true }, 'response') as JsonObject;
  annotateFieldSchema(s, f);
  delete s['x-servicespec-field'];
  return s;
}

// ---- the "servicespec rules" paragraph ----------------------------------------------------------------------

/** Heads the paragraph the exporters add to descriptions; the importer cuts a description there. */
export const RULES_HEADING = '**servicespec rules** (also in the `x-servicespec-*` extensions):';

export function withRules(own: string | undefined, rules: readonly string[]): string | undefined {
  const parts: string[] = [];
  if (own !== undefined && own !== '') parts.push(own);
  if (rules.length > 0) parts.push([RULES_HEADING, ...rules.map((r) => `- ${r}`)].join('\n'));
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}

/** The author's own text of a description written by `withRules`. */
export function withoutRules(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const at = text.indexOf(RULES_HEADING);
  if (at < 0) return text;
  const own = text.slice(0, at).replace(/\s+$/, '');
  return own === '' ? undefined : own;
}

export function code(text: string): string {
  return `\`${text}\``;
}

export function list(items: readonly string[], conj = 'or'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conj} ${items[items.length - 1]}`;
}

export function isJsonSchema(v: unknown): v is JsonSchema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
