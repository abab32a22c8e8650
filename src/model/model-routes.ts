import type { Condition, HttpMethod, ListStyle, PagingRole } from '../spec/spec-types.js';
import { getPathParams } from './model-builder.js';
import { getPagingParamName, isStatusIn, LIST_PARAMS } from './model-defaults.js';
import { getField, getResource, getStateMachine } from './model-lookup.js';
import { getParentAddressSources, getParentBinding, getParentRefBindings } from './model-path-bindings.js';
import { getUnsourcedFields, getUnstatedValueFields } from './model-schemas.js';
import type {
  AuthRequirement,
  FieldModel,
  OperationModel,
  ParameterModel,
  ResourceModel,
  SchemeModel,
  ServiceModel,
  StateMachineModel,
  TransitionModel,
} from './model-types.js';

// The one derived view of what a spec serves. The runtime registers exactly these routes and the
// exporters document exactly these, so served and documented cannot drift.

/** Query parameter names the format defines for list operations, by paging style (written in model-defaults.ts). */
export { LIST_PARAMS } from './model-defaults.js';
/** Field types a list cannot filter on: a filter is one query value compared with the stored value as text. */
export const UNFILTERABLE_TYPES: ReadonlySet<string> = new Set(['array', 'object', 'map', 'json', 'union']);
/** The response header a list with `paging.link` gives its next page's address in (RFC 8288). */
export const LINK_HEADER = 'Link';
/** Response field names the format defines for a list page (written in model-defaults.ts). */
export { PAGE_FIELDS } from './model-defaults.js';

export interface QueryParam {
  name: string;
  /** The field it filters on, for filter parameters. */
  field?: FieldModel;
  /** The declared parameter, for a custom operation's own (`param`). */
  parameter?: ParameterModel;
  /** A list's filter that every request must send (`required_filters`); absent on every other parameter. */
  required?: true;
  /** limit: the page size (`limit`, or `per_page` in the page style); offset: objects skipped; page: the page number, from paging.first_page (1 by default). */
  kind: 'limit' | 'cursor' | 'offset' | 'page' | 'sort' | 'filter' | 'version' | 'param';
}

interface RouteBase {
  method: HttpMethod;
  /** The full path template as served, `{name}` for parameters (includes a version prefix). */
  path: string;
  /** The same path in Fastify's syntax (`:name`). */
  routerPath: string;
  pathParams: readonly string[];
  /** The conditions this route can produce (mapped to declared codes by `getErrorCodes`). */
  conditions: readonly Condition[];
}

export interface OperationRoute extends RouteBase {
  kind: 'operation';
  operation: OperationModel;
  resource?: ResourceModel;
  machine?: StateMachineModel;
  transition?: TransitionModel;
  query: readonly QueryParam[];
  /** The request headers the operation declares (operation.headers): a custom operation's, or a built-in action's to validate. */
  headers: readonly ParameterModel[];
  /** Whether the route reads a JSON body. */
  hasBody: boolean;
  successStatus: number;
  /**
   * The path parameter naming the object (read, update, replace, delete, transition). Any string is taken:
   * one that is not a well-formed identifier names no object and is answered `missing_resource`, so the export
   * declares it as a string (docs/architecture.md, "Departures").
   */
  identifierParam?: string;
}

export interface TokenRoute extends RouteBase {
  kind: 'token';
  scheme: SchemeModel;
}

export interface StreamRoute extends RouteBase {
  kind: 'stream';
  /** The spec's default requirement: the stream is authenticated like any operation. */
  auth?: AuthRequirement;
}

/** The built-in webhook registration operations under `events.delivery.webhook.path`. */
export type WebhooksAction = 'add' | 'list' | 'remove' | 'rotate';

export interface WebhooksRoute extends RouteBase {
  kind: 'webhooks';
  action: WebhooksAction;
  /** The default requirement, with `events.delivery.webhook.scopes` in place of its scopes when given. */
  auth?: AuthRequirement;
  hasBody: boolean;
  successStatus: number;
}

