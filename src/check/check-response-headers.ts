// endpoints.operations.<id>.response_headers: the headers of the success answer (docs/format.md, "Response headers").
// What the runtime could never send is refused here, not found by the contract tester later.

import { formatHeaderValue, getReservedErrorHeader, getReservedResponseHeader, isErrorHeaderSent, isSentByService } from '../model/model-response-headers.js';
import type { ErrorCodeModel, ParameterModel } from '../model/model-types.js';
import type { ServiceModel } from '../model/model-types.js';
import { joinPointer } from '../util/util-json-pointer.js';
import { getResource } from '../model/model-lookup.js';
import { answersETag } from '../model/model-routes.js';
import { PARAMETER_TYPES } from '../spec/spec-types.js';
import type { DiagnosticCode, DiagnosticParams } from '../diagnostics/diagnostics-catalogue.js';

type Report = <C extends DiagnosticCode>(code: C, params: DiagnosticParams<C>, pointer: string) => void;

export function checkResponseHeaders(model: ServiceModel, report: Report): void {
  const types = PARAMETER_TYPES.join(', ');
  const scalar = PARAMETER_TYPES.filter((t) => t !== 'array');
  for (const o of model.endpoints?.operations ?? []) {
    const seen = new Map<string, string>();
    // etag: true: the ETag of an answer of one object is the format's (docs/format.md, "Conditional requests").
    const etag = o.responseHeaders.length > 0 && answersETag(getResource(model, o.resource), o);
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
      if (h.hasDefault && !isFieldValue(formatHeaderValue(h.default)))
        report('response-header-default-invalid', { operation: o.id, name: h.name }, joinPointer(h.pointer, 'default'));
      const reason =
        o.paging?.totalHeader?.toLowerCase() === key
          ? "the list's total (`paging.total_header`)"
          : etag && key === 'etag'
            ? "the format's ETag of a resource with `etag: true`"
            : getReservedResponseHeader(o.action, h.name);
      if (reason !== undefined) report('response-header-reserved', { operation: o.id, name: h.name, reason }, h.pointer);
      else if (o.action !== 'custom' && !h.optional && !isSentByService(h))
        report('response-header-unproducible', { operation: o.id, name: h.name, action: o.action }, h.pointer);
    }
  }
}

/** errors.headers and errors.codes.<code>.headers: what no error answer could carry is refused (`error-header-invalid`). */
export function checkErrorHeaders(model: ServiceModel, report: Report): void {
  const types = PARAMETER_TYPES.join(', ');
  const one = (owner: string, code: ErrorCodeModel | undefined, headers: readonly ParameterModel[]) => {
    const seen = new Map<string, string>();
    for (const h of headers) {
      const key = h.name.toLowerCase();
      const reserved = getReservedErrorHeader(h.name);
      const reason = !(PARAMETER_TYPES as readonly string[]).includes(h.type)
        ? `is of type ${h.type}; a header is one of ${types}`
        : seen.has(key)
          ? `is the same header as \`${seen.get(key)!}\` (names are compared without regard to case)`
          : reserved !== undefined
            ? `is ${reserved}; the spec cannot declare it`
            : h.hasDefault && !isFieldValue(formatHeaderValue(h.default))
              ? 'has a `default` no header can carry (a control character, or a character past U+00FF)'
              : !h.optional && !isErrorHeaderSent(code, h)
                ? 'is required, but the service neither knows its value for the conditions answered (Retry-After, WWW-Authenticate) nor has a `default` to send'
                : undefined;
      if (reason !== undefined) report('error-header-invalid', { owner, name: h.name, reason }, h.pointer);
      if (!seen.has(key)) seen.set(key, h.name);
    }
  };
  one('errors.headers', undefined, model.errors?.headers ?? []);
  for (const c of model.errors?.codes ?? []) one(`error code ${c.name}`, c, c.headers);
}

/**
 * Whether a header can carry the text as it is: RFC 9110 §5.5 field-value characters (visible, space, tab, obs-text),
 * as Node sends them. The runtime writes some error answers straight to the socket, so a line break would split them.
 */
function isFieldValue(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 9 && (c < 32 || c === 127 || c > 255)) return false;
  }
  return true;
}
