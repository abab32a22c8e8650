import { lifecycleHeaderMismatch } from './tester-checks-versions.js';
import { createMediaTypeReader, isJsonMediaType, parseMediaTypeTemplate } from '../model/model-media-type.js';
import { DEFAULT_PAGING, getFirstPage, getPagingParamName, isIntegerPageMember, isStatusIn, PROBLEM_MEDIA_TYPE } from '../model/model-defaults.js';
import { isSuccessAnswer, getErrorCodes, getRoutes, type OperationRoute, type Route } from '../model/model-routes.js';
import { getShapeSchema } from '../model/model-schemas.js';
import { getBinding, getValueAt } from '../model/model-path-bindings.js';
import type { OperationModel, PagingModel, ResourceModel } from '../model/model-types.js';
import type { PartName } from '../spec/spec-types.js';
import { rateHeadersMismatch } from './tester-checks-limits.js';
import { getPageItems, nextLink, totalHeaderProblem } from './tester-checks-lists.js';
import { envelopeMismatch, unwrapEnvelope } from './tester-envelope.js';
import { getAskedBounds, getPagePosition, getUnaskedParameter, type AskedBounds } from './tester-page-address.js';
import { errorHeadersMismatch, hasErrorHeaders, responseHeadersMismatch } from './tester-checks-response-headers.js';
import { describe, routeMatchers, type TestContext } from './tester-context.js';
import type { TestRequest, TestResponse } from './tester-http.js';
import type { CheckResult, Failure } from './tester-types.js';

// Every answer judged, whatever request produced it: the client hands each one here (TestClient.onAnswer), and the
// judge holds it to what the spec says of any answer of its route — no undeclared 5xx, the declared success
// status, the media type (problem+json for errors where `body: problem`; the version's media type where versions
// are placed there), the declared headers (Location, the operation's response_headers, RateLimit/RateLimit-Policy,
// Retry-After, Vary, Deprecation/Sunset) and the body's shape. One verdict per check and operation, the first failure kept.

/** Conditions whose 5xx answer a spec may declare for a valid request: the deadline, a handler not given. */
const SERVER_CONDITIONS = new Set(['timeout', 'not_implemented']);

interface Verdict {
  part: PartName;
  check: string;
  target: string;
  failure?: Failure;
}

/**
 * The `Link` header's next address (paging.link) is the request's own query with the position changed
 * (docs/format.md): one leaving out a parameter the request asked (a filter, the sort, a page size other than the
 * default) reads other objects than the next ones — a page size dropped, the next page at the default size, which
 * paging through at two a page does not show: no object twice, none missing. Styles offset and page only (a cursor may carry
 * the query itself, as Shopify's page_info does), and the query only: a service behind a proxy may name its own path.
 */
function linkNextMismatch(
  ctx: TestContext,
  route: OperationRoute,
  paging: Omit<PagingModel, 'declared'>,
  req: TestRequest,
  res: TestResponse,
): string | undefined {
  const o = route.operation;
  if (paging.style !== 'offset' && paging.style !== 'page') return undefined;
  const link = nextLink(res);
  if (link === undefined) return undefined;
  const where = getPagePosition(ctx, paging, req);
  // The parameters the list reads (its paging, sort, filters and declared query: its route's, the version's aside):
  // one it does not read (the tester's own unknown-parameter probe) the service need not carry on.
  const reads = new Set(route.query.filter((q) => q.kind !== 'version').map((q) => q.name));
  const asked = new URL(where.asked);
  for (const name of [...asked.searchParams.keys()]) if (!reads.has(name) && name !== where.position) asked.searchParams.delete(name);
  let at: URL;
  try {
    at = new URL(link, where.asked);
  } catch {
    return `a Link rel="next" address <${link}>, not a URL`;
  }
  const unasked = getUnaskedParameter({ ...where, asked }, at, getAskedBounds(ctx, o));
  return unasked === undefined ? undefined : `a Link rel="next" address <${link}>, which does not ask ${unasked[0]}=${unasked[1]} as the request did`;
}

/**
 * paging.next_link and previous_link (Django REST Framework's next and previous): null, or a whole address of this
 * list's path (any host: a service may name its public one) asking what this request asks with the position moved
 * on or back. The page size may be added; one the request asked must be kept (left out, the next page is read at
 * the default size, other objects than the next ones), unless it is the default page size; a first page's position
 * may be left out (DRF drops `offset=0`, `page=1`).
 */
