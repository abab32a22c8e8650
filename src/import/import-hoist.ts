// A document split across files, bundled: what the bundler inlined at a first use and pointed later uses at is
// moved to the document's named sections, under the name of the file (or fragment) the user cited there. And a
// pointer into the bundled document is said as the place in the user's own files it came from.
//
// The bundler (swagger-parser) inlines each cited file at the first place that cites it and points every other use
// at that place (`#/paths/~1v2~1droplets/get/responses/200/content/application~1json/schema/…/items` for a second
// `droplet.yml`): nothing of the split document is then a named component, and the importer, which takes resources
// from named schemas, cannot tell them. Swagger 2.0 and OpenAPI 3 share the move; each says where a target goes.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve as resolvePath } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { escapePointerToken, getPointerTokens } from '../util/util-json-pointer.js';
import { isObject as isObj } from './import-schema.js';

type Obj = Record<string, unknown>;

/** A place in one of the user's files: `file` as the user would name it (beside the entry file as given). */
export interface SourcePlace {
  file: string;
  pointer: string;
}

/** The tokens of a `$ref`'s fragment (`#/paths/~1v2~1apps~1%7Bapp_id%7D/get`): a URI fragment, percent-encoded. */
export function refTokens(ref: string): string[] {
  const fragment = ref.replace(/^#/, '');
  try {
    return getPointerTokens(decodeURIComponent(fragment));
  } catch {
    return getPointerTokens(fragment);
  }
}

/** The node at `tokens`, nothing followed. */
function nodeAt(root: unknown, tokens: readonly string[]): unknown {
  let node = root;
  for (const t of tokens) {
    if (Array.isArray(node)) node = node[Number(t)];
    else if (isObj(node) && Object.hasOwn(node, t)) node = node[t];
    else return undefined;
  }
  return node;
}

export const tokensToPointer = (tokens: readonly string[]): string => tokens.map((t) => `/${escapePointerToken(t)}`).join('');

/**
 * The user's files as they are on disk, read once each: the entry document (already parsed) and every file a `$ref`
 * names, relative to the file that names it. Nothing is downloaded: an address on the network is not followed.
 */
export class SourceFiles {
  private readonly cache = new Map<string, unknown>();

  /** `entry`: the entry document's path as the user gave it (a label for an in-memory one); `base`: its directory. */
  constructor(
    private readonly entryDoc: unknown,
    private readonly entry: string,
    private readonly base: string,
  ) {}

  private get entryPath(): string {
    return join(this.base, '\u0000entry');
  }

  private load(abs: string): unknown {
    if (abs === this.entryPath) return this.entryDoc;
    if (!this.cache.has(abs)) {
      let value: unknown;
      try {
        const text = readFileSync(abs, 'utf8');
        value = text.trimStart().startsWith('{') ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 10_000 });
      } catch {
        value = undefined;
      }
      this.cache.set(abs, value);
    }
    return this.cache.get(abs);
  }

  /** The file's name as the user would write it: beside the entry file as given. */
  private nameOf(abs: string): string {
    return abs === this.entryPath ? this.entry : join(dirname(this.entry), relative(this.base, abs));
  }

  /** Where a `$ref` written in file `abs` leads: the file and the pointer in it, or undefined (the network, nothing). */
  private follow(abs: string, ref: string): { abs: string; tokens: string[] } | undefined {
    const hash = ref.indexOf('#');
    const target = hash < 0 ? ref : ref.slice(0, hash);
    const fragment = hash < 0 ? '' : ref.slice(hash + 1);
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined;
    const tokens = refTokens(fragment);
    if (target === '') return { abs, tokens };
    let path: string;
    try {
      path = decodeURIComponent(target);
    } catch {
      path = target;
    }
    return { abs: resolvePath(abs === this.entryPath ? this.base : dirname(abs), path), tokens };
  }

  /**
   * Walks `tokens` from the entry document, following each `$ref` on the way (into other files too; a bounded
   * number of hops at each step, so a cycle of references ends). Returns the deepest place reached, as a file and
   * a pointer in it, and the `$ref` written at the last token when the walk got there and found one (what the user
   * cited at that place: `../models/droplet.yml`).
   */
  walk(tokens: readonly string[]): { place: SourcePlace; reached: boolean; cited?: string } {
    let abs = this.entryPath;
    let at: string[] = [];
    let node: unknown = this.load(abs);
    const deref = (): boolean => {
      for (let hops = 0; isObj(node) && typeof node.$ref === 'string'; hops++) {
        if (hops >= 16) return false;
        const next = this.follow(abs, node.$ref);
        if (next === undefined) return false;
        const value = nodeAt(this.load(next.abs), next.tokens);
        if (value === undefined) return false;
        ({ abs, tokens: at } = next);
        node = value;
      }
      return true;
    };
    const placeNow = (): SourcePlace => ({ file: this.nameOf(abs), pointer: tokensToPointer(at) });
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!;
      // A member beside the `$ref` (its `description`) is read there; anything else where the `$ref` leads.
      const beside = isObj(node) && t !== '$ref' && Object.hasOwn(node, t);
      if (!beside && !deref()) return { place: placeNow(), reached: false };
      const child = Array.isArray(node) ? node[Number(t)] : isObj(node) && Object.hasOwn(node, t) ? node[t] : undefined;
      if (child === undefined) return { place: placeNow(), reached: false };
      node = child;
      at = [...at, t];
    }
    const cited = isObj(node) && typeof node.$ref === 'string' ? node.$ref : undefined;
    return { place: placeNow(), reached: true, ...(cited !== undefined ? { cited } : {}) };
  }
}

