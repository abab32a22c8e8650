import fc from 'fast-check';
import { exportOpenApi } from '../export/export-openapi.js';
import {
  answersETag,
  getErrorCodes,
  getRouteErrors,
  getRoutes,
  getServiceRoutes,
  isConditionalChange,
  isIdempotentOperation,
  type OperationRoute,
  type Route,
  type ServiceRoute,
} from '../model/model-routes.js';
import type { AuthRequirement, FieldModel, ServiceModel } from '../model/model-types.js';
import { getVersionDifferences, type FieldDifference, type VersionDifferences } from '../model/model-versions.js';
import { buildErrorBody, getDeclaredErrorFill, getUnknownFields, NOT_SHOWN } from '../model/model-defaults.js';
import { CONSOLE_SCRIPT, CONSOLE_STYLE } from './render-console-assets.js';
import { renderSchemaTree } from './render-console-schema.js';
import { BASE_URL_MARK, credentialPlaceholder, renderSamples, type SampleRequest } from './render-console-samples.js';
import { escapeHtml, getDocumentTitle, renderDocumentBody, type DocumentHeading } from './render-html.js';

// The docs console: the nine-part document (render-html's body) with a sticky table of contents, search, every
// route with JSON examples, a try-it form per route and a live event viewer. One self-contained page: the CSS and
// the vanilla script are inline (render-console-assets.ts), nothing is fetched but the service's own routes.

export interface ConsoleOptions {
  /** Served by the running service: try-it sends to the page's own origin. From a file, to a base URL typed in. */
  served?: boolean;
  /** The service's own routes to list beside the spec's (the runtime passes `getServiceRoutes()`). */
  serviceRoutes?: readonly ServiceRoute[];
}

type Json = unknown;
type Schema = Record<string, unknown>;

interface Example {
  value: Json;
  /** Whether any value in it was made up from the schema rather than taken from a declared example or default. */
  generated: boolean;
}

const GENERATED_LABEL = 'generated from the schema, not from the spec';
const DECLARED_LABEL = "from the spec's declared examples";
const ERROR_LABEL = 'the error body the service answers with for this code';

/** A JSON value for a schema: declared `examples`/`default`/`const` where given, else the simplest value that fits. */
function exampleFor(doc: Schema, schema: Schema | undefined, overrides: Record<string, Json> = {}, depth = 0): Example {
  if (!schema || depth > 12) return { value: null, generated: true };
  const ref = schema.$ref;
  if (typeof ref === 'string') return exampleFor(doc, resolveRef(doc, ref), overrides, depth + 1);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return { value: schema.examples[0], generated: false };
  if ('const' in schema) return { value: schema.const, generated: false };
  if ('default' in schema) return { value: schema.default, generated: false };
  for (const k of ['oneOf', 'anyOf', 'allOf'] as const) {
    const list = schema[k];
    if (Array.isArray(list) && list.length > 0) {
      const pick = (list as Schema[]).find((s) => s.type !== 'null') ?? (list[0] as Schema);
      return exampleFor(doc, pick, overrides, depth + 1);
    }
  }
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return { value: schema.enum[0], generated: true };
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== 'null') : (schema.type as string | undefined);
  switch (type) {
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      const out: Record<string, Json> = {};
      let generated = false;
      for (const [name, s] of Object.entries(props)) {
        if (name in overrides) {
          out[name] = overrides[name];
          continue;
        }
        const e = exampleFor(doc, s, {}, depth + 1);
        out[name] = e.value;
        generated ||= e.generated;
      }
      return { value: out, generated: generated || Object.keys(props).length === 0 };
    }
    case 'array': {
      const e = exampleFor(doc, schema.items as Schema | undefined, {}, depth + 1);
      const n = Math.max(1, typeof schema.minItems === 'number' ? Math.min(schema.minItems, 3) : 1);
      return { value: Array.from({ length: n }, () => e.value), generated: e.generated };
    }
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : undefined;
      const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
      return { value: min ?? (max !== undefined ? Math.min(max, 1) : 1), generated: true };
    }
    case 'boolean':
      return { value: false, generated: true };
    case 'string':
      return { value: exampleString(schema), generated: true };
    default:
      return { value: null, generated: true };
  }
}

const FORMAT_EXAMPLES: Readonly<Record<string, string>> = {
  uuid: '01890a5d-ac96-774b-bcce-b302099a8057',
  'date-time': '2026-01-01T12:00:00Z',
  date: '2026-01-01',
  time: '12:00:00Z',
  email: 'someone@example.com',
  uri: 'https://example.com/',
  'uri-reference': '/example',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
};

/**
 * A string that fits the schema: its format's example, else one its `pattern` matches (fast-check's
 * stringMatching, sampled with a fixed seed so the page is the same on every render) within its lengths, else
 * "string" padded or cut to them. A pattern no sample satisfies falls back to the plain string, labelled generated.
 */
