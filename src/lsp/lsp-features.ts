// Completion, hover, go to definition, references, rename and the outline, over the text's YAML (lsp-yaml.ts),
// its names (lsp-names.ts) and the format's schema and documentation (lsp-schema.ts).

import type { CompletionItem, DocumentSymbol, SymbolKind } from 'vscode-languageserver/node.js';
import type { LspPosition, LspRange } from './lsp-diagnostics.js';
import { getNameKindAt, getNameSites, isSameName, type NameKind, type NameSite } from './lsp-names.js';
import { getEnumAt, getKeyDoc, getKeysAt, getPartDoc } from './lsp-schema.js';
import type { EditorState } from './lsp-state.js';
import { getOffset, getPosition, getRange, type TextEdit } from './lsp-text.js';
import { createYamlOutline, getAt, splitPointer, type YamlEntry } from './lsp-yaml.js';

/** LSP CompletionItemKind: Property 10, Value 12, Reference 18, EnumMember 20. */
const COMPLETION_KIND = { key: 10, value: 12, name: 18, enum: 20 } as const;
/** LSP SymbolKind: Namespace 3, Class 5, Property 7, Field 8, Enum 10, Function 12, Constant 14, EnumMember 22, Event 24. */
const SYMBOL_KIND: Record<NameKind | 'part', SymbolKind> = {
  part: 3,
  resource: 5,
  field: 8,
  state: 22,
  transition: 12,
  scheme: 7,
  scope: 14,
  'error code': 10,
  event: 24,
  operation: 12,
  shape: 5,
};

function pointerOf(parent: string, seg: string | number): string {
  return `${parent}/${String(seg).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

function parentOf(pointer: string): string {
  return pointer.slice(0, pointer.lastIndexOf('/'));
}

/** The entry whose key or scalar value covers the offset (the innermost). */
function entryAt(state: EditorState, offset: number): { entry: YamlEntry; on: 'key' | 'value' } | undefined {
  let found: { entry: YamlEntry; on: 'key' | 'value' } | undefined;
  for (const e of state.outline().ordered) {
    if (e.key && e.key.start <= offset && offset <= e.key.end) found = { entry: e, on: 'key' };
    else if (e.kind === 'scalar' && e.value && e.value.start <= offset && offset <= e.value.end) found = { entry: e, on: 'value' };
  }
  return found;
}

/** The name site under the cursor. */
function siteAt(state: EditorState, position: LspPosition): NameSite | undefined {
  const offset = getOffset(state, position);
  return state.sites().find((s) => s.span.start <= offset && offset <= s.span.end);
}

/** The declaration of a name, or (a state named only by its machine's transitions) its first mention. */
function declarationOf(sites: readonly NameSite[], site: Pick<NameSite, 'kind' | 'name' | 'owner'>): NameSite | undefined {
  const same = sites.filter((s) => isSameName(s, site));
  return same.find((s) => s.declaration) ?? (site.kind === 'state' ? same[0] : undefined);
}

export function getDefinition(state: EditorState, position: LspPosition): { uri: string; range: LspRange } | null {
  const site = siteAt(state, position);
  if (site === undefined) return null;
  const decl = declarationOf(state.sites(), site);
  return decl === undefined ? null : { uri: state.uri, range: getRange(state, decl.span) };
}

/** The sites of the name under the cursor. */
function referencesOf(state: EditorState, site: NameSite): NameSite[] {
  return state.sites().filter((s) => isSameName(s, site));
}

export function getReferences(state: EditorState, position: LspPosition, includeDeclaration: boolean): { uri: string; range: LspRange }[] | null {
  const site = siteAt(state, position);
  if (site === undefined) return null;
  return referencesOf(state, site)
    .filter((s) => includeDeclaration || !s.declaration)
    .map((s) => ({ uri: state.uri, range: getRange(state, s.span) }));
}

export function prepareRename(state: EditorState, position: LspPosition): { range: LspRange; placeholder: string } | null {
  const site = siteAt(state, position);
  return site === undefined ? null : { range: getRange(state, site.span), placeholder: site.name };
}

/** A rename that would break the spec: the new name is taken by another of the same kind. */
export class RenameRefused extends Error {}

/** Every site of the name, in place; renaming a resource also moves its fields', states' and transitions' owner. */
export function getRename(state: EditorState, position: LspPosition, newName: string): { changes: Record<string, TextEdit[]> } | null {
  const site = siteAt(state, position);
  if (site === undefined) return null;
  if (newName === site.name) return { changes: { [state.uri]: [] } };
  if (newName.trim() === '' || /[\n\r]/.test(newName)) throw new RenameRefused(`\`${newName}\` is not a name`);
  const sites = state.sites();
  const clash = sites.find((s) => isSameName(s, { kind: site.kind, name: newName, owner: site.owner }));
  if (clash !== undefined)
    throw new RenameRefused(
      `${site.kind} \`${newName}\` already exists${site.owner ? ` in ${site.owner}` : ''}: renaming \`${site.name}\` to it would merge the two`,
    );
  // `id` is a resource's identifier without being named (docs/format.md, `identifier`): no text to edit refers to it.
  if (site.kind === 'field' && site.name === 'id' && site.owner !== undefined) {
    const resource = getAt(state.outline().data, pointerOf('/resources', site.owner));
    if (resource !== null && typeof resource === 'object' && (resource as Record<string, unknown>).identifier === undefined) {
      throw new RenameRefused(
        `\`id\` is ${site.owner}'s identifier because of its name (no \`identifier:\` names it); write \`identifier: id\` first, then rename`,
      );
    }
  }
  const edits: TextEdit[] = [];
  for (const s of referencesOf(state, site)) edits.push({ range: getRange(state, s.span), newText: quoteIfNeeded(state, s, newName) });
  return { changes: { [state.uri]: edits } };
}

