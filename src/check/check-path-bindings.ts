// endpoints.operations.<id>.bind: the fields of the resource an operation's path parameters name (docs/format.md,
// "Path parameters bound to fields"). What the runtime could not serve is refused here, before `serve` meets it.

import { getField } from '../model/model-lookup.js';
import { ADDRESSING_ACTIONS, BINDABLE_TYPES, BINDING_ACTIONS, bindsOneObject, getFieldAt, isNestedPath } from '../model/model-path-bindings.js';
import { isWritable } from '../model/model-schemas.js';
import type { FieldModel, ResourceModel, ServiceModel } from '../model/model-types.js';
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
    const seen = new Map<string, string>();
    for (const b of o.bindings) {
      if (!o.pathParams.includes(b.param)) {
        report('path-binding-unknown-param', { ...at, param: b.param, suggestion: suggestion(b.param, o.pathParams) }, b.pointer);
        continue;
      }
      const f = getFieldAt(resource, b.field);
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
    // Only when every binding resolved: an unresolved one is reported above, and would make this one noise.
    if (ADDRESSING_ACTIONS.has(o.action) && resolved.length === o.bindings.length && !bindsOneObject(resource, resolved)) {
      const keys = [
        ...resource.fields.filter((f) => f.name === resource.identifier || f.unique).map((f) => f.name),
        ...(resource.uniqueKeys ?? []).map((k) => (k.length === 1 ? k[0]! : `(${k.join(', ')})`)),
      ];
      report(
        'path-binding-not-unique',
        { ...at, action: o.action, fields: resolved.map((b) => b.path).join(', '), keys: keys.length > 0 ? keys.join(', ') : 'none' },
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
