import { DEFAULT_PAGING, getFirstPage, getPagingParamName } from '../model/model-defaults.js';
import { objectKey } from './tester-context.js';
import { getValueAt } from '../model/model-path-bindings.js';
import { getField, getPageSize, getStateField } from '../model/model-lookup.js';
import { isSuccessAnswer, LINK_HEADER, LIST_PARAMS, type OperationRoute } from '../model/model-routes.js';
import type { OperationModel, PagingModel, ResourceModel, ServiceModel } from '../model/model-types.js';
import { describe, type TestContext } from './tester-context.js';
import type { TestRequest, TestResponse } from './tester-http.js';
import type { Failure } from './tester-types.js';
import { getEnvelopeCursor, getListTotal } from './tester-envelope.js';
import { getPageItems } from '../model/model-envelope.js';
import { isAnswered } from '../model/model-schemas.js';
import { isPlainObject, sortedJson } from './tester-arbitraries.js';

/**
 * The largest page size a list is sure to take: its maximum as it applies (paging.page_size over limits.page_size),
 * else its default (a request naming it asks what one naming none gets). Neither stated: 10, a size no real list
 * refuses; sending the runtime's built-in 100 to a service capped at 25 would be a failure of the tester's making.
 */
export function getLargestPageSize(ctx: TestContext, operation: OperationModel): number {
  const size = getPageSize(ctx.model, operation);
  return size.max ?? size.default ?? 10;
}

// Lists that state their paging (docs/format.md, "List shapes"): the tester reads their answers by their own shape
// and pages through them the way their style says. Lists that do not state it are the format's cursor envelope,
// which tester-checks-states.ts pages through.

function pagingOf(route: OperationRoute): Omit<PagingModel, 'declared'> {
  return route.operation.paging ?? DEFAULT_PAGING;
}

/** Whether a list answers the format's own page `{ items, next_cursor }` paged by limit and cursor (by those names), with no Link header. */
export function isDefaultPaging(route: OperationRoute): boolean {
  const p = pagingOf(route);
  return (
    p.style === DEFAULT_PAGING.style &&
    p.body === DEFAULT_PAGING.body &&
    p.items === DEFAULT_PAGING.items &&
    p.next === DEFAULT_PAGING.next &&
    p.total === undefined &&
    p.totalHeader === undefined &&
    p.hasMore === undefined &&
    !p.link &&
    Object.keys(p.params).length === 0
  );
}

// The objects of a list answer, in src/model/model-envelope.ts, where the context reads them too (no import cycle).
export { getPageItems };

/**
 * The total a list answers in its header (paging.total_header): the count, or what is wrong with the header (a
 * string: missing, not a non-negative integer). Read as the runtime writes it: decimal digits only.
 */
export function totalHeaderProblem(res: TestResponse, name: string): number | string {
  const text = res.headers.get(name);
  if (text === null) return `no ${name} header`;
  const n = Number(text.trim());
  return /^\s*[0-9]+\s*$/.test(text) && Number.isSafeInteger(n) ? n : `${name}: ${JSON.stringify(text.slice(0, 40))}, not a count of objects`;
}

/** The query parameter a list's page size is asked with (`limit`, `per_page` in the page style, or as `paging.params` names it); none for style none. */
export function getPageSizeParam(route: OperationRoute): string | undefined {
  const p = pagingOf(route);
  return p.style === 'none' ? undefined : getPagingParamName(p, 'limit');
}

/** A query asking a list for pages of `size` objects by its page size parameter; nothing for style none. */
export function pageSizeQuery(route: OperationRoute, size: string): Record<string, string> {
  const name = getPageSizeParam(route);
  return name === undefined ? {} : { [name]: size };
}

/** The address of the next page from an RFC 8288 `Link` header (`<…>; rel="next"`), or undefined. */
export function nextLink(res: TestResponse): string | undefined {
  const link = res.headers.get(LINK_HEADER);
  if (link === null) return undefined;
  for (const part of link.split(',')) {
    const m = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (m && /(^|;)\s*rel="?next"?\s*(;|$)/.test(m[2]!)) return m[1];
  }
  return undefined;
}

/**
 * The cursor of the page after this one (style cursor): the envelope's next field, or, where the list has none
 * (`next: false`, a bare array), the cursor parameter of the Link header's next address. Undefined on the last page.
 */
export function getNextCursor(route: OperationRoute, res: TestResponse): string | undefined {
  const p = pagingOf(route);
  if (p.style !== 'cursor') return undefined;
  if (p.body === 'envelope' && p.next !== undefined) {
    const v = (res.body as Record<string, unknown> | undefined)?.[p.next];
    return typeof v === 'string' && v.length > 0 ? v : undefined;
  }
  const inPage = pageLinkCursor(p, res);
  if (inPage !== undefined) return inPage;
  const link = p.link ? nextLink(res) : undefined;
  // A bare array (or `next: false`) whose response envelope carries the cursor (Kubernetes' metadata.continue).
  if (link === undefined) return getEnvelopeCursor(route, res);
  return new URLSearchParams(link.slice(link.indexOf('?') + 1)).get(getPagingParamName(p, 'cursor')) ?? undefined;
}