/** A plain scalar that would not read back as the same string gets quoted; a quoted one keeps its quotes. */
function quoteIfNeeded(state: EditorState, site: NameSite, name: string): string {
  const before = state.text[site.span.start - 1];
  if (before === '"' || before === "'") return before === '"' ? JSON.stringify(name).slice(1, -1) : name.replace(/'/g, "''");
  const probe = createYamlOutline(`k: ${name}\n`).data as { k?: unknown } | undefined;
  return probe?.k === name && !/[,[\]{}#]/.test(name) ? name : JSON.stringify(name);
}

function describeName(state: EditorState, site: NameSite): string | undefined {
  const data = state.outline().data;
  const decl = declarationOf(state.sites(), site);
  const value = decl ? getAt(data, decl.pointer) : undefined;
  const v = (value !== null && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const list = (x: unknown): string => (Array.isArray(x) ? x.map((i) => `\`${String(i)}\``).join(', ') : x === undefined ? '—' : `\`${String(x)}\``);
  const head = `**${site.kind}** \`${site.name}\`${site.owner ? ` of ${site.owner}` : ''}`;
  if (decl === undefined) return `${head}\n\nnot declared`;
  const description = typeof v.description === 'string' ? `\n\n${v.description}` : '';
  switch (site.kind) {
    case 'resource': {
      const fields = (v.fields ?? {}) as Record<string, { type?: unknown; optional?: unknown }>;
      const rows = Object.entries(fields).map(([n, f]) => `- \`${n}\`: ${String(f?.type ?? '?')}${f?.optional === true ? ' (optional)' : ''}`);
      return `${head}${description}\n\n${rows.length > 0 ? rows.join('\n') : 'no fields'}`;
    }
    case 'field':
      return `${head}: ${String(v.type ?? '?')}${v.to !== undefined ? ` → ${String(v.to)}` : ''}${v.optional === true ? ', optional' : ''}${v.readOnly === true ? ', read-only' : ''}${v.writeOnly === true ? ', write-only' : ''}${description}`;
    case 'transition':
      return `${head}: from ${list(v.from)} to ${list(v.to)}${v.emits !== undefined ? `, emits \`${String(v.emits)}\`` : ''}${description}`;
    case 'error code':
      return `${head}: status ${String(v.status ?? '?')}${v.title !== undefined ? ` — ${String(v.title)}` : ''}\n\nconditions: ${list(v.when)}${description}`;
    case 'scheme':
      return `${head}: ${String(v.type ?? '?')}${description}`;
    case 'scope':
      return `${head}${typeof value === 'string' ? `: ${value}` : ''}`;
    case 'state':
      return `${head}${v.terminal === true ? ' (terminal)' : ''}${description}`;
    case 'operation':
      return `${head}: ${String(v.method ?? '?')} ${String(v.path ?? '?')} (${String(v.action ?? '?')})${description}`;
    case 'shape': {
      if (v.variants !== null && typeof v.variants === 'object')
        return `${head}: a union of ${list(Object.keys(v.variants))}${typeof v.discriminator === 'string' ? `, tagged by \`${v.discriminator}\`` : ''}${description}`;
      const fields = (v.fields ?? {}) as Record<string, { type?: unknown; optional?: unknown }>;
      const rows = Object.entries(fields).map(([n, f]) => `- \`${n}\`: ${String(f?.type ?? '?')}${f?.optional === true ? ' (optional)' : ''}`);
      return `${head}${description}\n\n${rows.length > 0 ? rows.join('\n') : 'no fields'}`;
    }
    default:
      return `${head}${description}`;
  }
}