/** Where a target of the bundled document goes: the section (`definitions`, `components/schemas`), or nowhere. */
export type TargetSection = (tokens: readonly string[]) => readonly string[] | undefined;

/** What hoisting did: the document, and for each place a target went (`/components/schemas/droplet`) where it was. */
export interface Hoisted {
  document: Obj;
  moved: Map<string, string>;
}

/**
 * Each `$ref` target of the bundled document that `sectionOf` places (a place the bundler inlined a file at and
 * pointed other uses at: anywhere under `paths` or `webhooks`, where nothing is named; inside a component, only where
 * the user's files cite another file or fragment) is moved to that section, under the name of the file or fragment the user cited there
 * (`../models/droplet.yml` becomes `droplet`, `parameters.yml#/per_page` `per_page`), else its last segment; a name
 * the section holds already gets `_2`, `_3`. Every `$ref` to it (or into it) then points at the new place.
 */
export function hoistTargets(bundled: Obj, sectionOf: TargetSection, cite: (tokens: readonly string[]) => string | undefined): Hoisted {
  const targets = new Map<string, string[]>();
  const cited = new Map<string, string | undefined>();
  const citeOnce = (tokens: readonly string[]): string | undefined => {
    const key = tokensToPointer(tokens);
    if (!cited.has(key)) cited.set(key, cite(tokens));
    return cited.get(key);
  };
  const collect = (root: unknown, refs?: Obj[]) => {
    const stack: unknown[] = [root];
    while (stack.length > 0) {
      const n = stack.pop();
      if (Array.isArray(n)) for (const v of n) stack.push(v);
      else if (isObj(n)) {
        if (typeof n.$ref === 'string' && n.$ref.startsWith('#/')) {
          if (refs !== undefined) refs.push(n);
          else if (!targets.has(n.$ref)) {
            const tokens = refTokens(n.$ref);
            const section = sectionOf(tokens);
            const named = section !== undefined && tokens.length === section.length + 1 && section.every((s, i) => tokens[i] === s);
            // Inside a component, only where the user cited a file (or a fragment) that the bundler wrote out there:
            // a `$ref` of the user's own to a part of a component (`#/components/schemas/Pet/properties/tag`) stays.
            const unnamed = tokens[0] === 'paths' || tokens[0] === 'webhooks' || citeOnce(tokens) !== undefined;
            if (section !== undefined && !named && unnamed) targets.set(n.$ref, tokens);
          }
        }
        for (const v of Object.values(n)) if (typeof v === 'object' && v !== null) stack.push(v);
      }
    }
  };
  collect(bundled);
  const moved = new Map<string, string>();
  if (targets.size === 0) return { document: bundled, moved };
  const doc = structuredClone(bundled);
  const refs: Obj[] = [];
  collect(doc, refs);
  // The deepest first: a target inside another moves before it, leaving a $ref to where it went.
  for (const [target, tokens] of [...targets].sort((a, b) => b[0].length - a[0].length)) {
    const section = sectionOf(tokens)!;
    const holder = nodeAt(doc, tokens.slice(0, -1));
    const key = tokens.at(-1)!;
    if (!isObj(holder) && !Array.isArray(holder)) continue;
    const value = (holder as Record<string, unknown>)[key];
    if (value === undefined) continue;
    const ref = citeOnce(tokens) ?? '';
    const base = (ref.includes('#') ? (ref.split('/').at(-1) ?? '') : (ref.split('#')[0]!.split('/').at(-1) ?? '').replace(/\.(ya?ml|json)$/i, '')) || key;
    let parent: Obj = doc;
    for (const s of section) parent = (isObj(parent[s]) ? parent[s] : (parent[s] = {})) as Obj;
    const clean = base.replace(/[^A-Za-z0-9_.-]/g, '_');
    let name = clean;
    for (let i = 2; Object.hasOwn(parent, name); i++) name = `${clean}_${i}`;
    parent[name] = value;
    const to = `#${tokensToPointer([...section, name])}`;
    (holder as Record<string, unknown>)[key] = { $ref: to };
    for (const r of refs) {
      const at = r.$ref as string;
      if (at === target || at.startsWith(`${target}/`)) r.$ref = to + at.slice(target.length);
    }
    moved.set(tokensToPointer([...section, name]), tokensToPointer(tokens));
  }
  return { document: doc, moved };
}