export type Route = OperationRoute | TokenRoute | StreamRoute | WebhooksRoute;

function withPrefix(model: ServiceModel, path: string): string {
  const p = model.versioning?.placement;
  if (p?.kind !== 'path') return path;
  return `${p.template.replace(/\/+$/, '')}${path}`;
}

function toRouterPath(path: string): string {
  return path.indexOf('{') < 0 ? path : path.replace(/\{([^{}]*)\}/g, ':$1');
}

function getPathParamNames(path: string): string[] {
  return getPathParams(path);
}

/** The empty query and header lists of the routes that have none (shared, frozen). */
const NONE: readonly never[] = Object.freeze([]);

const BODY_ACTIONS = new Set(['create', 'update', 'replace', 'transition']);
const OBJECT_ACTIONS = new Set(['read', 'update', 'replace', 'delete', 'transition']);

/** The one-object changes that honour If-Match on a resource with `etag: true` (docs/format.md, "Conditional requests"). */
export const IF_MATCH_ACTIONS: ReadonlySet<string> = new Set(['update', 'replace', 'delete', 'transition']);
/** The actions whose answer carries one object, and so an ETag, on a resource with `etag: true`. */
export const ETAG_ANSWER_ACTIONS: ReadonlySet<string> = new Set(['read', 'create', 'update', 'replace', 'transition']);

/** Whether an operation is a one-object change of a resource with `etag: true`: it honours If-Match (precondition_failed). */
export function isConditionalChange(resource: ResourceModel | undefined, o: Pick<OperationModel, 'action'>): boolean {
  return resource?.etag === true && IF_MATCH_ACTIONS.has(o.action);
}

/** Whether an operation's success answer carries an ETag: one object of a resource with `etag: true`. */
export function answersETag(resource: ResourceModel | undefined, o: Pick<OperationModel, 'action'>): boolean {
  return resource?.etag === true && ETAG_ANSWER_ACTIONS.has(o.action);
}
const WRITE_ACTIONS = new Set(['create', 'update', 'replace']);

/** Whether an operation takes an Idempotency-Key: unsafe methods, where the spec declares idempotency. */
export function isIdempotentOperation(model: ServiceModel, o: OperationModel): boolean {
  return model.endpoints?.idempotency !== undefined && o.method !== 'GET' && o.idempotent !== false;
}

/**
 * The conditions every route shares (a request the server cannot read: a malformed URL or request line, no
 * Host header, oversized headers), and those of checking a credential against a requirement.
 */
function baseConditions(model: ServiceModel, auth: AuthRequirement | undefined): Condition[] {
  const c: Condition[] = ['internal', 'headers_too_large', 'malformed_request'];
  // Any route can meet a database fault; a spec that declares a code for it has it documented on every route (one
  // that does not is answered the format's default, docs/format.md, and is not asked to declare it).
  if (model.errors?.byCondition.unavailable !== undefined) c.push('unavailable');
  if (model.versioning?.placement) c.push('unsupported_version');
  if (auth?.kind === 'required') {
    c.push('missing_credential', 'invalid_credential');
    // Failed credentials are bounded per address and per credential id (limits.failed_auth, or a gap's built-in).
    c.push('rate_limited');
    if (hasTokenScheme(model, auth)) c.push('expired_credential');
    if (auth.scopes.length > 0) c.push('missing_scope');
  }
  return c;
}

function hasTokenScheme(model: ServiceModel, auth: AuthRequirement & { kind: 'required' }): boolean {
  return (model.authentication?.schemes ?? []).some((s) => (s.type === 'bearer' || s.type === 'oauth2_client_credentials') && auth.schemes.includes(s.name));
}

/** Which of baseConditions' lists a requirement gets: they differ only in these three facts. */
function baseKey(model: ServiceModel, auth: AuthRequirement | undefined): number {
  if (auth?.kind !== 'required') return 0;
  return 1 + (hasTokenScheme(model, auth) ? 2 : 0) + (auth.scopes.length > 0 ? 4 : 0);
}