export function getHover(state: EditorState, position: LspPosition): { contents: { kind: 'markdown'; value: string }; range: LspRange } | null {
  const site = siteAt(state, position);
  if (site !== undefined) {
    const text = describeName(state, site);
    return text === undefined ? null : { contents: { kind: 'markdown', value: text }, range: getRange(state, site.span) };
  }
  const at = entryAt(state, getOffset(state, position));
  if (at === undefined || at.on !== 'key' || at.entry.key === undefined) return null;
  const parent = parentOf(at.entry.pointer);
  const key = at.entry.key.text;
  const doc = parent === '' ? getPartDoc(key) : getKeyDoc(parent, key);
  const fallback = getKeysAt(parent).find((k) => k.name === key)?.description;
  const value = doc ?? (fallback !== undefined ? `${fallback}\n\n_schema/servicespec.schema.json_` : undefined);
  return value === undefined ? null : { contents: { kind: 'markdown', value: `\`${key}\`\n\n${value}` }, range: getRange(state, at.entry.key) };
}

/** The names of a kind the spec declares now, or declared in its last good version. */
function namesOf(state: EditorState, kind: NameKind, owner: string | undefined): string[] {
  const names = new Set<string>();
  const add = (sites: readonly NameSite[]): void => {
    for (const s of sites) if (s.kind === kind && (s.declaration || kind === 'state') && (owner === undefined || s.owner === owner)) names.add(s.name);
  };
  add(state.sites());
  const good = state.lastGood();
  if (good?.document !== undefined) add(getNameSites({ entries: new Map(), ordered: documentEntries(good.document), data: good.document }));
  return [...names];
}

/** Key entries for a plain document (no positions): enough to list its declared names. */
function documentEntries(doc: unknown): YamlEntry[] {
  const out: YamlEntry[] = [];
  const stack: { v: unknown; pointer: string; key?: string }[] = [{ v: doc, pointer: '' }];
  while (stack.length > 0) {
    const { v, pointer, key } = stack.pop()!;
    const entry: YamlEntry = { pointer, kind: 'empty' };
    if (key !== undefined) entry.key = { text: key, start: 0, end: 0 };
    if (typeof v === 'string') Object.assign(entry, { kind: 'scalar', text: v, textSpan: { start: 0, end: 0 } });
    out.push(entry);
    if (Array.isArray(v)) v.forEach((item, i) => stack.push({ v: item, pointer: pointerOf(pointer, i) }));
    else if (v !== null && typeof v === 'object') for (const [k, item] of Object.entries(v)) stack.push({ v: item, pointer: pointerOf(pointer, k), key: k });
  }
  return out;
}

