// An object or a union the document uses in many places (a component schema `$ref`ed by many properties, request
// and response bodies) is written once under `shapes` and used by name (docs/format.md, "Named shapes"), so an
// imported spec is the size of its document: Rebilly's 1 MB document was a 43 MB spec written out in place, over
// the spec size limit. Writing a shape out where it is used gives back exactly what the import made, so the model
// and everything reading it are the same either way (the exports write each shape once again, as a component).
import type { FieldSpec, NamedShapeSpec, ShapeSpec, SpecDocument, VariantSpec } from '../spec/spec-types.js';
import { componentOfShape } from './import-schema.js';

/** A structure shorter than this (as JSON) stays in place: a name would cost a reader more than it saves. */
const MIN_SHAPE_TEXT = 300;

type Fields = Record<string, FieldSpec>;
type Variants = Record<string, VariantSpec>;
/** What a shape holds: an object's fields, or a union's variants and discriminator. */
type Content = { fields: Fields } | { discriminator?: string; variants: Variants };

interface Site {
  content: Content;
  /** The object the import made (a `fields` or `variants` map), for its component's name. */
  made: object;
  /** The name the site suggests where no component names it (the field, variant or operation). */
  near: string;
}

/** The document with repeated objects and unions written once under `shapes`; the document itself is changed. */
export function hoistShapes(doc: SpecDocument): SpecDocument {
  const counts = new Map<string, number>();
  forEachSite(doc, (site) => {
    const key = keyOf(site.content);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    return undefined;
  });
  const wanted = (key: string) => (counts.get(key) ?? 0) >= 2 && key.length >= MIN_SHAPE_TEXT;
  if (![...counts.keys()].some(wanted)) return doc;
  const names = new Map<string, string>();
  const taken = new Set<string>();
  const shapes: Record<string, NamedShapeSpec> = {};
  const nameFor = (site: Site, key: string): string => {
    const known = names.get(key);
    if (known !== undefined) return known;
    const base = toShapeName(componentOfShape.get(site.made) ?? site.near);
    let name = base;
    for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
    taken.add(name);
    names.set(key, name);
    // The shape's own content, its repeated parts named in turn.
    const content = cloneContent(site.content);
    shapes[name] = content;
    forEachSiteIn(content, replace);
    return name;
  };
  const replace = (site: Site): string | undefined => {
    const key = keyOf(site.content);
    return wanted(key) ? nameFor(site, key) : undefined;
  };
  forEachSite(doc, replace);
  inlineSingleUses(doc, shapes);
  if (Object.keys(shapes).length === 0) return doc;
  // `shapes` after the nine parts, before `check`: the parts read first.
  const { check, ...rest } = doc;
  return { ...rest, shapes, ...(check !== undefined ? { check } : {}) } as SpecDocument;
}

/**
 * The document with the named shapes a servicespec export wrote as they were (`x-servicespec-shapes`; its uses came
 * back by name, import-schema.ts's exportedShape), placed as hoistShapes places them; nothing is hoisted.
 */
export function withExportedShapes(doc: SpecDocument, shapes: unknown): SpecDocument {
  if (typeof shapes !== 'object' || shapes === null || Array.isArray(shapes) || Object.keys(shapes).length === 0) return doc;
  const { check, ...rest } = doc;
  return { ...rest, shapes: structuredClone(shapes) as Record<string, NamedShapeSpec>, ...(check !== undefined ? { check } : {}) } as SpecDocument;
}

function keyOf(c: Content): string {
  return 'fields' in c ? `F${JSON.stringify(c.fields)}` : `U${JSON.stringify({ d: c.discriminator, v: c.variants })}`;
}

function cloneContent(c: Content): NamedShapeSpec {
  return structuredClone(
    'fields' in c ? { fields: c.fields } : { ...(c.discriminator !== undefined ? { discriminator: c.discriminator } : {}), variants: c.variants },
  );
}

function toShapeName(raw: string): string {
  const words = raw.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const name = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  return /^[A-Za-z]/.test(name) ? name : `Shape${name}`;
}

/**
 * Visits every object and union of the document where a shape may stand: a field's, a variant's, a payload's. Where
 * `visit` returns a name, the site becomes `shape: name` and is not entered; otherwise its fields are visited.
 */
function forEachSite(doc: SpecDocument, visit: (site: Site) => string | undefined): void {
  for (const r of Object.values(doc.resources ?? {})) if (r.fields) fieldMap(r.fields, visit);
  const e = doc.endpoints;
  if (e !== undefined) {
    if (typeof e.envelope === 'object' && e.envelope.fields) fieldMap(e.envelope.fields, visit);
    for (const [id, op] of Object.entries(e.operations ?? {})) {
      if (typeof op.request === 'object') body(op.request, `${id}Request`, visit);
      if (op.response) body(op.response, `${id}Response`, visit);
      if (typeof op.envelope === 'object' && op.envelope.fields) fieldMap(op.envelope.fields, visit);
    }
  }
  for (const [name, k] of Object.entries(doc.events?.kinds ?? {})) if (k.payload) body(k.payload, `${name}Payload`, visit);
  const errorBody = doc.errors?.body;
  if (typeof errorBody === 'object' && errorBody.fields) fieldMap(errorBody.fields, visit);
}