/** Adds a condition once, keeping the order of first addition (as a Set would, without one per route). */
function add(c: Condition[], x: Condition): void {
  if (!c.includes(x)) c.push(x);
}

const referencedCache = new WeakMap<ServiceModel, Set<string>>();

/** Resources a top-level `ref` field (a foreign key) points at, so deleting one can meet `in_use`; once per model. */
function getReferencedResources(model: ServiceModel): Set<string> {
  let names = referencedCache.get(model);
  if (!names) {
    names = new Set();
    for (const r of model.resources) for (const f of r.fields) if (f.type === 'ref' && f.to !== undefined) names.add(f.to);
    referencedCache.set(model, names);
  }
  return names;
}

/** What `operationConditions` reads from the model alone, worked out once per `buildRoutes`. */
interface ConditionFacts {
  /** An operation's conditions by its key (operationConditions). */
  lists: Map<number, readonly Condition[]>;
  /** Per resource: whether it has a unique field, a ref field. */
  writes: Map<ResourceModel, { unique: boolean; ref: boolean }>;
  timeout: boolean;
  notImplemented: boolean;
  /** Whether a rate limit applies to every operation; else, the operations one names. */
  rateAll: boolean;
  rateOperations: ReadonlySet<string>;
}

/**
 * What an operation's conditions depend on besides its requirement, in the order they are added: bit i of an
 * operation's key says whether step i applies. Operations with the same key share one (frozen) list.
 */
const CONDITION_STEPS: readonly (readonly Condition[])[] = [
  ['validation', 'malformed_request', 'unsupported_media_type', 'body_too_large'],
  // A route that reads no body still reads (and ignores) what is sent with an unsafe method, up to the body limit.
  ['body_too_large'],
  ['validation'],
  // Served without its handler (--allow-gaps), a custom operation is answered not_implemented; documented where declared.
  ['not_implemented'],
  ['missing_resource'],
  ['illegal_transition'],
  ['not_owner'],
  ['rate_limited'],
  ['timeout'],
  ['unique_conflict'],
  ['reference_not_found'],
  ['in_use'],
  ['idempotency_conflict', 'idempotency_in_progress'],
  ['precondition_failed'],
  ['precondition_required'],
];

function operationConditions(
  model: ServiceModel,
  o: OperationModel,
  resource: ResourceModel | undefined,
  hasBody: boolean,
  facts: ConditionFacts,
): readonly Condition[] {
  let steps = 0;
  if (hasBody) steps |= 1 << 0;
  else if (o.method !== 'GET') steps |= 1 << 1;
  // Declared parameters are validated on every action (a built-in one checks them and does not otherwise use them).
  if (o.action === 'list' || (o.action === 'custom' && o.method === 'GET') || o.query.length > 0 || o.headers.length > 0) steps |= 1 << 2;
  // So is a create whose request_fields leave a required field without a value (model-schemas.ts getUnsourcedFields).
  // And a create or replace a request may leave a field out of whose value the spec does not state (optionalInRequests).
  if (
    (o.action === 'custom' ||
      (resource && ((o.requestFields !== undefined && getUnsourcedFields(resource, o).length > 0) || getUnstatedValueFields(resource, o).length > 0))) &&
    facts.notImplemented
  )
    steps |= 1 << 3;
  // A create or a list under a parent its path names by a ref (a task's project_id) or as its resource's `parent`
  // (Article.slug): a parent that is not there.
  if (OBJECT_ACTIONS.has(o.action) || getParentBinding(o) !== undefined || (resource && getParentRefBindings(resource, o).length > 0)) steps |= 1 << 4;
  if (o.action === 'transition') steps |= 1 << 5;
  if (o.auth?.kind === 'required' && resource?.owner !== undefined && resource.ownerAccess === 'forbidden' && o.action !== 'create' && o.action !== 'list')
    steps |= 1 << 6;
  if (facts.rateAll || facts.rateOperations.has(o.id)) steps |= 1 << 7;
  if (facts.timeout) steps |= 1 << 8;
  if (resource && WRITE_ACTIONS.has(o.action)) {
    let w = facts.writes.get(resource);
    if (w === undefined) {
      w = { unique: resource.fields.some((f) => f.unique) || (resource.uniqueKeys?.length ?? 0) > 0, ref: resource.fields.some((f) => f.type === 'ref') };
      facts.writes.set(resource, w);
    }
    if (w.unique) steps |= 1 << 9;
    if (w.ref) steps |= 1 << 10;
  }
  if (resource && o.action === 'delete' && getReferencedResources(model).has(resource.name)) steps |= 1 << 11;
  if (isIdempotentOperation(model, o)) steps |= 1 << 12;
  if (isConditionalChange(resource, o)) {
    steps |= 1 << 13;
    if (o.ifMatch === 'required') steps |= 1 << 14;
  }
  const key = baseKey(model, o.auth) * (1 << CONDITION_STEPS.length) + steps;
  let list = facts.lists.get(key);
  if (list === undefined) {
    const c = baseConditions(model, o.auth);
    CONDITION_STEPS.forEach((step, i) => {
      if (steps & (1 << i)) for (const x of step) add(c, x);
    });
    list = Object.freeze(c);
    facts.lists.set(key, list);
  }
  return list;
}

