import { createHmac, timingSafeEqual } from 'node:crypto';
import type { KeysetPosition } from './storage/storage-types.js';

// Cursors are opaque to clients and tamper-evident: base64url(JSON) + "." + HMAC over it, bound to
// the query they page through, so a cursor cannot be edited or replayed against another query.

interface CursorPayload {
  /** The last row's sort value and identifier. */
  p: KeysetPosition;
  /** A digest of the sort and filters the cursor belongs to. */
  q: string;
}

export interface CursorCodec {
  encode(position: KeysetPosition, query: string): string;
  /** The position, or undefined when the cursor is malformed, forged, or from another query. */
  decode(cursor: string, query: string): KeysetPosition | undefined;
}

export function createCursorCodec(secret: string): CursorCodec {
  const sign = (data: string) => createHmac('sha256', secret).update(data).digest('base64url').slice(0, 22);
  // A list's query (its filters and sort, the owner among them) repeats from page to page and request to
  // request: its digest is kept rather than recomputed, one HMAC less per page.
  const digests = new Map<string, string>();
  const digest = (query: string) => {
    let d = digests.get(query);
    if (d === undefined) {
      d = createHmac('sha256', secret).update(`q:${query}`).digest('base64url').slice(0, 11);
      if (digests.size >= 10_000) digests.clear();
      digests.set(query, d);
    }
    return d;
  };
  return {
    encode(position, query) {
      const data = Buffer.from(JSON.stringify({ p: position, q: digest(query) } satisfies CursorPayload)).toString('base64url');
      return `${data}.${sign(data)}`;
    },
    decode(cursor, query) {
      if (cursor.length > 2048) return undefined;
      const dot = cursor.indexOf('.');
      if (dot <= 0) return undefined;
      const data = cursor.slice(0, dot);
      const mac = Buffer.from(cursor.slice(dot + 1));
      const expected = Buffer.from(sign(data));
      if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) return undefined;
      try {
        const payload = JSON.parse(Buffer.from(data, 'base64url').toString('utf8')) as CursorPayload;
        if (payload.q !== digest(query) || typeof payload.p !== 'object' || payload.p === null) return undefined;
        return payload.p;
      } catch {
        return undefined;
      }
    },
  };
}
