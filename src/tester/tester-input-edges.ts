import fc from 'fast-check';
import { isNullableInRequests, mayLeaveOut } from '../model/model-defaults.js';
import { isWritable, type SchemaView } from '../model/model-schemas.js';
import type { FieldModel, ResourceModel, ServiceModel } from '../model/model-types.js';
import { fieldArbitrary } from './tester-arbitraries.js';

// The edges of the declared input space, as a few whole bodies rather than thousands of random ones: every field
// at its lower bound, at its upper bound, just inside each, strings in full Unicode (astral, combining, right to
// left) and with NUL and control characters, at maxLength in astral characters (lengths are code points, not UTF-16
// units), each enum value, every nullable field null, only the required fields.
// A body that fails is narrowed to the one field whose edge shows it.

/** One targeted body: what is at its edge, and the body. */
export interface EdgeCase {
  label: string;
  body: Record<string, unknown>;
  /** The same edge, one field at a time (to name the field when the whole body fails). */
  single: { label: string; body: Record<string, unknown> }[];
  /**
   * Whether the declared validation answer is also taken: NUL is valid JSON and the format allows it, but a service
   * may refuse what its storage cannot hold (the runtime does: docs/runtime.md) — as long as it says so, never a 5xx.
   */
  mayRefuse?: boolean;
}

type Edge = 'lower' | 'upper' | 'astral-upper' | 'near-lower' | 'near-upper' | 'unicode' | 'control' | 'nul' | 'long' | { enumIndex: number } | 'null';

/** The length a string without a declared maximum is tried at: past the 24 characters random strings stay within. */
export const UNBOUNDED_STRING_LENGTHS = [80, 1000] as const;
/** The most items an array is sent with at its upper edge with each item at its own upper edge too. */
const MAX_EDGE_ITEMS = 50;
/**
 * The largest maxItems an array is sent at exactly (as endpoints.invalid-requests sends one more): past MAX_EDGE_ITEMS
 * its items are valid ones as drawn, not each at its own edge, so the body stays of a size a service takes.
 */
const MAX_BOUNDED_ITEMS = 1000;

/** Graphemes far from ASCII: astral (emoji, a CJK extension B ideograph), combining, right-to-left, zero width. */
const UNICODE = ['😀', 'e\u0301', 'ש', 'ل', '𠜎', '\u200d', 'Ω', 'ß', '\u05d0\u05b8', '👩🏽‍🚀'];
/**
 * The upper edge's alphabet in astral characters, ASCII between them: maxLength code points that are more UTF-16 units
 * (and UTF-8 bytes), which a service counting `s.length` (or bytes) refuses though JSON Schema counts code points.
 */
const ASTRAL = ['😀', 'a', '𠜎', 'b'];
/** Control characters, valid in a JSON string (NUL apart: its own case). */
const CONTROL = ['\t', '\n', '\u001f', '\u007f', '\r', '\u0001'];

/** `n` code points cycling through `alphabet`'s code points. */
function codePoints(alphabet: readonly string[], n: number): string {
  const cps = alphabet.flatMap((s) => [...s]);
  let out = '';
  for (let i = 0; i < n; i++) out += cps[i % cps.length];
  return out;
}

function patternOf(f: FieldModel): RegExp | undefined | null {
  if (f.pattern === undefined) return undefined;
  try {
    return new RegExp(f.pattern, 'u');
  } catch {
    return null;
  }
}

/** A string at the edge, or undefined when the edge does not apply (a pattern that refuses it). */
function stringEdge(f: FieldModel, edge: Edge): string | undefined {
  const min = f.minLength ?? 0;
  const max = f.maxLength;
  const re = patternOf(f);
  const ok = (s: string) => (re === undefined || (re !== null && re.test(s))) && [...s].length >= min && (max === undefined || [...s].length <= max);
  const pick = (s: string) => (ok(s) ? s : undefined);
  switch (edge) {
    case 'lower':
      return pick(codePoints(['a'], min));
    case 'near-lower':
      return pick(codePoints(['ab'], min + 1));
    case 'upper':
      return max === undefined ? pick(codePoints(['abcdefghij'], UNBOUNDED_STRING_LENGTHS[0])) : pick(codePoints(['x'], max));
    case 'astral-upper':
      // Always at exactly maxLength, whatever its size: the unicode edge stops at 60 code points. Where a pattern
      // admits it only; a format (email, uri) is another type, never sent this.
      return max === undefined || max === 0 ? undefined : pick(codePoints(ASTRAL, max));
    case 'near-upper':
      return max === undefined ? undefined : pick(codePoints(['xy'], Math.max(min, max - 1)));
    case 'long':
      return max === undefined ? pick(codePoints(['lorem ipsum '], UNBOUNDED_STRING_LENGTHS[1])) : undefined;
    case 'unicode':
      return pick(codePoints(UNICODE, Math.max(min, Math.min(max ?? 60, 60))));
    case 'control':
      return pick(codePoints(['a', ...CONTROL], Math.max(min, Math.min(max ?? 12, 12))));
    case 'nul':
      return pick(codePoints(['a', '\u0000'], Math.max(min, Math.min(max ?? 4, 4))));
    default:
      return undefined;
  }
}