function pageLinksMismatch(
  ctx: TestContext,
  paging: Omit<PagingModel, 'declared'>,
  req: TestRequest,
  page: Record<string, unknown>,
  count: number,
  bounds: AskedBounds,
): string | undefined {
  if (paging.nextLink === undefined && paging.previousLink === undefined) return undefined;
  const where = getPagePosition(ctx, paging, req);
  const { asked, position, size, firstAt, now } = where;
  const read = (field: string): URL | string | null => {
    const v = page[field];
    if (v === null) return null;
    if (typeof v !== 'string') return `${field} ${JSON.stringify(v)}, not a page's address or null`;
    let at: URL;
    try {
      at = new URL(v);
    } catch {
      return `${field} ${JSON.stringify(v)}, not a whole address (a scheme and a host)`;
    }
    if (at.pathname !== asked.pathname) return `${field} ${JSON.stringify(v)}, not an address of the list's path ${asked.pathname}`;
    const unasked = getUnaskedParameter(where, at, bounds);
    if (unasked !== undefined) return `${field} ${JSON.stringify(v)}, which does not ask ${unasked[0]}=${unasked[1]} as the request did`;
    return at;
  };
  if (paging.nextLink !== undefined) {
    const next = read(paging.nextLink);
    if (typeof next === 'string') return next;
    if (next !== null && paging.style !== 'cursor') {
      if (Number.isInteger(size) && count < size)
        return `${paging.nextLink} ${JSON.stringify(page[paging.nextLink])} on a page of ${count} objects, short of ${size} (the last page)`;
      const moved = paging.style === 'offset' ? now + count : now + 1;
      if (next.searchParams.get(position) !== String(moved))
        return `${paging.nextLink} ${JSON.stringify(page[paging.nextLink])}, not the next page's address (${position}=${moved})`;
    }
  }
  if (paging.previousLink !== undefined) {
    const previous = read(paging.previousLink);
    if (typeof previous === 'string') return previous;
    const first = now === firstAt;
    if (first && previous !== null) return `${paging.previousLink} ${JSON.stringify(page[paging.previousLink])} on the first page (null there)`;
    if (!first && previous === null) return `${paging.previousLink} null on a page after the first`;
    if (previous !== null && Number.isInteger(size)) {
      const back = paging.style === 'offset' ? Math.max(0, now - size) : now - 1;
      const said = previous.searchParams.get(position);
      if (said !== String(back) && !(said === null && back === firstAt))
        return `${paging.previousLink} ${JSON.stringify(page[paging.previousLink])}, not the previous page's address (${position}=${back})`;
    }
  }
  return undefined;
}

/**
 * paging.members (Spring Data's Page, Laravel's paginator): each of its type, and each what the page asked for says:
 * the page's number the one asked (the first when none is), the size the one asked, the count the items', first,
 * last and empty as the position and the items say, the page count and the last page's number the total's divided
 * by the size, from and to the items' positions (null on an empty page).
 */
