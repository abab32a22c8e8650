// Path parameters bound to fields of an operation's resource (`bind`): one reading for check, routes, runtime,
// export, document, tester and diff.

import { getField } from './model-lookup.js';
import type { FieldModel, OperationModel, PathBindingModel, ResourceModel } from './model-types.js';

/** Field types a path segment can carry as text (compared as the field's value). */
export const BINDABLE_TYPES: ReadonlySet<FieldModel['type']> = new Set(['string', 'integer', 'uuid', 'email', 'uri', 'enum', 'date', 'ref']);

/** The actions that address one object: their bindings must name it. */
export const ADDRESSING_ACTIONS: ReadonlySet<string> = new Set(['read', 'update', 'replace', 'delete', 'transition']);

/** Actions that may declare `bind` (a custom operation binds its parameters to its request shape instead). */
export const BINDING_ACTIONS: ReadonlySet<string> = new Set(['create', 'read', 'update', 'replace', 'delete', 'list', 'transition']);

export interface ResolvedBinding {
  param: string;
  field: FieldModel;
}

/** The operation's bindings whose fields resolve to bindable top-level fields of the resource (check reports the rest). */
export function getResolvedBindings(resource: ResourceModel, o: OperationModel): readonly ResolvedBinding[] {
  const out: ResolvedBinding[] = [];
  for (const b of o.bindings ?? []) {
    const f = b.field.includes('.') ? undefined : getField(resource, b.field);
    if (f && BINDABLE_TYPES.has(f.type)) out.push({ param: b.param, field: f });
  }
  return out;
}

/** Whether the bound fields name at most one object: one of them is the identifier or a unique field. */
export function bindsOneObject(resource: ResourceModel, bindings: readonly { field: FieldModel | string }[]): boolean {
  return bindings.some((b) => {
    const name = typeof b.field === 'string' ? b.field : b.field.name;
    return name === resource.identifier || getField(resource, name)?.unique === true;
  });
}

/**
 * Whether an addressing operation finds its object by the identifier alone (its one path parameter, or a `bind`
 * holding only the identifier): the runtime then reads by primary key; otherwise by every bound field.
 */
export function isIdentifierOnly(resource: ResourceModel, o: OperationModel): boolean {
  const b = o.bindings;
  return b === undefined || (b.length === 1 && b[0]!.field === resource.identifier);
}

/** The binding of one path parameter, if any. */
export function getBinding(o: OperationModel, param: string): PathBindingModel | undefined {
  return o.bindings?.find((b) => b.param === param);
}
