// Response envelopes in an OpenAPI document (docs/import.md, "Response envelopes"): a success answer that is an
// object holding the resource (or a list of it) in `data` beside objects of its own — giphy's { data, meta,
// pagination } — is read as the answer in an envelope. Each envelope field gets the value the runtime knows by its
// name (as an error body's code, status and message fields are found), or is a constant where the document allows it
// one value (`success: { enum: [true] }`); a required field neither fills means the answer is not an envelope the
// runtime can write, and the operation is read as before.

import { constrainsEnvelopeValue, LINK_SOURCES, listHasValue, LIST_ONLY_SOURCES, NULLABLE_LINK_SOURCES } from '../model/model-envelope.js';
import { ENVELOPE_SOURCES, type Action, type EnvelopeSource, type EnvelopeSpec, type FieldSpec, type ListStyle, type ShapeSpec } from '../spec/spec-types.js';
import { joinPointer } from '../util/util-json-pointer.js';
import {
  ENVELOPE_COUNT_NAMES,
  ENVELOPE_PAGE_COUNT_NAMES,
  ENVELOPE_PAGE_SIZE_NAMES,
  FIRST_LINK_NAMES,
  LAST_LINK_NAMES,
  NEXT_CURSOR_NAMES,
  NEXT_LINK_NAMES,
  OFFSET_NAMES,
  PAGE_NUMBER_NAMES,
  PREVIOUS_LINK_NAMES,
  SELF_LINK_NAMES,
  TOTAL_NAMES,
} from './import-page-names.js';
import { fieldsFromSchema, flatten, isObject, shapeFromSchema, unwrapNull, type Json, type SchemaContext } from './import-schema.js';

/** The property names that hold the answer in an envelope. */
const DATA_NAMES = ['data', 'result', 'payload', 'items'];

/** Data names that hold a list's answer only (Kubernetes' `items`): an envelope of them holds an array. */
const LIST_DATA_NAMES: ReadonlySet<string> = new Set(['items']);

/** The names each value goes by in envelopes (first match wins, in this order of values); a list's, import-page-names.ts'. */
const ENVELOPE_NAMES: Readonly<Record<EnvelopeSource, readonly string[]>> = {
  status: ['status', 'status_code', 'statusCode', 'http_status', 'httpStatus'],
  status_text: ['msg', 'status_text', 'statusText', 'reason', 'reason_phrase'],
  request_id: ['request_id', 'requestId', 'response_id', 'responseId'],
  total: TOTAL_NAMES,
  count: ENVELOPE_COUNT_NAMES,
  offset: OFFSET_NAMES,
  limit: ENVELOPE_PAGE_SIZE_NAMES,
  page: PAGE_NUMBER_NAMES,
  next: NEXT_CURSOR_NAMES,
  pages: ENVELOPE_PAGE_COUNT_NAMES,
  // Pages' whole addresses: JSON:API's links { self, first, next, prev }, Twilio's meta { url, first_page_url, … }.
  self_link: SELF_LINK_NAMES,
  first_link: FIRST_LINK_NAMES,
  next_link: NEXT_LINK_NAMES,
  last_link: LAST_LINK_NAMES,
  previous_link: PREVIOUS_LINK_NAMES,
};

const SOURCE_TYPES: Readonly<Record<EnvelopeSource, readonly string[]>> = {
  status: ['integer', 'number'],
  status_text: ['string'],
  request_id: ['string'],
  total: ['integer', 'number'],
  count: ['integer', 'number'],
  offset: ['integer', 'number'],
  limit: ['integer', 'number'],
  page: ['integer', 'number'],
  next: ['string'],
  pages: ['integer', 'number'],
  // A page's own and first addresses only where the document says they are addresses (format: uri): Kubernetes'
  // ListMeta.selfLink, a plain string, was a path (and is no longer written).
  self_link: ['uri'],
  first_link: ['uri'],
  last_link: ['uri'],
  next_link: ['uri', 'string'],
  previous_link: ['uri', 'string'],
};

/** An answer that may be an envelope: its data (a resource or a list of one) and its other fields. */
export interface EnvelopeCandidate {
  data: string;
  dataNode: unknown;
  dataPointer: string;
  dataShape: ShapeSpec;
  fields: Record<string, FieldSpec>;
  /** The list's largest page size (its page size parameter's maximum): an echoed page size bounded by it is a page's. */
  limitCap?: number;
  /** The resource a page object in the data member lists (its items member's): the data is that list's page. */
  listed?: string;
  /** A wrapper whose one member the document leaves optional (DigitalOcean's `{ droplet }`): served, it always holds it. */
  optional?: true;
}