function forEachSiteIn(content: NamedShapeSpec, visit: (site: Site) => string | undefined): void {
  if (content.fields) fieldMap(content.fields, visit);
  if (content.variants) variantMap(content.variants, visit);
}

function fieldMap(fields: Fields, visit: (site: Site) => string | undefined): void {
  for (const [name, f] of Object.entries(fields)) field(f, name, visit);
}

function field(f: FieldSpec, near: string, visit: (site: Site) => string | undefined): void {
  if (f.items) field(f.items, near, visit);
  if (f.type === 'object' && f.fields) {
    const name = visit({ content: { fields: f.fields }, made: f.fields, near });
    if (name !== undefined) {
      delete f.fields;
      f.shape = name;
    } else fieldMap(f.fields, visit);
  } else if (f.type === 'union' && f.variants) {
    const name = visit({ content: unionOf(f), made: f.variants, near });
    if (name !== undefined) {
      delete f.variants;
      delete f.discriminator;
      f.shape = name;
    } else variantMap(f.variants, visit);
  }
}

function variantMap(variants: Variants, visit: (site: Site) => string | undefined): void {
  for (const [name, v] of Object.entries(variants)) {
    if (!v.fields) continue;
    const shape = visit({ content: { fields: v.fields }, made: v.fields, near: name });
    if (shape !== undefined) {
      delete v.fields;
      v.shape = shape;
    } else fieldMap(v.fields, visit);
  }
}

function body(b: ShapeSpec, near: string, visit: (site: Site) => string | undefined): void {
  if (b.fields) {
    const name = visit({ content: { fields: b.fields }, made: b.fields, near });
    if (name !== undefined) {
      delete b.fields;
      b.shape = name;
    } else fieldMap(b.fields, visit);
  } else if (b.variants) {
    const name = visit({ content: unionOf(b), made: b.variants, near });
    if (name !== undefined) {
      delete b.variants;
      delete b.discriminator;
      b.shape = name;
    } else variantMap(b.variants, visit);
  }
}

function unionOf(u: { discriminator?: string; variants?: Variants }): Content {
  return { ...(u.discriminator !== undefined ? { discriminator: u.discriminator } : {}), variants: u.variants ?? {} };
}

/** A shape used once (its other uses were inside a shape that is itself named) is written back in place. */
function inlineSingleUses(doc: SpecDocument, shapes: Record<string, NamedShapeSpec>): void {
  for (;;) {
    const uses = new Map<string, number>();
    const count = (o: { shape?: string }) => {
      if (o.shape !== undefined) uses.set(o.shape, (uses.get(o.shape) ?? 0) + 1);
    };
    walkRefs(doc, shapes, count);
    const once = Object.keys(shapes).filter((n) => (uses.get(n) ?? 0) <= 1);
    if (once.length === 0) return;
    const inline = new Set(once);
    walkRefs(doc, shapes, (o) => {
      const name = o.shape;
      if (name === undefined || !inline.has(name)) return;
      const s = shapes[name]!;
      delete o.shape;
      const target = o as { fields?: Fields; variants?: Variants; discriminator?: string };
      if (s.fields) target.fields = s.fields;
      else {
        if (s.discriminator !== undefined) target.discriminator = s.discriminator;
        target.variants = s.variants;
      }
    });
    for (const n of once) delete shapes[n];
  }
}

/** Calls `f` on every object holding a `shape` reference, in the document and in the shapes. */
function walkRefs(doc: SpecDocument, shapes: Record<string, NamedShapeSpec>, f: (o: { shape?: string }) => void): void {
  const visitField = (x: FieldSpec): void => {
    f(x);
    if (x.items) visitField(x.items);
    for (const g of Object.values(x.fields ?? {})) visitField(g);
    for (const v of Object.values(x.variants ?? {})) visitVariant(v);
  };
  const visitVariant = (v: VariantSpec): void => {
    f(v);
    for (const g of Object.values(v.fields ?? {})) visitField(g);
  };
  const visitBody = (b: ShapeSpec): void => {
    f(b);
    for (const g of Object.values(b.fields ?? {})) visitField(g);
    for (const v of Object.values(b.variants ?? {})) visitVariant(v);
  };
  for (const r of Object.values(doc.resources ?? {})) for (const g of Object.values(r.fields ?? {})) visitField(g);
  const e = doc.endpoints;
  if (e !== undefined) {
    if (typeof e.envelope === 'object') for (const g of Object.values(e.envelope.fields ?? {})) visitField(g);
    for (const op of Object.values(e.operations ?? {})) {
      if (typeof op.request === 'object') visitBody(op.request);
      if (op.response) visitBody(op.response);
      if (typeof op.envelope === 'object') for (const g of Object.values(op.envelope.fields ?? {})) visitField(g);
    }
  }
  for (const k of Object.values(doc.events?.kinds ?? {})) if (k.payload) visitBody(k.payload);
  const errorBody = doc.errors?.body;
  if (typeof errorBody === 'object') for (const g of Object.values(errorBody.fields)) visitField(g);
  for (const s of Object.values(shapes)) {
    for (const g of Object.values(s.fields ?? {})) visitField(g);
    for (const v of Object.values(s.variants ?? {})) visitVariant(v);
  }
}
