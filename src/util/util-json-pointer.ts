// JSON pointers (RFC 6901): how diagnostics, source maps and Ajv errors name a place in a document.

export function escapePointerToken(token: string): string {
  // Most names need no escaping; skipping the two replaces matters for specs with 100,000 keys.
  if (!token.includes('~') && !token.includes('/')) return token;
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function joinPointer(base: string, token: string | number): string {
  return `${base}/${escapePointerToken(String(token))}`;
}
