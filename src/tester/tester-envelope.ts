// endpoints.envelope: a success answer of an enveloped operation (docs/format.md, "Response envelopes") is read as
// its data field — every check sees the object or the page, as without an envelope — and the envelope itself is held
// to its declared fields and to the value each carries: the status, its reason phrase, the request id the answer's
// X-Request-Id names, and for a list the objects counted, the total, the offset, the page size and the page asked for,
// the number of pages, and the addresses of this page and the first, next and previous ones; and each constant (a
// field with a `default`) to its value.

import { STATUS_CODES } from 'node:http';
import { getEnvelopeConstants, getEnvelopeField, getEnvelopeValues, listHasValue } from '../model/model-envelope.js';
import { isDeepStrictEqual } from 'node:util';
import { DEFAULT_PAGING, getFirstPage, getPagingParamName } from '../model/model-defaults.js';
import { isSuccessAnswer, type OperationRoute } from '../model/model-routes.js';
import { getShapeSchema } from '../model/model-schemas.js';
import type { PagingModel } from '../model/model-types.js';
import type { TestContext } from './tester-context.js';
import { getAskedBounds, getPagePosition, getUnaskedParameter, type AskedBounds } from './tester-page-address.js';
import type { TestRequest, TestResponse } from './tester-http.js';

/** Replaces an enveloped success answer's body by its data field, keeping the whole answer as `envelope`. */
export function unwrapEnvelope(route: OperationRoute, res: TestResponse): void {
  const e = route.operation.envelope;
  if (!e || !isSuccessAnswer(route, res.status) || res.envelope !== undefined) return;
  const body: unknown = res.body;
  res.envelope = body;
  if (typeof body === 'object' && body !== null && !Array.isArray(body) && Object.hasOwn(body, e.data)) res.body = (body as Record<string, unknown>)[e.data];
}

/**
 * Where a list's total is: a page's field (paging.total) or an envelope's (\`total\`, beside a bare array or a page);
 * with the value an answer holds there. Undefined when the list declares none.
 */
export function getListTotal(route: OperationRoute, res: TestResponse): { name: string; value: unknown } | undefined {
  const o = route.operation;
  const p = o.paging ?? DEFAULT_PAGING;
  if (p.total !== undefined && p.body === 'envelope') return { name: p.total, value: (res.body as Record<string, unknown> | undefined)?.[p.total] };
  const v = o.envelope ? getEnvelopeValues(o, o.envelope).find((x) => x.source === 'total') : undefined;
  return v ? { name: v.path.join('.'), value: valueAt(res.envelope, v.path) } : undefined;
}

/**
 * The next page's cursor a list's response envelope carries (its `next` value: Kubernetes' `metadata.continue` beside
 * a bare array); undefined where the envelope has none, or on the last page.
 */
export function getEnvelopeCursor(route: OperationRoute, res: TestResponse): string | undefined {
  const o = route.operation;
  const v = o.envelope ? getEnvelopeValues(o, o.envelope).find((x) => x.source === 'next') : undefined;
  const at = v ? valueAt(res.envelope, v.path) : undefined;
  return typeof at === 'string' && at.length > 0 ? at : undefined;
}

/** The value at a dotted path of an envelope's members (`metadata.continue`); undefined where a step is missing. */
function valueAt(whole: unknown, path: readonly string[]): unknown {
  let at = whole;
  for (const name of path) at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[name] : undefined;
  return at;
}

