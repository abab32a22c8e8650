import type { Diagnostic } from '../diagnostics/diagnostics-catalogue.js';
import {
  DEFAULT_PAGING,
  getPagingParamName,
  FORM_MEDIA_TYPE,
  getApiKeyPlacement,
  getDefaultSuccessStatus,
  getErrorMediaType,
  getIdempotencyHeader,
  getUnknownFields,
  isMergePatch,
  isRawEvent,
  NOT_SHOWN,
  PROBLEM_MEDIA_TYPE,
  getFirstPage,
} from '../model/model-defaults.js';
import { REQUEST_ENVELOPED_ACTIONS } from '../model/model-envelope.js';
import { getDeclaredFields, getField, getPageSize, getResource } from '../model/model-lookup.js';
import { ADDRESSING_ACTIONS, getBinding, getFieldAt, getParentChain, getResolvedBindings, isNestedPath } from '../model/model-path-bindings.js';
import { fillMediaType, parseMediaTypeTemplate } from '../model/model-media-type.js';
import {
  getErrorCodes,
  getRouteErrors,
  getRoutes,
  getUpsertLocation,
  LINK_HEADER,
  PAGE_FIELDS,
  type OperationRoute,
  type QueryParam,
  type Route,
  type StreamRoute,
  type TokenRoute,
  type WebhooksRoute,
  isConditionalChange,
} from '../model/model-routes.js';
import {
  getBoundRequestSchema,
  getFieldSchema,
  getMergePatchSchema,
  getRequestSchema,
  getListItemSchema,
  getResourceSchema,
  getShapeSchema,
  getTransitionSchema,
  type JsonSchema,
  type SchemaOptions,
  type SchemaView,
} from '../model/model-schemas.js';
import type {
  AuthRequirement,
  EventKindModel,
  FieldModel,
  NamedExampleModel,
  OperationModel,
  ParameterModel,
  RateLimitModel,
  ResourceModel,
  SchemeModel,
  ServiceModel,
  ShapeModel,
  VersionChangeModel,
  PagingModel,
} from '../model/model-types.js';
import { joinPointer } from '../util/util-json-pointer.js';
import { PART_NAMES, type PageMemberRole } from '../spec/spec-types.js';
import {
  annotateObjectSchema,
  annotateUnionSchema,
  code,
  diagnose,
  getEventDataSchema,
  list,
  getOperationRequestName,
  NameAllocator,
  NamedShapeComponents,
  toOas30Schema,
  walkFieldExtensions,
  withRules,
  type ExportResult,
  type JsonObject,
} from './export-shared.js';
import { callbacksObject } from './export-callbacks.js';
import { getErrorHeaderObjects, getETagHeaderObject, getSuccessHeaderObjects } from './export-response-headers.js';
import { getEnvelopeSchema } from './export-envelope.js';
import {
  errorsToSpec,
  eventsToSpec,
  limitsToSpec,
  namedShapesToSpec,
  pagingToSpec,
  envelopeToSpec,
  parametersToSpec,
  resourceToSpec,
  schemeToSpec,
  shapeToSpec,
  stateMachineToSpec,
  versioningToSpec,
} from './model-to-spec.js';

// OpenAPI 3.1 (or 3.0) from the model, built from getRoutes(model): the routes the runtime registers are the
// paths documented here, so what is served and what is exported cannot drift. What OpenAPI has no words for
// goes into `x-servicespec-*` extensions (docs/extensions.md) and into a "servicespec rules" paragraph of the
// descriptions; each such item is reported as an `export-extension` diagnostic, never dropped silently.

export type OpenApiVersion = '3.1' | '3.0';

export interface OpenApiExportOptions {
  /** 3.1 (the default) or 3.0. */
  openapi?: OpenApiVersion;
}

/** The headers a rate-limited route answers with (draft-ietf-httpapi-ratelimit-headers) and 429's Retry-After. */
export const RATE_LIMIT_HEADERS = { limit: 'RateLimit', policy: 'RateLimit-Policy', retryAfter: 'Retry-After' } as const;

/** The Standard Webhooks signing headers. */
export const WEBHOOK_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

const REQUEST_VIEW: Partial<Record<OperationModel['action'], SchemaView>> = { create: 'create', update: 'update', replace: 'replace' };
const VIEW_SUFFIX: Record<SchemaView, string> = { response: '', create: 'Create', update: 'Update', replace: 'Replace' };
const METHOD_KEYS = { GET: 'get', POST: 'post', PUT: 'put', PATCH: 'patch', DELETE: 'delete' } as const;

const BY_TEXT: Record<string, string> = {
  credential: 'per credential',
  address: 'per client address',
  operation: 'per operation',
  global: 'for the whole service',
};

interface Context {
  model: ServiceModel;
  version: OpenApiVersion;
  diagnostics: Diagnostic[];
  names: NameAllocator;
  schemas: Record<string, JsonObject>;
  views: Map<string, string>;
  parameters: Record<string, JsonObject>;
  headers: Record<string, JsonObject>;
  responses: Record<string, JsonObject>;
  responseNames: Map<string, string>;
  responseAllocator: NameAllocator;
  errorBody?: { ref: string; mediaType: string };
  operationIds: NameAllocator;
  /** The named shapes' components, named once the document is written. */
  shapes: NamedShapeComponents;
  /** The schema options of every annotated schema: a named shape's uses refer to its component. */
  annotated: SchemaOptions;
  /** The closed request views an open one was made from (openRef): dropped at the end where nothing refers to them. */
  opened: Set<string>;
}

function schema(ctx: Context, s: unknown): JsonObject {
  return (ctx.version === '3.0' ? toOas30Schema(s) : s) as JsonObject;
}

/** Each page member's schema (paging.members), required, nested members inside required objects of their own. */
function addPageMembers(ctx: Context, paging: Omit<PagingModel, 'declared'>, properties: JsonObject, required: string[]): void {
  const first = getFirstPage(paging);
  const leaf = (role: PageMemberRole): JsonObject => {
    switch (role) {
      case 'page':
        return { type: 'integer', minimum: first, description: `The page's number, from ${first}.` };
      case 'last_page':
        return { type: 'integer', minimum: first, description: "The last page's number; the first page's when nothing matches." };
      case 'size':
        return { type: 'integer', minimum: 1, description: 'The page size used.' };
      case 'pages':
        return { type: 'integer', minimum: 0, description: 'The number of pages: the total divided by the page size, rounded up.' };
      case 'count':
        return { type: 'integer', minimum: 0, description: 'The number of objects on this page.' };
      case 'offset':
        return { type: 'integer', minimum: 0, description: 'The number of objects before this page.' };
      case 'first':
        return { type: 'boolean', description: 'Whether this is the first page.' };
      case 'last':
        return { type: 'boolean', description: 'Whether no page follows this one.' };
      case 'empty':
        return { type: 'boolean', description: 'Whether this page holds no object.' };
      case 'from':
      case 'to':
        return schema(ctx, {
          type: ['integer', 'null'],
          minimum: 1,
          description: `The ${role === 'from' ? 'first' : 'last'} object's position, from 1; null on an empty page.`,
        });
    }
  };
  for (const m of paging.members ?? []) {
    let props = properties;
    let req = required;
    for (const name of m.path.slice(0, -1)) {
      if (props[name] === undefined) {
        props[name] = { type: 'object', properties: {}, required: [], additionalProperties: false };
        req.push(name);
      }
      const inner = props[name] as { properties: JsonObject; required: string[] };
      props = inner.properties;
      req = inner.required;
    }
    const name = m.path[m.path.length - 1]!;
    props[name] = leaf(m.role);
    req.push(name);
  }
}

function ref(name: string, kind = 'schemas'): JsonObject {
  return { $ref: `#/components/${kind}/${name}` };
}

function note(ctx: Context, item: string, extension: string, pointer?: string): void {
  ctx.diagnostics.push(diagnose(ctx.model, 'export-extension', { item, target: `OpenAPI ${ctx.version}`, extension }, pointer));
}

function clean<T extends object>(value: T): T {
  for (const k of Object.keys(value) as (keyof T)[]) if (value[k] === undefined) delete value[k];
  return value;
}

// ---- schemas ------------------------------------------------------------------------------------------------

/** A resource variant's component name in a request view (`CatCreate`), read and removed by publishVariants. */
const VARIANT_COMPONENT = 'x-servicespec-variant-component';

/** The component holding one view of a resource, created when first asked for. */
function viewRef(ctx: Context, r: ResourceModel, view: SchemaView): JsonObject {
  const key = `${r.name}\u0000${view}`;
  let name = ctx.views.get(key);
  if (name === undefined) {
    name = view === 'response' ? r.name : ctx.names.allocate(`${r.name}${VIEW_SUFFIX[view]}`);
    ctx.views.set(key, name);
    const s = getResourceSchema(ctx.model, r, view, ctx.annotated) as JsonObject;
    // A resource of several shapes: each variant is an object of the fields (a component of its own, publishVariants),
    // named after the variant in answers and after the variant and the view in requests (`CatCreate`).
    const branches = (s.oneOf ?? s.anyOf) as JsonObject[] | undefined;
    if (r.variants !== undefined && Array.isArray(branches))
      for (const [i, b] of branches.entries()) {
        // The variant's fields as it declares them (not the tag, which its enum of one value says).
        annotateObjectSchema(b, [...getDeclaredFields(r), ...(r.variants.variants[i]?.fields ?? [])]);
        if (view !== 'response') b[VARIANT_COMPONENT] = `${String(b['x-servicespec-variant'])}${VIEW_SUFFIX[view]}`;
      }
    else annotateObjectSchema(s, r.fields);
    if (view === 'response') {
      const ext = resourceToSpec(r) as unknown as JsonObject;
      delete ext.fields;
      delete ext.description;
      // The schema says them: oneOf the variants (each marked x-servicespec-variant) and the discriminator.
      delete ext.variants;
      delete ext.discriminator;
      s['x-servicespec-resource'] = ext;
    } else {
      s['x-servicespec-view'] = { resource: r.name, view };
    }
    ctx.schemas[name] = schema(ctx, s);
  }
  return ref(name);
}

/**
 * A create's or replace's request body: the view's schema, or where the path gives a field the view requires
 * (\`bind\`), the same without requiring it (getBoundRequestSchema), as the runtime takes the path's value.
 */
function boundViewRef(ctx: Context, route: OperationRoute, r: ResourceModel, view: SchemaView): JsonObject {
  if (view !== 'create' && view !== 'replace') return viewRef(ctx, r, view);
  const s = boundSchema(ctx, r, route.operation, view, (opts) => getResourceSchema(ctx.model, r, view, opts));
  if (!s) return viewRef(ctx, r, view);
  const key = `${r.name}\u0000${view}\u0000${JSON.stringify(s)}`;
  let name = ctx.views.get(key);
  if (name === undefined) {
    name = ctx.names.allocate(`${r.name}${VIEW_SUFFIX[view]}Bound`);
    ctx.views.set(key, name);
    annotateObjectSchema(s, r.fields);
    s['x-servicespec-view'] = { resource: r.name, view };
    ctx.schemas[name] = schema(ctx, s);
  }
  return ref(name);
}

