// Which named shape (docs/format.md, "Named shapes") a part of the model was written out from: an object's `fields`
// (a field's, a variant's, a payload's) or a `union`. A note beside the model, not in it: every reader sees the same
// written-out fields, frozen and compared as before; only the exports read it, to write the shape once and refer to
// it. Keyed by the model's own objects, so it lives as long as they do; a copy (a derived view) has no note.

const names = new WeakMap<object, string>();
const descriptions = new WeakMap<object, string>();

/**
 * Notes that `part` (a fields list or a union, as the model builder made it) is the named shape `name` written out,
 * with the shape's own `description` where it has one.
 */
export function noteNamedShape(part: object, name: string, description?: string): void {
  names.set(part, name);
  if (description !== undefined) descriptions.set(part, description);
}

/** The `description` of the named shape `part` was written out from, or undefined. */
export function getNamedShapeDescription(part: object | undefined): string | undefined {
  return part === undefined ? undefined : descriptions.get(part);
}

/** The named shape `part` was written out from, or undefined (written in place, or a copy the model derived). */
export function getNamedShape(part: object | undefined): string | undefined {
  return part === undefined ? undefined : names.get(part);
}
