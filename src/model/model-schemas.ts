import { getField, getResource, getStateMachine } from './model-lookup.js';
import { getUnknownFields, isLeftOutIn, isNullableInRequests, mayLeaveOut } from './model-defaults.js';
import { getNamedShape } from './model-named-shapes.js';
import { getResolvedBindings, isNestedPath } from './model-path-bindings.js';
import type { FieldModel, OperationModel, ResourceModel, ServiceModel, ShapeModel, UnionModel } from './model-types.js';

// JSON Schema (draft 2020-12 vocabulary) for resources and shapes. The runtime compiles these with Ajv and
// the exporters publish them, so what is validated and what is documented are one thing.

export type JsonSchema = Record<string, unknown>;

/**
 * Ajv's `multipleOfPrecision` for every validator of these schemas (runtime, tester): `multipleOf: 0.01` divides
 * 0.07 into 7.000000000000001 in binary floating point, so the quotient is taken as whole within 1e-9.
 */
export const MULTIPLE_OF_PRECISION = 9;

/** Which view of a resource a schema describes. */
export type SchemaView = 'response' | 'create' | 'replace' | 'update';

export interface SchemaOptions {
  /** Add description, default and examples (for documents; the runtime leaves them out). */
  annotations?: boolean;
  /** Bound integers to the safe range when the spec states no bound (the runtime's own guard). */
  safeIntegers?: boolean;
  /**
   * A request view of a resource: the only top-level fields it takes (an operation's `request_fields`); a field
   * outside is refused as an unknown one (additionalProperties), and required-ness inside follows the view.
   */
  only?: readonly string[];
  /**
   * An answer of a list that carries some of its resource's fields (an operation's `answer_fields`): the only
   * top-level fields its objects carry; one outside is refused as an unknown member, required-ness inside as answered.
   */
  answerFields?: readonly string[];
  /**
   * Answers whose objects may hold members they do not name (a resource's `answer_members: open`), at every depth but
   * a union's variants (kept closed, so that a value is one variant only).
   */
  openAnswers?: boolean;
  /**
   * The runtime's own answers: a field the service sets by a rule the spec does not state (`source: service`) is not
   * required, as the runtime has no value for it and leaves it out (a named gap, served only with allowGaps); nor is
   * a read-only member nested in a field a client writes (getServiceSetMembers), which it stores as sent.
   */
  serviceSetAbsent?: boolean;
  /**
   * A document's way of writing a named shape once (docs/format.md, "Named shapes"): given a use's schema of the
   * shape's content (an object's, a union's; without the use's own keys, which are added around what it returns), what
   * stands in its place, such as an export's `$ref`. Without it, or where it returns undefined, the use is written out.
   */
  namedShape?: (use: NamedShapeUse) => JsonSchema | undefined;
  /**
   * A resource of several shapes: the schema of this one variant of it (getResourceVariantSchema) rather than of any
   * (what the runtime validates an update or replace with: the stored object's variant's).
   */
  variant?: string;
}

/** One use of a named shape, as getFieldSchema and getShapeSchema meet it (SchemaOptions.namedShape). */
export interface NamedShapeUse {
  name: string;
  /** The schema the use would write out: the shape's content in this view. */
  schema: JsonSchema;
  /** What it was made of: for annotating it. */
  content: { fields: readonly FieldModel[] } | { union: UnionModel };
  /** Answers, or requests (where objects are written whole). */
  view: 'response' | 'create';
  /** A payload (its top level), rather than a field's value. */
  body: boolean;
}

/** The schema a named shape's use is written as: `s`, or what `opts.namedShape` puts in its place. */
function named(opts: SchemaOptions, part: readonly FieldModel[] | UnionModel | undefined, use: Omit<NamedShapeUse, 'name' | 'content'>): JsonSchema {
  if (opts.namedShape === undefined) return use.schema;
  const name = getNamedShape(part);
  if (name === undefined || part === undefined) return use.schema;
  const content = 'variants' in part ? { union: part as UnionModel } : { fields: part as readonly FieldModel[] };
  return opts.namedShape({ ...use, name, content }) ?? use.schema;
}

