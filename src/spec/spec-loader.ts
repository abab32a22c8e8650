import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type { Alias, CST, Document, Node as YamlNode } from 'yaml';
import { FAILSAFE_SCHEMA, load as loadYaml, Type as JsYamlType, type Schema as JsYamlSchema } from 'js-yaml';
import { createDiagnostic, type Diagnostic, type SourcePosition } from '../diagnostics/diagnostics-catalogue.js';
import { getFastPaths } from '../util/util-fast-paths.js';
import { joinPointer } from '../util/util-json-pointer.js';

/**
 * The position-keeping parser (`yaml`), loaded on first use: a clean spec the fast path reads never needs it, and
 * loading it is a third of what `check` of a small spec costs.
 */
let yamlModule: typeof Yaml | undefined;
function yaml(): typeof Yaml {
  yamlModule ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return yamlModule;
}

/**
 * Larger than any spec written by hand, and than the imports of large public APIs (Rebilly's 1 MB OpenAPI document
 * imports to a 6 MB spec); anything larger is refused before parsing.
 */
export const MAX_SPEC_BYTES = 16 * 1024 * 1024;
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

/**
 * One reading of YAML whichever path runs: the YAML 1.2 core schema, whatever `%YAML` directive the file carries.
 * No merge keys (`<<` is a key like any other) and no YAML 1.1 tags (`!!binary`, `!!timestamp`, ...).
 */
const YAML_OPTIONS = { schema: 'core', merge: false, resolveKnownTags: false } as const;

export interface CoreScalarTag {
  tag: string;
  test: RegExp;
  resolve: (text: string) => unknown;
}

/**
 * The scalar tags of `yaml`'s YAML 1.2 core schema, in its order, with its tests and conversions (copied, so the
 * fast path need not load `yaml`; test/spec/spec-loader-agree.test.ts compares them with `yaml`'s own), so both
 * paths resolve every plain scalar alike (js-yaml's CORE_SCHEMA alone reads `0b101` and `-0x1f` as numbers).
 */
