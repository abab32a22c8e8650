// endpoints.operations.<id>.bind: the fields of the resource an operation's path parameters name (docs/format.md,
// "Path parameters bound to fields"). What the runtime could not serve is refused here, before `serve` meets it.

import { getField } from '../model/model-lookup.js';
import { ADDRESSING_ACTIONS, BINDABLE_TYPES, BINDING_ACTIONS, bindsOneObject } from '../model/model-path-bindings.js';
import { isWritable } from '../model/model-schemas.js';
import type { ServiceModel } from '../model/model-types.js';
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
    const resolved: { field: string }[] = [];
    const seen = new Map<string, string>();
    for (const b of o.bindings) {
      if (!o.pathParams.includes(b.param)) {
        report('path-binding-unknown-param', { ...at, param: b.param, suggestion: suggestion(b.param, o.pathParams) }, b.pointer);
        continue;
      }
      if (b.field.includes('.')) {
        report(
          'path-binding-field-invalid',
          { ...at, param: b.param, detail: `names the nested field \`${b.field}\`; only a field of ${resource.name} itself can be bound yet` },
          b.pointer,
        );
        continue;
      }
      const f = getField(resource, b.field);
      if (!f) {
        const names = resource.fields.map((x) => x.name);
        report(
          'path-binding-field-invalid',
          { ...at, param: b.param, detail: `names field \`${b.field}\`, which ${resource.name} does not have${suggestion(b.field, names)}` },
          b.pointer,
        );
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
      const other = seen.get(f.name);
      if (other !== undefined) {
        report('path-binding-field-invalid', { ...at, param: b.param, detail: `names field \`${b.field}\`, which {${other}} names already` }, b.pointer);
        continue;
      }
      seen.set(f.name, b.param);
      if (o.action === 'create' && !isWritable(resource, f, 'create')) {
        report(
          'path-binding-field-invalid',
          { ...at, param: b.param, detail: `names field \`${b.field}\`, which a create cannot write (the server sets it)` },
          b.pointer,
        );
        continue;
      }
      resolved.push({ field: f.name });
    }
    // Only when every binding resolved: an unresolved one is reported above, and would make this one noise.
    if (ADDRESSING_ACTIONS.has(o.action) && resolved.length === o.bindings.length && !bindsOneObject(resource, resolved)) {
      const keys = resource.fields.filter((f) => f.name === resource.identifier || f.unique).map((f) => f.name);
      report(
        'path-binding-not-unique',
        { ...at, action: o.action, fields: resolved.map((b) => b.field).join(', '), keys: keys.length > 0 ? keys.join(', ') : 'none' },
        joinPointer(o.pointer, 'bind'),
      );
    }
  }
}