function exampleString(schema: Schema): string {
  const byFormat = typeof schema.format === 'string' ? FORMAT_EXAMPLES[schema.format] : undefined;
  if (byFormat !== undefined) return byFormat;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  const fits = (v: string) => [...v].length >= min && [...v].length <= max;
  if (typeof schema.pattern === 'string') {
    try {
      const re = new RegExp(schema.pattern, 'u');
      const found = fc.sample(fc.stringMatching(re), { seed: 42, numRuns: 50 }).find((v) => fits(v) && re.test(v));
      if (found !== undefined) return found;
    } catch {
      // a pattern fast-check cannot generate from: the plain string below
    }
  }
  const base = 'string';
  return (min > base.length ? base.padEnd(min, 'x') : base).slice(0, Math.max(max, 1));
}

/** An example value for `schema` (inside the OpenAPI document `doc`), as the console prefills it. */
export function getSchemaExample(doc: Schema, schema: Schema | undefined): { value: Json; generated: boolean } {
  return exampleFor(doc, schema);
}

function resolveRef(doc: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const part of ref.slice(2).split('/')) node = (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return node as Schema | undefined;
}

function deref(doc: Schema, node: unknown): Schema | undefined {
  let n = node as Schema | undefined;
  for (let i = 0; i < 8 && typeof n?.$ref === 'string'; i++) n = resolveRef(doc, n.$ref);
  return n;
}

// ---------------------------------------------------------------------------------------------------
// Routes

interface BodyExample {
  status?: string;
  /** An error example's code. */
  code?: string;
  contentType: string;
  label: string;
  example?: Example;
  description?: string;
}

function routeId(r: Route): string {
  switch (r.kind) {
    case 'operation':
      return r.operation.id;
    case 'token':
      return `token-${r.scheme.name}`;
    case 'stream':
      return 'events-stream';
    case 'webhooks':
      return `webhooks-${r.action}`;
  }
}

function routeTitle(r: Route): string {
  switch (r.kind) {
    case 'operation':
      return r.operation.summary ?? r.operation.id;
    case 'token':
      return `Token endpoint of scheme ${r.scheme.name} (OAuth2 client credentials)`;
    case 'stream':
      return 'The event stream (server-sent events)';
    case 'webhooks':
      return {
        add: 'Register a webhook endpoint',
        list: 'List webhook endpoints',
        remove: 'Remove a webhook endpoint',
        rotate: "Rotate a webhook endpoint's signing secret",
      }[r.action];
  }
}

function routeAuth(model: ServiceModel, r: Route): AuthRequirement | undefined {
  if (r.kind === 'operation') return r.operation.auth;
  if (r.kind === 'stream' || r.kind === 'webhooks') return r.auth;
  return undefined;
}

function describeAuth(a: AuthRequirement | undefined, r: Route): string {
  if (r.kind === 'token') return 'the client id and secret (HTTP Basic, or client_id/client_secret in the body)';
  if (!a) return NOT_SHOWN;
  if (a.kind !== 'required') return 'none';
  const scopes = a.scopes.length > 0 ? `; scopes ${a.scopes.map((s) => `<code>${escapeHtml(s)}</code>`).join(', ')}` : '';
  return `${a.schemes.map((s) => `<code>${escapeHtml(s)}</code>`).join(' or ')}${scopes}`;
}

function rateLimits(model: ServiceModel, r: Route): string {
  if (r.kind !== 'operation') return r.kind === 'token' ? 'failed client credentials are bounded (Limits)' : 'none declared';
  const list = (model.limits?.rate ?? []).filter((p) => !p.operations || p.operations.includes(r.operation.id));
  if (list.length === 0) return 'none declared';
  return list.map((p) => `${escapeHtml(p.name ?? 'policy')}: ${p.requests} per ${escapeHtml(p.per.text)}${p.by ? ` by ${p.by}` : ''}`).join('; ');
}

function versionsText(model: ServiceModel): string {
  const v = model.versioning;
  if (!v?.current) return NOT_SHOWN;
  const where = v.placement
    ? v.placement.kind === 'header'
      ? `header <code>${escapeHtml(v.placement.name)}</code>`
      : v.placement.kind === 'path'
        ? `path <code>${escapeHtml(v.placement.template)}</code>`
        : v.placement.kind === 'query'
          ? `query <code>${escapeHtml(v.placement.name)}</code>`
          : `media type <code>${escapeHtml(v.placement.template)}</code>`
    : 'placement not shown';
  const older = v.supported.map(
    (s) => `${escapeHtml(s.version)}${s.deprecated ? ` (deprecated ${escapeHtml(s.deprecated)}${s.sunset ? `, sunset ${escapeHtml(s.sunset)}` : ''})` : ''}`,
  );
  return `current <code>${escapeHtml(v.current)}</code>${older.length > 0 ? `; also ${older.join(', ')}` : ''}; by ${where}`;
}

const differencesOf = new WeakMap<ServiceModel, VersionDifferences[]>();