function pageMembersMismatch(
  ctx: TestContext,
  paging: Omit<PagingModel, 'declared'>,
  req: TestRequest,
  page: Record<string, unknown>,
  count: number,
): string | undefined {
  const asked = new URL(ctx.client.url(req.path)).searchParams;
  const number = (name: string): number | undefined => {
    const v = asked.get(name);
    return v === null || !/^[0-9]+$/.test(v) ? undefined : Number(v);
  };
  const first = getFirstPage(paging);
  const read = (path: readonly string[]): { value: unknown } | undefined => {
    let at: unknown = page;
    for (const name of path) {
      if (at === null || typeof at !== 'object' || !Object.hasOwn(at, name)) return undefined;
      at = (at as Record<string, unknown>)[name];
    }
    return { value: at };
  };
  // The page size: the one asked, else the page's own size member (when declared and an integer).
  const sizeMember = paging.members!.find((m) => m.role === 'size');
  const sizeSaid = sizeMember !== undefined ? read(sizeMember.path)?.value : undefined;
  const size = number(getPagingParamName(paging, 'limit')) ?? (Number.isInteger(sizeSaid) ? (sizeSaid as number) : undefined);
  const pageAsked = paging.style === 'page' ? (number(getPagingParamName(paging, 'page')) ?? first) : undefined;
  // The objects before this page: the offset asked, or the pages before this one times the size.
  const offset =
    paging.style === 'offset'
      ? (number(getPagingParamName(paging, 'offset')) ?? 0)
      : pageAsked !== undefined && size !== undefined
        ? (pageAsked - first) * size
        : undefined;
  const totalSaid = paging.total !== undefined ? page[paging.total] : undefined;
  const total = Number.isInteger(totalSaid) ? (totalSaid as number) : undefined;
  const pages = total !== undefined && size !== undefined ? Math.ceil(total / size) : undefined;
  for (const m of paging.members!) {
    const name = m.path.join('.');
    const found = read(m.path);
    if (found === undefined) return `a page without ${name} (its ${m.role})`;
    const v = found.value;
    const say = (what: string) => `${name} ${JSON.stringify(v)}, not ${what}`;
    if (!isIntegerPageMember(m.role)) {
      if (typeof v !== 'boolean') return say('true or false');
    } else if (m.role === 'from' || m.role === 'to') {
      if (v !== null && !Number.isInteger(v)) return say('a position or null');
    } else if (!Number.isInteger(v) || (v as number) < 0) return say('a count or a number');
    switch (m.role) {
      case 'page':
        if (pageAsked !== undefined && v !== pageAsked) return say(`the page asked for (${pageAsked}, numbered from ${first})`);
        break;
      case 'size':
        if (size !== undefined && v !== size) return say(`the page size asked for (${size})`);
        if ((v as number) < count) return say(`a page size: the page holds ${count} objects`);
        break;
      case 'count':
        if (v !== count) return say(`the number of objects on the page (${count})`);
        break;
      case 'empty':
        if (v !== (count === 0)) return say(`whether the page is empty (it holds ${count} objects)`);
        break;
      case 'first':
        if (offset !== undefined && v !== (offset === 0)) return say(`whether this is the first page (${offset} objects before it)`);
        break;
      case 'last':
        if (size !== undefined && count < size && v !== true) return say(`whether this is the last page (it holds ${count} of ${size})`);
        if (total !== undefined && offset !== undefined && v !== offset + count >= total)
          return say(`whether this is the last page (${offset + count} of ${total} objects up to it)`);
        break;
      case 'offset':
        if (offset !== undefined && v !== offset) return say(`the objects before this page (${offset})`);
        break;
      case 'pages':
        if (pages !== undefined && v !== pages) return say(`the number of pages (${total} objects, ${size} a page: ${pages})`);
        break;
      case 'last_page': {
        const last = pages !== undefined ? Math.max(pages, 1) - 1 + first : undefined;
        if (last !== undefined && v !== last) return say(`the last page's number (${total} objects, ${size} a page, numbered from ${first}: ${last})`);
        break;
      }
      case 'from':
      case 'to': {
        const wanted = count === 0 ? null : offset === undefined ? undefined : m.role === 'from' ? offset + 1 : offset + count;
        if (wanted !== undefined && v !== wanted) return say(`the ${m.role === 'from' ? 'first' : 'last'} object's position (${JSON.stringify(wanted)})`);
        break;
      }
    }
  }
  return undefined;
}

