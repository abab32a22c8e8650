// A list page's addresses of other pages (paging.next_link and previous_link, an envelope's self_link, first_link,
// next_link, previous_link and last_link): where the request stands, and whether an address asks what the request
// asked. One reading for the page's own members (tester-judge.ts) and an envelope's (tester-envelope.ts).

import { getFirstPage, getPagingParamName, LIST_PARAMS } from '../model/model-defaults.js';
import { getPageSize } from '../model/model-lookup.js';
import type { OperationModel, PagingModel } from '../model/model-types.js';
import type { TestContext } from './tester-context.js';
import type { TestRequest } from './tester-http.js';

/** Where a list request stands: its address, its position's and page size's parameters, the first position, its own, the size asked. */
export interface PagePosition {
  asked: URL;
  /** The parameter naming the page's position: the offset, the page number, else the cursor. */
  position: string;
  sizeName: string;
  /** The first page's position: its number (style page), else 0. */
  firstAt: number;
  now: number;
  /** The page size the request asked (NaN when it asked none). */
  size: number;
}

export function getPagePosition(ctx: TestContext, paging: Omit<PagingModel, 'declared'>, req: TestRequest): PagePosition {
  const asked = new URL(ctx.client.url(req.path));
  const position =
    paging.style === 'offset'
      ? getPagingParamName(paging, 'offset')
      : paging.style === 'page'
        ? getPagingParamName(paging, 'page')
        : getPagingParamName(paging, 'cursor');
  const sizeName = getPagingParamName(paging, 'limit');
  const firstAt = paging.style === 'page' ? getFirstPage(paging) : 0;
  return {
    asked,
    position,
    sizeName,
    firstAt,
    now: Number(asked.searchParams.get(position) ?? firstAt),
    size: Number(asked.searchParams.get(sizeName) ?? Number.NaN),
  };
}

/** What of a request another page's address need not repeat: the default page size, a size over the largest, a sort of no value. */
export interface AskedBounds {
  defaultSize: number | undefined;
  maxSize: number | undefined;
  sort: { name: string; values: readonly string[] };
}

/** The operation's bounds for getUnaskedParameter. */
export function getAskedBounds(ctx: TestContext, o: OperationModel): AskedBounds {
  const sizes = getPageSize(ctx.model, o);
  return { defaultSize: sizes.default, maxSize: sizes.max, sort: { name: o.sortParam ?? LIST_PARAMS.sort, values: o.sortValues } };
}

/**
 * The first parameter the request asked that another page's address does not ask the same (its position aside; the
 * page size where the request asked the default, which Django REST Framework's addresses leave out, or more than the
 * largest, which a service clamping it writes as the size it used; a sort of none of the list's values, which a
 * service ignoring it need not carry on); undefined when it asks them all.
 */
export function getUnaskedParameter(at: PagePosition, url: URL, bounds: AskedBounds): [string, string] | undefined {
  for (const [name, value] of at.asked.searchParams) {
    if (name === at.position) continue;
    if (name === at.sizeName && !url.searchParams.has(name) && value === String(bounds.defaultSize)) continue;
    if (name === at.sizeName && bounds.maxSize !== undefined && Number(value) > bounds.maxSize) continue;
    if (name === bounds.sort.name && !bounds.sort.values.includes(value)) continue;
    if (url.searchParams.get(name) !== value) return [name, value];
  }
  return undefined;
}
