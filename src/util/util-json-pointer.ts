// JSON pointers (RFC 6901): how diagnostics, source maps and Ajv errors name a place in a document.

export function escapePointerToken(token: string): string {
  // Most names need no escaping; skipping the two replaces matters for specs with 100,000 keys.
  if (!token.includes('~') && !token.includes('/')) return token;
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function joinPointer(base: string, token: string | number): string {
  return `${base}/${escapePointerToken(String(token))}`;
}

/** The unescaped tokens of a JSON pointer (`/paths/~1pets/get` → `paths`, `/pets`, `get`); `''` has none. */
export function getPointerTokens(pointer: string): string[] {
  return pointer === ''
    ? []
    : pointer
        .split('/')
        .slice(1)
        .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}
