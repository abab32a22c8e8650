import { escapeHtml } from './render-html.js';

// A body's JSON Schema (from the OpenAPI export) as a collapsible tree for the docs console: objects, arrays and
// unions are <details> elements, each field shows its type, format and constraints. A union shows its variants and,
// when tagged, the discriminator property and which tag names which variant. Plain HTML, no script.

type Schema = Record<string, unknown>;

const MAX_DEPTH = 10;

function resolve(doc: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const part of ref.slice(2).split('/')) node = (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return node as Schema | undefined;
}

/** The schema behind any $refs, and the name of the last one (a component's name says what the shape is). */
function deref(doc: Schema, s: Schema | undefined): { schema: Schema | undefined; name?: string } {
  let name: string | undefined;
  let n = s;
  for (let i = 0; i < 8 && typeof n?.$ref === 'string'; i++) {
    name = n.$ref.split('/').pop();
    n = resolve(doc, n.$ref);
  }
  return name !== undefined ? { schema: n, name } : { schema: n };
}

function typeOf(s: Schema): string {
  // First: a tagged union says `type: object` beside its oneOf, and is drawn as a union (node below), not an object.
  if (s.oneOf || s.anyOf) return 'union';
  if (Array.isArray(s.type)) return (s.type as string[]).join(' or ');
  if (typeof s.type === 'string') return s.type;
  if (s.properties) return 'object';
  return 'any JSON';
}

const esc = (v: unknown) => escapeHtml(typeof v === 'string' ? v : JSON.stringify(v));

/** The facts of one schema node worth a reader's eye: format, enum, lengths, ranges, pattern, flags. */
function constraints(s: Schema): string[] {
  const out: string[] = [];
  if (typeof s.format === 'string') out.push(`format <code>${esc(s.format)}</code>`);
  if (Array.isArray(s.enum)) out.push(`one of ${s.enum.map((v) => `<code>${esc(v)}</code>`).join(', ')}`);
  if ('const' in s) out.push(`always <code>${esc(s.const)}</code>`);
  const pairs: [string, string][] = [
    ['minLength', 'length ≥ '],
    ['maxLength', 'length ≤ '],
    ['minimum', '≥ '],
    ['maximum', '≤ '],
    ['exclusiveMinimum', '> '],
    ['exclusiveMaximum', '< '],
    ['multipleOf', 'multiple of '],
    ['minItems', 'items ≥ '],
    ['maxItems', 'items ≤ '],
  ];
  for (const [k, label] of pairs) if (typeof s[k] === 'number') out.push(`${label}${s[k] as number}`);
  if (typeof s.pattern === 'string') out.push(`pattern <code>${esc(s.pattern)}</code>`);
  if (s.uniqueItems === true) out.push('items unique');
  if (s.readOnly === true) out.push('read-only');
  // source: service, carried in the export's x-servicespec-field: the value's rule is a named gap.
  if ((s['x-servicespec-field'] as Schema | undefined)?.source === 'service') out.push('the service sets it by a rule not shown');
  if (s.writeOnly === true) out.push('write-only');
  if (s.nullable === true || (Array.isArray(s.type) && s.type.includes('null'))) out.push('nullable');
  if ('default' in s) out.push(`default <code>${esc(s.default)}</code>`);
  if (s.deprecated === true) out.push('deprecated');
  return out;
}

function head(label: string, s: Schema, required: boolean | undefined, name: string | undefined, kind: string): string {
  const facts = constraints(s);
  const req = required === undefined ? '' : required ? ' <span class="req">required</span>' : ' <span class="opt">optional</span>';
  return `<span class="field">${label}</span> <span class="type">${escapeHtml(kind)}${name !== undefined ? ` <em>${escapeHtml(name)}</em>` : ''}</span>${req}${facts.length > 0 ? ` <span class="facts">${facts.join('; ')}</span>` : ''}${typeof s.description === 'string' ? ` <span class="desc">${escapeHtml(s.description)}</span>` : ''}`;
}

/** `anyOf: [X, {type: null}]` (a nullable union, or a nullable reference) as X with `nullable`. */
function unwrapNull(doc: Schema, s: Schema | undefined, name: string | undefined): { schema: Schema | undefined; name?: string } {
  const any = s?.anyOf as Schema[] | undefined;
  if (!s || !Array.isArray(any) || any.length !== 2) return { schema: s, name };
  const other = any.find((x) => x.type !== 'null');
  if (other === undefined || !any.some((x) => x.type === 'null')) return { schema: s, name };
  const { anyOf: _anyOf, ...rest } = s;
  const inner = deref(doc, other);
  return { schema: inner.schema && { ...inner.schema, ...rest, nullable: true }, name: inner.name ?? name };
}

