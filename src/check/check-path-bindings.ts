// endpoints.operations.<id>.bind: the fields of the resource an operation's path parameters name (docs/format.md,
// "Path parameters bound to fields"). What the runtime could not serve is refused here, before `serve` meets it.

import { getField } from '../model/model-lookup.js';
import {
  ADDRESSING_ACTIONS,
  BINDABLE_TYPES,
  BINDING_ACTIONS,
  bindsOneObject,
  getFieldAt,
  getParentAddressSources,
  getParentChain,
  isNestedPath,
} from '../model/model-path-bindings.js';
import { isWritable } from '../model/model-schemas.js';
import type { FieldModel, OperationModel, ResourceModel, ServiceModel } from '../model/model-types.js';
import { joinPointer } from '../util/util-json-pointer.js';
import type { DiagnosticCode, DiagnosticParams } from '../diagnostics/diagnostics-catalogue.js';
import { suggestion } from '../diagnostics/diagnostics-suggest.js';

type Report = <C extends DiagnosticCode>(code: C, params: DiagnosticParams<C>, pointer: string) => void;

export function checkPathBindings(model: ServiceModel, report: Report): void {
  for (const o of model.endpoints?.operations ?? []) {
    if (o.bindings === undefined) continue;
    if (!BINDING_ACTIONS.has(o.action)) {
      report('misplaced-option', { operation: o.id, option: 'bind', action: o.action }, joinPointer(o.pointer, 'bind'));
      continue;
    }
    const resource = model.resources.find((r) => r.name === o.resource);
    if (!resource) continue; // unknown-resource says so
    const at = { operation: o.id };
    const resolved: { path: string }[] = [];
    let parentsBound = 0;
    const seen = new Map<string, string>();
    for (const b of o.bindings) {
      if (!o.pathParams.includes(b.param)) {
        report('path-binding-unknown-param', { ...at, param: b.param, suggestion: suggestion(b.param, o.pathParams) }, b.pointer);
        continue;
      }
      if (b.parent) {
        // One parameter names each parent; a second would go unread (the parent is found by the first).
        const first = o.bindings.find((x) => x.parent?.resource === b.parent!.resource);
        if (first !== b) {
          report('parent-binding-twice', { ...at, param: b.param, first: first!.param, parent: b.parent.resource }, b.pointer);
          continue;
        }
        if (checkParentBinding(model, resource, o.id, b.param, b.parent, b.pointer, report)) parentsBound++;
        continue;
      }
      const f = getFieldAt(resource, b.field);
      const head = b.field.slice(0, Math.max(0, b.field.indexOf('.')));
      if (!f && head !== '' && model.resources.some((r) => r.name === head) && !resource.fields.some((x) => x.name === head)) {
        // `Article.slug` on a resource that does not say `parent: Article`.
        report(
          'parent-binding-without-parent',
          { ...at, param: b.param, parent: head, resource: resource.name, declared: describeParents(model, resource) },
          b.pointer,
        );
        continue;
      }
      if (!f) {
        const names = resource.fields.map((x) => x.name);
        const detail = isNestedPath(resource, b.field)
          ? `names the nested field \`${b.field}\`, which ${resource.name} does not have (each segment a field of an object field)`
          : `names field \`${b.field}\`, which ${resource.name} does not have${suggestion(b.field, names)}`;
        report('path-binding-field-invalid', { ...at, param: b.param, detail }, b.pointer);
        continue;
      }
      if (!BINDABLE_TYPES.has(f.type)) {
        report(
          'path-binding-field-invalid',
          {
            ...at,
            param: b.param,
            detail: `names field \`${b.field}\` of type ${f.type}, which a path segment cannot carry (${[...BINDABLE_TYPES].join(', ')})`,
          },
          b.pointer,
        );
        continue;
      }
      if (f.writeOnly) {
        // A path naming an object by a write-only value (a password) tells which objects hold it.
        report(
          'write-only-invalid',
          { where: `${resource.name}.${b.field}`, detail: `cannot be bound to path parameter {${b.param}} of operation ${o.id}` },
          b.pointer,
        );
        continue;
      }
      const other = seen.get(b.field);
      if (other !== undefined) {
        report('path-binding-field-invalid', { ...at, param: b.param, detail: `names field \`${b.field}\`, which {${other}} names already` }, b.pointer);
        continue;
      }
      seen.set(b.field, b.param);
      if (o.action === 'create' && !isCreateBindable(resource, b.field)) {
        report(
          'path-binding-field-invalid',
          { ...at, param: b.param, detail: `names field \`${b.field}\`, which a create cannot write (the server sets it)` },
          b.pointer,
        );
        continue;
      }
      resolved.push({ path: b.field });
    }
    checkParentGap(model, resource, o, report);
    // Only when every binding resolved: an unresolved one is reported above, and would make this one noise.
    if (ADDRESSING_ACTIONS.has(o.action) && resolved.length + parentsBound === o.bindings.length && !bindsOneObject(resource, resolved)) {
      const keys = [
        ...resource.fields.filter((f) => f.name === resource.identifier || f.unique).map((f) => f.name),
        ...(resource.uniqueKeys ?? []).map((k) => (k.length === 1 ? k[0]! : `(${k.join(', ')})`)),
      ];
      report(
        'path-binding-not-unique',
        {
          ...at,
          action: o.action,
          fields: [...o.bindings.filter((b) => b.parent).map((b) => b.field), ...resolved.map((b) => b.path)].join(', '),
          keys: keys.length > 0 ? keys.join(', ') : 'none',
        },
        joinPointer(o.pointer, 'bind'),
      );
    }
  }
}