const FORMATS: Partial<Record<FieldModel['type'], string>> = {
  date: 'date',
  datetime: 'date-time',
  uuid: 'uuid',
  email: 'email',
  uri: 'uri',
};

function identifierSchema(model: ServiceModel, resource: ResourceModel | undefined, opts: SchemaOptions): JsonSchema {
  const id = resource?.identifier !== undefined ? getField(resource, resource.identifier) : undefined;
  // Only uuid, integer and string identify (the checker reports others); a ref identifier would recurse forever.
  if (!id || !['uuid', 'integer', 'string'].includes(id.type)) return {};
  // A reference holds an identifier, never null: only the ref field's own `nullable` lets null in.
  return getFieldSchema(model, { ...id, readOnly: false, nullable: false, description: undefined, hasDefault: false, hasExample: false }, resource, {
    ...opts,
    annotations: false,
  });
}

/** The schema of one field's value; `view` decides whether nested read-only fields appear (responses) or not (requests). */
export function getFieldSchema(
  model: ServiceModel,
  f: FieldModel,
  resource: ResourceModel | undefined,
  opts: SchemaOptions = {},
  view: SchemaView = 'create',
): JsonSchema {
  let s: JsonSchema;
  // `nullable: answers`: null in answers only.
  const nullable = view === 'response' ? f.nullable : isNullableInRequests(f);
  switch (f.type) {
    case 'string':
    case 'date':
    case 'datetime':
    case 'uuid':
    case 'email':
    case 'uri':
      s = { type: 'string' };
      if (FORMATS[f.type]) s.format = FORMATS[f.type];
      if (f.minLength !== undefined) s.minLength = f.minLength;
      if (f.maxLength !== undefined) s.maxLength = f.maxLength;
      if (f.pattern !== undefined) s.pattern = f.pattern;
      break;
    case 'integer':
    case 'number':
      s = { type: f.type };
      for (const k of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'] as const) if (f[k] !== undefined) s[k] = f[k];
      if (opts.safeIntegers && f.type === 'integer') {
        if (s.minimum === undefined && s.exclusiveMinimum === undefined) s.minimum = Number.MIN_SAFE_INTEGER;
        if (s.maximum === undefined && s.exclusiveMaximum === undefined) s.maximum = Number.MAX_SAFE_INTEGER;
      }
      break;
    case 'boolean':
      s = { type: 'boolean' };
      break;
    case 'enum':
      s = { enum: [...(f.values ?? [])] };
      break;
    case 'state': {
      const m = getStateMachine(model, resource?.name);
      s = m && m.states.length > 0 ? { type: 'string', enum: m.states.map((x) => x.name) } : { type: 'string' };
      break;
    }
    case 'ref':
      s = identifierSchema(model, getResource(model, f.to), opts);
      break;
    case 'array':
      s = { type: 'array' };
      if (f.items) s.items = getFieldSchema(model, f.items, resource, opts, view);
      if (f.minItems !== undefined) s.minItems = f.minItems;
      if (f.maxItems !== undefined) s.maxItems = f.maxItems;
      if (f.uniqueItems !== undefined) s.uniqueItems = f.uniqueItems;
      break;
    case 'object':
      // Written whole, as in a create; answered with its read-only fields too (redoc's `category.id`), which a
      // create's view would leave out of every schema.
      s = getObjectSchema(model, f.fields ?? [], resource, view === 'response' ? 'response' : 'create', opts, true);
      s = named(opts, f.fields, { schema: s, view: view === 'response' ? 'response' : 'create', body: false });
      break;
    case 'map':
      // Free member names, each value the field `items` says (Stripe's metadata, Kubernetes' labels).
      s = { type: 'object', additionalProperties: f.items ? getFieldSchema(model, f.items, resource, opts, view) : {} };
      break;
    case 'json':
      // Any JSON value but null, unless the field is nullable: a stored null reads back as an absent field.
      s = nullable ? {} : { not: { type: 'null' } };
      break;
    case 'union':
      // Without variants (check's union-needs-variants) it says no more than `json`, and is written as `json` is, so
      // that what an import reads back (json) exports the same.
      if (f.union) {
        s = getUnionSchema(model, f.union, undefined, view === 'response' ? 'response' : 'create', opts);
        s = named(opts, f.union, { schema: s, view: view === 'response' ? 'response' : 'create', body: false });
      } else s = nullable ? {} : { not: { type: 'null' } };
      break;
  }
  if (nullable) {
    if (Array.isArray(s.enum)) s.enum = [...(s.enum as unknown[]), null];
    // A union's oneOf holds objects only: `type: [object, null]` beside it would still refuse null (Ajv's
    // discriminator lets null through, a plain JSON Schema validator of the exported document does not).
    else if (typeof s.type === 'string' && s.oneOf === undefined) s.type = [s.type, 'null'];
    else if (Object.keys(s).length > 0) s = { anyOf: [s, { type: 'null' }] };
  }
  if (opts.annotations) {
    if (f.description !== undefined) s.description = f.description;
    if (f.hasDefault) s.default = f.default;
    if (f.hasExample) s.examples = [f.example];
    if (f.readOnly || f.type === 'state') s.readOnly = true;
    // Only requests hold it: a response's view leaves the field out (getObjectSchema).
    if (f.writeOnly) s.writeOnly = true;
  }
  return s;
}

/** Whether answers carry a resource's field of this name: all but a write-only one (stored, never answered). */
export function isAnswered(resource: ResourceModel | undefined, name: string): boolean {
  return resource === undefined || getField(resource, name)?.writeOnly !== true;
}

/** Whether a field may be written in a request of the given view. */
export function isWritable(resource: ResourceModel | undefined, f: FieldModel, view: SchemaView): boolean {
  if (view === 'response') return true;
  if (f.readOnly || f.type === 'state') return false;
  // A client-given identifier is written once, by the create; the server's never.
  if (resource && f.name === resource.identifier && !(view === 'create' && resource.identifierSource === 'client')) return false;
  if (resource && f.name === resource.owner) return false;
  if (f.writeOnce && view !== 'create') return false;
  return true;
}

function getObjectSchema(
  model: ServiceModel,
  fields: readonly FieldModel[],
  resource: ResourceModel | undefined,
  view: SchemaView,
  opts: SchemaOptions,
  nested = false,
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const f of fields) {
    // The identifier and owner are top-level fields; a nested field of the same name is an ordinary field.
    if (!isWritable(nested ? undefined : resource, f, view)) continue;
    if (opts.only !== undefined && !nested && view !== 'response' && !opts.only.includes(f.name)) continue;
    if (opts.answerFields !== undefined && !nested && view === 'response' && !opts.answerFields.includes(f.name)) continue;
    // A write-only field is never answered: the runtime's and the tester's answer schema leave it out, so an answer
    // holding it breaks the schema (additionalProperties); a document's lists it, optional, marked `writeOnly`
    // (OpenAPI's way, which the importer reads back).
    if (view === 'response' && f.writeOnly && !nested) {
      if (opts.annotations) properties[f.name] = getFieldSchema(model, f, resource, opts, view);
      continue;
    }
    // Below a read-only field the service gives the whole value: its members are not the client's object's.
    const sub = opts.serviceSetAbsent && f.readOnly ? { ...opts, serviceSetAbsent: false } : opts;
    properties[f.name] = getFieldSchema(model, f, resource, sub, view);
    // optionalInRequests is a resource's own field's: a nested one is sent as any other.
    const mustSend =
      view === 'response'
        ? !f.optional &&
          !(opts.serviceSetAbsent && !nested && resource && f.source === 'service' && getServiceSourceProblem(model, resource, f) === undefined) &&
          // A read-only member of an object a client writes, nothing giving its value (getServiceSetMembers).
          !(opts.serviceSetAbsent && nested && f.readOnly && !f.hasDefault)
        : view !== 'update' && !mayLeaveOut(f, nested ? undefined : view);
    if (mustSend) required.push(f.name);
  }
  const s: JsonSchema = { type: 'object', properties, additionalProperties: false };
  // A nested object naming no member stays closed: open, it would read as a map of anything (an import's free object).
  if (view === 'response' && opts.openAnswers && (!nested || Object.keys(properties).length > 0)) delete s.additionalProperties;
  if (required.length > 0) s.required = required;
  return s;
}

