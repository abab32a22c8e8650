// Response envelopes (docs/format.md, "Response envelopes"): what the runtime could not write is refused here —
// a value naming no field, a field that cannot hold its value, a required field no value fills on some answer.

import {
  constrainsEnvelopeValue,
  getEnvelopeConstants,
  ENVELOPE_SOURCE_TYPES,
  ENVELOPED_ACTIONS,
  LINK_SOURCES,
  LIST_ONLY_SOURCES,
  NULLABLE_LINK_SOURCES,
  REQUEST_ENVELOPED_ACTIONS,
  getEnvelopeField,
  listHasValue,
} from '../model/model-envelope.js';
import { DEFAULT_PAGING } from '../model/model-defaults.js';
import { getPageSize } from '../model/model-lookup.js';
import type { EnvelopeModel, FieldModel, OperationModel, ServiceModel } from '../model/model-types.js';
import { joinPointer } from '../util/util-json-pointer.js';
import type { DiagnosticCode, DiagnosticParams } from '../diagnostics/diagnostics-catalogue.js';
import { suggestion } from '../diagnostics/diagnostics-suggest.js';

type Report = <C extends DiagnosticCode>(code: C, params: DiagnosticParams<C>, pointer: string) => void;

/** What is wrong with a value for a field (check-rules' getValueProblem, passed in: that module imports this one). */
type ValueProblem = (f: FieldModel, v: unknown) => string | undefined;

export function checkEnvelopes(model: ServiceModel, report: Report, valueProblem: ValueProblem): void {
  const envelopes = new Set<EnvelopeModel>();
  if (model.endpoints?.envelope) envelopes.add(model.endpoints.envelope);
  for (const o of model.endpoints?.operations ?? []) {
    // A request wrapper wraps a body the format defines: a custom operation's request is its own to declare.
    if (o.requestEnvelope !== undefined && !REQUEST_ENVELOPED_ACTIONS.has(o.action))
      report('misplaced-option', { operation: o.id, option: 'request_envelope', action: o.action }, joinPointer(o.pointer, 'request_envelope'));
    if (o.envelopeDeclared === undefined) continue;
    if (!ENVELOPED_ACTIONS.has(o.action))
      report('misplaced-option', { operation: o.id, option: 'envelope', action: o.action }, joinPointer(o.pointer, 'envelope'));
    else if (o.envelopeDeclared !== 'none') envelopes.add(o.envelopeDeclared);
  }
  const sound = new Set<EnvelopeModel>();
  for (const e of envelopes) {
    if (checkEnvelope(e, report, getLimitCap(model, e))) sound.add(e);
    checkConstants(e, report, valueProblem);
  }
  // Whether each answer can be written whole: a required field needs a value on every answer that has the envelope.
  const said = new Set<string>();
  for (const o of model.endpoints?.operations ?? []) {
    if (o.envelope === undefined || !sound.has(o.envelope)) continue;
    const unfilled = getUnfilled(o, o.envelope);
    if (unfilled === undefined) continue;
    const key = `${o.envelope.pointer} ${unfilled.path}`;
    if (said.has(key)) continue;
    said.add(key);
    report('envelope-field-unfilled', { field: unfilled.path, operation: o.id, detail: unfilled.detail }, unfilled.field.pointer);
  }
}

/**
 * The largest page size any list answering in the envelope may write: each one's maximum as it applies; undefined
 * when one states none (the runtime's built-in then) or no list answers in it.
 */
function getLimitCap(model: ServiceModel, e: EnvelopeModel): number | undefined {
  const lists = (model.endpoints?.operations ?? []).filter((o) => o.action === 'list' && o.envelope === e);
  const caps = lists.map((o) => getPageSize(model, o).max);
  return caps.length === 0 || caps.includes(undefined) ? undefined : Math.max(...(caps as number[]));
}

