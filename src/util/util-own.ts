/**
 * A property the object has itself, or undefined: field, parameter and header names come from the spec and may be
 * names of Object.prototype's members (`constructor`, `toString`), which a plain object, a parsed query or Node's
 * headers would otherwise answer with the prototype's function.
 */
export function ownValue(o: object, name: string): unknown {
  return Object.hasOwn(o, name) ? (o as Record<string, unknown>)[name] : undefined;
}