/** The smallest and largest valid numbers of a field (within ±1e6 when it declares no bound). */
function numberBounds(f: FieldModel): { lo: number; hi: number; step: number } | undefined {
  const integer = f.type === 'integer';
  const m = f.multipleOf;
  const step = m ?? (integer ? 1 : undefined);
  let lo = f.minimum ?? (f.exclusiveMinimum !== undefined ? undefined : -1_000_000);
  let hi = f.maximum ?? (f.exclusiveMaximum !== undefined ? undefined : 1_000_000);
  if (lo === undefined)
    lo = step !== undefined ? (Math.floor(f.exclusiveMinimum! / step) + 1) * step : f.exclusiveMinimum! + Math.max(1e-6, Math.abs(f.exclusiveMinimum!) * 1e-9);
  if (hi === undefined)
    hi = step !== undefined ? (Math.ceil(f.exclusiveMaximum! / step) - 1) * step : f.exclusiveMaximum! - Math.max(1e-6, Math.abs(f.exclusiveMaximum!) * 1e-9);
  if (step !== undefined) {
    lo = Math.ceil(lo / step) * step;
    hi = Math.floor(hi / step) * step;
    if (m !== undefined && (!Number.isInteger(lo / m) || !Number.isInteger(hi / m))) return undefined;
  }
  if (integer && (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi))) return undefined;
  if (lo > hi) return undefined;
  return { lo, hi, step: step ?? Math.min(1, (hi - lo) / 1000) };
}

function numberEdge(f: FieldModel, edge: Edge): number | undefined {
  const b = numberBounds(f);
  if (!b) return undefined;
  const inside = (n: number) =>
    n >= b.lo && n <= b.hi && !Object.is(n, -0) && (f.multipleOf === undefined || Number.isInteger(n / f.multipleOf)) ? n : undefined;
  // Unbounded sides are left to the random cases: only declared bounds are edges.
  const declaredLo = f.minimum !== undefined || f.exclusiveMinimum !== undefined;
  const declaredHi = f.maximum !== undefined || f.exclusiveMaximum !== undefined;
  switch (edge) {
    case 'lower':
      return declaredLo ? inside(b.lo) : undefined;
    case 'upper':
      return declaredHi ? inside(b.hi) : undefined;
    case 'near-lower':
      return declaredLo ? inside(b.lo + b.step) : undefined;
    case 'near-upper':
      return declaredHi ? inside(b.hi - b.step) : undefined;
    default:
      return undefined;
  }
}

/** `n` valid items of an array field (distinct where uniqueItems), each taken to `edge` where it has one (as drawn without). */
function itemsAt(model: ServiceModel, f: FieldModel, n: number, edge: Edge | undefined, base: unknown): unknown[] | undefined {
  if (!f.items) return undefined;
  const first = Array.isArray(base) && base.length > 0 ? base[0] : undefined;
  let items: unknown[];
  if (f.uniqueItems || first === undefined) {
    const arb = fc.uniqueArray(fieldArbitrary(model, { ...f.items, nullable: false }, undefined, true), {
      minLength: n,
      maxLength: n,
      selector: (v) => JSON.stringify(v),
    });
    const [sample] = fc.sample(arb, { seed: 0x1e6e + n, numRuns: 1 });
    if (!sample || sample.length !== n) return undefined;
    items = sample;
  } else items = Array.from({ length: n }, () => JSON.parse(JSON.stringify(first)) as unknown);
  if (f.uniqueItems || edge === undefined) return items;
  return items.map((it) => valueAt(model, f.items!, edge, it) ?? it);
}