const routesCache = new WeakMap<ServiceModel, readonly Route[]>();

/** Every route the spec serves, in the order of the spec's operations, then the built-in ones. */
export function getRoutes(model: ServiceModel): readonly Route[] {
  // The model is frozen, so its routes are computed once and shared (frozen too).
  let routes = routesCache.get(model);
  if (!routes) {
    routes = Object.freeze(buildRoutes(model));
    routesCache.set(model, routes);
  }
  return routes;
}

/**
 * A route's kind, method, served path and conditions, and what it serves: what `check` reads of the routes
 * (reserved paths, producible conditions). `getRoutes` builds each route from its head, so the two always agree;
 * `check` reads only the heads, which cost a fraction of the routes (bench/RESULTS.md, check).
 */
export type RouteHead =
  | (Pick<OperationRoute, 'kind' | 'method' | 'path' | 'conditions' | 'operation' | 'hasBody'> & { resource: ResourceModel | undefined })
  | Pick<TokenRoute, 'kind' | 'method' | 'path' | 'conditions' | 'scheme'>
  | (Pick<StreamRoute, 'kind' | 'method' | 'path' | 'conditions'> & { auth: AuthRequirement | undefined })
  | (Pick<WebhooksRoute, 'kind' | 'method' | 'path' | 'conditions' | 'action' | 'hasBody' | 'successStatus'> & {
      auth: AuthRequirement | undefined;
    });

const headsCache = new WeakMap<ServiceModel, readonly RouteHead[]>();

/** The parameters an operation declares (operation.query, then operation.headers), as its route reads them. */
export function getDeclaredParameters(route: OperationRoute): readonly ParameterModel[] {
  return [...route.query.flatMap((q) => (q.kind === 'param' && q.parameter ? [q.parameter] : [])), ...route.headers];
}

/** The heads of `getRoutes(model)`, in the same order. */
export function getRouteHeads(model: ServiceModel): readonly RouteHead[] {
  let heads = headsCache.get(model);
  if (!heads) {
    heads = Object.freeze(buildRouteHeads(model));
    headsCache.set(model, heads);
  }
  return heads;
}

/** The query parameters of an operation's route: a list's, the operation's declared ones (operation.query), the version's. */
function routeQuery(o: OperationModel, resource: ResourceModel | undefined, versionQuery: string | undefined): readonly QueryParam[] {
  if (o.action !== 'list' && o.query.length === 0 && versionQuery === undefined) return NONE;
  const query: QueryParam[] = [];
  if (o.action === 'list') {
    query.push(...getPagingParams(o));
    for (const name of o.filter) {
      const field = getField(resource, name);
      const q: QueryParam = field ? { name, kind: 'filter', field } : { name, kind: 'filter' };
      if (o.requiredFilters?.includes(name)) q.required = true;
      query.push(q);
    }
    if (o.sort.length > 0) query.push({ name: o.sortParam ?? LIST_PARAMS.sort, kind: 'sort' });
  }
  for (const p of o.query) query.push({ name: p.name, kind: 'param', parameter: p });
  if (versionQuery !== undefined) query.push({ name: versionQuery, kind: 'version' });
  return query;
}