/** The cursor in the next page's address the page holds (paging.next_link, `next: false`), or undefined. */
function pageLinkCursor(p: Omit<PagingModel, 'declared'>, res: TestResponse): string | undefined {
  const v = p.nextLink !== undefined && p.body === 'envelope' ? (res.body as Record<string, unknown> | undefined)?.[p.nextLink] : undefined;
  if (typeof v !== 'string') return undefined;
  try {
    return new URL(v, 'http://page.invalid').searchParams.get(getPagingParamName(p, 'cursor')) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * The query of the page after this one, by the list's style: the cursor its envelope or Link header gives, the
 * offset moved on by the page's length, the next page number; undefined on the last page. A Link header, where
 * declared, must agree: present exactly when there is a next page.
 */
export function nextQuery(
  route: OperationRoute,
  query: Record<string, string>,
  res: TestResponse,
  items: unknown[],
  size: number,
): { next?: Record<string, string>; problem?: string } {
  const p = pagingOf(route);
  const link = nextLink(res);
  const envelopeCursor = p.style === 'cursor' && p.body === 'envelope' && p.next !== undefined ? (res.body as Record<string, unknown>)[p.next] : undefined;
  if (p.link) {
    if (p.style === 'cursor' && p.body === 'envelope' && p.next !== undefined && (link !== undefined) !== (typeof envelopeCursor === 'string'))
      return { problem: `a Link header ${link !== undefined ? 'on the last page' : 'missing while a next page exists'}` };
    if (link === undefined) return {};
    if (p.style !== 'cursor' && items.length < size) return { problem: `a Link header on a page of ${items.length} items, short of ${size} (the last page)` };
    return { next: Object.fromEntries(new URLSearchParams(link.slice(link.indexOf('?') + 1))) };
  }
  if (p.style === 'cursor') {
    // The page's own next field, else the response envelope's (a bare array beside Kubernetes' metadata.continue).
    const cursor =
      typeof envelopeCursor === 'string'
        ? envelopeCursor
        : (pageLinkCursor(p, res) ?? (p.body === 'array' || p.next === undefined ? getEnvelopeCursor(route, res) : undefined));
    return cursor !== undefined ? { next: { ...query, [getPagingParamName(p, 'cursor')]: cursor } } : {};
  }
  // Style after: the next page starts after this page's last object, by its identifier, while `has_more` says
  // objects follow (without it, while pages come back full).
  if (p.style === 'after') {
    const more = p.hasMore !== undefined && p.body === 'envelope' ? (res.body as Record<string, unknown>)[p.hasMore] === true : items.length >= size;
    const last = items.at(-1) as Record<string, unknown> | undefined;
    const id = route.resource?.identifier;
    if (!more || last === undefined || id === undefined) return {};
    return { next: { ...query, [getPagingParamName(p, 'cursor')]: String(last[id]) } };
  }
  if (items.length < size) return {};
  // A full page whose next page address is null is the last (DRF's `next`): the page after it need not exist, and
  // Django REST Framework's PageNumberPagination refuses it 404 "Invalid page.".
  if (
    p.nextLink !== undefined &&
    p.body === 'envelope' &&
    typeof res.body === 'object' &&
    res.body !== null &&
    (res.body as Record<string, unknown>)[p.nextLink] === null
  )
    return {};
  const offset = getPagingParamName(p, 'offset');
  const number = getPagingParamName(p, 'page');
  if (p.style === 'offset') return { next: { ...query, [offset]: String(Number(query[offset] ?? 0) + items.length) } };
  if (p.style === 'page') return { next: { ...query, [number]: String(Number(query[number] ?? getFirstPage(p)) + 1) } };
  return {};
}

/** Pages of a list `pageThrough` reads at most: a check looking for objects reads the first ones. */
export const LISTED_PAGES = 5;

/**
 * Reads a list page after page at its largest page size, the run's scope filled in, handing each page's items to
 * `visit` until it returns true (found), the pages end or LISTED_PAGES are read. The request of the page `visit`
 * stopped at; undefined otherwise (a page refused ends the walk too).
 */
export async function pageThrough(
  ctx: TestContext,
  list: OperationRoute,
  headers: Record<string, string>,
  visit: (items: Record<string, unknown>[], req: TestRequest) => boolean | void,
  params: Record<string, string> = {},
): Promise<TestRequest | undefined> {
  const size = getPageSizeParam(list);
  let query: Record<string, string> | undefined = size === undefined ? {} : { [size]: String(getLargestPageSize(ctx, list.operation)) };
  for (let page = 0; query && page < LISTED_PAGES; page++) {
    const req: TestRequest = { method: 'GET', path: ctx.pathOf(list, undefined, query, params), headers };
    const res = await ctx.send(list, req);
    const items = isSuccessAnswer(list, res.status) ? getPageItems(list, res.body) : undefined;
    if (!items) return undefined;
    if (visit(items as Record<string, unknown>[], req) === true) return req;
    query = items.length > 0 ? nextQuery(list, query, res, items, Number(query[size ?? ''] ?? items.length)).next : undefined;
  }
  return undefined;
}

/**
 * Pages through every list that states its paging, with each sort, two objects a page: each object of the caller
 * once, none missing, a declared total equal to the number of objects, and a Link header present exactly while
 * another page exists (offset and page styles: absent once a page comes back short); items in each sort's order,
 * and each filter holding.
 */
export async function checkListShapes(ctx: TestContext): Promise<void> {
  for (const route of ctx.routes.filter((r) => r.operation.action === 'list' && r.resource && !isDefaultPaging(r))) {
    const o = route.operation;
    const resource = route.resource!;
    const p = pagingOf(route);
    await ctx.check('endpoints', 'endpoints.list-paging', o.id, async (scope) => {
      const headers = await ctx.authFor(o.auth);
      if (!headers) return scope.skip('no credential for this operation');
      if (!(await fillPool(ctx, resource, 5))) return scope.skip(`cannot create ${resource.name} objects to page through`);
      for (const field of o.sort) {
        await varyField(ctx, resource, field, ctx.pool.get(resource.name)!);
        await orderField(ctx, resource, field, ctx.pool.get(resource.name)!);
        await tieField(ctx, resource, field, ctx.pool.get(resource.name)!);
      }
      const id = (x: unknown) => JSON.stringify(objectKey(resource, x as Record<string, unknown>));
      // The caller's objects this list answers: those in the scope its path binds (a namespace), where it binds one.
      const bound = ctx.pathTarget(route, undefined);
      // And those holding the value each required filter is sent (required_filters): an object the run made, or
      // changed since, to another value is not on this list's pages.
      const required = o.requiredFilters ? ctx.requiredFilterQuery(resource, o.requiredFilters) : {};
      const inScope = (x: Record<string, unknown>) =>
        (bound === undefined || (o.bindings ?? []).every((b) => JSON.stringify(getValueAt(x, b.field)) === JSON.stringify(getValueAt(bound, b.field)))) &&
        Object.entries(required).every(([name, v]) => String(getValueAt(x, name)) === v);
      const mine = new Set((ctx.pool.get(resource.name) ?? []).filter(inScope).map(id));
      const sizeParam = getPageSizeParam(route);
      // Style limit answers one page: ask for the largest, which holds the caller's objects unless the service
      // holds more (earlier runs', other subjects'): then a full page may leave some out.
      const size = p.style === 'limit' ? getLargestPageSize(ctx, o) : 2;
      let listed: Record<string, unknown>[] = [];
      for (const sort of [undefined, ...o.sortValues]) {
        const seen: unknown[] = [];
        const pages: { req: TestRequest; count: number }[] = [];
        let query: Record<string, string> | undefined = {
          ...(sizeParam !== undefined ? { [sizeParam]: String(size) } : {}),
          ...(sort ? { [o.sortParam ?? LIST_PARAMS.sort]: sort } : {}),
        };
        let req: TestRequest | undefined;
        let total: unknown;
        let totalName: string | undefined;
        // The total header of each page (paging.total_header): every one must count every object.
        const totals: number[] = [];
        // has_more of the page before (paging.has_more): true promises objects on this page.
        let more: unknown;
        for (let page = 0; page < 200 && query !== undefined; page++) {
          req = { method: 'GET', path: ctx.pathOf(route, undefined, query), headers };
          const res = await ctx.send(route, req);
          // A list without paging answers at most the largest page (docs/format.md): with more objects than that, its
          // declared validation refusal is the right answer, and there is nothing to page through.
          if (p.style === 'none' && res.status !== 200 && ctx.expectCondition(res, 'validation') === undefined)
            return scope.skip(`more ${resource.name} objects than a list without paging answers (its maximum page size)`);
          const items = res.status === 200 ? getPageItems(route, res.body) : undefined;
          if (!items)
            return scope.fail(ctx.failure(o.id, p.body === 'array' ? 'a page: a bare array' : `a page: an object with \`${p.items}\``, o.pointer, req, res));
          const counted = getListTotal(route, res);
          if (counted !== undefined) {
            total = counted.value;
            totalName = counted.name;
            if (typeof total !== 'number')
              return scope.fail(ctx.failure(o.id, `the total in \`${counted.name}\``, o.pointer, req, describe(res).slice(0, 200)));
          }
          if (p.hasMore !== undefined && p.body === 'envelope') {
            const prev = pages.at(-1);
            if (more === true && items.length === 0 && prev)
              return scope.fail(
                ctx.failure(
                  o.id,
                  `\`${p.hasMore}\` true only while objects follow`,
                  o.pointer,
                  prev.req,
                  `true, but the page after it holds none (${describe(res).slice(0, 120)})`,
                ),
              );
            more = (res.body as Record<string, unknown>)[p.hasMore];
            if (typeof more !== 'boolean')
              return scope.fail(ctx.failure(o.id, `\`${p.hasMore}\` a boolean on every page`, o.pointer, req, describe(res).slice(0, 200)));
          }
          if (p.totalHeader !== undefined) {
            const t = totalHeaderProblem(res, p.totalHeader);
            if (typeof t === 'string') return scope.fail(ctx.failure(o.id, `the total in a \`${p.totalHeader}\` header on every page`, o.pointer, req, t));
            totals.push(t);
          }
          // Every page holds at most the size asked for (a service honouring `limit` on the first page alone fails
          // here), where this page's request asked one: a next page's URL the service wrote may leave it out.
          if (sizeParam !== undefined && query[sizeParam] === String(size) && items.length > size)
            return scope.fail({
              ...ctx.failure(
                o.id,
                `at most ${size} items on every page (${sizeParam}=${size})`,
                o.pointer,
                req,
                `${items.length} items on page ${pages.length + 1}`,
              ),
              curl: ctx.client.curlPages([...pages, { req, count: items.length }], seen.length, `${items.length} items`),
            });
          seen.push(...items);
          pages.push({ req, count: items.length });
          if (p.style === 'limit' || p.style === 'none') break;
          const step = nextQuery(route, query, res, items, size);
          if (step.problem !== undefined) return scope.fail(ctx.failure(o.id, 'a Link header exactly while another page exists', o.pointer, req, step.problem));
          query = step.next;
        }
        if (!req) continue;
        const ids = seen.map(id);
        const dup = ids.find((x, i) => ids.indexOf(x) !== i && isTold(resource, seen[i] as Record<string, unknown>));
        if (dup !== undefined)
          return scope.fail({
            ...ctx.failure(o.id, 'each object once across pages', o.pointer, req, `${dup} appears twice`),
            curl: ctx.client.curlPages(
              pages,
              ids.findIndex((x, i) => ids.indexOf(x) !== i),
              `${dup} again`,
            ),
          });
        const gap = p.style === 'limit' && seen.length >= size ? undefined : [...mine].find((x) => !ids.includes(x));
        if (gap !== undefined && ctx.pool.get(resource.name)!.some((x) => id(x) === gap))
          return scope.fail({
            ...ctx.failure(
              o.id,
              'every object of the caller across pages',
              o.pointer,
              req,
              `${gap} missing after ${seen.length} items${more === false ? ` (the last page said \`${p.hasMore!}\` false)` : ''}`,
            ),
            curl: ctx.client.curlPages(pages, seen.length, `the last: ${gap} on none`),
          });
        if (totalName !== undefined && p.style !== 'limit' && total !== seen.length)
          return scope.fail({
            ...ctx.failure(o.id, `the total \`${totalName}\` equal to the objects listed`, o.pointer, req, `${String(total)}, but ${seen.length} listed`),
            curl: ctx.client.curlPages(pages, seen.length, `the last: ${seen.length} listed in all`),
          });
        // Style limit answers one page: where it is full, more may match than it holds.
        const wrongTotal = totals.findIndex((t) => (p.style === 'limit' && seen.length >= size ? t < seen.length : t !== seen.length));
        if (p.totalHeader !== undefined && wrongTotal >= 0)
          return scope.fail({
            ...ctx.failure(
              o.id,
              `the \`${p.totalHeader}\` header equal to the objects listed, on every page`,
              o.pointer,
              pages[wrongTotal]!.req,
              `${totals[wrongTotal]!} on page ${wrongTotal + 1}, but ${seen.length} listed in all`,
            ),
            curl: ctx.client.curlPages(pages, seen.length, `${seen.length} listed in all`),
          });
        if (sort === undefined) listed = seen as Record<string, unknown>[];
        const disorder = sort ? await checkSortOrder(ctx, route, sort, seen as Record<string, unknown>[], req, pages) : undefined;
        if (disorder) return scope.fail(disorder);
      }
      // A last page that is exactly full (the pages of 2 above seldom end so): the page size set to every object
      // listed, where it says another page follows (has_more true; a next cursor or a Link rel="next", where the list
      // declares its paging), the page after it must hold some (a service answering `items.length >= limit` says so).
      if (saysMore(route) && sizeParam !== undefined && listed.length > 0 && listed.length <= getLargestPageSize(ctx, o)) {
        const full = await exactlyFullPage(ctx, route, headers, sizeParam, listed.length);
        if (full) return scope.fail(full);
      }
      const filtered = await checkListFilters(ctx, route, listed, headers);
      if (filtered) scope.fail(filtered);
    });
  }
}

/**
 * Whether a list's page says another page follows: a `has_more` field; where the list declares its paging, a next
 * cursor in its envelope or a Link header (the format: null, or absent, on the last page).
 */
export function saysMore(route: OperationRoute): boolean {
  const p = pagingOf(route);
  if (p.hasMore !== undefined && p.body === 'envelope') return true;
  if (route.operation.paging?.declared !== true || p.style === 'limit' || p.style === 'none') return false;
  return p.link || (p.style === 'cursor' && p.body === 'envelope' && p.next !== undefined);
}

/**
 * The failure of a page holding every object (`n`) that says another page follows (`has_more` true, a next cursor,
 * a Link rel="next": saysMore), where the page after it holds none.
 */
export async function exactlyFullPage(
  ctx: TestContext,
  route: OperationRoute,
  headers: Record<string, string>,
  sizeParam: string,
  n: number,
): Promise<Failure | undefined> {
  const p = pagingOf(route);
  const declared = route.operation.paging?.declared === true;
  const query = { [sizeParam]: String(n) };
  const req: TestRequest = { method: 'GET', path: ctx.pathOf(route, undefined, query), headers };
  const res = await ctx.send(route, req);
  const items = res.status === 200 ? getPageItems(route, res.body) : undefined;
  if (!items || items.length !== n) return undefined;
  const body = p.body === 'envelope' ? (res.body as Record<string, unknown>) : {};
  const said =
    p.hasMore !== undefined && body[p.hasMore] === true
      ? { expected: `\`${p.hasMore}\` true only while objects follow`, actual: 'true' }
      : declared && p.style === 'cursor' && p.next !== undefined && typeof body[p.next] === 'string' && body[p.next] !== ''
        ? { expected: `\`${p.next}\` ${p.nextOptional ? 'absent' : 'null'} on the last page`, actual: `a next cursor in \`${p.next}\`` }
        : declared && p.link && nextLink(res) !== undefined
          ? { expected: 'no Link header rel="next" on the last page', actual: 'a Link header rel="next"' }
          : undefined;
  if (!said) return undefined;
  const next = nextQuery(route, query, res, items, n).next;
  if (next === undefined) return undefined;
  const after: TestRequest = { method: 'GET', path: ctx.pathOf(route, undefined, next), headers };
  const rest = await ctx.send(route, after);
  const more = rest.status === 200 ? getPageItems(route, rest.body) : undefined;
  if (!more || more.length > 0) return undefined;
  return {
    ...ctx.failure(
      route.operation.id,
      said.expected,
      route.operation.pointer,
      req,
      `${said.actual} on a page of all ${n} objects, and the page after it holds none`,
    ),
    curl: ctx.client.curlSequence([{ req }, { note: 'then the next page', req: after }]),
  };
}

/**
 * Whether the main subject holds `n` objects of `resource` the run made, creating them as needed. A create the
 * service answers with another success status (200 for a declared 201) keeps no object: it stops here rather
 * than being sent again until the run's bounds (it fails in endpoints.status).
 */
export async function fillPool(ctx: TestContext, resource: ResourceModel, n: number): Promise<boolean> {
  while ((ctx.pool.get(resource.name)?.length ?? 0) < n) {
    const before = ctx.pool.get(resource.name)?.length ?? 0;
    const made = await ctx.createObject(resource);
    if (!made || made.res.status >= 300 || (ctx.pool.get(resource.name)?.length ?? 0) === before) return false;
  }
  return true;
}

/** A value of a field's closed set (enum, state, boolean) that none of `objects` holds; undefined when none is left. */
function getAbsentValue(
  model: ServiceModel,
  resource: ResourceModel,
  field: string,
  objects: readonly Record<string, unknown>[],
): string | number | boolean | undefined {
  const f = resource.fields.find((x) => x.name === field);
  if (!f) return undefined;
  let domain: readonly (string | number | boolean)[] | undefined = f.values;
  if (f.type === 'boolean') domain = [true, false];
  if (f.type === 'state')
    domain = model.stateMachines.find((m) => m.resource === resource.name && getStateField(model, m) === field)?.states.map((x) => x.name);
  const held = new Set(objects.map((x) => String(x[field])));
  return domain?.find((v) => !held.has(String(v)));
}

/**
 * Where every object given has one value of `field`, one with another is made, where a create can set the field
 * (a few seeds tried): generated objects often share a value, and a filter or sort ignored would pass unseen.
 */
export async function varyField(ctx: TestContext, resource: ResourceModel, field: string, objects: readonly Record<string, unknown>[]): Promise<void> {
  const values = new Set(objects.filter((x) => x[field] !== undefined && x[field] !== null).map((x) => JSON.stringify(x[field])));
  if (values.size !== 1) return;
  for (let k = 1; k <= 8; k++) {
    const body = await ctx.sampleCreateBody(resource, 7919 * k);
    if (body[field] === undefined || body[field] === null || values.has(JSON.stringify(body[field]))) continue;
    await ctx.createObject(resource, body);
    return;
  }
}

/**
 * Text is in order by code unit or by locale (the format states no collation; checkSortOrder takes either), so a
 * pair of values the two order differently (`"sh&"` and `"T |1"`: `s` after `T` by code unit, before it by locale)
 * shows no order at all: where the texts of a sort field the objects given hold are all such pairs, one is made
 * whose text the two order alike beside one of them, so a sort reversed or ignored shows on some pair.
 */
export async function orderField(ctx: TestContext, resource: ResourceModel, field: string, objects: readonly Record<string, unknown>[]): Promise<void> {
  const texts = [...new Set(objects.map((x) => x[field]).filter((v): v is string => typeof v === 'string'))];
  if (texts.length === 0 || (texts.length < 2 && objects.length < 2)) return;
  const alike = (x: string, y: string): boolean => x !== y && x < y === x.localeCompare(y) < 0 && x.localeCompare(y) !== 0;
  if (texts.some((x, i) => texts.some((y, j) => j > i && alike(x, y)))) return;
  for (let k = 1; k <= 8; k++) {
    const body = await ctx.sampleCreateBody(resource, 6151 * k);
    const v = body[field];
    if (typeof v !== 'string' || !texts.some((x) => alike(x, v))) continue;
    await ctx.createObject(resource, body);
    return;
  }
}

/**
 * Where no three objects given share a value of a sort field a create writes freely (not unique, not a key), two or
 * three more with the value of one are made: three objects tied, paged two at a time, straddle a page boundary, so
 * a sort without a tiebreaker (ties in whatever order each page's query meets them) shows as an object twice or
 * never across pages.
 */
export async function tieField(ctx: TestContext, resource: ResourceModel, field: string, objects: readonly Record<string, unknown>[]): Promise<void> {
  const f = resource.fields.find((x) => x.name === field);
  if (
    !f ||
    f.readOnly ||
    f.unique ||
    f.type === 'state' ||
    field === resource.identifier ||
    field === resource.owner ||
    (resource.uniqueKeys ?? []).some((k) => k.includes(field))
  )
    return;
  const counts = new Map<string, number>();
  for (const x of objects)
    if (x[field] !== undefined && x[field] !== null) counts.set(JSON.stringify(x[field]), (counts.get(JSON.stringify(x[field])) ?? 0) + 1);
  const [value, n] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0] ?? [];
  if (value === undefined || n === undefined || n >= 3) return;
  for (let k = 1; k <= 3 - n; k++) {
    const body = await ctx.sampleCreateBody(resource, 104729 * k);
    const made = await ctx.createObject(resource, { ...body, [field]: JSON.parse(value) as unknown });
    if (!made || made.res.status >= 300) return;
  }
}

/** Whether the list's items carry `field`: every field, but for a list that answers some (answer_fields). */
function isListAnswered(route: OperationRoute, field: string): boolean {
  return route.operation.answerFields === undefined || route.operation.answerFields.includes(field);
}

/** How the value of one field of listed items is read (createFieldReader). */
interface FieldReader {
  /** Reads, where needed, the objects among `items` not read yet. */
  load(items: readonly Record<string, unknown>[]): Promise<void>;
  valueOf(x: Record<string, unknown>): unknown;
}

/**
 * How the value of `field` of a listed item is read: the item's own; for a field the list does not answer
 * (answer_fields: a list may be filtered and sorted by it all the same), the object read whole through the resource's
 * read, by key, once — as it is now, not as the run made it (a state walk or an update may have changed it since).
 * Undefined for an object that cannot be read, which then tells nothing.
 */
function createFieldReader(ctx: TestContext, route: OperationRoute, field: string): FieldReader {
  const resource = route.resource;
  if (isListAnswered(route, field) || !resource) return { load: async () => undefined, valueOf: (x) => x[field] };
  const read = ctx.routes.find((r) => r.operation.action === 'read' && r.resource?.name === resource.name);
  const known = new Map<string, unknown>();
  const keyOf = (x: Record<string, unknown>): string | undefined => JSON.stringify(objectKey(resource, x));
  return {
    async load(items) {
      const headers = read ? await ctx.authFor(read.operation.auth) : undefined;
      for (const x of items) {
        const key = keyOf(x);
        if (key === undefined || known.has(key)) continue;
        if (!read || !headers) {
          known.set(key, undefined);
          continue;
        }
        const res = await ctx.send(read, { method: 'GET', path: ctx.pathOf(read, objectKey(resource, x)), headers });
        known.set(key, res.status === 200 && isPlainObject(res.body) ? res.body[field] : undefined);
      }
    },
    valueOf: (x) => {
      const key = keyOf(x);
      return key === undefined ? undefined : known.get(key);
    },
  };
}

/** A failure when the items of one sort's pages are not in its order (`-field` descending), else undefined. */
export async function checkSortOrder(
  ctx: TestContext,
  route: OperationRoute,
  sort: string,
  seen: Record<string, unknown>[],
  req: TestRequest,
  pages: { req: TestRequest; count: number }[],
): Promise<Failure | undefined> {
  const field = sort.replace(/^-/, '');
  const reader = createFieldReader(ctx, route, field);
  await reader.load(seen);
  const values = seen.map(reader.valueOf);
  // A field the list does not answer: each value against the last one read before it, so that an object that tells
  // nothing (not read) does not hide a disorder of the two around it.
  const bridge = !isListAnswered(route, field);
  let last = 0;
  // A time is in order as an instant or as its text (a service sorting the text it stores): 05:00Z is before
  // 06:00Z however either is written (`10:00+05:00`), and no service is failed for either.
  const instant = route.resource && getField(route.resource, field)?.type === 'datetime' ? (x: string) => Date.parse(x) : undefined;
  for (let i = 1; i < values.length; i++) {
    const a = values[bridge ? last : i - 1] as string | number | null;
    const b = values[i] as string | number | null;
    if (bridge && b !== undefined) last = i;
    if (a === null || b === null || a === undefined || b === undefined) continue;
    // The format states no collation: text is in order by code unit or by locale (a database's collation).
    const after = (x: string | number, y: string | number): boolean =>
      typeof x === 'string' && typeof y === 'string' ? x > y && x.localeCompare(y) > 0 && !(instant && instant(x) <= instant(y)) : x > y;
    if (sort.startsWith('-') ? after(b, a) : after(a, b))
      return {
        ...ctx.failure(route.operation.id, `items ordered by ${sort}`, route.operation.pointer, req, `${JSON.stringify(a)} before ${JSON.stringify(b)}`),
        curl: ctx.client.curlPages(pages, i, `${JSON.stringify(b)} after ${JSON.stringify(a)}`),
      };
  }
  return undefined;
}

/**
 * Each filter of a list, with the value of an object listed: the answer holds only items with that value, and the
 * object itself where the page is not full (a full page may leave it for a later one). Where every object listed
 * has that value, one with another is made first, so that a filter ignored shows. A declared total counts the
 * matches.
 */
export async function checkListFilters(
  ctx: TestContext,
  route: OperationRoute,
  listed: Record<string, unknown>[],
  headers: Record<string, string>,
): Promise<Failure | undefined> {
  const o = route.operation;
  const sizeParam = getPageSizeParam(route);
  const size = getLargestPageSize(ctx, o);
  for (const name of o.filter) {
    // A field the list does not answer (answer_fields) is read from the objects as the run saw them whole; an item
    // the run never saw tells nothing of it, so is never the wrong one.
    const reader = createFieldReader(ctx, route, name);
    const valueOf = reader.valueOf;
    const answered = isListAnswered(route, name);
    await reader.load(listed);
    const whole = answered ? listed : listed.map((x) => ({ ...x, [name]: valueOf(x) }));
    const isOff = (x: Record<string, unknown>, v: string): boolean => {
      const got = valueOf(x);
      return (answered || got !== undefined) && String(got) !== v;
    };
    // The value most objects listed hold: made three at least (tieField) where a create writes the field, so that
    // the filtered list, paged two at a time, has a next page whose address must keep the filter.
    const held = whole.filter((x) => x[name] !== undefined && x[name] !== null);
    const counts = new Map<string, number>();
    for (const x of held) counts.set(JSON.stringify(x[name]), (counts.get(JSON.stringify(x[name])) ?? 0) + 1);
    const most = Math.max(0, ...counts.values());
    const sample = held.find((x) => counts.get(JSON.stringify(x[name])) === most);
    if (!sample) continue;
    const value = String(sample[name]);
    await varyField(ctx, route.resource!, name, whole);
    await tieField(ctx, route.resource!, name, whole);
    const req: TestRequest = {
      method: 'GET',
      path: ctx.pathOf(route, undefined, { [name]: value, ...(sizeParam !== undefined ? { [sizeParam]: String(size) } : {}) }),
      headers,
    };
    const res = await ctx.send(route, req);
    const items = res.status === 200 ? (getPageItems(route, res.body) as Record<string, unknown>[] | undefined) : undefined;
    if (!items) return ctx.failure(o.id, `a page filtered by ${name}`, o.pointer, req, res);
    await reader.load(items);
    const wrong = items.find((x) => isOff(x, value));
    if (wrong) return ctx.failure(o.id, `only items with ${name} = ${value}`, o.pointer, req, `an item with ${name} = ${JSON.stringify(valueOf(wrong))}`);
    if (items.length < size && !items.some((x) => JSON.stringify(objectKey(route.resource, x)) === JSON.stringify(objectKey(route.resource, sample))))
      return ctx.failure(o.id, `the matching object in a page filtered by ${name}`, o.pointer, req, `${describe(res).slice(0, 200)}`);
    // A value of the field's closed set (an enum's, a state's, a boolean's) that no object listed holds: the answer
    // holds none of them, so a filter ignored shows even where every object the run can make shares one value (a
    // read-only status only an action changes).
    const absent = getAbsentValue(ctx.model, route.resource!, name, listed);
    if (absent !== undefined) {
      const r3: TestRequest = {
        method: 'GET',
        path: ctx.pathOf(route, undefined, { [name]: String(absent), ...(sizeParam !== undefined ? { [sizeParam]: String(size) } : {}) }),
        headers,
      };
      const res3 = await ctx.send(route, r3);
      const got = res3.status === 200 ? (getPageItems(route, res3.body) as Record<string, unknown>[] | undefined) : undefined;
      if (!got) return ctx.failure(o.id, `a page filtered by ${name}`, o.pointer, r3, res3);
      await reader.load(got);
      const off = got.find((x) => isOff(x, String(absent)));
      if (off) return ctx.failure(o.id, `only items with ${name} = ${String(absent)}`, o.pointer, r3, `an item with ${name} = ${JSON.stringify(valueOf(off))}`);
    }
    // A page that holds every match: a declared total counts the matches, not every object.
    const p = pagingOf(route);
    // Two at a time, the filter holds on every page, not only the first (a query rebuilt for the next page without
    // its filter, an offset applied before the filter).
    if (p.style !== 'limit' && p.style !== 'none' && sizeParam !== undefined && items.length > 2) {
      let query: Record<string, string> | undefined = { [name]: value, [sizeParam]: '2' };
      // Each matching object once across the pages, and, where the page of the largest size held them all, every one
      // of them: a next page's address that drops the filter lands on the unfiltered list's positions, which may
      // hold matching objects only (the last ones made) — seen twice, or others never.
      const seen = new Set<string>();
      const told = route.resource?.identifier !== undefined;
      for (let page = 0; page < 50 && query !== undefined; page++) {
        const r2: TestRequest = { method: 'GET', path: ctx.pathOf(route, undefined, query), headers };
        const res2 = await ctx.send(route, r2);
        const got = res2.status === 200 ? (getPageItems(route, res2.body) as Record<string, unknown>[] | undefined) : undefined;
        if (!got) return ctx.failure(o.id, `a page filtered by ${name}`, o.pointer, r2, res2);
        await reader.load(got);
        const off = got.find((x) => isOff(x, value));
        if (off)
          return ctx.failure(
            o.id,
            `only items with ${name} = ${value}, on every page`,
            o.pointer,
            r2,
            `page ${page + 1} (2 a page) holds an item with ${name} = ${JSON.stringify(valueOf(off))}`,
          );
        if (told)
          for (const x of got) {
            const key = JSON.stringify(objectKey(route.resource, x));
            if (seen.has(key))
              return ctx.failure(
                o.id,
                `each item with ${name} = ${value} once across its pages`,
                o.pointer,
                r2,
                `page ${page + 1} (2 a page) holds ${key} again`,
              );
            seen.add(key);
          }
        const step = nextQuery(route, query, res2, got, 2);
        if (step.problem !== undefined) return ctx.failure(o.id, 'a Link header exactly while another page exists', o.pointer, r2, step.problem);
        query = step.next;
      }
      const missed =
        told && items.length < size && query === undefined ? items.find((x) => !seen.has(JSON.stringify(objectKey(route.resource, x)))) : undefined;
      if (missed)
        return ctx.failure(
          o.id,
          `every item with ${name} = ${value} on its pages (2 a page), as one page of ${size} lists them`,
          o.pointer,
          req,
          `${JSON.stringify(objectKey(route.resource, missed))} on no page`,
        );
    }
    if (p.totalHeader !== undefined && items.length < size) {
      const counted = totalHeaderProblem(res, p.totalHeader);
      if (counted !== items.length)
        return ctx.failure(
          o.id,
          `the \`${p.totalHeader}\` header equal to the objects with ${name} = ${value}`,
          o.pointer,
          req,
          typeof counted === 'string' ? counted : `${counted}, but ${items.length} listed`,
        );
    }
    const counted = getListTotal(route, res);
    const total = counted !== undefined && p.style !== 'limit' && items.length < size ? counted.value : items.length;
    if (total !== items.length)
      return ctx.failure(
        o.id,
        `the total \`${counted!.name}\` equal to the objects with ${name} = ${value}`,
        o.pointer,
        req,
        `${String(total)}, but ${items.length} listed`,
      );
  }
  return undefined;
}

/**
 * Whether an answered object is told apart from every other: by its identifier, else by a unique field or a unique
 * key it fills. Without one (a Lease of no name: `metadata.name` is optional), two objects may hold the same values
 * in every field an answer shows, and seeing the same twice is no duplicate.
 */
function isTold(resource: ResourceModel, obj: Record<string, unknown>): boolean {
  if (resource.identifier !== undefined) return true;
  if (resource.fields.some((f) => f.unique === true && obj[f.name] !== undefined && obj[f.name] !== null)) return true;
  return (resource.uniqueKeys ?? []).some((k) => k.every((path) => getValueAt(obj, path) !== undefined && getValueAt(obj, path) !== null));
}

/**
 * A list whose path binds fields (\`bind\`: the registrations of /events/{eventId}/registrations) answers only objects
 * holding the path's values: the first item holding another, undefined when none does (or the path does not match).
 */
export function outsidePath(route: OperationRoute, path: string, items: readonly unknown[]): { expected: string; actual: string } | undefined {
  const bindings = route.operation.bindings ?? [];
  if (bindings.length === 0) return undefined;
  const names: string[] = [];
  const re = new RegExp(
    `^${route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{([^{}]*)\\?\}/g, (_, n: string) => (names.push(n), '([^/?]+)'))}(?:\\?|$)`,
  );
  const m = re.exec(path);
  if (!m) return undefined;
  const params = Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)]));
  for (const item of items) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
    const held = item as Record<string, unknown>;
    for (const b of bindings) {
      const v = getValueAt(held, b.field);
      if (v !== undefined && v !== null && params[b.param] !== undefined && String(v) !== params[b.param])
        return { expected: `only items whose ${b.field} is ${params[b.param]}, as the path says`, actual: `an item whose ${b.field} is ${JSON.stringify(v)}` };
    }
  }
  return undefined;
}