/** How an operation's bodies differ in each older served version (getVersionDifferences); empty when they do not. */
function olderVersionsHtml(model: ServiceModel, r: Route): string {
  if (r.kind !== 'operation' || model.versioning?.current === undefined) return '';
  let all = differencesOf.get(model);
  if (!all) {
    all = model.versioning.supported.flatMap((s) => (s.version === model.versioning?.current ? [] : (getVersionDifferences(model, s.version) ?? [])));
    differencesOf.set(model, all);
  }
  const side = (list: readonly FieldDifference[]) =>
    list
      .map((d) =>
        d.old !== undefined && d.now !== undefined
          ? `<code>${escapeHtml(d.old)}</code> for <code>${escapeHtml(d.now)}</code>`
          : d.now !== undefined
            ? `no <code>${escapeHtml(d.now)}</code>`
            : `also <code>${escapeHtml(d.old ?? '')}</code>`,
      )
      .join(', ');
  const lines = all.flatMap((d) => {
    const o = d.operations.find((x) => x.operation === r.operation.id);
    if (!o) return [];
    const parts = [
      ...(o.unsendable.length > 0
        ? [`a create is refused (${o.unsendable.map((f) => `<code>${escapeHtml(f)}</code>`).join(', ')} came later, required, no default)`]
        : []),
      ...(o.request.length > 0 ? [`request ${side(o.request)}`] : []),
      ...(o.response.length > 0 ? [`answer ${side(o.response)}`] : []),
    ];
    return [`<code>${escapeHtml(d.version)}</code>: ${parts.join('; ')}`];
  });
  return lines.length === 0 ? '' : `<dt>In older versions</dt><dd>${lines.join('<br>')}</dd>\n`;
}

/** A create's callbacks: the request field that subscribes a URL, and the events POSTed there (docs/format.md, "Callbacks"). */
function callbacksHtml(r: Route): string {
  const list = r.kind === 'operation' ? (r.operation.callbacks ?? []) : [];
  if (list.length === 0) return '';
  const lines = list.map(
    (c) =>
      `<code>${escapeHtml(c.name)}</code>: the URL in <code>${escapeHtml(c.url)}</code> receives ${c.events.map((e) => `<code>${escapeHtml(e)}</code>`).join(', ')} about the created object, signed and retried as webhooks${c.description !== undefined ? ` — ${escapeHtml(c.description)}` : ''}`,
  );
  return `<dt>Callbacks</dt><dd>${lines.join('<br>')}</dd>
`;
}

function bodyExamples(doc: Schema, model: ServiceModel, r: Route, op: Schema | undefined): { request?: BodyExample; responses: BodyExample[] } {
  const out: { request?: BodyExample; responses: BodyExample[] } = { responses: [] };
  if (!op) return out;
  const rb = deref(doc, op.requestBody);
  const rbContent = rb?.content as Record<string, { schema?: Schema; examples?: unknown }> | undefined;
  if (rbContent) {
    const [contentType, media] = Object.entries(rbContent)[0] ?? [];
    if (contentType)
      out.request = { contentType, label: withExampleName('Request body', media), example: namedExample(doc, media) ?? exampleFor(doc, media?.schema) };
  }
  for (const [status, raw] of Object.entries((op.responses ?? {}) as Record<string, unknown>)) {
    const res = deref(doc, raw);
    const content = res?.content as Record<string, { schema?: Schema; examples?: unknown }> | undefined;
    const description = typeof res?.description === 'string' ? res.description : undefined;
    if (!content) {
      out.responses.push({ status, contentType: '', label: `${status} (no body)`, ...(description ? { description } : {}) });
      continue;
    }
    const [contentType, media] = Object.entries(content)[0] ?? [];
    if (!contentType) continue;
    if (contentType === 'text/event-stream') {
      out.responses.push({ status, contentType, label: `${status} ${contentType}`, ...(description ? { description } : {}) });
      continue;
    }
    if (Number(status) >= 400 || status === 'default') continue;
    out.responses.push({
      status,
      contentType,
      label: withExampleName(`${status} ${contentType}`, media),
      example: namedExample(doc, media) ?? exampleFor(doc, media?.schema),
      ...(description ? { description } : {}),
    });
  }
  // Each error code the route can answer with (getRouteErrors, the one derivation the document and the exports
  // read), in the body the runtime sends (buildErrorBody): its own code, status and title.
  const fill = model.errors?.body?.kind === 'declared' ? getDeclaredErrorFill(model.errors.body) : undefined;
  for (const e of getRouteErrors(model, r)) {
    const answer = buildErrorBody(fill, e, { instance: r.path });
    out.responses.push({
      status: String(e.status),
      code: e.code,
      contentType: answer.contentType,
      label: `${e.statusRange ?? e.status} ${e.code} ${answer.contentType}`,
      example: { value: answer.body, generated: false },
      ...(e.title !== undefined ? { description: e.title } : {}),
    });
  }
  return out;
}

/** The first named example of a media type (the spec's operation `examples`), which try-it then offers as the body. */
function namedExample(doc: Schema, media: { examples?: unknown } | undefined): Example | undefined {
  const first = media?.examples && typeof media.examples === 'object' ? Object.values(media.examples as Record<string, unknown>)[0] : undefined;
  const e = deref(doc, first);
  return e && 'value' in e ? { value: e.value as Json, generated: false } : undefined;
}