/** The paging roles each style reads, in the order its query parameters are listed (docs/format.md, "List shapes"). */
export const PAGING_ROLES: Readonly<Record<ListStyle, readonly PagingRole[]>> = Object.freeze({
  cursor: ['limit', 'cursor'],
  offset: ['limit', 'offset'],
  page: ['page', 'limit'],
  limit: ['limit'],
  none: [],
  after: ['limit', 'cursor'],
});

/** The query parameters a list's paging style reads (none for style none), by the names `paging.params` gives them. */
export function getPagingParams(o: OperationModel): QueryParam[] {
  const p = o.paging;
  return PAGING_ROLES[p?.style ?? 'cursor'].map((role) => ({ name: getPagingParamName(p, role), kind: role }));
}

function buildRouteHeads(model: ServiceModel): RouteHead[] {
  const heads: RouteHead[] = [];
  const rate = model.limits?.rate ?? [];
  const facts: ConditionFacts = {
    lists: new Map(),
    writes: new Map(),
    timeout: Boolean(model.limits?.timeout),
    notImplemented: model.errors?.byCondition.not_implemented !== undefined,
    rateAll: rate.some((r) => !r.operations),
    rateOperations: new Set(rate.flatMap((r) => r.operations ?? [])),
  };
  for (const o of model.endpoints?.operations ?? []) {
    const resource = getResource(model, o.resource);
    const hasBody = BODY_ACTIONS.has(o.action) || (o.action === 'custom' && o.request !== undefined && o.method !== 'GET' && o.method !== 'DELETE');
    const conditions = operationConditions(model, o, resource, hasBody, facts);
    heads.push({ kind: 'operation', method: o.method, path: withPrefix(model, o.path), conditions, operation: o, hasBody, resource });
  }
  for (const s of model.authentication?.schemes ?? []) {
    if (s.type !== 'oauth2_client_credentials' || s.tokenPath === undefined) continue;
    // rate_limited: failed client authentications are bounded like every credential (limits.failed_auth).
    const conditions: Condition[] = ['validation', 'malformed_request', 'invalid_credential', 'missing_scope', 'rate_limited', 'internal', 'headers_too_large'];
    heads.push({ kind: 'token', method: 'POST', path: s.tokenPath, conditions, scheme: s });
  }
  const stream = model.events?.stream?.path;
  if (stream !== undefined) {
    // Authenticated like any operation, by the default requirement; its query (kinds, after) is validated.
    const conditions: Condition[] = baseConditions(model, model.authentication?.default);
    add(conditions, 'validation');
    heads.push({ kind: 'stream', method: 'GET', path: withPrefix(model, stream), conditions, auth: model.authentication?.default });
  }
  heads.push(...getWebhooksHeads(model));
  return heads;
}