/** The envelope an answer may be: an object with a data property holding a resource, beside at least one object. */
export function readEnvelopeCandidate(ctx: SchemaContext, schema: unknown, pointer: string, limitCap?: number): EnvelopeCandidate | undefined {
  const flat = flatten(ctx, schema, pointer);
  const s = flat.schema;
  if (!s || !isObject(s.properties)) return undefined;
  const props = s.properties;
  const only = Object.keys(props).length === 1 ? Object.keys(props)[0] : undefined;
  if (only !== undefined) {
    const required = Array.isArray(s.required) && s.required.includes(only);
    const wrapper = readWrapper(ctx, props[only], joinPointer(joinPointer(flat.pointer, 'properties'), only), only);
    // An optional member is a wrapper only where it is named after the resource it holds (`droplet`: Droplet) or is
    // an envelope's data name (Directus' `{ data: Presets }`), so an object with one optional member of its own
    // (`{ config }`) is not read as one.
    if (wrapper && required) return wrapper;
    if (wrapper && (namesResource(only, wrapper.dataShape.resource!) || (DATA_NAMES.includes(only) && !LIST_DATA_NAMES.has(only))))
      return { ...wrapper, optional: true };
  }
  const data = DATA_NAMES.find((n) => Object.hasOwn(props, n));
  if (data === undefined) return undefined;
  const others = Object.keys(props).filter((n) => n !== data);
  // Beside the data, objects of the API's own (meta, pagination): a flat { data, total } is a list's page instead.
  const objectLike = (n: string) => {
    const f = flatten(ctx, props[n], joinPointer(joinPointer(flat.pointer, 'properties'), n)).schema;
    return f !== undefined && isObject(f.properties);
  };
  if (others.length === 0) return undefined;
  // Members the document gives one value (`success: { enum: [true] }`): constants, written on every answer.
  const constants = new Map<string, string | number | boolean>();
  for (const n of others) {
    const value = constantOf(flatten(ctx, props[n], joinPointer(joinPointer(flat.pointer, 'properties'), n)).schema);
    if (value !== undefined) constants.set(n, value);
  }
  const flatList = !others.some(objectLike);
  // Read quietly: what the shapes cannot keep is said where the whole answer is read.
  const said = ctx.diagnostics.length;
  try {
    const dataPointer = joinPointer(joinPointer(flat.pointer, 'properties'), data);
    const dataShape = shapeFromSchema(ctx, props[data], dataPointer, 'envelope data', 'top');
    // Or a list's page object (`{ success, data: { items, total, page, pageSize } }`): whether it is one the format
    // says is read where the operation's page is (import-openapi.ts readPage), as a bare page object's is.
    const listed = dataShape && dataShape.resource === undefined ? getPageItems(ctx, props[data], dataPointer)?.resource : undefined;
    if (!dataShape || (dataShape.resource === undefined && listed === undefined) || (LIST_DATA_NAMES.has(data) && dataShape.list !== true)) return undefined;
    const rest: Json = { ...s, properties: Object.fromEntries(others.map((n) => [n, props[n]])) };
    if (Array.isArray(s.required)) rest.required = (s.required as unknown[]).filter((n) => n !== data);
    const fields = fieldsFromSchema(ctx, rest, flat.pointer, { where: 'envelope', depth: 1, stack: flat.refs }, 'top');
    // An envelope field's `default` is a constant the runtime writes on every answer: only a member of one value is
    // one. A response member's OpenAPI `default` (Kubernetes' `metadata: { default: {} }`) states no answer's value.
    withoutDefaults(fields);
    for (const [n, value] of constants) if (fields[n] !== undefined) fields[n] = { ...fields[n], default: value };
    // A flat wrapper of constants and values every answer has (`{ success: true, data }`, `{ status: 200, data }`)
    // wraps objects and lists alike; another flat one is a list's page, or a page echoing what was asked.
    const wrapper = constants.size > 0 && Object.entries(fields).every(([n, f]) => constants.has(n) || fitsAnswerSource(n, f));
    if (flatList && !wrapper && dataShape.list !== true) return undefined;
    if (flatList && !wrapper && !isEchoingPage(fields, limitCap)) return undefined;
    return {
      data,
      dataNode: props[data],
      dataPointer,
      dataShape,
      fields,
      ...(listed !== undefined ? { listed } : {}),
      ...(limitCap !== undefined ? { limitCap } : {}),
    };
  } finally {
    ctx.diagnostics.length = said;
  }
}

/**
 * A page object's items member, as a bare page's is found (import-openapi.ts readPage): its first array member listing
 * one resource (an array of something else before it, `facets: [string]`, is the page's to leave out, said there).
 * Undefined for an object holding none.
 */
