// Code actions on the checker's diagnostics: the did-you-mean as a quick fix, an error code for an undeclared
// condition, a declaration for a state the machine names but does not declare.

import type { Diagnostic as SpecDiagnostic } from '../diagnostics/diagnostics-catalogue.js';
import { FALLBACK_STATUS } from '../model/model-defaults.js';
import { CONDITIONS, type Condition } from '../spec/spec-types.js';
import { getSuggestion, lineText, tokenEnd, type LspDiagnostic, type LspRange } from './lsp-diagnostics.js';
import type { EditorState } from './lsp-state.js';
import { getPosition, type TextEdit } from './lsp-text.js';
import { splitPointer, type YamlEntry } from './lsp-yaml.js';

export interface CodeAction {
  title: string;
  kind: 'quickfix';
  diagnostics: LspDiagnostic[];
  isPreferred?: boolean;
  edit: { changes: Record<string, TextEdit[]> };
}

/** Code actions for the diagnostics the client sends back (ours carry the spec diagnostic in `data`). */
export function getCodeActions(state: EditorState, range: LspRange, diagnostics: readonly LspDiagnostic[]): CodeAction[] {
  const actions: CodeAction[] = [];
  const ours = diagnostics.filter((d) => d.source === 'servicespec');
  // The client may send none (a request for the range alone): then ours are the ones on the range's lines.
  const candidates = ours.length > 0 ? ours : state.diagnostics().filter((d) => d.range.start.line <= range.end.line && d.range.end.line >= range.start.line);
  for (const d of candidates) {
    const edits = [didYouMean(state, d), undeclaredCondition(state, d), missingState(state, d)];
    for (const a of edits) if (a) actions.push(a);
  }
  return actions;
}

function action(state: EditorState, title: string, d: LspDiagnostic, edits: TextEdit[], preferred = false): CodeAction {
  const a: CodeAction = { title, kind: 'quickfix', diagnostics: [d], edit: { changes: { [state.uri]: edits } } };
  if (preferred) a.isPreferred = true;
  return a;
}

function didYouMean(state: EditorState, d: LspDiagnostic): CodeAction | undefined {
  const hint = getSuggestion(d.message);
  if (hint === undefined) return undefined;
  const { line, character } = d.range.start;
  const lt = lineText(state.text, state.lineStarts(), line);
  // The token the diagnostic points at, inside its quotes; else the one place on the line the name is written.
  let start = character;
  let end = tokenEnd(lt, character);
  if (lt[start] === '"' || lt[start] === "'") {
    start++;
    end--;
  }
  if (lt.startsWith('- ', start)) start += 2;
  if (lt.slice(start, end) !== hint.written) {
    const at = lt.indexOf(hint.written);
    if (at < 0 || lt.indexOf(hint.written, at + 1) >= 0) return undefined;
    start = at;
    end = at + hint.written.length;
  }
  return action(
    state,
    `Change to \`${hint.meant}\``,
    d,
    [{ range: { start: { line, character: start }, end: { line, character: end } }, newText: hint.meant }],
    true,
  );
}

/** The indentation unit of the text: the first indented key's indentation (two spaces when none is). */
function indentUnit(text: string): string {
  const m = /\n( +)\S/.exec(text);
  return m?.[1] ?? '  ';
}

/** An edit that adds `lines` (already indented relative to the mapping's keys) as the mapping's last entries. */
function appendToMapping(state: EditorState, entry: YamlEntry, lines: string[]): TextEdit | undefined {
  const outline = state.outline();
  const children = entry.children ?? [];
  const last =
    children.length > 0 ? outline.entries.get(`${entry.pointer}/${children[children.length - 1]!.replace(/~/g, '~0').replace(/\//g, '~1')}`) : undefined;
  if (entry.value === undefined || last?.key === undefined) return undefined;
  const text = state.text;
  // A flow mapping ({ a: 1 }) is left alone: only block mappings get lines added.
  if (text[entry.value.start] === '{') return undefined;
  const keyPos = getPosition(state, last.key.start);
  const indent = ' '.repeat(keyPos.character);
  // After the last line of the mapping's last entry.
  const endOffset = last.value?.end ?? last.key.end;
  const endLine = getPosition(state, endOffset).line;
  const lt = lineText(text, state.lineStarts(), endLine);
  const at = { line: endLine, character: lt.length };
  return { range: { start: at, end: at }, newText: lines.map((l) => `\n${indent}${l}`).join('') };
}

/** undeclared-condition: an error code for the condition, with the status the service answers it with undeclared. */
function undeclaredCondition(state: EditorState, d: LspDiagnostic): CodeAction | undefined {
  if (d.code !== 'undeclared-condition') return undefined;
  const condition = /condition `([^`]+)`/.exec(d.message)?.[1];
  if (condition === undefined || !(CONDITIONS as readonly string[]).includes(condition)) return undefined;
  const status = FALLBACK_STATUS[condition as Condition];
  const outline = state.outline();
  const unit = indentUnit(state.text);
  const codes = outline.entries.get('/errors/codes');
  const taken = new Set(codes?.children ?? []);
  const name = taken.has(condition) ? `${condition}_error` : condition;
  const body = [`${name}:`, `${unit}status: ${status}`, `${unit}when: [${condition}]`];
  let edit: TextEdit | undefined;
  if (codes?.kind === 'map' && (codes.children?.length ?? 0) > 0) edit = appendToMapping(state, codes, body);
  else {
    const errors = outline.entries.get('/errors');
    if (errors?.kind === 'map' && codes === undefined && (errors.children?.length ?? 0) > 0)
      edit = appendToMapping(state, errors, ['codes:', ...body.map((l) => unit + l)]);
    else if (errors === undefined) {
      const end = getPosition(state, state.text.length);
      const sep = state.text.endsWith('\n') || state.text === '' ? '' : '\n';
      edit = { range: { start: end, end }, newText: `${sep}errors:\n${unit}codes:\n${body.map((l) => unit + unit + l).join('\n')}\n` };
    }
  }
  if (edit === undefined) return undefined;
  return action(state, `Declare error code \`${name}\` (status ${status}) for condition \`${condition}\``, d, [edit]);
}

/** unknown-state: declare the state under the machine's `states`. */
function missingState(state: EditorState, d: LspDiagnostic): CodeAction | undefined {
  if (d.code !== 'unknown-state') return undefined;
  const spec: SpecDiagnostic = d.data;
  const m = /names state `([^`]+)`, which the (.+) state machine does not declare/.exec(d.message);
  if (m === null) return undefined;
  const [, name, resource] = m as unknown as [string, string, string];
  const pointer = spec.pointer ?? '';
  const segments = splitPointer(pointer);
  // The machine is the one the pointer is under, or the resource the message names.
  const machine = segments[0] === 'states' && segments[1] !== undefined ? segments[1] : resource;
  const outline = state.outline();
  const states = outline.entries.get(`/states/${machine.replace(/~/g, '~0').replace(/\//g, '~1')}/states`);
  if (states?.kind !== 'map' || (states.children?.length ?? 0) === 0) return undefined;
  const edit = appendToMapping(state, states, [`${name}: {}`]);
  if (edit === undefined) return undefined;
  return action(state, `Declare state \`${name}\` in the ${machine} state machine`, d, [edit]);
}
