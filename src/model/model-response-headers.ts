// The headers of an operation's success answer: the one derivation the OpenAPI export, the nine-part document, the
// runtime and the contract tester read (docs/format.md, "Response headers"). The format's own (Location of a create,
// Link of a list that says `link: true`, the total of one that names `total_header`) and the spec's
// `response_headers`, one list per route.

import { answersETag, getCreateLocation, LINK_HEADER, type OperationRoute } from './model-routes.js';
import type { Condition } from '../spec/spec-types.js';
import type { ErrorCodeModel, ParameterModel, ServiceModel } from './model-types.js';

/** One header of a success answer. */
export interface RouteResponseHeader {
  name: string;
  /** `location`, `link`, `total`, `etag` (`etag: true`): the format's, sent by the service; `declared`: the spec's `response_headers`. */
  source: 'location' | 'link' | 'total' | 'etag' | 'declared';
  /** Every success answer carries it (Link is absent on the last page, so never required; a total is on every page). */
  required: boolean;
  /** location: the path template the header names. */
  location?: string;
  /** declared: the header as written. */
  header?: ParameterModel;
}

/**
 * The header `serve` (with --allow-gaps) puts on a built-in action's answers when its resource has fields the service
 * sets by a rule the spec does not state (`source: service`): their names, comma-separated. The runtime has no value
 * for them and its answers leave them out, a named gap; the contract tester reads the header as the spec's gap, as it
 * reads a 501, and does not fail the answer for leaving them out. A service that does not send it is held to them.
 */
export const UNSET_FIELDS_HEADER = 'Servicespec-Unset-Fields';

/**
 * The header `serve` (with --allow-gaps) puts on its built-in answer to a condition the spec declares no error code
 * for (a named gap: malformed JSON where no code says `validation`): the condition's name. The answer is none of the
 * spec's codes; the contract tester reads the header as the spec's gap and does not hold the answer against the
 * codes, where it names a condition the spec indeed does not declare, under that condition's built-in status. A
 * service that does not send it (a hand-written one) is judged by the spec's codes alone.
 */
export const UNDECLARED_CONDITION_HEADER = 'Servicespec-Undeclared-Condition';

/**
 * Response header names the service writes itself (lowercase): a spec cannot declare them (`response-header-reserved`).
 * Location and Link are the format's on a create and on a list (getReservedResponseHeader); a custom operation's
 * handler may set them.
 */
export const DERIVED_RESPONSE_HEADERS: ReadonlyMap<string, string> = new Map([
  ['content-type', 'the media type of the answer'],
  ['content-length', 'the transport'],
  ['transfer-encoding', 'the transport'],
  ['connection', 'the transport'],
  ['x-request-id', 'the request id the service sends on every answer'],
  ['ratelimit', 'the rate-limit headers (limits.rate)'],
  ['ratelimit-policy', 'the rate-limit headers (limits.rate)'],
  ['retry-after', "the service's Retry-After"],
  ['idempotent-replayed', 'the idempotency replay marker'],
  // serve's own markers of a named gap: a spec or handler sending them would make the tester excuse its answers.
  ['servicespec-unset-fields', "serve's marker of the fields a named gap leaves out"],
  ['servicespec-undeclared-condition', "serve's marker of its answer to a condition no code declares"],
]);

/** Why an operation cannot declare a response header of this name, or undefined when it can. */
export function getReservedResponseHeader(action: string, name: string): string | undefined {
  const key = name.toLowerCase();
  if (key === 'location' && action === 'create') return "the format's Location of a create (the path of its read operation)";
  if (key === 'link' && action === 'list') return "the format's Link of a list (`paging.link`)";
  return DERIVED_RESPONSE_HEADERS.get(key);
}

const cache = new WeakMap<OperationRoute, readonly RouteResponseHeader[]>();