export function getPageItems(ctx: SchemaContext, schema: unknown, pointer: string): { name: string; resource: string } | undefined {
  const flat = flatten(ctx, schema, pointer);
  const props = flat.schema && isObject(flat.schema.properties) ? flat.schema.properties : undefined;
  if (!props) return undefined;
  const said = ctx.diagnostics.length;
  try {
    for (const [name, node] of Object.entries(props)) {
      const at = joinPointer(joinPointer(flat.pointer, 'properties'), name);
      const member = flatten(ctx, node, at).schema;
      const t = member === undefined ? undefined : unwrapNull(ctx, member, at).schema.type;
      if (!(t === 'array' || (Array.isArray(t) && t.includes('array')))) continue;
      const shape = shapeFromSchema(ctx, node, at, 'page items', 'top');
      if (shape?.list === true && shape.resource !== undefined) return { name, resource: shape.resource };
    }
    return undefined;
  } finally {
    ctx.diagnostics.length = said;
  }
}

/** Leaves out every `default` of the fields, nested ones too (with the request optionality a default gave). */
function withoutDefaults(fields: Record<string, FieldSpec>): void {
  for (const [name, f] of Object.entries(fields)) {
    const { default: _default, requiredInRequests: _required, ...rest } = f;
    if (rest.fields) withoutDefaults((rest.fields = { ...rest.fields }));
    fields[name] = rest;
  }
}

/** The one value a schema allows (`const`, or an `enum` of one string, number or boolean); undefined otherwise. */
export function constantOf(s: Json | undefined): string | number | boolean | undefined {
  if (!s) return undefined;
  const raw = 'const' in s ? [s.const] : Array.isArray(s.enum) ? (s.enum as unknown[]) : undefined;
  if (raw?.length !== 1) return undefined;
  const v = raw[0];
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : undefined;
}

/** Whether a member carries a value every answer has (its status, reason phrase, request id), by its name and type. */
function fitsAnswerSource(name: string, f: FieldSpec): boolean {
  return (Object.keys(ENVELOPE_NAMES) as EnvelopeSource[]).some((src) => !LIST_ONLY_SOURCES.has(src) && fitsSource(src, name, f));
}

/**
 * An answer that would be an Express-style envelope (`{ success, data }`: the resource, a list of it or a list's page
 * object in a data member, beside booleans, strings or numbers alone) but for members whose one value the document
 * does not state: what the data holds (`Note`, `a page of Note`) and those members with their pointers, said with the
 * custom operation it stays; undefined for any other answer.
 */
export function getUnstatedWrapperMembers(
  ctx: SchemaContext,
  schema: unknown,
  pointer: string,
): { data: string; holds: string; members: { name: string; pointer: string }[] } | undefined {
  const said = ctx.diagnostics.length;
  try {
    const flat = flatten(ctx, schema, pointer);
    const props = flat.schema && isObject(flat.schema.properties) ? flat.schema.properties : undefined;
    const data = props ? DATA_NAMES.find((n) => Object.hasOwn(props, n)) : undefined;
    if (!props || data === undefined) return undefined;
    const at = (n: string) => joinPointer(joinPointer(flat.pointer, 'properties'), n);
    const shape = shapeFromSchema(ctx, props[data], at(data), 'envelope data', 'top');
    const listed = shape && shape.resource === undefined ? getPageItems(ctx, props[data], at(data))?.resource : undefined;
    const holds = shape?.resource ?? (listed !== undefined ? `a page of ${listed}` : undefined);
    if (holds === undefined) return undefined;
    const members: { name: string; pointer: string }[] = [];
    for (const n of Object.keys(props)) {
      if (n === data) continue;
      const s = flatten(ctx, props[n], at(n)).schema;
      const type = typeof s?.type === 'string' ? s.type : undefined;
      if (type !== 'boolean' && type !== 'string' && type !== 'integer' && type !== 'number') return undefined;
      if (constantOf(s) === undefined && !fitsAnswerSource(n, { type } as FieldSpec)) members.push({ name: n, pointer: at(n) });
    }
    return members.length > 0 ? { data, holds, members } : undefined;
  } finally {
    ctx.diagnostics.length = said;
  }
}

/** Whether a member's name is its resource's (`droplet`, `floating_ip` for `FloatingIp`), case and `_`/`-` aside. */
function namesResource(member: string, resource: string): boolean {
  const plain = (n: string) => n.replace(/[-_]/g, '').toLowerCase();
  return plain(member) === plain(resource);
}

/**
 * A Rails-style wrapper (Shopify's `{ product: Product }`): one required member, any name, holding one named
 * resource object (not a list: `{ products: [Product] }` is a list's page, its items field).
 */
function readWrapper(ctx: SchemaContext, node: unknown, dataPointer: string, data: string): EnvelopeCandidate | undefined {
  const said = ctx.diagnostics.length;
  try {
    const inner = flatten(ctx, node, dataPointer);
    if (inner.refs.length === 0 || !inner.schema || !isObject(inner.schema.properties)) return undefined;
    const dataShape = shapeFromSchema(ctx, node, dataPointer, 'envelope data', 'top');
    if (!dataShape || dataShape.resource === undefined || dataShape.list === true) return undefined;
    return { data, dataNode: node, dataPointer, dataShape, fields: {} };
  } finally {
    ctx.diagnostics.length = said;
  }
}