/** The body a route's success answer must have: undefined when it matches, else what differs. */
export function responseMismatch(ctx: TestContext, route: OperationRoute, req: TestRequest, res: TestResponse): string | undefined {
  const o = route.operation;
  if (route.successStatus === 204) return res.text === '' ? undefined : `a body on a 204: ${res.text.slice(0, 100)}`;
  if (o.action === 'custom') return o.response ? ctx.mismatch(getShapeSchema(ctx.model, o.response, 'response'), res.body) : undefined;
  if (!route.resource) return undefined;
  // Fields serve says it leaves out (source: service, a named gap): the spec's gap, not held against the answer.
  ctx.noteUnsetFields(route, res);
  // A delete answers the object it deleted where it says so (\`response\`); else nothing is asked of its body.
  if (o.action === 'delete' && o.response === undefined) return undefined;
  if (o.action === 'list') {
    const items = getPageItems(route, res.body);
    if (!items) return 'a page without items';
    // The envelope's other declared members (docs/format.md, "List shapes"; the export's page schema requires them):
    // without its next cursor a client cannot tell a last page from a first.
    const paging = o.paging ?? DEFAULT_PAGING;
    if (paging.body === 'envelope') {
      const page = res.body as Record<string, unknown>;
      const next = paging.style === 'cursor' ? paging.next : undefined;
      // next_optional: a string, left out on the last page (never null); else a string, or null on the last page.
      if (next !== undefined && paging.nextOptional) {
        if (next in page && typeof page[next] !== 'string') return `${next} ${JSON.stringify(page[next])}, not a string (left out on the last page)`;
      } else {
        if (next !== undefined && !(next in page)) return `a page without ${next} (a string, or null on the last page)`;
        if (next !== undefined && page[next] !== null && typeof page[next] !== 'string') return `${next} ${JSON.stringify(page[next])}, not a string or null`;
      }
      if (paging.total !== undefined && !(Number.isInteger(page[paging.total]) && (page[paging.total] as number) >= 0))
        return `${paging.total} ${JSON.stringify(page[paging.total])}, not a count of objects`;
      if (paging.hasMore !== undefined && typeof page[paging.hasMore] !== 'boolean')
        return `${paging.hasMore} ${JSON.stringify(page[paging.hasMore])}, not true or false`;
      for (const [name, value] of Object.entries(paging.constants ?? {}))
        if (page[name] !== value) return `${name} ${JSON.stringify(page[name])}, not ${JSON.stringify(value)} (the same on every page)`;
      // paging.url: the path this request named, the base URL's included, without the query.
      if (paging.url !== undefined) {
        const path = new URL(ctx.client.url(req.path)).pathname;
        if (page[paging.url] !== path) return `${paging.url} ${JSON.stringify(page[paging.url])}, not the list's address ${JSON.stringify(path)}`;
      }
      const links = pageLinksMismatch(ctx, paging, req, page, items.length, getAskedBounds(ctx, o));
      if (links !== undefined) return links;
      const members = paging.members !== undefined ? pageMembersMismatch(ctx, paging, req, page, items.length) : undefined;
      if (members !== undefined) return members;
    }
    // The total's header is on every page, a count (paging.total_header).
    if (paging.totalHeader !== undefined) {
      const problem = totalHeaderProblem(res, paging.totalHeader);
      if (typeof problem === 'string') return problem;
    }
    if (paging.link) {
      const link = linkNextMismatch(ctx, route, paging, req, res);
      if (link !== undefined) return link;
    }
    for (const item of items) {
      const m = ctx.checkShape(route.resource, item, req, o.id, o) ?? addressMismatch(ctx, route.resource, req, item);
      if (m !== undefined) return m;
    }
    return undefined;
  }
  return ctx.checkShape(route.resource, res.body, req, o.id) ?? addressMismatch(ctx, route.resource, req, res.body);
}

/** Per run: each resource's `generated: address` fields and read route (none: nothing to judge), and the served paths. */
const addressing = new WeakMap<TestContext, Map<ResourceModel, { names: string[]; read: OperationRoute | undefined }>>();
const servedTemplates = new WeakMap<TestContext, readonly string[]>();

/**
 * A `generated: address` field (docs/format.md, "Self addresses") holding other than the object's read path,
 * resolved against the request's URL as a Location is (isLocationOf); undefined where it does, or where no path can
 * be made (an object without the fields its read binds).
 */
function addressMismatch(ctx: TestContext, resource: ResourceModel, req: TestRequest, obj: unknown): string | undefined {
  let byResource = addressing.get(ctx);
  if (!byResource) addressing.set(ctx, (byResource = new Map()));
  let a = byResource.get(resource);
  if (!a) {
    const names = resource.fields.filter((f) => f.generated === 'address').map((f) => f.name);
    const read = names.length > 0 ? ctx.routes.find((r) => r.operation.action === 'read' && r.resource?.name === resource.name) : undefined;
    byResource.set(resource, (a = { names, read }));
  }
  if (!a.read || typeof obj !== 'object' || obj === null) return undefined;
  const made = obj as Record<string, unknown>;
  const path = readPathOf(ctx.fillVersion(a.read.path), a.read.operation, made, resource.identifier !== undefined ? made[resource.identifier] : undefined);
  if (path === undefined) return undefined;
  let templates = servedTemplates.get(ctx);
  if (!templates) servedTemplates.set(ctx, (templates = ctx.routes.map((r) => ctx.fillVersion(r.path))));
  for (const n of a.names) {
    const v = made[n];
    // Its presence is the shape's to judge.
    if (v === undefined) continue;
    if (typeof v !== 'string' || !isLocationOf(v, req.path, path, templates))
      return `${n} ${JSON.stringify(v)}, not the object's own address (its read's path, ${path})`;
  }
  return undefined;
}