/**
 * Whether a create may bind a field: one its request writes, or a read-only field the path gives (a task's
 * `project_id` under `/projects/{projectId}/tasks`: the body never carries it, the runtime sets it from the path) —
 * not one the server makes (the server's identifier, the owner, the state, a `generated` field), and, for a nested
 * one, inside objects the create writes (the runtime makes them where the body leaves them out).
 */
export function isCreateBindable(resource: ResourceModel, path: string): boolean {
  const nested = isNestedPath(resource, path);
  const parts = nested ? path.split('.') : [path];
  let fields: readonly FieldModel[] | undefined = resource.fields;
  for (const [i, part] of parts.entries()) {
    const f: FieldModel | undefined = fields?.find((x) => x.name === part);
    if (!f) return false;
    const last = i === parts.length - 1;
    if (!isWritable(i === 0 ? resource : undefined, f, 'create')) {
      if (!last || !f.readOnly || f.type === 'state' || f.generated !== undefined) return false;
      if (i === 0 && (f.name === resource.identifier || f.name === resource.owner)) return false;
    }
    fields = f.fields;
  }
  return true;
}

/**
 * resources.<name>.unique_keys: each path names a field a path segment can carry (nested through object fields);
 * the storage keeps one constraint over them (docs/format.md, "Keys unique together").
 */
export function checkUniqueKeys(model: ServiceModel, report: Report): void {
  for (const r of model.resources) {
    (r.uniqueKeys ?? []).forEach((k, i) => {
      const pointer = joinPointer(joinPointer(r.pointer, 'unique_keys'), i);
      for (const path of k) {
        const f = getFieldAt(r, path);
        if (!f)
          report(
            'unique-key-invalid',
            { resource: r.name, path, detail: `names no field of ${r.name} (a nested field through object fields, one dotted segment each)` },
            pointer,
          );
        else if (!BINDABLE_TYPES.has(f.type))
          report(
            'unique-key-invalid',
            { resource: r.name, path, detail: `has type ${f.type}; a key field is one of ${[...BINDABLE_TYPES].join(', ')}` },
            pointer,
          );
        else if ((isNestedPath(r, path) ? getField(r, path.split('.')[0]!) : f)?.writeOnly)
          // A unique_conflict on the key would tell a client which values another object holds.
          report('write-only-invalid', { where: `${r.name}.${path}`, detail: 'cannot be in a key unique together (unique_keys)' }, pointer);
      }
    });
  }
}

/**
 * The parents an operation's path names are its resource's own and each one above it, without a gap: an Owner is
 * found first, then the Pet under it, then the Visit under the Pet; a path naming the Owner and not the Pet could
 * not say which of the Owner's pets the visits are under (`/owners/{ownerId}/visits`).
 */
function checkParentGap(model: ServiceModel, resource: ResourceModel, o: OperationModel, report: Report): void {
  const chain = getParentChain(model, resource);
  const bound = new Set((o.bindings ?? []).map((b) => b.parent?.level));
  const outer = (o.bindings ?? []).filter((b) => b.parent !== undefined && b.parent.level > 1).sort((a, b) => a.parent!.level - b.parent!.level);
  for (const b of outer) {
    const gap = chain.findIndex((_, i) => i + 1 < b.parent!.level && !bound.has(i + 1));
    if (gap < 0) continue;
    report(
      'parent-binding-gap',
      {
        operation: o.id,
        param: b.param,
        parent: b.parent!.resource,
        resource: resource.name,
        missing: chain[gap]!.name,
        child: (gap === 0 ? resource : chain[gap - 1]!).name,
      },
      b.pointer,
    );
    return;
  }
}

/**
 * A binding naming a field of the resource's parent (`slug: Article.slug`), or of a parent further up
 * (`ownerId: Owner.id`): the parent resolves and the field is its identifier or a unique field (one parent per
 * value). Whether it resolved.
 */
function checkParentBinding(
  model: ServiceModel,
  resource: ResourceModel,
  operation: string,
  param: string,
  parent: { resource: string; field: string; level: number },
  pointer: string,
  report: Report,
): boolean {
  const p = getParentChain(model, resource)[parent.level - 1];
  if (p?.name !== parent.resource) return false; // resources.<name>.parent says why (checkParents)
  const f = getField(p, parent.field);
  if (!f) {
    const names = p.fields.map((x) => x.name);
    report(
      'path-binding-field-invalid',
      { operation, param, detail: `names field \`${parent.field}\` of the parent ${p.name}, which ${p.name} does not have${suggestion(parent.field, names)}` },
      pointer,
    );
    return false;
  }
  if (!BINDABLE_TYPES.has(f.type)) {
    report(
      'path-binding-field-invalid',
      { operation, param, detail: `names field \`${parent.field}\` of the parent ${p.name}, of type ${f.type}, which a path segment cannot carry` },
      pointer,
    );
    return false;
  }
  if (f.name !== p.identifier && f.unique !== true) {
    report('parent-binding-not-unique', { operation, param, parent: p.name, field: f.name }, pointer);
    return false;
  }
  return true;
}

