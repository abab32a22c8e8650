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
  /** The field's path as written (`metadata.name` for a nested one; a top-level field's name). */
  path: string;
  /** The storage column holding its value: the field's own, or a nested field's (getNestedColumn). */
  column: string;
}

/**
 * The field a path names: a field of the resource by that name, else one nested in object fields, one dotted segment
 * each (`metadata.name`). Not through an array, a union or json: one object holds at most one value there.
 */
export function getFieldAt(resource: Pick<ResourceModel, 'fields'>, path: string): FieldModel | undefined {
  const top = resource.fields.find((f) => f.name === path);
  if (top || !path.includes('.')) return top;
  let fields: readonly FieldModel[] | undefined = resource.fields;
  let f: FieldModel | undefined;
  for (const part of path.split('.')) {
    f = fields?.find((x) => x.name === part);
    if (!f) return undefined;
    fields = f.type === 'object' ? (f.fields ?? []) : undefined;
  }
  return f;
}

/** Whether a path names a nested field (not a field of the resource itself, whose name may have dots). */
export function isNestedPath(resource: ResourceModel, path: string): boolean {
  return path.includes('.') && getField(resource, path) === undefined;
}

/**
 * The storage column holding a nested field's value, kept from its top-level field's on every write, so a binding
 * or a unique key reads it as any column: `$` and the path (no field name has a `$`; the row key has no dot).
 */
export function getNestedColumn(path: string): string {
  return `$${path}`;
}

/** The column a path's values are compared in: the field's own, or its nested column. */
export function getPathColumn(resource: ResourceModel, path: string): string {
  return isNestedPath(resource, path) ? getNestedColumn(path) : path;
}

/** The nested field paths a resource's storage keeps a column for: those its unique keys name or an operation binds. */
export function getNestedPaths(model: { endpoints?: { operations: readonly OperationModel[] } }, resource: ResourceModel): string[] {
  const out = new Set<string>();
  for (const k of resource.uniqueKeys ?? []) for (const p of k) if (isNestedPath(resource, p) && getFieldAt(resource, p)) out.add(p);
  for (const o of model.endpoints?.operations ?? [])
    if (o.resource === resource.name && BINDING_ACTIONS.has(o.action))
      for (const b of o.bindings ?? []) if (isNestedPath(resource, b.field) && getFieldAt(resource, b.field)) out.add(b.field);
  return [...out];
}

/**
 * The value at a nested path of a row (undefined where an object on the way is absent or null): a dotted path, or its
 * names one by one (a name may hold a dot).
 */