/** The values a list's page echoes beside its items that a page itself cannot hold (a page holds a next cursor and a total). */
const ECHOED: readonly EnvelopeSource[] = ['offset', 'limit', 'page', 'count'];

/**
 * A flat page that echoes what was asked beside its items — { items, total, limit, offset } — is a list in an
 * envelope: every member a value the runtime knows by its name, at least one a page cannot hold. Else it is a page
 * (\`{ data, total }\`) or no list at all.
 */
function isEchoingPage(fields: Readonly<Record<string, FieldSpec>>, limitCap: number | undefined): boolean {
  const sourceOf = (name: string, f: FieldSpec) => (Object.keys(ENVELOPE_NAMES) as EnvelopeSource[]).find((src) => fitsSource(src, name, f, limitCap));
  const sources = Object.entries(fields).map(([name, f]) => sourceOf(name, f));
  return sources.every((src) => src !== undefined) && sources.some((src) => ECHOED.includes(src!));
}

/**
 * The envelope of an operation of this action (and, for a list, paging style): each value it has given the field its
 * name says; undefined when a required field would get none (the answer could not be written whole).
 */
export function toEnvelope(candidate: EnvelopeCandidate, action: Action, style: ListStyle | undefined): EnvelopeSpec | undefined {
  const has = (source: EnvelopeSource) => (action === 'list' ? listHasValue(style ?? 'cursor', source) : !LIST_ONLY_SOURCES.has(source));
  const out: EnvelopeSpec = { data: candidate.data };
  const taken = new Set<EnvelopeSource>();
  // Whether anything in `fields` got a value, and whether a required one got none (an object nothing is written in
  // is left out, so what it requires counts only where it is written).
  let ok = true;
  let constant = false;
  const walk = (fields: Record<string, FieldSpec>, prefix: string): { any: boolean; missing: boolean } => {
    let any = false;
    let missing = false;
    for (const [name, f] of Object.entries(fields)) {
      const path = prefix + name;
      let filled = false;
      if (f.type === 'object' && f.fields) {
        const inner = walk(f.fields, `${path}.`);
        filled = inner.any;
        if (filled && inner.missing) ok = false;
      } else {
        const source = (Object.keys(ENVELOPE_NAMES) as EnvelopeSource[]).find((s) => !taken.has(s) && has(s) && fitsSource(s, name, f, candidate.limitCap));
        if (source !== undefined) {
          taken.add(source);
          out[source] = path;
          filled = true;
        } else if (f.default !== undefined) {
          // A constant (a member of one value): written with it on every answer.
          filled = true;
          constant = true;
        }
      }
      if (!filled && f.optional !== true) missing = true;
      any ||= filled;
    }
    return { any, missing };
  };
  if (walk(candidate.fields, '').missing) ok = false;
  // A wrapper alone (Rails-style `{ product: … }`) has no other field to fill.
  if (Object.keys(candidate.fields).length === 0) return action === 'list' ? undefined : { data: candidate.data };
  if (!ok || (taken.size === 0 && !constant)) return undefined;
  const envelope: EnvelopeSpec = { data: candidate.data, fields: candidate.fields };
  for (const source of ENVELOPE_SOURCES) if (out[source] !== undefined) envelope[source] = out[source];
  return envelope;
}

/** Whether field `name` can carry envelope source `s`: one of its names and types, unconstrained. */
function fitsSource(s: EnvelopeSource, name: string, f: FieldSpec, limitCap?: number): boolean {
  return (
    ENVELOPE_NAMES[s].includes(name) &&
    SOURCE_TYPES[s].includes(f.type) &&
    !constrainsEnvelopeValue(s, f, limitCap) &&
    // A next cursor (a next or previous page's address) is null at the list's end, or left out there (optional:
    // Kubernetes' metadata.continue); the other addresses are always there.
    (s === 'next' || NULLABLE_LINK_SOURCES.has(s) ? (f.nullable ?? false) !== false || f.optional === true : !LINK_SOURCES.has(s) || f.nullable !== true)
  );
}

/** Whether the envelope an answer may be has a field for a list's next cursor, at any depth (as toEnvelope looks). */
export function hasNextCursorField(candidate: EnvelopeCandidate): boolean {
  const any = (fields: Readonly<Record<string, FieldSpec>>): boolean =>
    Object.entries(fields).some(([name, f]) => (f.type === 'object' && f.fields !== undefined ? any(f.fields) : fitsSource('next', name, f)));
  return any(candidate.fields);
}