export class Judge {
  private readonly verdicts = new Map<string, Verdict>();
  private readonly matchers: { route: Route; re: RegExp }[];
  private readonly readVersion: (req: TestRequest) => string | undefined;
  private readonly mediaReader: ((header: string | undefined) => string | undefined) | undefined;
  /** The spec's paths as the run sends them (its version filled in), made once: a Location's mount is judged by them. */
  private templates: readonly string[] | undefined;

  constructor(private readonly ctx: TestContext) {
    this.matchers = routeMatchers(getRoutes(ctx.model));
    const p = ctx.model.versioning?.placement;
    const media = p?.kind === 'media_type' ? parseMediaTypeTemplate(p.template) : undefined;
    this.mediaReader = media ? createMediaTypeReader(media) : undefined;
    this.readVersion = (req) => {
      const header = (name: string) => Object.entries(req.headers ?? {}).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
      if (!p) return undefined;
      if (p.kind === 'header') return header(p.name);
      if (p.kind === 'query') {
        const q = req.path.indexOf('?');
        return q < 0 ? undefined : (new URLSearchParams(req.path.slice(q + 1)).get(p.name) ?? undefined);
      }
      if (p.kind === 'media_type') return this.mediaReader?.(header('accept'));
      const re = new RegExp(`^${escape(p.template.replace(/\/+$/, '')).replace(/\\?\{[^{}]*\\?\}|\{[^{}]*\}/, '([^/]+)')}(/|$)`);
      const m = re.exec(req.path.split('?')[0] ?? '');
      return m?.[1] !== undefined ? decodeURIComponent(m[1]) : undefined;
    };
  }

  /** The route a request went to, if any. */
  routeOf(req: TestRequest): Route | undefined {
    // As fetch sends it: dot segments resolved.
    const path = new URL(req.path.split('?')[0] ?? '', 'http://127.0.0.1').pathname;
    return this.matchers.find((m) => m.route.method === req.method && m.re.test(path))?.route;
  }

  /** The route a request goes to, as `METHOD template` (its path when none matches): what pacing keys its policies by. */
  routeKey(req: TestRequest): string {
    const r = this.routeOf(req);
    return r ? `${r.method} ${r.path}` : `${req.method} ${req.path.split('?')[0] ?? ''}`;
  }

  /** The version an answer is in: the one the request named, else the default when that is the current one. */
  private versionOf(req: TestRequest): string | undefined {
    const v = this.ctx.model.versioning;
    const named = this.readVersion(req);
    if (named !== undefined) return named;
    return v?.default === undefined || v.default === 'current' ? v?.current : undefined;
  }

  private record(part: PartName, check: string, target: string, failure: () => Failure | undefined): void {
    if (!this.ctx.selected(part, check)) return;
    const key = `${check}\u0000${target}`;
    let v = this.verdicts.get(key);
    if (!v) {
      v = { part, check, target };
      this.verdicts.set(key, v);
    }
    if (v.failure) return;
    const f = failure();
    if (f) v.failure = f;
  }