export function getValueAt(row: unknown, path: string | readonly string[]): unknown {
  let v: unknown = row;
  for (const part of typeof path === 'string' ? path.split('.') : path) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/** The operation's bindings whose fields resolve to bindable fields of the resource, nested ones included (check reports the rest). */
export function getResolvedBindings(resource: ResourceModel, o: OperationModel): readonly ResolvedBinding[] {
  const out: ResolvedBinding[] = [];
  for (const b of o.bindings ?? []) {
    if (b.parent) continue; // the parent's field, not the resource's (getParentBinding)
    const f = getFieldAt(resource, b.field);
    if (f && BINDABLE_TYPES.has(f.type)) out.push({ param: b.param, field: f, path: b.field, column: getPathColumn(resource, b.field) });
  }
  return out;
}

/**
 * Whether the bound fields name at most one object: one of them is the identifier or a unique field, or they hold
 * every field of one of the resource's unique keys.
 */
export function bindsOneObject(resource: ResourceModel, bindings: readonly { path: string }[]): boolean {
  const paths = new Set(bindings.map((b) => b.path));
  if (bindings.some((b) => b.path === resource.identifier || (!isNestedPath(resource, b.path) && getField(resource, b.path)?.unique === true))) return true;
  return (resource.uniqueKeys ?? []).some((k) => k.every((p) => paths.has(p)));
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

/**
 * The parent a scope parameter names (`{projectId}` of `/projects/{projectId}/tasks`, under `/projects/{projectId}`,
 * which reads a Project): the resource of a read operation whose path is the operation's up to that parameter, and
 * the field of it that read binds the parameter to (its identifier without `bind`). Undefined when no read is there.
 */
export function getPathParent(
  model: { resources: readonly ResourceModel[]; endpoints?: { operations: readonly OperationModel[] } },
  o: OperationModel,
  param: string,
): { resource: ResourceModel; field: string } | undefined {
  const at = o.path.indexOf(`{${param}}`);
  if (at < 0) return undefined;
  const shape = (p: string) => p.replace(/\{[^{}]*\}/g, '{}');
  const prefix = shape(o.path.slice(0, at + param.length + 2));
  for (const read of model.endpoints?.operations ?? []) {
    if (read.action !== 'read' || read === o || shape(read.path) !== prefix) continue;
    const resource = model.resources.find((r) => r.name === read.resource);
    const last = read.pathParams.at(-1);
    if (!resource || last === undefined) continue;
    const field = read.bindings ? getBinding(read, last)?.field : resource.identifier;
    if (field !== undefined && getFieldAt(resource, field)) return { resource, field };
  }
  return undefined;
}

/**
 * The bindings of a create or a list whose path names a parent object by a `ref` field (a task's project_id under
 * /projects/{projectId}/tasks): top-level ref fields, whose column the storage keeps as a reference to the target's
 * identifier. Under a value naming no object of the target, the create and the list answer `missing_resource` (the
 * path names an object that is not there), not `reference_not_found` or an empty list. Empty for other actions.
 */
export function getParentRefBindings(resource: ResourceModel, o: OperationModel): readonly ResolvedBinding[] {
  if ((o.action !== 'create' && o.action !== 'list') || o.bindings === undefined) return [];
  return getResolvedBindings(resource, o).filter((b) => b.field.type === 'ref' && b.field.to !== undefined && b.column === b.path);
}

/**
 * The storage column holding the identifier of a resource's parent (`parent`, docs/format.md "Resources under a parent"):
 * a reference to the parent's table, which no answer shows. No field name has a `$`, and no nested column lacks a dot.
 */
export const PARENT_COLUMN = '$parent';

/** A binding naming a field of the resource's parent (`slug: Article.slug`), or of one further up its chain, resolved. */
export interface ResolvedParentBinding {
  param: string;
  /** The parent resource. */
  resource: ResourceModel;
  /** The parent's field the parameter names: its identifier or a unique field. */
  field: FieldModel;
  /** Whether that field is the parent's identifier (found by key) rather than a unique field (found by a search). */
  byIdentifier: boolean;
  /** The steps up from the operation's resource: 1 for its own parent, 2 for that parent's parent, … */
  level: number;
}

/** The binding of an operation naming its resource's own parent (`Article.slug`), as written; undefined for most. */
export function getParentBinding(o: OperationModel): PathBindingModel | undefined {
  return o.bindings?.find((b) => b.parent?.level === 1);
}

/**
 * The parent resource a resource's objects belong to (`parent`), where it resolves to a resource with an identifier
 * field (check reports the rest); undefined for a resource without one.
 */
export function getParentResource(model: { resources: readonly ResourceModel[] }, resource: ResourceModel): ResourceModel | undefined {
  if (resource.parent === undefined) return undefined;
  const p = model.resources.find((r) => r.name === resource.parent);
  return p && p.identifier !== undefined && getField(p, p.identifier) ? p : undefined;
}

/**
 * The resources above a resource (docs/format.md "Resources under a parent"): its parent first, then that parent's
 * parent, as far as each resolves (getParentResource), stopping before a resource met again (check: parent-cycle).
 * Empty for a resource without a parent.
 */
export function getParentChain(model: { resources: readonly ResourceModel[] }, resource: ResourceModel): readonly ResourceModel[] {
  const out: ResourceModel[] = [];
  for (let p = getParentResource(model, resource); p && p !== resource && !out.includes(p); p = getParentResource(model, p)) out.push(p);
  return out;
}

function resolveParentBinding(model: { resources: readonly ResourceModel[] }, resource: ResourceModel, b: PathBindingModel): ResolvedParentBinding | undefined {
  if (!b.parent) return undefined;
  const parent = getParentChain(model, resource)[b.parent.level - 1];
  if (parent?.name !== b.parent.resource) return undefined;
  const f = getField(parent, b.parent.field);
  if (!f || !BINDABLE_TYPES.has(f.type)) return undefined;
  const byIdentifier = f.name === parent.identifier;
  if (!byIdentifier && f.unique !== true) return undefined;
  return { param: b.param, resource: parent, field: f, byIdentifier, level: b.parent.level };
}

/**
 * The operation's binding of its resource's own parent resolved to the parent's identifier or one of its unique
 * top-level fields; undefined when the operation binds no parent, or the binding does not resolve (check reports it).
 */
export function getResolvedParentBinding(
  model: { resources: readonly ResourceModel[] },
  resource: ResourceModel,
  o: OperationModel,
): ResolvedParentBinding | undefined {
  const b = getParentBinding(o);
  return b && resolveParentBinding(model, resource, b);
}

/**
 * The parents an operation's path names, outermost first (`/owners/{ownerId}/pets/{petId}/visits`: the Owner, then
 * the Pet), each resolved: the order the runtime finds them in, each under the one before. The bound parents are the
 * resource's own and each one above it without a gap (check: parent-binding-gap); the chain stops at the first level
 * left unbound, so the parents above it are not checked. Empty when the own parent's binding does not resolve.
 */
export function getResolvedParentChain(
  model: { resources: readonly ResourceModel[] },
  resource: ResourceModel,
  o: OperationModel,
): readonly ResolvedParentBinding[] {
  const out: ResolvedParentBinding[] = [];
  for (let level = 1; ; level++) {
    const b = o.bindings?.find((x) => x.parent?.level === level);
    const resolved = b && resolveParentBinding(model, resource, b);
    if (!resolved) break;
    out.unshift(resolved);
  }
  return out;
}

/** Where one parameter of a resource's address naming a parent is filled from (getParentAddressSources). */
export interface ParentAddressSource {
  /** The read's parameter. */
  readParam: string;
  /** The binding as the read writes it (`Article.slug`). */
  field: string;
  /** The parent's resource and the steps up to it. */
  parent: string;
  level: number;
  /** The row's column holding it (PARENT_COLUMN): the own parent, bound by its identifier. */
  column?: string;
  /** The answering operation's parameter binding the same `Parent.field`. */
  param?: string;
}

/**
 * Where each parent's parameter of a resource's address (its read's path, `bind: { slug: Article.slug }`) comes from
 * when operation `o` answers (a create's Location, a `generated: address` field): `column` where the read binds the
 * own parent's identifier (the row's PARENT_COLUMN); `param` where it binds another field, or a parent further up
 * (whose identifier no row of the resource keeps), and `o`'s path binds the same `Parent.field` (under whatever name);
 * neither where nothing `o` is given holds it (a flat `GET /comments`, a create naming the parent by another field),
 * and then there is no address, never an empty segment (check: parent-address-unfilled). Empty where the read binds
 * no parent.
 */
export function getParentAddressSources(
  model: { resources: readonly ResourceModel[] },
  resource: ResourceModel,
  read: OperationModel,
  o: OperationModel,
): readonly ParentAddressSource[] {
  const out: ParentAddressSource[] = [];
  for (const b of read.bindings ?? []) {
    if (!b.parent) continue;
    const at = { readParam: b.param, field: b.field, parent: b.parent.resource, level: b.parent.level };
    if (b.parent.level === 1 && resolveParentBinding(model, resource, b)?.byIdentifier) {
      out.push({ ...at, column: PARENT_COLUMN });
      continue;
    }
    const own = o.bindings?.find((x) => x.parent?.resource === b.parent!.resource && x.parent.field === b.parent!.field);
    out.push(own ? { ...at, param: own.param } : at);
  }
  return out;
}
