// Where each name of the spec is declared and where it is used, for go to definition, references, rename,
// hover and completion. The places are the format's (schema/servicespec.schema.json's name references, each
// below); whether a use resolves is the checker's business, not this file's.

import { getAt, splitPointer, type TextSpan, type YamlEntry, type YamlOutline } from './lsp-yaml.js';
import { escapePointerToken } from '../util/util-json-pointer.js';

export type NameKind = 'resource' | 'field' | 'state' | 'transition' | 'scheme' | 'scope' | 'error code' | 'event' | 'operation' | 'shape';

export interface NameSite {
  kind: NameKind;
  name: string;
  /** For fields, states and transitions: the resource they belong to. */
  owner?: string;
  span: TextSpan;
  pointer: string;
  declaration: boolean;
}

type Owner = (segments: string[], data: unknown) => string | undefined;

interface Rule {
  kind: NameKind;
  /** Matched against the pointer; `*` is one segment. */
  pattern: RegExp;
  /** The key is the name (a declaration, or a use as a key: `states: { Order: ... }`), or the value is. */
  at: 'key' | 'value';
  declaration?: boolean;
  owner?: Owner;
  /** Applies only where this holds (the pattern alone cannot say it). */
  when?: (segments: string[], data: unknown) => boolean;
  /**
   * The value is a field path (`metadata.name`, as `bind` and `unique_keys` write one): its first segment names the
   * owner's field, unless the owner has a field of the whole dotted name.
   */
  path?: boolean;
}

const SEG = '[^/]+';
const N = '\\d+';
const rx = (s: string): RegExp => new RegExp(`^${s.replace(/\*/g, SEG).replace(/#/g, N)}$`);
/** The owner is a segment of the pointer (`/resources/Order/...` → Order). */
const segment =
  (i: number): Owner =>
  (segments) =>
    segments[i];
/** An operation's fields and transitions belong to the operation's resource. */
const operationResource: Owner = (segments, data) => {
  const r = getAt(data, `/endpoints/operations/${escapePointerToken(segments[2]!)}/resource`);
  return typeof r === 'string' ? r : undefined;
};
/** A versioning change names its resource beside its field. */
const changeResource: Owner = (segments, data) => {
  const pointer = '/' + segments.slice(0, -1).map(escapePointerToken).join('/') + '/resource';
  const r = getAt(data, pointer);
  return typeof r === 'string' ? r : undefined;
};

/**
 * The declared error body's code field (errors.body.code, else the field `code`, else `error`: the format's
 * defaults, docs/format.md): an enum of it lists the error codes by name.
 */
const isErrorCodeField = (segments: string[], data: unknown): boolean => {
  const named = getAt(data, '/errors/body/code');
  if (typeof named === 'string') return segments[3] === named;
  const fields = getAt(data, '/errors/body/fields');
  const has = (n: string) => typeof fields === 'object' && fields !== null && n in fields;
  return segments[3] === (has('code') ? 'code' : has('error') ? 'error' : undefined);
};

/**
 * Where `shape: Name` names a shape (docs/format.md, "Named shapes"): on a field (`…/fields/x`, an array's `items`),
 * a union's variant, or a request, response or event payload; not a member called `shape` of some other mapping.
 */
const isShapeUse = (segments: string[]): boolean => {
  const parent = segments[segments.length - 2];
  const above = segments[segments.length - 3];
  return above === 'fields' || above === 'variants' || parent === 'items' || parent === 'request' || parent === 'response' || parent === 'payload';
};

