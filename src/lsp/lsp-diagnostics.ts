// The checker's diagnostics as LSP diagnostics: the same compile `check` runs (program.ts), positions turned into
// ranges. Nothing here decides what is wrong; it only says where, and offers the did-you-mean as a fix.

import type { Diagnostic as SpecDiagnostic } from '../diagnostics/diagnostics-catalogue.js';
import { compileSpecText, type CompiledSpec } from '../program.js';

/** An LSP position: zero-based line and UTF-16 character. */
export interface LspPosition {
  line: number;
  character: number;
}
export interface LspRange {
  start: LspPosition;
  end: LspPosition;
}

/** LSP DiagnosticSeverity: Error 1, Warning 2, Information 3. */
const SEVERITY = { error: 1, warning: 2, info: 3 } as const;

export interface LspDiagnostic {
  range: LspRange;
  severity: 1 | 2 | 3;
  code: string;
  source: 'servicespec';
  message: string;
  /** The spec diagnostic as `check --format json` prints it (its pointer, line and column), for code actions. */
  data: SpecDiagnostic;
}

/** Compiles the text as `check` compiles a file: the one front end, load → validate → build → check. */
export function compileForEditor(text: string, file: string): CompiledSpec {
  return compileSpecText(text, file);
}

/**
 * The end of the token that starts at `character` on the line: a quoted scalar to its closing quote, a plain
 * one up to `: `, a flow separator, a comment or the end of the line. A diagnostic without a token there spans
 * the rest of the line's content.
 */
export function tokenEnd(lineText: string, character: number): number {
  const first = lineText[character];
  if (first === '"' || first === "'") {
    for (let i = character + 1; i < lineText.length; i++) {
      if (first === '"' && lineText[i] === '\\') i++;
      else if (lineText[i] === first) {
        if (first === "'" && lineText[i + 1] === "'") i++;
        else return i + 1;
      }
    }
    return lineText.length;
  }
  let i = character;
  const start = character;
  if (lineText.startsWith('- ', i)) i += 2;
  for (; i < lineText.length; i++) {
    const c = lineText[i]!;
    if (c === ':' && (i + 1 === lineText.length || lineText[i + 1] === ' ')) break;
    if (c === ',' || c === ']' || c === '}' || c === '{' || c === '[') break;
    if (c === '#' && i > start && lineText[i - 1] === ' ') break;
  }
  const end = lineText.slice(0, i).trimEnd().length;
  return end > start ? end : lineText.trimEnd().length;
}

/** The line starts of a text, for reading one line without splitting the whole text. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

export function lineText(text: string, starts: readonly number[], line: number): string {
  const s = starts[line];
  if (s === undefined) return '';
  const e = starts[line + 1];
  return text.slice(s, e === undefined ? text.length : e - 1).replace(/\r$/, '');
}

/** One spec diagnostic → one LSP diagnostic. A diagnostic without a line (a whole-file one) sits on line 1. */
export function toLspDiagnostic(d: SpecDiagnostic, text: string, starts: readonly number[]): LspDiagnostic {
  const line = Math.max(0, (d.line ?? 1) - 1);
  const character = Math.max(0, (d.column ?? 1) - 1);
  const lt = lineText(text, starts, line);
  const end = d.line === undefined ? lt.length : Math.max(character, tokenEnd(lt, character));
  return {
    range: { start: { line, character }, end: { line, character: end } },
    severity: SEVERITY[d.severity],
    code: d.code,
    source: 'servicespec',
    message: d.message,
    data: d,
  };
}

export function toLspDiagnostics(compiled: CompiledSpec, text: string): LspDiagnostic[] {
  const starts = lineStarts(text);
  return compiled.diagnostics.map((d) => toLspDiagnostic(d, text, starts));
}

/** The did-you-mean of a diagnostic's message (`…; did you mean \`x\`?`): the name written and the one meant. */
export function getSuggestion(message: string): { written: string; meant: string } | undefined {
  const at = message.lastIndexOf('; did you mean `');
  if (at < 0) return undefined;
  const meant = /^; did you mean `([^`]+)`\?$/.exec(message.slice(at))?.[1];
  // The name written is the last one quoted before the suggestion (`{where}` may quote others before it).
  const written = [...message.slice(0, at).matchAll(/`([^`]+)`/g)].pop()?.[1];
  if (meant === undefined || written === undefined) return undefined;
  return { written, meant };
}