/** The discriminator's schema in one variant: a string holding exactly the variant's tag. */
function getTagSchema(tag: string): JsonSchema {
  return { type: 'string', enum: [tag] };
}

/**
 * A union: `oneOf` its variants, each a closed object; a tagged union's variants each require the tag property (first)
 * holding their tag, and `discriminator` names it (Ajv's `discriminator` option checks the tag first, so a wrong tag is
 * one clear error). With `annotations`, each variant carries its name in `x-servicespec-variant` (the OpenAPI export
 * publishes variants as components by that name and writes the discriminator's mapping).
 */
export function getUnionSchema(
  model: ServiceModel,
  union: UnionModel,
  resource: ResourceModel | undefined,
  view: SchemaView,
  opts: SchemaOptions = {},
): JsonSchema {
  const { openAnswers: _open, ...closed } = opts;
  const oneOf = union.variants.map((v) => {
    const s = getObjectSchema(model, v.fields, resource, view, closed, true);
    if (union.discriminator !== undefined && v.tag !== undefined) {
      s.properties = { [union.discriminator]: getTagSchema(v.tag), ...(s.properties as JsonSchema) };
      s.required = [union.discriminator, ...((s.required as string[] | undefined) ?? [])];
    }
    if (opts.annotations) {
      if (v.description !== undefined) s.description = v.description;
      s['x-servicespec-variant'] = v.name;
    }
    return s;
  });
  // Tagged: `type: object` beside the discriminator, because Ajv's discriminator keyword lets a value that is no
  // object through (its oneOf is not tried then): `method: 12345` was accepted and stored.
  if (union.discriminator !== undefined) return { type: 'object', oneOf, discriminator: { propertyName: union.discriminator } };
  return { oneOf };
}

