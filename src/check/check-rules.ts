import {
  DEFAULT_IDEMPOTENCY_HEADER,
  DEFAULT_IDENTIFIER_FIELD,
  ERROR_ROLE_TYPES,
  getErrorBodyRoles,
  getUnfilledErrorFields,
  UUID_TEXT,
  getIdempotencyHeader,
  getUnmakeableIdentifier,
  IDENTIFIER_TYPES,
  mayLeaveOut,
  FORM_MEDIA_TYPE,
  MERGE_PATCH_MEDIA_TYPE,
  isNoContentStatus,
  PAGE_MEMBER_STYLES,
} from '../model/model-defaults.js';
import { getDeclaredFields, getField, getPageSize, getResource, getStateMachine } from '../model/model-lookup.js';
import {
  getPagingParams,
  PAGING_ROLES,
  getProducibleConditions,
  getRouteHeads,
  isIdempotentOperation,
  isReservedPath,
  LIST_PARAMS,
  RESERVED_PREFIX,
  UNFILTERABLE_TYPES,
  IF_MATCH_ACTIONS,
  isConditionalChange,
  answersETag,
} from '../model/model-routes.js';
import { compareVersions, getFieldsAddedSince, getVersionModel } from '../model/model-versions.js';
import { getServiceSourceProblem, isWritable } from '../model/model-schemas.js';
import { getUnshownChanges } from '../model/model-served-versions.js';
import { getReservedResponseHeader } from '../model/model-response-headers.js';
import type {
  DeclaredErrorBodyModel,
  EventKindModel,
  FieldModel,
  OperationModel,
  PagingModel,
  ResourceModel,
  ServiceModel,
  ShapeModel,
  StateMachineModel,
  UnionModel,
  VariantModel,
} from '../model/model-types.js';
import { joinPointer } from '../util/util-json-pointer.js';
import {
  PARAMETER_TYPES,
  type Condition,
  type HttpMethod,
  type PageMemberRole,
  type PageMembersSpec,
  type PagingRole,
  type SpecDocument,
} from '../spec/spec-types.js';
import { createDiagnostic, type Diagnostic, type DiagnosticCode, type DiagnosticParams } from '../diagnostics/diagnostics-catalogue.js';
import { suggestion } from '../diagnostics/diagnostics-suggest.js';
import { getMediaTypeTemplateProblem } from '../model/model-media-type.js';
import { checkBroker } from './check-broker.js';
import { checkCallbacks } from './check-callbacks.js';
import { checkExamples } from './check-examples.js';
import { checkParents, checkPathBindings, checkUniqueKeys } from './check-path-bindings.js';
import { checkEnvelopes } from './check-envelope.js';
import { checkErrorHeaders, checkResponseHeaders } from './check-response-headers.js';

type Report = <C extends DiagnosticCode>(code: C, params: DiagnosticParams<C>, pointer: string) => void;

interface RuleContext {
  model: ServiceModel;
  /** The document as written, for the few facts the model normalises away. */
  doc: SpecDocument;
  report: Report;
}

type Rule = (ctx: RuleContext) => void;

const names = <T extends { name: string }>(list: readonly T[]) => list.map((x) => x.name);

function checkResourceName(ctx: RuleContext, name: string, where: string, pointer: string): ResourceModel | undefined {
  const r = getResource(ctx.model, name);
  if (!r) ctx.report('unknown-resource', { where, name, suggestion: suggestion(name, names(ctx.model.resources)) }, pointer);
  return r;
}

function checkFieldName(ctx: RuleContext, resource: ResourceModel, name: string, where: string, pointer: string): FieldModel | undefined {
  const f = getField(resource, name);
  if (!f) ctx.report('unknown-field', { where, name, resource: resource.name, suggestion: suggestion(name, names(resource.fields)) }, pointer);
  return f;
}

const REQUEST_FIELD_ACTIONS: ReadonlySet<string> = new Set(['create', 'update', 'replace']);

/**
 * A delete's `response`: the object it deleted, as a read answers it (`{ resource: <its resource> }`), with a status
 * that has a body. Any other shape would be filled with values the spec does not state.
 */
function checkDeleteResponse(ctx: RuleContext, o: OperationModel, r: ResourceModel | undefined): void {
  const s = o.response!;
  const report = (detail: string, key = 'response') => ctx.report('delete-response-invalid', { operation: o.id, detail }, joinPointer(o.pointer, key));
  const name = r?.name ?? o.resource ?? '…';
  if (s.resource === undefined || s.fields !== undefined || s.union !== undefined)
    report(`its \`response\` must be \`{ resource: ${name} }\`, the object deleted (any other body's values are not stated)`);
  else if (r !== undefined && s.resource !== r.name) report(`its \`response\` names ${s.resource}, but it deletes ${r.name}`);
  else if (s.list) report('its `response` is a list, but it deletes one object');
  else if (o.status === 204 || o.status === 205 || o.status === 304)
    report(`its status ${o.status} has no body, but its \`response\` is the deleted ${name}: answer 200, or leave \`response\` out`, 'status');
}

/**
 * `request_fields`: on a create, update or replace, each a top-level field of the resource that operation's request
 * may write. A required field a create leaves out with nothing to fill it is a gap (check-gaps.ts), not an error.
 */
function checkRequestFields(ctx: RuleContext, o: OperationModel, r: ResourceModel | undefined): void {
  const at = joinPointer(o.pointer, 'request_fields');
  if (!REQUEST_FIELD_ACTIONS.has(o.action)) {
    ctx.report('misplaced-option', { operation: o.id, option: 'request_fields', action: o.action }, at);
    return;
  }
  if (!r) return;
  const view = o.action as 'create' | 'update' | 'replace';
  o.requestFields!.forEach((name, i) => {
    const f = getField(r, name);
    const why = !f
      ? `${r.name} has no field \`${name}\`${suggestion(name, names(r.fields))}`
      : !isWritable(r, f, view)
        ? `${r.name}.${name} is not written by ${view === 'update' ? 'an' : 'a'} ${view} request (${describeUnwritable(r, f, view)})`
        : undefined;
    if (why !== undefined) ctx.report('request-field-invalid', { operation: o.id, name, detail: why }, joinPointer(at, i));
  });
  // A path value bound inside an object (`metadata.namespace`) is written into that object: a request that does not
  // take the object cannot say which of its other fields it writes (nor a replace which it keeps).
  for (const b of o.bindings ?? []) {
    if (b.parent) continue; // a field of the parent, not of the request
    const top = b.field.split('.')[0]!;
    if (top !== b.field && !o.requestFields!.includes(top)) ctx.report('request-fields-bound-parent', { operation: o.id, field: top, bound: b.field }, at);
  }
}

/**
 * `answer_fields`: on a list, each a top-level field of its resource that answers carry (not write-only), at least
 * one, the identifier kept where the next page is asked by it (style after); not on a resource of several shapes.
 */
function checkAnswerFields(ctx: RuleContext, o: OperationModel, r: ResourceModel | undefined): void {
  const at = joinPointer(o.pointer, 'answer_fields');
  if (o.action !== 'list') {
    ctx.report('misplaced-option', { operation: o.id, option: 'answer_fields', action: o.action }, at);
    return;
  }
  if (o.answerFields!.length === 0) {
    ctx.report('answer-fields-empty', { operation: o.id }, at);
    return;
  }
  if (!r) return;
  if (r.variants !== undefined) {
    ctx.report('answer-fields-variants', { operation: o.id, resource: r.name }, at);
    return;
  }
  o.answerFields!.forEach((name, i) => {
    const f = getField(r, name);
    const why = !f
      ? `${r.name} has no field \`${name}\`${suggestion(name, names(r.fields))}`
      : f.writeOnly
        ? `${r.name}.${name} is write-only: no answer carries it`
        : undefined;
    if (why !== undefined) ctx.report('answer-field-invalid', { operation: o.id, name, detail: why }, joinPointer(at, i));
  });
  if (o.paging?.style === 'after' && r.identifier !== undefined && !o.answerFields!.includes(r.identifier))
    ctx.report('answer-fields-identifier', { operation: o.id, field: r.identifier, resource: r.name }, at);
}

/** Why a request of the view cannot write the field (isWritable said it cannot). */
function describeUnwritable(r: ResourceModel, f: FieldModel, view: 'create' | 'update' | 'replace'): string {
  if (f.readOnly) return 'it is read-only';
  if (f.type === 'state') return 'it is the state field';
  if (f.name === r.identifier) return 'it is the identifier';
  if (f.name === r.owner) return 'it is the owner field';
  if (f.writeOnce && view !== 'create') return 'it is write-once';
  return 'it is not writable';
}

/** Visits a field and the fields inside it; `parent` names where it is declared (the field is `${parent}.${f.name}`). */
type FieldVisit = (f: FieldModel, parent: string) => void;

function walkField(f: FieldModel, visit: FieldVisit, parent: string): void {
  visit(f, parent);
  if (f.items === undefined && f.fields === undefined && f.union === undefined) return;
  const where = `${parent}.${f.name}`;
  if (f.items) walkField(f.items, visit, where);
  if (f.fields) walkFields(f.fields, visit, where);
  if (f.union) for (const v of f.union.variants) walkFields(v.fields, visit, `${where}.${v.name}`);
}

/** The fields of a shape: written out, or each variant's of a union body. */
function walkShape(shape: ShapeModel | undefined, visit: FieldVisit, where: string): void {
  if (shape?.fields) walkFields(shape.fields, visit, where);
  if (shape?.union) for (const v of shape.union.variants) walkFields(v.fields, visit, `${where}.${v.name}`);
}

function walkFields(fields: readonly FieldModel[], visit: FieldVisit, parent: string): void {
  for (const f of fields) walkField(f, visit, parent);
}

/** Every field declaration in the model: resources, shapes, error bodies. */
function forEachField(model: ServiceModel, visit: FieldVisit): void {
  for (const r of model.resources) walkFields(r.fields, visit, r.name);
  for (const o of model.endpoints?.operations ?? []) {
    walkShape(o.request, visit, `${o.id}.request`);
    walkShape(o.response, visit, `${o.id}.response`);
  }
  for (const k of model.events?.kinds ?? []) walkShape(k.payload, visit, `event ${k.name}`);
  if (model.errors?.body?.kind === 'declared') walkFields(model.errors.body.fields, visit, 'errors.body');
}

/** Field types a filter (one query parameter, compared as text) cannot match. */
const STRING_TYPES = new Set(['string', 'email', 'uri', 'uuid', 'date', 'datetime']);
const NUMERIC_TYPES = new Set(['integer', 'number']);

/** The format's naming style; other names the schema allows (the names on the wire, as an API has them) are kept, with a warning. */
const NAME_STYLES = {
  field: { pattern: /^[a-z_][a-z0-9_]*$/, style: 'snake_case' },
  resource: { pattern: /^[A-Z][A-Za-z0-9]*$/, style: 'PascalCase' },
  'event kind': { pattern: /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/, style: 'lowercase dot-separated segments' },
  operation: { pattern: /^[A-Za-z][A-Za-z0-9_]*$/, style: 'an identifier (letters, digits, underscores)' },
} as const;

const nameStyleRules: Rule = ({ model, report }) => {
  const styled = (what: keyof typeof NAME_STYLES, name: string, where: string, pointer: string) => {
    const { pattern, style } = NAME_STYLES[what];
    if (!pattern.test(name)) report('name-style', { what, name, where, style }, pointer);
  };
  for (const r of model.resources) styled('resource', r.name, r.name, r.pointer);
  const field = NAME_STYLES.field.pattern;
  forEachField(model, (f, parent) => {
    if (!field.test(f.name)) styled('field', f.name, `${parent}.${f.name}`, f.pointer);
  });
  for (const k of model.events?.kinds ?? []) styled('event kind', k.name, `event ${k.name}`, k.pointer);
  for (const o of model.endpoints?.operations ?? []) styled('operation', o.id, `operation ${o.id}`, o.pointer);
};