/**
 * A create's or replace's body as the path makes it (getBoundRequestSchema), or undefined where it changes nothing.
 * Named shapes are referred to but in the top-level fields a nested binding reaches into (\`metadata.namespace\`):
 * those are written out, as a member the path gives is not required there while the shape requires it.
 */
function boundSchema(
  ctx: Context,
  r: ResourceModel,
  o: OperationModel,
  view: 'create' | 'replace',
  build: (opts: SchemaOptions) => JsonSchema,
): JsonObject | undefined {
  const bound = getBoundRequestSchema(build({ annotations: true }), r, o, view) as JsonObject | undefined;
  if (!bound) return undefined;
  const nested = new Set(
    getResolvedBindings(r, o)
      .filter((b) => isNestedPath(r, b.path))
      .map((b) => b.path.split('.')[0]!),
  );
  const shared = build(ctx.annotated).properties as Record<string, JsonObject> | undefined;
  const props = bound.properties as Record<string, JsonObject> | undefined;
  if (props) bound.properties = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, nested.has(k) ? v : (shared?.[k] ?? v)]));
  return bound;
}

/**
 * `unknown_fields: ignore`: the request view's component without `additionalProperties: false` (`TaskCreateOpen`),
 * an open object as JSON Schema reads one; the closed view stays for the operations that refuse. Answers stay closed:
 * the service answers no member its resource does not name.
 */
function openRef(ctx: Context, closed: JsonObject): JsonObject {
  const name = String(closed.$ref).slice('#/components/schemas/'.length);
  ctx.opened.add(name);
  const key = `${name}\u0000open`;
  let open = ctx.views.get(key);
  if (open === undefined) {
    open = ctx.names.allocate(`${name}Open`);
    ctx.views.set(key, open);
    const { additionalProperties: _closed, ...s } = ctx.schemas[name]!;
    ctx.schemas[open] = s;
  }
  return ref(open);
}

/**
 * The objects of a list that answers some of its resource's fields (`answer_fields`): a component of that summary,
 * `ArticleListItem` (one per distinct set of fields: two lists answering the same fields share it), marked with the
 * resource and the fields so import reads it back as that resource's answer narrowed to them.
 */
function listItemRef(ctx: Context, o: OperationModel, r: ResourceModel): JsonObject {
  const fields = o.answerFields!;
  const key = `${r.name}\u0000list-item\u0000${JSON.stringify([...fields].sort())}`;
  let name = ctx.views.get(key);
  if (name === undefined) {
    name = ctx.names.allocate(`${r.name}ListItem`);
    ctx.views.set(key, name);
    const s = getListItemSchema(ctx.model, r, o, ctx.annotated) as JsonObject;
    annotateObjectSchema(s, r.fields);
    s['x-servicespec-view'] = { resource: r.name, view: 'response', answer_fields: [...fields] };
    ctx.schemas[name] = schema(ctx, s);
  }
  return ref(name);
}

/**
 * The request view of an operation with `request_fields`: its own component (`SignUpRequest`), the resource's view
 * narrowed to those fields, marked with the view and the operation so import reads it back as the same subset.
 */
function requestFieldsRef(ctx: Context, o: OperationModel, r: ResourceModel, view: Exclude<SchemaView, 'response'>): JsonObject {
  const name = ctx.names.allocate(getOperationRequestName(o.id));
  // A field the path binds is not required here either (the runtime takes the path's value).
  const s = ((view === 'create' || view === 'replace' ? boundSchema(ctx, r, o, view, (opts) => getRequestSchema(ctx.model, r, o, view, opts)) : undefined) ??
    getRequestSchema(ctx.model, r, o, view, ctx.annotated)) as JsonObject;
  annotateObjectSchema(s, r.fields);
  s['x-servicespec-view'] = { resource: r.name, view, operation: o.id };
  ctx.schemas[name] = schema(ctx, s);
  return ref(name);
}

/**
 * An update's JSON merge patch (getMergePatchSchema: a null removes a field that may be absent, an object merges):
 * its own component, \`ProjectMergePatch\` (the operation's, \`UpdateProjectRequest\`, with request_fields), marked
 * with the update's view so import reads it back as that update's request.
 */
function mergePatchRef(ctx: Context, o: OperationModel, r: ResourceModel): JsonObject {
  const s = getMergePatchSchema(ctx.model, r, o, ctx.annotated) as JsonObject;
  const own = o.requestFields !== undefined;
  const key = `${r.name}\u0000merge-patch\u0000${JSON.stringify(s)}`;
  let name = own ? undefined : ctx.views.get(key);
  if (name === undefined) {
    name = ctx.names.allocate(own ? getOperationRequestName(o.id) : `${r.name}MergePatch`);
    if (!own) ctx.views.set(key, name);
    annotateObjectSchema(s, r.fields);
    s['x-servicespec-view'] = own ? { resource: r.name, view: 'update', operation: o.id } : { resource: r.name, view: 'update' };
    ctx.schemas[name] = schema(ctx, s);
  }
  return ref(name);
}

/** A declared shape: a reference to a resource view, or its fields written out. */
function shapeSchema(ctx: Context, shape: ShapeModel, view: SchemaView): JsonObject {
  const r = getResource(ctx.model, shape.resource);
  let s: JsonObject;
  if (r) s = viewRef(ctx, r, view);
  else {
    s = getShapeSchema(ctx.model, { ...shape, list: false }, view, ctx.annotated) as JsonObject;
    if (shape.fields) annotateObjectSchema(s, shape.fields);
    if (shape.union) annotateUnionSchema(s, shape.union);
    s = schema(ctx, s);
  }
  return shape.list ? { type: 'array', items: s } : s;
}

/**
 * Every union's variants as components, by the variant's name (a name taken gets a number), and a tagged union's
 * discriminator given its `mapping` (tag → component), as OpenAPI tools expect: a mapping names schemas, not inline
 * ones. Equal variant schemas (a union read in several places) share one component.
 */
function publishVariants(ctx: Context, doc: JsonObject): void {
  const byContent = new Map<string, string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const x of node) visit(x);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const s = node as JsonObject;
    for (const v of Object.values(s)) visit(v);
    const key = Array.isArray(s.oneOf) ? 'oneOf' : 'anyOf';
    const oneOf = s[key];
    if (!Array.isArray(oneOf) || !oneOf.every((x) => typeof x === 'object' && x !== null && typeof (x as JsonObject)['x-servicespec-variant'] === 'string'))
      return;
    const d = s.discriminator as { propertyName: string; mapping?: Record<string, string> } | undefined;
    const mapping: Record<string, string> = {};
    s[key] = oneOf.map((x) => {
      const v = x as JsonObject;
      const content = JSON.stringify(v);
      let name = byContent.get(content);
      if (name === undefined) {
        const own = v[VARIANT_COMPONENT];
        delete v[VARIANT_COMPONENT];
        name = ctx.names.allocate(String(own ?? v['x-servicespec-variant']));
        byContent.set(content, name);
        ctx.schemas[name] = v;
      }
      const r = ref(name);
      const tag =
        d !== undefined ? ((v.properties as Record<string, JsonObject> | undefined)?.[d.propertyName]?.enum as unknown[] | undefined)?.[0] : undefined;
      if (typeof tag === 'string') mapping[tag] = r.$ref as string;
      return r;
    });
    if (d !== undefined) s.discriminator = { propertyName: d.propertyName, mapping };
  };
  visit(doc.paths);
  visit(doc.webhooks);
  for (const v of Object.values({ ...ctx.schemas })) visit(v);
  visit(ctx.responses);
}

function fieldParamSchema(ctx: Context, f: FieldModel | undefined, r: ResourceModel | undefined): JsonObject {
  if (!f) return {};
  return schema(ctx, getFieldSchema(ctx.model, { ...f, nullable: false }, r, {}));
}

// ---- parameters and headers ---------------------------------------------------------------------------------

function versionSchema(ctx: Context): JsonObject {
  const v = ctx.model.versioning;
  const versions = [...new Set([...(v?.current !== undefined ? [v.current] : []), ...(v?.supported ?? []).map((s) => s.version)])];
  const s: JsonObject = { type: 'string' };
  if (versions.length > 0) s.enum = versions;
  return s;
}

function versionDescription(ctx: Context): string {
  const v = ctx.model.versioning;
  const parts = ['The version of the interface the request is written for.'];
  if (v?.default === 'required') parts.push('Every request must name one.');
  else if (v?.default === 'current') parts.push(`Without it, the current version${v.current !== undefined ? ` (${v.current})` : ''} is served.`);
  else if (v?.default === 'oldest') parts.push('Without it, the oldest supported version not past its sunset is served (the current one once all are).');
  // Every served version is accepted, but the bodies here are the current version's: an older one has its own document.
  const older = (v?.supported ?? []).map((x) => x.version).filter((x) => x !== v?.current);
  if (v?.current !== undefined && older.length > 0) {
    parts.push(
      `The bodies in this document are version ${v.current}'s; ${older.length === 1 ? 'version' : 'versions'} ${older.join(', ')} ${older.length === 1 ? 'has its' : 'each have their'} own document (\`servicespec export openapi --api-version ${older[0]!}\`).`,
    );
  }
  return parts.join(' ');
}

/**
 * The media type of the service's JSON bodies: with the version in the media type (`placement.media_type`), the
 * template filled with the version this document describes; else application/json.
 */
function jsonType(ctx: Context): string {
  const v = ctx.model.versioning;
  return v?.placement?.kind === 'media_type' && v.current !== undefined && parseMediaTypeTemplate(v.placement.template)
    ? fillMediaType(v.placement.template, v.current)
    : 'application/json';
}

function versionHeaderParam(ctx: Context): JsonObject | undefined {
  const p = ctx.model.versioning?.placement;
  if (p?.kind !== 'header') return undefined;
  if (!ctx.parameters.ServiceVersion) {
    const s = versionSchema(ctx);
    if (ctx.model.versioning?.default === 'current' && ctx.model.versioning.current !== undefined) s.default = ctx.model.versioning.current;
    ctx.parameters.ServiceVersion = {
      name: p.name,
      in: 'header',
      required: ctx.model.versioning?.default === 'required',
      description: versionDescription(ctx),
      schema: s,
    };
  }
  return ref('ServiceVersion', 'parameters');
}

function idempotencyParam(ctx: Context): JsonObject {
  if (!ctx.parameters.IdempotencyKey) {
    const i = ctx.model.endpoints?.idempotency;
    const kept = i?.retention ? ` The key and the response are kept for ${i.retention.text}.` : '';
    ctx.parameters.IdempotencyKey = {
      name: getIdempotencyHeader(ctx.model),
      in: 'header',
      required: false,
      description: `A unique key for this request: a retry with the same key and body gets the first response again instead of repeating the operation.${kept}`,
      schema: { type: 'string', minLength: 1 },
    };
  }
  return ref('IdempotencyKey', 'parameters');
}

