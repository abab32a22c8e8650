// endpoints.operations.<id>.response_headers: the headers of the success answer (docs/format.md, "Response headers").
// What the runtime could never send is refused here, not found by the contract tester later.

import { getReservedResponseHeader, isSentByService } from '../model/model-response-headers.js';
import type { ServiceModel } from '../model/model-types.js';
import { joinPointer } from '../util/util-json-pointer.js';
import { PARAMETER_TYPES } from '../spec/spec-types.js';
import type { DiagnosticCode, DiagnosticParams } from '../diagnostics/diagnostics-catalogue.js';

type Report = <C extends DiagnosticCode>(code: C, params: DiagnosticParams<C>, pointer: string) => void;

export function checkResponseHeaders(model: ServiceModel, report: Report): void {
  const types = PARAMETER_TYPES.join(', ');
  const scalar = PARAMETER_TYPES.filter((t) => t !== 'array');
  for (const o of model.endpoints?.operations ?? []) {
    const seen = new Map<string, string>();
    for (const h of o.responseHeaders) {
      const where = `${o.id}.response_headers.${h.name}`;
      if (!(PARAMETER_TYPES as readonly string[]).includes(h.type))
        report('param-type-invalid', { where, type: h.type, types }, joinPointer(h.pointer, 'type'));
      else if (h.type === 'array' && h.items && !(scalar as readonly string[]).includes(h.items.type))
        report('param-type-invalid', { where: `${where}.items`, type: h.items.type, types: scalar.join(', ') }, joinPointer(h.items.pointer, 'type'));
      const key = h.name.toLowerCase();
      const first = seen.get(key);
      if (first !== undefined) report('param-duplicate', { operation: o.id, first, second: h.name }, h.pointer);
      else seen.set(key, h.name);
      const reason = getReservedResponseHeader(o.action, h.name);
      if (reason !== undefined) report('response-header-reserved', { operation: o.id, name: h.name, reason }, h.pointer);
      else if (o.action !== 'custom' && !h.optional && !isSentByService(h))
        report('response-header-unproducible', { operation: o.id, name: h.name, action: o.action }, h.pointer);
    }
  }
}