/**
 * A resource as the service returns it, or as a create / replace / update request must be. A resource of several
 * shapes is one of its variants (getResourceVariantSchema): answers and creates `oneOf` them with the `discriminator`
 * (each requires its tag, first); a replace or update, which cannot change the tag and so does not send it, `anyOf`
 * them: which one a body must be is the stored object's (the runtime validates it against that variant's alone).
 */
export function getResourceSchema(model: ServiceModel, resource: ResourceModel, view: SchemaView, opts: SchemaOptions = {}): JsonSchema {
  const u = resource.variants;
  if (u !== undefined && u.discriminator !== undefined) {
    if (opts.variant !== undefined) return getResourceVariantSchema(model, resource, opts.variant, view, opts);
    const branches = u.variants.map((v) => getResourceVariantSchema(model, resource, v.name, view, opts));
    const tagged = view === 'response' || view === 'create';
    const s: JsonSchema = tagged ? { type: 'object', oneOf: branches, discriminator: { propertyName: u.discriminator } } : { anyOf: branches };
    if (opts.annotations && resource.description !== undefined) s.description = resource.description;
    return s;
  }
  const open = view === 'response' && resource.answerMembers === 'open';
  const s = getObjectSchema(model, resource.fields, resource, view, open ? { ...opts, openAnswers: true } : opts);
  // Nested objects are written whole, so only the top level of a response is read-only aware.
  if (opts.annotations && resource.description !== undefined) s.description = resource.description;
  return s;
}