function buildRoutes(model: ServiceModel): Route[] {
  const routes: Route[] = [];
  const versionQuery = model.versioning?.placement?.kind === 'query' ? model.versioning.placement.name : undefined;
  const placement = model.versioning?.placement;
  const versionParams = new Set(placement?.kind === 'path' ? getPathParamNames(placement.template) : []);
  for (const h of getRouteHeads(model)) {
    const { path, conditions } = h;
    switch (h.kind) {
      case 'operation': {
        const o = h.operation;
        const resource = h.resource;
        const machine = getStateMachine(model, o.resource);
        const transition = o.transition === undefined ? undefined : machine?.transitions.find((t) => t.name === o.transition);
        const query = routeQuery(o, resource, versionQuery);
        const route: OperationRoute = {
          kind: 'operation',
          method: o.method,
          path,
          routerPath: toRouterPath(path),
          pathParams: path === o.path ? o.pathParams : getPathParamNames(path),
          conditions,
          operation: o,
          query,
          headers: o.headers,
          hasBody: h.hasBody,
          successStatus: o.status,
        };
        if (resource) route.resource = resource;
        const idParam = versionParams.size === 0 ? route.pathParams.at(-1) : route.pathParams.filter((p) => !versionParams.has(p)).at(-1);
        // With \`bind\`, the identifier's parameter is the one bound to it (none when the object is found by other fields).
        const boundId = o.bindings ? o.bindings.find((b) => b.field === resource?.identifier)?.param : idParam;
        if (resource?.identifier !== undefined && OBJECT_ACTIONS.has(o.action) && boundId !== undefined) route.identifierParam = boundId;
        if (machine) route.machine = machine;
        if (transition) route.transition = transition;
        routes.push(route);
        break;
      }
      case 'token':
        routes.push({ kind: 'token', method: h.method, path, routerPath: toRouterPath(path), pathParams: [], conditions, scheme: h.scheme });
        break;
      case 'stream': {
        const route: StreamRoute = { kind: 'stream', method: h.method, path, routerPath: toRouterPath(path), pathParams: getPathParamNames(path), conditions };
        if (h.auth) route.auth = h.auth;
        routes.push(route);
        break;
      }
      case 'webhooks': {
        const route: WebhooksRoute = {
          kind: 'webhooks',
          action: h.action,
          method: h.method,
          path,
          routerPath: toRouterPath(path),
          pathParams: getPathParamNames(path),
          conditions,
          hasBody: h.hasBody,
          successStatus: h.successStatus,
        };
        if (h.auth) route.auth = h.auth;
        routes.push(route);
        break;
      }
    }
  }
  return routes;
}

// events (issue 5): add, list, remove and rotate webhook endpoints, when the spec names where.
const WEBHOOKS_ROUTES: readonly { action: WebhooksAction; method: HttpMethod; suffix: string; hasBody: boolean; status: number }[] = [
  { action: 'add', method: 'POST', suffix: '', hasBody: true, status: 201 },
  { action: 'list', method: 'GET', suffix: '', hasBody: false, status: 200 },
  { action: 'remove', method: 'DELETE', suffix: '/{id}', hasBody: false, status: 204 },
  { action: 'rotate', method: 'POST', suffix: '/{id}/rotate', hasBody: true, status: 200 },
];

function getWebhooksHeads(model: ServiceModel): RouteHead[] {
  const base = model.events?.webhook?.path;
  if (base === undefined) return [];
  const def = model.authentication?.default;
  const scopes = model.events?.webhook?.scopes;
  const auth: AuthRequirement | undefined = def?.kind === 'required' && scopes !== undefined ? { ...def, scopes: [...scopes] } : def;
  return WEBHOOKS_ROUTES.map((r) => {
    const path = withPrefix(model, `${base.replace(/\/+$/, '')}${r.suffix}`);
    const c = baseConditions(model, auth);
    if (r.hasBody) for (const x of ['validation', 'malformed_request', 'unsupported_media_type', 'body_too_large'] as const) add(c, x);
    else if (r.method !== 'GET') add(c, 'body_too_large');
    if (r.suffix !== '') add(c, 'missing_resource');
    return { kind: 'webhooks', action: r.action, method: r.method, path, conditions: c, hasBody: r.hasBody, successStatus: r.status, auth };
  });
}

/**
 * The service's own routes, beside the spec's: they live under one reserved prefix that no spec path may use
 * (`check` reports one that does, `reserved-path`), so they can never shadow an operation. Health is always
 * served; the documents and the console when the service is started with `docs` (`serve --docs`).
 */
export const RESERVED_PREFIX = '/_servicespec';

export type ServicePathName = 'health' | 'openapi' | 'asyncapi' | 'docs';

export const SERVICE_PATHS: Readonly<Record<ServicePathName, string>> = Object.freeze({
  health: `${RESERVED_PREFIX}/health`,
  openapi: `${RESERVED_PREFIX}/openapi.json`,
  asyncapi: `${RESERVED_PREFIX}/asyncapi.json`,
  docs: `${RESERVED_PREFIX}/docs`,
});