/** The constraints that belong to some types only, in the order they are reported; each with the types it fits. */
const TYPED_CONSTRAINTS: readonly (readonly [keyof FieldModel, (type: string) => boolean])[] = [
  ['minLength', (t) => STRING_TYPES.has(t)],
  ['maxLength', (t) => STRING_TYPES.has(t)],
  ['pattern', (t) => STRING_TYPES.has(t)],
  ...(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'] as const).map((c) => [c, (t: string) => NUMERIC_TYPES.has(t)] as const),
  ...(['minItems', 'maxItems', 'uniqueItems'] as const).map((c) => [c, (t: string) => t === 'array'] as const),
  ['values', (t) => t === 'enum'],
  ['to', (t) => t === 'ref'],
  ['items', (t) => t === 'array' || t === 'map'],
  ['fields', (t) => t === 'object'],
];

/** By field type: the constraints it does not take (worked out once per type). */
const misplacedConstraints = new Map<string, readonly (keyof FieldModel)[]>();
function getMisplacedConstraints(type: string): readonly (keyof FieldModel)[] {
  let list = misplacedConstraints.get(type);
  if (list === undefined) {
    list = TYPED_CONSTRAINTS.filter(([, fits]) => !fits(type)).map(([c]) => c);
    misplacedConstraints.set(type, list);
  }
  return list;
}

/** Whether a field has a constraint its type does not take (TYPED_CONSTRAINTS, read by name: most fields have none). */
function hasMisplacedConstraint(f: FieldModel, type: string): boolean {
  return (
    (!STRING_TYPES.has(type) && (f.minLength !== undefined || f.maxLength !== undefined || f.pattern !== undefined)) ||
    (!NUMERIC_TYPES.has(type) &&
      (f.minimum !== undefined ||
        f.maximum !== undefined ||
        f.exclusiveMinimum !== undefined ||
        f.exclusiveMaximum !== undefined ||
        f.multipleOf !== undefined)) ||
    (type !== 'array' && (f.minItems !== undefined || f.maxItems !== undefined || f.uniqueItems !== undefined)) ||
    (type !== 'array' && type !== 'map' && f.items !== undefined) ||
    (type !== 'enum' && f.values !== undefined) ||
    (type !== 'ref' && f.to !== undefined) ||
    (type !== 'object' && f.fields !== undefined)
  );
}

/** Why a pattern is not a valid (unicode) regular expression, or undefined. */
function getPatternError(pattern: string): string | undefined {
  try {
    new RegExp(pattern, 'u');
    return undefined;
  } catch (err) {
    return (err as Error).message.replace(/^Invalid regular expression: /, '');
  }
}

const fieldRules: Rule = ({ model, report }) => {
  const patternErrors = new Map<string, string | undefined>();
  const range = (f: FieldModel, where: string, lo: keyof FieldModel, a: unknown, hi: keyof FieldModel, b: unknown) => {
    if (typeof a === 'number' && typeof b === 'number' && a > b)
      report('invalid-constraint-range', { where, low: lo, lowValue: a, high: hi, highValue: b }, joinPointer(f.pointer, lo));
  };
  const visit = (f: FieldModel, parent: string) => {
    const where = `${parent}.${f.name}`;
    const type = f.type;
    if (type === 'enum') {
      if (!f.values || f.values.length === 0) report('enum-needs-values', { where }, f.pointer);
    } else if (type === 'ref') {
      if (f.to === undefined) report('ref-needs-target', { where }, f.pointer);
      else if (!getResource(model, f.to))
        report('unknown-resource', { where, name: f.to, suggestion: suggestion(f.to, names(model.resources)) }, joinPointer(f.pointer, 'to'));
    } else if ((type === 'array' || type === 'map') && !f.items) report('array-needs-items', { where, type }, f.pointer);
    else if (type === 'union') {
      if (!f.union || f.union.variants.length === 0) report('union-needs-variants', { where }, f.pointer);
      else checkUnion(f.union, where, report);
    }
    if (type !== 'union' && f.union !== undefined)
      report(
        'constraint-type-mismatch',
        { where, constraint: f.union.discriminator !== undefined && f.union.variants.length === 0 ? 'discriminator' : 'variants', type },
        f.pointer,
      );
    if (f.pattern !== undefined) {
      if (!patternErrors.has(f.pattern)) patternErrors.set(f.pattern, getPatternError(f.pattern));
      const reason = patternErrors.get(f.pattern);
      if (reason !== undefined) report('invalid-pattern', { where, pattern: f.pattern, reason }, joinPointer(f.pointer, 'pattern'));
    }
    if (f.minimum !== undefined) range(f, where, 'minimum', f.minimum, 'maximum', f.maximum);
    if (f.minLength !== undefined) range(f, where, 'minLength', f.minLength, 'maxLength', f.maxLength);
    if (f.minItems !== undefined) range(f, where, 'minItems', f.minItems, 'maxItems', f.maxItems);
    if (f.exclusiveMinimum !== undefined) range(f, where, 'exclusiveMinimum', f.exclusiveMinimum, 'exclusiveMaximum', f.exclusiveMaximum);
    if (hasMisplacedConstraint(f, type)) {
      for (const constraint of getMisplacedConstraints(type)) {
        if (f[constraint] !== undefined) report('constraint-type-mismatch', { where, constraint, type }, joinPointer(f.pointer, constraint));
      }
    }
    if (f.requiredInRequests === true && (!f.hasDefault || f.optional || f.readOnly)) {
      report(
        'required-in-requests-unused',
        { where, detail: !f.hasDefault ? 'without a `default`' : f.optional ? 'that is optional' : 'that is read-only' },
        joinPointer(f.pointer, 'requiredInRequests'),
      );
    }
    if (f.optionalInRequests !== undefined && (f.hasDefault || f.optional || f.readOnly || f.generated !== undefined)) {
      const detail = f.hasDefault
        ? 'with a `default` (it fills the field)'
        : f.optional
          ? 'that is optional'
          : f.readOnly
            ? 'that is read-only'
            : 'that is `generated`';
      report('optional-in-requests-unused', { where, detail }, joinPointer(f.pointer, 'optionalInRequests'));
    }
    // `nullable: answers` tells a request's null from an answer's: a field only one of them holds is either.
    if (f.nullableInAnswersOnly === true && (f.readOnly || f.type === 'state' || f.writeOnly === true))
      report(
        'nullable-answers-unused',
        { where, detail: f.writeOnly === true ? 'that is write-only (no answer holds it)' : 'that is read-only (no request sends it)' },
        joinPointer(f.pointer, 'nullable'),
      );
    // A reference holds the identifier of the resource it names: its default and example are values of that field
    // (an integer identifier's `1`: petclinic's `Pet.ownerId`), not strings.
    const target = f.type === 'ref' && f.to !== undefined ? getResource(model, f.to) : undefined;
    const id = target?.identifier !== undefined ? getField(target, target.identifier) : undefined;
    const valueField = id !== undefined && ['uuid', 'integer', 'string'].includes(id.type) ? { ...id, nullable: f.nullable } : f;
    if (f.hasDefault) {
      const problem = getValueProblem(valueField, f.default);
      if (problem)
        report(
          'value-violates-field',
          { where, which: 'default', value: JSON.stringify(f.default) ?? 'undefined', detail: problem },
          joinPointer(f.pointer, 'default'),
        );
    }
    if (f.hasExample) {
      const problem = getValueProblem(valueField, f.example);
      if (problem)
        report(
          'value-violates-field',
          { where, which: 'example', value: JSON.stringify(f.example) ?? 'undefined', detail: problem },
          joinPointer(f.pointer, 'example'),
        );
    }
    // Only a resource's own fields are left out of answers (resourceRules checks their roles).
    if (f.writeOnly && !topLevel.has(f))
      report('write-only-invalid', { where, detail: "is only allowed on a resource's own fields" }, joinPointer(f.pointer, 'writeOnly'));
    // Only a resource's own fields are set by the service and answered (getServiceSetFields).
    if (f.source !== undefined && !topLevel.has(f))
      report('source-unused', { where, detail: "that is not a resource's own field (nested, a parameter or a shape's)" }, joinPointer(f.pointer, 'source'));
    // Only a resource's own fields are answered with their object's address.
    if (f.generated === 'address' && !topLevel.has(f))
      report(
        'generated-address-invalid',
        { where, detail: "is only allowed on a resource's own field (not nested, a parameter or a shape's)" },
        joinPointer(f.pointer, 'generated'),
      );
    // Only a resource's own fields have a create and a replace that may leave them out (getUnstatedValueFields).
    if (f.optionalInRequests !== undefined && !topLevel.has(f))
      report(
        'optional-in-requests-unused',
        { where, detail: "that is not a resource's own field (nested, a parameter or a shape's)" },
        joinPointer(f.pointer, 'optionalInRequests'),
      );
  };
  const topLevel = new Set<FieldModel>(model.resources.flatMap((r) => r.fields));
  forEachField(model, visit);
  // Parameters are written as fields (their names are the API's own, so name-style does not apply to them).
  for (const o of model.endpoints?.operations ?? []) {
    for (const p of o.query) walkField(p, visit, `${o.id}.${p.in === 'query' ? 'query' : 'headers'}`);
    for (const p of o.headers) walkField(p, visit, `${o.id}.${p.in === 'query' ? 'query' : 'headers'}`);
  }
};

/** What a variant requires in every body, for telling untagged variants apart. */
function requiredFields(v: VariantModel): FieldModel[] {
  return v.fields.filter((f) => !mayLeaveOut(f) && !f.readOnly);
}

/** The JSON kinds a field's values take, or undefined when any may (json, nullable aside). */
function jsonKinds(f: FieldModel): Set<string> | undefined {
  const kinds = new Set<string>();
  if (f.nullable) kinds.add('null');
  switch (f.type) {
    case 'integer':
    case 'number':
      kinds.add('number');
      break;
    case 'boolean':
      kinds.add('boolean');
      break;
    case 'array':
      kinds.add('array');
      break;
    case 'object':
    case 'map':
    case 'union':
      kinds.add('object');
      break;
    case 'json':
    case 'ref':
      return undefined;
    case 'enum':
      for (const v of f.values ?? []) kinds.add(`=${JSON.stringify(v)}`);
      break;
    default:
      kinds.add('string');
  }
  return kinds;
}

/** Whether some value is valid for both fields (conservatively: yes unless their JSON kinds or enum values are disjoint). */
function mayOverlap(a: FieldModel, b: FieldModel): boolean {
  const ka = jsonKinds(a);
  const kb = jsonKinds(b);
  if (!ka || !kb) return true;
  const loose = (k: Set<string>) => new Set([...k].map((x) => (x.startsWith('=') ? (typeof JSON.parse(x.slice(1)) === 'number' ? 'number' : 'string') : x)));
  for (const x of ka) if (kb.has(x)) return true;
  // An enum value and a plain type of its kind overlap; two enums only on a shared value (checked above).
  const la = loose(ka);
  const lb = loose(kb);
  for (const x of ka) if (!x.startsWith('=') && lb.has(x)) return true;
  for (const x of kb) if (!x.startsWith('=') && la.has(x)) return true;
  return false;
}

/** Why two untagged variants can be told apart, or undefined when one object may match both. */
function getDistinction(a: VariantModel, b: VariantModel): string | undefined {
  const fieldsA = new Map(a.fields.map((f) => [f.name, f]));
  const fieldsB = new Map(b.fields.map((f) => [f.name, f]));
  // Variants are closed objects: a field one requires and the other lacks tells them apart.
  for (const f of requiredFields(a)) if (!fieldsB.has(f.name)) return `\`${f.name}\` is required by ${a.name} only`;
  for (const f of requiredFields(b)) if (!fieldsA.has(f.name)) return `\`${f.name}\` is required by ${b.name} only`;
  for (const f of requiredFields(a)) {
    const g = fieldsB.get(f.name);
    if (g && requiredFields(b).includes(g) && !mayOverlap(f, g)) return `\`${f.name}\` differs in type`;
  }
  return undefined;
}

/** A union's own rules: tags, the discriminator among the fields, untagged variants that one object could match. */
function checkUnion(u: UnionModel, where: string, report: Report): void {
  const tags = new Map<string, string>();
  for (const v of u.variants) {
    if (u.discriminator === undefined) {
      if (v.tag !== undefined) report('union-tag-without-discriminator', { where, variant: v.name }, joinPointer(v.pointer, 'tag'));
      continue;
    }
    const clash = v.fields.find((f) => f.name === u.discriminator);
    if (clash) report('union-tag-field', { where, variant: v.name, field: clash.name }, clash.pointer);
    const tag = v.tag ?? v.name;
    const first = tags.get(tag);
    if (first !== undefined) report('union-tag-duplicate', { where, first, second: v.name, tag }, v.pointer);
    else tags.set(tag, v.name);
  }
  if (u.discriminator !== undefined) return;
  for (let i = 0; i < u.variants.length; i++) {
    for (let j = i + 1; j < u.variants.length; j++) {
      const a = u.variants[i]!;
      const b = u.variants[j]!;
      if (getDistinction(a, b) === undefined)
        report('union-indistinguishable', { where, first: a.name, second: b.name, detail: 'every field either requires is a field of the other' }, b.pointer);
    }
  }
}

/** The keys of a field two variants may declare differently: the rest say what one column stores. */
const VARIANT_FIELD_OWN_KEYS = new Set(['pointer', 'description', 'optional', 'hasExample', 'example', 'ofVariants']);

/** What differs between two variants' fields of one name, beyond the keys each variant may say for itself, or undefined. */
function getVariantFieldDifference(a: FieldModel, b: FieldModel): string | undefined {
  if (a.type !== b.type) return `\`${a.type}\` and \`${b.type}\``;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => !VARIANT_FIELD_OWN_KEYS.has(k)));
  // Nested fields differ by their own keys too (their pointers are their variants'): compared without pointers.
  const plain = (v: unknown): string => JSON.stringify(v, (k, x: unknown) => (k === 'pointer' ? undefined : x));
  const differ = [...keys].filter((k) => plain(a[k as keyof FieldModel]) !== plain(b[k as keyof FieldModel]));
  return differ.length > 0 ? differ.map((k) => `\`${k}\``).join(', ') : undefined;
}

/**
 * Why a variant's field cannot be one: what the runtime does for a field on every object (fill its default, hold it
 * unique, set it itself, keep it out of answers, refuse a change) it does per resource, not per variant.
 */
function getVariantFieldProblem(r: ResourceModel, f: FieldModel): string | undefined {
  if (f.name === r.identifier) return 'the identifier';
  if (f.name === r.owner) return 'the owner field';
  if (f.type === 'state') return 'a state field';
  if (f.hasDefault) return 'given a `default`';
  if (f.unique) return '`unique`';
  if (f.readOnly) return '`readOnly`';
  if (f.writeOnce) return '`writeOnce`';
  if (f.writeOnly) return '`writeOnly`';
  if (f.generated !== undefined) return '`generated`';
  if (f.source !== undefined) return '`source: service`';
  if (f.optionalInRequests !== undefined) return '`optionalInRequests`';
  return undefined;
}