/** If-Match of a one-object change of a resource with `etag: true`: a component, required or not. */
function ifMatchParam(ctx: Context, required: boolean): JsonObject {
  const name = required ? 'IfMatchRequired' : 'IfMatch';
  ctx.parameters[name] ??= {
    name: 'If-Match',
    in: 'header',
    required,
    description: `The object's current ETag (or \`*\`, any existing object): the change is made only while it matches, else refused (412) and nothing is changed; a weak tag never matches.${required ? ' A request without it is refused (428).' : ''}`,
    schema: { type: 'string', minLength: 1 },
  };
  return ref(name, 'parameters');
}

/** If-None-Match of the read of a resource with `etag: true`: a tag it names (or `*`) answers 304. */
function ifNoneMatchParam(ctx: Context): JsonObject {
  ctx.parameters.IfNoneMatch ??= {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: "ETags the client holds (or `*`): when one is the object's current tag (weak comparison), the answer is 304 with no body.",
    schema: { type: 'string', minLength: 1 },
  };
  return ref('IfNoneMatch', 'parameters');
}

/** The 304 of the read of a resource with `etag: true`: If-None-Match named its current tag. */
function notModifiedResponse(route: OperationRoute): JsonObject {
  const r = route.resource;
  if (r?.etag !== true || route.operation.action !== 'read') return {};
  return { '304': { description: `Not modified: If-None-Match names the ${r.name}'s current ETag. No body.`, headers: { ETag: getETagHeaderObject(r.name) } } };
}

/** Whether a declared rate policy covers the route: only then does the runtime send RateLimit and RateLimit-Policy (limits-rate.ts). */
function hasRatePolicy(ctx: Context, route: Route): boolean {
  if (route.kind !== 'operation') return false;
  const id = route.operation.id;
  return (ctx.model.limits?.rate ?? []).some((r) => !r.operations || r.operations.includes(id));
}

/** The headers of a rate-limited answer: the quota headers where a policy applies, and Retry-After on a refusal (every 429 `rate_limited` carries it). */
function rateLimitHeaders(ctx: Context, quota: boolean, retry: boolean): JsonObject {
  const out: JsonObject = {};
  if (quota) {
    if (!ctx.headers[RATE_LIMIT_HEADERS.limit]) {
      ctx.headers[RATE_LIMIT_HEADERS.limit] = {
        description: 'The quota left in the current window (draft-ietf-httpapi-ratelimit-headers), such as `"per_credential";r=42;t=30`.',
        schema: { type: 'string' },
      };
      ctx.headers[RATE_LIMIT_HEADERS.policy] = {
        description: 'The rate-limit policies that apply (draft-ietf-httpapi-ratelimit-headers), such as `"per_credential";q=100;w=60`.',
        schema: { type: 'string' },
      };
    }
    out[RATE_LIMIT_HEADERS.limit] = ref(RATE_LIMIT_HEADERS.limit, 'headers');
    out[RATE_LIMIT_HEADERS.policy] = ref(RATE_LIMIT_HEADERS.policy, 'headers');
  }
  if (retry) {
    if (!ctx.headers[RATE_LIMIT_HEADERS.retryAfter]) {
      ctx.headers[RATE_LIMIT_HEADERS.retryAfter] = { description: 'Seconds to wait before trying again (RFC 9110).', schema: { type: 'integer', minimum: 0 } };
    }
    out[RATE_LIMIT_HEADERS.retryAfter] = ref(RATE_LIMIT_HEADERS.retryAfter, 'headers');
  }
  return out;
}

/** The Link header (RFC 8288) of a list with `paging.link`, declared once in components. */
function linkHeader(ctx: Context): JsonObject {
  if (!ctx.headers[LINK_HEADER]) {
    ctx.headers[LINK_HEADER] = {
      description: 'The address of the next page as `<…>; rel="next"` (RFC 8288); absent on the last page.',
      schema: { type: 'string' },
    };
  }
  return ref(LINK_HEADER, 'headers');
}

/** An operation's declared query parameter or header (operation.query, operation.headers). */
function declaredParam(ctx: Context, p: ParameterModel): JsonObject {
  const s = schema(ctx, getFieldSchema(ctx.model, { ...p, nullable: false }, undefined, {}));
  if (p.hasDefault) s.default = p.default;
  const out: JsonObject = { name: p.name, in: p.in, required: !p.optional };
  if (p.description !== undefined) out.description = p.description;
  if (p.deprecated) out.deprecated = true;
  out.schema = s;
  if (p.hasExample) out.example = p.example;
  return out;
}

function queryParam(ctx: Context, q: QueryParam, route: OperationRoute): JsonObject {
  const o = route.operation;
  const page = getPageSize(ctx.model, o);
  switch (q.kind) {
    case 'limit': {
      const s: JsonObject = { type: 'integer', minimum: 1 };
      const parts = ['The number of items on a page.'];
      if (page.max !== undefined) {
        if (page.overMax === 'clamp') parts.push(`A value above ${page.max} is treated as ${page.max}.`);
        else s.maximum = page.max;
      }
      if (page.default !== undefined) s.default = page.default;
      return { name: q.name, in: 'query', required: false, description: parts.join(' '), schema: s };
    }
    case 'cursor':
      // Style after: the identifier of the last object of the page before, typed as the identifier is.
      if (o.paging?.style === 'after') {
        const id = route.resource?.identifier !== undefined ? getField(route.resource, route.resource.identifier) : undefined;
        return {
          name: q.name,
          in: 'query',
          required: false,
          description: 'The identifier of the last object of the previous page: the page starts after it. Leave it out for the first page.',
          schema: id ? schema(ctx, getFieldSchema(ctx.model, { ...id, readOnly: false, nullable: false }, route.resource, {})) : { type: 'string' },
        };
      }
      return {
        name: q.name,
        in: 'query',
        required: false,
        description:
          o.paging !== undefined && (o.paging.body === 'array' || o.paging.next === undefined)
            ? 'The cursor of the `rel="next"` address of the previous page\'s `Link` header; leave it out for the first page.'
            : `The \`${o.paging?.next ?? PAGE_FIELDS.next}\` of the previous page; leave it out for the first page.`,
        schema: { type: 'string' },
      };
    case 'offset':
      return {
        name: q.name,
        in: 'query',
        required: false,
        description: 'The number of items to skip before the page starts.',
        schema: { type: 'integer', minimum: 0, default: 0 },
      };
    case 'page': {
      const first = getFirstPage(o.paging);
      return {
        name: q.name,
        in: 'query',
        required: false,
        description: `The page number, from ${first}.`,
        schema: { type: 'integer', minimum: first, default: first },
      };
    }
    case 'sort':
      return {
        name: q.name,
        in: 'query',
        required: false,
        description: `The field to sort by; a leading \`-\` sorts descending.`,
        schema: { type: 'string', enum: [...o.sortValues] },
      };
    case 'filter':
      return {
        name: q.name,
        in: 'query',
        required: q.required === true,
        description: `Only items whose \`${q.name}\` equals this value.`,
        schema: fieldParamSchema(ctx, q.field, route.resource),
      };
    case 'version': {
      const s = versionSchema(ctx);
      if (ctx.model.versioning?.default === 'current' && ctx.model.versioning.current !== undefined) s.default = ctx.model.versioning.current;
      return { name: q.name, in: 'query', required: ctx.model.versioning?.default === 'required', description: versionDescription(ctx), schema: s };
    }
    case 'param':
      return declaredParam(ctx, q.parameter!);
  }
}

function versionPathParams(ctx: Context): Set<string> {
  const p = ctx.model.versioning?.placement;
  return new Set(p?.kind === 'path' ? Array.from(p.template.matchAll(/\{([^{}]*)\}/g), (m) => m[1] ?? '') : []);
}

function pathParams(ctx: Context, route: Route): JsonObject[] {
  const fromVersion = versionPathParams(ctx);
  const out: JsonObject[] = [];
  for (const name of route.pathParams) {
    if (fromVersion.has(name)) {
      out.push({ name, in: 'path', required: true, description: versionDescription(ctx), schema: versionSchema(ctx) });
      continue;
    }
    let s: JsonObject = { type: 'string' };
    let description: string | undefined;
    if (route.kind === 'operation') {
      const o = route.operation;
      const bound = route.resource && route.identifierParam !== name ? getBinding(o, name) : undefined;
      const boundField = bound && route.resource ? getFieldAt(route.resource, bound.field) : undefined;
      if (bound?.parent && route.resource) {
        // The parent the objects belong to (\`parent\`, \`Article.slug\`), or one further up their chain (\`Owner.id\`).
        // Any text, as for an identifier (docs/architecture.md, "A malformed identifier in a path"): a value the
        // parent's field cannot hold names no parent and is answered as missing, not refused as invalid.
        const missing = getErrorCodes(ctx.model, route).find((c) => c.condition === 'missing_resource');
        const chain = getParentChain(ctx.model, route.resource);
        s = { type: 'string' };
        const below = bound.parent.level > 1 ? chain[bound.parent.level - 2] : undefined;
        const answered = `is answered as missing${missing ? ` (${missing.status} \`${missing.code}\`)` : ''}`;
        description =
          below === undefined
            ? `The \`${bound.parent.field}\` of the ${bound.parent.resource} the ${route.resource.name} objects belong to. A value no ${bound.parent.resource} holds, well-formed or not, ${answered}.`
            : `The \`${bound.parent.field}\` of the ${bound.parent.resource} the path's ${below.name} is under. A value no ${bound.parent.resource} holds, or one the ${below.name} is not under, ${answered}.`;
      } else if (bound && route.resource) {
        // A path parameter bound to a field (\`bind\`): the field's value; described by what the action does with it.
        const r = route.resource;
        const missing = getErrorCodes(ctx.model, route).find((c) => c.condition === 'missing_resource');
        if (ADDRESSING_ACTIONS.has(o.action)) {
          // As for the identifier, any string is taken: one no object holds is answered as missing.
          s = { type: 'string' };
          description = `The ${r.name}'s \`${bound.field}\`. A value no ${r.name} holds, well-formed or not, is answered as missing${missing ? ` (${missing.status} \`${missing.code}\`)` : ''}.`;
        } else {
          s = fieldParamSchema(ctx, boundField, r);
          description =
            o.action === 'create'
              ? `The created ${r.name}'s \`${bound.field}\` (the body may leave it out; a body value must equal it).`
              : `Only the ${r.name} objects whose \`${bound.field}\` holds this value.`;
        }
      } else if (route.identifierParam === name && route.resource?.identifier !== undefined && o.upsert) {
        // upsert: the path gives a created object its identifier, so its constraints are the field's.
        s = fieldParamSchema(ctx, getField(route.resource, route.resource.identifier), route.resource);
        description = `The ${route.resource.name}'s \`${route.resource.identifier}\`. One no ${route.resource.name} has creates the ${route.resource.name} with it (201); a value its constraints refuse is refused.`;
      } else if (route.identifierParam === name && route.resource?.identifier !== undefined) {
        // Any string is taken: one that is not a well-formed identifier names no object (404), so no format is asserted.
        const kind = getField(route.resource, route.resource.identifier)?.type;
        const missing = getErrorCodes(ctx.model, route).find((c) => c.condition === 'missing_resource');
        s = { type: 'string' };
        description = `The ${route.resource.name}'s \`${route.resource.identifier}\`${kind === 'uuid' ? ' (a UUID)' : kind === 'integer' ? ' (a positive integer)' : ''}. A value that identifies no ${route.resource.name}, well-formed or not, is answered as missing${missing ? ` (${missing.status} \`${missing.code}\`)` : ''}.`;
      } else if (o.action !== 'custom' && route.resource?.identifier !== undefined) {
        s = fieldParamSchema(ctx, getField(route.resource, route.resource.identifier), route.resource);
        description = `The ${route.resource.name}'s \`${route.resource.identifier}\`.`;
      } else {
        const f = o.request?.fields?.find((x) => x.name === name);
        if (f) {
          s = fieldParamSchema(ctx, f, undefined);
          description = f.description;
        }
      }
    }
    out.push(clean({ name, in: 'path', required: true, description, schema: s }));
  }
  return out;
}