/** What differs between an enveloped answer and its envelope; undefined when it matches. */
export function envelopeMismatch(ctx: TestContext, route: OperationRoute, req: TestRequest, res: TestResponse): string | undefined {
  const o = route.operation;
  const e = o.envelope;
  if (!e) return undefined;
  const whole = res.envelope;
  if (typeof whole !== 'object' || whole === null || Array.isArray(whole)) return 'an answer that is not the envelope object';
  const members = whole as Record<string, unknown>;
  if (!Object.hasOwn(members, e.data)) return `an envelope without its data field \`${e.data}\``;
  const rest = { ...members };
  delete rest[e.data];
  const shape = ctx.mismatch(getShapeSchema(ctx.model, { fields: e.fields, list: false }, 'response'), rest);
  if (shape !== undefined) return `the envelope's fields: ${shape}`;
  const query = new URLSearchParams(req.path.includes('?') ? req.path.slice(req.path.indexOf('?') + 1) : '');
  const paging = o.paging ?? DEFAULT_PAGING;
  const style = paging.style;
  const items = Array.isArray(res.body) ? res.body.length : undefined;
  const asked = (name: string): number | undefined => (query.has(name) ? Number(query.get(name)) : undefined);
  for (const v of getEnvelopeValues(o, e)) {
    if (o.action === 'list' && !listHasValue(style, v.source)) continue;
    const at = valueAt(members, v.path);
    const path = v.path.join('.');
    if (at === undefined) {
      if (getEnvelopeField(e, v.path)?.optional === true) continue;
      return `an envelope without \`${path}\` (${v.source})`;
    }
    const say = (wanted: string) => `\`${path}\` ${JSON.stringify(at)}, not ${wanted}`;
    switch (v.source) {
      case 'status':
        if (at !== res.status) return say(`the answer's status ${res.status}`);
        break;
      case 'status_text':
        if (STATUS_CODES[res.status] !== undefined && at !== STATUS_CODES[res.status])
          return say(`the reason phrase of ${res.status}, ${STATUS_CODES[res.status]!}`);
        break;
      case 'request_id': {
        const id = res.headers.get('x-request-id');
        if (typeof at !== 'string' || (id !== null && at !== id)) return say(id !== null ? `the answer's X-Request-Id ${id}` : 'a request id');
        break;
      }
      case 'count':
        if (items !== undefined && at !== items) return say(`the ${items} objects in the answer`);
        break;
      case 'total':
        if (!Number.isInteger(at) || (at as number) < (items ?? 0)) return say('a count of every matching object');
        break;
      case 'offset': {
        const wanted = style === 'offset' ? (asked(getPagingParamName(paging, 'offset')) ?? 0) : style === 'page' ? undefined : 0;
        if (wanted !== undefined && at !== wanted) return say(`the offset asked for, ${wanted}`);
        if (!Number.isInteger(at) || (at as number) < 0) return say('an offset');
        break;
      }
      case 'limit': {
        const wanted = asked(getPagingParamName(paging, 'limit'));
        if (!Number.isInteger(at) || (at as number) < (items ?? 0) || (wanted !== undefined && (at as number) > wanted)) return say('the page size used');
        break;
      }
      case 'page': {
        const wanted = asked(getPagingParamName(paging, 'page')) ?? getFirstPage(paging);
        if (at !== wanted) return say(`the page asked for, ${wanted}`);
        break;
      }
      case 'next':
        if (at !== null && typeof at !== 'string') return say('a cursor or null');
        break;
      case 'pages': {
        const total = e.values.find((x) => x.source === 'total');
        const limit = e.values.find((x) => x.source === 'limit');
        const t = total ? valueAt(members, total.path) : undefined;
        const size = (limit ? valueAt(members, limit.path) : undefined) ?? asked(getPagingParamName(paging, 'limit'));
        if (!Number.isInteger(at) || (at as number) < 0) return say('a number of pages');
        if (Number.isInteger(t) && Number.isInteger(size) && (size as number) > 0 && at !== Math.ceil((t as number) / (size as number)))
          return say(`the number of pages (${String(t)} objects, ${String(size)} a page)`);
        break;
      }
      case 'self_link':
      case 'first_link':
      case 'next_link':
      case 'previous_link':
      case 'last_link': {
        const total = e.values.find((x) => x.source === 'total');
        const t = total ? valueAt(members, total.path) : undefined;
        const problem = pageAddressProblem(ctx, paging, req, v.source, at, items, Number.isInteger(t) ? (t as number) : undefined, getAskedBounds(ctx, o));
        if (problem !== undefined) return say(problem);
        break;
      }
    }
  }
  // A constant (a field's default: `success: true`) is on every answer, as declared.
  for (const c of getEnvelopeConstants(e)) {
    const at = valueAt(members, c.path);
    if (!isDeepStrictEqual(at, c.value))
      return `\`${c.path.join('.')}\` ${at === undefined ? 'left out' : JSON.stringify(at)}, not its constant ${JSON.stringify(c.value)}`;
  }
  return undefined;
}

/**
 * What is wrong with a page's address an envelope carries (its self, first, next or previous page's): not a whole
 * address of the list's path asking what the request asked, or naming another position than that page's (the
 * first page's position may be left out); undefined when it is right. Null only where no such page is.
 */
function pageAddressProblem(
  ctx: TestContext,
  paging: Omit<PagingModel, 'declared'>,
  req: TestRequest,
  source: 'self_link' | 'first_link' | 'next_link' | 'previous_link' | 'last_link',
  at: unknown,
  items: number | undefined,
  total: number | undefined,
  bounds: AskedBounds,
): string | undefined {
  const where = getPagePosition(ctx, paging, req);
  const { asked, position, firstAt, now, size } = where;
  const numbered = paging.style === 'offset' || paging.style === 'page';
  // A next page's address is null on the last page, which a full page may be too.
  if (at === null) {
    if (source === 'next_link') return undefined;
    if (source === 'previous_link') return now === firstAt ? undefined : "the previous page's address (null on the first page only)";
    return "a page's address";
  }
  if (typeof at !== 'string') return "a page's address";
  let url: URL;
  try {
    url = new URL(at);
  } catch {
    return 'a whole address (a scheme and a host)';
  }
  if (url.pathname !== asked.pathname) return `an address of the list's path ${asked.pathname}`;
  const unasked = getUnaskedParameter(where, url, bounds);
  if (unasked !== undefined) return `an address asking ${unasked[0]}=${unasked[1]} as the request did`;
  const said = url.searchParams.get(position);
  if (source === 'self_link') return said === asked.searchParams.get(position) ? undefined : `this page's address (${position} as the request asked it)`;
  if (!numbered) return source === 'first_link' && said !== null ? "the first page's address (no cursor)" : undefined;
  if (source === 'next_link' && Number.isInteger(size) && items !== undefined && items < size) return 'null on a page short of the page size';
  if (source === 'previous_link' && now === firstAt) return 'null on the first page';
  // The last page: the total over the page size, rounded up (the first page when nothing matches).
  const before = total !== undefined && Number.isInteger(size) && size > 0 ? Math.max(Math.ceil(total / size), 1) - 1 : undefined;
  const wanted =
    source === 'last_link'
      ? before === undefined
        ? undefined
        : String(paging.style === 'offset' ? before * size : before + firstAt)
      : source === 'first_link'
        ? String(firstAt)
        : source === 'next_link'
          ? String(paging.style === 'offset' ? now + (items ?? 0) : now + 1)
          : Number.isInteger(size)
            ? String(paging.style === 'offset' ? Math.max(0, now - size) : now - 1)
            : undefined;
  if (wanted === undefined) return undefined;
  return said === wanted || (said === null && wanted === String(firstAt))
    ? undefined
    : `the ${source.replace('_link', '')} page's address (${position}=${wanted})`;
}