export const CORE_SCALAR_TAGS: readonly CoreScalarTag[] = [
  { tag: 'tag:yaml.org,2002:null', test: /^(?:~|[Nn]ull|NULL)?$/, resolve: () => null },
  { tag: 'tag:yaml.org,2002:bool', test: /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/, resolve: (s) => s[0] === 't' || s[0] === 'T' },
  { tag: 'tag:yaml.org,2002:int', test: /^0o[0-7]+$/, resolve: (s) => parseInt(s.substring(2), 8) },
  { tag: 'tag:yaml.org,2002:int', test: /^[-+]?[0-9]+$/, resolve: (s) => parseInt(s, 10) },
  { tag: 'tag:yaml.org,2002:int', test: /^0x[0-9a-fA-F]+$/, resolve: (s) => parseInt(s.substring(2), 16) },
  {
    tag: 'tag:yaml.org,2002:float',
    test: /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
    resolve: (s) => (s.slice(-3).toLowerCase() === 'nan' ? NaN : s[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY),
  },
  { tag: 'tag:yaml.org,2002:float', test: /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/, resolve: (s) => parseFloat(s) },
  { tag: 'tag:yaml.org,2002:float', test: /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/, resolve: (s) => parseFloat(s) },
];

/** A plain scalar as the YAML 1.2 core schema reads it: `1.0` is the number 1, `true` a boolean, anything else text. */
function resolvePlain(text: string): unknown {
  const tag = CORE_SCALAR_TAGS.find((t) => t.test.test(text));
  return tag === undefined ? text : tag.resolve(text);
}

function createJsYamlCoreSchema(): JsYamlSchema {
  const tags = CORE_SCALAR_TAGS;
  // yaml takes the first tag (in its order) whose test matches a plain scalar; anything else is a string.
  const construct = (candidates: readonly CoreScalarTag[]) => (data: unknown) => {
    if (data === null) return null;
    const text = data as string;
    return candidates.find((t) => t.test.test(text))!.resolve(text);
  };
  // One implicit type tests all of them at once: most scalars in a spec are strings, and match none.
  const any = new RegExp(tags.map((t) => `(?:${t.test.source})`).join('|'));
  // Its tag is one of the real ones, whose own explicit type below replaces it for `!!tag` (js-yaml: later wins).
  const implicit = new JsYamlType(tags[0]!.tag, {
    kind: 'scalar',
    resolve: (data: unknown) => typeof data === 'string' && any.test(data),
    construct: construct(tags),
  });
  // Explicit tags (`!!int 7`) resolve with that tag's own tests; an empty node is null (js-yaml passes null for it).
  const explicit = [...new Set(tags.map((t) => t.tag))].map((tag) => {
    const own = tags.filter((t) => t.tag === tag);
    return new JsYamlType(tag, {
      kind: 'scalar',
      resolve: (data: unknown) => (data === null ? tag.endsWith(':null') : typeof data === 'string' && own.some((t) => t.test.test(data))),
      construct: construct(own),
    });
  });
  return FAILSAFE_SCHEMA.extend({ implicit: [implicit], explicit });
}

let jsYamlCoreSchema: JsYamlSchema | undefined;

function failed(file: string, diagnostics: Diagnostic[]): LoadedSpec {
  return { file, document: undefined, sourceMap: new Map(), diagnostics };
}

/** How a spec is read. */
export interface LoadOptions {
  /** False: the `yaml` package alone (the plain path); default SERVICESPEC_FAST_PATHS (docs/architecture.md, "Fast paths"). */
  fastPaths?: boolean;
}

export function loadSpecFile(path: string, options: LoadOptions = {}): LoadedSpec {
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
  return loadSpecBytes(bytes, path, options);
}

export function loadSpecBytes(bytes: Uint8Array, file = '<input>', options: LoadOptions = {}): LoadedSpec {
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
  return loadSpecText(text, file, options);
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

export function loadSpecText(input: string, file = '<input>', options: LoadOptions = {}): LoadedSpec {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  if (text.length > MAX_SPEC_BYTES) {
    return failed(file, [createDiagnostic('file-too-large', { size: text.length, limit: MAX_SPEC_BYTES }, { file })]);
  }
  if (text.trim() === '') return failed(file, [createDiagnostic('empty-document', {}, { file, line: 1, column: 1 })]);
  // SERVICESPEC_FAST_PATHS=off: the `yaml` package alone, the plain reader the fast one must agree with.
  if (!getFastPaths(options.fastPaths)) return loadSpecTextWithPositions(text, file);
  return loadSpecTextFast(text, file) ?? loadSpecTextWithPositions(text, file);
}

/**
 * True when the value is a tree the positions path reads the same way: no deeper than the limit, no shared
 * object (an alias), every collection js-yaml built is in it (none was used as a key: the counts agree), no key is `null` (the key
 * js-yaml makes of a null key) and no list holds a null (js-yaml misplaces the items after an empty entry of a
 * compact nested list, `- -`). Walks without recursion. `built` is the set of collections js-yaml built, or, for
 * a text with no anchor (no `&`, so no alias and no shared object), their count.
 */
function isPlainTree(root: unknown, built: ReadonlySet<object> | number): boolean {
  const seen = typeof built === 'number' ? undefined : new Set<object>();
  let count = 0;
  // Two stacks side by side (node, depth): no object per entry on a tree of tens of thousands of nodes.
  const nodes: object[] = [];
  const depths: number[] = [];
  const push = (node: object, depth: number): void => {
    nodes.push(node);
    depths.push(depth);
  };
  if (root !== null && typeof root === 'object') push(root, 0);
  while (nodes.length > 0) {
    const v = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth > MAX_SPEC_DEPTH) return false;
    if (seen !== undefined) {
      if (seen.has(v)) return false;
      seen.add(v);
    }
    count++;
    if (Array.isArray(v)) {
      for (const child of v as unknown[]) {
        if (child === null) return false;
        if (typeof child === 'object') push(child, depth + 1);
      }
    } else {
      if (Object.prototype.hasOwnProperty.call(v, 'null')) return false;
      for (const k in v) {
        const child = (v as Record<string, unknown>)[k];
        if (child !== null && typeof child === 'object') push(child, depth + 1);
      }
    }
  }
  return count === (typeof built === 'number' ? built : built.size);
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
  // A carriage return not before a line feed: js-yaml reads it as a line break (folding `"a<CR> b"` to `a b`), the
  // position-keeping parser as a character of the line; such a text takes the positions path, so both read it alike.
  if (text.includes('\r') && /\r(?!\n)/.test(text)) return undefined;
  let document: unknown;
  // A set where the text has anchors: js-yaml closes a flow collection that is a block list's item (`- { a: 1 }`)
  // twice, and an alias closes its anchor's collection again. Without anchors, a count of the collections closed
  // (the same one twice in a row counted once): a set of every object costs more than reading them.
  const anchored = text.includes('&');
  const built = new Set<object>();
  let closed = 0;
  let last: unknown;
  try {
    jsYamlCoreSchema ??= createJsYamlCoreSchema();
    document = loadYaml(text, {
      schema: jsYamlCoreSchema,
      json: false,
      listener: anchored
        ? (event, state) => {
            if (event === 'close' && typeof state.result === 'object' && state.result !== null) built.add(state.result);
          }
        : (event, state) => {
            if (event !== 'close') return;
            const r: unknown = state.result;
            if (typeof r !== 'object' || r === null) return;
            if (r !== last) closed++;
            last = r;
          },
    });
  } catch {
    return undefined;
  }
  if (document === null || typeof document !== 'object' || Array.isArray(document) || !isPlainTree(document, anchored ? built : closed)) return undefined;
  let sourceMap: SourceMap | undefined;
  return {
    file,
    document,
    diagnostics: [],
    get sourceMap() {
      sourceMap ??= new LazySourceMap(text, file, document);
      return sourceMap;
    },
  };
}

/** A node in block style: its first line, the column it starts at there, and the line after its last. */
interface Region {
  line: number;
  col: number;
  end: number;
}

/** Not sure: the positions path answers instead. */
const UNSURE = Symbol('unsure');

/**
 * The source map of a file the fast path read, without parsing the whole file again: a pointer's position is
 * found by following its keys down the block structure line by line (indentation only), then parsing the few
 * lines of the node it ends in with the position-keeping parser. Anything the scanner is not sure of — flow
 * style above the node, tags, anchors, directives, escapes in keys — falls back to the whole positions path,
 * so every answer is the one that path gives (test/spec/spec-loader-agree.test.ts).
 */
class LazySourceMap implements ReadonlyMap<string, SourceEntry> {
  #full: SourceMap | undefined;
  readonly #lines: string[];
  /** Where each line starts in the text. */
  readonly #starts: number[];
  /** By column: the line starts a node at that column looks at (#index). */
  readonly #shallow = new Map<number, RegExp>();
  readonly #indexes = new Map<string, { list: boolean; items: Map<string, Region> } | undefined>();
  readonly #found = new Map<string, SourceEntry | undefined>();

  constructor(
    private readonly text: string,
    private readonly file: string,
    private readonly document: unknown,
  ) {
    this.#lines = text.split('\n');
    this.#starts = new Array<number>(this.#lines.length);
    let at = 0;
    for (let l = 0; l < this.#lines.length; l++) {
      this.#starts[l] = at;
      at += this.#lines[l]!.length + 1;
    }
  }

  get #map(): SourceMap {
    this.#full ??= loadSpecTextWithPositions(this.text, this.file).sourceMap;
    return this.#full;
  }

  get(pointer: string): SourceEntry | undefined {
    if (this.#full) return this.#full.get(pointer);
    if (!this.#found.has(pointer)) {
      const entry = this.#find(pointer);
      if (entry === UNSURE) return this.#map.get(pointer);
      this.#found.set(pointer, entry);
    }
    return this.#found.get(pointer);
  }

  has(pointer: string): boolean {
    return this.get(pointer) !== undefined;
  }
  get size(): number {
    return this.#map.size;
  }
  forEach(fn: (value: SourceEntry, key: string, map: ReadonlyMap<string, SourceEntry>) => void, thisArg?: unknown): void {
    this.#map.forEach(fn, thisArg);
  }
  entries(): MapIterator<[string, SourceEntry]> {
    return this.#map.entries();
  }
  keys(): MapIterator<string> {
    return this.#map.keys();
  }
  values(): MapIterator<SourceEntry> {
    return this.#map.values();
  }
  [Symbol.iterator](): MapIterator<[string, SourceEntry]> {
    return this.#map[Symbol.iterator]();
  }

  #find(pointer: string): SourceEntry | undefined | typeof UNSURE {
    const tokens = (pointer === '' ? [] : pointer.slice(1).split('/')).map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    // Whether it exists is the document's answer; the scanner only says where.
    let v: unknown = this.document;
    for (const t of tokens) {
      if (v === null || typeof v !== 'object' || !Object.hasOwn(v, t) || (Array.isArray(v) && !/^(0|[1-9]\d*)$/.test(t))) return undefined;
      v = (v as Record<string, unknown>)[t];
    }
    const first = this.#nextContent(0, this.#lines.length);
    // A directive, a document marker or a flow mapping first: the positions path answers.
    if (first === undefined || readKey(this.#line(first), 0) === undefined) return UNSURE;
    let node: Region = { line: first, col: 0, end: this.#lines.length };
    let nodePointer = '';
    // The lines of the deepest key or list item found, and the pointer the root of their parse stands for.
    // `own`: the pointer, relative to root, of the node the region's first lines start.
    let target = { region: node, root: '', own: '' };
    for (const token of tokens) {
      const children = this.#children(node);
      if (children === UNSURE) return UNSURE;
      if (children === undefined) break;
      const child = children.items.get(token);
      if (child === undefined) return UNSURE;
      const childPointer = joinPointer(nodePointer, token);
      target = children.list ? { region: child, root: childPointer, own: '' } : { region: child, root: nodePointer, own: joinPointer('', token) };
      const value = this.#valueOf(child, children.list);
      if (value === undefined) break;
      node = value;
      nodePointer = childPointer;
    }
    const { region, root, own } = target;
    const rel = pointer.slice(root.length);
    // Most answers need no parser: the node is on one line, or its value starts on the next.
    const quick = this.#scan(region, own, rel);
    if (quick !== UNSURE) return quick;
    // The region's own node: its first lines say where it and its key start, whatever follows.
    if (rel === own) {
      const short = this.#nextContent(region.line + 1, region.end);
      if (short !== undefined) {
        const entry = this.#parse({ ...region, end: short + 1 })?.get(rel);
        if (entry !== undefined) return entry;
      }
    }
    return this.#parse(region)?.get(rel) ?? UNSURE;
  }

  /**
   * What the position-keeping parse of a region would say of `rel`, read off its lines without it: a region of one
   * line (a key or a list item, its value a scalar or a flow collection on that line), or the position of a key
   * whose value (a block mapping or list) starts on the next line. UNSURE for anything else.
   */
  #scan(region: Region, own: string, rel: string): SourceEntry | typeof UNSURE {
    const s = this.#line(region.line);
    const line = region.line + 1;
    let c = region.col;
    let key: SourcePosition | undefined;
    if (own !== '') {
      const k = readKey(s, c);
      if (k === undefined || joinPointer('', k.key) !== own) return UNSURE;
      key = { line, column: c + 1 };
      c = k.after;
      if (c < s.length && s[c] !== ' ') return UNSURE;
    }
    while (s[c] === ' ') c++;
    const next = this.#nextContent(region.line + 1, region.end);
    if (c >= s.length || (s[c] === '#' && s[c - 1] === ' ')) {
      // The value starts on the next line: a block mapping at its first key, a block list at its first dash.
      if (key === undefined || rel !== own || next !== region.line + 1) return UNSURE;
      const n = this.#line(next);
      const at = this.#indent(next);
      if (at <= region.col || (!isDash(n, at) && readKey(n, at) === undefined)) return UNSURE;
      return { key, value: { line: next + 1, column: at + 1 } };
    }
    // A value on the key's line, and nothing of the region after it.
    if (next !== undefined) return UNSURE;
    // A list item holding a block mapping (`- a: 1`): its own position only.
    if (key === undefined && readKey(s, c) !== undefined) return rel === '' ? { value: { line, column: c + 1 } } : UNSURE;
    const map = new Map<string, SourceEntry>();
    const end = scanNode(s, c, line, own, key, map, false);
    if (end === UNSURE) return UNSURE;
    let e = end;
    while (s[e] === ' ') e++;
    if (e < s.length && !(s[e] === '#' && s[e - 1] === ' ')) return UNSURE;
    return map.get(rel) ?? UNSURE;
  }

  /** The position-keeping parse of a region's lines, positions in the whole file; undefined on any error. */
  #parse(region: Region): SourceMap | undefined {
    const lines = this.#lines.slice(region.line, region.end);
    lines[0] = ' '.repeat(region.col) + lines[0]!.slice(region.col);
    const { Composer, LineCounter, Parser } = yaml();
    const lineCounter = new LineCounter();
    const at = (offset: number): SourcePosition => {
      const p = lineCounter.linePos(offset);
      return { line: p.line + region.line, column: p.col };
    };
    const docs = Array.from(
      new Composer({ ...YAML_OPTIONS, uniqueKeys: false, prettyErrors: false }).compose(new Parser(lineCounter.addNewLine).parse(lines.join('\n'))),
    );
    const doc = docs[0];
    if (docs.length !== 1 || doc === undefined || doc.errors.length > 0 || doc.contents === null) return undefined;
    const map = new Map<string, SourceEntry>();
    if (buildSourceMap(doc.contents, map, at, (a) => a.resolve(doc as Document.Parsed)).length > 0) return undefined;
    return map;
  }

  /** The keys of a block mapping, or the items of a block list, each with its lines; undefined if not block style. */
  #children(node: Region): { list: boolean; items: Map<string, Region> } | undefined | typeof UNSURE {
    const cacheKey = `${node.line}:${node.col}:${node.end}`;
    const cached = this.#indexes.get(cacheKey);
    if (cached !== undefined) return cached;
    const result = this.#index(node);
    if (result !== UNSURE) this.#indexes.set(cacheKey, result);
    return result;
  }

  #index(node: Region): { list: boolean; items: Map<string, Region> } | undefined | typeof UNSURE {
    const s = this.#line(node.line);
    const col = node.col;
    const list = isDash(s, col);
    if (!list && readKey(s, col) === undefined) return undefined;
    const starts: { name: string; line: number; col: number }[] = [];
    const add = (line: number): boolean => {
      if (list) {
        starts.push({ name: String(starts.length), line, col: col + 1 });
        return true;
      }
      const key = readKey(this.#line(line), col);
      if (key === undefined) return false;
      starts.push({ name: key.key, line, col });
      return true;
    };
    add(node.line);
    let end = node.end;
    // The lines after the first that can end the node or start one of its entries: those of content indented by at
    // most `col` spaces, or with a tab after their spaces. The regular expression finds the line feeds before them
    // and steps over every other line, which holds no content or is indented deeper (the loop below would skip it);
    // those found are read as before.
    const text = this.text;
    const limit = node.end < this.#starts.length ? this.#starts[node.end]! - 1 : text.length;
    let shallow = this.#shallow.get(col);
    if (shallow === undefined) {
      shallow = new RegExp(`\\n(?: {0,${col}}(?! )| *\\t)`, 'g');
      this.#shallow.set(col, shallow);
    }
    shallow.lastIndex = node.line + 1 < this.#starts.length ? this.#starts[node.line + 1]! - 1 : text.length;
    let l = node.line;
    for (let m = shallow.exec(text); m !== null && m.index < limit; m = shallow.exec(text)) {
      l = this.#lineAt(m.index + 1, l + 1);
      if (this.#nextContent(l, l + 1) === undefined) continue;
      const indent = this.#indent(l);
      if (indent < 0) return UNSURE;
      if (indent > col) continue;
      if (indent < col) {
        end = l;
        break;
      }
      const dash = isDash(this.#line(l), col);
      if (list && !dash) {
        end = l;
        break;
      }
      // In a mapping, a list at the key's own indentation is the previous key's value.
      if (!list && dash) continue;
      if (!add(l)) return UNSURE;
    }
    const items = new Map<string, Region>();
    starts.forEach((c, i) => items.set(c.name, { line: c.line, col: c.col, end: starts[i + 1]?.line ?? end }));
    return { list, items };
  }

  /** Where the block node under a key (or in a list item) starts; undefined when it is on the key's line or empty. */
  #valueOf(child: Region, item: boolean): Region | undefined {
    const s = this.#line(child.line);
    let c = item ? child.col : (readKey(s, child.col)?.after ?? -1);
    if (c < 0) return undefined;
    while (s[c] === ' ') c++;
    if (c < s.length && s[c] !== '#') return item ? { line: child.line, col: c, end: child.end } : undefined;
    const next = this.#nextContent(child.line + 1, child.end);
    return next === undefined ? undefined : { line: next, col: this.#indent(next), end: child.end };
  }

  /** The line starting at `offset` (a line start), at or after line `from`. */
  #lineAt(offset: number, from: number): number {
    let lo = from;
    let hi = this.#starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.#starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  #line(l: number): string {
    const s = this.#lines[l]!;
    return s.endsWith('\r') ? s.slice(0, -1) : s;
  }

  /** Spaces before the content; -1 when a tab comes first (the scanner leaves that to the parser). */
  #indent(l: number): number {
    const s = this.#lines[l]!;
    let i = 0;
    while (s.charCodeAt(i) === 32) i++;
    return s.charCodeAt(i) === 9 ? -1 : i;
  }

  /** The first line in [from, to) with content other than a comment. */
  #nextContent(from: number, to: number): number | undefined {
    for (let l = from; l < to; l++) {
      const s = this.#lines[l]!;
      let i = 0;
      while (s.charCodeAt(i) === 32 || s.charCodeAt(i) === 9) i++;
      if (i < s.length && s[i] !== '#' && s[i] !== '\r') return l;
    }
    return undefined;
  }
}