// ---- security -----------------------------------------------------------------------------------------------

function securityScheme(ctx: Context, s: SchemeModel): JsonObject {
  let out: JsonObject;
  switch (s.type) {
    case 'api_key':
      out = { type: 'apiKey', in: getApiKeyPlacement(s), name: s.credentialName ?? NOT_SHOWN };
      break;
    case 'basic':
      out = { type: 'http', scheme: 'basic' };
      break;
    case 'bearer':
      out = clean({ type: 'http', scheme: 'bearer', bearerFormat: s.token === 'jwt' ? 'JWT' : undefined });
      break;
    case 'oauth2_client_credentials':
      out = {
        type: 'oauth2',
        flows: {
          clientCredentials: {
            tokenUrl: s.tokenPath ?? NOT_SHOWN,
            scopes: Object.fromEntries((ctx.model.authentication?.scopes ?? []).map((x) => [x.name, x.description])),
          },
        },
      };
      break;
  }
  if (s.description !== undefined) out.description = s.description;
  // What the scheme object cannot say: the scheme as written in a spec, less what is said above.
  const native = new Set(['type', 'description', 'in', 'name', ...(s.type === 'oauth2_client_credentials' ? ['token_path'] : [])]);
  const ext = Object.fromEntries(Object.entries(schemeToSpec(s) as unknown as JsonObject).filter(([k]) => !native.has(k)));
  if (Object.keys(ext).length > 0) {
    out['x-servicespec-scheme'] = ext;
    note(ctx, `scheme ${s.name}: ${Object.keys(ext).join(', ')}`, 'x-servicespec-scheme', s.pointer);
  }
  return out;
}

function isOAuth(ctx: Context, scheme: string): boolean {
  return ctx.model.authentication?.schemes.some((s) => s.name === scheme && s.type === 'oauth2_client_credentials') ?? false;
}

/** A requirement as OpenAPI security: alternatives, one per scheme, each with the scopes (OAuth2 only). */
function security(ctx: Context, req: AuthRequirement, where: string, pointer: string | undefined, target: JsonObject): void {
  if (req.kind === 'none') {
    target.security = [];
    return;
  }
  const known = req.schemes.filter((s) => ctx.model.authentication?.schemes.some((x) => x.name === s));
  for (const s of req.schemes) {
    if (!known.includes(s))
      ctx.diagnostics.push(
        diagnose(
          ctx.model,
          'export-skipped',
          { item: `scheme ${s} of ${where}`, target: `OpenAPI ${ctx.version}`, reason: 'it is not declared under authentication.schemes' },
          pointer,
        ),
      );
  }
  // Scopes only on OAuth2 schemes, in 3.1 too: 3.1 allows role names on others, but linters take them for
  // undeclared OAuth2 scopes (Spectral's oas3-operation-security-defined); they go to x-servicespec-required-scopes.
  target.security = known.map((s) => ({ [s]: isOAuth(ctx, s) ? [...req.scopes] : [] }));
  if (known.length === 0) {
    // A credential is required, but no declared scheme can carry it: OpenAPI's `[]` would read as "none".
    target['x-servicespec-requirement'] = { schemes: [...req.schemes], scopes: [...req.scopes] };
    ctx.diagnostics.push(
      diagnose(
        ctx.model,
        'export-skipped',
        {
          item: `the requirement of ${where}`,
          target: `OpenAPI ${ctx.version}`,
          reason: 'it names no declared scheme; it is kept in x-servicespec-requirement',
        },
        pointer,
      ),
    );
  }
  if (req.scopes.length > 0 && known.some((s) => !isOAuth(ctx, s))) {
    target['x-servicespec-required-scopes'] = [...req.scopes];
    note(ctx, `the scopes ${where} requires of non-OAuth2 schemes`, 'x-servicespec-required-scopes', pointer);
  }
}

// ---- operations ---------------------------------------------------------------------------------------------

function errorResponses(ctx: Context, route: Route): Record<string, JsonObject> {
  // getRouteErrors: the one derivation the nine-part document reads too.
  // By status, or by range (`4XX`): a code declaring a range is answered under the range's key.
  const byStatus = new Map<string, { name: string; title?: string }[]>();
  for (const c of getRouteErrors(ctx.model, route)) {
    const key = c.statusRange ?? String(c.status);
    const list = byStatus.get(key) ?? [];
    list.push({ name: c.code, title: c.title });
    byStatus.set(key, list);
  }
  const out: Record<string, JsonObject> = {};
  for (const status of [...byStatus.keys()]) {
    const list = byStatus.get(status)!;
    const limited = status === '429' && route.conditions.includes('rate_limited');
    const quota = limited && hasRatePolicy(ctx, route);
    // One component per distinct answer, named after its codes: operations share them by reference.
    const key = `${status} ${list.map((c) => c.name).join(' ')}${limited ? ' limited' : ''}${quota ? ' quota' : ''}`;
    let name = ctx.responseNames.get(key);
    if (name === undefined) {
      name = ctx.responseAllocator.allocate(list.map((c) => c.name).join('_or_'));
      ctx.responseNames.set(key, name);
      const r: JsonObject = { description: list.map((c) => (c.title !== undefined ? `\`${c.name}\`: ${c.title}` : `\`${c.name}\``)).join('; ') };
      if (ctx.errorBody) r.content = { [ctx.errorBody.mediaType]: { schema: ref(ctx.errorBody.ref) } };
      // The rate-limit headers, then every error answer's (errors.headers) and each code's declared headers (a declared
      // Retry-After in place of the service's).
      const declared = [...(ctx.model.errors?.headers ?? []), ...list.flatMap((c) => ctx.model.errors?.codes.find((x) => x.name === c.name)?.headers ?? [])];
      const headers = getErrorHeaderObjects(ctx.model, limited ? rateLimitHeaders(ctx, quota, true) : {}, declared, (x) => schema(ctx, x));
      if (Object.keys(headers).length > 0) r.headers = headers;
      r['x-servicespec-codes'] = list.map((c) => c.name);
      ctx.responses[name] = r;
    }
    out[status] = ref(name, 'responses');
  }
  return out;
}

/**
 * The `default` response of every operation: any error its statuses do not list — the service can answer any route
 * with `internal`, `malformed_request` or `unavailable` — in the error body. One component, shared.
 */
function defaultResponse(ctx: Context): JsonObject {
  const name = 'default';
  let key = ctx.responseNames.get(name);
  if (key === undefined) {
    key = ctx.responseAllocator.allocate('other_error');
    ctx.responseNames.set(name, key);
    const r: JsonObject = { description: 'Any other error, in the error body.' };
    const headers = getErrorHeaderObjects(ctx.model, {}, ctx.model.errors?.headers ?? [], (x) => schema(ctx, x));
    if (Object.keys(headers).length > 0) r.headers = headers;
    if (ctx.errorBody) r.content = { [ctx.errorBody.mediaType]: { schema: ref(ctx.errorBody.ref) } };
    ctx.responses[key] = r;
  }
  return ref(key, 'responses');
}

function rateLimitRule(r: RateLimitModel, scope = ''): string {
  return `Rate limit${r.name !== undefined ? ` ${code(r.name)}` : ''}: ${r.requests} requests per ${r.per.text}${r.by ? ` ${BY_TEXT[r.by]}` : ''}${scope}.`;
}

/** The policies that name this operation; the ones for every operation are stated once, in info.description. */
function rateLimitRules(ctx: Context, o: OperationModel): string[] {
  return (ctx.model.limits?.rate ?? []).filter((r) => r.operations?.includes(o.id)).map((r) => rateLimitRule(r));
}

function operationRules(ctx: Context, route: OperationRoute): string[] {
  const o = route.operation;
  const rules: string[] = [];
  const t = route.transition;
  if (o.action === 'transition' && t) {
    let s = `Transition ${code(t.name)} of ${route.resource?.name ?? o.resource}: from ${list(t.from.map(code))} to ${code(t.to)}.`;
    if (t.requires.length > 0) s += ` The request must set ${list(t.requires.map(code), 'and')}.`;
    if (t.stamp !== undefined) s += ` Sets ${code(t.stamp)} to the time of the transition.`;
    if (t.emits !== undefined) s += ` Emits ${code(t.emits)}.`;
    rules.push(s);
  }
  const r = route.resource;
  if (r?.owner !== undefined && o.action !== 'create') {
    const override = r.ownerOverrideScopes.length > 0 ? ` Holders of ${list(r.ownerOverrideScopes.map(code))} act on every subject's.` : '';
    rules.push(
      `Each ${r.name} belongs to the subject that created it (${code(r.owner)}); another subject's ${r.name} is answered as ${r.ownerAccess === 'forbidden' ? 'forbidden' : 'not found'}.${override}`,
    );
  }
  if (o.action === 'list') {
    const page = getPageSize(ctx.model, o);
    if (page.default !== undefined || page.max !== undefined) {
      const parts: string[] = [];
      if (page.default !== undefined) parts.push(`${page.default} items by default`);
      if (page.max !== undefined)
        parts.push(
          `at most ${page.max}${page.overMax === 'clamp' ? ' (a larger limit is lowered to it)' : page.overMax === 'reject' ? ' (a larger limit is rejected)' : ''}`,
        );
      rules.push(`Pages hold ${parts.join(', ')}.`);
    }
  }
  if (route.conditions.includes('idempotency_conflict')) {
    const i = ctx.model.endpoints?.idempotency;
    rules.push(`Idempotent with ${code(getIdempotencyHeader(ctx.model))}${i?.retention ? `: keys are kept for ${i.retention.text}` : ''}.`);
  }
  rules.push(...rateLimitRules(ctx, o));
  return rules;
}

/** The success answer's key: its status, or its range (`2XX`) as the spec states it. */
function successKey(route: OperationRoute): string {
  return route.operation.statusRange ?? String(route.successStatus);
}