/**
 * The schema of one object of a list's answer: the resource's answer, or with `answer_fields` the fields the list
 * answers only (a summary; docs/format.md, "Lists that answer some of the fields"). The runtime, the exports, the
 * client, check's examples and the contract tester read it, so what is answered and what is documented are one.
 */
export function getListItemSchema(
  model: ServiceModel,
  resource: ResourceModel,
  op: Pick<OperationModel, 'answerFields'> | undefined,
  opts: SchemaOptions = {},
): JsonSchema {
  return getResourceSchema(model, resource, 'response', op?.answerFields !== undefined ? { ...opts, answerFields: op.answerFields } : opts);
}

/**
 * One variant of a resource of several shapes, as an object of it is in the view: the shared fields, the tag (where
 * the view writes it: answers and creates; `{ enum: [tag] }`, required, first) and the variant's own fields, as
 * it declares them (their required-ness is the variant's). Closed, as a union's variants are, so that a value is one
 * variant only. With `annotations`, marked with the variant's name (`x-servicespec-variant`), as a union's are.
 */
export function getResourceVariantSchema(
  model: ServiceModel,
  resource: ResourceModel,
  variant: string,
  view: SchemaView,
  opts: SchemaOptions = {},
): JsonSchema {
  const u = resource.variants!;
  const v = u.variants.find((x) => x.name === variant)!;
  const own = new Set(v.fields.map((f) => f.name));
  const fields = [...resource.fields.filter((f) => f.ofVariants === undefined && !own.has(f.name)), ...v.fields.filter((f) => f.name !== u.discriminator)];
  const { openAnswers: _open, ...closed } = opts;
  const s = getObjectSchema(model, fields, resource, view, closed);
  const tag = u.discriminator;
  const props = s.properties as Record<string, JsonSchema>;
  if (tag !== undefined && props[tag] !== undefined) {
    const { [tag]: _tag, ...rest } = props;
    s.properties = { [tag]: getTagSchema(v.tag), ...rest };
    s.required = [tag, ...((s.required as string[] | undefined) ?? []).filter((n) => n !== tag)];
  }
  if (opts.annotations) {
    if (v.description !== undefined) s.description = v.description;
    s['x-servicespec-variant'] = v.name;
  }
  return s;
}

/**
 * The members a schema of a resource names, at its top level: its `properties`, or those of every branch of a
 * resource of several shapes (`oneOf`, `anyOf`), in order, each once (the first branch's schema for a name).
 */
export function getSchemaMembers(s: JsonSchema): Record<string, JsonSchema> {
  const branches = (s.oneOf ?? s.anyOf) as JsonSchema[] | undefined;
  if (!Array.isArray(branches)) return (s.properties as Record<string, JsonSchema> | undefined) ?? {};
  const out: Record<string, JsonSchema> = {};
  for (const b of branches) for (const [k, v] of Object.entries((b.properties as Record<string, JsonSchema> | undefined) ?? {})) out[k] ??= v;
  return out;
}

/**
 * A create's or replace's request schema (getResourceSchema's, of that view) as the operation's path (`bind`) makes it:
 * a bound field the body writes may be left out, as it takes the path's value (the runtime fills it in before it
 * validates), so it is not required; nor is an object on the way to a nested one once nothing in it is left required
 * (the runtime makes it: `{ metadata: { namespace } }`). A copy where anything changes; undefined when nothing does
 * (no binding, or none to a field the schema requires), so a document keeps the view's one schema then.
 */
