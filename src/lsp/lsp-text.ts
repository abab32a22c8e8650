// Offsets in the text ↔ LSP positions (zero-based line, UTF-16 character: a JavaScript string index, as the
// `yaml` package's offsets are).

import type { LspPosition, LspRange } from './lsp-diagnostics.js';
import type { EditorState } from './lsp-state.js';
import type { TextSpan } from './lsp-yaml.js';

export interface TextEdit {
  range: LspRange;
  newText: string;
}

export function getPosition(state: Pick<EditorState, 'lineStarts'>, offset: number): LspPosition {
  const starts = state.lineStarts();
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo, character: offset - starts[lo]! };
}

export function getOffset(state: Pick<EditorState, 'lineStarts' | 'text'>, position: LspPosition): number {
  const starts = state.lineStarts();
  const start = starts[Math.min(position.line, starts.length - 1)] ?? 0;
  return Math.min(state.text.length, start + position.character);
}

export function getRange(state: Pick<EditorState, 'lineStarts'>, span: TextSpan): LspRange {
  return { start: getPosition(state, span.start), end: getPosition(state, span.end) };
}