function successResponse(ctx: Context, route: OperationRoute): JsonObject {
  const o = route.operation;
  const r = route.resource;
  let body: JsonObject | undefined;
  let description = 'Success.';
  if (o.action === 'list') {
    const item = getResource(ctx.model, o.response?.resource) ?? r;
    const paging = o.paging ?? DEFAULT_PAGING;
    const items: JsonObject = {
      type: 'array',
      items: item ? (o.answerFields !== undefined && item === r ? listItemRef(ctx, o, item) : viewRef(ctx, item, 'response')) : {},
    };
    if (paging.body === 'array') body = items;
    else {
      const properties: JsonObject = {};
      const required: string[] = [];
      for (const [name, value] of Object.entries(paging.constants ?? {})) {
        properties[name] = { type: 'string', enum: [value] };
        required.push(name);
      }
      properties[paging.items] = items;
      required.push(paging.items);
      if (paging.style === 'cursor' && paging.next !== undefined) {
        // next_optional: left out on the last page (optional, not nullable), as Google's nextPageToken.
        properties[paging.next] = schema(ctx, {
          type: paging.nextOptional ? 'string' : ['string', 'null'],
          description: `Pass as \`${getPagingParamName(paging, 'cursor')}\` to get the next page; ${paging.nextOptional ? 'left out' : 'null'} on the last page.`,
        });
        if (!paging.nextOptional) required.push(paging.next);
      }
      if (paging.total !== undefined) {
        properties[paging.total] = { type: 'integer', minimum: 0, description: 'The number of objects matching the query, on every page.' };
        required.push(paging.total);
      }
      if (paging.hasMore !== undefined) {
        properties[paging.hasMore] = { type: 'boolean', description: 'Whether objects follow this page.' };
        required.push(paging.hasMore);
      }
      if (paging.url !== undefined) {
        properties[paging.url] = { type: 'string', description: "The list's address: the request's path, without its query." };
        required.push(paging.url);
      }
      if (paging.nextLink !== undefined) {
        properties[paging.nextLink] = schema(ctx, { type: ['string', 'null'], format: 'uri', description: "The next page's address; null on the last page." });
        required.push(paging.nextLink);
      }
      if (paging.previousLink !== undefined) {
        properties[paging.previousLink] = schema(ctx, {
          type: ['string', 'null'],
          format: 'uri',
          description: "The previous page's address; null on the first page.",
        });
        required.push(paging.previousLink);
      }
      if (paging.members !== undefined) addPageMembers(ctx, paging, properties, required);
      body = { type: 'object', properties, required, additionalProperties: false };
    }
    description = `A page of ${r?.plural ?? r?.name ?? 'items'}.`;
  } else if (o.response) {
    body = shapeSchema(ctx, o.response, 'response');
    if (o.action === 'delete') description = `The deleted ${r?.name ?? o.response.resource ?? 'object'}, as it was.`;
  } else if (o.action !== 'custom' && o.action !== 'delete' && r) {
    body = viewRef(ctx, r, 'response');
    description = o.action === 'create' ? `The created ${r.name}.` : `The ${r.name}.`;
  } else if (o.action === 'delete') {
    description = 'Deleted.';
  }
  // An enveloped answer (export-envelope.ts): the body above in the envelope's data field.
  if (body && o.envelope) body = getEnvelopeSchema(ctx.model, o.envelope, body, (s) => schema(ctx, s));
  const out: JsonObject = { description };
  // getSuccessHeaderObjects: Location, Link and the declared headers (the runtime and tester read the same list).
  const own = getSuccessHeaderObjects(ctx.model, route, { schema: (s) => schema(ctx, s), link: () => linkHeader(ctx) });
  const headers: JsonObject = { ...own.location, ...(hasRatePolicy(ctx, route) ? rateLimitHeaders(ctx, true, false) : {}), ...own.rest };
  if (Object.keys(headers).length > 0) out.headers = headers;
  if (body && route.successStatus !== 204) out.content = { [jsonType(ctx)]: { schema: body } };
  return out;
}

/** upsert: the 201 a PUT naming no object answers (the object made, Location as a create's) beside the replace's 200. */
function upsertResponse(ctx: Context, route: OperationRoute): JsonObject {
  const r = route.resource;
  if (!route.operation.upsert || !r || route.operation.statusRange !== undefined) return {};
  const ok = successResponse(ctx, route);
  const location = getUpsertLocation(ctx.model, route);
  const headers: JsonObject = {
    ...(location !== undefined
      ? { Location: { description: `Where the created ${r.name} is read: ${location}.`, schema: { type: 'string', format: 'uri-reference' } } }
      : {}),
    ...((ok.headers as JsonObject | undefined) ?? {}),
  };
  const made: JsonObject = { description: `The created ${r.name}: no object had the identifier.` };
  if (Object.keys(headers).length > 0) made.headers = headers;
  if (ok.content !== undefined) made.content = ok.content;
  return { [String(getDefaultSuccessStatus('create', true))]: made };
}

function requestBody(ctx: Context, route: OperationRoute): JsonObject | undefined {
  if (!route.hasBody) return undefined;
  const o = route.operation;
  const r = route.resource;
  let s: JsonObject | undefined;
  let required = true;
  const view = REQUEST_VIEW[o.action];
  if (o.action === 'custom' && o.request) s = shapeSchema(ctx, o.request, 'create');
  else if (o.request && o.action !== 'transition') s = shapeSchema(ctx, o.request, view ?? 'create');
  else if (view === 'update' && r && isMergePatch(o)) s = mergePatchRef(ctx, o, r);
  else if (view && r) {
    s = o.requestFields !== undefined && view !== 'response' ? requestFieldsRef(ctx, o, r, view) : boundViewRef(ctx, route, r, view);
    if (getUnknownFields(o) === 'ignore' && o.requestFields === undefined) s = openRef(ctx, s);
  } else if (o.action === 'transition' && r) {
    const t = getTransitionSchema(ctx.model, r, route.transition?.requires ?? [], ctx.annotated) as JsonObject;
    annotateObjectSchema(t, r.fields);
    s = schema(ctx, t);
    required = Array.isArray(t.required) && t.required.length > 0;
  }
  if (!s) return undefined;
  // request_envelope: the body the action takes, held by its one member (Rails-style { product: {…} }).
  if (o.requestEnvelope !== undefined && REQUEST_ENVELOPED_ACTIONS.has(o.action))
    s = { type: 'object', required: [o.requestEnvelope.data], properties: { [o.requestEnvelope.data]: s }, additionalProperties: false };
  // A form request (request.media_type) is documented as that type: OpenAPI's form encoding of the same schema.
  // Served, an absent form reads as no fields: the body is required only where a field is (before: always, so the
  // export of twilio's UpdateExportConfiguration, whose form is all optional, demanded a body serve does not).
  if (o.action === 'custom' && o.request?.mediaType === FORM_MEDIA_TYPE) {
    const formRequired = typeof s.$ref === 'string' || (Array.isArray(s.required) && s.required.length > 0);
    return { required: formRequired, content: { [FORM_MEDIA_TYPE]: { schema: s } } };
  }
  // A stated JSON type (request_media_type: an update's JSON merge patch, say) is the one type the request takes.
  return { required, content: { [o.requestMediaType ?? jsonType(ctx)]: { schema: s } } };
}

/** OpenAPI Example Objects from named examples. */
function exampleObjects(list: readonly NamedExampleModel[]): JsonObject {
  return Object.fromEntries(
    list.map((e) => [
      e.name,
      {
        ...(e.summary !== undefined ? { summary: e.summary } : {}),
        ...(e.description !== undefined ? { description: e.description } : {}),
        value: e.value as JsonObject,
      },
    ]),
  );
}

/**
 * An operation's named examples where OpenAPI keeps them: the request body's and the success answer's media type,
 * each parameter (by its name on the wire). Where there is no such place (no body, no such parameter) they are said
 * to be left out.
 */
function namedExamples(ctx: Context, o: OperationModel, op: JsonObject, params: readonly JsonObject[]): void {
  const ex = o.examples!;
  const mediaOf = (holder: unknown): JsonObject | undefined => {
    const content = (holder as { content?: Record<string, JsonObject> } | undefined)?.content;
    return content ? Object.values(content)[0] : undefined;
  };
  const place = (list: readonly NamedExampleModel[], media: JsonObject | undefined, what: string, pointer: string) => {
    if (list.length === 0) return;
    if (media) media.examples = exampleObjects(list);
    else
      ctx.diagnostics.push(
        diagnose(
          ctx.model,
          'export-not-shown',
          {
            item: `the ${what} examples of operation ${o.id}`,
            target: `OpenAPI ${ctx.version}`,
            consequence: `the operation has no ${what} body to hold them`,
          },
          pointer,
        ),
      );
  };
  place(ex.request, mediaOf(op.requestBody), 'request', joinPointer(joinPointer(o.pointer, 'examples'), 'request'));
  place(
    ex.response,
    mediaOf((op.responses as Record<string, unknown>)[o.statusRange ?? String(o.status)]),
    'response',
    joinPointer(joinPointer(o.pointer, 'examples'), 'response'),
  );
  for (const p of ex.parameters) {
    const target = params.find((x) => x.name === p.name || (x.in === 'header' && typeof x.name === 'string' && x.name.toLowerCase() === p.name.toLowerCase()));
    if (target) target.examples = exampleObjects(p.examples);
    else
      ctx.diagnostics.push(
        diagnose(
          ctx.model,
          'export-not-shown',
          {
            item: `the examples of parameter ${p.name} of operation ${o.id}`,
            target: `OpenAPI ${ctx.version}`,
            consequence: 'the operation has no such parameter',
          },
          joinPointer(joinPointer(joinPointer(o.pointer, 'examples'), 'parameters'), p.name),
        ),
      );
  }
}

/** A summary from the action, for an operation whose spec shows none ("Create an Order.", "Transition pay of an Order."). */
export function derivedSummary(route: OperationRoute): string {
  const o = route.operation;
  const r = route.resource?.name ?? o.resource;
  const a = (name: string) => `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}`;
  if (r === undefined) return `The ${o.id} operation.`;
  switch (o.action) {
    case 'create':
      return `Create ${a(r)}.`;
    case 'read':
      return `Read ${a(r)}.`;
    case 'update':
      return `Update ${a(r)}.`;
    case 'replace':
      return `Replace ${a(r)}.`;
    case 'delete':
      return `Delete ${a(r)}.`;
    case 'list':
      return `List ${route.resource?.plural ?? `${r} items`}.`;
    case 'transition':
      return `Transition ${o.transition ?? ''} of ${a(r)}.`.replace('  ', ' ');
    case 'custom':
      return `The ${o.id} operation.`;
  }
}