  /** Judges one answer; `req` is the request as sent. */
  see(req: TestRequest, res: TestResponse): void {
    const route = this.routeOf(req);
    // Every check reads an enveloped answer as its data (none is made for operations without an envelope).
    if (route?.kind === 'operation' && route.operation.envelope) unwrapEnvelope(route, res);
    const target = route?.kind === 'operation' ? route.operation.id : route ? `${route.method} ${route.path}` : `${req.method} ${req.path.split('?')[0] ?? ''}`;
    const ctx = this.ctx;
    const fail = (expected: string, pointer: string | undefined, actual: string): Failure =>
      ctx.failure(target, expected, pointer, req, `${actual}; ${describe(res).slice(0, 300)}`);
    // 501: the service does not implement the operation; run() reports it as not run, nothing here is judged.
    if (res.status === 501 && route?.kind === 'operation') return;
    // No 5xx but the ones the spec declares for the case.
    this.record('endpoints', 'endpoints.no-server-error', target, () => {
      if (res.status < 500) return undefined;
      const code = (res.body as { code?: unknown } | undefined)?.code;
      const declared = route ? getErrorCodes(ctx.model, route).filter((c) => SERVER_CONDITIONS.has(c.condition)) : [];
      if (declared.some((c) => c.code === code && c.status === res.status)) return undefined;
      if (
        route?.kind === 'operation' &&
        route.operation.action === 'custom' &&
        route.operation.errors.some((e) => {
          const c = e === code ? ctx.model.errors?.codes.find((x) => x.name === e) : undefined;
          return c !== undefined && isStatusIn(res.status, c.status, c.statusRange);
        })
      )
        return undefined;
      return fail('no server error: the spec declares no 5xx answer for this request', undefined, `status ${res.status}`);
    });
    const ct = res.headers.get('content-type') ?? '';
    const essence = ct.split(';')[0]!.trim().toLowerCase();
    const kind = ctx.model.errors?.body?.kind ?? 'problem';
    // The media type every error answer has: problem+json, or a declared body's stated one (any JSON type when unstated).
    const body = ctx.model.errors?.body;
    const stated = kind === 'problem' ? PROBLEM_MEDIA_TYPE : body?.kind === 'declared' ? body.mediaType : undefined;
    // A spec stating no error body states no media type of error answers (ctx.errorBodyStated).
    const mediaMismatch = (): boolean => (!ctx.errorBodyStated ? false : stated !== undefined ? essence !== stated.toLowerCase() : !isJsonMediaType(essence));
    const mediaExpected =
      stated !== undefined
        ? `Content-Type ${stated} (${kind === 'problem' ? 'errors.body: problem, RFC 9457' : 'errors.body.media_type'})`
        : 'a JSON Content-Type for the declared error body';
    if (route?.kind !== 'operation') {
      // A built-in answer (no route matched, the webhook registration): the declared error body too. The token
      // endpoint answers errors as RFC 6749 says, not in the spec's shape.
      if (res.status < 400 || route?.kind === 'token' || res.text === '') return;
      const builtIn = route ? target : 'a request no route matches';
      this.record('errors', 'errors.media-type', builtIn, () =>
        mediaMismatch() ? fail(mediaExpected, '/errors', `Content-Type: ${ct || '(none)'}`) : undefined,
      );
      this.record('errors', 'errors.answer-shape', builtIn, () => {
        const m = ctx.errorBodyMismatch(res);
        return m === undefined ? undefined : fail('an error body in the declared shape', '/errors', m);
      });
      // No route, another method: the declared headers of error answers are the service's whichever layer answers.
      if (hasErrorHeaders(ctx)) this.record('errors', 'errors.answer-headers', builtIn, () => this.errorHeaders(route, res, fail));
      return;
    }
    const o = route.operation;
    if (res.status >= 400) {
      // An error answer: the declared body's media type.
      this.record('errors', 'errors.media-type', o.id, () => {
        if (res.text === '') return undefined;
        return mediaMismatch() ? fail(mediaExpected, '/errors', `Content-Type: ${ct || '(none)'}`) : undefined;
      });
      if (hasErrorHeaders(ctx)) this.record('errors', 'errors.answer-headers', o.id, () => this.errorHeaders(route, res, fail));
      if (res.status === 429 || res.status === 503) {
        this.record('limits', 'limits.answer-headers', o.id, () => {
          const retry = res.headers.get('retry-after');
          return retry === null
            ? fail(`a Retry-After header on a ${res.status}`, res.status === 429 ? '/limits/rate' : undefined, 'no Retry-After header')
            : undefined;
        });
      }
      return;
    }
    if (res.status >= 300) return;
    // A success answer: the declared status, media type, headers and body.
    this.record('endpoints', 'endpoints.status', o.id, () =>
      isSuccessAnswer(route, res.status) ? undefined : fail(`status ${route.successStatus} for a success`, o.pointer, `status ${res.status}`),
    );
    const version = this.versionOf(req);
    const current = version !== undefined && version === ctx.model.versioning?.current;
    const versioned = ctx.model.versioning?.current !== undefined;
    if (res.text !== '') {
      this.record('endpoints', 'endpoints.media-type', o.id, () => {
        if (!isJsonMediaType(essence)) return fail('a JSON Content-Type', o.pointer, `Content-Type: ${ct || '(none)'}`);
        const p = ctx.model.versioning?.placement;
        if (this.mediaReader && version !== undefined && this.mediaReader(ct) !== version)
          return fail(
            `Content-Type ${p?.kind === 'media_type' ? p.template.replace('{version}', version) : ''}: the version served, in the media type`,
            '/versioning/placement/media_type',
            `Content-Type: ${ct}`,
          );
        return undefined;
      });
    }
    // `location: false`: the spec says its create answers no Location, so none is asked.
    // An upsert's 201 made the object: its Location, as a create's.
    if (
      ((o.action === 'create' && o.location !== false) || (o.upsert === true && o.location !== false && res.status === 201 && !o.bindings)) &&
      isSuccessAnswer(route, res.status)
    ) {
      const read = ctx.routes.find((r) => r.operation.action === 'read' && r.resource?.name === route.resource?.name);
      const made = res.body as Record<string, unknown> | undefined;
      const id = route.resource?.identifier !== undefined ? made?.[route.resource.identifier] : undefined;
      if (read && id !== undefined) {
        // The read's path, filled from the fields it binds (\`bind\`), else with the identifier; a parent's value
        // (\`Article.slug\`) is no field of the object made: the create's own path gave it.
        const names = read.operation.bindings ? read.operation.bindings.filter((b) => b.parent === undefined).map((b) => made?.[b.field]) : [id];
        const path = readPathOf(ctx.fillVersion(read.path), read.operation, made, id);
        this.record('endpoints', 'endpoints.location', o.id, () => {
          const loc = res.headers.get('location');
          if (loc === null) return fail(`a Location header naming the ${route.resource!.name} made`, o.pointer, 'no Location header');
          if (path === undefined)
            return names.every((v) => loc.includes(encodeURIComponent(String(v))))
              ? undefined
              : fail(`a Location header naming the ${route.resource!.name} made (${names.map(String).join(', ')})`, o.pointer, `Location: ${loc}`);
          return isLocationOf(loc, req.path, path, (this.templates ??= ctx.routes.map((r) => ctx.fillVersion(r.path))))
            ? undefined
            : fail(`a Location header naming the ${route.resource!.name} made: its read's path, ${path}`, o.pointer, `Location: ${loc}`);
        });
      }
    }
    if (o.responseHeaders.length > 0 && isSuccessAnswer(route, res.status)) {
      this.record('endpoints', 'endpoints.response-headers', o.id, () => {
        const m = responseHeadersMismatch(ctx, route, res);
        return m === undefined ? undefined : fail('the declared response headers, each with a value its declaration takes', `${o.pointer}/response_headers`, m);
      });
    }
    if (o.envelope && isSuccessAnswer(route, res.status)) {
      this.record('endpoints', 'endpoints.envelope', o.id, () => {
        const m = envelopeMismatch(ctx, route, req, res);
        return m === undefined ? undefined : fail('the answer in its envelope, each envelope field holding its value', `${o.envelope!.pointer}`, m);
      });
    }
    if ((ctx.model.limits?.rate ?? []).length > 0) this.record('limits', 'limits.answer-headers', o.id, () => this.rateHeaders(route, res, fail));
    if (versioned && ctx.model.versioning?.placement) {
      this.record('versioning', 'versioning.answer-headers', o.id, () => {
        const p = ctx.model.versioning!.placement!;
        const vary = (res.headers.get('vary') ?? '').split(',').map((s) => s.trim().toLowerCase());
        const wanted = p.kind === 'header' ? p.name : p.kind === 'media_type' ? 'Accept' : undefined;
        if (wanted !== undefined && !vary.includes(wanted.toLowerCase()) && !vary.includes('*'))
          return fail(
            `Vary naming ${wanted}: the answer depends on the version named there`,
            '/versioning/placement',
            `Vary: ${res.headers.get('vary') ?? '(none)'}`,
          );
        const declared = ctx.model.versioning!.supported.find((s) => s.version === version);
        if (declared?.deprecated !== undefined && !res.headers.get('deprecation'))
          return fail(
            `a Deprecation header: version ${version!} is deprecated since ${declared.deprecated}`,
            `${declared.pointer}/deprecated`,
            'no Deprecation header',
          );
        if (declared?.sunset !== undefined && !res.headers.get('sunset'))
          return fail(`a Sunset header: version ${version!} ends on ${declared.sunset}`, `${declared.pointer}/sunset`, 'no Sunset header');
        const dates = declared ? lifecycleHeaderMismatch(declared, res) : undefined;
        if (dates !== undefined) return fail(`Deprecation and Sunset saying the dates version ${version!} declares`, declared!.pointer, dates);
        return undefined;
      });
    }
    // The body in the declared shape, for answers in the current version (older ones: versioning.served).
    if ((current || !versioned) && isSuccessAnswer(route, res.status)) {
      this.record('endpoints', 'endpoints.answer-shape', o.id, () => {
        const m = responseMismatch(ctx, route, req, res);
        // A list with answer_fields: each item the subset, which the failure says (a whole object is the likely fault).
        const expected =
          o.action === 'list' && o.answerFields !== undefined
            ? `a body in the declared response shape, each item of the list's answer_fields (${o.answerFields.join(', ')})`
            : 'a body in the declared response shape';
        return m === undefined ? undefined : fail(expected, route.resource?.pointer ?? o.pointer, m);
      });
    }
  }

