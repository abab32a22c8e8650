import { readFileSync, statSync } from 'node:fs';
import { Composer, isAlias, isMap, isPair, isScalar, isSeq, LineCounter, Parser, type Document, type Node as YamlNode } from 'yaml';
import type { CST } from 'yaml';
import { CORE_SCHEMA, load as loadYaml } from 'js-yaml';
import { createDiagnostic, type Diagnostic, type SourcePosition } from '../check/diagnostics-catalogue.js';

/** Specs are hand-written documents; anything larger is refused before parsing. */
export const MAX_SPEC_BYTES = 4 * 1024 * 1024;
/** Deeper than any real spec needs, shallow enough that no parser stage recurses into a stack overflow. */
export const MAX_SPEC_DEPTH = 64;

export interface SourceEntry {
  /** Where the key naming this value starts (absent for the root and for list items). */
  key?: SourcePosition;
  /** Where the value starts. */
  value: SourcePosition;
}

/** JSON pointer → position in the source text. */
export type SourceMap = ReadonlyMap<string, SourceEntry>;

export interface LoadedSpec {
  file: string;
  /** The parsed document as plain data; undefined when loading failed. */
  document: unknown;
  sourceMap: SourceMap;
  diagnostics: Diagnostic[];
}

export function escapePointerToken(token: string): string {
  // Most names need no escaping; skipping the two replaces matters for specs with 100,000 keys.
  if (!token.includes('~') && !token.includes('/')) return token;
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function joinPointer(base: string, token: string | number): string {
  return `${base}/${escapePointerToken(String(token))}`;
}

function failed(file: string, diagnostics: Diagnostic[]): LoadedSpec {
  return { file, document: undefined, sourceMap: new Map(), diagnostics };
}

export function loadSpecFile(path: string): LoadedSpec {
  let size: number;
  try {
    const st = statSync(path);
    if (st.isDirectory()) return failed(path, [createDiagnostic('file-is-directory', { path }, { file: path })]);
    size = st.size;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return failed(path, [createDiagnostic('file-not-found', { path }, { file: path })]);
    return failed(path, [createDiagnostic('file-unreadable', { path, reason: code ?? String(err) }, { file: path })]);
  }
  if (size > MAX_SPEC_BYTES) {
    return failed(path, [createDiagnostic('file-too-large', { size, limit: MAX_SPEC_BYTES }, { file: path })]);
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return failed(path, [createDiagnostic('file-unreadable', { path, reason: code ?? String(err) }, { file: path })]);
  }
  return loadSpecBytes(bytes, path);
}

export function loadSpecBytes(bytes: Uint8Array, file = '<input>'): LoadedSpec {
  if (bytes.byteLength > MAX_SPEC_BYTES) {
    return failed(file, [createDiagnostic('file-too-large', { size: bytes.byteLength, limit: MAX_SPEC_BYTES }, { file })]);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const lossy = new TextDecoder('utf-8').decode(bytes);
    const at = lossy.indexOf('\uFFFD');
    const pos = at >= 0 ? positionOfOffset(lossy, at) : {};
    return failed(file, [createDiagnostic('invalid-utf8', {}, { file, ...pos })]);
  }
  return loadSpecText(text, file);
}

function positionOfOffset(text: string, offset: number): SourcePosition {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

export function loadSpecText(input: string, file = '<input>'): LoadedSpec {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  if (text.length > MAX_SPEC_BYTES) {
    return failed(file, [createDiagnostic('file-too-large', { size: text.length, limit: MAX_SPEC_BYTES }, { file })]);
  }
  if (text.trim() === '') return failed(file, [createDiagnostic('empty-document', {}, { file, line: 1, column: 1 })]);
  return loadFast(text, file) ?? loadWithPositions(text, file);
}

/** True when the value nests deeper than the limit, or shares an object (an alias), walking without recursion. */
function isPlainTree(root: unknown): boolean {
  const seen = new Set<object>();
  const stack: { v: unknown; depth: number }[] = [{ v: root, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > MAX_SPEC_DEPTH || seen.has(v)) return false;
    seen.add(v);
    for (const child of Object.values(v)) if (child !== null && typeof child === 'object') stack.push({ v: child, depth: depth + 1 });
  }
  return true;
}

/**
 * The common case, fast: a well-formed single mapping with no shared nodes, read by js-yaml (YAML 1.2
 * core schema, duplicate keys refused) about 25 times faster than the position-keeping parser. Positions
 * are only needed for diagnostics, so the source map is built on first use. Anything unusual — a syntax
 * error, duplicate keys, several documents, aliases, deep nesting — goes to the slow path, which reports it
 * with a position.
 */
function loadFast(text: string, file: string): LoadedSpec | undefined {
  let document: unknown;
  try {
    document = loadYaml(text, { schema: CORE_SCHEMA, json: false });
  } catch {
    return undefined;
  }
  if (document === null || typeof document !== 'object' || Array.isArray(document) || !isPlainTree(document)) return undefined;
  let sourceMap: SourceMap | undefined;
  return {
    file,
    document,
    diagnostics: [],
    get sourceMap() {
      sourceMap ??= loadWithPositions(text, file).sourceMap;
      return sourceMap;
    },
  };
}

/** The position-keeping parse: the `yaml` package's concrete syntax tree, then its composer. */
function loadWithPositions(text: string, file: string): LoadedSpec {
  const lineCounter = new LineCounter();
  const at = (offset: number): SourcePosition => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, column: p.col };
  };
  const tokens = Array.from(new Parser(lineCounter.addNewLine).parse(text));

  const tooDeep = findTooDeep(tokens);
  if (tooDeep !== undefined) {
    return failed(file, [createDiagnostic('nesting-too-deep', { limit: MAX_SPEC_DEPTH }, { file, ...at(tooDeep) })]);
  }

  // Duplicate keys are found by buildSourceMap in one pass: yaml's own check (uniqueKeys) compares every key
  // of a mapping with every other, which dominates loading a spec with thousands of operations.
  const docs = Array.from(new Composer({ uniqueKeys: false, prettyErrors: false }).compose(tokens));
  const diagnostics: Diagnostic[] = [];
  if (docs.length > 1) {
    const second = docs[1]?.range[0] ?? 0;
    diagnostics.push(createDiagnostic('multiple-documents', {}, { file, ...at(second) }));
  }
  const doc = docs[0];
  if (doc === undefined || doc.contents === null) {
    return failed(file, [...diagnostics, createDiagnostic('empty-document', {}, { file, line: 1, column: 1 })]);
  }
  for (const e of [...doc.errors]) {
    const pos = at(e.pos[0]);
    const detail = e.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') ?? e.message;
    diagnostics.push(createDiagnostic('yaml-syntax', { yamlCode: e.code, detail }, { file, ...pos }));
  }
  if (diagnostics.length > 0) return failed(file, diagnostics);

  const root = doc.contents;
  if (!isMap(root)) {
    const found = isSeq(root) ? 'a list' : isScalar(root) ? `a single value (${describeScalar(root.value)})` : 'this';
    return failed(file, [createDiagnostic('not-a-mapping', { found }, { file, ...at(root.range[0]) })]);
  }

  const sourceMap = new Map<string, SourceEntry>();
  const duplicates = buildSourceMap(root, sourceMap, at);
  if (duplicates.length > 0) {
    duplicates.sort((a, b) => a.at.line - b.at.line || a.at.column - b.at.column);
    return failed(file, duplicates.map((d) => createDiagnostic('duplicate-key', { key: `\`${d.key}\`` }, { file, ...d.at })));
  }
  let document: unknown;
  try {
    // yaml refuses alias expansion past this count, which stops "billion laughs" documents.
    document = (doc as Document.Parsed).toJS({ maxAliasCount: 100 });
  } catch (err) {
    return failed(file, [createDiagnostic('yaml-syntax', { yamlCode: 'CONVERT', detail: (err as Error).message }, { file })]);
  }
  return { file, document, sourceMap, diagnostics: [] };
}