export function getBoundRequestSchema(schema: JsonSchema, resource: ResourceModel, o: OperationModel, view: 'create' | 'replace'): JsonSchema | undefined {
  let out = schema;
  for (const b of getResolvedBindings(resource, o)) {
    const names = isNestedPath(resource, b.path) ? b.path.split('.') : [b.path];
    out = leaveOutBound(out, names, resource.fields, view, resource);
  }
  return out === schema ? undefined : out;
}

/** An object schema with the field at `names` (and each object on its way left holding nothing required) no longer required. */
function leaveOutBound(
  s: JsonSchema,
  names: readonly string[],
  fields: readonly FieldModel[] | undefined,
  view: SchemaView,
  resource: ResourceModel | undefined,
): JsonSchema {
  const [name, ...rest] = names as [string, ...string[]];
  const props = s.properties as Record<string, JsonSchema> | undefined;
  const f = fields?.find((x) => x.name === name);
  // A field the body cannot write (the identifier, the owner, read-only, a replace's write-once) is no part of it.
  if (!props?.[name] || !f || !isWritable(resource, f, view)) return s;
  let out = s;
  if (rest.length > 0) {
    const inner = leaveOutBound(props[name], rest, f.fields, view, undefined);
    if (inner === props[name]) return s;
    out = { ...s, properties: { ...props, [name]: inner } };
    if (Array.isArray(inner.required) && inner.required.length > 0) return out;
  }
  const required = ((out.required as string[] | undefined) ?? []).filter((n) => n !== name);
  if (required.length === ((out.required as string[] | undefined) ?? []).length) return out;
  out = { ...out, required };
  if (required.length === 0) delete out.required;
  return out;
}

/**
 * The body a create, update or replace operation accepts: the resource's request view, narrowed to the operation's
 * `request_fields` where it declares them (the same schema as getResourceSchema's when it does not).
 */
export function getRequestSchema(
  model: ServiceModel,
  resource: ResourceModel,
  op: Pick<OperationModel, 'requestFields' | 'bindings'> & Partial<Pick<OperationModel, 'action' | 'unknownFields'>>,
  view: Exclude<SchemaView, 'response'>,
  opts: SchemaOptions = {},
): JsonSchema {
  let s: JsonSchema;
  if (op.requestFields === undefined) s = getResourceSchema(model, resource, view, opts);
  else {
    // A field the path binds (`bind`) is the path's value, which the runtime puts in the body before validating it.
    const bound = (op.bindings ?? [])
      .filter((b) => b.parent === undefined)
      .map((b) => b.field.split('.')[0]!)
      .filter((n) => !op.requestFields!.includes(n));
    s = getResourceSchema(model, resource, view, { ...opts, only: bound.length > 0 ? [...op.requestFields, ...bound] : op.requestFields });
  }
  // `unknown_fields: ignore`: an open object; the runtime drops the members it does not name before validating.
  if (op.unknownFields === 'ignore' && getUnknownFields({ action: op.action ?? view, unknownFields: op.unknownFields }) === 'ignore') {
    const opened = (x: JsonSchema): JsonSchema => {
      const { additionalProperties: _closed, ...open } = x;
      return open;
    };
    // A resource of several shapes: each variant opened (it is still told apart by its tag, or its stored object's).
    if (Array.isArray(s.oneOf)) s = { ...s, oneOf: (s.oneOf as JsonSchema[]).map(opened) };
    else if (Array.isArray(s.anyOf)) s = { ...s, anyOf: (s.anyOf as JsonSchema[]).map(opened) };
    else s = opened(s);
  }
  return s;
}

/**
 * An update's JSON merge patch (RFC 7396, \`request_media_type: application/merge-patch+json\`) as one schema: the
 * update's request, each field that may be absent also taking null (a null removes it), and an object field's
 * members none required (an object merges into the stored one), at every depth. What the runtime takes
 * (runtime-merge-patch.ts checks the nulls, then validates the merged object with the update's own schema).
 */
