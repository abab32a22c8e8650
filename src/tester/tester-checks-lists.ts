import { DEFAULT_PAGING } from '../model/model-defaults.js';
import { objectKey } from './tester-context.js';
import { LINK_HEADER, LIST_PARAMS, type OperationRoute } from '../model/model-routes.js';
import type { PagingModel } from '../model/model-types.js';
import { describe, type TestContext } from './tester-context.js';
import type { TestRequest, TestResponse } from './tester-http.js';

// Lists that state their paging (docs/format.md, "List shapes"): the tester reads their answers by their own shape
// and pages through them the way their style says. Lists that do not state it are the format's cursor envelope,
// which tester-checks-states.ts pages through.

function pagingOf(route: OperationRoute): Omit<PagingModel, 'declared'> {
  return route.operation.paging ?? DEFAULT_PAGING;
}

/** Whether a list answers the format's own page `{ items, next_cursor }` paged by limit and cursor, with no Link header. */
export function isDefaultPaging(route: OperationRoute): boolean {
  const p = pagingOf(route);
  return (
    p.style === DEFAULT_PAGING.style &&
    p.body === DEFAULT_PAGING.body &&
    p.items === DEFAULT_PAGING.items &&
    p.next === DEFAULT_PAGING.next &&
    p.total === undefined &&
    !p.link
  );
}

/** The objects of a list answer in its declared shape, or undefined when the answer is not that shape. */
export function getPageItems(route: OperationRoute, body: unknown): unknown[] | undefined {
  const p = pagingOf(route);
  if (p.body === 'array') return Array.isArray(body) ? body : undefined;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const items = (body as Record<string, unknown>)[p.items];
  return Array.isArray(items) ? items : undefined;
}

/** The query parameter a list's page size is asked with (`limit`, or `per_page` in the page style); none for style none. */
export function getPageSizeParam(route: OperationRoute): string | undefined {
  const style = pagingOf(route).style;
  return style === 'none' ? undefined : style === 'page' ? LIST_PARAMS.perPage : LIST_PARAMS.limit;
}

/** The address of the next page from an RFC 8288 `Link` header (`<…>; rel="next"`), or undefined. */
function nextLink(res: TestResponse): string | undefined {
  const link = res.headers.get(LINK_HEADER);
  if (link === null) return undefined;
  for (const part of link.split(',')) {
    const m = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (m && /(^|;)\s*rel="?next"?\s*(;|$)/.test(m[2]!)) return m[1];
  }
  return undefined;
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
  const envelopeCursor = p.style === 'cursor' && p.body === 'envelope' ? (res.body as Record<string, unknown>)[p.next] : undefined;
  if (p.link) {
    if (p.style === 'cursor' && p.body === 'envelope' && (link !== undefined) !== (typeof envelopeCursor === 'string'))
      return { problem: `a Link header ${link !== undefined ? 'on the last page' : 'missing while a next page exists'}` };
    if (link === undefined) return {};
    if (p.style !== 'cursor' && items.length < size) return { problem: `a Link header on a page of ${items.length} items, short of ${size} (the last page)` };
    return { next: Object.fromEntries(new URLSearchParams(link.slice(link.indexOf('?') + 1))) };
  }
  if (p.style === 'cursor') return typeof envelopeCursor === 'string' ? { next: { ...query, [LIST_PARAMS.cursor]: envelopeCursor } } : {};
  if (items.length < size) return {};
  if (p.style === 'offset') return { next: { ...query, [LIST_PARAMS.offset]: String(Number(query[LIST_PARAMS.offset] ?? 0) + items.length) } };
  if (p.style === 'page') return { next: { ...query, [LIST_PARAMS.page]: String(Number(query[LIST_PARAMS.page] ?? 1) + 1) } };
  return {};
}

/**
 * Pages through every list that states its paging, with each sort, two objects a page: each object of the caller
 * once, none missing, a declared total equal to the number of objects, and a Link header present exactly while
 * another page exists (offset and page styles: absent once a page comes back short).
 */