function withExampleName(label: string, media: { examples?: unknown } | undefined): string {
  const entries = media?.examples && typeof media.examples === 'object' ? Object.entries(media.examples as Record<string, { summary?: unknown }>) : [];
  if (entries.length === 0) return label;
  const [name, e] = entries[0]!;
  return `${label} — example ${name}${typeof e?.summary === 'string' ? `: ${e.summary}` : ''}${entries.length > 1 ? ` (1 of ${entries.length})` : ''}`;
}

function renderExample(e: BodyExample, anchor?: string): string {
  const head = `<div class="ex-head"><strong>${escapeHtml(e.label)}</strong>${e.description ? ` <span class="muted">${escapeHtml(e.description)}</span>` : ''}</div>`;
  if (!e.example) return `<div class="example">${head}</div>`;
  const tag =
    e.code !== undefined
      ? `<span class="tag declared">${ERROR_LABEL}</span>`
      : e.example.generated
        ? `<span class="tag generated" title="No example is declared for every value here">${GENERATED_LABEL}</span>`
        : `<span class="tag declared">${DECLARED_LABEL}</span>`;
  return `<div class="example${e.code !== undefined ? ` error-example" data-code="${escapeHtml(e.code)}" data-status="${escapeHtml(e.status ?? '')}` : ''}"${anchor !== undefined ? ` id="${escapeHtml(anchor)}"` : ''}>${head}${tag}<pre><code>${escapeHtml(JSON.stringify(e.example.value, null, 2))}</code></pre></div>`;
}

interface RouteData {
  id: string;
  method: string;
  path: string;
  kind: Route['kind'];
  pathParams: string[];
  query: string[];
  hasBody: boolean;
  contentType?: string;
  auth: boolean;
  idempotencyHeader?: string;
  /** Identifiers the try-it form takes from the running service: a body field or path parameter, and where to list them. */
  fills?: Fill[];
}

/** An identifier try-it fills from the service: the first object its list operation answers. */
interface Fill {
  /** `body` with a JSON path into the body, or `path` with the parameter's name. */
  target: 'body' | 'path';
  at: (string | number)[];
  resource: string;
  list: string;
  /** The field of a list answer holding the objects; undefined when the answer is a bare array. */
  items?: string;
  id: string;
  /** The operation that creates one, to name when there is none yet. */
  create?: string;
}

/**
 * The identifiers of a route the try-it form takes from the running service, so a prefilled request names objects
 * that exist: each reference field of the request body and the path parameter naming the object, each from the first
 * object the referenced resource's list operation answers (render-console-assets.ts does the calls).
 */
function getFills(model: ServiceModel, routes: readonly Route[], r: Route, versionParam: string | undefined): Fill[] {
  if (r.kind !== 'operation') return [];
  const source = (resource: string): Omit<Fill, 'target' | 'at'> | undefined => {
    const list = routes.find(
      (x): x is OperationRoute =>
        x.kind === 'operation' && x.operation.action === 'list' && x.operation.resource === resource && x.pathParams.every((p) => p === versionParam),
    );
    if (!list) return undefined;
    const target = model.resources.find((x) => x.name === resource);
    const create = routes.find((x): x is OperationRoute => x.kind === 'operation' && x.operation.action === 'create' && x.operation.resource === resource);
    const paging = list.operation.paging;
    const path = list.path.replace(/\{([^{}]+)\}/g, () => model.versioning?.current ?? '');
    return {
      resource,
      list: path,
      ...(paging?.body === 'array' ? {} : { items: paging?.items ?? 'items' }),
      id: target?.identifier ?? 'id',
      ...(create ? { create: create.operation.id } : {}),
    };
  };
  const out: Fill[] = [];
  const walk = (fields: readonly FieldModel[], at: (string | number)[]) => {
    for (const f of fields) {
      if (f.readOnly) continue;
      const here = [...at, f.name];
      if (f.type === 'ref' && f.to !== undefined) {
        const src = source(f.to);
        if (src) out.push({ target: 'body', at: here, ...src });
      } else if (f.fields) walk(f.fields, here);
      else if (f.items?.type === 'ref' && f.items.to !== undefined) {
        const src = source(f.items.to);
        if (src) out.push({ target: 'body', at: [...here, 0], ...src });
      } else if (f.items?.fields) walk(f.items.fields, [...here, 0]);
    }
  };
  if (r.hasBody)
    walk(
      r.operation.request?.fields ??
        (r.operation.action === 'create' || r.operation.action === 'update' || r.operation.action === 'replace'
          ? (r.resource?.fields ?? []).filter((f) => r.operation.requestFields?.includes(f.name) ?? true)
          : []),
      [],
    );
  const bound = r.operation.bindings;
  // The parent the objects belong to (`Article.slug`): from a listed parent's field, for every action.
  for (const b of bound ?? []) {
    const src = b.parent ? source(b.parent.resource) : undefined;
    if (b.parent && src) out.push({ target: 'path', at: [b.param], ...src, id: b.parent.field });
  }
  if (bound && r.resource && r.operation.action !== 'create' && r.operation.action !== 'list') {
    // Each bound path parameter (\`bind\`) from the same listed object's field it names, so the path finds it.
    const src = source(r.resource.name);
    if (src) for (const b of bound) if (!b.parent) out.push({ target: 'path', at: [b.param], ...src, id: b.field });
  } else if (r.identifierParam !== undefined && r.resource) {
    const src = source(r.resource.name);
    if (src) out.push({ target: 'path', at: [r.identifierParam], ...src });
  }
  return out;
}