/** The headers of a route's success answer: the format's first, then the declared ones in the order written. */
export function getResponseHeaders(model: ServiceModel, route: OperationRoute): readonly RouteResponseHeader[] {
  let out = cache.get(route);
  if (out) return out;
  const list: RouteResponseHeader[] = [];
  const location = getCreateLocation(model, route);
  if (location !== undefined) list.push({ name: 'Location', source: 'location', required: true, location });
  if (answersETag(route.resource, route.operation)) list.push({ name: 'ETag', source: 'etag', required: true });
  if (route.operation.paging?.link === true) list.push({ name: LINK_HEADER, source: 'link', required: false });
  const total = route.operation.paging?.totalHeader;
  if (total !== undefined) list.push({ name: total, source: 'total', required: true });
  for (const h of route.operation.responseHeaders) list.push({ name: h.name, source: 'declared', required: !h.optional, header: h });
  out = Object.freeze(list);
  cache.set(route, out);
  return out;
}

/**
 * A declared header the service sends itself: one with a `default` (sent when the handler sets none). Every other
 * declared header only a custom operation's handler can set.
 */
export function isSentByService(h: ParameterModel): boolean {
  return h.hasDefault;
}

/** A declared header's value as text on the wire: an array's values joined with `, ` (RFC 9110 §5.6.1). */
export function formatHeaderValue(value: unknown): string {
  return Array.isArray(value) ? value.map(String).join(', ') : String(value);
}

/**
 * Reads a declared header's text back to its value (the inverse of formatHeaderValue); throws an Error saying what
 * the value must be. The runtime (a handler's header) and the tester (an answer's header) read headers alike.
 */
export function readHeaderText(h: Pick<ParameterModel, 'type' | 'values' | 'items'>, text: string): unknown {
  if (h.type === 'array') {
    const parts = text.split(',').map((t) => t.trim());
    return h.items ? parts.map((t) => readScalar(h.items!, t)) : parts;
  }
  return readScalar(h, text);
}

function readScalar(h: Pick<ParameterModel, 'type' | 'values'>, raw: string): unknown {
  switch (h.type) {
    case 'integer':
    case 'number': {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n) || (h.type === 'integer' && !Number.isSafeInteger(n)))
        throw new Error(`must be ${h.type === 'integer' ? 'an integer' : 'a number'}`);
      return n;
    }
    case 'boolean':
      if (raw === 'true') return true;
      if (raw === 'false') return false;
      throw new Error('must be true or false');
    case 'enum': {
      const value = (h.values ?? []).find((v) => String(v) === raw);
      if (value === undefined) throw new Error(`must be one of ${(h.values ?? []).join(', ')}`);
      return value;
    }
    default:
      return raw;
  }
}

/**
 * Headers of error answers the service sends itself for some conditions (lower-case name → the conditions): a code
 * answering one of them may declare the header and the service's value is the declared one's
 * (docs/format.md, "Headers of error answers").
 */
export const KNOWN_ERROR_HEADERS: ReadonlyMap<string, readonly Condition[]> = new Map<string, readonly Condition[]>([
  ['retry-after', ['rate_limited', 'unavailable', 'idempotency_in_progress']],
  ['www-authenticate', ['missing_credential', 'invalid_credential', 'expired_credential']],
]);

/** Whether the service sends a declared header of an error code's answers: it knows it for the code's conditions, or it has a default. */
export function isErrorHeaderSent(code: Pick<ErrorCodeModel, 'when'> | undefined, h: ParameterModel): boolean {
  return h.hasDefault || (code !== undefined && isErrorHeaderKnown(h.name, code.when));
}

/** Whether the service writes a header of this name itself on every answer of a code answering `when` (none: no). */
export function isErrorHeaderKnown(name: string, when: readonly Condition[]): boolean {
  const known = KNOWN_ERROR_HEADERS.get(name.toLowerCase());
  return known !== undefined && when.length > 0 && when.every((c) => known.includes(c));
}

/** Why an error answer cannot declare a header of this name (the service writes it for its own reason), or undefined. */
export function getReservedErrorHeader(name: string): string | undefined {
  const key = name.toLowerCase();
  return KNOWN_ERROR_HEADERS.has(key) ? undefined : DERIVED_RESPONSE_HEADERS.get(key);
}