/** The envelope's own rules; false when a value names no usable field (the answers are then not judged). */
function checkEnvelope(e: EnvelopeModel, report: Report, limitCap: number | undefined): boolean {
  let ok = true;
  if (e.fields.some((f) => f.name === e.data)) {
    report(
      'envelope-field-clash',
      { field: e.data, detail: 'it is the data field, which carries the answer: it is not declared among fields' },
      joinPointer(e.pointer, 'data'),
    );
    ok = false;
  }
  const taken = new Map<string, string>();
  for (const v of e.values) {
    const path = v.path.join('.');
    const at = joinPointer(e.pointer, v.source);
    const field = getEnvelopeField(e, v.path);
    if (!field) {
      const parent = v.path.length > 1 ? getEnvelopeField(e, v.path.slice(0, -1)) : undefined;
      const names = (v.path.length > 1 ? (parent?.fields ?? []) : e.fields).map((f) => f.name);
      report('envelope-field-unknown', { role: v.source, name: path, suggestion: suggestion(v.path[v.path.length - 1]!, names) }, at);
      ok = false;
      continue;
    }
    const before = taken.get(path);
    if (before !== undefined) {
      report('envelope-field-clash', { field: path, detail: `it carries both ${before} and ${v.source}` }, at);
      ok = false;
      continue;
    }
    taken.set(path, v.source);
    const want = ENVELOPE_SOURCE_TYPES[v.source];
    // A page's address is a string, or a `uri` field (OpenAPI's format: uri): the runtime writes a whole address.
    const type = field.type === 'number' && want === 'integer' ? 'integer' : field.type === 'uri' && LINK_SOURCES.has(v.source) ? 'string' : field.type;
    const detail =
      type !== want
        ? `it must be ${want === 'integer' ? 'an integer (or number)' : LINK_SOURCES.has(v.source) ? 'a string (or uri)' : 'a string'}`
        : v.source === 'next' && !field.nullable && field.optional !== true
          ? 'the last page has no next cursor: the field must be nullable, or optional (left out on the last page)'
          : NULLABLE_LINK_SOURCES.has(v.source) && !field.nullable && field.optional !== true
            ? `the ${v.source === 'next_link' ? 'last page has no next page' : 'first page has no previous page'}: the field must be nullable, or optional (left out there)`
            : constrainsEnvelopeValue(v.source, field, limitCap)
              ? 'the runtime writes any value of that type: the field may not constrain it (values, pattern, bounds)'
              : undefined;
    if (detail !== undefined) {
      report('envelope-field-type', { field: path, role: v.source, type: field.type, detail }, field.pointer);
      ok = false;
    }
  }
  return ok;
}

/**
 * An envelope's constants (fields with a `default`, written on every answer): each default a value of its field, and
 * no default on an object holding a named value (the runtime writes that object member by member, never its default).
 */
function checkConstants(e: EnvelopeModel, report: Report, valueProblem: ValueProblem): void {
  const named = e.values.map((v) => v.path.join('.'));
  const walk = (fields: readonly FieldModel[], under: string) => {
    for (const f of fields) {
      const path = under + f.name;
      if (f.hasDefault) {
        const inside = named.filter((n) => n.startsWith(`${path}.`));
        if (inside.length > 0)
          report(
            'envelope-field-clash',
            { field: path, detail: `its default is never written: the runtime writes ${inside.join(', ')} inside it, member by member` },
            joinPointer(f.pointer, 'default'),
          );
        else {
          const problem = valueProblem(f, f.default);
          if (problem !== undefined)
            report(
              'value-violates-field',
              { where: `envelope field ${path}`, which: 'default', value: JSON.stringify(f.default) ?? 'undefined', detail: problem },
              joinPointer(f.pointer, 'default'),
            );
          continue;
        }
      }
      if (f.type === 'object') walk(f.fields ?? [], `${path}.`);
    }
  };
  walk(e.fields, '');
}

/** The first required field an answer of this operation leaves empty (fields under a written object included). */
function getUnfilled(o: OperationModel, e: EnvelopeModel): { field: FieldModel; path: string; detail: string } | undefined {
  const style = (o.paging ?? DEFAULT_PAGING).style;
  const filled = new Set<string>();
  for (const v of e.values) {
    const applies = o.action === 'list' ? listHasValue(style, v.source) : !LIST_ONLY_SOURCES.has(v.source);
    if (applies) for (let i = 1; i <= v.path.length; i++) filled.add(v.path.slice(0, i).join('.'));
  }
  // A constant is written whole (an object default too): nothing under it is asked of it.
  const constant = new Set<string>();
  for (const c of getEnvelopeConstants(e)) {
    for (let i = 1; i <= c.path.length; i++) filled.add(c.path.slice(0, i).join('.'));
    constant.add(c.path.join('.'));
  }
  const walk = (fields: readonly FieldModel[], prefix: string): { field: FieldModel; path: string; detail: string } | undefined => {
    for (const f of fields) {
      const path = prefix + f.name;
      if (filled.has(path)) {
        if (f.type === 'object' && !constant.has(path)) {
          const inner = walk(f.fields ?? [], `${path}.`);
          if (inner) return inner;
        }
        continue;
      }
      if (f.optional) continue;
      const never = e.values.filter((v) => v.path.join('.') === path || v.path.join('.').startsWith(`${path}.`)).map((v) => v.source);
      const detail =
        never.length > 0
          ? `: a ${o.action === 'list' ? `list of style ${style}` : `${o.action} answer`} has no ${never.join(', ')}; mark it optional`
          : ': name the value it carries, give it a `default` (a constant every answer holds), or mark it optional';
      return { field: f, path, detail };
    }
    return undefined;
  };
  return walk(e.fields, '');
}