/** What a create, update or replace does with a body member it does not name (`unknown_fields`). */
function unknownMembersHtml(r: Route): string {
  if (r.kind !== 'operation' || !['create', 'update', 'replace'].includes(r.operation.action)) return '';
  const ignore = getUnknownFields(r.operation) === 'ignore';
  return `<dt>Unknown members</dt><dd>${ignore ? 'accepted and dropped, never stored nor answered' : 'refused'} (<code>unknown_fields: ${ignore ? 'ignore' : 'refuse'}</code>${r.operation.unknownFields === undefined ? ', the format default' : ''})</dd>\n`;
}

/** Conditional requests (`etag: true`): the answer's ETag, If-None-Match on a read, If-Match on a change (required or not). */
function conditionalHtml(r: Route): string {
  if (r.kind !== 'operation' || r.resource?.etag !== true) return '';
  const o = r.operation;
  const parts: string[] = [];
  if (answersETag(r.resource, o)) parts.push('answers an <code>ETag</code>');
  if (o.action === 'read') parts.push('<code>If-None-Match</code> naming it answers 304');
  if (isConditionalChange(r.resource, o))
    parts.push(`<code>If-Match</code> ${o.ifMatch === 'required' ? 'required (428 without it)' : 'honoured'}: a stale tag is refused (412), nothing changed`);
  return parts.length > 0 ? `<dt>Conditional requests</dt><dd>${parts.join('; ')} (<code>etag: true</code>)</dd>\n` : '';
}

/** Where an answer's objects may carry members their resource does not name (`answer_members: open`). */
function answerMembersHtml(r: Route): string {
  if (r.kind !== 'operation' || r.resource?.answerMembers !== 'open' || r.operation.action === 'delete') return '';
  return `<dt>Other members in answers</dt><dd>allowed: an implementation may answer members ${r.resource.name} does not name (<code>answer_members: open</code>)</dd>\n`;
}