/**
 * Records the positions of the node at `i` of one line and of all it holds, as buildSourceMap would of the
 * position-keeping parse; returns the index after it, or UNSURE (anchors, tags, aliases, escapes, block scalars,
 * empty entries, a collection that does not end on the line...).
 */
function scanNode(
  s: string,
  i: number,
  line: number,
  pointer: string,
  key: SourcePosition | undefined,
  map: Map<string, SourceEntry>,
  flow: boolean,
): number | typeof UNSURE {
  const value = { line, column: i + 1 };
  map.set(pointer, key ? { key, value } : { value });
  const open = s[i];
  if (open !== '{' && open !== '[') {
    const scalar = scanScalar(s, i, flow);
    return scalar === UNSURE ? UNSURE : scalar.end;
  }
  const close = open === '{' ? '}' : ']';
  const skip = (j: number): number => {
    while (s[j] === ' ') j++;
    return j;
  };
  let j = skip(i + 1);
  let index = 0;
  while (s[j] !== close) {
    let end: number | typeof UNSURE;
    if (open === '{') {
      const k = scanScalar(s, j, true);
      if (k === UNSURE) return UNSURE;
      const name = k.quoted ? k.text : resolvePlain(k.text);
      if (name === null) return UNSURE;
      const colon = skip(k.end);
      if (s[colon] !== ':' || s[colon + 1] !== ' ') return UNSURE;
      const v = skip(colon + 1);
      if (v >= s.length || s[v] === ',' || s[v] === '}' || s[v] === '#') return UNSURE;
      end = scanNode(s, v, line, joinPointer(pointer, String(name)), { line, column: j + 1 }, map, true);
    } else {
      if (j >= s.length || s[j] === ',' || s[j] === '#') return UNSURE;
      end = scanNode(s, j, line, joinPointer(pointer, index++), undefined, map, true);
    }
    if (end === UNSURE) return UNSURE;
    j = skip(end);
    if (s[j] === ',') j = skip(j + 1);
    else if (s[j] !== close) return UNSURE;
  }
  return j + 1;
}

