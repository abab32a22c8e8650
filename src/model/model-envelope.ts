// Response envelopes (docs/format.md, "Response envelopes"): one reading of `endpoints.envelope` and an operation's
// `envelope`, for check, runtime, exports, import, tester, client, diff and the documents. An envelope wraps the
// answer an operation would give in one field (`data`) and fills each other field from a closed list of values the
// runtime knows (ENVELOPE_SOURCES), or with its `default` (a constant: `success: true`); any other field is never written.

import { ENVELOPE_SOURCES, type Action, type EnvelopeSource, type EnvelopeSpec, type FieldSpec } from '../spec/spec-types.js';
import { joinPointer } from '../util/util-json-pointer.js';
import { DEFAULT_PAGING } from './model-defaults.js';
import type { EnvelopeModel, EnvelopeValueModel, FieldModel, OperationModel, ServiceModel } from './model-types.js';
import { getShapeSchema, type JsonSchema } from './model-schemas.js';

/** The actions whose answers are wrapped: those answering an object or a list of them (not delete, not custom). */
export const ENVELOPED_ACTIONS: ReadonlySet<Action> = new Set<Action>(['read', 'list', 'create', 'update', 'replace', 'transition']);

/** The actions whose request body a `request_envelope` wraps: those taking the resource's fields. */
export const REQUEST_ENVELOPED_ACTIONS: ReadonlySet<Action> = new Set<Action>(['create', 'update', 'replace', 'transition']);

/** The values every answer has; the others (ENVELOPE_SOURCES' rest) only a list's, and every other answer leaves their fields out. */
const EVERY_ANSWER_SOURCES: ReadonlySet<EnvelopeSource> = new Set<EnvelopeSource>(['status', 'status_text', 'request_id']);

/** The values only a list answer has; every other answer leaves their fields out. */
export const LIST_ONLY_SOURCES: ReadonlySet<EnvelopeSource> = new Set<EnvelopeSource>(ENVELOPE_SOURCES.filter((s) => !EVERY_ANSWER_SOURCES.has(s)));

/** The values that are a page's whole address (JSON:API's links.self, links.next; Twilio's meta.next_page_url). */
export const LINK_SOURCES: ReadonlySet<EnvelopeSource> = new Set<EnvelopeSource>(['self_link', 'first_link', 'next_link', 'previous_link', 'last_link']);

/** The link values that are null at one end of the list (no next page after the last, none before the first). */
export const NULLABLE_LINK_SOURCES: ReadonlySet<EnvelopeSource> = new Set<EnvelopeSource>(['next_link', 'previous_link']);

/** The least value the runtime writes for each count (a total is never negative, a page number starts at 1). */
const ENVELOPE_FLOORS: Partial<Readonly<Record<EnvelopeSource, number>>> = { total: 0, count: 0, offset: 0, limit: 1, page: 1, pages: 0 };

/**
 * Whether a field constrains the value it carries (values, a pattern, bounds): the runtime writes any value of its
 * type, so it may not; a minimum at or under a count's floor (\`total: { minimum: 0 }\`) constrains nothing it writes,
 * nor a page size's maximum at or over the largest page size of the lists that write it (`limitCap`: an echoed
 * `per_page: { maximum: 100 }` of lists capped at 100).
 */
export function constrainsEnvelopeValue(
  source: EnvelopeSource,
  f: { values?: unknown; pattern?: unknown; minimum?: number; maximum?: number },
  limitCap?: number,
): boolean {
  const floor = ENVELOPE_FLOORS[source];
  const low = f.minimum !== undefined && !(floor !== undefined && f.minimum <= floor);
  const high = f.maximum !== undefined && !(source === 'limit' && limitCap !== undefined && f.maximum >= limitCap);
  return f.values !== undefined || f.pattern !== undefined || high || low;
}

/** The type a field carrying each value must have. */
export const ENVELOPE_SOURCE_TYPES: Readonly<Record<EnvelopeSource, 'integer' | 'string'>> = {
  status: 'integer',
  status_text: 'string',
  request_id: 'string',
  total: 'integer',
  count: 'integer',
  offset: 'integer',
  limit: 'integer',
  page: 'integer',
  next: 'string',
  pages: 'integer',
  self_link: 'string',
  first_link: 'string',
  next_link: 'string',
  previous_link: 'string',
  last_link: 'string',
};

/** Builds an envelope from the spec (`buildFields` is the model builder's, passed in: the builder imports this module). */
export function buildEnvelope(
  spec: EnvelopeSpec,
  pointer: string,
  buildFields: (fields: Record<string, FieldSpec>, pointer: string) => FieldModel[],
): EnvelopeModel {
  const values: EnvelopeValueModel[] = [];
  for (const source of ENVELOPE_SOURCES) {
    const path = spec[source];
    if (path !== undefined) values.push(Object.freeze({ source, path: Object.freeze(path.split('.')) }));
  }
  return Object.freeze({
    pointer,
    data: spec.data,
    fields: buildFields(spec.fields ?? {}, joinPointer(pointer, 'fields')),
    values: Object.freeze(values),
  });
}

/** The envelope an operation's answers are wrapped in: its own, else `endpoints.envelope`; none for other actions. */
export function resolveEnvelope(action: Action, declared: 'none' | EnvelopeModel | undefined, endpoints: EnvelopeModel | undefined): EnvelopeModel | undefined {
  if (!ENVELOPED_ACTIONS.has(action) || declared === 'none') return undefined;
  return declared ?? endpoints;
}