function renderRoute(doc: Schema, model: ServiceModel, routes: readonly Route[], r: Route, index: number, data: RouteData[]): string {
  const id = routeId(r);
  const op = (doc.paths as Record<string, Record<string, Schema>> | undefined)?.[r.path]?.[r.method.toLowerCase()];
  const ex = bodyExamples(doc, model, r, op);
  const auth = routeAuth(model, r);
  const query = r.kind === 'operation' ? r.query.map((q) => q.name) : r.kind === 'stream' ? ['kinds', 'after'] : [];
  const idem = r.kind === 'operation' && isIdempotentOperation(model, r.operation) ? model.endpoints?.idempotency?.header : undefined;
  const hasBody = ex.request !== undefined;
  data.push({
    id,
    method: r.method,
    path: r.path,
    kind: r.kind,
    pathParams: [...r.pathParams],
    query,
    hasBody,
    ...(ex.request ? { contentType: ex.request.contentType } : {}),
    auth: auth?.kind === 'required' || r.kind === 'token',
    ...(idem !== undefined ? { idempotencyHeader: idem } : {}),
  });
  const versionParam = model.versioning?.placement?.kind === 'path' ? /\{([^{}]+)\}/.exec(model.versioning.placement.template)?.[1] : undefined;
  const fills = getFills(model, routes, r, versionParam);
  if (fills.length > 0) data[data.length - 1]!.fills = fills;
  const errors = ex.responses.filter((x) => Number(x.status) >= 400);
  const success = ex.responses.filter((x) => Number(x.status) < 400);
  const field = (name: string, kind: string, value = '', placeholder = '') =>
    `<label><span>${escapeHtml(name)} <em>${kind}</em></span><input name="${kind}:${escapeHtml(name)}" value="${escapeHtml(value)}" placeholder="${escapeHtml(placeholder)}" autocomplete="off"></label>`;
  const inputs = [
    ...r.pathParams.map((p) => field(p, 'path', p === versionParam ? (model.versioning?.current ?? '') : '', 'required')),
    ...query.map((q) =>
      field(
        q,
        'query',
        '',
        r.kind === 'operation' && r.query.some((x) => x.name === q && (x.required === true || (x.parameter !== undefined && !x.parameter.optional)))
          ? 'required'
          : 'optional',
      ),
    ),
    ...(r.kind === 'operation' ? r.headers.map((h) => field(h.name, 'header', '', h.optional ? 'optional' : 'required')) : []),
    ...(model.versioning?.placement?.kind === 'header'
      ? [field(model.versioning.placement.name, 'header', '', `optional (current: ${model.versioning.current ?? NOT_SHOWN})`)]
      : []),
    ...(idem !== undefined ? [field(idem, 'header', '', 'optional')] : []),
  ];
  const tryIt =
    r.kind === 'stream'
      ? `<p>Watch this stream live in the <a href="#event-viewer">event viewer</a>.</p>`
      : `<form class="try" data-route="${index}">
<div class="fields">${inputs.join('')}</div>
${bodyExamplePicker(doc, op)}${hasBody ? `<label class="body"><span>body <em>${escapeHtml(ex.request!.contentType)}</em></span><textarea name="body" rows="8" spellcheck="false">${escapeHtml(ex.request!.contentType.includes('json') ? JSON.stringify(ex.request!.example?.value ?? {}, null, 2) : toForm(ex.request!.example?.value))}</textarea></label>` : ''}
${fills.length > 0 ? `<p class="prefill muted" aria-live="polite">${fills.map((f) => `<code>${escapeHtml(f.target === 'path' ? (f.at[0] as string) : f.at.join('.'))}</code>`).join(', ')} ${fills.length === 1 ? 'is' : 'are'} taken from the service when this form opens.</p>` : ''}
<button type="submit">Send ${escapeHtml(r.method)}</button>
<div class="result" aria-live="polite"></div>
</form>`;
  const samples = r.kind === 'stream' ? '' : samplesHtml(model, r, auth, versionParam, ex.request);
  const schemas = schemasHtml(doc, op);
  return `<article class="route" id="op-${escapeHtml(id)}" data-search="${escapeHtml(`${id} ${r.method} ${r.path} ${routeTitle(r)}`)}">
<h3><span class="method m-${r.method.toLowerCase()}">${r.method}</span> <code class="path">${escapeHtml(r.path)}</code> <span class="opid">${escapeHtml(id)}</span> <a class="anchor" href="#op-${escapeHtml(id)}" aria-label="Link to ${escapeHtml(id)}" title="Link to this route">#</a></h3>
<p>${escapeHtml(routeTitle(r))}</p>
<dl class="facts">
<dt>Credential</dt><dd>${describeAuth(auth, r)}</dd>
<dt>Success</dt><dd>${success.map((s) => escapeHtml(s.status ?? '')).join(', ') || NOT_SHOWN}</dd>
${unknownMembersHtml(r)}${answerMembersHtml(r)}${conditionalHtml(r)}<dt>Rate limits</dt><dd>${rateLimits(model, r)}</dd>
<dt>Versions</dt><dd>${r.kind === 'token' ? 'not versioned' : versionsText(model)}</dd>
${olderVersionsHtml(model, r)}${callbacksHtml(r)}<dt>Errors</dt><dd>${
    getErrorCodes(model, r)
      .filter((c, i, all) => all.findIndex((x) => x.code === c.code) === i)
      .map((c) => `<a href="#error-${escapeHtml(c.code)}"><code>${escapeHtml(c.code)}</code></a> ${c.status}`)
      .join(', ') || 'none declared'
  }</dd>
</dl>
<div class="examples">
${ex.request ? renderExample(ex.request) : ''}
${success.map((e) => renderExample(e)).join('\n')}
${errors.length > 0 ? `<details><summary>Error responses (${errors.length})</summary>${errors.map((e) => renderExample(e, `op-${id}-error-${e.code ?? e.status ?? ''}`)).join('\n')}</details>` : ''}
</div>
${schemas}${samples}<details class="try-it"${r.kind === 'stream' ? ' open' : ''}><summary>Try it</summary>${tryIt}</details>
</article>`;
}

/** A choice of the spec's named request examples when it has more than one: picking one puts it in the body. */
function bodyExamplePicker(doc: Schema, op: Schema | undefined): string {
  const media = Object.entries((deref(doc, op?.requestBody)?.content ?? {}) as Record<string, { examples?: Record<string, unknown> }>)[0];
  if (!media || !media[0].includes('json')) return '';
  const entries = Object.entries(media[1].examples ?? {}).flatMap(([name, raw]) => {
    const e = deref(doc, raw);
    return e && 'value' in e ? [{ name, summary: typeof e.summary === 'string' ? e.summary : undefined, text: JSON.stringify(e.value, null, 2) }] : [];
  });
  if (entries.length < 2) return '';
  const options = entries
    .map((e) => `<option value="${escapeHtml(e.text)}">${escapeHtml(e.name)}${e.summary !== undefined ? ` — ${escapeHtml(e.summary)}` : ''}</option>`)
    .join('');
  return `<label class="example-pick"><span>example <em>from the spec</em></span><select name="example">${options}</select></label>\n`;
}

/** The request body's and the success answer's schemas as collapsible trees (render-console-schema.ts). */
function schemasHtml(doc: Schema, op: Schema | undefined): string {
  if (!op) return '';
  const first = (content: unknown) => Object.values((content ?? {}) as Record<string, { schema?: Schema }>)[0]?.schema;
  const request = first(deref(doc, op.requestBody)?.content);
  const okStatus = Object.keys((op.responses ?? {}) as Record<string, unknown>).find((k) => /^[23]/.test(k));
  const response = okStatus !== undefined ? first(deref(doc, (op.responses as Record<string, unknown>)[okStatus])?.content) : undefined;
  if (!request && !response) return '';
  const trees = [request ? renderSchemaTree(doc, request, 'Request body') : '', response ? renderSchemaTree(doc, response, `Answer ${okStatus}`) : ''].join('');
  return `<details class="schemas"><summary>Schemas</summary>${trees}</details>\n`;
}

