// Conditional requests (docs/format.md, "Conditional requests"): the ETag of a resource with `etag: true`, derived
// from the object as answered (no column, no migration), and the If-Match / If-None-Match comparisons (RFC 9110 §13).
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { ResourceModel } from '../model/model-types.js';
import { StoredJson, type Row } from './storage/storage-types.js';
import { ServiceError } from './runtime-errors.js';

/** The bytes of SHA-256 a tag keeps: 16, 22 base64url characters (128 bits). */
const ETAG_BYTES = 16;

/** A value in canonical JSON: object members by name, a stored JSON value as parsed, a bigint as its digits. */
function canonical(v: unknown): string {
  if (v instanceof StoredJson) return canonical(JSON.parse(v.text));
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return `[${v.map((x) => canonical(x === undefined ? null : x)).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    if (v instanceof Date) return JSON.stringify(v.toISOString());
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/**
 * The strong ETag of an object as answered (the runtime's present(row): write-only fields and the nulls an answer
 * leaves out are not in it): a quoted base64url of the first 16 bytes of SHA-256 of it in canonical JSON. The tag is
 * the representation's (RFC 9110 §8.8.3), never a hash of a secret.
 */
export function computeETag(answered: Record<string, unknown>): string {
  return `"${createHash('sha256').update(canonical(answered)).digest().subarray(0, ETAG_BYTES).toString('base64url')}"`;
}

/** The entity-tags of an If-Match / If-None-Match value: `*`, or each tag (weak ones marked); undefined when malformed. */
export function parseEntityTags(value: string): '*' | { weak: boolean; tag: string }[] | undefined {
  const text = value.trim();
  if (text === '*') return '*';
  const out: { weak: boolean; tag: string }[] = [];
  const re = /\s*(W\/)?("[\x21\x23-\x7e\x80-\xff]*")\s*(?:,|$)/y;
  let at = 0;
  while (at < text.length) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) return undefined;
    out.push({ weak: m[1] !== undefined, tag: m[2]! });
    at = re.lastIndex;
  }
  return out.length > 0 ? out : undefined;
}

function headerText(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** If-None-Match on a read: whether it matches the current tag (weak comparison; `*` matches any object): a 304. */
export function matchesIfNoneMatch(request: FastifyRequest, etag: string): boolean {
  const value = headerText(request, 'if-none-match');
  if (value === undefined) return false;
  const tags = parseEntityTags(value);
  return tags === '*' || (tags !== undefined && tags.some((t) => t.tag === etag));
}

/**
 * If-Match on a one-object change, compared in the change's transaction with the object as read for it: absent, the
 * change goes on (unless `required`: precondition_required); `*` matches any existing object; a list matches when one
 * of its strong tags is the current one (a weak tag never matches: RFC 9110 §13.1.1). No object (an upsert's create)
 * matches no If-Match. Otherwise precondition_failed, and nothing is changed.
 */
export function checkIfMatch(
  request: FastifyRequest,
  resource: ResourceModel,
  current: Row | undefined,
  required: boolean,
  etagOf: (row: Row) => string,
): void {
  const value = headerText(request, 'if-match');
  if (value === undefined) {
    if (required) throw new ServiceError('precondition_required', `a change of a ${resource.name} must send If-Match with the object's current ETag`);
    return;
  }
  const tags = parseEntityTags(value);
  if (current !== undefined) {
    if (tags === '*') return;
    if (tags !== undefined) {
      const etag = etagOf(current);
      if (tags.some((t) => !t.weak && t.tag === etag)) return;
    }
  }
  throw new ServiceError(
    'precondition_failed',
    current === undefined
      ? `no ${resource.name} has this identifier, so If-Match does not match`
      : `the ${resource.name} has changed: If-Match does not match its current ETag`,
  );
}
