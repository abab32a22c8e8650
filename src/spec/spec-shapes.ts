// Named shapes (`shapes:` and `shape: Name`, docs/format.md "Named shapes"): written once, used by name. The stage
// between structure and model writes each use out, so the model, the checker and everything reading them see the
// fields as if written in place; a spec without `shapes` is returned as it is, unwalked.
import { createDiagnostic, type Diagnostic } from '../diagnostics/diagnostics-catalogue.js';
import { suggestion } from '../diagnostics/diagnostics-suggest.js';
import { escapePointerToken as escape, joinPointer } from '../util/util-json-pointer.js';
import { ownValue } from '../util/util-own.js';
import type { FieldSpec, NamedShapeSpec, ShapeSpec, SpecDocument, VariantSpec } from './spec-types.js';

type Json = Record<string, unknown>;

export interface ExpandedShapes {
  document: SpecDocument;
  diagnostics: Diagnostic[];
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Each shape's written-out `fields` or `variants` (one object, shared by every use) → the shape's name: what the
 * model builder notes beside the model (model-named-shapes.ts), so that the exports can write the shape once.
 */
const writtenOut = new WeakMap<object, string>();
/** The same objects → the shape's own `description`, where it has one. */
const descriptions = new WeakMap<object, string>();

/** The named shape a written-out `fields` or `variants` object is, or undefined (written in place). */
export function getShapeOf(part: object | undefined): string | undefined {
  return part === undefined ? undefined : writtenOut.get(part);
}

/** The `description` of the named shape a written-out `fields` or `variants` object is, or undefined. */
export function getShapeDescriptionOf(part: object | undefined): string | undefined {
  return part === undefined ? undefined : descriptions.get(part);
}

/** The document with every `shape: Name` written out; the original is not changed. */
export function expandShapes(document: SpecDocument): ExpandedShapes {
  if (document.shapes === undefined) return { document, diagnostics: [] };
  return new ShapeExpander(document).run();
}

class ShapeExpander {
  private readonly diagnostics: Diagnostic[] = [];
  private readonly shapes: Record<string, NamedShapeSpec>;
  /** Each shape written out once, shared by its uses (the model copies what it reads). */
  private readonly done = new Map<string, NamedShapeSpec>();
  private readonly expanding: string[] = [];
  private readonly used = new Set<string>();

  constructor(private readonly document: SpecDocument) {
    this.shapes = document.shapes ?? {};
  }

  run(): ExpandedShapes {
    const doc = this.document;
    const out: SpecDocument = { ...doc };
    for (const [name, shape] of Object.entries(this.shapes)) {
      const why =
        shape.fields !== undefined && (shape.variants !== undefined || shape.discriminator !== undefined)
          ? 'has fields beside variants: a shape is an object (fields) or a union (variants), not both'
          : shape.fields === undefined && shape.variants === undefined
            ? 'has neither fields nor variants'
            : undefined;
      if (why !== undefined) this.diagnostics.push(createDiagnostic('shape-invalid', { name, why }, { pointer: `/shapes/${escape(name)}` }));
    }
    if (this.diagnostics.length > 0) return { document: doc, diagnostics: this.diagnostics };
    for (const name of Object.keys(this.shapes)) this.named(name, `/shapes/${escape(name)}`);
    if (doc.resources)
      out.resources = mapValues(doc.resources, (r, name) => {
        const o = r.fields ? { ...r, fields: this.fieldMap(r.fields, `/resources/${escape(name)}/fields`) } : r;
        // A resource of several shapes: its variants' fields, as a union's.
        return o.variants ? { ...o, variants: this.variantMap(o.variants, `/resources/${escape(name)}/variants`) } : o;
      });
    if (doc.endpoints) {
      const e = { ...doc.endpoints };
      if (isObject(e.envelope) && e.envelope.fields) e.envelope = { ...e.envelope, fields: this.fieldMap(e.envelope.fields, '/endpoints/envelope/fields') };
      if (e.operations)
        e.operations = mapValues(e.operations, (op, id) => {
          const at = `/endpoints/operations/${escape(id)}`;
          const o = { ...op };
          if (isObject(o.request)) o.request = this.body(o.request, `${at}/request`);
          if (o.response) o.response = this.body(o.response, `${at}/response`);
          if (isObject(o.envelope) && o.envelope.fields) o.envelope = { ...o.envelope, fields: this.fieldMap(o.envelope.fields, `${at}/envelope/fields`) };
          return o;
        });
      out.endpoints = e;
    }
    if (doc.events?.kinds)
      out.events = {
        ...doc.events,
        kinds: mapValues(doc.events.kinds, (k, name) => (k.payload ? { ...k, payload: this.body(k.payload, `/events/kinds/${escape(name)}/payload`) } : k)),
      };
    const errorBody = doc.errors?.body;
    if (doc.errors !== undefined && typeof errorBody === 'object' && errorBody.fields)
      out.errors = { ...doc.errors, body: { ...errorBody, fields: this.fieldMap(errorBody.fields, '/errors/body/fields') } };
    for (const name of Object.keys(this.shapes))
      if (!this.used.has(name)) this.diagnostics.push(createDiagnostic('shape-unused', { name }, { pointer: `/shapes/${escape(name)}` }));
    return { document: out, diagnostics: this.diagnostics };
  }