/** A resource of several shapes (docs/format.md, "Resources of several shapes"): its tag, its variants' fields. */
const resourceVariantRules: Rule = ({ model, report }) => {
  for (const r of model.resources) {
    const u = r.variants;
    if (!u) continue;
    const resource = r.name;
    if (u.discriminator === undefined) report('resource-variants-untagged', { resource }, joinPointer(r.pointer, 'variants'));
    if (u.variants.length === 0) report('resource-variants-empty', { resource }, joinPointer(r.pointer, 'discriminator'));
    const tags = new Map<string, string>();
    for (const v of u.variants) {
      const first = tags.get(v.tag);
      if (first !== undefined) report('resource-variant-tag-duplicate', { resource, first, second: v.name, tag: v.tag }, v.pointer);
      else tags.set(v.tag, v.name);
    }
    const shared = new Map(getDeclaredFields(r).map((f) => [f.name, f]));
    const declared = u.discriminator !== undefined ? shared.get(u.discriminator) : undefined;
    if (declared) report('resource-discriminator-field', { resource, field: declared.name, where: '' }, declared.pointer);
    const seen = new Map<string, { variant: string; field: FieldModel }>();
    for (const v of u.variants)
      for (const f of v.fields) {
        if (f.name === u.discriminator) {
          report('resource-discriminator-field', { resource, field: f.name, where: ` of variant \`${v.name}\`` }, f.pointer);
          continue;
        }
        if (shared.has(f.name)) {
          report('resource-variant-field-shared', { resource, variant: v.name, field: f.name }, f.pointer);
          continue;
        }
        const why = getVariantFieldProblem(r, f);
        if (why !== undefined) report('resource-variant-field-unsupported', { resource, variant: v.name, field: f.name, why }, f.pointer);
        const earlier = seen.get(f.name);
        if (!earlier) {
          seen.set(f.name, { variant: v.name, field: f });
          continue;
        }
        const detail = getVariantFieldDifference(earlier.field, f);
        if (detail !== undefined)
          report('resource-variant-field-clash', { resource, first: earlier.variant, second: v.name, field: f.name, detail }, f.pointer);
      }
  }
};

/** Union bodies: a union beside a resource or fields, and the union's own rules. */
const unionShapeRules: Rule = ({ model, report }) => {
  const shape = (s: ShapeModel | undefined, where: string, pointer: string) => {
    if (!s?.union) return;
    if (s.union.variants.length === 0) report('union-needs-variants', { where }, pointer);
    if (s.resource !== undefined) report('union-shape-mixed', { where, key: 'resource' }, joinPointer(pointer, 'resource'));
    if (s.fields !== undefined) report('union-shape-mixed', { where, key: 'fields' }, joinPointer(pointer, 'fields'));
    checkUnion(s.union, where, report);
  };
  for (const o of model.endpoints?.operations ?? []) {
    shape(o.request, `${o.id}.request`, joinPointer(o.pointer, 'request'));
    shape(o.response, `${o.id}.response`, joinPointer(o.pointer, 'response'));
  }
  for (const k of model.events?.kinds ?? []) shape(k.payload, `event ${k.name}`, joinPointer(k.pointer, 'payload'));
};

/** Headers of the transport the runtime reads itself (lowercase). */
const TRANSPORT_HEADERS = ['content-type', 'content-length', 'content-encoding', 'transfer-encoding', 'host', 'connection'];
const SCALAR_PARAMETER_TYPES: readonly string[] = PARAMETER_TYPES.filter((t) => t !== 'array');

/** Query parameters and headers of operations (operation.query, operation.headers). */
const parameterRules: Rule = ({ model, report }) => {
  const placement = model.versioning?.placement;
  const schemes = model.authentication?.schemes ?? [];
  for (const o of model.endpoints?.operations ?? []) {
    // Any action may declare them: a built-in one validates them and does not otherwise use them.
    if (o.query.length === 0 && o.headers.length === 0) continue;
    const types = PARAMETER_TYPES.join(', ');
    for (const p of [...o.query, ...o.headers]) {
      const where = `${o.id}.${p.in === 'query' ? 'query' : 'headers'}.${p.name}`;
      if (!(PARAMETER_TYPES as readonly string[]).includes(p.type))
        report('param-type-invalid', { where, type: p.type, types }, joinPointer(p.pointer, 'type'));
      else if (p.type === 'array' && p.items && !SCALAR_PARAMETER_TYPES.includes(p.items.type))
        report(
          'param-type-invalid',
          { where: `${where}.items`, type: p.items.type, types: SCALAR_PARAMETER_TYPES.join(', ') },
          joinPointer(p.items.pointer, 'type'),
        );
    }
    // What the service reads itself, for this operation.
    const reservedQuery = new Map<string, string>();
    const reservedHeaders = new Map<string, string>(TRANSPORT_HEADERS.map((h) => [h, 'the transport']));
    // OpenAPI ignores a header parameter named Accept, Content-Type or Authorization: they are said elsewhere.
    reservedHeaders.set('accept', 'content negotiation: the service answers JSON');
    reservedHeaders.set('authorization', 'credentials: declare them under authentication');
    if (placement?.kind === 'media_type') reservedHeaders.set('accept', 'the version, in the media type (versioning.placement)');
    if (placement?.kind === 'query') reservedQuery.set(placement.name, 'the version, versioning.placement');
    if (placement?.kind === 'header') reservedHeaders.set(placement.name.toLowerCase(), 'the version, versioning.placement');
    const required = o.auth?.kind === 'required' ? schemes.filter((s) => (o.auth as { schemes: readonly string[] }).schemes.includes(s.name)) : [];
    for (const s of required) {
      if (s.type === 'api_key' && s.credentialName !== undefined)
        (s.in === 'query' ? reservedQuery : reservedHeaders).set(
          s.in === 'query' ? s.credentialName : s.credentialName.toLowerCase(),
          `the credential of scheme ${s.name}`,
        );
      if (s.type !== 'api_key') reservedHeaders.set('authorization', `the credential of scheme ${s.name}`);
    }
    if (isIdempotentOperation(model, o))
      reservedHeaders.set((model.endpoints?.idempotency?.header ?? DEFAULT_IDEMPOTENCY_HEADER).toLowerCase(), 'the idempotency key, endpoints.idempotency');
    // What a built-in action reads itself: a list's paging parameters, `sort` and filters; the preconditions of etag.
    if (o.action === 'list') {
      for (const q of getPagingParams(o)) reservedQuery.set(q.name, `the paging parameter ${q.kind} of the list`);
      reservedQuery.set(o.sortParam ?? LIST_PARAMS.sort, 'the sort order of the list');
      for (const f of o.filter) reservedQuery.set(f, `the filter ${f} of the list`);
    }
    const resource = getResource(model, o.resource);
    if (isConditionalChange(resource, o)) reservedHeaders.set('if-match', 'the precondition, etag: true');
    if (o.action === 'read' && answersETag(resource, o)) reservedHeaders.set('if-none-match', 'the conditional read, etag: true');
    for (const p of o.query) {
      const reason = reservedQuery.get(p.name);
      if (reason !== undefined) report('param-reserved', { operation: o.id, in: 'query parameter', name: p.name, reason }, p.pointer);
    }
    const seen = new Map<string, string>();
    for (const p of o.headers) {
      const key = p.name.toLowerCase();
      const first = seen.get(key);
      if (first !== undefined) report('param-duplicate', { operation: o.id, first, second: p.name }, p.pointer);
      else seen.set(key, p.name);
      const reason = reservedHeaders.get(key);
      if (reason !== undefined) report('param-reserved', { operation: o.id, in: 'header', name: p.name, reason }, p.pointer);
    }
  }
};

/** A name on the wire and what reads it there. */
interface WireName {
  name: string;
  what: string;
  pointer: string;
  /** Names of one group may share a name (the Authorization header of several schemes; api_key headers). */
  group?: string;
}

/** Request headers the runtime reads itself whatever the spec says (lowercase), with what reads them. */
const RUNTIME_HEADERS: readonly (readonly [string, string])[] = [
  ...TRANSPORT_HEADERS.map((h) => [h, `the transport header ${h}`] as const),
  ['accept', 'the Accept header (content negotiation)'],
  ['x-request-id', 'the request id the service logs (X-Request-Id)'],
];

/**
 * Names that share one place on the wire: query parameters (filters, list parameters, an api_key in the query,
 * the version's parameter, the event stream's) and headers, compared without case (api_key headers, Authorization
 * for bearer, basic and OAuth2 schemes, the version header, the idempotency header, headers the runtime reads).
 * An operation's own declared parameters (operation.query, operation.headers) are param-reserved's.
 */
const wireNameRules: Rule = ({ model, report }) => {
  const schemes = model.authentication?.schemes ?? [];
  const placement = model.versioning?.placement;
  const reported = new Set<string>();
  const compare = (place: 'query parameter' | 'header', list: readonly WireName[]) => {
    const byName = new Map<string, WireName[]>();
    for (const w of list) {
      const key = place === 'header' ? w.name.toLowerCase() : w.name;
      const seen = byName.get(key) ?? [];
      for (const first of seen) {
        if (first.group !== undefined && first.group === w.group) continue;
        const id = `${place}|${key}|${first.what}|${w.what}`;
        if (reported.has(id)) continue;
        reported.add(id);
        report('wire-name-clash', { place, name: w.name, first: first.what, second: w.what }, w.pointer || first.pointer);
      }
      seen.push(w);
      byName.set(key, seen);
    }
  };
  const keyQuery = (names: readonly string[] | undefined): WireName[] =>
    schemes
      .filter((s) => s.type === 'api_key' && s.in === 'query' && s.credentialName !== undefined && (names === undefined || names.includes(s.name)))
      .map((s) => ({ name: s.credentialName!, what: `the key of scheme ${s.name}`, pointer: joinPointer(s.pointer, 'name') }));
  const versionQuery: WireName[] =
    placement?.kind === 'query' ? [{ name: placement.name, what: 'the version (versioning.placement)', pointer: '/versioning/placement/query' }] : [];
  const streamQuery: WireName[] =
    model.events?.stream?.path !== undefined ? ['kinds', 'after'].map((n) => ({ name: n, what: `the event stream's parameter ${n}`, pointer: '' })) : [];
  // Query parameters every route reads.
  compare('query parameter', [...versionQuery, ...keyQuery(undefined), ...streamQuery]);
  for (const o of model.endpoints?.operations ?? []) {
    if (o.action !== 'list') continue;
    const required = o.auth?.kind === 'required' ? o.auth.schemes : [];
    const filters = o.filter.map((f, i) => ({
      name: f,
      what: `the filter ${f} of operation ${o.id}`,
      pointer: joinPointer(joinPointer(o.pointer, 'filter'), i),
    }));
    const named = o.paging?.params ?? {};
    const listParams = [
      ...getPagingParams(o).map((q) => ({
        name: q.name,
        what: q.kind in named ? `the paging parameter ${q.kind} (${q.name}) of operation ${o.id}` : `the list parameter ${q.name} of operation ${o.id}`,
        pointer: q.kind in named ? joinPointer(joinPointer(joinPointer(o.pointer, 'paging'), 'params'), q.kind) : o.pointer,
      })),
      o.sortParam !== undefined
        ? { name: o.sortParam, what: `the sort parameter (${o.sortParam}) of operation ${o.id}`, pointer: joinPointer(o.pointer, 'sort_param') }
        : { name: LIST_PARAMS.sort, what: `the list parameter ${LIST_PARAMS.sort} of operation ${o.id}`, pointer: o.pointer },
    ];
    compare('query parameter', [...listParams, ...versionQuery, ...keyQuery(required), ...filters]);
  }
  const headers: WireName[] = [];
  for (const [h, what] of RUNTIME_HEADERS) headers.push({ name: h, what, pointer: '', group: 'runtime' });
  if (model.events?.stream?.path !== undefined)
    headers.push({ name: 'last-event-id', what: "the event stream's Last-Event-ID header", pointer: '', group: 'runtime' });
  for (const s of schemes) {
    if (s.type === 'api_key') {
      if (s.in !== 'query' && s.credentialName !== undefined)
        headers.push({ name: s.credentialName, what: `the key of scheme ${s.name}`, pointer: joinPointer(s.pointer, 'name'), group: 'api_key' });
    } else headers.push({ name: 'Authorization', what: `the credential of scheme ${s.name} (Authorization)`, pointer: s.pointer, group: 'authorization' });
  }
  if (placement?.kind === 'header') headers.push({ name: placement.name, what: 'the version (versioning.placement)', pointer: '/versioning/placement/header' });
  if (model.endpoints?.idempotency !== undefined)
    headers.push({
      name: getIdempotencyHeader(model),
      what: 'the idempotency key (endpoints.idempotency)',
      pointer: model.endpoints.idempotency.header !== undefined ? '/endpoints/idempotency/header' : '/endpoints/idempotency',
    });
  // Reported at the spec's own declaration: runtime headers come first, so a clash is placed on the second name.
  compare('header', headers);
};

/** The resources an event kind carries (its payload's, those whose changes emit it): as the runtime's event access rule. */
function getKindResources(k: EventKindModel): string[] {
  const out = new Set<string>();
  if (k.payload?.resource !== undefined) out.add(k.payload.resource);
  for (const t of k.triggers) out.add(t.resource);
  return [...out];
}