export interface ServiceRoute {
  name: ServicePathName;
  method: 'GET';
  path: string;
  /** Served only when the service is started with `docs`. */
  docsOnly: boolean;
  summary: string;
}

/** The service's own routes (not part of the spec's interface, so not in `getRoutes` or the exports). */
export function getServiceRoutes(): readonly ServiceRoute[] {
  return [
    {
      name: 'health',
      method: 'GET',
      path: SERVICE_PATHS.health,
      docsOnly: false,
      summary: 'Whether the database (and Redis, when configured) can be reached: 200, or 503 naming what cannot.',
    },
    { name: 'openapi', method: 'GET', path: SERVICE_PATHS.openapi, docsOnly: true, summary: 'The OpenAPI 3.1 document of this service, as JSON.' },
    { name: 'asyncapi', method: 'GET', path: SERVICE_PATHS.asyncapi, docsOnly: true, summary: 'The AsyncAPI 3 document of its events, as JSON.' },
    {
      name: 'docs',
      method: 'GET',
      path: SERVICE_PATHS.docs,
      docsOnly: true,
      summary: 'This docs console: the nine parts, examples, try-it and the event viewer.',
    },
  ];
}

/** Whether a path (a template, as served) lies under the reserved prefix. */
export function isReservedPath(path: string): boolean {
  // Only `/` and `_` lower-case to `/` and `_`: most paths are told apart without a lower-case copy.
  if (path.charCodeAt(0) !== 47 || path.charCodeAt(1) !== 95) return false;
  const p = path.toLowerCase();
  return p === RESERVED_PREFIX || p.startsWith(`${RESERVED_PREFIX}/`);
}

/** Whether a status is the route's success answer: its status, any of its range (`status: 2XX`), or an upsert's 201. */
export function isSuccessAnswer(route: { successStatus: number; operation?: OperationModel }, status: number): boolean {
  // An upsert's 201 (a PUT naming no object made it) is its other success answer.
  return isStatusIn(status, route.successStatus, route.operation?.statusRange) || (status === 201 && route.operation?.upsert === true);
}

/** The answer to a change of an object that exists: an upsert's 201 would say it made one, so it is not one here. */
export function isChangeAnswer(route: { successStatus: number; operation?: OperationModel }, status: number): boolean {
  return isStatusIn(status, route.successStatus, route.operation?.statusRange);
}

/** The declared error codes a route can answer with, by condition; conditions with no code are left out. */
export function getErrorCodes(model: ServiceModel, route: Route): { condition: Condition; code: string; status: number }[] {
  const out: { condition: Condition; code: string; status: number }[] = [];
  for (const condition of route.conditions) {
    const name = model.errors?.byCondition[condition];
    const code = model.errors?.codes.find((c) => c.name === name);
    if (code) out.push({ condition, code: code.name, status: code.status });
  }
  return out;
}

/** A declared error code as documented for a route: the document, the console, the exports and the tester read these. */
export interface RouteError {
  code: string;
  status: number;
  /** The code's status range (`4XX`, `5XX`), when it declares one in place of a status. */
  statusRange?: string;
  title?: string;
}

/**
 * Every declared error code a route can answer with: the codes of the runtime conditions it can produce
 * (`getErrorCodes`) and, for an operation, the codes it declares itself (`errors:`), by status (the catalogue's order within one). The
 * one derivation of a route's errors: the nine-part document's Errors column and the OpenAPI export's responses
 * both read it, so they cannot disagree.
 */
export function getRouteErrors(model: ServiceModel, route: Route): readonly RouteError[] {
  const names = new Set(getErrorCodes(model, route).map((c) => c.code));
  if (route.kind === 'operation') for (const name of route.operation.errors) names.add(name);
  const out: RouteError[] = [];
  for (const c of model.errors?.codes ?? [])
    if (names.has(c.name))
      out.push({
        code: c.name,
        status: c.status,
        ...(c.statusRange !== undefined ? { statusRange: c.statusRange } : {}),
        ...(c.title !== undefined ? { title: c.title } : {}),
      });
  return out.sort((a, b) => a.status - b.status);
}