function node(doc: Schema, raw: Schema | undefined, label: string, required: boolean | undefined, depth: number, field?: string): string {
  const found = deref(doc, raw);
  const { schema: s, name } = unwrapNull(doc, found.schema, found.name);
  const li = field !== undefined ? `<li data-field="${escapeHtml(field)}"` : '<li';
  if (!s) return `${li}>${label} <span class="type">not shown</span></li>`;
  const union = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
  if (depth > MAX_DEPTH) return `${li}>${head(label, s, required, name, typeOf(s))} …</li>`;
  if (Array.isArray(union)) {
    const disc = s.discriminator as { propertyName?: string; mapping?: Record<string, string> } | undefined;
    const tagOf = new Map(Object.entries(disc?.mapping ?? {}).map(([tag, ref]) => [ref, tag]));
    const how = disc?.propertyName !== undefined ? `tagged by <code>${escapeHtml(disc.propertyName)}</code>` : 'untagged: told apart by their fields';
    const variants = union
      .map((v, i) => {
        const ref = typeof v.$ref === 'string' ? v.$ref : undefined;
        // The variant's own name (x-servicespec-variant), not its component's, which may carry a number (`card2`).
        const own = deref(doc, v).schema?.['x-servicespec-variant'];
        const vname = typeof own === 'string' ? own : (ref?.split('/').pop() ?? `variant ${i + 1}`);
        const tag = ref !== undefined ? tagOf.get(ref) : undefined;
        return node(
          doc,
          v,
          `variant <code>${escapeHtml(vname)}</code>${tag !== undefined ? ` when <code>${escapeHtml(disc?.propertyName ?? '')}</code> is <code>${escapeHtml(JSON.stringify(tag))}</code>` : ''}`,
          undefined,
          depth + 1,
        );
      })
      .join('');
    return `${li} class="union"><details data-kind="union"><summary>${head(label, s, required, name, `one of ${union.length}`)} <span class="facts">${how}</span></summary><ul>${variants}</ul></details></li>`;
  }
  if (s.type === 'array' || (Array.isArray(s.type) && s.type.includes('array'))) {
    const items = deref(doc, s.items as Schema | undefined).schema;
    const itemsKind = items ? typeOf(items) : 'any JSON';
    if (items && (itemsKind === 'object' || itemsKind === 'union' || itemsKind === 'array')) {
      return `${li}><details data-kind="array"><summary>${head(label, s, required, name, `array of ${itemsKind}`)}</summary><ul>${node(doc, s.items as Schema, '<span class="muted">each item</span>', undefined, depth + 1)}</ul></details></li>`;
    }
    const inner = items ? constraints(items) : [];
    return `${li}>${head(label, s, required, name, `array of ${itemsKind}`)}${inner.length > 0 ? ` <span class="facts">each item: ${inner.join('; ')}</span>` : ''}</li>`;
  }
  // A map: free member names, each value of one schema (additionalProperties).
  if (s.properties === undefined && typeof s.additionalProperties === 'object' && s.additionalProperties !== null) {
    const values = deref(doc, s.additionalProperties as Schema).schema;
    const kind = values ? typeOf(values) : 'any JSON';
    const inner = values ? constraints(values) : [];
    return `${li}>${head(label, s, required, name, `map of ${kind}`)}${inner.length > 0 ? ` <span class="facts">each value: ${inner.join('; ')}</span>` : ''}</li>`;
  }
  const props = s.properties as Record<string, Schema> | undefined;
  if (props) {
    const req = new Set((s.required as string[] | undefined) ?? []);
    const children = Object.entries(props)
      .map(([k, v]) => node(doc, v, `<code>${escapeHtml(k)}</code>`, req.has(k), depth + 1, k))
      .join('');
    return `${li}><details data-kind="object"><summary>${head(label, s, required, name, 'object')}</summary><ul>${children}</ul></details></li>`;
  }
  return `${li}>${head(label, s, required, name, typeOf(s))}</li>`;
}

/** A body schema as a collapsible tree, its top level open. */
export function renderSchemaTree(doc: Schema, schema: Schema | undefined, title: string): string {
  if (!schema) return '';
  const tree = node(doc, schema, escapeHtml(title), undefined, 0).replace('<details ', '<details open ');
  return `<ul class="schema-tree">${tree}</ul>`;
}
