// An answer that is a resource with members added beside it: `allOf: [$ref Booking, { properties: { links: … } }]`
// (Bump.sh's train-travel read and create answers, HAL's `_links` beside the object). The service has no value for
// the added members, so it answers the resource as it is; where the document lets it (the members optional, the
// resource's object open to other members), the operation is the resource's action, not a custom one answering 501,
// and the import says what it leaves out (docs/import.md, "Members added beside a resource").

import { joinPointer } from '../util/util-json-pointer.js';
import { flatten, isObject, resolve, type SchemaContext } from './import-schema.js';

/** Keys an `allOf` around the parts may carry beside them: words and the object type. */
const AROUND = new Set(['allOf', 'description', 'title', 'type', 'example', 'examples']);
/** Keys a part adding members may carry: its members and words, nothing constraining the resource's own. */
const ADDING = new Set(['type', 'properties', 'description', 'title', 'required']);

export interface ResourceBeside {
  resource: string;
  /** Each member added beside the resource, at its place in the document. */
  added: readonly { name: string; pointer: string }[];
}

/**
 * The resource an answer's `allOf` holds, with the members its other parts add beside it, or undefined where the
 * answer is not that: exactly one part is a resource's component; every other part is an object adding optional
 * members the resource does not name; and the resource's object leaves other members open (no
 * `additionalProperties: false` or `unevaluatedProperties: false`), so its answers may hold them.
 */
export function readResourceBeside(ctx: SchemaContext, node: unknown, pointer: string): ResourceBeside | undefined {
  const top = resolve(ctx, node, pointer);
  if (!isObject(top.node) || !Array.isArray(top.node.allOf) || top.node.allOf.length < 2) return undefined;
  if (!Object.keys(top.node).every((k) => AROUND.has(k)) || (top.node.type !== undefined && top.node.type !== 'object')) return undefined;
  const parts = top.node.allOf.map((p, i) => ({ node: p, pointer: joinPointer(joinPointer(top.pointer, 'allOf'), i) }));
  const named = parts.map((p) =>
    resolve(ctx, p.node, p.pointer)
      .chain.map((ptr) => ctx.resources.get(ptr))
      .find((n) => n !== undefined),
  );
  const at = named.flatMap((n, i) => (n === undefined ? [] : [i]));
  if (at.length !== 1) return undefined;
  const resourcePart = parts[at[0]!]!;
  const own = flatten(ctx, resourcePart.node, resourcePart.pointer).schema;
  if (!own || own.additionalProperties === false || own.unevaluatedProperties === false) return undefined;
  const ownNames = new Set(isObject(own.properties) ? Object.keys(own.properties) : []);
  const added: { name: string; pointer: string }[] = [];
  for (const [i, part] of parts.entries()) {
    if (i === at[0]) continue;
    const r = resolve(ctx, part.node, part.pointer);
    const s = r.node;
    if (!isObject(s) || !Object.keys(s).every((k) => ADDING.has(k)) || (s.type !== undefined && s.type !== 'object')) return undefined;
    if (!isObject(s.properties) || Object.keys(s.properties).length === 0) return undefined;
    if (Array.isArray(s.required) && s.required.length > 0) return undefined;
    for (const name of Object.keys(s.properties)) {
      if (ownNames.has(name)) return undefined;
      added.push({ name, pointer: joinPointer(joinPointer(r.pointer, 'properties'), name) });
    }
  }
  return { resource: named[at[0]!]!, added };
}