/** The route's curl, JavaScript and Python samples as tabs, each with a copy button (render-console-samples.ts). */
function samplesHtml(
  model: ServiceModel,
  r: Route,
  auth: AuthRequirement | undefined,
  versionParam: string | undefined,
  request: BodyExample | undefined,
): string {
  const scheme = auth?.kind === 'required' ? model.authentication?.schemes.find((x) => x.name === auth.schemes[0]) : undefined;
  const cred = scheme ? credentialPlaceholder(scheme) : {};
  const path = r.path.replace(/\{([^{}]+)\}/g, (_, p: string) =>
    p === versionParam && model.versioning?.current !== undefined ? model.versioning.current : p.toUpperCase(),
  );
  const body = request?.example
    ? request.contentType.includes('json')
      ? JSON.stringify(request.example.value ?? {}, null, 2)
      : toForm(request.example.value)
    : undefined;
  const req: SampleRequest = {
    method: r.method,
    path,
    query: cred.query ? [cred.query] : [],
    headers: cred.header ? [cred.header] : [],
    // The token endpoint takes the client's id and secret as Basic credentials.
    ...(r.kind === 'token' ? { basic: 'CLIENT_ID:CLIENT_SECRET' } : cred.basic ? { basic: 'USER:PASSWORD' } : {}),
    ...(request ? { contentType: request.contentType } : {}),
    ...(body !== undefined ? { body } : {}),
  };
  const list = renderSamples(req);
  const tabs = list
    .map(
      (x, i) => `<button type="button" role="tab" class="sample-tab" data-language="${x.language}" aria-selected="${i === 0}">${escapeHtml(x.label)}</button>`,
    )
    .join('');
  const panes = list
    .map(
      (x, i) =>
        `<div class="sample" role="tabpanel" data-language="${x.language}"${i === 0 ? '' : ' hidden'}><pre><code data-template="${escapeHtml(x.text)}">${escapeHtml(x.text.split(BASE_URL_MARK).join(SAMPLE_BASE))}</code></pre></div>`,
    )
    .join('');
  return `<div class="samples"><div class="sample-bar"><strong>Code samples</strong> <span role="tablist">${tabs}</span> <button type="button" class="copy">Copy</button><span class="copy-status muted" aria-live="polite"></span></div>${panes}</div>\n`;
}

/** The base URL a sample shows until the page knows the service's (a file opened before one is typed in). */
const SAMPLE_BASE = 'http://localhost:3000';

function toForm(value: Json): string {
  if (!value || typeof value !== 'object') return '';
  return Object.entries(value as Record<string, Json>)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
}

function renderServiceRoute(r: ServiceRoute): string {
  return `<article class="route" id="op-service-${r.name}" data-search="${escapeHtml(`${r.name} GET ${r.path} ${r.summary}`)}">
<h3><span class="method m-get">GET</span> <code class="path"><a href="${escapeHtml(r.path)}">${escapeHtml(r.path)}</a></code> <span class="opid">${r.name}</span></h3>
<p>${escapeHtml(r.summary)} ${r.docsOnly ? 'Served with <code>serve --docs</code>.' : 'Always served.'}</p>
</article>`;
}

// ---------------------------------------------------------------------------------------------------
// The page

interface SearchEntry {
  kind: string;
  label: string;
  href: string;
  text: string;
}

function searchIndex(model: ServiceModel, headings: readonly DocumentHeading[], routes: readonly Route[]): SearchEntry[] {
  const out: SearchEntry[] = [];
  const headingFor = (text: string) => headings.find((h) => h.text === text || h.text.endsWith(` ${text}`) || h.text.startsWith(`${text} `));
  for (const r of model.resources) {
    const h = headingFor(r.name);
    out.push({ kind: 'resource', label: r.name, href: `#${h?.id ?? 'resources'}`, text: r.description ?? '' });
  }
  for (const r of routes) {
    out.push({
      kind: r.kind === 'operation' ? 'operation' : 'route',
      label: `${routeId(r)} — ${r.method} ${r.path}`,
      href: `#op-${routeId(r)}`,
      text: routeTitle(r),
    });
  }
  for (const k of model.events?.kinds ?? []) {
    const h = headingFor(k.name);
    out.push({ kind: 'event', label: k.name, href: `#${h?.id ?? 'events'}`, text: k.description ?? '' });
  }
  for (const c of model.errors?.codes ?? [])
    out.push({ kind: 'error', label: `${c.name} (${c.statusRange ?? c.status})`, href: `#error-${c.name}`, text: c.title ?? '' });
  return out;
}

/** Each error code's row in the Errors table gets an id (`error-NAME`), so routes can link to it. */
function withErrorAnchors(model: ServiceModel, html: string): string {
  let out = html;
  for (const c of model.errors?.codes ?? []) {
    const cell = `<tr><td><code>${escapeHtml(c.name)}</code></td>`;
    out = out.replace(cell, `<tr id="error-${escapeHtml(c.name)}"><td><code>${escapeHtml(c.name)}</code></td>`);
  }
  return out;
}