/** A plain or quoted scalar at `i` that ends on the line: its text (unescaped) and the index after it. */
function scanScalar(s: string, i: number, flow: boolean): { text: string; quoted: boolean; end: number } | typeof UNSURE {
  const ch = s[i];
  if (ch === '"' || ch === "'") {
    let j = i + 1;
    let text = '';
    for (;;) {
      if (j >= s.length || (ch === '"' && s[j] === '\\')) return UNSURE;
      if (s[j] === ch) {
        if (ch === "'" && s[j + 1] === "'") {
          text += "'";
          j += 2;
          continue;
        }
        return { text, quoted: true, end: j + 1 };
      }
      text += s[j];
      j++;
    }
  }
  if (ch === undefined || '[]{},#&*!|>%@`'.includes(ch)) return UNSURE;
  const after = s[i + 1];
  if ('-?:'.includes(ch) && (after === undefined || after === ' ' || ',[]{}'.includes(after))) return UNSURE;
  let j = i;
  let last = i;
  while (j < s.length) {
    const c = s[j]!;
    if (c === ':' && (j + 1 === s.length || s[j + 1] === ' ' || (flow && ',[]{}'.includes(s[j + 1]!)))) break;
    if (c === '#' && s[j - 1] === ' ') break;
    if (c === '\t') return UNSURE;
    if (flow && (c === ',' || c === ']' || c === '}')) break;
    if (flow && (c === '[' || c === '{')) return UNSURE;
    if (c !== ' ') last = j + 1;
    j++;
  }
  return { text: s.slice(i, last), quoted: false, end: last };
}

