// Shared helpers for the front-end tests (test/spec, test/check, test/model).
import { CONDITIONS } from '../../src/spec/spec-types.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostics-catalogue.js';

/** Template tag: strips the indentation common to all non-blank lines and the leading newline. */
export function yaml(strings: TemplateStringsArray, ...values: unknown[]): string {
  // A multi-line value is indented like the line it is interpolated into.
  let raw = '';
  strings.forEach((s, i) => {
    raw += s;
    if (i >= values.length) return;
    const indent = /[ \t]*$/.exec(raw.slice(raw.lastIndexOf('\n') + 1))![0];
    raw += String(values[i]).replace(/\n$/, '').replace(/\n/g, `\n${indent}`);
  });
  const lines = raw
    .replace(/^\n/, '')
    .replace(/\n[ \t]*$/, '\n')
    .split('\n');
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^ */.exec(l)![0].length);
  const cut = indents.length > 0 ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(cut)).join('\n');
}

/** The 1-based line of the only line carrying the marker comment `# <-`. */
export function markedLine(text: string): number {
  const lines = text.split('\n');
  const hits = lines.flatMap((l, i) => (l.includes('# <-') ? [i + 1] : []));
  if (hits.length !== 1) throw new Error(`expected exactly one "# <-" marker, found ${hits.length}`);
  return hits[0]!;
}

/** One error code that declares every condition, so specs with operations raise no undeclared-condition. */
export const CATCH_ALL_ERRORS = `errors:\n  codes:\n    any_error: { status: 500, when: [${CONDITIONS.join(', ')}] }\n`;

export function codes(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => d.code);
}

/** Compact form for inline expectations: `line:column severity code`. */
export function brief(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.line ?? '-'}:${d.column ?? '-'} ${d.severity} ${d.code}`);
}
