// The headers of an OpenAPI success response, read into the operation's `response_headers` (docs/import.md,
// "Response headers"); servicespec's own export carries them as written in x-servicespec-operation instead. The ones the format writes itself are not declared again: a create's Location (when the
// resource has a read operation; endpoints settle that once every operation is known), a list's Link and total, the
// service's own (Content-Type, X-Request-Id, the rate-limit headers). Whatever is not kept is said, by pointer.

import { getReservedErrorHeader, getReservedResponseHeader, isErrorHeaderKnown, KNOWN_ERROR_HEADERS } from '../model/model-response-headers.js';
import { ETAG_ANSWER_ACTIONS } from '../model/model-routes.js';
import type { Action, Condition, ParameterSpec } from '../spec/spec-types.js';
import { joinPointer } from '../util/util-json-pointer.js';
import { isObject, report, resolve, type Json } from './import-schema.js';
import type { Diagnostic } from '../diagnostics/diagnostics-catalogue.js';

interface HeaderContext {
  root: Json;
  version: '3.0' | '3.1';
  file: string;
  diagnostics: Diagnostic[];
}

export interface ResponseHeaderSource {
  operation: string;
  action: Action;
  /** The list reads a Link header (`paging.link`). */
  link: boolean;
  /** A list's paging style as read: a Link header of a style with no next page (limit, none) has nowhere to go. */
  listStyle?: string;
  /** The list's total header (`paging.total_header`), the format's to write: not declared again. */
  totalHeader?: string | undefined;
  /** The success response's `headers` and their pointer. */
  headers: Json;
  pointer: string;
  /** Reads one header as a parameter (its schema, description, required, example, deprecated); undefined when dropped (reported). */
  toParameter: (use: { p: Json; pointer: string; name: string; where: string; label: string }) => ParameterSpec | undefined;
}

export interface ImportedResponseHeaders {
  headers?: Record<string, ParameterSpec>;
  /** A create's Location: kept as the format's when the resource has a read operation, else reported by the caller. */
  location?: string;
  /** An ETag on an answer of one object: its resource takes conditional requests (`etag: true`), the format's header. */
  etag?: true;
}

export function importResponseHeaders(ctx: HeaderContext, src: ResponseHeaderSource): ImportedResponseHeaders {
  const out: ImportedResponseHeaders = {};
  const kept: Record<string, ParameterSpec> = {};
  const seen = new Set<string>();
  for (const [name, raw] of Object.entries(src.headers)) {
    const pointer = joinPointer(src.pointer, name);
    const label = `operation ${src.operation}: response header \`${name}\``;
    const key = name.toLowerCase();
    // OpenAPI ignores a response header named Content-Type; the media type says it.
    if (key === 'content-type') continue;
    if (key === 'location' && src.action === 'create') {
      out.location = pointer;
      continue;
    }
    if (key === 'link' && src.action === 'list' && src.link) continue;
    if (key === 'link' && src.action === 'list' && (src.listStyle === 'limit' || src.listStyle === 'none')) {
      const reason = `the list is read as paging style ${src.listStyle}, which has no next page (its other paging parameters, dropped, are none the format reads: docs/import.md, "Lists")`;
      report(ctx, 'import-dropped', { item: label, reason }, pointer);
      continue;
    }
    if (key === 'etag' && ETAG_ANSWER_ACTIONS.has(src.action)) {
      out.etag = true;
      continue;
    }
    if (src.action === 'list' && key === src.totalHeader?.toLowerCase()) continue;
    const reserved = getReservedResponseHeader(src.action, name);
    if (reserved !== undefined) {
      report(ctx, 'import-dropped', { item: label, reason: `the service writes it itself (${reserved})` }, pointer);
      continue;
    }
    if (seen.has(key)) {
      report(ctx, 'import-dropped', { item: label, reason: 'another response header of the operation has the same name in another case' }, pointer);
      continue;
    }
    const node = resolve(ctx, raw, pointer).node;
    if (!isObject(node)) continue;
    const p = src.toParameter({ p: node, pointer, name, where: 'header', label });
    if (p === undefined) continue;
    if (src.action !== 'custom' && p.optional !== true && p.default === undefined) {
      report(
        ctx,
        'import-dropped',
        { item: label, reason: `it is required, and a built-in ${src.action} action cannot set a header (only a custom operation's handler can)` },
        pointer,
      );
      continue;
    }
    seen.add(key);
    kept[name] = p;
  }
  if (Object.keys(kept).length > 0) out.headers = kept;
  return out;
}

export interface ErrorHeaderSource {
  /** How diagnostics name the answer: `operation getPet: the 429 response`. */
  label: string;
  headers: Json;
  pointer: string;
  toParameter: ResponseHeaderSource['toParameter'];
}

/**
 * A required error header with no default, read before its code's conditions are chosen: where it came from, for
 * settleErrorHeaders to say it when the service cannot always send it.
 */
const unsettled = new WeakMap<ParameterSpec, { label: string; pointer: string }>();

/**
 * The headers of an OpenAPI error response (or `default`), read into an error code's `headers` (errors.headers for
 * `default`): docs/import.md, "Headers of error answers". One the service writes itself is dropped; a required one
 * stays required until its code's conditions are known (settleErrorHeaders).
 */
export function importErrorHeaders(ctx: HeaderContext, src: ErrorHeaderSource): Record<string, ParameterSpec> | undefined {
  const kept: Record<string, ParameterSpec> = {};
  const seen = new Set<string>();
  for (const [name, raw] of Object.entries(src.headers)) {
    const pointer = joinPointer(src.pointer, name);
    const label = `${src.label}: header \`${name}\``;
    const key = name.toLowerCase();
    if (key === 'content-type') continue;
    const reserved = getReservedErrorHeader(name);
    if (reserved !== undefined || seen.has(key)) {
      const reason = reserved !== undefined ? `the service writes it itself (${reserved})` : 'another header of the answer has the same name in another case';
      report(ctx, 'import-dropped', { item: label, reason }, pointer);
      continue;
    }
    const node = resolve(ctx, raw, pointer).node;
    if (!isObject(node)) continue;
    const p = src.toParameter({ p: node, pointer, name, where: 'header', label });
    if (p === undefined) continue;
    if (p.optional !== true && p.default === undefined) unsettled.set(p, { label, pointer });
    seen.add(key);
    kept[name] = p;
  }
  return Object.keys(kept).length > 0 ? kept : undefined;
}

/**
 * Once an imported code's conditions are chosen: a required header the service sends itself for every one of them
 * (a 429's Retry-After answering rate_limited alone) stays required; another (errors.headers, `when` undefined: every
 * error answer's) is kept optional, said, since the service could not always send it (check's error-header-invalid).
 */
export function settleErrorHeaders(ctx: HeaderContext, headers: Record<string, ParameterSpec> | undefined, when: readonly Condition[] | undefined): void {
  for (const [name, p] of Object.entries(headers ?? {})) {
    const from = unsettled.get(p);
    if (from === undefined) continue;
    unsettled.delete(p);
    if (when !== undefined && isErrorHeaderKnown(name, when)) continue;
    const known = KNOWN_ERROR_HEADERS.get(name.toLowerCase());
    const reason =
      when === undefined
        ? 'every error answer would carry it, and the service knows its value for none of them'
        : known === undefined
          ? 'the service does not know its value, and the document states no default'
          : `the service sends it itself only on ${known.join(', ')}, and the imported code answers ${when.length > 0 ? when.join(', ') : 'no condition'}`;
    report(ctx, 'import-approximated', { item: from.label, as: 'an optional header', reason }, from.pointer);
    p.optional = true;
  }
}