/** The pointer of the mapping a key typed at this column of this line belongs to, by indentation. */
function parentByIndent(state: EditorState, line: number, column: number): string {
  const starts = state.lineStarts();
  const byLine = new Map<number, YamlEntry>();
  for (const e of state.outline().ordered) {
    if (!e.key) continue;
    const l = getPosition(state, e.key.start).line;
    if (!byLine.has(l)) byLine.set(l, e);
  }
  for (let l = line - 1; l >= 0; l--) {
    const e = byLine.get(l);
    if (e === undefined || e.key === undefined) continue;
    const col = e.key.start - starts[l]!;
    if (col < column) return e.pointer;
    if (col === column) return parentOf(e.pointer);
  }
  return '';
}

export function getCompletions(state: EditorState, position: LspPosition): CompletionItem[] {
  const starts = state.lineStarts();
  const lineStart = starts[position.line] ?? state.text.length;
  const before = state.text.slice(lineStart, lineStart + position.character);
  // `key: value` (the value being typed, or an item of a flow list after it).
  const valueMatch = /^(\s*)(- )?([^\s:#'"[\]{},][^:#]*?):[ \t]+(.*)$/.exec(before);
  if (valueMatch !== null) {
    const column = valueMatch[1]!.length + (valueMatch[2]?.length ?? 0);
    const key = valueMatch[3]!;
    const entry = state.outline().ordered.find((e) => e.key && e.key.text === key && e.key.start === lineStart + column);
    let pointer =
      entry?.pointer ??
      pointerOf(valueMatch[2] ? pointerOf(parentByIndent(state, position.line, column - 2), 0) : parentByIndent(state, position.line, column), key);
    const flow = readFlow(valueMatch[4]!);
    for (const seg of flow.path) pointer = pointerOf(pointer, seg);
    return flow.atKey ? keyCompletions(state, pointer) : valueCompletions(state, pointer);
  }
  // `- value` in a block list.
  const itemMatch = /^(\s*)- ([^:]*)$/.exec(before);
  if (itemMatch !== null) {
    const parent = parentByIndent(state, position.line, itemMatch[1]!.length + 1);
    const items = valueCompletions(state, pointerOf(parent, 0));
    if (items.length > 0) return items;
    return keyCompletions(state, pointerOf(parent, 0));
  }
  // A key being typed.
  const keyMatch = /^(\s*)([\w.-]*)$/.exec(before);
  if (keyMatch !== null) return keyCompletions(state, parentByIndent(state, position.line, keyMatch[1]!.length));
  return [];
}

/**
 * Where the cursor is inside a flow collection typed so far (`{ schemes: [a, ` → ['schemes', 1], at a value), read
 * off the text before it: a half-typed line does not parse.
 */
function readFlow(rest: string): { path: (string | number)[]; atKey: boolean } {
  const frames: { seq: boolean; key?: string; index: number; token: string }[] = [];
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i]!;
    const top = frames[frames.length - 1];
    if (c === '"' || c === "'") {
      const end = rest.indexOf(c, i + 1);
      if (end < 0) break;
      if (top) top.token += rest.slice(i + 1, end);
      i = end;
    } else if (c === '{' || c === '[') frames.push({ seq: c === '[', index: 0, token: '' });
    else if (c === '}' || c === ']') frames.pop();
    else if (c === ',' && top) {
      top.index++;
      delete top.key;
      top.token = '';
    } else if (c === ':' && top && !top.seq && (rest[i + 1] === ' ' || i + 1 === rest.length)) {
      top.key = top.token.trim();
      top.token = '';
    } else if (top) top.token += c;
  }
  const path: (string | number)[] = [];
  let atKey = false;
  frames.forEach((f, i) => {
    if (f.seq) path.push(f.index);
    else if (f.key !== undefined) path.push(f.key);
    else if (i === frames.length - 1) atKey = true;
  });
  return { path, atKey };
}