function isDash(s: string, col: number): boolean {
  return s[col] === '-' && (col + 1 === s.length || s[col + 1] === ' ');
}

/**
 * The key of a simple `key:` at a column, as the document reads it, and the column after its colon; undefined
 * for anything else (explicit keys, anchors, tags, escapes, flow collections, plain text with no colon).
 */
function readKey(s: string, col: number): { key: string; after: number } | undefined {
  const ch = s[col];
  let key: string;
  let j: number;
  if (ch === '"' || ch === "'") {
    j = col + 1;
    for (;;) {
      if (j >= s.length || (ch === '"' && s[j] === '\\')) return undefined;
      if (s[j] === ch) {
        if (ch === "'" && s[j + 1] === "'") {
          j += 2;
          continue;
        }
        break;
      }
      j++;
    }
    key = s.slice(col + 1, j);
    if (ch === "'") key = key.replace(/''/g, "'");
    j++;
    while (s[j] === ' ') j++;
    if (s[j] !== ':' || (j + 1 < s.length && s[j + 1] !== ' ')) return undefined;
  } else {
    if (ch === undefined || '[]{},#&*!|>%@`'.includes(ch) || ('-?:'.includes(ch) && (col + 1 === s.length || s[col + 1] === ' '))) return undefined;
    j = col;
    while (j < s.length && !(s[j] === ':' && (j + 1 === s.length || s[j + 1] === ' '))) {
      if (s[j] === '#' && s[j - 1] === ' ') return undefined;
      j++;
    }
    if (j >= s.length) return undefined;
    const text = s.slice(col, j).trimEnd();
    const value = resolvePlain(text);
    if (value === null) return undefined;
    key = String(value);
  }
  return { key, after: j + 1 };
}

/** The position-keeping parse: the `yaml` package's concrete syntax tree, then its composer. */
export function loadSpecTextWithPositions(text: string, file = '<input>'): LoadedSpec {
  const { Composer, LineCounter, Parser, isMap, isScalar, isSeq } = yaml();
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
          : createDiagnostic(
              'yaml-syntax',
              { yamlCode: 'KEY_NOT_TEXT', detail: `a mapping key must be text, a number or a boolean, not ${d.key}` },
              { file, ...d.at },
            ),
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
          const kids = ['key' in item ? item.key : null, item.value];
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
  const { isAlias, isMap, isPair, isScalar, isSeq } = yaml();
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