/**
 * The Location header a create answers with: the path template of the resource's first read operation under the
 * create's own prefix (a version segment, say), or undefined when the create says `location: false`, or the resource
 * has no read operation or no identifier field, or the read names one of the resource's parents by a field this
 * create's path does not give (the runtime then sends none: service/runtime-actions.ts, createLocation).
 */
export function getCreateLocation(model: ServiceModel, route: OperationRoute): string | undefined {
  const o = route.operation;
  const resource = route.resource;
  if (o.action !== 'create' || o.location === false || !resource || resource.identifier === undefined) return undefined;
  if (!getField(resource, resource.identifier)) return undefined;
  const read = (model.endpoints?.operations ?? []).find((r) => r.action === 'read' && r.resource === resource.name);
  if (!read) return undefined;
  // A parent its path does not give, by the read's field (parent-address-unfilled): none, as the runtime sends none.
  if (getParentAddressSources(model, resource, read, o).some((p) => p.column === undefined && p.param === undefined)) return undefined;
  return `${route.path.slice(0, route.path.length - o.path.length)}${read.path}`;
}

/** The Location a replace with `upsert: true` answers when it creates (201): its read's path, as a create's; else undefined. */
export function getUpsertLocation(model: ServiceModel, route: OperationRoute): string | undefined {
  const o = route.operation;
  const resource = route.resource;
  if (o.action !== 'replace' || !o.upsert || o.location === false || !resource || resource.identifier === undefined || !getField(resource, resource.identifier))
    return undefined;
  const read = (model.endpoints?.operations ?? []).find((r) => r.action === 'read' && r.resource === resource.name);
  if (!read || read.bindings) return undefined;
  return `${route.path.slice(0, route.path.length - o.path.length)}${read.path}`;
}

/** An operation's route (undefined for an operation the runtime does not register). */
export function getOperationRoute(model: ServiceModel, operationId: string): OperationRoute | undefined {
  let byId = operationRoutes.get(model);
  if (!byId) {
    byId = new Map();
    for (const r of getRoutes(model)) if (r.kind === 'operation') byId.set(r.operation.id, r);
    operationRoutes.set(model, byId);
  }
  return byId.get(operationId);
}
const operationRoutes = new WeakMap<ServiceModel, Map<string, OperationRoute>>();

function describeRoute(r: RouteHead): string {
  switch (r.kind) {
    case 'operation':
      return `operation ${r.operation.id}`;
    case 'token':
      return `the token endpoint of scheme ${r.scheme.name}`;
    case 'stream':
      return 'the event stream';
    case 'webhooks':
      return `the webhook registration (${r.action})`;
  }
}

/**
 * The conditions the service can produce, each with the first route that can: exactly the union of the
 * routes' conditions (plus requests to no route), so what is checked and what is served cannot drift.
 */
export function getProducibleConditions(model: ServiceModel): Map<Condition, string> {
  const out = new Map<Condition, string>();
  const routes = getRouteHeads(model);
  if (routes.length === 0) return out;
  out.set('route_not_found', 'requests to undeclared paths');
  out.set('method_not_allowed', 'requests with an undeclared method on a declared path');
  // Operations share their lists of conditions: a list seen before adds nothing.
  const seen = new Set<readonly Condition[]>();
  for (const r of routes) {
    if (seen.has(r.conditions)) continue;
    seen.add(r.conditions);
    for (const c of r.conditions) if (!out.has(c)) out.set(c, `${describeRoute(r)}, ${r.method} ${r.path}`);
  }
  return out;
}

/** Conditions the spec can produce that no error code declares: the runtime must refuse or fall back. */
export function getUndeclaredConditions(model: ServiceModel): Condition[] {
  const declared = model.errors?.byCondition ?? {};
  return [...getProducibleConditions(model).keys()].filter((c) => declared[c] === undefined);
}
