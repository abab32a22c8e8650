// A list whose objects are a summary of one resource (docs/format.md, "Lists that answer some of the fields";
// docs/import.md, "Lists that answer a summary"): RealWorld's `GET /articles` answers `{ articles: [ <Article without
// body> ] }` with the item schema written out. Its items, read as fields, are the resource's list with `answer_fields`
// when every property is a field of exactly one resource, of the same type, as answers carry it. Strict: a property the
// resource does not have, or holds otherwise, keeps the operation custom (the reason names the property's pointer);
// what is read approximately (an item's optional property the resource always answers) is said at its pointer.
import { joinPointer } from '../util/util-json-pointer.js';
import type { FieldSpec, ResourceSpec } from '../spec/spec-types.js';
import { flatten, report, resolve, type SchemaContext } from './import-schema.js';

/** What the import knows of the resources when it reads a list's answer. */
export interface SummaryContext extends SchemaContext {
  resourceSpecs: Record<string, ResourceSpec>;
}

/** A list's items read as a summary of one resource, or why they are none (a reason naming the property's pointer). */
export type Summary = { resource: string; fields: string[] | undefined; approximated: { name: string; pointer: string }[] } | { reason: string } | undefined;

/**
 * Keys that say nothing of an answered value's shape: words, examples, how requests write it, how the service sets
 * it. A field's shape is the rest (type, items, fields, variants, values, ref target, nullability, bounds, pattern).
 */
const NOT_SHAPE: ReadonlySet<string> = new Set([
  'description',
  'example',
  'readOnly',
  'writeOnce',
  'writeOnly',
  'renamedFrom',
  'generated',
  'unique',
  'default',
  'source',
  'requiredInRequests',
  'optionalInRequests',
]);

/** A field's answered shape as comparable JSON; `top` leaves its own optionality out (compared apart). */
function shapeOf(f: FieldSpec, top: boolean): unknown {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(f as unknown as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (v === undefined || NOT_SHAPE.has(k) || (top && k === 'optional')) continue;
    if (k === 'optional' && v === false) continue;
    if (k === 'nullable') {
      // `nullable: answers` is null in answers only: as an answer is read, nullable.
      if (v !== false) out.nullable = true;
    } else if (k === 'items') out.items = shapeOf(v as FieldSpec, false);
    else if (k === 'fields') out.fields = fieldsShape(v as Record<string, FieldSpec>);
    else if (k === 'variants')
      out.variants = Object.fromEntries(
        Object.entries(v as Record<string, { tag?: string; fields?: Record<string, FieldSpec>; shape?: string }>).map(([n, x]) => [
          n,
          { tag: x.tag, shape: x.shape, fields: x.fields && fieldsShape(x.fields) },
        ]),
      );
    else out[k] = v;
  }
  return out;
}

function fieldsShape(fields: Record<string, FieldSpec>): unknown {
  return Object.fromEntries(
    Object.entries(fields)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([n, f]) => [n, shapeOf(f, false)]),
  );
}

/**
 * The list items (`items`: the fields the item schema at `pointer` was read as) as a summary of one resource: each
 * property a field that resource answers (not write-only), of the same shape. A property the resource holds
 * otherwise — another type, a required one it may leave out — is a reason to stay custom; an optional property the
 * resource always answers is taken (the service answers it always, which the document allows) and said. Several
 * resources holding every property alike: none is picked, and that is the reason. Items holding every field the
 * resource answers are its own list (fields undefined).
 */