export async function checkListShapes(ctx: TestContext): Promise<void> {
  for (const route of ctx.routes.filter((r) => r.operation.action === 'list' && r.resource && !isDefaultPaging(r))) {
    const o = route.operation;
    const resource = route.resource!;
    const p = pagingOf(route);
    await ctx.check('endpoints', 'endpoints.list-paging', o.id, async (scope) => {
      const headers = await ctx.authFor(o.auth);
      if (!headers) return scope.skip('no credential for this operation');
      while ((ctx.pool.get(resource.name)?.length ?? 0) < 5) {
        const made = await ctx.createObject(resource);
        if (!made || made.res.status >= 300) return scope.skip(`cannot create ${resource.name} objects to page through`);
      }
      const id = (x: unknown) => JSON.stringify(objectKey(resource, x as Record<string, unknown>));
      const mine = new Set((ctx.pool.get(resource.name) ?? []).map(id));
      const sizeParam = getPageSizeParam(route);
      // Style limit answers one page: ask for one big enough to hold the caller's objects.
      const size = p.style === 'limit' ? Math.min(ctx.model.limits?.pageSize?.max ?? 100, Math.max(mine.size, 1)) : 2;
      for (const sort of [undefined, ...o.sort.flatMap((s) => [s, `-${s}`])]) {
        const seen: unknown[] = [];
        const pages: { req: TestRequest; count: number }[] = [];
        let query: Record<string, string> | undefined = {
          ...(sizeParam !== undefined ? { [sizeParam]: String(size) } : {}),
          ...(sort ? { [LIST_PARAMS.sort]: sort } : {}),
        };
        let req: TestRequest | undefined;
        let total: unknown;
        for (let page = 0; page < 200 && query !== undefined; page++) {
          req = { method: 'GET', path: ctx.pathOf(route, undefined, query), headers };
          const res = await ctx.send(route, req);
          // A list without paging answers at most the largest page (docs/format.md): with more objects than that, its
          // declared validation refusal is the right answer, and there is nothing to page through.
          if (p.style === 'none' && res.status !== 200 && ctx.expectCondition(res, 'validation') === undefined)
            return scope.skip(`more ${resource.name} objects than a list without paging answers (limits.page_size.max)`);
          const items = res.status === 200 ? getPageItems(route, res.body) : undefined;
          if (!items)
            return scope.fail(ctx.failure(o.id, p.body === 'array' ? 'a page: a bare array' : `a page: an object with \`${p.items}\``, o.pointer, req, res));
          if (p.total !== undefined) {
            total = (res.body as Record<string, unknown>)[p.total];
            if (typeof total !== 'number') return scope.fail(ctx.failure(o.id, `the total in \`${p.total}\``, o.pointer, req, describe(res).slice(0, 200)));
          }
          seen.push(...items);
          pages.push({ req, count: items.length });
          if (p.style === 'limit' || p.style === 'none') break;
          const step = nextQuery(route, query, res, items, size);
          if (step.problem !== undefined) return scope.fail(ctx.failure(o.id, 'a Link header exactly while another page exists', o.pointer, req, step.problem));
          query = step.next;
        }
        if (!req) continue;
        const ids = seen.map(id);
        const dup = ids.find((x, i) => ids.indexOf(x) !== i);
        if (dup !== undefined)
          return scope.fail({
            ...ctx.failure(o.id, 'each object once across pages', o.pointer, req, `${dup} appears twice`),
            curl: ctx.client.curlPages(
              pages,
              ids.findIndex((x, i) => ids.indexOf(x) !== i),
              `${dup} again`,
            ),
          });
        const gap = [...mine].find((x) => !ids.includes(x));
        if (gap !== undefined && ctx.pool.get(resource.name)!.some((x) => id(x) === gap))
          return scope.fail({
            ...ctx.failure(o.id, 'every object of the caller across pages', o.pointer, req, `${gap} missing after ${seen.length} items`),
            curl: ctx.client.curlPages(pages, seen.length, `the last: ${gap} on none`),
          });
        if (p.total !== undefined && p.style !== 'limit' && total !== seen.length)
          return scope.fail({
            ...ctx.failure(o.id, `the total \`${p.total}\` equal to the objects listed`, o.pointer, req, `${String(total)}, but ${seen.length} listed`),
            curl: ctx.client.curlPages(pages, seen.length, `the last: ${seen.length} listed in all`),
          });
      }
    });
  }
}