// OpenAPI 3: what an object at a place is, read down from a path item (or a component), and the component section
// a target of each kind goes to.
type Kind =
  | 'pathItems'
  | 'pathItem'
  | 'operation'
  | 'parameterList'
  | 'parameter'
  | 'requestBody'
  | 'responses'
  | 'response'
  | 'headers'
  | 'header'
  | 'content'
  | 'mediaType'
  | 'examples'
  | 'example'
  | 'callbacks'
  | 'callback'
  | 'schema'
  | 'schemaMap'
  | 'schemaList';

const OPENAPI3_SECTION: Partial<Record<Kind, string>> = {
  schema: 'schemas',
  parameter: 'parameters',
  requestBody: 'requestBodies',
  response: 'responses',
  header: 'headers',
  example: 'examples',
};
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const SCHEMA_ONE = new Set([
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'additionalItems',
  'unevaluatedItems',
  'unevaluatedProperties',
]);
const SCHEMA_MAP = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

function step(kind: Kind, key: string): Kind | undefined {
  switch (kind) {
    case 'pathItems':
      return 'pathItem';
    case 'pathItem':
      return key === 'parameters' ? 'parameterList' : METHODS.has(key) ? 'operation' : undefined;
    case 'operation':
      return key === 'parameters'
        ? 'parameterList'
        : key === 'requestBody'
          ? 'requestBody'
          : key === 'responses'
            ? 'responses'
            : key === 'callbacks'
              ? 'callbacks'
              : undefined;
    case 'parameterList':
      return 'parameter';
    case 'parameter':
    case 'header':
      return key === 'schema' ? 'schema' : key === 'content' ? 'content' : key === 'examples' ? 'examples' : undefined;
    case 'requestBody':
      return key === 'content' ? 'content' : undefined;
    case 'responses':
      return 'response';
    case 'response':
      return key === 'content' ? 'content' : key === 'headers' ? 'headers' : undefined;
    case 'headers':
      return 'header';
    case 'content':
      return 'mediaType';
    case 'mediaType':
      return key === 'schema' ? 'schema' : key === 'examples' ? 'examples' : undefined;
    case 'examples':
      return 'example';
    case 'callbacks':
      return 'callback';
    case 'callback':
      return 'pathItem';
    case 'schema':
      return SCHEMA_ONE.has(key) ? 'schema' : SCHEMA_MAP.has(key) ? 'schemaMap' : SCHEMA_LIST.has(key) ? 'schemaList' : undefined;
    case 'schemaMap':
    case 'schemaList':
      return 'schema';
    default:
      return undefined;
  }
}