  private rateHeaders(
    route: OperationRoute,
    res: TestResponse,
    fail: (expected: string, pointer: string | undefined, actual: string) => Failure,
  ): Failure | undefined {
    const why = rateHeadersMismatch(this.ctx, route, res);
    return why === undefined ? undefined : fail('RateLimit-Policy and RateLimit headers naming the declared policies', '/limits/rate', why);
  }

  private errorHeaders(
    route: Route | undefined,
    res: TestResponse,
    fail: (expected: string, pointer: string | undefined, actual: string) => Failure,
  ): Failure | undefined {
    const why = errorHeadersMismatch(this.ctx, route, res);
    return why === undefined ? undefined : fail('the declared headers of the error answer, each with a value its declaration takes', '/errors', why);
  }

  /** One result per check and target judged. */
  results(): CheckResult[] {
    return [...this.verdicts.values()].map((v) =>
      v.failure
        ? { part: v.part, check: v.check, target: v.target, outcome: 'failed', failure: v.failure, requests: 0 }
        : { part: v.part, check: v.check, target: v.target, outcome: 'passed', requests: 0 },
    );
  }
}

/**
 * The read path of the object a create made: each parameter from the field it binds (`bind`), else the identifier.
 * Undefined where one has no value.
 */
function readPathOf(template: string, o: OperationModel, made: Record<string, unknown> | undefined, id: unknown): string | undefined {
  const bindings = o.bindings;
  let missing = false;
  const path = template.replace(/\{([^{}]*)\}/g, (_, name: string) => {
    const v = bindings ? getValueAt(made, (getBinding(o, name)?.field ?? name).split('.')) : id;
    if (v === undefined || v === null || typeof v === 'object') missing = true;
    return encodeURIComponent(String(v));
  });
  return missing ? undefined : path;
}