/** A kind no stream reader can see (docs/events.md, "Who receives what") when the stream is the only delivery. */
const eventVisibilityRules: Rule = ({ model, report }) => {
  const ev = model.events;
  if (ev?.stream?.path === undefined || ev.webhook !== undefined || ev.broker !== undefined) return;
  const readable = new Set(
    (model.endpoints?.operations ?? []).filter((o) => (o.action === 'read' || o.action === 'list') && o.resource !== undefined).map((o) => o.resource!),
  );
  for (const k of ev.kinds) {
    const resources = getKindResources(k);
    const unread = resources.filter((r) => !readable.has(r));
    if (resources.length === 0) report('event-kind-unseen', { name: k.name, reason: 'it carries no resource' }, k.pointer);
    else if (unread.length > 0) report('event-kind-unseen', { name: k.name, reason: `resource ${unread.join(', ')} has no read or list operation` }, k.pointer);
  }
};

/** A light check of a declared default or example against its field; the runtime's Ajv schema is the full check. */
export function getValueProblem(
  f: Pick<
    FieldModel,
    'type' | 'nullable' | 'values' | 'minimum' | 'maximum' | 'exclusiveMinimum' | 'exclusiveMaximum' | 'minLength' | 'maxLength' | 'pattern' | 'items'
  >,
  v: unknown,
): string | undefined {
  if (v === null) return f.nullable ? undefined : 'the field is not nullable';
  switch (f.type) {
    case 'integer':
      if (!Number.isInteger(v)) return 'not an integer';
      break;
    case 'number':
      if (typeof v !== 'number') return 'not a number';
      break;
    case 'boolean':
      return typeof v === 'boolean' ? undefined : 'not a boolean';
    case 'enum':
      return f.values?.includes(v as string) ? undefined : 'not one of the values';
    case 'array':
      return Array.isArray(v) ? undefined : 'not a list';
    case 'object':
    case 'union':
      return typeof v === 'object' && !Array.isArray(v) ? undefined : 'not a mapping';
    case 'map': {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'not a mapping';
      // Each member's value is the field `items` says.
      for (const [k, x] of Object.entries(v)) {
        const why = f.items ? getValueProblem(f.items, x) : undefined;
        if (why !== undefined) return `member ${k}: ${why}`;
      }
      return undefined;
    }
    case 'json':
      return undefined;
    default:
      if (typeof v !== 'string') return 'not a string';
  }
  if (typeof v === 'number') {
    if (f.minimum !== undefined && v < f.minimum) return `below minimum ${f.minimum}`;
    if (f.maximum !== undefined && v > f.maximum) return `above maximum ${f.maximum}`;
    if (f.exclusiveMinimum !== undefined && v <= f.exclusiveMinimum) return `not above ${f.exclusiveMinimum}`;
    if (f.exclusiveMaximum !== undefined && v >= f.exclusiveMaximum) return `not below ${f.exclusiveMaximum}`;
  }
  if (typeof v === 'string') {
    // In code points, as JSON Schema counts.
    const length = f.minLength !== undefined || f.maxLength !== undefined ? [...v].length : 0;
    if (f.minLength !== undefined && length < f.minLength) return `shorter than ${f.minLength}`;
    if (f.maxLength !== undefined && length > f.maxLength) return `longer than ${f.maxLength}`;
    if (f.pattern !== undefined) {
      try {
        if (!new RegExp(f.pattern, 'u').test(v)) return `does not match ${f.pattern}`;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** The actions that address one object by its identifier (a path parameter). */
const ADDRESSING_ACTIONS: ReadonlySet<string> = new Set(['read', 'update', 'replace', 'delete', 'transition']);

/**
 * Why a field with no stored value (`generated: address`: made from the object's key in each answer) is used as if it
 * had one, or undefined: the service cannot look it up, order by it, keep it unique or bind a path to it.
 */
function getUnstoredUse(r: ResourceModel, f: FieldModel, ops: readonly OperationModel[]): string | undefined {
  const role = f.name === r.identifier ? 'the identifier' : f.name === r.owner ? 'the owner field' : undefined;
  if (role !== undefined) return `is never stored, so it cannot be ${role}`;
  if (f.unique || (r.uniqueKeys ?? []).some((k) => k.includes(f.name))) return 'is never stored, so it cannot be unique (`unique`, `unique_keys`)';
  const use = ops.find((o) => o.filter.includes(f.name) || o.sort.includes(f.name) || (o.bindings ?? []).some((b) => b.field.split('.')[0] === f.name));
  if (use !== undefined) return `is never stored, so operation \`${use.id}\` cannot filter, sort or bind a path by it`;
  return undefined;
}

const resourceRules: Rule = (ctx) => {
  const { model, report } = ctx;
  const ops = model.endpoints?.operations ?? [];
  const opsByResource = new Map<string, OperationModel[]>();
  const addressedNames = new Set<string | undefined>();
  for (const o of ops) {
    if (o.resource !== undefined) {
      const list = opsByResource.get(o.resource);
      if (list) list.push(o);
      else opsByResource.set(o.resource, [o]);
    }
    // An action addressing one object without `bind` finds it by its identifier (its one path parameter); every other
    // action also serves a resource with no identifier, whose rows the storage keys (docs/format.md).
    if (ADDRESSING_ACTIONS.has(o.action) && o.bindings === undefined) addressedNames.add(o.resource);
  }
  const declaredScopes = (model.authentication?.scopes ?? []).map((s) => s.name);
  // A previous name's stored objects move to one resource (getResourceRenames): a second claim on it is refused. A
  // name the spec still has is no rename (ignored, as a field's renamedFrom naming a field it still has is).
  const renamedFrom = new Map<string, string>();
  for (const r of model.resources) {
    for (const from of r.renamedFrom ?? []) {
      if (getResource(model, from) !== undefined) continue;
      const first = renamedFrom.get(from);
      if (first === undefined) renamedFrom.set(from, r.name);
      else report('resource-renamed-from-twice', { name: from, first, second: r.name }, joinPointer(r.pointer, 'renamedFrom'));
    }
  }
  // A field's earlier name moves its stored values to one field only, as a resource's moves its objects.
  for (const r of model.resources) {
    const claimed = new Map<string, string>();
    for (const f of r.fields) {
      for (const from of f.renamedFrom ?? []) {
        if (getField(r, from) !== undefined) continue;
        const first = claimed.get(from);
        if (first === undefined) claimed.set(from, f.name);
        else report('field-renamed-from-twice', { resource: r.name, name: from, first, second: f.name }, joinPointer(f.pointer, 'renamedFrom'));
      }
    }
  }
  for (const r of model.resources) {
    const addressed = addressedNames.has(r.name);
    if (r.identifier === undefined) {
      // An `id` that cannot be an identifier is not taken as one; said so where an operation needs one.
      const id = addressed ? getField(r, DEFAULT_IDENTIFIER_FIELD) : undefined;
      if (id && !IDENTIFIER_TYPES.includes(id.type))
        report('identifier-invalid', { resource: r.name, field: id.name, detail: `has type ${id.type}; an identifier is uuid, integer or string` }, id.pointer);
      else if (id) report('identifier-invalid', { resource: r.name, field: id.name, detail: 'cannot be optional or nullable' }, id.pointer);
      else if (addressed) report('identifier-missing', { resource: r.name }, r.pointer);
    } else {
      const f = getField(r, r.identifier);
      if (!f) {
        checkFieldName(ctx, r, r.identifier, `${r.name}.identifier`, joinPointer(r.pointer, 'identifier'));
      } else if (!IDENTIFIER_TYPES.includes(f.type)) {
        report('identifier-invalid', { resource: r.name, field: f.name, detail: `has type ${f.type}; an identifier is uuid, integer or string` }, f.pointer);
      } else if (f.optional || f.nullable) {
        report('identifier-invalid', { resource: r.name, field: f.name, detail: 'cannot be optional or nullable' }, f.pointer);
      } else if (r.identifierSource === 'client' && f.readOnly) {
        report(
          'identifier-invalid',
          { resource: r.name, field: f.name, detail: 'is read-only, but `identifier_source: client` says every create request sends it' },
          f.pointer,
        );
      }
    }
    // The server makes the identifier of every object a create makes (unless the client gives it); its constraints must let it.
    const made =
      r.identifier !== undefined && r.identifierSource === 'server' && opsByResource.get(r.name)?.some((o) => o.action === 'create')
        ? getField(r, r.identifier)
        : undefined;
    const unmakeable = made && IDENTIFIER_TYPES.includes(made.type) && !made.optional && !made.nullable ? getUnmakeableIdentifier(made) : undefined;
    if (made && unmakeable !== undefined) report('identifier-invalid', { resource: r.name, field: made.name, detail: unmakeable }, made.pointer);
    if (r.owner !== undefined) {
      const f = checkFieldName(ctx, r, r.owner, `${r.name}.owner`, joinPointer(r.pointer, 'owner'));
      if (f && f.type !== 'string')
        report(
          'owner-field-invalid',
          { resource: r.name, field: f.name, detail: `has type ${f.type}; the owner field holds the subject, a string` },
          f.pointer,
        );
      if (f && r.owner === r.identifier) report('owner-field-invalid', { resource: r.name, field: f.name, detail: 'is also the identifier' }, f.pointer);
    }
    const machine = getStateMachine(model, r.name);
    const stamped = new Set(machine?.transitions.flatMap((t) => (t.stamp !== undefined ? [t.stamp] : [])) ?? []);
    if (r.owner !== undefined) {
      for (const o of opsByResource.get(r.name) ?? []) {
        if (o.action !== 'custom' && o.auth?.kind !== 'required')
          report('owner-without-credential', { operation: o.id, resource: r.name }, joinPointer(o.pointer, 'auth'));
      }
      r.ownerOverrideScopes.forEach((s, i) => {
        if (!declaredScopes.includes(s))
          report(
            'unknown-scope',
            { where: `${r.name}.owner_override_scopes`, name: s, suggestion: suggestion(s, declaredScopes) },
            joinPointer(joinPointer(r.pointer, 'owner_override_scopes'), i),
          );
      });
    }
    for (const f of r.fields) {
      if (f.type === 'state' && !machine) report('missing-state-machine', { resource: r.name, field: f.name }, f.pointer);
      if (f.generated === 'address') {
        // The object's own address: its read's path filled from the object, so there must be a read to name.
        const detail =
          f.type !== 'uri' && f.type !== 'string'
            ? `needs a uri or string field, not ${f.type}`
            : !f.readOnly
              ? 'needs a read-only field (the service sets it; no request sends it)'
              : !(opsByResource.get(r.name) ?? []).some((o) => o.action === 'read')
                ? `needs a \`read\` operation of ${r.name} (the address is its path)`
                : getUnstoredUse(r, f, opsByResource.get(r.name) ?? []);
        if (detail !== undefined) report('generated-address-invalid', { where: `${r.name}.${f.name}`, detail }, joinPointer(f.pointer, 'generated'));
      } else if (f.generated !== undefined && f.type !== 'date' && f.type !== 'datetime') {
        report('generated-type-mismatch', { where: `${r.name}.${f.name}`, option: 'generated', type: f.type }, joinPointer(f.pointer, 'generated'));
      }
      // source: service says the service sets it by a rule the spec does not state: a source, its value a named gap.
      const serverSet =
        f.name === r.identifier ||
        f.name === r.owner ||
        f.type === 'state' ||
        f.generated !== undefined ||
        f.hasDefault ||
        stamped.has(f.name) ||
        f.source === 'service';
      const sourceProblem = f.source === 'service' ? getServiceSourceProblem(model, r, f) : undefined;
      if (sourceProblem !== undefined) report('source-unused', { where: `${r.name}.${f.name}`, detail: sourceProblem }, joinPointer(f.pointer, 'source'));
      if (f.readOnly && !f.optional && !serverSet && !isBoundByEveryCreate(opsByResource.get(r.name) ?? [], f.name))
        report('readonly-without-source', { resource: r.name, field: f.name }, f.pointer);
      if (f.writeOnly) {
        // Answers leave it out: a field every answer must carry, or that no request writes, cannot be write-only.
        const role = f.readOnly
          ? 'cannot also be read-only'
          : f.name === r.identifier
            ? 'cannot be the identifier'
            : f.name === r.owner
              ? 'cannot be the owner field'
              : f.type === 'state'
                ? 'cannot be the state field'
                : f.unique
                  ? // A unique_conflict would tell a client which value another object holds.
                    'cannot be unique'
                  : undefined;
        if (role !== undefined) report('write-only-invalid', { where: `${r.name}.${f.name}`, detail: role }, joinPointer(f.pointer, 'writeOnly'));
      }
    }
  }
};

function reachable(m: StateMachineModel): Set<string> {
  const seen = new Set<string>();
  if (m.initial === undefined) return seen;
  const queue = [m.initial];
  while (queue.length > 0) {
    const s = queue.shift()!;
    if (seen.has(s)) continue;
    seen.add(s);
    for (const t of m.transitions) if (t.from.includes(s) && !seen.has(t.to)) queue.push(t.to);
  }
  return seen;
}

const stateRules: Rule = (ctx) => {
  const { model, report } = ctx;
  const kinds = new Set((model.events?.kinds ?? []).map((k) => k.name));
  for (const m of model.stateMachines) {
    const r = checkResourceName(ctx, m.resource, `states.${m.resource}`, m.pointer);
    const declaredNames = names(m.states.filter((s) => s.declared));
    const checkState = (name: string, where: string, pointer: string) => {
      if (m.states.some((s) => s.declared) && !declaredNames.includes(name)) {
        report('unknown-state', { where, name, resource: m.resource, suggestion: suggestion(name, declaredNames) }, pointer);
        return false;
      }
      return true;
    };
    if (r) {
      if (m.field === undefined) {
        const stateFields = r.fields.filter((f) => f.type === 'state');
        if (stateFields.length !== 1) {
          report(
            'state-field-mismatch',
            { detail: `the ${m.resource} state machine names no \`field\`, and ${r.name} has ${stateFields.length} fields of type state` },
            m.pointer,
          );
        }
      } else {
        const f = checkFieldName(ctx, r, m.field, `states.${m.resource}.field`, joinPointer(m.pointer, 'field'));
        if (f && f.type !== 'state') {
          report(
            'state-field-mismatch',
            { detail: `states.${m.resource}.field names ${r.name}.${f.name}, which has type ${f.type}, not state` },
            joinPointer(m.pointer, 'field'),
          );
        }
      }
    }
    if (m.initial === undefined) {
      if (m.transitions.length > 0) report('missing-initial-state', { resource: m.resource }, m.pointer);
    } else {
      checkState(m.initial, `states.${m.resource}.initial`, joinPointer(m.pointer, 'initial'));
    }
    const raw = ctx.doc.states?.[m.resource];
    // A removed state maps to a state the machine has; a state it still has is not removed.
    for (const [gone, to] of Object.entries(m.removedStates ?? {})) {
      const at = joinPointer(joinPointer(m.pointer, 'removed_states'), gone);
      if (m.states.some((s) => s.name === gone)) report('removed-state-still-declared', { name: gone, resource: m.resource }, at);
      else if (!m.states.some((s) => s.name === to))
        report(
          'unknown-state',
          {
            where: `states.${m.resource}.removed_states.${gone}`,
            name: to,
            resource: m.resource,
            suggestion: suggestion(
              to,
              m.states.map((s) => s.name),
            ),
          },
          at,
        );
    }
    for (const name of raw?.terminal ?? []) {
      if (raw?.states?.[name]?.terminal === false)
        report('terminal-conflict', { state: name, resource: m.resource }, joinPointer(joinPointer(m.pointer, 'states'), name));
      else checkState(name, `states.${m.resource}.terminal`, joinPointer(m.pointer, 'terminal'));
    }
    for (const t of m.transitions) {
      t.from.forEach((f, i) =>
        checkState(
          f,
          `transition ${m.resource}.${t.name}.from`,
          Array.isArray(t.from) ? joinPointer(joinPointer(t.pointer, 'from'), i) : joinPointer(t.pointer, 'from'),
        ),
      );
      checkState(t.to, `transition ${m.resource}.${t.name}.to`, joinPointer(t.pointer, 'to'));
      if (r)
        t.requires.forEach((f, i) =>
          checkFieldName(ctx, r, f, `transition ${m.resource}.${t.name}.requires`, joinPointer(joinPointer(t.pointer, 'requires'), i)),
        );
      if (r && t.stamp !== undefined) {
        const f = checkFieldName(ctx, r, t.stamp, `transition ${m.resource}.${t.name}.stamp`, joinPointer(t.pointer, 'stamp'));
        if (f && f.type !== 'date' && f.type !== 'datetime')
          report('generated-type-mismatch', { where: `transition ${m.resource}.${t.name}`, option: 'stamp', type: f.type }, joinPointer(t.pointer, 'stamp'));
      }
      if (t.emits !== undefined && !kinds.has(t.emits)) {
        report(
          'unknown-event',
          { where: `transition ${m.resource}.${t.name}`, name: t.emits, suggestion: suggestion(t.emits, names(model.events?.kinds ?? [])) },
          joinPointer(t.pointer, 'emits'),
        );
      }
      for (const f of t.from) {
        const s = m.states.find((x) => x.name === f);
        if (s?.terminal) report('terminal-state-has-exit', { state: f, resource: m.resource, transition: t.name }, t.pointer);
      }
    }
    if (m.initial !== undefined && m.states.some((s) => s.name === m.initial)) {
      const seen = reachable(m);
      for (const s of m.states)
        if (!seen.has(s.name))
          report('unreachable-state', { state: s.name, resource: m.resource, initial: m.initial }, joinPointer(joinPointer(m.pointer, 'states'), s.name));
    }
    for (const s of m.states) {
      if (!s.terminal && !m.transitions.some((t) => t.from.includes(s.name))) {
        report('dead-end-state', { state: s.name, resource: m.resource }, joinPointer(joinPointer(m.pointer, 'states'), s.name));
      }
    }
  }
};

const EXPECTED_METHODS: Partial<Record<OperationModel['action'], HttpMethod[]>> = {
  create: ['POST', 'PUT'],
  read: ['GET'],
  list: ['GET'],
  update: ['PATCH'],
  replace: ['PUT'],
  delete: ['DELETE'],
  transition: ['POST', 'PUT', 'PATCH'],
};

/** Normalises a path template so `/a/{id}` and `/a/{key}` compare equal. */
function routeShape(path: string): string {
  const shape = path.includes('{') ? path.replace(/\{[^{}]*\}/g, '{}') : path;
  return (shape.endsWith('/') ? shape.replace(/\/+$/, '') : shape) || '/';
}

function countChar(text: string, char: string): number {
  let n = 0;
  for (let i = text.indexOf(char); i >= 0; i = text.indexOf(char, i + 1)) n++;
  return n;
}

/** Why a path template (starting with /) is malformed, or undefined. */
function getPathProblem(path: string, params: readonly string[]): string | undefined {
  // A query or fragment is no part of a route: serve could not start (`/responses/{id}?beta=true`).
  if (/[?#]/.test(path)) return 'has a query or fragment (`?`, `#`): a path is the path alone';
  if (params.length === 0 && !path.includes('{') && !path.includes('}')) return undefined;
  if (/\{[^{}]*\{|\}[^{}]*\}/.test(path) || countChar(path, '{') !== countChar(path, '}')) return 'has unbalanced braces';
  if (params.some((p) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(p))) return 'has a parameter that is not a plain name';
  if (params.length > 1 && new Set(params).size !== params.length) return 'names the same parameter twice';
  return undefined;
}

/** A list's paging settings that contradict each other (docs/format.md, "List shapes"). */
function checkPaging({ model, doc, report }: RuleContext, o: OperationModel): void {
  const written = doc.endpoints?.operations?.[o.id]?.paging;
  const p = o.paging;
  if (!written || !p) return;
  // A key, or a key and its member (`members/page`).
  const at = (key: string) => key.split('/').reduce(joinPointer, joinPointer(o.pointer, 'paging'));
  const say = (detail: string, key: string) => report('paging-contradiction', { operation: o.id, detail }, at(key));
  if (p.body === 'array') {
    for (const key of ['items', 'next', 'total', 'has_more', 'url', 'next_link', 'previous_link'] as const)
      if (written[key] !== undefined) say(`\`${key}\` names a field of the envelope, but the body is a bare array (\`body: array\`)`, key);
    if (written.constants !== undefined && Object.keys(written.constants).length > 0)
      say('`constants` names fields of the envelope, but the body is a bare array (`body: array`)', 'constants');
    if (p.members !== undefined) say('`members` names fields of the envelope, but the body is a bare array (`body: array`)', 'members');
    // The response envelope may carry the next cursor instead (its `next`).
    if (p.style === 'cursor' && !p.link && !(o.envelope?.values.some((v) => v.source === 'next') ?? false))
      say('a bare array with cursor paging gives the next cursor nowhere: add `link: true` (the Link header carries it), or use `body: envelope`', 'body');
  } else {
    if (written.next !== undefined && p.style !== 'cursor') say(`\`next\` is the cursor style's field; style ${p.style} has no next cursor`, 'next');
    // `next: false` leaves the next cursor out of the page: the Link header (or the response envelope) must carry it.
    if (
      written.next === false &&
      p.style === 'cursor' &&
      !p.link &&
      p.nextLink === undefined &&
      !(o.envelope?.values.some((v) => v.source === 'next') ?? false)
    )
      say('`next: false` leaves the next cursor out of the page, and nothing else carries it: add `link: true` (the Link header carries it)', 'next');
    const names = [
      p.items,
      ...(p.style === 'cursor' && p.next !== undefined ? [p.next] : []),
      ...(p.total !== undefined ? [p.total] : []),
      ...(p.hasMore !== undefined ? [p.hasMore] : []),
      ...(p.url !== undefined ? [p.url] : []),
      ...(p.nextLink !== undefined ? [p.nextLink] : []),
      ...(p.previousLink !== undefined ? [p.previousLink] : []),
      ...Object.keys(p.constants ?? {}),
    ];
    const twice = names.find((n, i) => names.indexOf(n) !== i);
    if (twice !== undefined)
      say(
        `the envelope names \`${twice}\` twice (items, next, total, has_more, url, next_link, previous_link and each of constants are separate fields)`,
        p.constants?.[twice] !== undefined
          ? 'constants'
          : written.previous_link === twice
            ? 'previous_link'
            : written.next_link === twice
              ? 'next_link'
              : written.url === twice
                ? 'url'
                : written.has_more !== undefined
                  ? 'has_more'
                  : written.total !== undefined
                    ? 'total'
                    : 'next',
      );
  }
  checkPageMembers(p, written.members, say);
  // Pages numbered from 0 are style page's: no other style has a page number.
  if (written.first_page !== undefined && p.style !== 'page')
    say(`\`first_page\` numbers the pages of style page; style ${p.style} has no page number`, 'first_page');
  // `next_optional` says how the page's next cursor field is left out: a page without one has nothing to leave out.
  if (written.next_optional === true && (p.body === 'array' || p.style !== 'cursor' || p.next === undefined))
    say('`next_optional` says the next cursor field is left out on the last page, but this page has no next cursor field', 'next_optional');
  checkPagingParams(report, o, p, at);
  // This list's page sizes as they apply, its own keys over limits.page_size's.
  if (p.pageSize) {
    const size = getPageSize(model, o);
    if (size.default !== undefined && size.max !== undefined && size.default > size.max)
      report(
        'page-size-default-above-max',
        { default: size.default, max: size.max, where: ` (list ${o.id})` },
        size.pointers.default.startsWith('/limits/') ? size.pointers.max : size.pointers.default,
      );
    if (p.style === 'none' && p.pageSize.default !== undefined)
      say('style none answers every matching object at once and reads no page size, so `page_size.default` is never used', 'page_size');
  }
  // The total's header is the format's to write: not one the service writes for another reason.
  const reserved = p.totalHeader !== undefined ? getReservedResponseHeader('list', p.totalHeader) : undefined;
  if (reserved !== undefined) say(`\`total_header\` names ${p.totalHeader!}, which is ${reserved}`, 'total_header');
  // Style after: the cursor is the last object's identifier, so the order is the identifier's.
  if (p.style === 'after' && o.sort.length > 0)
    say("style after pages by the identifier's order (the cursor is the last object's identifier), so `sort` cannot reorder it", 'style');
  const listed = o.resource !== undefined ? getResource(model, o.resource) : undefined;
  if (p.style === 'after' && listed !== undefined && listed.identifier === undefined)
    say("style after names the page before by its last object's identifier, and the resource has none", 'style');
  if (p.style === 'none' && p.link) say('style none answers every object at once, so there is no next page for a Link header', 'link');
  if (p.style === 'limit' && p.link) say('style limit answers the first page only, so there is no next page for a Link header', 'link');
  if ((p.style === 'none' || p.style === 'limit') && p.nextLink !== undefined)
    say(
      `style ${p.style} answers ${p.style === 'none' ? 'every object at once' : 'the first page only'}, so there is no next page for \`next_link\``,
      'next_link',
    );
  // A previous page's address is a position moved back: offsets and page numbers go back, a cursor does not.
  if (p.previousLink !== undefined && p.style !== 'offset' && p.style !== 'page')
    say(`\`previous_link\` needs style offset or page (a position that can be moved back); style ${p.style} pages forward only`, 'previous_link');
}

/**
 * `paging.members` (a page object's descriptive members): each role on a style that can answer it, and no member
 * path naming a field another envelope key or member names, or a field inside one (`items.count`, `pageable` beside
 * `pageable.pageNumber`).
 */
function checkPageMembers(p: PagingModel, written: PageMembersSpec | undefined, say: (detail: string, key: string) => void): void {
  if (p.members === undefined || written === undefined || p.body === 'array') return;
  for (const role of Object.keys(written) as PageMemberRole[]) {
    const styles = PAGE_MEMBER_STYLES[role];
    if (styles !== undefined && !styles.includes(p.style))
      say(`\`members.${role}\` needs style ${styles.join(' or ')}; style ${p.style} ${MEMBER_STYLE_WHY[p.style]}`, `members/${role}`);
  }
  const taken: { path: readonly string[]; key: string }[] = [
    { path: [p.items], key: 'items' },
    ...(p.style === 'cursor' && p.next !== undefined ? [{ path: [p.next], key: 'next' }] : []),
    ...(p.total !== undefined ? [{ path: [p.total], key: 'total' }] : []),
    ...(p.hasMore !== undefined ? [{ path: [p.hasMore], key: 'has_more' }] : []),
    ...(p.url !== undefined ? [{ path: [p.url], key: 'url' }] : []),
    ...(p.nextLink !== undefined ? [{ path: [p.nextLink], key: 'next_link' }] : []),
    ...(p.previousLink !== undefined ? [{ path: [p.previousLink], key: 'previous_link' }] : []),
    ...Object.keys(p.constants ?? {}).map((name) => ({ path: [name], key: 'constants' })),
  ];
  for (const m of p.members) {
    const clash = taken.find((t) => isPathPrefix(t.path, m.path) || isPathPrefix(m.path, t.path));
    const name = m.path.join('.');
    if (clash !== undefined) {
      const other = clash.path.join('.');
      say(
        other === name
          ? `\`members.${m.role}\` names \`${name}\`, which \`${clash.key}\` names too (each member is a field of its own)`
          : `\`members.${m.role}\` names \`${name}\` and \`${clash.key}\` names \`${other}\`: one holds the other, and a field is either a member or an object of members`,
        `members/${m.role}`,
      );
      return;
    }
    taken.push({ path: m.path, key: `members.${m.role}` });
  }
}

/** Why a style has no page number, no page size or no position (paging-contradiction's detail). */
const MEMBER_STYLE_WHY: Readonly<Record<string, string>> = Object.freeze({
  cursor: 'names its page by a cursor, not a number or an offset',
  after: "names its page by the last object's identifier, not a number or an offset",
  offset: 'has no page number',
  limit: 'answers the first page only',
  none: 'answers every object at once',
  page: 'cannot answer it',
});

/** Whether `a` is `b` or a path holding it (`pageable` holds `pageable.pageNumber`). */
function isPathPrefix(a: readonly string[], b: readonly string[]): boolean {
  return a.length <= b.length && a.every((s, i) => s === b[i]);
}

/** A query parameter name, as the format's schema has it (queryParamName). */
const QUERY_PARAM_NAME = /^(?!__proto__$)[^\s&=#]+$/;

/** A list's `paging.params`: each a query parameter name, of a role its style reads (clashes are wireNameRules'). */
function checkPagingParams(report: RuleContext['report'], o: OperationModel, p: PagingModel, at: (key: string) => string): void {
  const reads = PAGING_ROLES[p.style];
  for (const [role, name] of Object.entries(p.params) as [PagingRole, string][]) {
    const where = joinPointer(at('params'), role);
    if (!reads.includes(role))
      report(
        'paging-param-invalid',
        {
          operation: o.id,
          role,
          name,
          detail: `style ${p.style} reads ${reads.length > 0 ? reads.join(' and ') : 'no paging parameter'}, so it never reads this one`,
        },
        where,
      );
    else if (!QUERY_PARAM_NAME.test(name))
      report('paging-param-invalid', { operation: o.id, role, name, detail: 'is not a query parameter name (no whitespace, &, = or #; not __proto__)' }, where);
  }
}

const operationRules: Rule = (ctx) => {
  const { model, report } = ctx;
  const ops = model.endpoints?.operations ?? [];
  const seen = new Map<string, { o: OperationModel; shape: string }>();
  const errorCodes = new Set((model.errors?.codes ?? []).map((c) => c.name));
  for (const o of ops) {
    const where = `operation ${o.id}`;
    const pathProblem = o.path.startsWith('/') ? getPathProblem(o.path, o.pathParams) : 'must start with /';
    if (pathProblem !== undefined) report('invalid-path', { operation: o.id, path: o.path, detail: pathProblem }, joinPointer(o.pointer, 'path'));
    const shape = routeShape(o.path);
    const key = `${o.method} ${shape}`;
    const first = seen.get(key);
    if (first) report('duplicate-route', { first: first.o.id, second: o.id, method: o.method, path: o.path }, o.pointer);
    else seen.set(key, { o, shape });

    const expected = EXPECTED_METHODS[o.action];
    if (expected && !expected.includes(o.method))
      report(
        'method-action-mismatch',
        { operation: o.id, action: o.action, expected: expected.join(' or '), method: o.method },
        joinPointer(o.pointer, 'method'),
      );

    let r: ResourceModel | undefined;
    if (o.action !== 'custom') {
      if (o.resource === undefined) report('action-needs-resource', { operation: o.id, action: o.action }, o.pointer);
      else r = checkResourceName(ctx, o.resource, where, joinPointer(o.pointer, 'resource'));
    } else if (o.resource !== undefined) {
      r = checkResourceName(ctx, o.resource, where, joinPointer(o.pointer, 'resource'));
    }

    const addressesOne = ADDRESSING_ACTIONS.has(o.action);
    if (o.action !== 'custom' && o.bindings !== undefined) {
      // With \`bind\`, every path parameter names a field (check-path-bindings.ts checks each binding itself).
      const unbound = o.pathParams.filter((p) => !o.bindings!.some((b) => b.param === p));
      if (addressesOne && o.pathParams.length === 0)
        report('missing-path-parameter', { operation: o.id, action: o.action, example: `${o.path.replace(/\/$/, '')}/{id}` }, joinPointer(o.pointer, 'path'));
      else if (unbound.length > 0)
        report(
          'unbound-path-parameter',
          { operation: o.id, detail: `path parameter {${unbound.join('}, {')}} names no field: \`bind\` must bind every path parameter` },
          joinPointer(o.pointer, 'path'),
        );
    } else if (o.action !== 'custom') {
      if (addressesOne && o.pathParams.length !== 1) {
        if (o.pathParams.length === 0)
          report('missing-path-parameter', { operation: o.id, action: o.action, example: `${o.path.replace(/\/$/, '')}/{id}` }, joinPointer(o.pointer, 'path'));
        else
          report(
            'unbound-path-parameter',
            {
              operation: o.id,
              detail: `a ${o.action} operation binds one path parameter (the identifier); {${o.pathParams.slice(1).join('}, {')}} would be ignored`,
            },
            joinPointer(o.pointer, 'path'),
          );
      }
      if (!addressesOne && o.pathParams.length > 0) {
        report(
          'unbound-path-parameter',
          { operation: o.id, detail: `a ${o.action} operation binds no path parameter; {${o.pathParams.join('}, {')}} would be ignored` },
          joinPointer(o.pointer, 'path'),
        );
      }
    } else {
      const bound = new Set(o.request?.fields?.map((f) => f.name) ?? []);
      const unbound = o.pathParams.filter((p) => !bound.has(p));
      // A form's fields are its body's names: the path's parameters are read from the path (ctx.params), not the form.
      if (unbound.length > 0 && o.request?.fields && o.request.mediaType !== FORM_MEDIA_TYPE) {
        report(
          'unbound-path-parameter',
          { operation: o.id, detail: `path parameter {${unbound.join('}, {')}} is not a field of the request shape` },
          joinPointer(o.pointer, 'path'),
        );
      }
    }

    if (o.action === 'transition') {
      if (o.transition === undefined) report('action-needs-transition', { operation: o.id }, o.pointer);
      else if (r) {
        const m = getStateMachine(model, r.name);
        if (!m) report('transition-without-machine', { operation: o.id, resource: r.name }, joinPointer(o.pointer, 'transition'));
        else if (!m.transitions.some((t) => t.name === o.transition)) {
          report(
            'unknown-transition',
            { where, name: o.transition, resource: r.name, suggestion: suggestion(o.transition, names(m.transitions)) },
            joinPointer(o.pointer, 'transition'),
          );
        }
      }
    } else if (o.transition !== undefined) {
      report('misplaced-option', { operation: o.id, option: 'transition', action: o.action }, joinPointer(o.pointer, 'transition'));
    }
    if (o.action !== 'list') {
      if (o.filter.length > 0) report('misplaced-option', { operation: o.id, option: 'filter', action: o.action }, joinPointer(o.pointer, 'filter'));
      if (o.requiredFilters !== undefined)
        report('misplaced-option', { operation: o.id, option: 'required_filters', action: o.action }, joinPointer(o.pointer, 'required_filters'));
      if (o.sort.length > 0) report('misplaced-option', { operation: o.id, option: 'sort', action: o.action }, joinPointer(o.pointer, 'sort'));
      if (o.sortParam !== undefined)
        report('misplaced-option', { operation: o.id, option: 'sort_param', action: o.action }, joinPointer(o.pointer, 'sort_param'));
      if (ctx.doc.endpoints?.operations?.[o.id]?.paging !== undefined)
        report('misplaced-option', { operation: o.id, option: 'paging', action: o.action }, joinPointer(o.pointer, 'paging'));
    } else {
      // The sort's name on the wire, on a list that takes no sort: nothing reads it.
      if (o.sortParam !== undefined && o.sort.length === 0)
        report('misplaced-option', { operation: o.id, option: 'sort_param', action: 'list without sort' }, joinPointer(o.pointer, 'sort_param'));
      checkPaging(ctx, o);
      // A required filter is one of the list's filters: the query parameter every request must send.
      o.requiredFilters?.forEach((f, i) => {
        if (!o.filter.includes(f)) report('required-filter-unknown', { operation: o.id, field: f }, joinPointer(joinPointer(o.pointer, 'required_filters'), i));
      });
    }
    if (o.action === 'list' && r) {
      const revealed = (field: FieldModel | undefined, option: 'filter' | 'sort', i: number) => {
        // Listing by a write-only field tells its value apart (which objects match, their order).
        if (field?.writeOnly)
          report(
            'write-only-invalid',
            { where: `${r.name}.${field.name}`, detail: `cannot be a ${option} of list operation ${o.id}` },
            joinPointer(joinPointer(o.pointer, option), i),
          );
      };
      o.filter.forEach((f, i) => {
        const field = checkFieldName(ctx, r!, f, `${where} filter`, joinPointer(joinPointer(o.pointer, 'filter'), i));
        revealed(field, 'filter', i);
        // The runtime compares a filter's text with the stored value: a list, an object or free JSON never matches.
        if (field && UNFILTERABLE_TYPES.has(field.type))
          report('filter-type-invalid', { operation: o.id, field: f, type: field.type }, joinPointer(joinPointer(o.pointer, 'filter'), i));
      });
      o.sort.forEach((f, i) => revealed(checkFieldName(ctx, r!, f, `${where} sort`, joinPointer(joinPointer(o.pointer, 'sort'), i)), 'sort', i));
    }
    if (o.requestFields !== undefined) checkRequestFields(ctx, o, r);
    if (o.answerFields !== undefined) checkAnswerFields(ctx, o, r);
    // A replace that creates (upsert) answers its 201 with a Location as a create does, or says it does not.
    if (o.location !== undefined && o.action !== 'create' && !(o.action === 'replace' && o.upsert === true))
      report('misplaced-option', { operation: o.id, option: 'location', action: o.action }, joinPointer(o.pointer, 'location'));
    if (o.action === 'delete' && o.response !== undefined) checkDeleteResponse(ctx, o, r);
    if (o.unknownFields !== undefined && o.action !== 'create' && o.action !== 'update' && o.action !== 'replace')
      report('misplaced-option', { operation: o.id, option: 'unknown_fields', action: o.action }, joinPointer(o.pointer, 'unknown_fields'));
    if (o.upsert && o.action !== 'replace')
      report('misplaced-option', { operation: o.id, option: 'upsert', action: o.action }, joinPointer(o.pointer, 'upsert'));
    // An upsert makes the object under the path's identifier: the client must be the one that gives it.
    else if (o.upsert && r && r.identifierSource !== 'client')
      report('upsert-needs-client-identifier', { operation: o.id, resource: r.name }, joinPointer(o.pointer, 'upsert'));
    // if_match: a one-object change of a resource answering ETags (docs/format.md, "Conditional requests").
    const ifMatch = ctx.doc.endpoints?.operations?.[o.id]?.if_match;
    if (ifMatch !== undefined) {
      if (!IF_MATCH_ACTIONS.has(o.action))
        report('misplaced-option', { operation: o.id, option: 'if_match', action: o.action }, joinPointer(o.pointer, 'if_match'));
      else if (r && r.etag !== true) report('if-match-needs-etag', { operation: o.id, value: ifMatch, resource: r.name }, joinPointer(o.pointer, 'if_match'));
    }
    if (o.action === 'custom') {
      if (o.handler === undefined) report('custom-needs-handler', { operation: o.id }, o.pointer);
      // A 204 or 205 answers no body: nothing to declare.
      if (!o.response && !isNoContentStatus(o.status)) report('custom-needs-shape', { operation: o.id, which: 'response' }, o.pointer);
      if (!o.request && !o.takesNoBody && o.method !== 'GET' && o.method !== 'DELETE')
        report('custom-needs-shape', { operation: o.id, which: 'request' }, o.pointer);
    } else {
      if (o.handler !== undefined) report('misplaced-option', { operation: o.id, option: 'handler', action: o.action }, joinPointer(o.pointer, 'handler'));
      // A resource action's request is its resource's: `none` is a custom operation's alone.
      if (o.takesNoBody) report('misplaced-option', { operation: o.id, option: 'request: none', action: o.action }, joinPointer(o.pointer, 'request'));
    }
    if (o.request?.resource !== undefined)
      checkResourceName(ctx, o.request.resource, `${where} request`, joinPointer(joinPointer(o.pointer, 'request'), 'resource'));
    if (o.response?.resource !== undefined)
      checkResourceName(ctx, o.response.resource, `${where} response`, joinPointer(joinPointer(o.pointer, 'response'), 'resource'));
    o.errors.forEach((e, i) => {
      if (!errorCodes.has(e)) {
        report(
          'unknown-error-code',
          { where, name: e, suggestion: suggestion(e, names(model.errors?.codes ?? [])) },
          joinPointer(joinPointer(o.pointer, 'errors'), i),
        );
      }
    });
  }
  // Paths that differ only where one has a parameter and the other a literal match the same request.
  // Paths are split into segments and partitioned segment by segment (a parameter goes along with every
  // literal), so only paths that can still match are compared: near linear for thousands of operations.
  const groups = new Map<string, { o: OperationModel; segs: string[] }[]>();
  for (const { o, shape } of seen.values()) {
    const segs = shape.split('/');
    const key = `${o.method} ${segs.length}`;
    const group = groups.get(key);
    if (group) group.push({ o, segs });
    else groups.set(key, [{ o, segs }]);
  }
  for (const group of groups.values()) {
    const reported = new Set<string>();
    const visit = (members: number[], depth: number): void => {
      if (members.length < 2) return;
      if (depth === group[members[0]!]!.segs.length) {
        const sorted = [...members].sort((x, y) => x - y);
        for (let x = 0; x < sorted.length; x++) {
          for (let y = x + 1; y < sorted.length; y++) {
            const key = `${sorted[x]} ${sorted[y]}`;
            if (reported.has(key)) continue;
            reported.add(key);
            const a = group[sorted[x]!]!.o;
            const b = group[sorted[y]!]!.o;
            if (!canMatchBoth(model, a, b)) continue;
            report('ambiguous-route', { first: a.id, second: b.id, path1: a.path, path2: b.path }, b.pointer);
          }
        }
        return;
      }
      const wild: number[] = [];
      const literal = new Map<string, number[]>();
      for (const m of members) {
        const seg = group[m]!.segs[depth]!;
        if (seg === '{}') wild.push(m);
        else if (literal.has(seg)) literal.get(seg)!.push(m);
        else literal.set(seg, [m]);
      }
      if (literal.size === 0) visit(wild, depth + 1);
      for (const l of literal.values()) visit(wild.length > 0 ? [...l, ...wild] : l, depth + 1);
    };
    visit(
      group.map((_, i) => i),
      0,
    );
  }
};

/**
 * Whether one request can match both paths (of one length, each segment equal or a parameter on one side): not when
 * a parameter's field cannot hold the other path's literal there (`/devices/{uuid}` of a uuid identifier beside
 * `/devices/search`). The literal is routed first, so only a value equal to it is lost, and no such value exists.
 */
function canMatchBoth(model: ServiceModel, a: OperationModel, b: OperationModel): boolean {
  const as = a.path.split('/');
  const bs = b.path.split('/');
  for (let i = 0; i < as.length; i++) {
    const [param, literal, o] =
      isParamSegment(as[i]!) && !isParamSegment(bs[i]!) ? [as[i]!, bs[i]!, a] : isParamSegment(bs[i]!) && !isParamSegment(as[i]!) ? [bs[i]!, as[i]!, b] : [];
    if (param === undefined || o === undefined) continue;
    const field = getPathParamField(model, o, param.slice(1, -1));
    if (field !== undefined && !canHoldText(field, decodeURIComponent(literal!))) return false;
  }
  return true;
}

const isParamSegment = (seg: string): boolean => seg.startsWith('{') && seg.endsWith('}');

/** The field a resource action's path parameter names: its `bind`, else an addressing action's identifier. */
function getPathParamField(model: ServiceModel, o: OperationModel, param: string): FieldModel | undefined {
  const resource = o.resource === undefined ? undefined : getResource(model, o.resource);
  if (!resource) return undefined;
  const bound = o.bindings?.find((x) => x.param === param)?.field;
  const name = bound ?? (o.bindings === undefined && ADDRESSING_ACTIONS.has(o.action) && param === o.pathParams.at(-1) ? resource.identifier : undefined);
  return name === undefined || name.includes('.') ? undefined : getField(resource, name);
}

/** Whether a path segment's text can be a value of the field (its type, format, bounds and pattern). */
function canHoldText(field: FieldModel, text: string): boolean {
  let value: unknown = text;
  if (field.type === 'integer' || field.type === 'number') {
    value = text.trim() === '' ? NaN : Number(text);
    if (!Number.isFinite(value)) return false;
  } else if (field.type === 'boolean') {
    if (text !== 'true' && text !== 'false') return false;
    value = text === 'true';
  } else if (field.type === 'uuid') return UUID_TEXT.test(text);
  else if (field.type === 'date') return DATE_TEXT.test(text);
  else if (field.type === 'datetime') return DATETIME_TEXT.test(text);
  return getValueProblem(field, value) === undefined;
}

const DATE_TEXT = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME_TEXT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/;

const authRules: Rule = ({ model, report }) => {
  const auth = model.authentication;
  const schemes = names(auth?.schemes ?? []);
  const scopes = (auth?.scopes ?? []).map((s) => s.name);
  const knownSchemes = new Set(schemes);
  const knownScopes = new Set(scopes);
  const checkRequirement = (req: OperationModel['auth'], where: string, pointer: string) => {
    if (!req || req.kind === 'none') return;
    req.schemes.forEach((s, i) => {
      if (!knownSchemes.has(s))
        report('unknown-scheme', { where, name: s, suggestion: suggestion(s, schemes) }, joinPointer(joinPointer(pointer, 'schemes'), i));
    });
    req.scopes.forEach((s, i) => {
      if (!knownScopes.has(s)) report('unknown-scope', { where, name: s, suggestion: suggestion(s, scopes) }, joinPointer(joinPointer(pointer, 'scopes'), i));
    });
  };
  if (auth?.default) checkRequirement(auth.default, 'authentication.default', '/authentication/default');
  for (const o of model.endpoints?.operations ?? [])
    if (o.authDeclared === 'operation') checkRequirement(o.auth, `operation ${o.id}`, joinPointer(o.pointer, 'auth'));
  for (const s of auth?.schemes ?? []) {
    const incomplete = (detail: string) => report('scheme-incomplete', { scheme: s.name, type: s.type, detail }, s.pointer);
    if (s.type === 'api_key' && s.credentialName === undefined) incomplete('names no header or query parameter (`name`)');
    if (s.type === 'oauth2_client_credentials' && s.tokenPath === undefined) incomplete('names no token endpoint (`token_path`)');
    if (s.type === 'oauth2_client_credentials' && s.tokenPath !== undefined) {
      const clash = (model.endpoints?.operations ?? []).find((o) => routeShape(o.path) === routeShape(s.tokenPath!) && o.method === 'POST');
      if (clash)
        report(
          'route-conflict',
          { what: `the token endpoint of scheme ${s.name}`, path: s.tokenPath, operation: clash.id },
          joinPointer(s.pointer, 'token_path'),
        );
    }
  }
};

const eventRules: Rule = ({ model, doc, report }) => {
  const ev = model.events;
  if (!ev) return;
  for (const k of ev.kinds) {
    if (!k.payload) report('event-payload-unknown', { name: k.name }, k.pointer);
    else if (k.payload.resource !== undefined && !getResource(model, k.payload.resource)) {
      report(
        'unknown-resource',
        { where: `event ${k.name} payload`, name: k.payload.resource, suggestion: suggestion(k.payload.resource, names(model.resources)) },
        joinPointer(joinPointer(k.pointer, 'payload'), 'resource'),
      );
    }
    // A kind with `on` but no resource is reported as event-trigger-without-resource below.
    if (k.triggers.length === 0 && (doc.events?.kinds?.[k.name]?.on ?? []).length === 0) {
      report('undeclared-event-emission', { name: k.name }, k.pointer);
    }
  }
  for (const k of ev.kinds) {
    const raw = doc.events?.kinds?.[k.name];
    const on = raw?.on ?? [];
    if (raw?.resource !== undefined && !getResource(model, raw.resource)) {
      report(
        'unknown-resource',
        { where: `event ${k.name}`, name: raw.resource, suggestion: suggestion(raw.resource, names(model.resources)) },
        joinPointer(k.pointer, 'resource'),
      );
    }
    if (on.length > 0 && (raw?.resource ?? k.payload?.resource) === undefined)
      report('event-trigger-without-resource', { name: k.name, trigger: on.join(', ') }, joinPointer(k.pointer, 'on'));
    // The runtime emits the changed object itself (or the declared fields picked from it): never a union's variant.
    if (k.payload?.union && k.triggers.length > 0) {
      const trigger = k.triggers.map((t) => (t.action === 'transition' ? `the ${t.resource} transition ${t.transition}` : `a ${t.action} of ${t.resource}`));
      report('event-union-payload-triggered', { name: k.name, trigger: [...new Set(trigger)].join(', ') }, joinPointer(k.pointer, 'payload'));
    }
  }
  const streamPath = ev.stream?.path;
  if (streamPath !== undefined) {
    const clash = (model.endpoints?.operations ?? []).find((o) => o.method === 'GET' && routeShape(o.path) === routeShape(streamPath));
    if (clash) report('route-conflict', { what: 'the event stream', path: streamPath, operation: clash.id }, '/events/delivery/stream/path');
  }
  // events (issue 5): the built-in webhook registration operations under events.delivery.webhook.path.
  const hookPath = ev.webhook?.path;
  if (hookPath !== undefined) {
    const served: [string, string][] = [
      ['POST', hookPath],
      ['GET', hookPath],
      ['DELETE', `${hookPath}/{id}`],
      ['POST', `${hookPath}/{id}/rotate`],
    ];
    for (const [method, path] of served) {
      const clash = (model.endpoints?.operations ?? []).find((o) => o.method === method && routeShape(o.path) === routeShape(path));
      if (clash) report('route-conflict', { what: 'the webhook registration', path, operation: clash.id }, '/events/delivery/webhook/path');
    }
    if (streamPath !== undefined && routeShape(streamPath) === routeShape(hookPath)) {
      report('route-conflict', { what: 'the webhook registration', path: hookPath, operation: 'the event stream' }, '/events/delivery/webhook/path');
    }
  }
  const declaredScopes = (model.authentication?.scopes ?? []).map((s) => s.name);
  (ev.webhook?.scopes ?? []).forEach((s, i) => {
    if (!declaredScopes.includes(s))
      report(
        'unknown-scope',
        { where: 'events.delivery.webhook', name: s, suggestion: suggestion(s, declaredScopes) },
        joinPointer('/events/delivery/webhook/scopes', i),
      );
  });
};

/** events.delivery.broker (check-broker.ts). */
const brokerRules: Rule = ({ model, report }) => checkBroker(model, report);
const responseHeaderRules: Rule = ({ model, report }) => {
  checkResponseHeaders(model, report);
  checkErrorHeaders(model, report);
};

const errorRules: Rule = ({ model, report }) => {
  const errs = model.errors;
  const owner = new Map<Condition, string>();
  for (const c of errs?.codes ?? []) {
    if (c.status < 400 || c.status > 599) report('error-status-not-error', { name: c.name, status: c.status }, joinPointer(c.pointer, 'status'));
    for (const cond of c.when) {
      const first = owner.get(cond);
      if (first !== undefined) report('duplicate-condition', { condition: cond, first, second: c.name }, joinPointer(c.pointer, 'when'));
      else owner.set(cond, c.name);
    }
  }
  for (const [cond, because] of getProducibleConditions(model)) {
    if (!owner.has(cond)) report('undeclared-condition', { condition: cond, because }, model.present.errors ? '/errors' : '');
  }
  if (errs?.body?.kind === 'declared') errorBodyRules(model, errs.body, report);
};

/** A declared error body: the fields its roles name exist, can hold what the runtime writes there, and nothing required is left empty. */
function errorBodyRules(model: ServiceModel, body: DeclaredErrorBodyModel, report: Report): void {
  const roles = getErrorBodyRoles(body);
  // Every field's path, for a suggestion: the body's own and those nested in its object fields.
  const paths: string[] = [];
  const walk = (fields: readonly FieldModel[], under: string) => {
    for (const f of fields) {
      paths.push(under + f.name);
      if (f.type === 'object' && f.fields) walk(f.fields, `${under}${f.name}.`);
    }
  };
  walk(body.fields, '');
  for (const role of ['code', 'status', 'message'] as const) {
    const named = body[role];
    if (named !== undefined && roles[role] === undefined)
      report('error-body-field-unknown', { role, name: named, suggestion: suggestion(named, paths) }, joinPointer('/errors/body', role));
  }
  if (roles.code === undefined && body.code === undefined)
    report(
      'error-body-missing-field',
      {
        field: 'code',
        detail: 'the runtime writes the error code there (or name the field that carries it in `errors.body.code`, a nested one by its path: `error.code`)',
      },
      '/errors/body',
    );
  const codes = model.errors?.codes ?? [];
  const misfit = (f: FieldModel, path: readonly string[], role: string, kinds: readonly string[], values: readonly (string | number)[]) => {
    const at = (kind: string) => report('error-body-field-type', { field: path.join('.'), role, type: f.type, detail: kind }, f.pointer);
    if (!kinds.includes(f.type)) return at(`it must be ${kinds.join(' or ')}`);
    const bad = values.find((v) => !fitsField(f, v));
    if (bad !== undefined) at(`its constraints refuse ${JSON.stringify(bad)}, which the runtime writes there`);
  };
  const statuses = [...new Set(codes.map((c) => c.status))];
  if (roles.code) {
    const integer = roles.code.type === 'integer' || roles.code.type === 'number';
    misfit(roles.code, roles.at.code!, 'the error code', ERROR_ROLE_TYPES.code, integer ? statuses : codes.map((c) => c.name));
  }
  if (roles.status) misfit(roles.status, roles.at.status!, 'the HTTP status', ERROR_ROLE_TYPES.status, statuses);
  if (roles.message) misfit(roles.message, roles.at.message!, 'the message', ERROR_ROLE_TYPES.message, []);
  if (!/^application\/(json|[^/;\s]+\+json)$/i.test(roles.mediaType))
    report('error-body-media-type', { mediaType: roles.mediaType }, '/errors/body/media_type');
  // The body's required fields, and those of each object a nested role is in (written whenever an error is).
  for (const { field, path } of getUnfilledErrorFields(body, roles)) report('error-body-field-unfilled', { field: path }, field.pointer);
}

/** Whether a value the runtime writes meets a field's declared values and bounds. */
function fitsField(f: FieldModel, v: string | number): boolean {
  if (f.values !== undefined && !f.values.includes(v)) return false;
  if (typeof v === 'number') {
    if ((f.type === 'integer' && !Number.isInteger(v)) || (f.minimum !== undefined && v < f.minimum) || (f.maximum !== undefined && v > f.maximum))
      return false;
    if ((f.exclusiveMinimum !== undefined && v <= f.exclusiveMinimum) || (f.exclusiveMaximum !== undefined && v >= f.exclusiveMaximum)) return false;
    return f.multipleOf === undefined || v % f.multipleOf === 0;
  }
  if ((f.minLength !== undefined && v.length < f.minLength) || (f.maxLength !== undefined && v.length > f.maxLength)) return false;
  if (f.pattern !== undefined) {
    try {
      if (!new RegExp(f.pattern, 'u').test(v)) return false;
    } catch {
      return true; // invalid-pattern says so
    }
  }
  return true;
}

const limitRules: Rule = ({ model, report }) => {
  const l = model.limits;
  if (!l) return;
  if (l.pageSize?.default !== undefined && l.pageSize.max !== undefined && l.pageSize.default > l.pageSize.max) {
    report('page-size-default-above-max', { default: l.pageSize.default, max: l.pageSize.max, where: ' (limits.page_size)' }, '/limits/page_size/default');
  }
  const opIds = (model.endpoints?.operations ?? []).map((o) => o.id);
  const seen = new Map<string, number>();
  l.rate.forEach((r, i) => {
    (r.operations ?? []).forEach((op, j) => {
      if (!opIds.includes(op))
        report(
          'unknown-operation',
          { where: `limits.rate[${i}]`, name: op, suggestion: suggestion(op, opIds) },
          joinPointer(joinPointer(r.pointer, 'operations'), j),
        );
    });
    const key = `${r.by ?? ''}|${r.per.ms}|${[...(r.operations ?? [])].sort().join(',')}`;
    const first = seen.get(key);
    if (first !== undefined) report('duplicate-rate-limit', { first: `[${first}]`, second: `[${i}]` }, r.pointer);
    else seen.set(key, i);
  });
};

const VERSION_FORMS = {
  date: /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/,
  semver: /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?$/,
  integer: /^(0|[1-9]\d*)$/,
};

const versionRules: Rule = ({ model, report }) => {
  const v = model.versioning;
  if (!v) return;
  if ((v.current !== undefined || v.supported.length > 0) && !v.placement) report('missing-version-placement', {}, '/versioning');
  if (v.placement?.kind === 'path' && !v.placement.template.includes('{version}')) {
    report('version-placement-unused', { path: v.placement.template, version: '{version}' }, '/versioning/placement/path');
  }
  if (v.placement?.kind === 'media_type') {
    const problem = getMediaTypeTemplateProblem(v.placement.template);
    if (problem !== undefined) report('version-media-type-invalid', { template: v.placement.template, problem }, '/versioning/placement/media_type');
  }
  const all = [
    ...(v.current !== undefined ? [{ version: v.current, pointer: '/versioning/current' }] : []),
    ...v.supported.map((s) => ({ version: s.version, pointer: joinPointer(s.pointer, 'version') })),
  ];
  const seen = new Set<string>();
  for (const { version, pointer } of all) {
    if (v.scheme && !VERSION_FORMS[v.scheme].test(version))
      report('invalid-version', { where: pointer.slice(1).replace(/\//g, '.'), version, scheme: v.scheme }, pointer);
    if (seen.has(version)) report('duplicate-version', { version }, pointer);
    seen.add(version);
  }
  for (const s of v.supported) {
    if (
      v.scheme &&
      v.current !== undefined &&
      VERSION_FORMS[v.scheme].test(s.version) &&
      VERSION_FORMS[v.scheme].test(v.current) &&
      compareVersions(v.scheme, s.version, v.current) >= 0 &&
      s.version !== v.current
    ) {
      report('version-order', { version: s.version, current: v.current }, joinPointer(s.pointer, 'version'));
    }
    if (s.deprecated !== undefined && s.sunset !== undefined && s.sunset < s.deprecated) {
      report('sunset-before-deprecation', { version: s.version, sunset: s.sunset, deprecated: s.deprecated }, joinPointer(s.pointer, 'sunset'));
    }
    for (const c of s.changes) {
      if (c.resource === undefined) continue;
      const r = getResource(model, c.resource);
      if (!r)
        report(
          'unknown-resource',
          { where: `version ${s.version} change`, name: c.resource, suggestion: suggestion(c.resource, names(model.resources)) },
          s.pointer,
        );
      else if (c.kind === 'rename_field' && c.to !== undefined) {
        // The new name is the next newer version's: the current one's, unless a later version renamed it again.
        const newer = getResource(getNextVersionModel(model, s.version), c.resource) ?? r;
        if (!getField(newer, c.to))
          report(
            'unknown-field',
            { where: `version ${s.version} rename_field.to`, name: c.to, resource: r.name, suggestion: suggestion(c.to, names(newer.fields)) },
            s.pointer,
          );
      }
    }
  }
};

/** The model as the version after `version` (among the current and supported ones) sees it; the current model for the newest. */
function getNextVersionModel(model: ServiceModel, version: string): ServiceModel {
  const v = model.versioning;
  if (!v) return model;
  const scheme = v.scheme ?? 'date';
  const newer = [...(v.current !== undefined ? [v.current] : []), ...v.supported.map((s) => s.version)]
    .filter((x) => compareVersions(scheme, x, version) > 0)
    .sort((a, b) => compareVersions(scheme, a, b));
  return (newer[0] === undefined ? undefined : getVersionModel(model, newer[0])) ?? model;
}

const versionHistoryRules: Rule = ({ model, report }) => {
  for (const u of getUnshownChanges(model)) report('version-change-not-shown', { version: u.version, change: u.change, detail: u.detail }, u.pointer);
  // An older version's create is validated in its own shape; a required field it does not have cannot be filled.
  const creates = new Set((model.endpoints?.operations ?? []).filter((o) => o.action === 'create' && o.resource !== undefined).map((o) => o.resource!));
  for (const s of model.versioning?.supported ?? []) {
    if (s.version === model.versioning?.current) continue;
    for (const resource of creates) {
      const r = getResource(model, resource);
      for (const f of getFieldsAddedSince(model, s.version, resource)) {
        if (!mayLeaveOut(f, 'create') && isWritable(r, f, 'create'))
          report('version-field-required', { version: s.version, resource, field: f.name }, f.pointer);
      }
    }
  }
};

/** Spec paths under the prefix the service keeps for its own routes (health, documents, console). */
const reservedPathRules: Rule = ({ model, report }) => {
  const reported = new Set<string>();
  for (const r of getRouteHeads(model)) {
    if (!isReservedPath(r.path)) continue;
    const [what, pointer] =
      r.kind === 'operation'
        ? [`operation ${r.operation.id}`, joinPointer(r.operation.pointer, 'path')]
        : r.kind === 'token'
          ? [`the token endpoint of scheme ${r.scheme.name}`, joinPointer(r.scheme.pointer, 'token_path')]
          : r.kind === 'stream'
            ? ['the event stream', '/events/delivery/stream/path']
            : ['the webhook registration', '/events/delivery/webhook/path'];
    if (reported.has(what)) continue;
    reported.add(what);
    report('reserved-path', { what, path: r.path, prefix: RESERVED_PREFIX }, pointer);
  }
};

/**
 * Names that differ only in case: SQLite compares table and column names without case, so `Pet` and `pet` (or
 * fields `name` and `Name`) would be one table or column; the generated client's types would collide too.
 */
const caseClashRules: Rule = ({ model, report }) => {
  const clash = (items: readonly { name: string; pointer: string }[], what: string): void => {
    const seen = new Map<string, string>();
    for (const i of items) {
      const key = i.name.toLowerCase();
      const first = seen.get(key);
      if (first === undefined) seen.set(key, i.name);
      else report('name-case-clash', { what, first, second: i.name }, i.pointer);
    }
  };
  clash(model.resources, 'resources');
  for (const r of model.resources) clash(r.fields, `fields of resource ${r.name}`);
};

const callbackRules: Rule = ({ model, report }) => checkCallbacks(model, report);
const exampleRules: Rule = ({ model, report }) => checkExamples(model, report);
const pathBindingRules: Rule = ({ model, report }) => (checkUniqueKeys(model, report), checkParents(model, report), checkPathBindings(model, report));

/** A request's JSON media type (`request_media_type`): application/json or an application/…+json type, no parameters. */
const JSON_REQUEST_TYPE = /^application\/([a-z0-9][a-z0-9.-]*\+)?json$/i;

/** Field types a form (`application/x-www-form-urlencoded`) cannot carry as text, as for query parameters. */
const UNFORMABLE_TYPES: ReadonlySet<string> = new Set(['object', 'map', 'json', 'union', 'ref', 'state']);

/** `media_type` only on a custom operation's request; a form request of written-out fields a form can carry. */
const requestMediaTypeRules: Rule = ({ model, report }) => {
  for (const o of model.endpoints?.operations ?? []) {
    const at = (which: string) => joinPointer(joinPointer(o.pointer, which), 'media_type');
    if (o.response?.mediaType !== undefined)
      report('request-form-invalid', { operation: o.id, detail: '`media_type` is for a request, not a response (answers are JSON)' }, at('response'));
    const r = o.request;
    if (r?.mediaType === undefined) continue;
    if (o.action !== 'custom') {
      report(
        'request-form-invalid',
        { operation: o.id, detail: `\`media_type\` is for custom operations; the built-in ${o.action} action reads JSON` },
        at('request'),
      );
      continue;
    }
    if (r.mediaType !== FORM_MEDIA_TYPE) continue;
    if (r.fields === undefined || r.list || r.union)
      report('request-form-invalid', { operation: o.id, detail: 'a form request is written-out `fields` (not a resource, a union or a list)' }, at('request'));
    for (const f of r.fields ?? [])
      if (UNFORMABLE_TYPES.has(f.type) || (f.type === 'array' && (f.items === undefined || UNFORMABLE_TYPES.has(f.items.type) || f.items.type === 'array')))
        report('request-form-invalid', { operation: o.id, detail: `form field \`${f.name}\` of type ${f.type} cannot be sent as form text` }, f.pointer);
  }
  for (const o of model.endpoints?.operations ?? []) {
    const type = o.requestMediaType;
    if (type === undefined) continue;
    // A custom operation's JSON request may be sent as another JSON type (an imported merge-patch PATCH the format
    // cannot make an update); a form's names its `media_type`, and `request: none` has no body.
    const custom = o.action === 'custom' && o.request !== undefined && o.request.mediaType === undefined;
    const detail =
      !REQUEST_FIELD_ACTIONS.has(o.action) && !custom
        ? `\`request_media_type\` is for create, update, replace and a custom operation's JSON request; a ${o.action} ${o.action === 'custom' ? (o.request?.mediaType !== undefined ? "names its request's `media_type`" : 'takes no body') : 'reads JSON'}`
        : !JSON_REQUEST_TYPE.test(type)
          ? `\`${type}\` is not a JSON media type (application/json or application/…+json, without parameters)`
          : type.toLowerCase() === 'application/json-patch+json'
            ? 'a JSON Patch (RFC 6902) is a list of operations, no body the format reads: an update takes the changed fields, or a JSON merge patch (application/merge-patch+json)'
            : type.toLowerCase() === MERGE_PATCH_MEDIA_TYPE && o.action !== 'update' && o.action !== 'custom'
              ? `a JSON merge patch (${MERGE_PATCH_MEDIA_TYPE}) changes an object: it is an update's, not a ${o.action}'s`
              : model.versioning?.placement?.kind === 'media_type'
                ? 'a request names its version by its media type (versioning.placement), so it cannot state another'
                : undefined;
    if (detail !== undefined) report('request-media-type-invalid', { operation: o.id, detail }, joinPointer(o.pointer, 'request_media_type'));
  }
  for (const k of model.events?.kinds ?? [])
    if (k.payload?.mediaType !== undefined)
      report(
        'request-form-invalid',
        { operation: `event ${k.name}`, detail: '`media_type` is for a request, not an event payload' },
        joinPointer(k.pointer, 'payload'),
      );
};
const envelopeRules: Rule = ({ model, report }) => checkEnvelopes(model, report, getValueProblem);

export const RULES: readonly Rule[] = [
  nameStyleRules,
  caseClashRules,
  reservedPathRules,
  fieldRules,
  unionShapeRules,
  resourceVariantRules,
  parameterRules,
  responseHeaderRules,
  wireNameRules,
  resourceRules,
  stateRules,
  operationRules,
  callbackRules,
  exampleRules,
  pathBindingRules,
  requestMediaTypeRules,
  envelopeRules,
  authRules,
  eventRules,
  eventVisibilityRules,
  brokerRules,
  errorRules,
  limitRules,
  versionRules,
  versionHistoryRules,
];

/** Runs every semantic rule; diagnostics carry JSON pointers, to be placed by the caller. */
export function checkModel(model: ServiceModel, doc: SpecDocument): Diagnostic[] {
  const out: Diagnostic[] = [];
  const report: Report = (code, params, pointer) => out.push(createDiagnostic(code, params, { pointer }));
  for (const rule of RULES) rule({ model, doc, report });
  // Warnings the spec turns off (check.disable), as a linter's configuration turns a rule off.
  const off = new Set<string>(doc.check?.disable ?? []);
  return off.size > 0 ? out.filter((d) => !off.has(d.code)) : out;
}

/** Whether a resource has a create and each of its creates binds the field to its path (`bind`): the path gives it. */
function isBoundByEveryCreate(ops: readonly OperationModel[], field: string): boolean {
  const creates = ops.filter((o) => o.action === 'create');
  return creates.length > 0 && creates.every((o) => o.bindings?.some((b) => b.field === field) === true);
}
