import sjson from 'secure-json-parse';
import { ServiceError } from './runtime-errors.js';

/** The nesting the runtime accepts when the spec declares no `limits.nesting_depth` (docs/runtime.md). */
export const BUILT_IN_NESTING_DEPTH = 64;

/**
 * The deepest bracket nesting in a JSON text, scanning bytes without recursion, so a 100,000-deep
 * body is refused before any parser or validator recurses into it. Stops counting once past `limit`.
 */
export function getJsonDepth(text: string, limit: number): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 93 || c === 125) depth--;
  }
  return max;
}

function hasNonFinite(value: unknown): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return true;
    } else if (v !== null && typeof v === 'object') {
      for (const x of Object.values(v)) stack.push(x);
    }
  }
  return false;
}

/** Parses a JSON request body: depth-limited, prototype-poisoning refused, non-finite numbers refused. */
export function parseJsonBody(text: string, maxDepth: number): unknown {
  if (text.trim() === '') throw new ServiceError('malformed_request', 'the request body is empty; a JSON document is required');
  if (getJsonDepth(text, maxDepth) > maxDepth) {
    throw new ServiceError('malformed_request', `the JSON body nests deeper than ${maxDepth} levels`);
  }
  let value: unknown;
  try {
    value = sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (err) {
    const msg = (err as Error).message;
    if (/prototype/i.test(msg)) throw new ServiceError('malformed_request', 'the body contains a forbidden key (__proto__ or constructor.prototype)');
    throw new ServiceError('malformed_request', 'the request body is not valid JSON');
  }
  if (hasNonFinite(value)) throw new ServiceError('validation', 'a number in the body is too large to represent', [{ pointer: '', message: 'numbers must be finite' }]);
  return value;
}