/**
 * Whether a Location (RFC 9110 §10.2.2: a URI reference, resolved against the request's) names `path`: its path is
 * that one, after whatever prefix the service is mounted under (a gateway's `/api`), a trailing slash aside. A prefix
 * that is itself a way into the spec's own paths (`/queues/1` before `/tickets/7`, where `/queues/{id}` is a path
 * of the spec: the create's own path with the identifier put after it) is no mount: that Location names a path the
 * service does not serve, not the object made.
 */
function isLocationOf(location: string, requestPath: string, path: string, templates: readonly string[]): boolean {
  let at: string;
  try {
    at = new URL(location, new URL(requestPath, 'http://service.invalid')).pathname;
  } catch {
    return false;
  }
  const norm = (p: string) => {
    try {
      return decodeURIComponent(p).replace(/\/+$/, '');
    } catch {
      return p.replace(/\/+$/, '');
    }
  };
  const want = norm(path);
  const got = norm(at);
  if (got === want) return true;
  if (!got.endsWith(want)) return false;
  const prefix = got
    .slice(0, got.length - want.length)
    .split('/')
    .filter(Boolean);
  return !templates.some((t) => isLeadOf(prefix, t.split('/').filter(Boolean)));
}

/** Whether `segments` are the first segments of a path template, one literal segment of it matched at least. */
function isLeadOf(segments: readonly string[], template: readonly string[]): boolean {
  if (segments.length === 0 || segments.length > template.length) return false;
  let literal = false;
  for (const [i, s] of segments.entries()) {
    const t = template[i]!;
    if (/^\{[^}]+\}$/.test(t)) continue;
    if (t !== s) return false;
    literal = true;
  }
  return literal;
}