function operationObject(ctx: Context, route: OperationRoute): JsonObject {
  const o = route.operation;
  const op: JsonObject = { operationId: o.id };
  ctx.operationIds.reserve(o.id);
  if (o.summary !== undefined) op.summary = o.summary;
  else {
    // OpenAPI tools expect a summary; without one in the spec it is said in words from what the spec does show.
    op.summary = derivedSummary(route);
    ctx.diagnostics.push(
      diagnose(
        ctx.model,
        'export-not-shown',
        {
          item: `the summary of operation ${o.id}`,
          target: `OpenAPI ${ctx.version}`,
          consequence: `the summary says what the action is: "${String(op.summary)}"`,
        },
        o.pointer,
      ),
    );
  }
  const rules = operationRules(ctx, route);
  const description = withRules(o.description, rules);
  if (description !== undefined) op.description = description;
  if (route.resource) op.tags = [route.resource.name];
  if (o.deprecated) op.deprecated = true;
  const params: JsonObject[] = [
    ...pathParams(ctx, route),
    ...route.query.map((q) => queryParam(ctx, q, route)),
    ...route.headers.map((h) => declaredParam(ctx, h)),
  ];
  const vh = versionHeaderParam(ctx);
  if (vh) params.push(vh);
  if (route.conditions.includes('idempotency_conflict')) params.push(idempotencyParam(ctx));
  // etag: true (docs/format.md, "Conditional requests"): If-Match on a one-object change, If-None-Match on the read.
  if (isConditionalChange(route.resource, o)) params.push(ifMatchParam(ctx, o.ifMatch === 'required'));
  if (route.resource?.etag === true && o.action === 'read') params.push(ifNoneMatchParam(ctx));
  if (params.length > 0) op.parameters = params;
  const body = requestBody(ctx, route);
  if (body) op.requestBody = body;
  op.responses = {
    [successKey(route)]: successResponse(ctx, route),
    ...upsertResponse(ctx, route),
    ...notModifiedResponse(route),
    ...errorResponses(ctx, route),
    default: defaultResponse(ctx),
  };
  if (o.examples) namedExamples(ctx, o, op, params);
  if (o.callbacks) op.callbacks = callbacksObject(ctx.model, o, (k) => kindDelivery(ctx, k)); // export-callbacks.ts
  if (o.authDeclared === 'operation' && o.auth) security(ctx, o.auth, `operation ${o.id}`, joinPointer(o.pointer, 'auth'), op);

  const ext: JsonObject = { action: o.action };
  if (o.resource !== undefined) ext.resource = o.resource;
  if (o.transition !== undefined) ext.transition = o.transition;
  if (o.handler !== undefined) ext.handler = o.handler;
  if (o.filter.length > 0) ext.filter = [...o.filter];
  if (o.requiredFilters !== undefined) ext.required_filters = [...o.requiredFilters];
  if (o.sort.length > 0) ext.sort = [...o.sort];
  if (o.sortParam !== undefined) ext.sort_param = o.sortParam;
  if (o.requestFields !== undefined) ext.request_fields = [...o.requestFields];
  if (o.answerFields !== undefined) ext.answer_fields = [...o.answerFields];
  // A built-in action's declared parameters, by name: its other parameters are its own, rebuilt from the spec.
  if (o.action !== 'custom' && o.query.length > 0) ext.query = o.query.map((p) => p.name);
  if (o.action !== 'custom' && o.headers.length > 0) ext.headers = o.headers.map((p) => p.name);
  if (o.requestMediaType !== undefined) ext.request_media_type = o.requestMediaType;
  if (o.location !== undefined) ext.location = o.location;
  if (o.unknownFields !== undefined) ext.unknown_fields = o.unknownFields;
  if (o.upsert) ext.upsert = true;
  if (o.ifMatch !== undefined) ext.if_match = o.ifMatch;
  if (o.requestEnvelope !== undefined) ext.request_envelope = { data: o.requestEnvelope.data };
  const paging = pagingToSpec(o.paging);
  if (paging) ext.paging = paging as JsonObject;
  if (o.idempotent !== undefined) ext.idempotent = o.idempotent;
  if (o.errors.length > 0) ext.errors = [...o.errors];
  if (o.summary === undefined) ext.derived = ['summary'];
  // The declared shapes as written: the schemas above show them, but not always as declared (a non-custom action's
  // own shapes, a request that travels without a body, a shape naming an undeclared resource).
  if (o.request) ext.request = shapeToSpec(o.request);
  else if (o.takesNoBody) ext.request = 'none';
  if (o.response) ext.response = shapeToSpec(o.response);
  const responseHeaders = parametersToSpec(o.responseHeaders);
  if (responseHeaders) ext.response_headers = responseHeaders as JsonObject;
  if (o.bindings) ext.bind = Object.fromEntries(o.bindings.map((b) => [b.param, b.field]));
  if (o.envelopeDeclared !== undefined) ext.envelope = o.envelopeDeclared === 'none' ? 'none' : (envelopeToSpec(o.envelopeDeclared) as unknown as JsonObject);
  op['x-servicespec-operation'] = ext;
  // Rate limits, page sizes, idempotency and ownership are listed once, where the spec states them; a transition
  // is stated by its state machine and carried out by this operation, so it is listed here.
  if (o.action === 'transition' && route.transition)
    note(ctx, `operation ${o.id}: ${rules[0]!.replace(/\.$/, '')}`, 'x-servicespec-operation and its description', o.pointer);
  return op;
}

function tokenOperation(ctx: Context, route: TokenRoute): JsonObject {
  const s = route.scheme;
  const lifetime = s.lifetime ? ` Tokens are valid for ${s.lifetime.text}.` : '';
  return {
    operationId: ctx.operationIds.allocate(`${s.name.replace(/[^A-Za-z0-9_]/g, '_')}Token`),
    summary: `Exchange client credentials for an access token (scheme ${s.name}).`,
    description: `The OAuth 2.0 client credentials grant (RFC 6749 §4.4): the client authenticates with HTTP Basic (client id and secret) and receives a bearer token.${lifetime}`,
    security: [],
    requestBody: {
      required: true,
      content: {
        'application/x-www-form-urlencoded': {
          schema: {
            type: 'object',
            properties: {
              grant_type: { type: 'string', enum: ['client_credentials'] },
              scope: { type: 'string', description: 'Space-separated scopes to request.' },
            },
            required: ['grant_type'],
          },
        },
      },
    },
    responses: {
      '200': {
        description: 'The access token (RFC 6749 §5.1).',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: {
                access_token: { type: 'string' },
                token_type: { type: 'string' },
                expires_in: { type: 'integer' },
                scope: { type: 'string' },
              },
              required: ['access_token', 'token_type'],
            },
          },
        },
      },
      ...errorResponses(ctx, route),
    },
    'x-servicespec-route': 'token',
  };
}

function streamOperation(ctx: Context, route: StreamRoute): JsonObject {
  const kinds = (ctx.model.events?.kinds ?? []).map((k) => code(k.name));
  const raw = (ctx.model.events?.kinds ?? []).filter(isRawEvent).map((k) => code(k.name));
  const heartbeat = ctx.model.events?.stream?.heartbeat;
  const params = pathParams(ctx, route);
  // The resume and filter parameters the runtime's stream reads (src/runtime/events/events-stream.ts).
  params.push(
    {
      name: 'Last-Event-ID',
      in: 'header',
      required: false,
      description: 'Continue strictly after this position (the `id` of the last event received).',
      schema: { type: 'string', pattern: '^[0-9]+$' },
    },
    {
      name: 'after',
      in: 'query',
      required: false,
      description: 'The same as `Last-Event-ID`, for clients that cannot set headers.',
      schema: { type: 'string', pattern: '^[0-9]+$' },
    },
    { name: 'kinds', in: 'query', required: false, description: 'Only these event kinds, comma-separated.', schema: { type: 'string' } },
  );
  const vh = versionHeaderParam(ctx);
  if (vh) params.push(vh);
  const op: JsonObject = {
    operationId: ctx.operationIds.allocate('streamEvents'),
    summary: 'Receive events as they happen (server-sent events).',
    description:
      `Each event is one server-sent event: \`event\` is its kind, \`id\` its position in the stream, \`data\` the JSON envelope \`{ id, type, timestamp, version, data }\`. ` +
      (raw.length > 0 ? `For ${list(raw, 'and')}, \`data\` is the payload itself (raw). ` : '') +
      'Reconnect with `Last-Event-ID` (or `after`) to continue strictly after the last event seen. ' +
      'Only events whose object the credential may read are sent (its scopes, ownership), so ids are not consecutive.' +
      (kinds.length > 0 ? ` Kinds: ${kinds.join(', ')}.` : '') +
      (heartbeat ? ` A comment line is sent every ${heartbeat.text} when no event is due.` : ''),
    responses: {
      '200': { description: 'The event stream.', content: { 'text/event-stream': { schema: { type: 'string' } } } },
      ...errorResponses(ctx, route),
    },
    'x-servicespec-route': 'stream',
  };
  if (params.length > 0) op.parameters = params;
  return op;
}

// events (issue 5): the built-in webhook registration operations (src/runtime/events/events-webhooks.ts).
function webhooksOperation(ctx: Context, route: WebhooksRoute): JsonObject {
  const kinds = (ctx.model.events?.kinds ?? []).map((k) => k.name);
  const secret = {
    type: 'string',
    pattern: '^whsec_[A-Za-z0-9+/]+={0,2}$',
    description: 'The signing secret (Standard Webhooks): `whsec_` and base64 of 24 to 64 random bytes.',
  };
  const endpoint: JsonObject = {
    type: 'object',
    properties: {
      id: { type: 'string' },
      url: { type: 'string', format: 'uri' },
      kinds: { type: ['array', 'null'], items: { type: 'string', enum: kinds }, description: 'The kinds delivered; null for every kind.' },
      description: { type: 'string' },
      created_at: { type: 'string', format: 'date-time' },
      disabled_at: { type: 'string', format: 'date-time' },
      disabled_reason: { type: 'string' },
    },
    required: ['id', 'url', 'kinds', 'created_at'],
  };
  // (in the document's dialect: OpenAPI 3.0 has no type arrays)
  const json = (body: JsonObject) => ({ [jsonType(ctx)]: { schema: schema(ctx, body) } });
  const id = { name: 'id', in: 'path', required: true, description: 'The endpoint identifier.', schema: { type: 'string' } };
  const params = pathParams(ctx, route).filter((p) => p.name !== 'id');
  const vh = versionHeaderParam(ctx);
  if (vh) params.push(vh);
  if (route.pathParams.includes('id')) params.push(id);
  const table: Record<WebhooksRoute['action'], { name: string; summary: string; body?: JsonObject; ok: JsonObject }> = {
    add: {
      name: 'addWebhookEndpoint',
      summary:
        'Register a webhook endpoint for some or all event kinds; it receives only events whose object this credential may read. The secret is shown in this answer only.',
      body: {
        type: 'object',
        properties: {
          url: { type: 'string', format: 'uri', maxLength: 2048 },
          kinds: { type: 'array', items: { type: 'string', enum: kinds }, minItems: 1, uniqueItems: true },
          description: { type: 'string', maxLength: 200 },
          secret,
        },
        required: ['url'],
        additionalProperties: false,
      },
      ok: {
        description: 'The endpoint, with its secret.',
        content: json({
          ...endpoint,
          properties: { ...(endpoint.properties as JsonObject), secret },
          required: [...(endpoint.required as string[]), 'secret'],
        }),
      },
    },
    list: {
      name: 'listWebhookEndpoints',
      summary: 'The webhook endpoints this caller registered (never their secrets).',
      ok: { description: 'The endpoints.', content: json({ type: 'object', properties: { items: { type: 'array', items: endpoint } }, required: ['items'] }) },
    },
    remove: { name: 'removeWebhookEndpoint', summary: 'Remove a webhook endpoint; nothing more is delivered to it.', ok: { description: 'Removed.' } },
    rotate: {
      name: 'rotateWebhookSecret',
      summary: 'Replace the signing secret; deliveries carry signatures with both secrets until the previous one expires.',
      body: { type: 'object', properties: { secret }, additionalProperties: false },
      ok: {
        description: 'The new secret and when the previous one stops being used.',
        content: json({
          type: 'object',
          properties: { id: { type: 'string' }, secret, previous_secret_expires_at: { type: 'string', format: 'date-time' } },
          required: ['id', 'secret', 'previous_secret_expires_at'],
        }),
      },
    },
  };
  const t = table[route.action];
  const op: JsonObject = { operationId: ctx.operationIds.allocate(t.name), summary: t.summary };
  if (route.auth) security(ctx, route.auth, `the webhook registration (${route.action})`, '/events/delivery/webhook', op);
  if (params.length > 0) op.parameters = params;
  if (t.body) op.requestBody = { required: route.action === 'add', content: json(t.body) };
  op.responses = { [String(route.successStatus)]: t.ok, ...errorResponses(ctx, route) };
  op['x-servicespec-route'] = 'webhooks';
  return op;
}