/**
 * resources.<name>.parent (docs/format.md, "Resources under a parent"): a resource with an identifier, which may have
 * a parent of its own (a chain: a Visit under a Pet under an Owner) but never comes round to the resource again, and
 * every create of the child names its own parent through `bind` (else it could not store one); a replace that
 * creates (`upsert`) cannot.
 */
export function checkParents(model: ServiceModel, report: Report): void {
  for (const r of model.resources) {
    if (r.parent === undefined) continue;
    const pointer = joinPointer(r.pointer, 'parent');
    const p = model.resources.find((x) => x.name === r.parent);
    if (!p) {
      report(
        'parent-unknown',
        {
          resource: r.name,
          parent: r.parent,
          suggestion: suggestion(
            r.parent,
            model.resources.map((x) => x.name),
          ),
        },
        pointer,
      );
      continue;
    }
    // A loop: the resource is reached again following parents (itself, or A → B → A).
    const chain = [r.name];
    let at: ResourceModel | undefined = p;
    while (at && !chain.includes(at.name)) {
      chain.push(at.name);
      at = at.parent === undefined ? undefined : model.resources.find((x) => x.name === at!.parent);
    }
    if (at) {
      report('parent-cycle', { resource: r.name, chain: [...chain, at.name].join(' → ') }, pointer);
      continue;
    }
    if (p.identifier === undefined || !getField(p, p.identifier)) {
      report('parent-invalid', { resource: r.name, parent: p.name, detail: 'has no identifier field, which the child would keep' }, pointer);
      continue;
    }
    for (const o of model.endpoints?.operations ?? []) {
      if (o.resource !== r.name) continue;
      // A create naming only a parent further up is parent-binding-gap.
      if (o.action === 'create' && !o.bindings?.some((b) => b.parent !== undefined))
        report('parent-binding-missing', { operation: o.id, resource: r.name, parent: p.name }, o.pointer);
      if (o.action === 'replace' && o.upsert)
        report('parent-invalid', { resource: r.name, parent: p.name, detail: `cannot be set by operation ${o.id}, a replace that creates (upsert)` }, pointer);
    }
    checkParentAddresses(model, r, report);
  }
}

/**
 * A resource under a parent whose address (its first read's path) names a parent by a field no object of the
 * resource keeps: its own parent by a field other than its identifier (`Article.slug`), or a parent further up
 * (`Owner.id` above a Visit's Pet). An operation whose path does not bind that same field answers no address there
 * (a create no Location, an answer no `generated: address` field), as the runtime reads no parent per answer to find it.
 */
function checkParentAddresses(model: ServiceModel, r: ResourceModel, report: Report): void {
  const operations = (model.endpoints?.operations ?? []).filter((o) => o.resource === r.name);
  const read = operations.find((o) => o.action === 'read');
  if (!read) return;
  const address = r.fields.find((f) => f.generated === 'address');
  const chain = getParentChain(model, r);
  for (const o of operations) {
    const source = getParentAddressSources(model, r, read, o).find((s) => s.column === undefined && s.param === undefined);
    if (!source) continue;
    const location = o.action === 'create' && o.location !== false;
    const field = address !== undefined && o.action !== 'delete' && o.action !== 'custom';
    if (!location && !field) continue;
    const lost = [location ? 'no Location' : undefined, field ? `no \`${address!.name}\`` : undefined].filter((x) => x !== undefined).join(' and ');
    const p = chain[source.level - 1];
    const remedy =
      source.level === 1
        ? `, or the read to \`${source.parent}.${p?.identifier ?? 'id'}\``
        : ` (a ${r.name} keeps only its own ${chain[0]?.name ?? 'parent'}, not its ${source.parent})`;
    report(
      'parent-address-unfilled',
      { operation: o.id, resource: r.name, read: read.id, parent: source.parent, field: source.field, lost, remedy },
      o.pointer,
    );
  }
}

/** What is above a resource, for a message: 'it has no parent', 'its parent is Pet', 'its parents are Pet, then Owner'. */
function describeParents(model: ServiceModel, resource: ResourceModel): string {
  const chain = getParentChain(model, resource).map((r) => r.name);
  // A parent naming no resource (parent-unknown, reported on its own) is still what the resource declares.
  if (chain.length === 0) return resource.parent === undefined ? 'it has no parent' : `its parent is ${resource.parent}`;
  return chain.length === 1 ? `its parent is ${chain[0]!}` : `its parents are ${chain.join(', then ')}`;
}