const RULES: readonly Rule[] = [
  // declarations
  { kind: 'resource', pattern: rx('/resources/*'), at: 'key', declaration: true },
  { kind: 'field', pattern: rx('/resources/*/fields/*'), at: 'key', declaration: true, owner: segment(1) },
  { kind: 'state', pattern: rx('/states/*/states/*'), at: 'key', declaration: true, owner: segment(1) },
  { kind: 'transition', pattern: rx('/states/*/transitions/*'), at: 'key', declaration: true, owner: segment(1) },
  { kind: 'scheme', pattern: rx('/authentication/schemes/*'), at: 'key', declaration: true },
  { kind: 'scope', pattern: rx('/authentication/scopes/*'), at: 'key', declaration: true },
  { kind: 'error code', pattern: rx('/errors/codes/*'), at: 'key', declaration: true },
  { kind: 'event', pattern: rx('/events/kinds/*'), at: 'key', declaration: true },
  { kind: 'operation', pattern: rx('/endpoints/operations/*'), at: 'key', declaration: true },
  { kind: 'shape', pattern: rx('/shapes/*'), at: 'key', declaration: true },
  { kind: 'shape', pattern: /\/shape$/, at: 'value', when: isShapeUse },
  // resources
  { kind: 'resource', pattern: rx('/states/*'), at: 'key' },
  {
    kind: 'resource',
    pattern: /^\/(?:resources\/[^/]+|endpoints\/operations\/[^/]+\/(?:request|response))\/fields\/[^/]+(?:\/(?:items|fields\/[^/]+))*\/to$/,
    at: 'value',
  },
  { kind: 'resource', pattern: rx('/resources/*/parent'), at: 'value' },
  { kind: 'resource', pattern: rx('/endpoints/operations/*/resource'), at: 'value' },
  { kind: 'resource', pattern: rx('/endpoints/operations/*/(?:request|response)/resource'), at: 'value' },
  { kind: 'resource', pattern: rx('/events/kinds/*/(?:payload/)?resource'), at: 'value' },
  { kind: 'resource', pattern: /^\/versioning\/.*\/(?:rename_field|add_field|remove_field)\/resource$/, at: 'value' },
  // fields
  { kind: 'field', pattern: rx('/resources/*/(?:identifier|owner)'), at: 'value', owner: segment(1) },
  { kind: 'field', pattern: rx('/states/*/field'), at: 'value', owner: segment(1) },
  { kind: 'field', pattern: rx('/states/*/transitions/*/(?:requires/#|stamp)'), at: 'value', owner: segment(1) },
  {
    kind: 'field',
    pattern: rx('/endpoints/operations/*/(?:filter|required_filters|sort|request_fields|answer_fields)/#'),
    at: 'value',
    owner: operationResource,
  },
  { kind: 'field', pattern: rx('/endpoints/operations/*/bind/*'), at: 'value', owner: operationResource, path: true },
  { kind: 'field', pattern: rx('/resources/*/unique_keys/#/#'), at: 'value', owner: segment(1), path: true },
  { kind: 'field', pattern: /^\/versioning\/.*\/(?:rename_field\/(?:from|to)|(?:add_field|remove_field)\/field)$/, at: 'value', owner: changeResource },
  // states
  { kind: 'state', pattern: rx('/states/*/(?:initial|terminal/#)'), at: 'value', owner: segment(1) },
  { kind: 'state', pattern: rx('/states/*/transitions/*/(?:from|from/#|to)'), at: 'value', owner: segment(1) },
  // transitions
  { kind: 'transition', pattern: rx('/endpoints/operations/*/transition'), at: 'value', owner: operationResource },
  // schemes and scopes
  { kind: 'scheme', pattern: rx('/(?:endpoints/operations/*/auth|authentication/default)/schemes/#'), at: 'value' },
  { kind: 'scope', pattern: rx('/(?:endpoints/operations/*/auth|authentication/default)/scopes/#'), at: 'value' },
  { kind: 'scope', pattern: rx('/resources/*/owner_override_scopes/#'), at: 'value' },
  { kind: 'scope', pattern: rx('/events/delivery/webhook/scopes/#'), at: 'value' },
  // error codes, events, operations
  { kind: 'error code', pattern: rx('/endpoints/operations/*/errors/#'), at: 'value' },
  { kind: 'error code', pattern: rx('/errors/body/fields/*/values/#'), at: 'value', when: isErrorCodeField },
  { kind: 'event', pattern: rx('/states/*/transitions/*/emits'), at: 'value' },
  { kind: 'operation', pattern: /^\/limits\/.*\/operations\/\d+$/, at: 'value' },
];