// ---- events -------------------------------------------------------------------------------------------------

/** What one delivery of a kind is: its body schema and, when signed, the Standard Webhooks header parameters (webhooks and callbacks alike). */
function kindDelivery(ctx: Context, k: EventKindModel): { body: JsonObject; params: JsonObject[] } {
  const signed = ctx.model.events?.webhook?.signing === 'standard-webhooks';
  const payload = k.payload ? shapeSchema(ctx, { ...k.payload, list: false }, 'response') : {};
  // A raw kind's delivery is its payload itself; others, the envelope around it.
  const body: JsonObject = isRawEvent(k)
    ? payload
    : {
        type: 'object',
        properties: {
          id: { type: 'string', description: 'The event identifier; the same on every retry.' },
          type: { type: 'string', enum: [k.name] },
          timestamp: { type: 'string', format: 'date-time', description: 'When the event happened.' },
          version: { type: 'string', description: 'The interface version the data is written in, where the spec has versions.' },
          data: getEventDataSchema(ctx.model, k, payload, (s) => schema(ctx, s)),
        },
        required: ['id', 'type', 'timestamp', 'data'],
      };
  const params = signed
    ? WEBHOOK_HEADERS.map((h) => ({
        name: h,
        in: 'header',
        required: true,
        description:
          h === 'webhook-id'
            ? 'The message identifier; the same on every retry of this event (Standard Webhooks).'
            : h === 'webhook-timestamp'
              ? 'Seconds since the Unix epoch when the message was sent (Standard Webhooks).'
              : 'Space-separated `v1,<base64 HMAC-SHA256>` signatures over `{webhook-id}.{webhook-timestamp}.{body}` (Standard Webhooks).',
        schema: h === 'webhook-timestamp' ? { type: 'string', pattern: '^[0-9]+$' } : { type: 'string' },
      }))
    : [];
  return { body, params };
}

function webhooks(ctx: Context): JsonObject {
  const e = ctx.model.events;
  const out: JsonObject = {};
  if (!e) return out;
  for (const k of e.kinds) {
    const { body, params } = kindDelivery(ctx, k);
    const post: JsonObject = {
      operationId: ctx.operationIds.allocate(`${k.name.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}Event`),
      summary: `Event ${k.name}`,
      security: [],
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: body },
        },
      },
      responses: { '200': { description: 'Any 2xx status acknowledges the delivery; anything else is retried.' } },
    };
    if (k.description !== undefined) post.description = k.description;
    if (params.length > 0) post.parameters = params;
    out[k.name] = { post };
  }
  return out;
}

// ---- document -----------------------------------------------------------------------------------------------

/** A declared version change as a sentence: its description, else what it did (as the nine-part document says it). */
function changeSentence(c: VersionChangeModel): string {
  if (c.description !== undefined) return c.description;
  const target = (field: string | undefined) => code(`${c.resource ?? NOT_SHOWN}.${field ?? NOT_SHOWN}`);
  if (c.kind === 'rename_field') return `Renamed ${target(c.from)} to ${code(c.to ?? NOT_SHOWN)}.`;
  if (c.kind === 'add_field') return `Added ${target(c.field)}.`;
  if (c.kind === 'remove_field') return `Removed ${target(c.field)}.`;
  return `A change (its description ${NOT_SHOWN} in the spec).`;
}

function infoRules(ctx: Context): string[] {
  const m = ctx.model;
  const rules: string[] = [];
  for (const sm of m.stateMachines) {
    const states = sm.states.map((s) => (s.terminal ? `${code(s.name)} (terminal)` : code(s.name)));
    rules.push(`${sm.resource} states: ${states.join(', ')}${sm.initial !== undefined ? `; a new ${sm.resource} starts in ${code(sm.initial)}` : ''}.`);
  }
  const l = m.limits;
  if (l) {
    for (const r of l.rate) if (!r.operations) rules.push(rateLimitRule(r, ', on every operation'));
    if (l.bodySize) rules.push(`Request bodies are at most ${l.bodySize.text}.`);
    if (l.headerSize) rules.push(`Request headers are at most ${l.headerSize.text}.`);
    if (l.nestingDepth !== undefined) rules.push(`JSON bodies nest at most ${l.nestingDepth} levels deep.`);
    if (l.timeout) rules.push(`Requests time out after ${l.timeout.text}.`);
    if (l.concurrency !== undefined) rules.push(`At most ${l.concurrency} requests are handled at once.`);
    if (l.failedAuth)
      rules.push(
        `After ${l.failedAuth.attempts} failed credentials within ${l.failedAuth.per.text} from one client address, or for one user name or key id, further attempts are refused as rate limited until the window passes.`,
      );
  }
  const v = m.versioning;
  if (v) {
    const pl = v.placement;
    const where =
      pl === undefined
        ? undefined
        : pl.kind === 'header'
          ? `the ${code(pl.name)} header`
          : pl.kind === 'path'
            ? `the path (${code(pl.template)})`
            : pl.kind === 'query'
              ? `the ${code(pl.name)} query parameter`
              : `the media type ${code(pl.template)} (\`Accept\`, and \`Content-Type\` for a body)`;
    if (v.current !== undefined)
      rules.push(`Current version: ${code(v.current)}${v.scheme ? ` (${v.scheme} versions)` : ''}${where ? `, named in ${where}` : ''}.`);
    for (const s of v.supported) {
      const dates = [s.deprecated !== undefined ? `deprecated ${s.deprecated}` : '', s.sunset !== undefined ? `sunset ${s.sunset}` : '']
        .filter(Boolean)
        .join(', ');
      const changes = s.changes.map(changeSentence).join(' ');
      rules.push(`Also served: ${code(s.version)}${dates ? ` (${dates})` : ''}.${changes ? ` ${changes}` : ''}`);
    }
    for (const c of v.compatibility) rules.push(`Compatibility: ${c}`);
  }
  const ev = m.events;
  if (ev?.webhook) {
    const w = ev.webhook;
    const parts = [
      w.signing ? `signed per Standard Webhooks` : '',
      w.retries ? `retried after ${w.retries.map((r) => r.text).join(', ')}` : '',
      w.timeout ? `each attempt times out after ${w.timeout.text}` : '',
    ].filter(Boolean);
    rules.push(`Webhooks${parts.length > 0 ? `: ${parts.join('; ')}` : ''}.`);
  }
  return rules;
}

function groupByPath(routes: readonly Route[]): Route[] {
  const byPath = new Map<string, Route[]>();
  for (const r of routes) {
    const list = byPath.get(r.path);
    if (list) list.push(r);
    else byPath.set(r.path, [r]);
  }
  return [...byPath.values()].flat();
}

