// endpoints.operations.<id>.examples: each named example against the body or parameter it shows, as the service
// reads it (the model's schemas under the runtime's Ajv options). An example the service would refuse misleads every
// reader of the docs and every try-it; it is a warning, since serving does not depend on it.

import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { DiagnosticCode, DiagnosticParams } from '../diagnostics/diagnostics-catalogue.js';
import { createModelAjv, typedDiscriminators } from '../model/model-ajv.js';
import { isMergePatch } from '../model/model-defaults.js';
import { getResource, getStateMachine } from '../model/model-lookup.js';
import type { JsonSchema } from '../model/model-schemas.js';
import {
  getFieldSchema,
  getMergePatchSchema,
  getRequestSchema,
  getListItemSchema,
  getResourceSchema,
  getShapeSchema,
  getTransitionSchema,
} from '../model/model-schemas.js';
import type { FieldModel, NamedExampleModel, OperationModel, ResourceModel, ServiceModel } from '../model/model-types.js';
import { joinPointer } from '../util/util-json-pointer.js';

type Report = <C extends DiagnosticCode>(code: C, params: DiagnosticParams<C>, pointer: string) => void;

export function checkExamples(model: ServiceModel, report: Report): void {
  const ops = (model.endpoints?.operations ?? []).filter((o) => o.examples !== undefined);
  // Ajv is loaded only for a spec that shows examples.
  if (ops.length === 0) return;
  const ajv = createModelAjv({ allErrors: false, optimize: false });
  // Operations of one resource share their bodies' schemas (a large API's 1,000 examples hold to far fewer): each
  // distinct schema is compiled once, since compiling, not validating, is what examples cost.
  const compiled = new Map<string, ValidateFunction | undefined>();
  const compile = (schema: JsonSchema): ValidateFunction | undefined => {
    const typed = typedDiscriminators(schema) as JsonSchema;
    const key = JSON.stringify(typed);
    if (compiled.has(key)) return compiled.get(key);
    let v: ValidateFunction | undefined;
    try {
      v = ajv.compile(typed);
    } catch {
      v = undefined;
    }
    compiled.set(key, v);
    return v;
  };
  /** Each example of a list against one schema, compiled once; said at `at/<name>/value`. */
  const hold = (schema: JsonSchema | undefined, list: readonly NamedExampleModel[], operation: string, which: string, at: string): void => {
    if (schema === undefined || list.length === 0) return;
    const v = compile(schema);
    if (v === undefined) return; // a schema check refuses elsewhere
    for (const e of list) {
      if (v(e.value)) continue;
      const err = v.errors?.[0];
      const extra = err?.params && 'additionalProperty' in err.params ? ` (${String(err.params.additionalProperty)})` : '';
      const detail = err ? `${err.instancePath || 'the value'} ${err.message ?? 'does not match'}${extra}` : 'does not match';
      report('example-invalid', { operation, which, name: e.name, detail }, joinPointer(joinPointer(at, e.name), 'value'));
    }
  };
  for (const o of ops) {
    const ex = o.examples!;
    const at = joinPointer(o.pointer, 'examples');
    const resource = getResource(model, o.resource);
    if (ex.request.length > 0) hold(requestSchemaOf(model, o, resource), ex.request, o.id, 'request', joinPointer(at, 'request'));
    if (ex.response.length > 0) hold(responseSchemaOf(model, o, resource), ex.response, o.id, 'response', joinPointer(at, 'response'));
    for (const p of ex.parameters) {
      const field = parameterField(model, o, resource, p.name);
      if (field !== undefined)
        hold(getFieldSchema(model, field, resource), p.examples, o.id, `parameter ${p.name}`, joinPointer(joinPointer(at, 'parameters'), p.name));
    }
  }
}

/** The body the operation takes, as sent (its request envelope included); undefined where it takes none. */
function requestSchemaOf(model: ServiceModel, o: OperationModel, resource: ResourceModel | undefined): JsonSchema | undefined {
  let s: JsonSchema | undefined;
  if (o.action === 'custom') s = o.request ? getShapeSchema(model, o.request, 'create') : undefined;
  else if (!resource) s = undefined;
  else if (o.action === 'transition') {
    const t = getStateMachine(model, resource.name)?.transitions.find((x) => x.name === o.transition);
    s = t ? getTransitionSchema(model, resource, t.requires) : undefined;
  } else if (o.action === 'update') s = isMergePatch(o) ? getMergePatchSchema(model, resource, o) : getRequestSchema(model, resource, o, 'update');
  else if (o.action === 'create' || o.action === 'replace') s = getRequestSchema(model, resource, o, o.action);
  return s && o.requestEnvelope ? wrapped(o.requestEnvelope.data, s) : s;
}

/** The success answer's body, as sent (its envelope and a list's page included); undefined where it has none. */
function responseSchemaOf(model: ServiceModel, o: OperationModel, resource: ResourceModel | undefined): JsonSchema | undefined {
  let s: JsonSchema | undefined;
  if (o.action === 'custom') s = o.response ? getShapeSchema(model, o.response, 'response') : undefined;
  else if (!resource || o.status === 204 || o.status === 205) s = undefined;
  else if (o.action === 'list') {
    const items: JsonSchema = { type: 'array', items: getListItemSchema(model, resource, o) };
    // A page's other members are the runtime's to fill; the example is held to its list of objects.
    s = o.paging?.body === 'envelope' ? { ...wrapped(o.paging.items, items), additionalProperties: true } : items;
  } else s = getResourceSchema(model, resource, 'response');
  return s && o.envelope ? { ...wrapped(o.envelope.data, s), additionalProperties: true } : s;
}

function wrapped(member: string, s: JsonSchema): JsonSchema {
  return { type: 'object', properties: { [member]: s }, required: [member], additionalProperties: false };
}

/** The field a parameter's examples show: the path's (bound or the identifier), a filter's, or a custom one's own. */
function parameterField(model: ServiceModel, o: OperationModel, resource: ResourceModel | undefined, name: string): FieldModel | undefined {
  const own = [...o.query, ...o.headers].find((p) => p.name === name);
  if (own) return own;
  if (!resource) return undefined;
  const bound = o.bindings?.find((b) => b.param === name);
  if (bound && !bound.field.includes('.')) return resource.fields.find((f) => f.name === bound.field);
  if (o.pathParams.at(-1) === name && resource.identifier !== undefined && !bound) return resource.fields.find((f) => f.name === resource.identifier);
  if (o.action === 'list' && o.filter.includes(name)) return resource.fields.find((f) => f.name === name);
  return undefined;
}