export function getMergePatchSchema(
  model: ServiceModel,
  resource: ResourceModel,
  op: Parameters<typeof getRequestSchema>[2],
  opts: SchemaOptions = {},
): JsonSchema {
  const patched = ({ nullableInAnswersOnly: _answers, ...f }: FieldModel, nested: boolean): FieldModel => ({
    ...f,
    ...(f.type === 'object' && f.fields ? { fields: f.fields.map((m) => patched(m, true)) } : {}),
    nullable: isNullableInRequests({ ...f, nullableInAnswersOnly: _answers }) || f.optional,
    optional: nested || f.optional,
  });
  const u = resource.variants;
  // A resource of several shapes: each variant's own fields are patched as the shared ones are.
  const variants = u && { ...u, variants: u.variants.map((v) => ({ ...v, fields: v.fields.map((f) => patched(f, false)) })) };
  return getRequestSchema(model, { ...resource, fields: resource.fields.map((f) => patched(f, false)), ...(variants ? { variants } : {}) }, op, 'update', opts);
}

/**
 * Why `source: service` changes nothing on a resource's field, or undefined where it holds: it says a required
 * read-only field the service sets by a rule the spec does not state, so the field must be read-only, required, and
 * have no other source (`generated`, a `default`, a transition `stamp`, being the identifier, owner or state field).
 */
export function getServiceSourceProblem(model: ServiceModel, resource: ResourceModel, f: FieldModel): string | undefined {
  if (getStateMachine(model, resource.name)?.transitions.some((t) => t.stamp === f.name)) return 'that a transition stamps';
  return getServiceSourceRoleProblem(resource, f);
}

/** getServiceSourceProblem without the transitions' stamps (what the runtime's presenters, which hold no model, read). */
function getServiceSourceRoleProblem(resource: ResourceModel, f: FieldModel): string | undefined {
  if (!f.readOnly) return 'that is not read-only (clients write it)';
  if (f.optional) return 'that is optional';
  if (f.hasDefault) return 'with a `default` (it is the value)';
  if (f.generated !== undefined) return 'that is `generated`';
  if (f.name === resource.identifier) return 'that is the identifier';
  if (f.name === resource.owner) return 'that is the owner field';
  if (f.type === 'state') return 'that is the state field';
  return undefined;
}

/** Whether a resource's own field says `source: service` and is one it holds for (transitions' stamps aside). */
export function isServiceSetField(resource: ResourceModel, f: FieldModel): boolean {
  return f.source === 'service' && getServiceSourceRoleProblem(resource, f) === undefined;
}

/**
 * A resource's own fields the service sets by a rule the spec does not state (`source: service`, where it holds):
 * every answer holds each; its value is a named gap, so the runtime has none and its answers leave the field out.
 */
export function getServiceSetFields(model: ServiceModel, resource: ResourceModel): readonly FieldModel[] {
  return resource.fields.filter((f) => f.source === 'service' && getServiceSourceProblem(model, resource, f) === undefined);
}

/**
 * The members nested in a resource's own fields that are read-only and required with nothing stating their value
 * (PagerDuty's `services[].id`, read-only and required in a reference a client sends): a client cannot write them
 * (read-only members are left out of requests) and the service stores the object as sent, so every answer must hold
 * a value the spec does not state — a named gap, as a top-level field's `source: service` is. Each as a path: dots
 * into objects and union variants, `[]` into a list's items, `{}` into a map's values (`services[].id`, `assignee.id`). A read-only member's
 * own members are not walked (the member is named whole); nor a field no answer carries (read-only or write-only at
 * the top: a read-only one is the service's whole, named by `source: service` where required).
 */
