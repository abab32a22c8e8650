import { readFileSync } from 'node:fs';
import { getFieldAt } from '../model/model-path-bindings.js';
import type { Diagnostic } from '../diagnostics/diagnostics-catalogue.js';
import {
  DEFAULT_PAGING,
  FORM_MEDIA_TYPE,
  getIdempotencyHeader,
  getPagingParamName,
  getUnknownFields,
  isMergePatch,
  isRawEvent,
  NOT_SHOWN,
  getFirstPage,
  isIntegerPageMember,
} from '../model/model-defaults.js';
import { getField, getResource } from '../model/model-lookup.js';
import { getEnvelopeFieldsSchema, REQUEST_ENVELOPED_ACTIONS } from '../model/model-envelope.js';
import {
  answersETag,
  getErrorCodes,
  getRoutes,
  isConditionalChange,
  LIST_PARAMS,
  PAGE_FIELDS,
  type OperationRoute,
  type Route,
  type TokenRoute,
} from '../model/model-routes.js';
import {
  getBoundRequestSchema,
  getFieldSchema,
  getListItemSchema,
  getMergePatchSchema,
  getRequestSchema,
  getResourceSchema,
  getShapeSchema,
  getTransitionSchema,
  type JsonSchema,
  type SchemaView,
} from '../model/model-schemas.js';
import type {
  EnvelopeModel,
  OperationModel,
  PageMemberModel,
  PagingModel,
  ParameterModel,
  ResourceModel,
  SchemeModel,
  ServiceModel,
  ShapeModel,
} from '../model/model-types.js';
import { diagnose, getObjectBranches, NameAllocator } from './export-shared.js';
import { getServedVersions, getVersionDocumentModel } from '../model/model-served-versions.js';

// A dependency-free TypeScript client (fetch) generated from the model's routes: a typed method per operation,
// typed request, response and error bodies, the declared authentication, an async iterator over list pages,
// Idempotency-Key and version headers, and a Standard Webhooks verifier. It compiles under `tsc --strict` with
// either the DOM library or Node's types, target ES2018 or later (async generators), TypeScript 5.9 or 6, and uses
// only what Node 20+ and browsers both have.

// The runtime every client carries is a real module (client-runtime.ts, type-checked and tested as it is); its text
// from the runtime marker on is copied into each client. It is read from the package's source file, which is
// shipped (package.json `files`): src/export/ and dist/export/ are both two levels below the package root.
const RUNTIME_FILE = new URL('../../src/export/client-runtime.ts', import.meta.url);
const RUNTIME_START = '// ---- runtime ----';
const RUNTIME_OPERATIONS = '  // ---- operations ----\n';
const RUNTIME_CLASS_DOC = '/** The client for the service: one method per operation. */';
const RUNTIME_IDEMPOTENCY_DOC = 'Sent as the idempotency header (`IDEMPOTENCY_HEADER`)';
let runtimeText: string | undefined;

/** The runtime's text from its marker on; throws (a packaging bug) when the file or a marker is missing. */
export function getClientRuntime(): string {
  if (runtimeText !== undefined) return runtimeText;
  const text = readFileSync(RUNTIME_FILE, 'utf8');
  const start = text.indexOf(RUNTIME_START);
  for (const marker of [RUNTIME_START, RUNTIME_OPERATIONS, RUNTIME_CLASS_DOC, RUNTIME_IDEMPOTENCY_DOC]) {
    if (!text.includes(marker)) throw new Error(`client-runtime.ts has no "${marker.trim()}" marker`);
  }
  runtimeText = text.slice(text.indexOf('\n', start) + 1);
  return runtimeText;
}

export interface ClientExport {
  code: string;
  diagnostics: Diagnostic[];
}

const BUILT_IN_TYPES = [
  'Page',
  'ServiceError',
  'isServiceError',
  'ClientOptions',
  'RequestOptions',
  'Credentials',
  'ErrorCode',
  'ErrorBody',
  'ProblemDetails',
  'Version',
  'EventKind',
  'EventPayloads',
  'EventPrevious',
  'RawEventKind',
  'WebhookEvent',
  'ServiceClient',
  'WebhookVerificationError',
  'verifyWebhook',
  'CURRENT_VERSION',
];

const RESERVED_METHODS = new Set(['constructor', 'then', 'toString', 'valueOf', 'hasOwnProperty']);

function pascal(name: string): string {
  return name.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_m, _s, c: string) => c.toUpperCase());
}

/** A name the spec allows but code does not (`find pet by id`, `io.k8s.api.v1.Lease`) as an identifier. */
function codeName(name: string, upper: boolean): string {
  if (isIdentifier(name)) return upper ? name.charAt(0).toUpperCase() + name.slice(1) : name;
  const words = name.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
  const joined = words.map((w, i) => (i === 0 && !upper ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1))).join('');
  if (joined === '') return upper ? 'Operation' : 'operation';
  return /^[0-9]/.test(joined) ? `${upper ? 'Op' : 'op'}${joined}` : joined;
}

/** A resource's type name: a dotted (namespaced) name by its last segment (`io.k8s.api.v1.Lease` → Lease). */
function resourceTypeName(name: string): string {
  return isIdentifier(name) ? name : codeName(name.slice(name.lastIndexOf('.') + 1), true);
}

function jsString(s: string): string {
  return JSON.stringify(s);
}

function isIdentifier(name: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name);
}

function propName(name: string): string {
  return isIdentifier(name) ? name : jsString(name);
}

