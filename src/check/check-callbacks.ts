// endpoints.operations.<id>.callbacks: events about the object a create makes, POSTed to a URL from its request
// (docs/format.md, "Callbacks"). What the runtime could not serve is refused here, before `serve` meets it.

import { getBrokerKindBinding } from '../model/model-broker.js';
import { isWritable } from '../model/model-schemas.js';
import type { ServiceModel } from '../model/model-types.js';
import { joinPointer } from '../util/util-json-pointer.js';
import type { DiagnosticCode, DiagnosticParams } from '../diagnostics/diagnostics-catalogue.js';
import { suggestion } from '../diagnostics/diagnostics-suggest.js';

type Report = <C extends DiagnosticCode>(code: C, params: DiagnosticParams<C>, pointer: string) => void;

export function checkCallbacks(model: ServiceModel, report: Report): void {
  const kinds = new Map((model.events?.kinds ?? []).map((k) => [k.name, k]));
  for (const o of model.endpoints?.operations ?? []) {
    for (const c of o.callbacks ?? []) {
      const at = { operation: o.id, callback: c.name };
      // Only a create has one new object whose later events the subscription is about.
      if (o.action !== 'create') {
        report('callback-action-invalid', { ...at, action: o.action }, c.pointer);
        continue;
      }
      const resource = model.resources.find((r) => r.name === o.resource);
      if (!resource) continue; // unknown-resource says so
      const field = resource.fields.find((f) => f.name === c.url);
      const urlProblem = !field
        ? `names field \`${c.url}\`, which resource ${resource.name} does not have${suggestion(
            c.url,
            resource.fields.map((f) => f.name),
          )}`
        : field.type !== 'uri'
          ? `names field \`${c.url}\` of type ${field.type}; the subscription URL needs a field of type uri`
          : !isWritable(resource, field, 'create')
            ? `names field \`${c.url}\`, which a request cannot write`
            : undefined;
      if (urlProblem !== undefined) report('callback-url-invalid', { ...at, detail: urlProblem }, joinPointer(c.pointer, 'url'));
      c.events.forEach((name, i) => {
        const pointer = joinPointer(joinPointer(c.pointer, 'events'), String(i));
        const k = kinds.get(name);
        if (!k) return report('callback-event-unknown', { ...at, kind: name, suggestion: suggestion(name, kinds.keys()) }, pointer);
        const b = getBrokerKindBinding(model, k);
        if (b.resource !== resource.name)
          return report(
            'callback-event-unmatched',
            { ...at, kind: name, resource: resource.name, reason: b.whyNoResource ?? `it carries resource ${b.resource}` },
            pointer,
          );
        if (b.whyNoId !== undefined) return report('callback-event-unmatched', { ...at, kind: name, resource: resource.name, reason: b.whyNoId }, pointer);
        // The subscription is stored once the create has committed: the create's own event is already past it.
        if (k.triggers.length > 0 && k.triggers.every((t) => t.action === 'create'))
          report('callback-event-never', { ...at, kind: name, resource: resource.name }, pointer);
      });
    }
  }
}