/** The whole OpenAPI document. Never throws on a model that was built; problems come back as diagnostics. */
export function exportOpenApi(model: ServiceModel, options: OpenApiExportOptions = {}): ExportResult {
  const version = options.openapi ?? '3.1';
  const ctx: Context = {
    model,
    version,
    diagnostics: [],
    names: new NameAllocator(model.resources.map((r) => r.name)),
    schemas: {},
    views: new Map(),
    parameters: {},
    headers: {},
    responses: {},
    responseNames: new Map(),
    responseAllocator: new NameAllocator(),
    operationIds: new NameAllocator((model.endpoints?.operations ?? []).map((o) => o.id)),
    shapes: new NamedShapeComponents('#/components/schemas/', (s) => schema(ctx, s)),
    annotated: { annotations: true },
    opened: new Set(),
  };
  ctx.annotated = { annotations: true, namedShape: (use) => ctx.shapes.refer(use) };

  // info
  const p = model.purpose;
  const info: JsonObject = { title: p?.name ?? NOT_SHOWN };
  if (p?.name === undefined)
    ctx.diagnostics.push(
      diagnose(
        model,
        'export-not-shown',
        { item: 'the service name', target: `OpenAPI ${version}`, consequence: 'info.title says "not shown"' },
        model.present.purpose ? '/purpose' : undefined,
      ),
    );
  const purposeExt: JsonObject = {};
  if (p?.summary !== undefined) {
    if (version === '3.1') info.summary = p.summary;
    else {
      purposeExt.summary = p.summary;
      note(ctx, 'purpose.summary (OpenAPI 3.0 has no info.summary)', 'info.x-servicespec-purpose', '/purpose/summary');
    }
  }
  const rules = infoRules(ctx);
  const description = withRules(p?.description, rules);
  if (description !== undefined) info.description = description;
  info.version = model.versioning?.current ?? NOT_SHOWN;
  if (model.versioning?.current === undefined)
    ctx.diagnostics.push(
      diagnose(
        model,
        'export-not-shown',
        { item: 'the current version', target: `OpenAPI ${version}`, consequence: 'info.version says "not shown"' },
        model.present.versioning ? '/versioning' : undefined,
      ),
    );
  if (p?.contact) info.contact = { ...p.contact };
  if (p?.includes !== undefined || p?.excludes !== undefined) {
    purposeExt.scope = clean({ includes: p.includes ? [...p.includes] : undefined, excludes: p.excludes ? [...p.excludes] : undefined });
    note(ctx, 'purpose.scope', 'info.x-servicespec-purpose', '/purpose/scope');
  }
  if (p?.audience !== undefined) {
    purposeExt.audience = [...p.audience];
    note(ctx, 'purpose.audience', 'info.x-servicespec-purpose', '/purpose/audience');
  }
  if (Object.keys(purposeExt).length > 0) info['x-servicespec-purpose'] = purposeExt;

  const doc: JsonObject = { openapi: version === '3.1' ? '3.1.0' : '3.0.3', info };
  doc['x-servicespec-parts'] = PART_NAMES.filter((part) => model.present[part]);

  // servers: a base address the spec does not show, or shows as a template (`{base_url}`: supplied at deployment), is
  // the relative `/` (what OpenAPI assumes when there are no servers: wherever the document is served from), so that
  // no server variable needs a default the spec does not give; the template itself is kept in an extension.
  const base = model.endpoints?.baseUrl;
  const server: JsonObject =
    base !== undefined && !/\{[^{}]*\}/.test(base)
      ? { url: base, description: 'The address the service is deployed at.' }
      : {
          url: '/',
          description: `The address the service is deployed at is ${base === undefined ? 'not shown in the spec' : `\`${base}\`, supplied at deployment`}: \`/\` stands for it.`,
        };
  if (base === undefined) server['x-servicespec-not-shown'] = true;
  else if (server.url !== base) server['x-servicespec-base-url'] = base;
  doc.servers = [server];

  // resources first, in spec order, so the components read like the spec
  for (const r of model.resources) viewRef(ctx, r, 'response');
  for (const r of model.resources) {
    for (const [ext, shown] of [
      ['owner', r.owner !== undefined],
      ['plural', r.plural !== undefined],
      ['owner_override_scopes', r.ownerOverrideScopes.length > 0],
    ] as const) {
      if (shown) note(ctx, `resource ${r.name}: ${ext}`, 'x-servicespec-resource', joinPointer(r.pointer, ext));
    }
    walkFieldExtensions(r.fields, r.name, (f, where, ext) => {
      const keys = Object.keys(ext).filter((k) => k !== 'type' || (ext.type !== 'ref' && ext.type !== 'state'));
      const what = ext.type === 'ref' ? `reference to ${String(ext.to)}` : ext.type === 'state' ? 'state field' : keys.join(', ');
      note(ctx, `field ${where}: ${what}`, 'x-servicespec-field', f.pointer);
    });
  }

  // error body
  const errors = model.errors;
  if (errors?.body?.kind === 'problem') {
    const name = ctx.names.allocate('ProblemDetails');
    const codes = errors.codes.map((c) => c.name);
    ctx.schemas[name] = schema(ctx, {
      type: 'object',
      description: 'An error, as RFC 9457 problem details with the error code.',
      properties: {
        type: { type: 'string', format: 'uri-reference', description: 'A URI identifying the problem type.' },
        title: { type: 'string', description: "The error code's title." },
        status: { type: 'integer', description: 'The HTTP status.' },
        detail: { type: 'string', description: 'What went wrong in this request.' },
        instance: { type: 'string', description: 'The request path.' },
        code: codes.length > 0 ? { type: 'string', enum: codes, description: 'The error code.' } : { type: 'string', description: 'The error code.' },
        errors: {
          type: 'array',
          description: 'The invalid parts of the request.',
          items: {
            type: 'object',
            properties: {
              pointer: { type: 'string', description: 'A JSON pointer into the request body.' },
              parameter: { type: 'string', description: 'The name of an invalid parameter.' },
              in: { type: 'string', enum: ['path', 'query', 'header'] },
              message: { type: 'string' },
            },
            required: ['message'],
          },
        },
      },
      required: ['title', 'status', 'code'],
      'x-servicespec-error-body': 'problem',
    });
    ctx.errorBody = { ref: name, mediaType: PROBLEM_MEDIA_TYPE };
  } else if (errors?.body?.kind === 'declared') {
    const name = ctx.names.allocate('ErrorBody');
    const s = getShapeSchema(model, { fields: errors.body.fields, list: false }, 'response', {
      ...ctx.annotated,
      openAnswers: errors.body.answerMembers === 'open',
    }) as JsonObject;
    annotateObjectSchema(s, errors.body.fields);
    s.description = 'An error, in the shape the spec declares.';
    s['x-servicespec-error-body'] = 'declared';
    ctx.schemas[name] = schema(ctx, s);
    ctx.errorBody = { ref: name, mediaType: getErrorMediaType(errors.body) };
  }

  // security
  const auth = model.authentication;
  const components: JsonObject = {};
  if (auth && auth.schemes.length > 0) components.securitySchemes = Object.fromEntries(auth.schemes.map((s) => [s.name, securityScheme(ctx, s)]));
  if (auth?.default) security(ctx, auth.default, 'authentication.default', '/authentication/default', doc);
  if (auth && auth.scopes.length > 0) {
    doc['x-servicespec-scopes'] = Object.fromEntries(auth.scopes.map((s) => [s.name, s.description]));
    if (!auth.schemes.some((s) => s.type === 'oauth2_client_credentials'))
      note(ctx, 'authentication.scopes (no OAuth2 scheme lists them)', 'x-servicespec-scopes', '/authentication/scopes');
  }

  // paths, from the routes the runtime serves
  const paths: Record<string, JsonObject> = {};
  const routes = getRoutes(model);
  const usedTags = new Set<string>();
  const answered = new Map<string, string>();
  const documented: Route[] = [];
  for (const route of routes) {
    // Two routes answering the same requests (a spec error the checker reports) cannot both be documented.
    const shape = `${route.method} ${route.path.replace(/\{[^{}]*\}/g, '{}')}`;
    const first = answered.get(shape);
    if (first !== undefined) {
      const what = route.kind === 'operation' ? `operation ${route.operation.id}` : `the built-in ${route.kind} route`;
      ctx.diagnostics.push(
        diagnose(
          model,
          'export-skipped',
          { item: `${what} (${route.method} ${route.path})`, target: `OpenAPI ${version}`, reason: `${first} already answers the same requests` },
          route.kind === 'operation' ? route.operation.pointer : undefined,
        ),
      );
      continue;
    }
    answered.set(shape, route.kind === 'operation' ? `operation ${route.operation.id}` : `the built-in ${route.kind} route`);
    documented.push(route);
  }
  // Operations are written, and their shared components named, in the order the document lists them (path by path),
  // which is the order an importer reads them back in: so export → import → export names them the same.
  for (const route of groupByPath(documented)) {
    let op: JsonObject;
    if (route.kind === 'operation') {
      op = operationObject(ctx, route);
      if (route.resource) usedTags.add(route.resource.name);
    } else if (route.kind === 'token') op = tokenOperation(ctx, route);
    else if (route.kind === 'webhooks') op = webhooksOperation(ctx, route);
    else op = streamOperation(ctx, route);
    (paths[route.path] ??= {})[METHOD_KEYS[route.method]] = op;
  }
  doc.paths = paths;
  if (model.endpoints?.idempotency) {
    const i = model.endpoints.idempotency;
    doc['x-servicespec-idempotency'] = clean({ header: i.header, retention: i.retention?.text });
    note(ctx, 'endpoints.idempotency', 'x-servicespec-idempotency and the operations that accept the key', '/endpoints/idempotency');
  }
  // The answers' schemas show the envelope; which field carries which value is the spec's, kept as written.
  if (model.endpoints?.envelope) doc['x-servicespec-envelope'] = envelopeToSpec(model.endpoints.envelope) as unknown as JsonObject;
  const tags = model.resources.filter((r) => usedTags.has(r.name)).map((r) => clean({ name: r.name, description: r.description }));
  if (tags.length > 0) doc.tags = tags;

  // events
  if (model.events) {
    if (version === '3.1') {
      const w = webhooks(ctx);
      if (Object.keys(w).length > 0) doc.webhooks = w;
    } else if (model.events.kinds.length > 0) {
      note(ctx, 'the event kinds as webhooks (OpenAPI 3.0 has no webhooks)', 'x-servicespec-events', '/events/kinds');
    }
    doc['x-servicespec-events'] = eventsToSpec(model);
    for (const k of model.events.kinds) {
      if (k.triggers.some((t) => t.action !== 'transition')) note(ctx, `event ${k.name}: what emits it`, 'x-servicespec-events', k.pointer);
    }
    if (model.events.webhook) note(ctx, 'events.delivery.webhook (signing, retries, time-out)', 'x-servicespec-events', '/events/delivery/webhook');
    if (model.events.stream) note(ctx, 'events.delivery.stream', 'x-servicespec-events and the stream operation', '/events/delivery/stream');
  }

  // the parts OpenAPI has no words for
  if (model.present.states) {
    doc['x-servicespec-states'] = Object.fromEntries(model.stateMachines.map((m) => [m.resource, stateMachineToSpec(m)]));
    for (const m of model.stateMachines)
      note(ctx, `the ${m.resource} state machine`, 'x-servicespec-states, info.description and the transition operations', m.pointer);
  }
  if (errors) {
    doc['x-servicespec-errors'] = errorsToSpec(model);
    for (const c of errors.codes)
      if (c.when.length > 0)
        note(ctx, `error code ${c.name}: the conditions that produce it (${c.when.join(', ')})`, 'x-servicespec-errors', joinPointer(c.pointer, 'when'));
  }
  if (model.limits) {
    doc['x-servicespec-limits'] = limitsToSpec(model);
    const l = model.limits;
    for (const r of l.rate)
      note(
        ctx,
        `rate limit ${r.name ?? r.pointer}`,
        `x-servicespec-limits and ${r.operations ? 'the descriptions of the operations it names' : 'info.description'}`,
        r.pointer,
      );
    const items: [string, unknown][] = [
      ['body_size', l.bodySize],
      ['header_size', l.headerSize],
      ['nesting_depth', l.nestingDepth],
      ['timeout', l.timeout],
      ['concurrency', l.concurrency],
      ['failed_auth', l.failedAuth],
    ];
    for (const [k, v] of items) if (v !== undefined) note(ctx, `limits.${k}`, 'x-servicespec-limits and info.description', `/limits/${k}`);
    if (l.pageSize) note(ctx, 'limits.page_size', 'x-servicespec-limits and the limit parameters', '/limits/page_size');
  }
  if (model.versioning) {
    doc['x-servicespec-versioning'] = versioningToSpec(model);
    note(ctx, 'the versioning rules (supported versions, changes, deprecation, compatibility)', 'x-servicespec-versioning and info.description', '/versioning');
  }

  // The named shapes as written, for the import: the components show their content, once per view.
  const shapes = namedShapesToSpec(model);
  if (shapes) {
    doc['x-servicespec-shapes'] = shapes as unknown as JsonObject;
    note(ctx, `the named shapes as written (${Object.keys(shapes).length})`, 'x-servicespec-shapes and their components', '/shapes');
  }

  if (Object.keys(ctx.parameters).length > 0) components.parameters = ctx.parameters;
  if (Object.keys(ctx.headers).length > 0) components.headers = ctx.headers;
  if (Object.keys(ctx.responses).length > 0) components.responses = ctx.responses;
  dropUnreferencedClosed(ctx, doc);
  components.schemas = ctx.schemas;
  doc.components = components;
  ctx.shapes.publish(doc, ctx.names, ctx.schemas);
  publishVariants(ctx, doc);
  return { document: doc, diagnostics: ctx.diagnostics };
}

/**
 * A closed request view made only so its open counterpart could be (every operation taking it says
 * \`unknown_fields: ignore\`) is referred to by nothing: left in, linters flag it (Redocly's no-unused-components).
 */
function dropUnreferencedClosed(ctx: Context, doc: JsonObject): void {
  if (ctx.opened.size === 0) return;
  const referred = new Set<string>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) for (const x of v) visit(x);
    else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        if (k === '$ref' && typeof x === 'string' && x.startsWith('#/components/schemas/')) referred.add(x.slice('#/components/schemas/'.length));
        else visit(x);
      }
  };
  visit(doc);
  for (const [name, s] of Object.entries(ctx.schemas)) if (!ctx.opened.has(name)) visit(s);
  for (const name of ctx.opened) if (!referred.has(name)) delete ctx.schemas[name];
}

export type { JsonSchema };