/**
 * The list's copy of an object against what a read of it just answered (`read`): after a change a read shows, a
 * list still showing the old values (a list cache not invalidated, a stale copy) is a fault. Found by its identifier,
 * paging (bounded by LISTED_PAGES). Compared as a read is with a create's answer (fields both hold), but for
 * read-only times other than a create time (an updated_at the service may restamp). Undefined when they agree, or
 * when the list cannot be walked or does not show the object (another check's concern).
 */
export async function listedCopyMismatch(
  ctx: TestContext,
  resource: ResourceModel,
  read: Record<string, unknown>,
): Promise<{ req: TestRequest; expected: string; actual: string } | undefined> {
  const idName = resource.identifier;
  if (!idName || read[idName] === undefined) return undefined;
  const id = sortedJson(read[idName]);
  // Every list of the resource: a service may refresh one (\`/tickets\`) and not another (\`/queues/{queueId}/tickets\`).
  for (const list of ctx.routes.filter((r) => r.operation.action === 'list' && r.resource?.name === resource.name)) {
    // A list whose path names what no field binds (a parent it does not say how to find) is left.
    if (ctx.idParams(list).length > 0) continue;
    const headers = await ctx.authFor(list.operation.auth).catch(() => undefined);
    if (!headers) continue;
    // The scope its path binds, from the object itself: the page holding it is its own parent's.
    const params: Record<string, string> = {};
    for (const b of list.operation.bindings ?? []) {
      const v = getValueAt(read, b.field);
      if (typeof v === 'string' || typeof v === 'number') params[b.param] = String(v);
    }
    let listed: Record<string, unknown> | undefined;
    const req = await pageThrough(
      ctx,
      list,
      headers,
      (items) => {
        listed = items.find((x) => x !== null && typeof x === 'object' && sortedJson(x[idName]) === id);
        return listed !== undefined;
      },
      params,
    );
    if (!req || !listed) continue;
    const copy = listed;
    const differs = resource.fields.find(
      (f) =>
        isAnswered(resource, f.name) &&
        !(f.readOnly && f.type === 'datetime' && f.generated !== 'create_time') &&
        Object.hasOwn(read, f.name) &&
        Object.hasOwn(copy, f.name) &&
        sortedJson(read[f.name]) !== sortedJson(copy[f.name]),
    );
    if (!differs) continue;
    return {
      req,
      expected: `the list shows ${resource.name} ${String(read[idName])} as a read does (${differs.name}: ${JSON.stringify(read[differs.name])?.slice(0, 120)})`,
      actual: `${list.operation.id} shows ${differs.name}: ${JSON.stringify(copy[differs.name])?.slice(0, 120)}`,
    };
  }
  return undefined;
}