export function getServiceSetMembers(resource: ResourceModel): readonly string[] {
  const out = new Set<string>();
  const walkFields = (fields: readonly FieldModel[], prefix: string): void => {
    for (const f of fields) {
      if (f.readOnly) {
        if (!f.optional && !f.hasDefault) out.add(`${prefix}${f.name}`);
      } else walkValue(f, `${prefix}${f.name}`);
    }
  };
  const walkValue = (f: FieldModel, path: string): void => {
    if (f.type === 'object') walkFields(f.fields ?? [], `${path}.`);
    else if (f.type === 'array' && f.items) walkValue(f.items, `${path}[]`);
    else if (f.type === 'map' && f.items) walkValue(f.items, `${path}{}`);
    else if (f.type === 'union') for (const v of f.union?.variants ?? []) walkFields(v.fields, `${path}.`);
  };
  for (const f of resource.fields) if (!f.readOnly && !f.writeOnly) walkValue(f, f.name);
  return [...out];
}

/**
 * The fields a create or replace request may leave out whose value the spec does not state (`optionalInRequests`,
 * not given by the path): a request leaving one out is a named gap's, answered not_implemented; the service never
 * makes a value up. Empty for every other operation.
 */
export function getUnstatedValueFields(resource: ResourceModel, op: Pick<OperationModel, 'action' | 'requestFields' | 'bindings'>): readonly string[] {
  if (op.action !== 'create' && op.action !== 'replace') return [];
  const bound = new Set((op.bindings ?? []).map((b) => b.field.split('.')[0]));
  return resource.fields
    .filter(
      (f) =>
        isLeftOutIn(f, op.action) &&
        !f.optional &&
        !f.hasDefault &&
        isWritable(resource, f, op.action as 'create' | 'replace') &&
        !bound.has(f.name) &&
        (op.requestFields === undefined || op.requestFields.includes(f.name)),
    )
    .map((f) => f.name);
}

/**
 * The fields a create whose `request_fields` leave them out has no value for: required, with no `default` (one
 * `requiredInRequests` still fills a field the request does not take), not made by the server (read-only,
 * `generated`, the identifier, owner or state field are not writable at all) and not given by the path (`bind`).
 * A named gap: the service never makes one up (docs/format.md, "Requests that take some of the fields"). Empty for
 * every other operation.
 */
export function getUnsourcedFields(resource: ResourceModel, op: Pick<OperationModel, 'action' | 'requestFields' | 'bindings'>): readonly string[] {
  const only = op.requestFields;
  if (op.action !== 'create' || only === undefined) return [];
  const bound = new Set((op.bindings ?? []).map((b) => b.field.split('.')[0]));
  return resource.fields
    .filter(
      (f) => !only.includes(f.name) && isWritable(resource, f, 'create') && !f.optional && !f.hasDefault && f.generated === undefined && !bound.has(f.name),
    )
    .map((f) => f.name);
}

/** The body a transition accepts: the fields it requires that a client may write. */
export function getTransitionSchema(model: ServiceModel, resource: ResourceModel, requires: readonly string[], opts: SchemaOptions = {}): JsonSchema {
  const fields = requires.map((n) => getField(resource, n)).filter((f): f is FieldModel => f !== undefined);
  const s = getObjectSchema(model, fields, resource, 'update', opts);
  return s;
}

/** A declared request or response shape of a custom operation or event payload. */
export function getShapeSchema(model: ServiceModel, shape: ShapeModel, view: SchemaView, opts: SchemaOptions = {}): JsonSchema {
  let s: JsonSchema;
  if (shape.resource !== undefined) {
    const r = getResource(model, shape.resource);
    s = r ? getResourceSchema(model, r, view, opts) : {};
  } else if (shape.union) {
    s = getUnionSchema(model, shape.union, undefined, view === 'response' ? 'response' : 'create', opts);
    s = named(opts, shape.union, { schema: s, view: view === 'response' ? 'response' : 'create', body: true });
  } else {
    s = getObjectSchema(model, shape.fields ?? [], undefined, view === 'response' ? 'response' : 'create', opts);
    s = named(opts, shape.fields, { schema: s, view: view === 'response' ? 'response' : 'create', body: true });
  }
  return shape.list ? { type: 'array', items: s } : s;
}