export function readSummary(ctx: SummaryContext, items: Record<string, FieldSpec>, node: unknown, pointer: string): Summary {
  const names = Object.keys(items);
  if (names.length === 0) return undefined;
  const at = flatten(ctx, node, pointer).pointer;
  const propertyAt = (name: string) => joinPointer(joinPointer(at, 'properties'), name);
  const matches: { resource: string; approximated: { name: string; pointer: string }[] }[] = [];
  // The first resource holding every name, with the first property it holds otherwise: the reason it is not that list.
  let near: { resource: string; name: string; why: string } | undefined;
  for (const [resource, spec] of Object.entries(ctx.resourceSpecs)) {
    const own = spec.fields ?? {};
    if (spec.variants !== undefined) continue;
    if (!names.every((n) => Object.hasOwn(own, n) && own[n]!.writeOnly !== true)) continue;
    const approximated: { name: string; pointer: string }[] = [];
    let differs: { name: string; why: string } | undefined;
    for (const n of names) {
      const mine = items[n]!;
      const theirs = own[n]!;
      if (JSON.stringify(shapeOf(mine, true)) !== JSON.stringify(shapeOf(theirs, true))) {
        differs = { name: n, why: `of another type or constraint than ${resource}.${n}` };
        break;
      }
      const optionalHere = mine.optional === true;
      const optionalThere = theirs.optional === true;
      if (!optionalHere && optionalThere) {
        differs = { name: n, why: `required, where ${resource}.${n} is optional (the list would leave it out where an object has none)` };
        break;
      }
      if (optionalHere && !optionalThere) approximated.push({ name: n, pointer: propertyAt(n) });
    }
    if (differs === undefined) matches.push({ resource, approximated });
    else near ??= { resource, ...differs };
  }
  if (matches.length > 1)
    return {
      reason: `its items (${at}) hold fields of several resources alike (${matches.map((m) => m.resource).join(', ')}): which one it lists is not said`,
    };
  const match = matches[0];
  if (match === undefined)
    return near === undefined
      ? undefined
      : {
          reason: `its items (${at}) are no summary of ${near.resource}: \`${near.name}\` (${propertyAt(near.name)}) is ${near.why}`,
        };
  // Every field the resource answers: the resource's own list, its items written out.
  const answered = Object.entries(ctx.resourceSpecs[match.resource]!.fields ?? {}).filter(([, f]) => f.writeOnly !== true);
  if (answered.every(([n]) => names.includes(n))) return { resource: match.resource, fields: undefined, approximated: match.approximated };
  return { resource: match.resource, fields: names, approximated: match.approximated };
}

/** Says each item property read approximately (its optional property the resource always answers), at its pointer. */
export function reportSummary(ctx: SummaryContext, operation: string, resource: string, approximated: readonly { name: string; pointer: string }[]): void {
  for (const a of approximated)
    report(
      ctx,
      'import-approximated',
      {
        item: `operation ${operation}: its list items' optional \`${a.name}\``,
        as: `${resource}.${a.name}, which every ${resource} holds`,
        reason: 'a list answering some of the fields (answer_fields) answers each as a read does: always, where the resource requires it',
      },
      a.pointer,
    );
}

/**
 * Whether a list's query parameter of a field's name can be that field's filter: its declared type is one the field's
 * values are written in (RealWorld's \`favorited\`, a username, is no filter on the boolean \`favorited\`: served so, a
 * request naming a user would be refused). A parameter stating no single type is taken as before.
 */
export function isFilterTypeOf(field: FieldSpec, schema: { type?: unknown }): boolean {
  const t = typeof schema.type === 'string' ? schema.type : undefined;
  if (t === undefined) return true;
  switch (field.type) {
    case 'boolean':
      return t === 'boolean';
    case 'integer':
    case 'number':
      return t === 'integer' || t === 'number';
    case 'enum':
      return t === 'string' || t === 'integer' || t === 'number';
    case 'ref':
      return t === 'string' || t === 'integer';
    default:
      return t === 'string';
  }
}

/**
 * The fields a servicespec export's list item component names (\`ArticleListItem\`, marked \`x-servicespec-view\` with
 * \`answer_fields\`): what the list answers, read back from the component where the operation's extension is gone.
 */
export function exportedSummary(ctx: SchemaContext, items: unknown, pointer: string): string[] | undefined {
  const view = resolve(ctx, items, pointer).node;
  const marked = view !== null && typeof view === 'object' ? (view as Record<string, unknown>)['x-servicespec-view'] : undefined;
  const fields = marked !== null && typeof marked === 'object' ? (marked as Record<string, unknown>).answer_fields : undefined;
  return Array.isArray(fields) && fields.every((f) => typeof f === 'string') ? (fields as string[]) : undefined;
}