/** What a name written at this pointer refers to (for completion at a value not yet written). */
export function getNameKindAt(pointer: string, data: unknown): { kind: NameKind; owner?: string } | undefined {
  const segments = splitPointer(pointer);
  for (const rule of RULES) {
    if (rule.at !== 'value' || !rule.pattern.test(pointer) || rule.when?.(segments, data) === false) continue;
    const owner = rule.owner?.(segments, data);
    return owner === undefined ? { kind: rule.kind } : { kind: rule.kind, owner };
  }
  return undefined;
}

/** Every declaration and use of a name in the outline, in document order. */
export function getNameSites(outline: YamlOutline): NameSite[] {
  const sites: NameSite[] = [];
  for (const entry of outline.ordered) addSites(entry, outline.data, sites);
  return sites;
}

function addSites(entry: YamlEntry, data: unknown, sites: NameSite[]): void {
  const segments = splitPointer(entry.pointer);
  for (const rule of RULES) {
    if (!rule.pattern.test(entry.pointer) || rule.when?.(segments, data) === false) continue;
    let name: string | undefined;
    let span: TextSpan | undefined;
    if (rule.at === 'key' && entry.key) {
      name = entry.key.text;
      span = { start: entry.key.start, end: entry.key.end };
    } else if (rule.at === 'value' && entry.kind === 'scalar' && entry.textSpan) {
      name = entry.text;
      span = entry.textSpan;
    }
    if (name === undefined || span === undefined) continue;
    const owner = rule.owner?.(segments, data);
    if (rule.path === true && name.includes('.') && !hasField(data, owner, name)) {
      const first = name.slice(0, name.indexOf('.'));
      if (isParentOf(data, owner, first)) {
        // `Article.slug` where the resource's parent is Article (docs/format.md, "Resources under a parent"): the
        // parent's name, then a field of the parent.
        const rest = name.slice(first.length + 1);
        sites.push({ kind: 'resource', name: first, span: { start: span.start, end: span.start + first.length }, pointer: entry.pointer, declaration: false });
        const field = { start: span.start + first.length + 1, end: span.start + name.length };
        sites.push({ kind: 'field', name: rest, span: field, pointer: entry.pointer, declaration: false, owner: first });
        continue;
      }
      name = first;
      span = { start: span.start, end: span.start + first.length };
    }
    const site: NameSite = { kind: rule.kind, name, span, pointer: entry.pointer, declaration: rule.declaration === true };
    if (owner !== undefined) site.owner = owner;
    sites.push(site);
  }
}

/**
 * Whether this name is the resource's `parent`, or a parent further up its chain (`Owner` of a Visit under a Pet under
 * an Owner), and no field of it has that name (then the binding names the parent).
 */
function isParentOf(data: unknown, resource: string | undefined, name: string): boolean {
  if (resource === undefined || hasField(data, resource, name)) return false;
  const seen = new Set([resource]);
  for (let at = getAt(data, `/resources/${escapePointerToken(resource)}/parent`); typeof at === 'string' && !seen.has(at);) {
    if (at === name) return true;
    seen.add(at);
    at = getAt(data, `/resources/${escapePointerToken(at)}/parent`);
  }
  return false;
}

/** Whether the resource declares a field of exactly this name (a name may hold dots). */
function hasField(data: unknown, resource: string | undefined, name: string): boolean {
  if (resource === undefined) return false;
  const fields = getAt(data, `/resources/${escapePointerToken(resource)}/fields`);
  return fields !== null && typeof fields === 'object' && Object.hasOwn(fields, name);
}

/** Whether two sites name the same thing. */
export function isSameName(a: Pick<NameSite, 'kind' | 'name' | 'owner'>, b: Pick<NameSite, 'kind' | 'name' | 'owner'>): boolean {
  return a.kind === b.kind && a.name === b.name && (a.owner ?? '') === (b.owner ?? '');
}
