import { isUtf8 } from 'node:buffer';
import sjson from 'secure-json-parse';
import { ServiceError } from './runtime-errors.js';

/** The nesting the runtime accepts when the spec declares no `limits.nesting_depth` (docs/runtime.md). */
export const BUILT_IN_NESTING_DEPTH = 64;

/** What the scan found that JSON.parse would let through silently changed (docs/runtime.md, "Request bodies"). */
interface ScanProblem {
  condition: 'malformed_request' | 'validation';
  message: string;
  pointer: string;
}

/** The result of one pass over a JSON text: its deepest nesting, and the first value it would alter. */
interface JsonScan {
  depth: number;
  problem?: ScanProblem;
}

function toPointer(path: readonly (string | number)[], top: number): string {
  let p = '';
  for (let i = 0; i <= top; i++) {
    const part = path[i];
    if (part === undefined || part === -1) continue;
    p += `/${typeof part === 'number' ? part : part.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  }
  return p;
}

/** A number literal in canonical decimal form (`-123e-2`), so two spellings of one value compare equal. */
function canonicalDecimal(s: string): string {
  let digits = '';
  let exp = 0;
  let dot = false;
  for (let i = s[0] === '-' ? 1 : 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      digits += s[i];
      if (dot) exp--;
    } else if (c === 46) dot = true;
    else {
      exp += Number(s.slice(i + 1));
      break;
    }
  }
  let start = 0;
  while (start < digits.length && digits.charCodeAt(start) === 48) start++;
  let end = digits.length;
  while (end > start && digits.charCodeAt(end - 1) === 48) {
    end--;
    exp++;
  }
  if (start === end) return '0';
  return `${s[0] === '-' ? '-' : ''}${digits.slice(start, end)}e${exp}`;
}

/**
 * Why a number literal would not be read back as sent, or undefined when it would: past the double range
 * (Infinity), below it (0), or with more significant digits than a double keeps (2^53 + 1 → 2^53). The number
 * read back is the shortest decimal that names the double (`String(value)`); it must be the number sent.
 */
function getNumberChange(token: string): string | undefined {
  // Up to 15 significant digits and no exponent: always kept (a double keeps 15 decimal digits).
  if (token.length <= 15) {
    let plain = true;
    for (let i = 0; i < token.length; i++) if ((token.charCodeAt(i) | 32) === 101) plain = false;
    if (plain) return undefined;
  }
  const value = Number(token);
  if (Number.isNaN(value)) return undefined; // not a JSON number: the parser refuses it
  if (!Number.isFinite(value)) return 'is too large to represent';
  const back = String(value);
  if (canonicalDecimal(token) === canonicalDecimal(back)) return undefined;
  return value === 0 ? 'is too small to represent (it would be read back as 0)' : `has more digits than can be kept (it would be read back as ${back})`;
}

/**
 * One pass over a JSON text, without recursion: the deepest bracket nesting (stopping once past `limit`, so a
 * 100,000-deep body is refused before any parser or validator recurses into it), and the first thing
 * `JSON.parse` would silently change: a duplicate key (the last would win), a lone surrogate (not a Unicode
 * scalar value, stored as invalid UTF-8), a number a double cannot hold exactly; and U+0000, which PostgreSQL
 * cannot store.
 */
export function scanJson(text: string, limit: number): JsonScan {
  let depth = 0;
  let max = 0;
  // Per open container: its keys so far (objects) or null (arrays), and the key or index being read.
  const keys: (Set<string> | null)[] = [];
  const path: (string | number)[] = [];
  let expectKey = false;
  let problem: ScanProblem | undefined;
  // The first problem is kept (set inline, not through a closure made on every call).
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const isKey = expectKey;
      const start = i;
      let escaped = false;
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 34) break;
        if (s === 92) {
          escaped = true;
          if (text.charCodeAt(i + 1) === 117) {
            const unit = parseInt(text.slice(i + 2, i + 6), 16);
            if (unit >= 0xd800 && unit <= 0xdbff && text.charCodeAt(i + 6) === 92 && text.charCodeAt(i + 7) === 117) {
              const low = parseInt(text.slice(i + 8, i + 12), 16);
              if (low >= 0xdc00 && low <= 0xdfff) {
                i += 11;
                continue;
              }
            }
            if (unit >= 0xd800 && unit <= 0xdfff)
              problem ??= {
                condition: 'malformed_request',
                message: `a string contains a lone surrogate (\\u${text.slice(i + 2, i + 6)}), which is not a Unicode character`,
                pointer: toPointer(path, depth - 1),
              };
            // PostgreSQL's text and jsonb cannot hold U+0000: refused on every storage, so a spec serves alike on both.
            else if (unit === 0)
              problem ??= {
                condition: 'validation',
                message: 'a string contains U+0000 (NUL), which the service does not store',
                pointer: toPointer(path, depth - 1),
              };
            i += 5;
          } else i++;
        } else if (s >= 0xd800 && s <= 0xdfff) {
          const next = text.charCodeAt(i + 1);
          if (s <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
          else
            problem ??= {
              condition: 'malformed_request',
              message: 'a string contains a lone surrogate, which is not a Unicode character',
              pointer: toPointer(path, depth - 1),
            };
        }
      }
      if (isKey && depth > 0) {
        let key = text.slice(start + 1, i);
        if (escaped) {
          try {
            key = JSON.parse(text.slice(start, i + 1)) as string;
          } catch {
            // not a valid string: the parser refuses the body
          }
        }
        const seen = keys[depth - 1]!;
        path[depth - 1] = key;
        if (seen.has(key))
          problem ??= {
            condition: 'malformed_request',
            message: `the key ${JSON.stringify(key).slice(0, 80)} appears twice in one object`,
            pointer: toPointer(path, depth - 1),
          };
        else seen.add(key);
        expectKey = false;
      }
    } else if (c === 123 || c === 91) {
      keys[depth] = c === 123 ? new Set() : null;
      path[depth] = c === 123 ? -1 : 0;
      expectKey = c === 123;
      if (++depth > max) {
        max = depth;
        if (max > limit) return { depth: max };
      }
    } else if (c === 125 || c === 93) {
      if (depth > 0) depth--;
      expectKey = false;
    } else if (c === 44) {
      if (depth > 0 && keys[depth - 1] === null) (path[depth - 1] as number)++;
      else expectKey = true;
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      const start = i;
      while (i + 1 < text.length) {
        const n = text.charCodeAt(i + 1);
        if ((n >= 48 && n <= 57) || n === 46 || n === 43 || n === 45 || n === 101 || n === 69) i++;
        else break;
      }
      if (problem === undefined) {
        const change = getNumberChange(text.slice(start, i + 1));
        if (change !== undefined)
          problem ??= {
            condition: 'validation',
            message: `the number ${text.slice(start, Math.min(i + 1, start + 40))} ${change}`,
            pointer: toPointer(path, depth - 1),
          };
      }
    }
  }
  return problem ? { depth: max, problem } : { depth: max };
}

/** The deepest bracket nesting in a JSON text (see `scanJson`). */
export function getJsonDepth(text: string, limit: number): number {
  return scanJson(text, limit).depth;
}

/**
 * Parses a JSON request body so that what is stored is exactly what was sent: depth-limited before parsing,
 * prototype-poisoning keys refused, and every value `JSON.parse` would change (a duplicate key, a lone
 * surrogate, a number a double cannot hold) refused rather than altered.
 */
export function parseJsonBody(text: string, maxDepth: number): unknown {
  if (text.trim() === '') throw new ServiceError('malformed_request', 'the request body is empty; a JSON document is required');
  const scan = scanJson(text, maxDepth);
  if (scan.depth > maxDepth) throw new ServiceError('malformed_request', `the JSON body nests deeper than ${maxDepth} levels`);
  let value: unknown;
  try {
    value = sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (err) {
    const msg = (err as Error).message;
    if (/prototype/i.test(msg)) throw new ServiceError('malformed_request', 'the body contains a forbidden key (__proto__ or constructor.prototype)');
    throw new ServiceError('malformed_request', 'the request body is not valid JSON');
  }
  const p = scan.problem;
  if (p) throw new ServiceError(p.condition, p.pointer === '' ? p.message : `${p.message} (at ${p.pointer})`, [{ pointer: p.pointer, message: p.message }]);
  return value;
}

/** Parses a request body's bytes: they must be UTF-8 (RFC 8259 §8.1); a replacement character would alter the text. */
export function parseJsonBytes(bytes: Buffer, maxDepth: number): unknown {
  if (!isUtf8(bytes)) throw new ServiceError('malformed_request', 'the request body is not valid UTF-8');
  return parseJsonBody(bytes.toString('utf8'), maxDepth);
}

/**
 * A form body (`application/x-www-form-urlencoded`, WHATWG URL's parsing: `+` is a space, percent-escapes decoded) as
 * every value of each name, in order: the custom operation reads each by its declared field (`readFormBody`). Bytes
 * that are not UTF-8 are refused, as for JSON.
 */
export function parseFormBytes(bytes: Buffer): FormBody {
  if (!isUtf8(bytes)) throw new ServiceError('malformed_request', 'the form is not valid UTF-8');
  const out = new FormBody();
  for (const [name, value] of new URLSearchParams(bytes.toString('utf8'))) (out.values[name] ??= []).push(value);
  return out;
}

/** A parsed form: each name's values as sent (text), before they are read as the declared fields' types. */
export class FormBody {
  readonly values: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
}