/** The value of `f` at `edge` (built from `base`, its value in a valid body), or undefined when it has none. */
function valueAt(model: ServiceModel, f: FieldModel, edge: Edge, base: unknown): unknown {
  if (edge === 'null')
    return isNullableInRequests(f)
      ? null
      : f.type === 'object' && typeof base === 'object' && base !== null
        ? objectAt(model, f.fields ?? [], undefined, 'create', edge, base as Record<string, unknown>)
        : undefined;
  if (typeof edge === 'object') {
    if (f.type === 'enum' && f.values && f.values.length > 0) return f.values[edge.enumIndex % f.values.length];
    if (f.type === 'object' && typeof base === 'object' && base !== null)
      return objectAt(model, f.fields ?? [], undefined, 'create', edge, base as Record<string, unknown>);
    return undefined;
  }
  switch (f.type) {
    case 'string':
      return stringEdge(f, edge);
    case 'integer':
    case 'number':
      return numberEdge(f, edge);
    case 'boolean':
      return edge === 'lower' ? false : edge === 'upper' ? true : undefined;
    case 'array': {
      const min = f.minItems ?? 0;
      if (edge === 'lower') return itemsAt(model, f, min, edge, base);
      if (edge === 'upper')
        return f.maxItems !== undefined && f.maxItems <= MAX_BOUNDED_ITEMS
          ? itemsAt(model, f, f.maxItems, f.maxItems <= MAX_EDGE_ITEMS ? edge : undefined, base)
          : Array.isArray(base) && base.length > 0
            ? itemsAt(model, f, base.length, edge, base)
            : undefined;
      if (Array.isArray(base) && base.length > 0) return itemsAt(model, f, base.length, edge, base);
      return undefined;
    }
    case 'object':
      return typeof base === 'object' && base !== null
        ? objectAt(model, f.fields ?? [], undefined, 'create', edge, base as Record<string, unknown>)
        : undefined;
    default:
      return undefined;
  }
}

function objectAt(
  model: ServiceModel,
  fields: readonly FieldModel[],
  resource: ResourceModel | undefined,
  view: SchemaView,
  edge: Edge,
  base: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const out = { ...base };
  let changed = false;
  for (const f of fields) {
    if (!isWritable(resource, f, view) || !(f.name in base)) continue;
    const v = valueAt(model, f, edge, base[f.name]);
    if (v === undefined) continue;
    out[f.name] = v;
    changed = true;
  }
  return changed ? out : undefined;
}

const EDGE_LABELS: Record<string, string> = {
  lower: 'at its lower bound (minLength, minimum, minItems)',
  upper: `at its upper bound (maxLength, maximum, maxItems; ${UNBOUNDED_STRING_LENGTHS[0]} characters without maxLength)`,
  'astral-upper': 'at maxLength code points, half of them astral (two UTF-16 units each)',
  'near-lower': 'just inside its lower bound',
  'near-upper': 'just inside its upper bound',
  long: `of ${UNBOUNDED_STRING_LENGTHS[1]} characters (no maxLength)`,
  unicode: 'in full Unicode (astral, combining, right to left, zero width)',
  control: 'with control characters (tab, newline, U+0001, U+001F, U+007F)',
  nul: 'with NUL (U+0000)',
  null: 'null (nullable)',
};

function describeEdge(edge: Edge, f: FieldModel): string {
  if (typeof edge === 'object') return `= ${JSON.stringify(f.values?.[edge.enumIndex % (f.values?.length || 1)])}`;
  return EDGE_LABELS[edge]!;
}

/**
 * The targeted bodies of a body operation, from `base` (a valid body holding every optional field): each edge as one
 * body, each with its one-field variants; cases that change nothing, or repeat another, are left out.
 */
export function getEdgeCases(
  model: ServiceModel,
  fields: readonly FieldModel[],
  resource: ResourceModel | undefined,
  view: SchemaView,
  base: Record<string, unknown>,
): EdgeCase[] {
  const enums = Math.max(0, ...fields.filter((f) => f.type === 'enum').map((f) => f.values?.length ?? 0));
  const edges: Edge[] = [
    'lower',
    'upper',
    'astral-upper',
    'near-lower',
    'near-upper',
    'long',
    'unicode',
    'control',
    'nul',
    'null',
    ...Array.from({ length: Math.min(enums, 12) }, (_, i) => ({ enumIndex: i })),
  ];
  const seen = new Set([JSON.stringify(base)]);
  const out: EdgeCase[] = [];
  const writable = fields.filter((f) => isWritable(resource, f, view) && f.name in base);
  for (const edge of edges) {
    const body = objectAt(model, writable, resource, view, edge, base);
    if (!body || seen.has(JSON.stringify(body))) continue;
    seen.add(JSON.stringify(body));
    const single = writable.flatMap((f) => {
      const v = valueAt(model, f, edge, base[f.name]);
      return v === undefined || JSON.stringify(v) === JSON.stringify(base[f.name])
        ? []
        : [{ label: `${f.name} ${describeEdge(edge, f)}`, body: { ...base, [f.name]: v } }];
    });
    out.push({
      label: typeof edge === 'object' ? `each enum field at its value #${edge.enumIndex + 1}` : `every field ${EDGE_LABELS[edge]!}`,
      body,
      single,
      ...(edge === 'nul' ? { mayRefuse: true } : {}),
    });
  }
  // Only the required fields: every optional one absent.
  const required = Object.fromEntries(
    Object.entries(base).filter(([k]) => {
      const f = fields.find((x) => x.name === k);
      return !f || !mayLeaveOut(f, view);
    }),
  );
  if (view !== 'update' && !seen.has(JSON.stringify(required)))
    out.push({ label: 'only the required fields (every optional one absent)', body: required, single: [] });
  return out;
}