  /** A named shape written out, or undefined where it cannot be (unknown, or a cycle: each said at `at`). */
  private named(name: string, at: string, usedAt?: string): NamedShapeSpec | undefined {
    // Own names only: `shape: toString` names no shape, not Object.prototype's member.
    const shape = ownValue(this.shapes, name) as NamedShapeSpec | undefined;
    if (shape === undefined) {
      this.diagnostics.push(createDiagnostic('shape-unknown', { name, suggestion: suggestion(name, Object.keys(this.shapes)) }, { pointer: at }));
      return undefined;
    }
    if (usedAt !== undefined) this.used.add(name);
    const ready = this.done.get(name);
    if (ready !== undefined) return ready;
    if (this.expanding.includes(name)) {
      const chain = [...this.expanding.slice(this.expanding.indexOf(name)), name].join(' → ');
      this.diagnostics.push(createDiagnostic('shape-cycle', { name, chain }, { pointer: usedAt ?? at }));
      return undefined;
    }
    this.expanding.push(name);
    const base = `/shapes/${escape(name)}`;
    const out: NamedShapeSpec = { ...shape };
    if (shape.fields) out.fields = this.fieldMap(shape.fields, `${base}/fields`);
    if (shape.variants) out.variants = this.variantMap(shape.variants, `${base}/variants`);
    for (const part of [out.fields, out.variants]) {
      if (part === undefined) continue;
      writtenOut.set(part, name);
      if (typeof shape.description === 'string') descriptions.set(part, shape.description);
    }
    this.expanding.pop();
    this.done.set(name, out);
    return out;
  }

  private fieldMap(fields: Record<string, FieldSpec>, at: string): Record<string, FieldSpec> {
    return mapValues(fields, (f, name) => this.field(f, joinPointer(at, name)));
  }

  private variantMap(variants: Record<string, VariantSpec>, at: string): Record<string, VariantSpec> {
    return mapValues(variants, (v, name) => {
      const vat = joinPointer(at, name);
      if (v.shape === undefined) return v.fields ? { ...v, fields: this.fieldMap(v.fields, `${vat}/fields`) } : v;
      const { shape: ref, ...rest } = v;
      if (rest.fields !== undefined) return this.conflict(v, `${vat}/shape`, 'a variant', 'fields');
      const s = this.named(ref, `${vat}/shape`, `${vat}/shape`);
      if (s === undefined) return rest;
      if (s.fields === undefined) return this.mismatch(rest, `${vat}/shape`, ref, 'a variant, which takes fields');
      return { ...(s.description !== undefined ? { description: s.description } : {}), ...rest, fields: s.fields };
    });
  }

  private field(f: FieldSpec, at: string): FieldSpec {
    let out: FieldSpec = f;
    if (f.shape !== undefined) {
      const { shape: ref, ...rest } = f;
      out = rest;
      const owns = (['fields', 'variants', 'discriminator'] as const).find((k) => rest[k] !== undefined);
      if (owns !== undefined) return this.conflict(rest, `${at}/shape`, `a field`, owns);
      const s = this.named(ref, `${at}/shape`, `${at}/shape`);
      if (s !== undefined) {
        if (f.type === 'object' && s.fields !== undefined) out = { ...rest, fields: s.fields };
        else if (f.type === 'union' && s.variants !== undefined)
          out = { ...rest, ...(s.discriminator !== undefined ? { discriminator: s.discriminator } : {}), variants: s.variants };
        else
          return this.mismatch(
            rest,
            `${at}/shape`,
            ref,
            `a field of type ${f.type} (${f.type === 'union' ? 'a union takes variants' : f.type === 'object' ? 'an object takes fields' : 'only an object or a union takes a shape'})`,
          );
      }
      return out;
    }
    if (f.items) out = { ...out, items: this.field(f.items, `${at}/items`) };
    if (f.fields) out = { ...out, fields: this.fieldMap(f.fields, `${at}/fields`) };
    if (f.variants) out = { ...out, variants: this.variantMap(f.variants, `${at}/variants`) };
    return out;
  }

  private body(b: ShapeSpec, at: string): ShapeSpec {
    if (b.shape === undefined) {
      let out = b;
      if (b.fields) out = { ...out, fields: this.fieldMap(b.fields, `${at}/fields`) };
      if (b.variants) out = { ...out, variants: this.variantMap(b.variants, `${at}/variants`) };
      return out;
    }
    const { shape: ref, ...rest } = b;
    const owns = (['resource', 'fields', 'variants', 'discriminator'] as const).find((k) => rest[k] !== undefined);
    if (owns !== undefined) return this.conflict(rest, `${at}/shape`, 'a payload', owns);
    const s = this.named(ref, `${at}/shape`, `${at}/shape`);
    if (s === undefined) return rest;
    return s.fields !== undefined
      ? { ...rest, fields: s.fields }
      : { ...rest, ...(s.discriminator !== undefined ? { discriminator: s.discriminator } : {}), variants: s.variants ?? {} };
  }

  private conflict<T>(value: T, at: string, where: string, key: string): T {
    this.diagnostics.push(createDiagnostic('shape-conflict', { where, key }, { pointer: at }));
    return value;
  }

  private mismatch<T>(value: T, at: string, name: string, where: string): T {
    const s = this.shapes[name]!;
    this.diagnostics.push(createDiagnostic('shape-mismatch', { name, has: s.fields !== undefined ? 'fields' : 'variants', where }, { pointer: at }));
    return value;
  }
}

function mapValues<T, U>(o: Record<string, T>, f: (v: T, k: string) => U): Record<string, U> {
  const out: Record<string, U> = {};
  for (const [k, v] of Object.entries(o)) out[k] = f(v, k);
  return out;
}