function describeScalar(value: unknown): string {
  if (value === null) return 'null';
  const s = JSON.stringify(value) ?? String(value);
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}

/** Walks the concrete syntax tree without recursion and returns the offset of the first token nested too deep. */
function findTooDeep(tokens: CST.Token[]): number | undefined {
  const stack: { token: CST.Token; depth: number }[] = tokens.map((token) => ({ token, depth: 0 }));
  while (stack.length > 0) {
    const { token, depth } = stack.pop()!;
    if (depth > MAX_SPEC_DEPTH) return token.offset;
    switch (token.type) {
      case 'document':
        if (token.value) stack.push({ token: token.value, depth });
        break;
      case 'block-map':
      case 'block-seq':
      case 'flow-collection':
        for (const item of token.items) {
          const kids = [('key' in item ? item.key : null), item.value];
          for (const kid of kids) if (kid) stack.push({ token: kid as CST.Token, depth: depth + 1 });
        }
        break;
      default:
        break;
    }
  }
  return undefined;
}

/** Fills the source map; returns the keys that repeat a key of the same mapping (yaml's notion of equal keys). */
function buildSourceMap(
  root: YamlNode,
  map: Map<string, SourceEntry>,
  at: (offset: number) => SourcePosition,
): { key: string; at: SourcePosition }[] {
  const duplicates: { key: string; at: SourcePosition }[] = [];
  const stack: { node: YamlNode; pointer: string; key?: SourcePosition }[] = [{ node: root, pointer: '' }];
  while (stack.length > 0) {
    const { node, pointer, key } = stack.pop()!;
    const start = at(node.range?.[0] ?? 0);
    map.set(pointer, key ? { key, value: start } : { value: start });
    // Positions below an alias fall back to the alias itself.
    if (isAlias(node)) continue;
    if (isMap(node)) {
      const keys = new Set<string>();
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const k = pair.key as YamlNode | null;
        const keyText = isScalar(k) ? String(k.value) : String(k);
        const keyPos = at(k?.range?.[0] ?? node.range?.[0] ?? 0);
        const identity = k === null ? 'null' : isScalar(k) ? `${k.value === null ? 'null' : typeof k.value}:${String(k.value)}` : undefined;
        if (identity !== undefined) {
          if (keys.has(identity)) duplicates.push({ key: keyText, at: keyPos });
          keys.add(identity);
        }
        const v = pair.value as YamlNode | null;
        if (v) stack.push({ node: v, pointer: joinPointer(pointer, keyText), key: keyPos });
        else map.set(joinPointer(pointer, keyText), { key: keyPos, value: keyPos });
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => {
        if (item) stack.push({ node: item as YamlNode, pointer: joinPointer(pointer, i) });
      });
    }
  }
  return duplicates;
}

/**
 * The closest known position for a pointer: itself or its nearest ancestor. A value that starts on a
 * later line than its key (a block mapping or list) is located at its key, the line that names it.
 */
export function locate(sourceMap: SourceMap, pointer: string, prefer: 'key' | 'value' = 'value'): SourcePosition | undefined {
  let p = pointer;
  for (;;) {
    const entry = sourceMap.get(p);
    if (entry) return entry.key && (prefer === 'key' || entry.key.line < entry.value.line) ? entry.key : entry.value;
    if (p === '') return undefined;
    p = p.slice(0, p.lastIndexOf('/'));
  }
}
