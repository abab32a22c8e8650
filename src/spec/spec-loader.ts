import { readFileSync, statSync } from 'node:fs';
import { Composer, isAlias, type Alias, isMap, isPair, isScalar, isSeq, LineCounter, Parser, Schema, type Document, type Node as YamlNode, type ScalarTag } from 'yaml';
import type { CST } from 'yaml';
import { FAILSAFE_SCHEMA, load as loadYaml, Type as JsYamlType, type Schema as JsYamlSchema } from 'js-yaml';
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

/**
 * One reading of YAML whichever path runs: the YAML 1.2 core schema, whatever `%YAML` directive the file carries.
 * No merge keys (`<<` is a key like any other) and no YAML 1.1 tags (`!!binary`, `!!timestamp`, ...).
 */
const YAML_OPTIONS = { schema: 'core', merge: false, resolveKnownTags: false } as const;

/**
 * js-yaml's scalar types built from `yaml`'s own core tags, so both paths resolve every plain scalar with the
 * same tests and the same conversions (js-yaml's CORE_SCHEMA alone reads `0b101` and `-0x1f` as numbers).
 */
function createJsYamlCoreSchema(): JsYamlSchema {
  const tags: ScalarTag[] = [];
  for (const t of new Schema(YAML_OPTIONS).tags) if (!('collection' in t) && 'test' in t && t.test !== undefined) tags.push(t);
  const onError = (): void => undefined;
  // yaml takes the first tag (in its order) whose test matches a plain scalar; anything else is a string.
  const construct = (candidates: readonly ScalarTag[]) => (data: unknown) => {
    if (data === null) return null;
    const text = data as string;
    const value = candidates.find((t) => t.test!.test(text))!.resolve(text, onError, {});
    return isScalar(value) ? value.value : value;
  };
  // One implicit type tests all of them at once: most scalars in a spec are strings, and match none.
  const any = new RegExp(tags.map((t) => `(?:${t.test!.source})`).join('|'));
  // Its tag is one of the real ones, whose own explicit type below replaces it for `!!tag` (js-yaml: later wins).
  const implicit = new JsYamlType(tags[0]!.tag, { kind: 'scalar', resolve: (data: unknown) => typeof data === 'string' && any.test(data), construct: construct(tags) });
  // Explicit tags (`!!int 7`) resolve with that tag's own tests; an empty node is null (js-yaml passes null for it).
  const explicit = [...new Set(tags.map((t) => t.tag))].map((tag) => {
    const own = tags.filter((t) => t.tag === tag);
    return new JsYamlType(tag, { kind: 'scalar', resolve: (data: unknown) => (data === null ? tag.endsWith(':null') : typeof data === 'string' && own.some((t) => t.test!.test(data))), construct: construct(own) });
  });
  return FAILSAFE_SCHEMA.extend({ implicit: [implicit], explicit });
}

let jsYamlCoreSchema: JsYamlSchema | undefined;

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
  return loadSpecTextFast(text, file) ?? loadSpecTextWithPositions(text, file);
}

/**
 * True when the value is a tree the positions path reads the same way: no deeper than the limit, no shared
 * object (an alias), every collection js-yaml built is in it (none was used as a key: the counts agree), no key is `null` (the key
 * js-yaml makes of a null key) and no list holds a null (js-yaml misplaces the items after an empty entry of a
 * compact nested list, `- -`). Walks without recursion.
 */
function isPlainTree(root: unknown, built: ReadonlySet<object>): boolean {
  const seen = new Set<object>();
  const stack: { v: unknown; depth: number }[] = [{ v: root, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > MAX_SPEC_DEPTH || seen.has(v)) return false;
    seen.add(v);
    if (Array.isArray(v) ? v.includes(null) : Object.prototype.hasOwnProperty.call(v, 'null')) return false;
    for (const child of Object.values(v)) if (child !== null && typeof child === 'object') stack.push({ v: child, depth: depth + 1 });
  }
  return seen.size === built.size;
}