function keyCompletions(state: EditorState, parent: string): CompletionItem[] {
  const existing = new Set(state.outline().entries.get(parent)?.children ?? []);
  return getKeysAt(parent)
    .filter((k) => !existing.has(k.name))
    .map((k) => {
      const item: CompletionItem = { label: k.name, kind: COMPLETION_KIND.key, insertText: `${k.name}: ` };
      if (k.description !== undefined) item.documentation = { kind: 'markdown', value: k.description };
      return item;
    });
}

function valueCompletions(state: EditorState, pointer: string): CompletionItem[] {
  const items: CompletionItem[] = [];
  const name = getNameKindAt(pointer, state.outline().data ?? state.lastGood()?.document);
  if (name !== undefined) {
    for (const n of namesOf(state, name.kind, name.owner))
      items.push({ label: n, kind: COMPLETION_KIND.name, detail: `${name.kind}${name.owner ? ` of ${name.owner}` : ''}` });
  }
  const segments = splitPointer(pointer);
  const isCondition = segments[0] === 'errors' && segments[1] === 'codes' && segments[3] === 'when';
  for (const v of getEnumAt(pointer)) items.push({ label: String(v), kind: COMPLETION_KIND.enum, detail: isCondition ? 'condition' : 'value' });
  return items;
}

const PARTS = ['purpose', 'resources', 'states', 'endpoints', 'authentication', 'events', 'errors', 'limits', 'versioning'];

/** The outline: the nine parts in the file's order, each with the names it declares (fields under their resource). */
export function getDocumentSymbols(state: EditorState): DocumentSymbol[] {
  const outline = state.outline();
  const sites = state.sites().filter((s) => s.declaration);
  const symbolOf = (entry: YamlEntry, name: string, kind: SymbolKind, detail?: string): DocumentSymbol | undefined => {
    if (entry.key === undefined) return undefined;
    const end = entry.value?.end ?? entry.key.end;
    const s: DocumentSymbol = { name, kind, range: getRange(state, { start: entry.key.start, end }), selectionRange: getRange(state, entry.key) };
    if (detail !== undefined) s.detail = detail;
    return s;
  };
  const symbols: DocumentSymbol[] = [];
  for (const part of outline.entries.get('')?.children ?? []) {
    if (!PARTS.includes(part)) continue;
    const entry = outline.entries.get(pointerOf('', part))!;
    const symbol = symbolOf(entry, part, SYMBOL_KIND.part, `part ${PARTS.indexOf(part) + 1} of 9`);
    if (symbol === undefined) continue;
    const children: DocumentSymbol[] = [];
    const byPointer = new Map<string, DocumentSymbol>();
    for (const site of sites) {
      if (!site.pointer.startsWith(`/${part}/`)) continue;
      const e = outline.entries.get(site.pointer);
      const s = e && symbolOf(e, site.name, SYMBOL_KIND[site.kind], site.kind);
      if (!s) continue;
      byPointer.set(site.pointer, s);
      // A field, state or transition sits under its resource or machine when that has a symbol.
      const owner = [...byPointer.entries()].reverse().find(([p]) => site.pointer.startsWith(`${p}/`) && p !== site.pointer);
      if (owner) (owner[1].children ??= []).push(s);
      else children.push(s);
    }
    // A machine is not a declaration of its own: the resource's name under `states` holds its states.
    if (part === 'states') {
      for (const r of entry.children ?? []) {
        const e = outline.entries.get(pointerOf('/states', r));
        const s = e && symbolOf(e, r, SYMBOL_KIND.resource, 'state machine');
        if (!s) continue;
        const inside = children.filter((c) => getOffset(state, c.range.start) >= e.key!.start && getOffset(state, c.range.end) <= (e.value?.end ?? e.key!.end));
        if (inside.length > 0) s.children = inside;
        symbol.children = [...(symbol.children ?? []), s];
      }
    } else if (children.length > 0) symbol.children = children;
    symbols.push(symbol);
  }
  return symbols;
}