const COMPONENT_KIND: Record<string, Kind> = {
  schemas: 'schema',
  parameters: 'parameter',
  requestBodies: 'requestBody',
  responses: 'response',
  headers: 'header',
  examples: 'example',
  callbacks: 'callback',
  pathItems: 'pathItem',
};

/**
 * OpenAPI 3: a target under `paths` or `webhooks`, or inside a component, goes to the component section of its
 * kind (a schema to `components/schemas`, a parameter, request body, response, header or example to theirs);
 * one directly under a section (`components/schemas/Pet`) is named already, and anything else stays where it is.
 */
export const openApi3Section: TargetSection = (tokens) => {
  let kind: Kind | undefined;
  let rest: readonly string[];
  if (tokens[0] === 'paths' || tokens[0] === 'webhooks') {
    kind = 'pathItems';
    rest = tokens.slice(1);
  } else if (tokens[0] === 'components' && tokens[1] !== undefined && tokens[2] !== undefined && COMPONENT_KIND[tokens[1]] !== undefined) {
    kind = COMPONENT_KIND[tokens[1]];
    rest = tokens.slice(3);
  } else return undefined;
  for (const t of rest) {
    kind = step(kind!, t);
    if (kind === undefined) return undefined;
  }
  const section = OPENAPI3_SECTION[kind!];
  return section === undefined ? undefined : ['components', section];
};

/**
 * Swagger 2.0: a target under `paths` goes to `definitions` when it is a schema (or inside one), to `parameters`
 * or `responses` when it is one; the conversion to OpenAPI 3 moves what is under an operation, so a `$ref` there
 * would point at nothing.
 */
export const swagger2Section: TargetSection = (tokens) => {
  if (tokens[0] !== 'paths') return undefined;
  if (tokens.includes('schema')) return ['definitions'];
  if (tokens.at(-2) === 'parameters') return ['parameters'];
  if (tokens.at(-2) === 'responses') return ['responses'];
  return undefined;
};

/**
 * A pointer into the hoisted document, as the place in the user's files it came from: a moved target back at its
 * first use, then walked from the entry document through each `$ref` (into the file it names), down to the deepest
 * place the files hold.
 */
export function getSourcePlace(pointer: string, moved: ReadonlyMap<string, string>, files: SourceFiles): SourcePlace {
  // Some places are said as a `$ref` names them (`#/components/…`, percent-encoded): read as the pointer they are.
  let p = tokensToPointer(pointer.startsWith('#') ? refTokens(pointer) : getPointerTokens(pointer));
  // A target moved out of another moved one: back through each, the latest first.
  for (let i = 0; i < 64; i++) {
    let best: string | undefined;
    for (const to of moved.keys()) if ((p === to || p.startsWith(`${to}/`)) && (best === undefined || to.length > best.length)) best = to;
    if (best === undefined) break;
    p = moved.get(best)! + p.slice(best.length);
  }
  return files.walk(getPointerTokens(p)).place;
}