/** A JSDoc block, or nothing. `*\/` in text is broken up so it cannot end the comment. */
function doc(lines: readonly (string | undefined)[], indent: string): string {
  const text = lines.filter((l): l is string => l !== undefined && l !== '').flatMap((l) => l.split('\n'));
  if (text.length === 0) return '';
  const safe = text.map((l) => l.replace(/\*\//g, '*\\/'));
  if (safe.length === 1) return `${indent}/** ${safe[0]} */\n`;
  return `${indent}/**\n${safe.map((l) => `${indent} * ${l}`).join('\n')}\n${indent} */\n`;
}

interface TsContext {
  model: ServiceModel;
  /** Marker objects standing for a named type: `{ $ts: 'Order' }`. */
  out: string[];
  names: NameAllocator;
  diagnostics: Diagnostic[];
  resourceTypes: Map<string, string>;
}

/** A JSON Schema (as model-schemas writes them) as a TypeScript type. */
export function schemaToTs(schema: unknown, indent = ''): string {
  if (schema === true || schema === undefined) return 'unknown';
  if (schema === false) return 'never';
  if (typeof schema !== 'object' || schema === null) return 'unknown';
  const s = schema as JsonSchema;
  if (typeof s.$ts === 'string') return s.$ts;
  if ('const' in s) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return s.enum.length === 0 ? 'never' : s.enum.map((v) => JSON.stringify(v)).join(' | ');
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = s[key];
    // A nullable union (3.1's `type: [object, null]` beside its oneOf) takes null too.
    const orNull = Array.isArray(s.type) && s.type.includes('null') ? ' | null' : '';
    if (Array.isArray(list)) return list.map((x) => wrap(schemaToTs(x, indent))).join(' | ') + orNull;
  }
  const types = typeof s.type === 'string' ? [s.type] : Array.isArray(s.type) ? (s.type as string[]) : [];
  if (types.length === 0) return s.properties !== undefined ? objectToTs(s, indent) : 'unknown';
  return types
    .map((t) => {
      switch (t) {
        case 'string':
          return 'string';
        case 'integer':
        case 'number':
          return 'number';
        case 'boolean':
          return 'boolean';
        case 'null':
          return 'null';
        case 'array':
          return `${wrap(schemaToTs(s.items, indent))}[]`;
        case 'object':
          return objectToTs(s, indent);
        default:
          return 'unknown';
      }
    })
    .join(' | ');
}

function wrap(t: string): string {
  return isCompound(t) ? `(${t})` : t;
}

/**
 * Whether a type has a `|` or `&` outside any braces, brackets, parentheses and string literals: a union of object
 * types (`{…} | {…}`) too, which starts with `{` and ends with `}` but is no single object (an array of it needs
 * parentheses, and it cannot be an interface).
 */
function isCompound(t: string): boolean {
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < t.length; i++) {
    const c = t[i]!;
    if (quote !== undefined) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '{' || c === '(' || c === '[' || c === '<') depth++;
    else if (c === '}' || c === ')' || c === ']' || (c === '>' && t[i - 1] !== '=')) depth--;
    else if ((c === '|' || c === '&') && depth === 0) return true;
  }
  return false;
}