/** JSON inside a script element: `<` escaped so no text can close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The docs console as one self-contained HTML page; deterministic for a model and options. */
export function renderConsole(model: ServiceModel, options: ConsoleOptions = {}): string {
  const { html, headings } = renderDocumentBody(model, { links: true });
  const doc = exportOpenApi(model).document as Schema;
  const routes = getRoutes(model);
  const data: RouteData[] = [];
  const routeHtml = routes.map((r, i) => renderRoute(doc, model, routes, r, i, data));
  const serviceRoutes = options.serviceRoutes ?? getServiceRoutes();
  const stream = routes.find((r) => r.kind === 'stream');
  const toc = [
    ...headings.filter((h) => h.level === 2 || h.level === 3).map((h) => `<li class="l${h.level}"><a href="#${h.id}">${escapeHtml(h.text)}</a></li>`),
    '<li class="l2"><a href="#routes">Routes, examples and try-it</a></li>',
    ...routes.map(
      (r) =>
        `<li class="l3"><a href="#op-${escapeHtml(routeId(r))}"><span class="method m-${r.method.toLowerCase()}">${r.method}</span> ${escapeHtml(r.path)}</a></li>`,
    ),
    '<li class="l3"><a href="#service-routes">The service\'s own routes</a></li>',
    ...(stream ? ['<li class="l2"><a href="#event-viewer">Event viewer</a></li>'] : []),
  ];
  const pageData = {
    served: options.served === true,
    schemes: (model.authentication?.schemes ?? []).map((s) => ({
      name: s.name,
      type: s.type,
      in: s.in,
      credentialName: s.credentialName,
      prefix: s.prefix,
      tokenPath: s.tokenPath,
    })),
    routes: data,
    stream: stream ? { path: stream.path, kinds: (model.events?.kinds ?? []).map((k) => k.name) } : null,
    search: searchIndex(model, headings, routes),
  };
  const credential = (model.authentication?.schemes ?? []).length > 0;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    `<title>${escapeHtml(getDocumentTitle(model))}</title>`,
    `<style>\n${CONSOLE_STYLE}\n</style>`,
    '</head>',
    '<body>',
    '<nav class="sidebar" aria-label="Contents">',
    `<div class="brand-row"><div class="brand">${escapeHtml(model.purpose?.name ?? 'Service')}</div><button type="button" id="nav-toggle" aria-controls="toc" aria-expanded="false">Contents</button></div>`,
    '<div class="search"><input type="search" id="search" placeholder="Search resources, operations, events, errors" aria-label="Search" autocomplete="off"><ol id="search-results" hidden></ol></div>',
    `<ol class="toc" id="toc">${toc.join('')}</ol>`,
    '</nav>',
    '<div class="content">',
    '<header class="bar" id="credential-bar">',
    `<label class="base"><span>Base URL</span><input id="base-url" placeholder="${options.served ? '' : 'http://127.0.0.1:3000'}" autocomplete="off"></label>`,
    credential
      ? '<label><span>Credential</span><select id="scheme"></select></label><span id="credential-fields"></span><button type="button" id="credential-forget" title="Remove the credential kept for this tab">Forget credential</button><span id="credential-status" class="muted" aria-live="polite"></span>'
      : '<span class="muted">This service declares no authentication.</span>',
    options.served ? '' : '<p class="note">Opened as a file: try-it sends to the base URL above, which must allow this page\'s origin (CORS).</p>',
    '</header>',
    '<main>',
    withErrorAnchors(model, html),
    '<section id="routes">',
    '<h2>Routes, examples and try-it</h2>',
    `<p>Every route the service serves. Examples are built from the spec's declared <code>example</code> values; a value the spec gives no example for is made up from its schema, and the example is then marked <span class="tag generated">${GENERATED_LABEL}</span>.</p>`,
    ...routeHtml,
    '<h3 id="service-routes">The service\'s own routes</h3>',
    '<p>Under <code>/_servicespec</code>, which no spec path may use (docs/runtime.md).</p>',
    ...serviceRoutes.map(renderServiceRoute),
    '</section>',
    stream
      ? `<section id="event-viewer"><h2>Event viewer</h2><p>Reads <code>GET ${escapeHtml(stream.path)}</code> with the credential above and shows each event as it arrives.</p>
<div class="viewer-controls"><label><span>kinds <em>query</em></span><input id="viewer-kinds" placeholder="all kinds" autocomplete="off"></label><button type="button" id="viewer-start">Connect</button><button type="button" id="viewer-stop" disabled>Disconnect</button><span id="viewer-status" class="muted" aria-live="polite">not connected</span></div>
<ol id="viewer-log" class="viewer-log"></ol></section>`
      : '',
    '</main>',
    '</div>',
    `<script type="application/json" id="console-data">${scriptJson(pageData)}</script>`,
    `<script>\n${CONSOLE_SCRIPT}\n</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