/**
 * The common case, fast: a well-formed single mapping with no shared nodes, read by js-yaml (with the YAML 1.2
 * core schema's own tags, duplicate keys refused) about 25 times faster than the position-keeping parser.
 * Positions are only needed for diagnostics, so the source map is built on first use. Anything unusual — a
 * syntax error, duplicate keys, several documents, aliases of collections, explicit tags js-yaml cannot resolve,
 * null or collection keys, deep nesting — is left to the positions path (undefined), which reports it with a
 * position; where both read a file, they read the same document (test/spec/spec-loader-agree.test.ts).
 */
export function loadSpecTextFast(text: string, file = '<input>'): LoadedSpec | undefined {
  let document: unknown;
  // A set, not a count: js-yaml closes a flow collection that is a block list's item (`- { a: 1 }`) twice.
  const built = new Set<object>();
  try {
    jsYamlCoreSchema ??= createJsYamlCoreSchema();
    document = loadYaml(text, {
      schema: jsYamlCoreSchema,
      json: false,
      listener: (event, state) => {
        if (event === 'close' && typeof state.result === 'object' && state.result !== null) built.add(state.result);
      },
    });
  } catch {
    return undefined;
  }
  if (document === null || typeof document !== 'object' || Array.isArray(document) || !isPlainTree(document, built)) return undefined;
  let sourceMap: SourceMap | undefined;
  return {
    file,
    document,
    diagnostics: [],
    get sourceMap() {
      sourceMap ??= loadSpecTextWithPositions(text, file).sourceMap;
      return sourceMap;
    },
  };
}

/** The position-keeping parse: the `yaml` package's concrete syntax tree, then its composer. */
export function loadSpecTextWithPositions(text: string, file = '<input>'): LoadedSpec {
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
  const docs = Array.from(new Composer({ ...YAML_OPTIONS, uniqueKeys: false, prettyErrors: false }).compose(tokens));
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
  const badKeys = buildSourceMap(root, sourceMap, at, (a) => a.resolve(doc as Document.Parsed));
  if (badKeys.length > 0) {
    badKeys.sort((a, b) => a.at.line - b.at.line || a.at.column - b.at.column);
    return failed(
      file,
      badKeys.map((d) =>
        d.kind === 'duplicate'
          ? createDiagnostic('duplicate-key', { key: `\`${d.key}\`` }, { file, ...d.at })
          : createDiagnostic('yaml-syntax', { yamlCode: 'KEY_NOT_TEXT', detail: `a mapping key must be text, a number or a boolean, not ${d.key}` }, { file, ...d.at }),
      ),
    );
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

/**
 * Fills the source map; returns the keys a spec cannot hold: those that repeat a key of the same mapping once
 * read as the text of a JSON key (`1`, `1.0` and `"1"` are one key), and null, list and mapping keys.
 */
function buildSourceMap(
  root: YamlNode,
  map: Map<string, SourceEntry>,
  at: (offset: number) => SourcePosition,
  resolveAlias: (alias: Alias) => YamlNode | undefined,
): { kind: 'duplicate' | 'not-text'; key: string; at: SourcePosition }[] {
  const duplicates: { kind: 'duplicate' | 'not-text'; key: string; at: SourcePosition }[] = [];
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
        const keyPos = at(k?.range?.[0] ?? node.range?.[0] ?? 0);
        // An alias key is the key it names, as the document reads it.
        const key = k !== null && isAlias(k) ? resolveAlias(k) : k;
        if (key === null || key === undefined || !isScalar(key) || key.value === null) {
          duplicates.push({ kind: 'not-text', key: isSeq(key) ? 'a list' : isMap(key) ? 'a mapping' : 'null', at: keyPos });
          continue;
        }
        const keyText = String(key.value);
        if (keys.has(keyText)) duplicates.push({ kind: 'duplicate', key: keyText, at: keyPos });
        keys.add(keyText);
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