function objectToTs(s: JsonSchema, indent: string): string {
  // A map (free member names, each value of one schema): Record<string, T>.
  if (s.properties === undefined && typeof s.additionalProperties === 'object' && s.additionalProperties !== null)
    return `Record<string, ${schemaToTs(s.additionalProperties, indent)}>`;
  const props = (s.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((s.required as string[] | undefined) ?? []);
  const inner = `${indent}  `;
  const lines: string[] = [];
  for (const [name, p] of Object.entries(props)) {
    const comment = doc([typeof p.description === 'string' ? p.description : undefined], inner);
    const ro = p.readOnly === true ? 'readonly ' : '';
    lines.push(`${comment}${inner}${ro}${propName(name)}${required.has(name) ? '' : '?'}: ${schemaToTs(p, inner)};`);
  }
  if (s.additionalProperties !== false) lines.push(`${inner}[key: string]: unknown;`);
  if (lines.length === 0) return 'Record<string, never>';
  return `{\n${lines.join('\n')}\n${indent}}`;
}

function declare(ctx: TsContext, name: string, schema: JsonSchema, description?: string): void {
  const comment = doc([description ?? (typeof schema.description === 'string' ? schema.description : undefined)], '');
  const t = schemaToTs(schema, '');
  if (t.startsWith('{') && !isCompound(t)) ctx.out.push(`${comment}export interface ${name} ${t}\n`);
  else ctx.out.push(`${comment}export type ${name} = ${t};\n`);
}

const VIEW_SUFFIX: Record<SchemaView, string> = { response: '', create: 'Create', update: 'Update', replace: 'Replace' };

function viewType(ctx: TsContext, r: ResourceModel, view: SchemaView): string {
  const key = `${r.name}\u0000${view}`;
  let name = ctx.resourceTypes.get(key);
  if (name === undefined) {
    name = ctx.names.allocate(`${resourceTypeName(r.name)}${VIEW_SUFFIX[view]}`);
    ctx.resourceTypes.set(key, name);
    const s = getResourceSchema(ctx.model, r, view, { annotations: true });
    // No answer carries a write-only field: the answer's type leaves it out (the document lists it, marked writeOnly).
    if (view === 'response') for (const b of getObjectBranches(s)) for (const f of r.fields) if (f.writeOnly) delete (b.properties as JsonSchema)[f.name];
    declare(ctx, name, s, view === 'response' ? r.description : `The body of a ${view} request for ${r.name}.`);
  }
  return name;
}

/**
 * The objects of a list answering some of its resource's fields (\`answer_fields\`): \`ArticleListItem\`, as the
 * OpenAPI export names its component, one type per distinct set of fields.
 */
function listItemType(ctx: TsContext, o: OperationModel, r: ResourceModel): string {
  const key = `${r.name}\u0000list-item\u0000${JSON.stringify([...o.answerFields!].sort())}`;
  let name = ctx.resourceTypes.get(key);
  if (name === undefined) {
    name = ctx.names.allocate(`${resourceTypeName(r.name)}ListItem`);
    ctx.resourceTypes.set(key, name);
    declare(ctx, name, getListItemSchema(ctx.model, r, o, { annotations: true }), `An object of the ${o.id} list: ${o.answerFields!.join(', ')} of ${r.name}.`);
  }
  return name;
}

/** A create's or replace's body type: the view's, or without requiring a field the path gives (\`bind\`, getBoundRequestSchema). */
function boundViewType(ctx: TsContext, route: OperationRoute, r: ResourceModel, view: SchemaView): string {
  if (view !== 'create' && view !== 'replace') return viewType(ctx, r, view);
  const s = getBoundRequestSchema(getResourceSchema(ctx.model, r, view, { annotations: true }), r, route.operation, view);
  if (!s) return viewType(ctx, r, view);
  const key = `${r.name}\u0000${view}\u0000${JSON.stringify(s)}`;
  let name = ctx.resourceTypes.get(key);
  if (name === undefined) {
    name = ctx.names.allocate(`${resourceTypeName(r.name)}${VIEW_SUFFIX[view]}Bound`);
    ctx.resourceTypes.set(key, name);
    declare(ctx, name, s, `The body of a ${view} request for ${r.name} at a path that gives some of its fields (the body may leave them out).`);
  }
  return name;
}

function shapeType(ctx: TsContext, shape: ShapeModel, view: SchemaView, name: string): string {
  const r = getResource(ctx.model, shape.resource);
  let t: string;
  if (r) t = viewType(ctx, r, view);
  else {
    const s = getShapeSchema(ctx.model, { ...shape, list: false }, view, { annotations: true });
    t = ctx.names.allocate(name);
    declare(ctx, t, s);
  }
  return shape.list ? `${t}[]` : t;
}

interface MethodPlan {
  route: OperationRoute;
  name: string;
  pathArgs: { name: string; type: string; fromVersion: boolean }[];
  bodyType?: string;
  bodyOptional: boolean;
  queryType?: string;
  /** Whether the query holds a required declared parameter (so the argument has no default). */
  queryRequired: boolean;
  /** The operation's declared headers (operation.headers). */
  headersType?: string;
  headersRequired: boolean;
  resultType: string;
  hasResult: boolean;
  errorCodes: string[];
  errorType: string;
  idempotent: 'auto' | 'optional' | 'none';
  pageItem?: string;
}

function versionPathParams(model: ServiceModel): Set<string> {
  const p = model.versioning?.placement;
  return new Set(p?.kind === 'path' ? Array.from(p.template.matchAll(/\{([^{}]*)\}/g), (m) => m[1] ?? '') : []);
}

function planMethod(ctx: TsContext, route: OperationRoute, methodNames: NameAllocator): MethodPlan {
  const o = route.operation;
  const r = route.resource;
  const base = codeName(pascal(o.id), true);
  const fromVersion = versionPathParams(ctx.model);
  const pathArgs = route.pathParams.map((p) => {
    if (fromVersion.has(p)) return { name: p, type: 'string', fromVersion: true };
    let type = 'string';
    const bound = r && o.bindings ? o.bindings.find((b) => b.param === p) : undefined;
    if (bound?.parent && r) {
      // The parent the objects belong to (\`Article.slug\`): the parent's field's values.
      const parent = getResource(ctx.model, bound.parent.resource);
      const f = parent && getField(parent, bound.parent.field);
      if (f) type = schemaToTs(getFieldSchema(ctx.model, { ...f, nullable: false }, parent, {}));
    } else if (bound && r) {
      // A parameter bound to a field (\`bind\`) takes that field's values.
      const f = getFieldAt(r, bound.field);
      if (f) type = schemaToTs(getFieldSchema(ctx.model, { ...f, nullable: false }, r, {}));
    } else if (o.action !== 'custom' && r?.identifier !== undefined) {
      const f = getField(r, r.identifier);
      if (f) type = schemaToTs(getFieldSchema(ctx.model, { ...f, nullable: false }, r, {}));
    } else {
      const f = o.request?.fields?.find((x) => x.name === p);
      if (f) type = schemaToTs(getFieldSchema(ctx.model, { ...f, nullable: false }, undefined, {}));
    }
    return { name: p, type: type === 'number' ? 'number' : type === 'string' ? 'string' : 'string | number', fromVersion: false };
  });
  let bodyType: string | undefined;
  let bodyOptional = false;
  if (route.hasBody) {
    if (o.action === 'custom' && o.request) {
      bodyType = shapeType(ctx, o.request, 'create', `${base}Request`);
      // A form none of whose fields is required may be left out: served, an absent form reads as no fields (the
      // export's requestBody.required is false for it too).
      if (o.request.mediaType === FORM_MEDIA_TYPE && o.request.fields !== undefined && o.request.fields.every((f) => f.optional)) bodyOptional = true;
    } else if (o.request && o.action !== 'transition')
      bodyType = shapeType(ctx, o.request, o.action === 'update' ? 'update' : o.action === 'replace' ? 'replace' : 'create', `${base}Request`);
    else if (o.action === 'update' && r && isMergePatch(o)) {
      // A JSON merge patch: null removes a field that may be absent, an object's members are all optional (getMergePatchSchema).
      bodyType = ctx.names.allocate(`${base}Request`);
      declare(ctx, bodyType, getMergePatchSchema(ctx.model, r, o, { annotations: true }), `The body of ${o.id}: a JSON merge patch of ${r.name}.`);
    } else if ((o.action === 'create' || o.action === 'update' || o.action === 'replace') && r && o.requestFields !== undefined) {
      // request_fields: the operation's own body type, the resource's view narrowed to those fields.
      bodyType = ctx.names.allocate(`${base}Request`);
      const full = getRequestSchema(ctx.model, r, o, o.action, { annotations: true });
      const body = (o.action === 'update' ? undefined : getBoundRequestSchema(full, r, o, o.action)) ?? full;
      declare(ctx, bodyType, body, `The body of ${o.id}: the ${r.name} fields it takes.`);
    } else if ((o.action === 'create' || o.action === 'update' || o.action === 'replace') && r) {
      bodyType = boundViewType(ctx, route, r, o.action);
      // unknown_fields: ignore: the service takes (and drops) members the view does not name, as the open schema says.
      if (getUnknownFields(o) === 'ignore') bodyType = `${bodyType} & { [key: string]: unknown }`;
    } else if (o.action === 'transition' && r) {
      const s = getTransitionSchema(ctx.model, r, route.transition?.requires ?? [], { annotations: true });
      bodyType = ctx.names.allocate(`${base}Body`);
      declare(ctx, bodyType, s, `The body of ${o.id}${route.transition ? ` (transition ${route.transition.name})` : ''}.`);
      bodyOptional = !Array.isArray(s.required) || (s.required as unknown[]).length === 0;
    }
  }
  let queryType: string | undefined;
  const query = route.query.filter((q) => q.kind !== 'version');
  if (query.length > 0) {
    const props: Record<string, JsonSchema> = {};
    for (const q of query) {
      if (q.kind === 'limit') props[q.name] = { type: 'integer', description: 'Items per page.' };
      else if (q.kind === 'cursor')
        props[q.name] = {
          type: 'string',
          description:
            o.paging?.style === 'after'
              ? 'The identifier of the last object of the previous page.'
              : o.paging !== undefined && (o.paging.body === 'array' || o.paging.next === undefined)
                ? "The cursor in the previous page's `Link` header."
                : `The \`${o.paging?.next ?? PAGE_FIELDS.next}\` of the previous page.`,
        };
      else if (q.kind === 'offset') props[q.name] = { type: 'integer', description: 'Items to skip before the page starts.' };
      else if (q.kind === 'page') props[q.name] = { type: 'integer', description: `The page number, from ${getFirstPage(o.paging)}.` };
      else if (q.kind === 'sort') props[q.name] = { enum: [...o.sortValues], description: 'Sort by this field; `-` for descending.' };
      else if (q.kind === 'filter')
        props[q.name] = q.field
          ? { ...getFieldSchema(ctx.model, { ...q.field, nullable: false }, r, {}), description: `Only items whose \`${q.name}\` equals this value.` }
          : {};
      else if (q.kind === 'param' && q.parameter) props[q.name] = parameterSchema(ctx, q.parameter);
    }
    queryType = ctx.names.allocate(`${base}Query`);
    declare(
      ctx,
      queryType,
      withRequired(
        { type: 'object', properties: props, additionalProperties: false },
        query.flatMap((q) => ((q.parameter && !q.parameter.optional) || q.required === true ? [q.name] : [])),
      ),
      `The query of ${o.id}.`,
    );
  }
  let headersType: string | undefined;
  if (route.headers.length > 0) {
    headersType = ctx.names.allocate(`${base}Headers`);
    const props = Object.fromEntries(route.headers.map((h) => [h.name, parameterSchema(ctx, h)]));
    declare(
      ctx,
      headersType,
      withRequired(
        { type: 'object', properties: props, additionalProperties: false },
        route.headers.filter((h) => !h.optional).map((h) => h.name),
      ),
      `The request headers of ${o.id}.`,
    );
  }
  let resultType = 'void';
  let hasResult = false;
  let pageItem: string | undefined;
  if (o.action === 'list') {
    const item = getResource(ctx.model, o.response?.resource) ?? r;
    pageItem = item ? (o.answerFields !== undefined && item === r ? listItemType(ctx, o, item) : viewType(ctx, item, 'response')) : 'unknown';
    resultType = getPageType(o.paging ?? DEFAULT_PAGING, pageItem);
    hasResult = true;
  } else if (o.response) {
    resultType = shapeType(ctx, o.response, 'response', `${base}Response`);
    hasResult = true;
  } else if (o.action !== 'custom' && o.action !== 'delete' && r) {
    resultType = viewType(ctx, r, 'response');
    hasResult = true;
  }
  if (route.successStatus === 204) {
    resultType = 'void';
    hasResult = false;
  }
  // An enveloped answer: the envelope's fields (one type per envelope) with the answer in its data field.
  if (hasResult && o.envelope) resultType = `{ ${jsString(o.envelope.data)}: ${resultType} } & ${envelopeType(ctx, o.envelope)}`;
  const codes = new Set(getErrorCodes(ctx.model, route).map((c) => c.code));
  for (const c of o.errors) codes.add(c);
  const errorCodes = (ctx.model.errors?.codes ?? []).filter((c) => codes.has(c.name)).map((c) => c.name);
  const errorType = ctx.names.allocate(`${base}ErrorCode`);
  ctx.out.push(
    `${doc([`The error codes ${o.id} can answer with.`], '')}export type ${errorType} = ${errorCodes.length > 0 ? errorCodes.map(jsString).join(' | ') : 'never'};\n`,
  );
  const idempotent = route.conditions.includes('idempotency_conflict') ? (o.idempotent === true ? 'auto' : 'optional') : 'none';
  let name = codeName(o.id, false);
  if (RESERVED_METHODS.has(name)) name = `${name}Operation`;
  name = methodNames.allocate(name);
  const queryRequired = route.query.some((q) => (q.parameter !== undefined && !q.parameter.optional) || q.required === true);
  const headersRequired = route.headers.some((h) => !h.optional);
  const plan: MethodPlan = { route, name, pathArgs, bodyOptional, queryRequired, headersRequired, resultType, hasResult, errorCodes, errorType, idempotent };
  if (headersType !== undefined) plan.headersType = headersType;
  if (bodyType !== undefined) plan.bodyType = bodyType;
  if (queryType !== undefined) plan.queryType = queryType;
  if (pageItem !== undefined) plan.pageItem = pageItem;
  return plan;
}

/** The type of an envelope's own fields, declared once per envelope. */
function envelopeType(ctx: TsContext, e: EnvelopeModel): string {
  const key = `\u0000envelope ${e.pointer}`;
  let name = ctx.resourceTypes.get(key);
  if (name === undefined) {
    name = ctx.names.allocate('Envelope');
    ctx.resourceTypes.set(key, name);
    declare(ctx, name, getEnvelopeFieldsSchema(ctx.model, e), `The response envelope (${e.pointer}) around the answer.`);
  }
  return name;
}

/** The answer of a list: the format's `Page<T>`, a bare array, or the envelope with the spec's own field names. */
function getPageType(p: Omit<PagingModel, 'declared'>, item: string): string {
  if (p.body === 'array') return `${item}[]`;
  // Page<T> says to pass its cursor back as `cursor`: a list reading it by another name spells its page out.
  if (
    p.style === 'cursor' &&
    p.items === PAGE_FIELDS.items &&
    p.next === PAGE_FIELDS.next &&
    p.total === undefined &&
    p.hasMore === undefined &&
    p.constants === undefined &&
    p.url === undefined &&
    p.nextLink === undefined &&
    p.previousLink === undefined &&
    p.members === undefined &&
    p.params.cursor === undefined
  )
    return `Page<${item}>`;
  const fields = [...Object.entries(p.constants ?? {}).map(([name, value]) => `${jsString(name)}: ${jsString(value)}`), `${jsString(p.items)}: ${item}[]`];
  if (p.style === 'cursor' && p.next !== undefined) fields.push(p.nextOptional ? `${jsString(p.next)}?: string` : `${jsString(p.next)}: string | null`);
  if (p.total !== undefined) fields.push(`${jsString(p.total)}: number`);
  if (p.hasMore !== undefined) fields.push(`${jsString(p.hasMore)}: boolean`);
  if (p.url !== undefined) fields.push(`${jsString(p.url)}: string`);
  if (p.nextLink !== undefined) fields.push(`${jsString(p.nextLink)}: string | null`);
  if (p.previousLink !== undefined) fields.push(`${jsString(p.previousLink)}: string | null`);
  if (p.members !== undefined) fields.push(...pageMemberFields(p.members));
  return `{ ${fields.join('; ')} }`;
}

/** paging.members as fields of the page's type: nested members inside object types of their own. */
function pageMemberFields(members: readonly PageMemberModel[]): string[] {
  type Tree = Map<string, string | Tree>;
  const root: Tree = new Map();
  for (const m of members) {
    let at = root;
    for (const name of m.path.slice(0, -1)) {
      if (!at.has(name)) at.set(name, new Map());
      at = at.get(name) as Tree;
    }
    at.set(m.path[m.path.length - 1]!, !isIntegerPageMember(m.role) ? 'boolean' : m.role === 'from' || m.role === 'to' ? 'number | null' : 'number');
  }
  const write = (tree: Tree): string[] => [...tree].map(([name, t]) => `${jsString(name)}: ${typeof t === 'string' ? t : `{ ${write(t).join('; ')} }`}`);
  return write(root);
}

/** A declared query parameter or header as the client types it (an array is the parameter repeated). */
function parameterSchema(ctx: TsContext, p: ParameterModel): JsonSchema {
  const s = getFieldSchema(ctx.model, { ...p, nullable: false }, undefined, {});
  return p.description !== undefined ? { ...s, description: p.description } : s;
}

function withRequired(s: JsonSchema, required: string[]): JsonSchema {
  return required.length > 0 ? { ...s, required } : s;
}

function pathExpression(route: Route, args: { name: string; fromVersion: boolean }[]): string {
  let out = '`';
  let last = 0;
  for (const m of route.path.matchAll(/\{([^{}]*)\}/g)) {
    out += route.path.slice(last, m.index).replace(/[`$\\]/g, '\\$&');
    const arg = args.find((a) => a.name === m[1]);
    out += arg?.fromVersion ? '${encodeURIComponent(version)}' : `\${encodeURIComponent(String(${arg ? safeArg(arg.name) : 'undefined'}))}`;
    last = (m.index ?? 0) + m[0].length;
  }
  out += `${route.path.slice(last).replace(/[`$\\]/g, '\\$&')}\``;
  return out;
}

const JS_RESERVED = new Set([
  'body',
  'query',
  'headers',
  'options',
  'version',
  'break',
  'case',
  'catch',
  'class',
  'const',
  'continue',
  'debugger',
  'default',
  'delete',
  'do',
  'else',
  'enum',
  'export',
  'extends',
  'false',
  'finally',
  'for',
  'function',
  'if',
  'import',
  'in',
  'instanceof',
  'new',
  'null',
  'return',
  'super',
  'switch',
  'this',
  'throw',
  'true',
  'try',
  'typeof',
  'var',
  'void',
  'while',
  'with',
  'yield',
  'let',
  'static',
  'implements',
  'interface',
  'package',
  'private',
  'protected',
  'public',
  'await',
]);

function safeArg(name: string): string {
  return JS_RESERVED.has(name) ? `${name}Param` : name;
}

function credentialsType(s: SchemeModel): string {
  switch (s.type) {
    case 'api_key':
      return 'string';
    case 'basic':
      return '{ username: string; password: string }';
    case 'bearer':
      return 'string | (() => string | Promise<string>)';
    case 'oauth2_client_credentials':
      return '{ clientId: string; clientSecret: string; scopes?: readonly string[] }';
  }
}

function credentialsDoc(s: SchemeModel): string {
  const d = s.description !== undefined ? `${s.description} ` : '';
  switch (s.type) {
    case 'api_key':
      return `${d}Sent in the ${s.in === 'query' ? 'query parameter' : 'header'} \`${s.credentialName ?? NOT_SHOWN}\`.`;
    case 'basic':
      return `${d}Sent as HTTP Basic authentication.`;
    case 'bearer':
      return `${d}Sent as \`Authorization: Bearer <token>\`; a function is called before each request.`;
    case 'oauth2_client_credentials':
      return `${d}Exchanged at \`${s.tokenPath ?? NOT_SHOWN}\` (OAuth 2.0 client credentials) for a bearer token, which is reused until it expires.`;
  }
}

export interface GenerateClientOptions {
  /**
   * Speak this served version, with its own types (`versioning.supported[].changes` undone) and its name on every
   * request; the current version by default. A version the spec does not serve is `unknown-version` (no code).
   */
  apiVersion?: string;
}

/** Generates the client. */
export function generateClient(spec: ServiceModel, options: GenerateClientOptions = {}): ClientExport {
  const diagnostics: Diagnostic[] = [];
  const model = options.apiVersion === undefined ? spec : getVersionDocumentModel(spec, options.apiVersion);
  if (!model) {
    const served = getServedVersions(spec);
    return {
      code: '',
      diagnostics: [
        diagnose(spec, 'unknown-version', {
          version: options.apiVersion ?? '',
          file: spec.file,
          served: served.length > 0 ? served.join(', ') : 'none (the spec has no versioning)',
        }),
      ],
    };
  }
  const ctx: TsContext = { model, out: [], names: new NameAllocator(BUILT_IN_TYPES), diagnostics, resourceTypes: new Map() };
  const routes = getRoutes(model);
  const opRoutes = routes.filter((r): r is OperationRoute => r.kind === 'operation');
  const tokenRoutes = new Map(routes.filter((r): r is TokenRoute => r.kind === 'token').map((r) => [r.scheme.name, r]));
  const name = model.purpose?.name ?? 'the service';

  // resources first, in spec order
  for (const r of model.resources) viewType(ctx, r, 'response');

  const methodNames = new NameAllocator(['request']);
  const plans = opRoutes.map((r) => planMethod(ctx, r, methodNames));

  // errors
  const errors = model.errors;
  const codes = errors?.codes ?? [];
  const lines: string[] = [];
  lines.push(
    `${doc(['Every error code the service declares.'], '')}export type ErrorCode = ${codes.length > 0 ? codes.map((c) => jsString(c.name)).join(' | ') : 'string'};\n`,
  );
  if (errors?.body?.kind === 'problem') {
    lines.push(`/** An error, as RFC 9457 problem details with the error code. */
export interface ProblemDetails {
  type?: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  code: ErrorCode;
  /** The invalid parts of the request. */
  errors?: { pointer?: string; parameter?: string; in?: 'path' | 'query' | 'header'; message: string }[];
  [key: string]: unknown;
}

/** The body of every error answer. */
export type ErrorBody = ProblemDetails;
`);
  } else if (errors?.body?.kind === 'declared') {
    const s = getShapeSchema(model, { fields: errors.body.fields, list: false }, 'response', {
      annotations: true,
      openAnswers: errors.body.answerMembers === 'open',
    });
    lines.push(`/** The body of every error answer, in the shape the spec declares. */\nexport interface ErrorBody ${schemaToTs(s)}\n`);
  } else {
    lines.push(`/** The error body shape is not shown in the spec. */\nexport type ErrorBody = unknown;\n`);
  }
  const statusCodes = JSON.stringify(Object.fromEntries(codes.map((c) => [c.name, c.statusRange ?? c.status])));

  // versions
  const v = model.versioning;
  const versions = [...new Set([...(v?.current !== undefined ? [v.current] : []), ...(v?.supported ?? []).map((s) => s.version)])];
  lines.push(
    `${doc(['The versions of the interface the service serves.'], '')}export type Version = ${versions.length > 0 ? versions.map(jsString).join(' | ') : 'string'};\n`,
  );
  lines.push(
    `${doc(['The version this client was generated for; it is sent with every request unless another is chosen.'], '')}export const CURRENT_VERSION: Version | undefined = ${v?.current !== undefined ? jsString(v.current) : 'undefined'};\n`,
  );

  // events
  const kinds = model.events?.kinds ?? [];
  const payloads: string[] = [];
  const previous: string[] = [];
  for (const k of kinds) {
    // The runtime sends one object per event (a list payload included): data.object.
    const t = k.payload ? shapeType(ctx, { ...k.payload, list: false }, 'response', `${pascal(k.name)}Payload`) : 'unknown';
    payloads.push(`${doc([k.description], '  ')}  ${jsString(k.name)}: ${t};`);
    // data.previous: on updates and transitions only, the earlier values of the fields the change altered.
    const sent = k.triggers.some((x) => x.action === 'update' || x.action === 'transition');
    previous.push(`  ${jsString(k.name)}: ${!sent ? 'never' : t === 'unknown' ? 'Record<string, unknown>' : `{ [F in keyof ${t}]?: ${t}[F] | null }`};`);
  }
  lines.push(
    `${doc(['Every event kind the service sends.'], '')}export type EventKind = ${kinds.length > 0 ? kinds.map((k) => jsString(k.name)).join(' | ') : 'never'};\n`,
  );
  lines.push(
    `${doc(['The payload (`data.object`) of each event kind.'], '')}export interface EventPayloads {\n${payloads.join('\n')}${payloads.length > 0 ? '\n' : ''}}\n`,
  );
  lines.push(
    `${doc(['`data.previous` of each event kind: sent on updates and transitions, the values before the change of the fields it altered (null for one that had none); `never` where the kind is sent on creates and deletes only.'], '')}export interface EventPrevious {\n${previous.join('\n')}${previous.length > 0 ? '\n' : ''}}\n`,
  );
  const raw = kinds.filter(isRawEvent).map((k) => jsString(k.name));
  lines.push(
    `${doc(['The event kinds delivered raw (`body: raw`): the webhook body is the payload itself, with no envelope.'], '')}export type RawEventKind = ${raw.length > 0 ? raw.join(' | ') : 'never'};\n`,
  );
  lines.push(`/** An event as delivered: the envelope \`{ id, type, timestamp, version, data: { object, previous? } }\`, or for a raw kind its payload itself (its id and time are the webhook-id and webhook-timestamp headers). */
export type WebhookEvent = { [K in EventKind]: K extends RawEventKind ? EventPayloads[K] : { id: string; type: K; timestamp: string; version?: string; data: { object: EventPayloads[K]; previous?: EventPrevious[K] } } }[EventKind];
`);

  // authentication
  const schemes = model.authentication?.schemes ?? [];
  const credLines = schemes.map((s) => `${doc([credentialsDoc(s)], '  ')}  ${propName(s.name)}?: ${credentialsType(s)};`);
  const schemeTable = JSON.stringify(
    Object.fromEntries(
      schemes.map((s) => [
        s.name,
        {
          type: s.type,
          ...(s.in !== undefined ? { in: s.in } : {}),
          ...(s.credentialName !== undefined ? { name: s.credentialName } : {}),
          ...(tokenRoutes.get(s.name) ? { tokenPath: tokenRoutes.get(s.name)!.path } : {}),
        },
      ]),
    ),
  );
  for (const s of schemes) {
    if (s.type === 'api_key' && s.credentialName === undefined)
      diagnostics.push(
        diagnose(
          model,
          'export-skipped',
          { item: `scheme ${s.name}`, target: 'client', reason: 'it names no header or query parameter, so the client cannot send its key' },
          s.pointer,
        ),
      );
    if (s.type === 'oauth2_client_credentials' && !tokenRoutes.get(s.name))
      diagnostics.push(
        diagnose(
          model,
          'export-skipped',
          { item: `scheme ${s.name}`, target: 'client', reason: 'it names no token endpoint, so the client cannot get tokens' },
          s.pointer,
        ),
      );
  }

  const placement = v?.placement;
  const versionConfig = JSON.stringify(
    placement
      ? placement.kind === 'path'
        ? { kind: 'path' }
        : placement.kind === 'media_type'
          ? { kind: 'media_type', name: placement.template }
          : { kind: placement.kind, name: placement.name }
      : { kind: 'none' },
  );

  // the operation table, read at run time: auth, error codes by status, idempotency
  const opTable = JSON.stringify(
    Object.fromEntries(
      plans.map((p) => {
        const auth = p.route.operation.auth;
        return [
          p.name,
          {
            auth: auth === undefined ? null : auth.kind === 'none' ? [] : auth.schemes,
            errors: p.errorCodes,
            // A form request (request.media_type): the body goes as a form, not JSON.
            ...(p.route.operation.request?.mediaType === FORM_MEDIA_TYPE ? { form: true } : {}),
            // A stated JSON type (request_media_type: an update's merge patch, say): the body's Content-Type.
            ...(p.route.operation.requestMediaType !== undefined ? { mediaType: p.route.operation.requestMediaType } : {}),
            // request_envelope: the method takes the inner body; the runtime wraps it when sending.
            ...(p.route.operation.requestEnvelope !== undefined && REQUEST_ENVELOPED_ACTIONS.has(p.route.operation.action)
              ? { wrap: p.route.operation.requestEnvelope.data }
              : {}),
          },
        ];
      }),
    ),
  );
  const idempotencyHeader = getIdempotencyHeader(model);

  // methods
  const methods: string[] = [];
  for (const p of plans) {
    const o = p.route.operation;
    const params: string[] = p.pathArgs.filter((a) => !a.fromVersion).map((a) => `${safeArg(a.name)}: ${a.type}`);
    if (p.bodyType !== undefined) params.push(p.bodyOptional ? `body: ${p.bodyType} = {}` : `body: ${p.bodyType}`);
    if (p.queryType !== undefined) params.push(p.queryRequired ? `query: ${p.queryType}` : `query: ${p.queryType} = {}`);
    if (p.headersType !== undefined) params.push(p.headersRequired ? `headers: ${p.headersType}` : `headers: ${p.headersType} = {}`);
    const optType = p.idempotent === 'none' ? 'RequestOptions' : 'IdempotentRequestOptions';
    params.push(`options: ${optType} = {}`);
    const comment = doc(
      [
        o.summary,
        o.description,
        `\`${p.route.method} ${p.route.path}\` → ${p.route.successStatus}${o.upsert ? ', or 201 when no object had the identifier: it creates it (upsert)' : ''}.`,
        answersETag(p.route.resource, o)
          ? `Answers the ${p.route.resource!.name}'s ETag (\`options.onHeaders\`)${o.action === 'read' ? '; with `options.ifNoneMatch` naming it, a 304 throws `NotModified`' : ''}.`
          : undefined,
        isConditionalChange(p.route.resource, o)
          ? o.ifMatch === 'required'
            ? 'Send the current ETag as `options.ifMatch` (required: without it the service answers 428); a stale one is refused (412).'
            : 'Pass the ETag read as `options.ifMatch` to change the object only as it was read (412 when it changed since).'
          : undefined,
        p.idempotent === 'auto'
          ? `Sends \`${idempotencyHeader}\` (a new key unless \`options.idempotencyKey\` is given), so a retry is safe.`
          : p.idempotent === 'optional'
            ? `Pass \`options.idempotencyKey\` to make a retry safe.`
            : undefined,
        o.deprecated ? '@deprecated' : undefined,
        `@throws {ServiceError<${p.errorType}>} when the service answers with a declared error.`,
      ],
      '  ',
    );
    const call = [
      jsString(p.name),
      jsString(p.route.method),
      `(${p.pathArgs.some((a) => a.fromVersion) ? 'version' : ''}) => ${pathExpression(p.route, p.pathArgs)}`,
      `{ ${[p.bodyType !== undefined ? 'body' : '', p.queryType !== undefined ? 'query' : '', p.headersType !== undefined ? 'headers' : '', 'options', p.idempotent === 'auto' ? 'idempotent: true' : ''].filter(Boolean).join(', ')} }`,
    ].join(', ');
    const ret = p.hasResult ? `this.request<${p.resultType}>(${call})` : `this.request<undefined>(${call}).then(() => undefined)`;
    methods.push(`${comment}  ${p.name}(${params.join(', ')}): Promise<${p.resultType}> {\n    return ${ret};\n  }\n`);
    const paging = o.paging ?? DEFAULT_PAGING;
    // An iterator where the answer says how to go on: a cursor in the envelope, or an offset or page number counted
    // up until a page comes back empty, or style after's last identifier. A cursor only in the Link header is not read
    // (the client returns bodies).
    const envelope = o.envelope;
    const nextInEnvelope = envelope?.values.find((v) => v.source === 'next');
    // Style after names the last item's identifier: the item must carry one to go on from.
    const afterKey = paging.style === 'after' && typeof o.resource === 'string' ? getResource(model, o.resource)?.identifier : undefined;
    const iterable =
      paging.style === 'offset' ||
      paging.style === 'page' ||
      afterKey !== undefined ||
      (paging.style === 'cursor' && ((paging.body === 'envelope' && paging.next !== undefined) || nextInEnvelope !== undefined));
    if (o.action === 'list' && p.pageItem !== undefined && iterable) {
      const iter = methodNames.allocate(`${p.name}All`);
      const iterParams = params.filter((x) => !x.startsWith('query:') && !x.startsWith('headers:') && !x.startsWith('options:'));
      const headersParam = params.filter((x) => x.startsWith('headers:'));
      const callArgs = p.pathArgs.filter((a) => !a.fromVersion).map((a) => safeArg(a.name));
      // A list declaring headers (operation.headers) sends them with every page.
      const withHeaders = p.headersType !== undefined ? ['headers'] : [];
      const at = getPagingParamName(paging, paging.style === 'cursor' || paging.style === 'after' ? 'cursor' : paging.style === 'offset' ? 'offset' : 'page');
      // With an envelope the page is in its data field, and the next cursor where the envelope puts it.
      const inner = envelope ? `page[${jsString(envelope.data)}]` : 'page';
      const items = paging.body === 'array' ? inner : `${inner}[${jsString(paging.items)}]`;
      const next = nextInEnvelope
        ? `page${nextInEnvelope.path.map((n, i) => `${i > 0 ? '?.' : ''}[${jsString(n)}]`).join('')}`
        : `${inner}[${jsString(paging.next ?? '')}]`;
      const head =
        `${doc([paging.style === 'cursor' ? `Every item of ${o.id}, page after page (follows \`${paging.next}\` until it is ${paging.nextOptional ? 'left out' : 'null'}).` : afterKey !== undefined ? `Every item of ${o.id}, page after page (each from the last item's \`${afterKey}\`${paging.hasMore !== undefined && paging.body === 'envelope' ? `, until \`${paging.hasMore}\` is false` : ''}).` : `Every item of ${o.id}, page after page (until a page comes back empty).`, `@throws {ServiceError<${p.errorType}>} when the service answers with a declared error.`], '  ')}` +
        `  async *${iter}(${[...iterParams, `query: Omit<${p.queryType ?? 'Record<string, never>'}, ${jsString(at)}>${p.queryRequired ? '' : ' = {}'}`, ...headersParam, 'options: RequestOptions = {}'].join(', ')}): AsyncGenerator<${p.pageItem}, void, undefined> {\n`;
      // Style after: from the last item's identifier, until a page says no more follow (has_more) or comes back empty.
      const hasMore = paging.hasMore !== undefined && paging.body === 'envelope' ? `${inner}[${jsString(paging.hasMore)}]` : undefined;
      const walkAfter =
        afterKey !== undefined
          ? `    let after: string | undefined;\n` +
            `    for (;;) {\n` +
            `      const page: ${p.resultType} = await this.${p.name}(${[...callArgs, `{ ...query, ...(after !== undefined ? { ${jsString(at)}: after } : {}) }`, ...withHeaders, 'options'].join(', ')});\n` +
            `      const items = ${items};\n` +
            `      if (items.length === 0) return;\n` +
            `      yield* items;\n` +
            (hasMore !== undefined ? `      if (!${hasMore}) return;\n` : '') +
            `      after = String(items[items.length - 1]![${jsString(afterKey)}]);\n` +
            `    }\n`
          : undefined;
      const body =
        walkAfter !== undefined
          ? walkAfter
          : paging.style === 'cursor'
            ? `    let cursor: string | undefined;\n` +
              `    do {\n` +
              `      const page: ${p.resultType} = await this.${p.name}(${[...callArgs, `{ ...query, ...(cursor !== undefined ? { ${jsString(at)}: cursor } : {}) }`, ...withHeaders, 'options'].join(', ')});\n` +
              `      yield* ${items};\n` +
              `      cursor = ${next} ?? undefined;\n` +
              `    } while (cursor !== undefined);\n`
            : `    for (let at = ${paging.style === 'page' ? getFirstPage(paging) : 0}; ; ) {\n` +
              `      const page: ${p.resultType} = await this.${p.name}(${[...callArgs, `{ ...query, ${jsString(at)}: at }`, ...withHeaders, 'options'].join(', ')});\n` +
              `      if (${items}.length === 0) return;\n` +
              `      yield* ${items};\n` +
              `      at += ${paging.style === 'page' ? '1' : `${items}.length`};\n` +
              `    }\n`;
      methods.push(`${head}${body}  }\n`);
    }
  }

  const header = `/* eslint-disable */
// Generated by servicespec from ${model.file} (${name}). Do not edit: run \`servicespec client\` again.
// A typed client for ${name}: fetch only, no dependencies; runs in Node.js 20+ and browsers.
// Compiles under \`tsc --strict\` with TypeScript 5.9 or later and \`target\` (or \`lib\`) ES2018 or later, which
// TypeScript 6 has by default; TypeScript 5.9 defaults to ES5, so pass \`--target ES2018\` there.
${v?.current !== undefined ? `// Speaks version ${v.current.replace(/[\r\n]/g, ' ')} of the interface, with its types; \`servicespec client --api-version V\` makes one for another served version.\n` : ''}`;
  const types = ctx.out.join('\n');
  const generated = `
// ---- the client -----------------------------------------------------------------------------------------------

/** A page of a list: pass \`${PAGE_FIELDS.next}\` back as \`${LIST_PARAMS.cursor}\` for the next one; null on the last page. */
export interface Page<T> {
  ${PAGE_FIELDS.items}: T[];
  ${PAGE_FIELDS.next}: string | null;
}

/** Credentials, by the name of the scheme they belong to; each operation uses the first of its schemes given here. */
export interface Credentials {
${credLines.join('\n')}${credLines.length > 0 ? '\n' : ''}}

const STATUS_OF_CODE: Readonly<Record<string, number | string>> = ${statusCodes};
const SCHEMES: Readonly<Record<string, { type: string; in?: string; name?: string; tokenPath?: string }>> = ${schemeTable};
const OPERATIONS: Readonly<Record<string, { auth: readonly string[] | null; errors: readonly string[]; form?: boolean; mediaType?: string; wrap?: string }>> = ${opTable};
const VERSIONING: { kind: string; name?: string } = ${versionConfig};
const IDEMPOTENCY_HEADER = ${jsString(idempotencyHeader)};
`;
  const runtime = getClientRuntime()
    .replace(RUNTIME_CLASS_DOC, () => `/** The client for ${name.replace(/\*\//g, '')}: one method per operation. */`)
    .replace(RUNTIME_IDEMPOTENCY_DOC, () => `Sent as \`${idempotencyHeader.replace(/\*\//g, '')}\``)
    .replace(RUNTIME_OPERATIONS, () => methods.join('\n'));
  const code = `${header}\n// ---- types ----------------------------------------------------------------------------------------------------\n\n${types}\n${lines.join('\n')}${generated}${runtime}`;
  return { code, diagnostics };
}