/** The field at a dotted path of the envelope (undefined when a name on the way is no field or no object). */
export function getEnvelopeField(envelope: EnvelopeModel, path: readonly string[]): FieldModel | undefined {
  let fields: readonly FieldModel[] | undefined = envelope.fields;
  let found: FieldModel | undefined;
  for (const name of path) {
    found = fields?.find((f) => f.name === name);
    if (!found) return undefined;
    fields = found.type === 'object' ? (found.fields ?? []) : undefined;
  }
  return found;
}

/** The envelope in words, for diff and documents: `{ data, meta { msg, status } }` and where each value goes. */
export function describeEnvelope(e: EnvelopeModel | undefined): string {
  if (!e) return 'no envelope';
  const shape = (fields: readonly FieldModel[]): string =>
    fields.map((f) => `${f.name}${f.optional ? '?' : ''}${f.type === 'object' && f.fields ? ` { ${shape(f.fields)} }` : ''}`).join(', ');
  const values = [
    ...e.values.map((v) => `${v.source} in ${v.path.join('.')}`),
    ...getEnvelopeConstants(e).map((c) => `${JSON.stringify(c.value)} in ${c.path.join('.')}`),
  ].join(', ');
  return `{ ${[e.data, ...(e.fields.length > 0 ? [shape(e.fields)] : [])].join(', ')} }${values !== '' ? ` (${values})` : ''}`;
}

/** What an envelope says on the wire (its fields' types and optionality, where each value goes), for comparing two. */
export function getEnvelopeKey(e: EnvelopeModel | undefined): string {
  if (!e) return '';
  const drop = new Set(['pointer', 'description', 'example']);
  return JSON.stringify({ data: e.data, fields: e.fields, values: e.values }, (k, v: unknown) => (drop.has(k) ? undefined : v));
}

/**
 * The envelope's constants: the fields no value names that declare a `default`, written with it on every answer the
 * envelope wraps (`{ "success": true, "data": … }`), nested ones by their path.
 */
export function getEnvelopeConstants(envelope: EnvelopeModel): readonly { path: readonly string[]; value: unknown }[] {
  const named = envelope.values.map((v) => v.path.join('.'));
  const out: { path: readonly string[]; value: unknown }[] = [];
  const walk = (fields: readonly FieldModel[], under: readonly string[]) => {
    for (const f of fields) {
      const path = [...under, f.name];
      const key = path.join('.');
      if (named.includes(key)) continue;
      // An object holding a named value is written member by member, its default never (check: envelope-field-clash).
      if (f.hasDefault && !named.some((n) => n.startsWith(`${key}.`))) out.push({ path, value: f.default });
      else if (f.type === 'object') walk(f.fields ?? [], path);
    }
  };
  walk(envelope.fields, []);
  return out;
}

/**
 * The schema of the envelope's own fields as answers hold them, each constant of one text, number or boolean said as
 * the one value it is (`enum: [true]`): for the exports, the typed client and the tester alike.
 */
export function getEnvelopeFieldsSchema(model: ServiceModel, envelope: EnvelopeModel): JsonSchema {
  const s = getShapeSchema(model, { fields: envelope.fields, list: false }, 'response', { annotations: true });
  for (const c of getEnvelopeConstants(envelope)) {
    if (c.value === null || typeof c.value === 'object') continue;
    let at: JsonSchema | undefined = s;
    for (const name of c.path) at = (at?.properties as Record<string, JsonSchema> | undefined)?.[name];
    if (at !== undefined) at.enum = [c.value];
  }
  return s;
}

/** Whether any operation of the model wraps its answers (the runtime builds nothing for envelopes otherwise). */
export function hasEnvelopes(model: ServiceModel): boolean {
  return (model.endpoints?.operations ?? []).some((o) => o.envelope !== undefined);
}

/** The values an operation's answers carry: a list's and every answer's, or every answer's alone. */
export function getEnvelopeValues(op: OperationModel, envelope: EnvelopeModel): readonly EnvelopeValueModel[] {
  return op.action === 'list' ? envelope.values : envelope.values.filter((v) => !LIST_ONLY_SOURCES.has(v.source));
}

/**
 * Whether a list of this paging style has the value: `offset` (the objects skipped; 0 for styles answering the first
 * page only), `limit` (the page size used; not for style none), `page` (style page), `next` (style cursor: the next page's cursor).
 * `pages`, `previous_link` and `last_link` (styles page and offset), `first_link` and `next_link` (every style with a next page:
 * not limit or none); `self_link` every style.
 */
export function listHasValue(style: string, source: EnvelopeSource): boolean {
  switch (source) {
    case 'offset':
      return style !== 'cursor';
    case 'limit':
      return style !== 'none';
    case 'page':
      return style === 'page';
    case 'next':
      return style === 'cursor';
    case 'pages':
    case 'previous_link':
    case 'last_link':
      return style === 'page' || style === 'offset';
    case 'first_link':
    case 'next_link':
      return style !== 'limit' && style !== 'none';
    default:
      return true;
  }
}

/** The objects of a list answer in its declared shape (`paging.body`, its items member), or undefined when it is not that shape. */
export function getPageItems(route: { operation: Pick<OperationModel, 'paging'> }, body: unknown): unknown[] | undefined {
  const p = route.operation.paging ?? DEFAULT_PAGING;
  if (p.body === 'array') return Array.isArray(body) ? body : undefined;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const items = (body as Record<string, unknown>)[p.items];
  return Array.isArray(items) ? items : undefined;
}
