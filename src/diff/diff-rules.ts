// The comparison of two frozen models. Each rule reads the old and the new model and reports changes with
// a code from DIFF_RULES; positions are added later from the two specs' source maps (diff-run.ts).
import { describeEnvelope, getEnvelopeKey, REQUEST_ENVELOPED_ACTIONS } from '../model/model-envelope.js';
import { getCreateLocation, getOperationRoute, isIdempotentOperation, LIST_PARAMS, PAGING_ROLES } from '../model/model-routes.js';
import { getPageSize, getResource, getResourceRenames, getStateField } from '../model/model-lookup.js';
import { ADDRESSING_ACTIONS } from '../model/model-path-bindings.js';
import {
  FORM_MEDIA_TYPE,
  getApiKeyPlacement,
  getRequestMediaType,
  getPagingParamName,
  getErrorBodyRoles,
  getUnknownFields,
  isNullableInRequests,
  isRawEvent,
  mayLeaveOut,
  NOT_SHOWN,
  getFirstPage,
} from '../model/model-defaults.js';
import { getListItemSchema, getRequestSchema, getResourceSchema, getSchemaMembers, isWritable } from '../model/model-schemas.js';
import { compareVersions } from '../model/model-versions.js';
import type {
  AuthRequirement,
  DeclaredErrorBodyModel,
  EventKindModel,
  FieldModel,
  OperationModel,
  RateLimitModel,
  ResourceModel,
  SchemeModel,
  ServiceModel,
  ShapeModel,
  StateMachineModel,
  UnionModel,
  VersionChangeModel,
  VersionPlacementModel,
  PageMemberModel,
} from '../model/model-types.js';
import { joinPointer } from '../util/util-json-pointer.js';
import type { PartName } from '../spec/spec-types.js';
import { DIFF_RULES, formatReason, type Change, type ChangeParams, type DiffRuleCode, type Impact } from './diff-catalogue.js';

interface Where {
  old?: string;
  new?: string;
  part?: PartName;
}

class Collector {
  readonly changes: Change[] = [];
  constructor(
    private readonly oldFile: string,
    private readonly newFile: string,
  ) {}

  add(code: DiffRuleCode, subject: string, params: ChangeParams, where: Where): void {
    const rule = DIFF_RULES[code];
    const change: Change = { code, impact: rule.impact, part: where.part ?? rule.part, subject, reason: formatReason(code, { subject, ...params }) };
    if (where.old !== undefined) change.old = { file: this.oldFile, pointer: where.old };
    if (where.new !== undefined) change.new = { file: this.newFile, pointer: where.new };
    this.changes.push(change);
  }
}

const RANK: Readonly<Record<Impact, number>> = { breaking: 0, 'needs-review': 1, 'non-breaking': 2 };

function byName<T extends { name: string }>(items: readonly T[]): Map<string, T> {
  return new Map(items.map((i) => [i.name, i]));
}

function show(value: unknown): string {
  if (value === undefined) return NOT_SHOWN;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

// ─── fields ────────────────────────────────────────────────────────────────────────────────────────────

/** How a field travels: whether clients send it (and must), and whether they read it. */
interface Flow {
  request: boolean;
  requestRequired: boolean;
  response: boolean;
}

interface FieldContext {
  part: PartName;
  /** Query parameters (a GET custom operation's request fields). */
  query?: boolean;
  /** Resource-level rules (unique, write-once, default) apply. */
  resource?: boolean;
}

interface Finding {
  aspect: string;
  code: DiffRuleCode;
  params: ChangeParams;
}

const WIDER: Readonly<Record<string, readonly string[]>> = {
  number: ['integer'],
  string: ['date', 'datetime', 'uuid', 'email', 'uri', 'enum'],
};

function typeKey(f: FieldModel): string {
  return f.type === 'ref' ? `ref to ${f.to ?? '?'}` : f.type;
}

function isWidened(o: FieldModel, n: FieldModel): boolean {
  if (!(WIDER[n.type] ?? []).includes(o.type)) return false;
  return o.type !== 'enum' || (o.values ?? []).every((v) => typeof v === 'string');
}

const LOWER = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems'] as const;
const UPPER = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems'] as const;

/** Each constraint that changed, and whether it now accepts fewer values (tightened) or more. */
function constraintChanges(o: FieldModel, n: FieldModel): { constraint: string; old: unknown; new: unknown; tightened: boolean; pattern?: boolean }[] {
  const out: { constraint: string; old: unknown; new: unknown; tightened: boolean; pattern?: boolean }[] = [];
  for (const k of LOWER) {
    const a = o[k];
    const c = n[k];
    if (a === c) continue;
    out.push({ constraint: k, old: a, new: c, tightened: c !== undefined && (a === undefined || c > a) });
  }
  for (const k of UPPER) {
    const a = o[k];
    const c = n[k];
    if (a === c) continue;
    out.push({ constraint: k, old: a, new: c, tightened: c !== undefined && (a === undefined || c < a) });
  }
  if (o.multipleOf !== n.multipleOf) {
    const a = o.multipleOf;
    const c = n.multipleOf;
    const loosened = c === undefined || (a !== undefined && Number.isInteger(a / c));
    out.push({ constraint: 'multipleOf', old: a, new: c, tightened: !loosened });
  }
  if ((o.uniqueItems ?? false) !== (n.uniqueItems ?? false))
    out.push({ constraint: 'uniqueItems', old: o.uniqueItems ?? false, new: n.uniqueItems ?? false, tightened: n.uniqueItems === true });
  if (o.pattern !== n.pattern)
    out.push({
      constraint: 'pattern',
      old: o.pattern,
      new: n.pattern,
      tightened: n.pattern !== undefined,
      pattern: o.pattern !== undefined && n.pattern !== undefined,
    });
  return out;
}

/** A field's definition without its name, place and prose: two fields with the same signature are the same field. */
function signature(f: FieldModel): string {
  return JSON.stringify(f, (k, v: unknown) =>
    k === 'name' || k === 'pointer' || k === 'description' || k === 'example' || k === 'hasExample' ? undefined : v,
  );
}

class FieldDiff {
  constructor(
    private readonly out: Collector,
    private readonly ctx: FieldContext,
  ) {}

  private emit(findings: Finding[], subject: string, where: Where): void {
    const best = new Map<string, Finding>();
    for (const f of findings) {
      const prev = best.get(f.aspect);
      if (!prev || RANK[DIFF_RULES[f.code].impact] < RANK[DIFF_RULES[prev.code].impact]) best.set(f.aspect, f);
    }
    for (const f of best.values()) this.out.add(f.code, subject, f.params, { ...where, part: this.ctx.part });
  }

  /** Two lists of sibling fields; `renames` maps an old name to a new one the new spec declares renamed. */
  fields(
    prefix: string,
    olds: readonly FieldModel[],
    news: readonly FieldModel[],
    oldFlow: (f: FieldModel) => Flow,
    newFlow: (f: FieldModel) => Flow,
    renames: ReadonlyMap<string, string> = new Map(),
  ): void {
    const oldBy = byName(olds);
    const newBy = byName(news);
    const removed = olds.filter((f) => !newBy.has(f.name));
    const added = news.filter((f) => !oldBy.has(f.name));
    const renamed = new Map<string, string>();
    for (const r of removed) {
      const declared = renames.get(r.name);
      if (declared !== undefined && added.some((a) => a.name === declared)) {
        renamed.set(r.name, declared);
        continue;
      }
      const sig = signature(r);
      const same = added.filter((a) => signature(a) === sig && ![...renamed.values()].includes(a.name));
      const rivals = removed.filter((x) => x !== r && signature(x) === sig);
      if (same.length === 1 && rivals.length === 0) renamed.set(r.name, same[0]!.name);
    }
    const renamedTo = new Set(renamed.values());
    for (const o of olds) {
      const n = newBy.get(o.name);
      const to = renamed.get(o.name);
      if (n) this.field(`${prefix}${o.name}`, o, n, oldFlow(o), newFlow(n));
      else if (to !== undefined) {
        this.out.add('field-renamed', `${prefix}${o.name}`, { old: o.name, new: to }, { old: o.pointer, new: newBy.get(to)!.pointer, part: this.ctx.part });
      } else this.removed(`${prefix}${o.name}`, o, oldFlow(o));
    }
    for (const n of news) if (!oldBy.has(n.name) && !renamedTo.has(n.name)) this.added(`${prefix}${n.name}`, n, newFlow(n));
  }

  private added(subject: string, n: FieldModel, flow: Flow): void {
    const findings: Finding[] = [];
    if (flow.request) {
      const code = flow.requestRequired ? (this.ctx.query ? 'required-parameter-added' : 'request-field-added-required') : 'request-field-added';
      findings.push({ aspect: 'presence', code, params: {} });
    }
    if (flow.response) findings.push({ aspect: 'presence', code: 'response-field-added', params: {} });
    this.emit(findings, subject, { new: n.pointer });
  }

  private removed(subject: string, o: FieldModel, flow: Flow): void {
    const findings: Finding[] = [];
    if (flow.response) findings.push({ aspect: 'presence', code: o.optional ? 'response-optional-field-removed' : 'response-field-removed', params: {} });
    if (flow.request) findings.push({ aspect: 'presence', code: 'request-field-removed', params: {} });
    this.emit(findings, subject, { old: o.pointer });
  }

  private field(subject: string, o: FieldModel, n: FieldModel, of: Flow, nf: Flow): void {
    const where = { old: o.pointer, new: n.pointer };
    const findings: Finding[] = [];
    const req = of.request && nf.request;
    const res = of.response && nf.response;
    if (typeKey(o) !== typeKey(n)) {
      const params = { old: typeKey(o), new: typeKey(n) };
      if (req) findings.push({ aspect: 'type', code: isWidened(o, n) ? 'request-field-type-widened' : 'request-field-type-changed', params });
      if (res) findings.push({ aspect: 'type', code: 'response-field-type-changed', params });
      if (!req && !res && (of.request || of.response) && (nf.request || nf.response))
        findings.push({ aspect: 'type', code: 'response-field-type-changed', params });
      this.emit(findings, subject, where);
      return;
    }
    // In requests.
    if (of.request && !nf.request) {
      findings.push({ aspect: 'request', code: n.readOnly && !o.readOnly ? 'request-field-became-read-only' : 'request-field-removed', params: {} });
    } else if (!of.request && nf.request) {
      const code = nf.requestRequired
        ? this.ctx.query
          ? 'required-parameter-added'
          : 'request-field-added-required'
        : o.readOnly && !n.readOnly
          ? 'request-field-became-writable'
          : 'request-field-added';
      findings.push({ aspect: 'request', code, params: {} });
    } else if (req) {
      if (!of.requestRequired && nf.requestRequired) findings.push({ aspect: 'required', code: 'request-field-became-required', params: {} });
      if (of.requestRequired && !nf.requestRequired) findings.push({ aspect: 'required', code: 'request-field-became-optional', params: {} });
    }
    // In responses.
    if (res) {
      if (!o.optional && n.optional) findings.push({ aspect: 'required', code: 'response-field-became-optional', params: {} });
      if (o.optional && !n.optional) findings.push({ aspect: 'required', code: 'response-field-became-required', params: {} });
    }
    // `nullable: answers` is nullable in responses only.
    if (req && isNullableInRequests(o) !== isNullableInRequests(n))
      findings.push({ aspect: 'nullable', code: isNullableInRequests(n) ? 'request-field-became-nullable' : 'request-field-became-not-nullable', params: {} });
    if (res && o.nullable !== n.nullable)
      findings.push({ aspect: 'nullable', code: n.nullable ? 'response-field-became-nullable' : 'response-field-became-not-nullable', params: {} });
    for (const c of constraintChanges(o, n)) {
      const params = { constraint: c.constraint, old: show(c.old), new: show(c.new) };
      const aspect = `constraint ${c.constraint}`;
      if (req) {
        const code = c.pattern ? 'request-field-pattern-changed' : c.tightened ? 'request-field-constraint-tightened' : 'request-field-constraint-loosened';
        findings.push({ aspect, code, params });
      }
      if (res)
        findings.push({ aspect, code: c.tightened && !c.pattern ? 'response-field-constraint-tightened' : 'response-field-constraint-loosened', params });
    }
    if (o.type === 'enum') {
      const ov = new Set(o.values ?? []);
      const nv = new Set(n.values ?? []);
      for (const v of ov) {
        if (nv.has(v)) continue;
        if (req) findings.push({ aspect: `enum ${v}`, code: 'request-field-enum-value-removed', params: { value: show(v) } });
        if (res) findings.push({ aspect: `enum ${v}`, code: 'response-field-enum-value-removed', params: { value: show(v) } });
      }
      for (const v of nv) {
        if (ov.has(v)) continue;
        if (req) findings.push({ aspect: `enum ${v}`, code: 'request-field-enum-value-added', params: { value: show(v) } });
        if (res) findings.push({ aspect: `enum ${v}`, code: 'response-field-enum-value-added', params: { value: show(v) } });
      }
    }
    if (this.ctx.resource) {
      if (o.hasDefault && n.hasDefault && JSON.stringify(o.default) !== JSON.stringify(n.default) && nf.request) {
        findings.push({ aspect: 'default', code: 'field-default-changed', params: { old: show(o.default), new: show(n.default) } });
      }
      if (!o.unique && n.unique) findings.push({ aspect: 'unique', code: 'field-became-unique', params: {} });
      if (o.unique && !n.unique) findings.push({ aspect: 'unique', code: 'field-no-longer-unique', params: {} });
      if (!o.writeOnce && n.writeOnce && nf.request) findings.push({ aspect: 'writeOnce', code: 'field-became-write-once', params: {} });
      if (o.writeOnce && !n.writeOnce && nf.request) findings.push({ aspect: 'writeOnce', code: 'field-no-longer-write-once', params: {} });
      if (!o.writeOnly && n.writeOnly) findings.push({ aspect: 'writeOnly', code: 'field-became-write-only', params: {} });
      if (o.writeOnly && !n.writeOnly) findings.push({ aspect: 'writeOnly', code: 'field-no-longer-write-only', params: {} });
    }
    this.emit(findings, subject, where);
    const nested = (f: Flow, child: FieldModel): Flow => ({ request: f.request, requestRequired: f.request && !mayLeaveOut(child), response: f.response });
    if (o.items && n.items) {
      const oi = o.items;
      const ni = n.items;
      new FieldDiff(this.out, { ...this.ctx, resource: false }).field(
        `${subject}${n.type === 'map' ? '.*' : '[]'}`,
        oi,
        ni,
        nested(of, { ...oi, optional: false }),
        nested(nf, { ...ni, optional: false }),
      );
    }
    if (o.fields || n.fields) {
      new FieldDiff(this.out, { ...this.ctx, resource: false }).fields(
        `${subject}.`,
        o.fields ?? [],
        n.fields ?? [],
        (c) => nested(of, c),
        (c) => nested(nf, c),
      );
    }
    if (o.union && n.union) this.union(subject, o.union, n.union, of, nf, where);
  }

  /**
   * Two unions: the discriminator, variants removed (breaking), added (breaking where clients send the union, additive
   * where they only read it), a variant's tag, and each kept variant's fields (by variant name).
   */
  union(subject: string, o: UnionModel, n: UnionModel, of: Flow, nf: Flow, where: Where): void {
    if (o.discriminator !== n.discriminator)
      this.out.add('union-discriminator-changed', subject, { old: show(o.discriminator), new: show(n.discriminator) }, { ...where, part: this.ctx.part });
    const news = byName(n.variants);
    const olds = byName(o.variants);
    for (const ov of o.variants) {
      const nv = news.get(ov.name);
      if (!nv) {
        this.out.add('union-variant-removed', subject, { value: ov.name }, { old: ov.pointer, part: this.ctx.part });
        continue;
      }
      if (o.discriminator === n.discriminator && ov.tag !== nv.tag)
        this.out.add(
          'union-variant-tag-changed',
          subject,
          { value: ov.name, old: show(ov.tag), new: show(nv.tag) },
          { old: ov.pointer, new: nv.pointer, part: this.ctx.part },
        );
      const nested = (f: Flow, child: FieldModel): Flow => ({ request: f.request, requestRequired: f.request && !mayLeaveOut(child), response: f.response });
      new FieldDiff(this.out, { ...this.ctx, resource: false }).fields(
        `${subject}<${ov.name}>.`,
        ov.fields,
        nv.fields,
        (c) => nested(of, c),
        (c) => nested(nf, c),
      );
    }
    for (const nv of n.variants) {
      if (olds.has(nv.name)) continue;
      if (nf.request) this.out.add('request-union-variant-added', subject, { value: nv.name }, { new: nv.pointer, part: this.ctx.part });
      else if (nf.response) this.out.add('response-union-variant-added', subject, { value: nv.name }, { new: nv.pointer, part: this.ctx.part });
    }
  }
}

// ─── resources ─────────────────────────────────────────────────────────────────────────────────────────

interface Usage {
  create: boolean;
  replace: boolean;
  update: boolean;
  transitionFields: Set<string>;
  response: boolean;
}

/** For each resource, the request views clients write and whether clients read it, from the operations and events. */
function getUsage(model: ServiceModel): Map<string, Usage> {
  const usage = new Map<string, Usage>();
  const ops = model.endpoints?.operations ?? [];
  const conservative = ops.length === 0 && (model.events?.kinds.length ?? 0) === 0;
  for (const r of model.resources) {
    usage.set(r.name, { create: conservative, replace: false, update: false, transitionFields: new Set(), response: conservative });
  }
  const get = (name: string | undefined) => (name === undefined ? undefined : usage.get(name));
  for (const o of ops) {
    const u = get(o.resource);
    if (u) {
      if (o.action === 'create') u.create = true;
      if (o.action === 'replace') u.replace = true;
      if (o.action === 'update') u.update = true;
      if (o.action === 'transition' && o.transition !== undefined) {
        const t = model.stateMachines.find((m) => m.resource === o.resource)?.transitions.find((x) => x.name === o.transition);
        for (const f of t?.requires ?? []) u.transitionFields.add(f);
      }
      if (o.action !== 'delete' && o.action !== 'custom') u.response = true;
    }
    const req = get(o.request?.resource);
    if (req) req.create = true;
    const res = get(o.response?.resource);
    if (res) res.response = true;
  }
  for (const k of model.events?.kinds ?? []) {
    const u = get(k.payload?.resource);
    if (u) u.response = true;
  }
  return usage;
}

function resourceFlow(r: ResourceModel, u: Usage | undefined): (f: FieldModel) => Flow {
  return (f) => {
    if (!u) return { request: false, requestRequired: false, response: false };
    const create = u.create && isWritable(r, f, 'create');
    const replace = u.replace && isWritable(r, f, 'replace');
    const update = (u.update || u.transitionFields.has(f.name)) && isWritable(r, f, 'update');
    return {
      request: create || replace || update,
      // One answer for both: a create's where the resource has one (optionalInRequests: create leaves a replace's apart).
      requestRequired: create ? !mayLeaveOut(f, 'create') : replace && !mayLeaveOut(f, 'replace'),
      response: u.response,
    };
  };
}

/**
 * Renames the new spec declares for the versions between the old current version and the new one, and its fields'
 * own `renamedFrom` (the migrate's rename: the field is the same, stored values and all).
 */
function declaredRenames(oldModel: ServiceModel, newModel: ServiceModel, resource: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of getDeclaredChanges(oldModel, newModel) ?? []) {
    if (c.kind === 'rename_field' && c.resource === resource && c.from !== undefined && c.to !== undefined) out.set(c.from, c.to);
  }
  for (const f of getResource(newModel, resource)?.fields ?? []) for (const from of f.renamedFrom ?? []) if (!out.has(from)) out.set(from, f.name);
  return out;
}

function diffResources(out: Collector, o: ServiceModel, n: ServiceModel): void {
  const oldUsage = getUsage(o);
  const newUsage = getUsage(n);
  const newBy = byName(n.resources);
  const oldBy = byName(o.resources);
  for (const or of o.resources) {
    const nr = newBy.get(or.name);
    if (!nr) {
      out.add('resource-removed', or.name, {}, { old: or.pointer });
      continue;
    }
    const where = { old: or.pointer, new: nr.pointer };
    if (or.identifier !== nr.identifier) out.add('resource-identifier-changed', or.name, { old: show(or.identifier), new: show(nr.identifier) }, where);
    else if (or.identifierSource !== nr.identifierSource)
      out.add('resource-identifier-source-changed', or.name, { old: or.identifierSource, new: nr.identifierSource }, where);
    // Answers that may hold members the resource does not name: a client that refuses unknown members breaks on them.
    if (or.answerMembers !== nr.answerMembers) out.add(nr.answerMembers === 'open' ? 'answer-members-opened' : 'answer-members-named', or.name, {}, where);
    // Conditional requests: a client relying on If-Match to change only what it read loses that guard without them.
    if ((or.etag === true) !== (nr.etag === true))
      out.add(
        nr.etag ? 'etag-added' : 'etag-removed',
        or.name,
        {},
        { old: or.etag ? joinPointer(or.pointer, 'etag') : or.pointer, new: nr.etag ? joinPointer(nr.pointer, 'etag') : nr.pointer },
      );
    const keyText = (k: readonly string[]) => k.join(', ');
    const oldKeys = new Set((or.uniqueKeys ?? []).map(keyText));
    const newKeys = new Set((nr.uniqueKeys ?? []).map(keyText));
    for (const k of newKeys) if (!oldKeys.has(k)) out.add('unique-key-added', or.name, { key: k }, where);
    for (const k of oldKeys) if (!newKeys.has(k)) out.add('unique-key-removed', or.name, { key: k }, where);
    // A parent added, removed or changed (docs/format.md, "Resources under a parent"): breaking every way.
    if (or.parent !== nr.parent)
      out.add(
        'resource-parent-changed',
        or.name,
        { old: or.parent ?? 'no parent', new: nr.parent ?? 'no parent' },
        {
          old: or.parent !== undefined ? joinPointer(or.pointer, 'parent') : or.pointer,
          new: nr.parent !== undefined ? joinPointer(nr.pointer, 'parent') : nr.pointer,
        },
      );
    if (or.owner !== nr.owner) out.add('resource-owner-changed', or.name, { old: show(or.owner), new: show(nr.owner) }, where);
    else if (or.owner !== undefined && or.ownerAccess !== nr.ownerAccess)
      out.add('resource-owner-access-changed', or.name, { old: or.ownerAccess, new: nr.ownerAccess }, where);
    diffResourceVariants(out, or, nr, where);
    // A resource of several shapes: its shared fields and tag here, each kept variant's own fields below (by variant).
    const outside = (r: ResourceModel) => (r.variants === undefined ? r.fields : r.fields.filter((f) => f.ofVariants === undefined));
    new FieldDiff(out, { part: 'resources', resource: true }).fields(
      `${or.name}.`,
      outside(or),
      outside(nr),
      resourceFlow(or, oldUsage.get(or.name)),
      resourceFlow(nr, newUsage.get(nr.name)),
      declaredRenames(o, n, or.name),
    );
    const newVariants = byName(nr.variants?.variants ?? []);
    for (const ov of or.variants?.variants ?? []) {
      const nv = newVariants.get(ov.name);
      if (nv)
        new FieldDiff(out, { part: 'resources', resource: true }).fields(
          `${or.name}<${ov.name}>.`,
          ov.fields,
          nv.fields,
          resourceFlow(or, oldUsage.get(or.name)),
          resourceFlow(nr, newUsage.get(nr.name)),
        );
    }
  }
  for (const nr of n.resources) if (!oldBy.has(nr.name)) out.add('resource-added', nr.name, {}, { new: nr.pointer });
}

/**
 * A resource of several shapes (docs/format.md): its discriminator, and its variants by name — one removed is
 * breaking (its objects are no longer made or answered), one added needs review (answers may hold a shape old clients
 * do not know), a tag changed is breaking. Their fields are the resource's (flattened), compared by the field rules.
 */
function diffResourceVariants(out: Collector, or: ResourceModel, nr: ResourceModel, where: { old: string; new: string }): void {
  if (or.variants === undefined && nr.variants === undefined) return;
  const od = or.variants?.discriminator;
  const nd = nr.variants?.discriminator;
  if (od !== nd) {
    out.add('resource-discriminator-changed', or.name, { old: show(od), new: show(nd) }, where);
    return;
  }
  const news = byName(nr.variants?.variants ?? []);
  const olds = byName(or.variants?.variants ?? []);
  for (const ov of or.variants?.variants ?? []) {
    const nv = news.get(ov.name);
    if (!nv) out.add('resource-variant-removed', or.name, { value: ov.name }, { old: ov.pointer, new: nr.pointer });
    else if (ov.tag !== nv.tag)
      out.add('resource-variant-tag-changed', or.name, { value: ov.name, old: show(ov.tag), new: show(nv.tag) }, { old: ov.pointer, new: nv.pointer });
  }
  for (const nv of nr.variants?.variants ?? [])
    if (!olds.has(nv.name)) out.add('resource-variant-added', or.name, { value: nv.name }, { old: or.pointer, new: nv.pointer });
}

// ─── states ────────────────────────────────────────────────────────────────────────────────────────────

function diffStates(out: Collector, o: ServiceModel, n: ServiceModel): void {
  const newBy = new Map(n.stateMachines.map((m) => [m.resource, m]));
  const oldBy = new Map(o.stateMachines.map((m) => [m.resource, m]));
  for (const om of o.stateMachines) {
    const nm = newBy.get(om.resource);
    if (!nm) out.add('state-machine-removed', om.resource, {}, { old: om.pointer });
    else diffMachine(out, om, nm, getStateField(o, om), getStateField(n, nm));
  }
  for (const nm of n.stateMachines) if (!oldBy.has(nm.resource)) out.add('state-machine-added', nm.resource, {}, { new: nm.pointer });
}

function diffMachine(out: Collector, om: StateMachineModel, nm: StateMachineModel, oldField: string | undefined, newField: string | undefined): void {
  const where = { old: om.pointer, new: nm.pointer };
  const r = om.resource;
  if (oldField !== newField) out.add('state-field-changed', r, { old: show(oldField), new: show(newField) }, where);
  if (om.initial !== nm.initial) out.add('initial-state-changed', r, { old: show(om.initial), new: show(nm.initial) }, where);
  const newStates = byName(nm.states);
  const oldStates = byName(om.states);
  const statePtr = (m: StateMachineModel, s: string) => joinPointer(joinPointer(m.pointer, 'states'), s);
  for (const s of om.states) {
    const ns = newStates.get(s.name);
    const subject = `${r}.${s.name}`;
    if (!ns) out.add('state-removed', subject, {}, { old: statePtr(om, s.name) });
    else if (!s.terminal && ns.terminal) out.add('state-became-terminal', subject, {}, { old: statePtr(om, s.name), new: statePtr(nm, s.name) });
    else if (s.terminal && !ns.terminal) out.add('state-no-longer-terminal', subject, {}, { old: statePtr(om, s.name), new: statePtr(nm, s.name) });
  }
  for (const s of nm.states) if (!oldStates.has(s.name)) out.add('state-added', `${r}.${s.name}`, {}, { new: statePtr(nm, s.name) });
  const newT = byName(nm.transitions);
  const oldT = byName(om.transitions);
  for (const t of om.transitions) {
    const nt = newT.get(t.name);
    const subject = `${r}.${t.name}`;
    if (!nt) {
      out.add('transition-removed', subject, {}, { old: t.pointer });
      continue;
    }
    const w = { old: t.pointer, new: nt.pointer };
    for (const f of t.from) if (!nt.from.includes(f)) out.add('transition-from-narrowed', subject, { value: f }, w);
    for (const f of nt.from) if (!t.from.includes(f)) out.add('transition-from-widened', subject, { value: f }, w);
    if (t.to !== nt.to) out.add('transition-target-changed', subject, { old: t.to, new: nt.to }, w);
    for (const f of nt.requires) if (!t.requires.includes(f)) out.add('transition-requires-added', subject, { value: f }, w);
    for (const f of t.requires) if (!nt.requires.includes(f)) out.add('transition-requires-removed', subject, { value: f }, w);
    if (t.emits !== nt.emits) {
      if (t.emits === undefined) out.add('transition-emits-added', subject, { new: show(nt.emits) }, w);
      else out.add('transition-emits-changed', subject, { old: t.emits, new: nt.emits ?? 'nothing' }, w);
    }
  }
  for (const t of nm.transitions) if (!oldT.has(t.name)) out.add('transition-added', `${r}.${t.name}`, {}, { new: t.pointer });
}

// ─── endpoints ─────────────────────────────────────────────────────────────────────────────────────────

function normalPath(path: string): string {
  return path.replace(/\{[^{}]*\}/g, '{}');
}

function shapeText(s: ShapeModel | undefined): string {
  if (!s) return 'none';
  const base = s.resource !== undefined ? `resource ${s.resource}` : s.union ? 'a union of declared variants' : 'declared fields';
  // A form request (request.media_type) is another body on the wire: a client sending JSON is refused.
  const form = s.mediaType === FORM_MEDIA_TYPE ? ` sent as a form (${FORM_MEDIA_TYPE})` : '';
  return s.list ? `a list of ${base}${form}` : `${base}${form}`;
}

function requirementText(a: AuthRequirement | undefined): string {
  if (!a) return NOT_SHOWN;
  if (a.kind === 'none') return 'none';
  return `${a.schemes.join(' or ') || 'any scheme'}${a.scopes.length > 0 ? ` with ${a.scopes.join(', ')}` : ''}`;
}

/** Whether the new requirement refuses a request the old accepted (tightened) or accepts one it refused (loosened). */
function compareRequirements(o: AuthRequirement | undefined, n: AuthRequirement | undefined): { tightened: boolean; loosened: boolean } {
  if (o === undefined || n === undefined) return { tightened: o === undefined && n?.kind === 'required', loosened: n === undefined && o !== undefined };
  if (o.kind === 'none') return { tightened: n.kind === 'required', loosened: false };
  if (n.kind === 'none') return { tightened: false, loosened: true };
  const tightened = n.scopes.some((s) => !o.scopes.includes(s)) || o.schemes.some((s) => !n.schemes.includes(s));
  const loosened = o.scopes.some((s) => !n.scopes.includes(s)) || n.schemes.some((s) => !o.schemes.includes(s));
  return { tightened, loosened };
}

function diffEndpoints(out: Collector, o: ServiceModel, n: ServiceModel): void {
  const oe = o.endpoints;
  const ne = n.endpoints;
  if (oe?.baseUrl !== undefined && oe.baseUrl !== ne?.baseUrl)
    out.add(
      'base-url-changed',
      'base_url',
      { old: oe.baseUrl, new: show(ne?.baseUrl) },
      { old: '/endpoints/base_url', new: ne?.baseUrl !== undefined ? '/endpoints/base_url' : undefined },
    );
  const oh = oe?.idempotency?.header;
  const nh = ne?.idempotency?.header;
  if (oh !== undefined && oh.toLowerCase() !== (nh ?? '').toLowerCase())
    out.add(
      'idempotency-header-changed',
      'idempotency.header',
      { old: oh, new: show(nh) },
      { old: '/endpoints/idempotency', new: nh !== undefined ? '/endpoints/idempotency' : undefined },
    );
  const or = oe?.idempotency?.retention;
  const nr = ne?.idempotency?.retention;
  if (or && nr && nr.ms < or.ms)
    out.add(
      'idempotency-retention-shortened',
      'idempotency.retention',
      { old: or.text, new: nr.text },
      { old: '/endpoints/idempotency/retention', new: '/endpoints/idempotency/retention' },
    );

  const olds = oe?.operations ?? [];
  const news = ne?.operations ?? [];
  const newById = new Map(news.map((x) => [x.id, x]));
  const oldById = new Map(olds.map((x) => [x.id, x]));
  const pairs: [OperationModel, OperationModel][] = [];
  const unmatchedOld: OperationModel[] = [];
  for (const op of olds) {
    const np = newById.get(op.id);
    if (np) pairs.push([op, np]);
    else unmatchedOld.push(op);
  }
  const unmatchedNew = new Map<string, OperationModel[]>();
  for (const np of news) {
    if (oldById.has(np.id)) continue;
    const key = `${np.method} ${normalPath(np.path)}`;
    unmatchedNew.set(key, [...(unmatchedNew.get(key) ?? []), np]);
  }
  for (const op of unmatchedOld) {
    const candidates = unmatchedNew.get(`${op.method} ${normalPath(op.path)}`);
    const np = candidates?.shift();
    if (np) {
      out.add('operation-id-changed', op.id, { old: op.id, new: np.id }, { old: op.pointer, new: np.pointer });
      pairs.push([op, np]);
    } else out.add(op.deprecated ? 'deprecated-operation-removed' : 'operation-removed', op.id, {}, { old: op.pointer });
  }
  for (const list of unmatchedNew.values()) for (const np of list) out.add('operation-added', np.id, {}, { new: np.pointer });
  for (const [op, np] of pairs) diffOperation(out, o, n, op, np);
}

/**
 * The fields an operation's path parameters name, by position (a renamed parameter names the same field): \`bind\`,
 * else the identifier for an action that addresses one object.
 */
function getBoundFields(m: ServiceModel, o: OperationModel): string[] {
  const r = getResource(m, o.resource);
  return o.pathParams.map((p, i) => {
    if (o.bindings) return o.bindings.find((b) => b.param === p)?.field ?? '';
    return i === o.pathParams.length - 1 && r?.identifier !== undefined && ADDRESSING_ACTIONS.has(o.action) ? r.identifier : '';
  });
}

function sayBindings(o: OperationModel, fields: readonly string[]): string {
  return fields.some((f) => f !== '') ? fields.map((f, i) => `${o.pathParams[i]} → ${f === '' ? 'nothing' : f}`).join(', ') : 'no field';
}

/**
 * An operation's request_fields (either side declaring them): a field its request took and no longer takes is refused
 * in requests (breaking); one it now takes is additive, unless the request must send it. Only fields of the resource
 * its request view holds on both sides: a field added to or removed from the resource itself is the field rules'.
 */
function diffRequestFields(out: Collector, om: ServiceModel, nm: ServiceModel, o: OperationModel, n: OperationModel): void {
  const or = getResource(om, o.resource);
  const nr = getResource(nm, n.resource);
  if (!or || !nr || (o.action !== 'create' && o.action !== 'update' && o.action !== 'replace')) return;
  const view = o.action;
  const both = new Set(Object.keys(getSchemaMembers(getResourceSchema(om, or, view))));
  const inNew = new Set(Object.keys(getSchemaMembers(getResourceSchema(nm, nr, view))));
  for (const f of [...both]) if (!inNew.has(f)) both.delete(f);
  const before = getRequestSchema(om, or, o, view);
  const after = getRequestSchema(nm, nr, n, view);
  const took = new Set(Object.keys(getSchemaMembers(before)));
  const takes = new Set(Object.keys(getSchemaMembers(after)));
  const required = new Set((after.required as string[] | undefined) ?? []);
  const where = {
    old: o.requestFields ? joinPointer(o.pointer, 'request_fields') : o.pointer,
    new: n.requestFields ? joinPointer(n.pointer, 'request_fields') : n.pointer,
    part: 'endpoints' as const,
  };
  for (const f of both) {
    const subject = `${n.id} request.${f}`;
    if (took.has(f) && !takes.has(f)) out.add('request-field-removed', subject, {}, where);
    else if (!took.has(f) && takes.has(f)) out.add(required.has(f) ? 'request-field-added-required' : 'request-field-added', subject, {}, where);
  }
}

/**
 * A list's answer_fields (either side declaring them): a field of the resource its objects carried and no longer carry
 * is breaking (a client reading it finds none); one they now carry is additive. Only fields the resource answers on
 * both sides: a field added to or removed from the resource itself is the field rules'.
 */
function diffAnswerFields(out: Collector, om: ServiceModel, nm: ServiceModel, o: OperationModel, n: OperationModel): void {
  const or = getResource(om, o.resource);
  const nr = getResource(nm, n.resource);
  if (!or || !nr || o.action !== 'list') return;
  const both = new Set(Object.keys(getSchemaMembers(getResourceSchema(om, or, 'response'))));
  const inNew = new Set(Object.keys(getSchemaMembers(getResourceSchema(nm, nr, 'response'))));
  for (const f of [...both]) if (!inNew.has(f)) both.delete(f);
  const carried = new Set(Object.keys(getSchemaMembers(getListItemSchema(om, or, o))));
  const carries = new Set(Object.keys(getSchemaMembers(getListItemSchema(nm, nr, n))));
  const where = {
    old: o.answerFields ? joinPointer(o.pointer, 'answer_fields') : o.pointer,
    new: n.answerFields ? joinPointer(n.pointer, 'answer_fields') : n.pointer,
    part: 'endpoints' as const,
  };
  for (const f of both) {
    const subject = `${n.id} item.${f}`;
    if (carried.has(f) && !carries.has(f)) out.add('answer-field-removed', subject, {}, where);
    else if (!carried.has(f) && carries.has(f)) out.add('answer-field-added', subject, {}, where);
  }
}

/** A list's page sizes as they apply (its own paging.page_size over limits.page_size's), old and new. */
function diffListPageSize(out: Collector, om: ServiceModel, nm: ServiceModel, o: OperationModel, n: OperationModel): void {
  const a = getPageSize(om, o);
  const c = getPageSize(nm, n);
  const subject = `${n.id} paging.page_size`;
  // A key neither side's list states changes with limits.page_size, which says it once for every list.
  const own = (key: 'default' | 'max' | 'overMax') => o.paging?.pageSize?.[key] !== undefined || n.paging?.pageSize?.[key] !== undefined;
  if (own('max') && a.max !== c.max) {
    if (a.max === undefined) out.add('limit-set', `${subject}.max`, { new: String(c.max) }, { new: c.pointers.max });
    else if (c.max === undefined) out.add('limit-unset', `${subject}.max`, { old: String(a.max) }, { old: a.pointers.max });
    else
      out.add(
        c.max < a.max ? 'page-size-max-lowered' : 'limit-raised',
        `${subject}.max`,
        { old: String(a.max), new: String(c.max) },
        { old: a.pointers.max, new: c.pointers.max },
      );
  }
  if (own('default') && a.default !== undefined && c.default !== undefined && a.default !== c.default)
    out.add('page-size-default-changed', `${subject}.default`, { old: a.default, new: c.default }, { old: a.pointers.default, new: c.pointers.default });
  if (own('overMax') && a.overMax !== undefined && c.overMax !== undefined && a.overMax !== c.overMax)
    out.add('page-over-max-changed', `${subject}.over_max`, { old: a.overMax, new: c.overMax }, { old: a.pointers.overMax, new: c.pointers.overMax });
}

function diffOperation(out: Collector, om: ServiceModel, nm: ServiceModel, o: OperationModel, n: OperationModel): void {
  const id = o.id;
  const w = { old: o.pointer, new: n.pointer };
  const at = (k: string) => ({ old: joinPointer(o.pointer, k), new: joinPointer(n.pointer, k) });
  if (o.method !== n.method) out.add('operation-method-changed', id, { old: o.method, new: n.method }, at('method'));
  if (o.path !== n.path) {
    if (normalPath(o.path) === normalPath(n.path)) out.add('path-parameter-renamed', id, { old: o.path, new: n.path }, at('path'));
    else out.add('operation-path-changed', id, { old: o.path, new: n.path }, at('path'));
  }
  if (o.action !== n.action) out.add('operation-action-changed', id, { old: o.action, new: n.action }, at('action'));
  else if (o.resource !== n.resource) out.add('operation-resource-changed', id, { old: show(o.resource), new: show(n.resource) }, at('resource'));
  else if (o.transition !== n.transition) out.add('operation-transition-changed', id, { old: show(o.transition), new: show(n.transition) }, at('transition'));
  // A range (`2XX`) is its own contract: 200 → 2XX lets the service answer any success status.
  const os = o.statusRange ?? o.status;
  const ns = n.statusRange ?? n.status;
  if (os !== ns) out.add('success-status-changed', id, { old: os, new: ns }, n.statusDeclared ? at('status') : w);
  for (const f of o.filter) if (!n.filter.includes(f)) out.add('filter-removed', id, { value: f }, at('filter'));
  for (const f of n.filter) if (!o.filter.includes(f)) out.add('filter-added', id, { value: f }, at('filter'));
  // A required filter (required_filters): a request without it is refused. A filter removed is filter-removed's alone.
  for (const f of n.requiredFilters ?? []) if (!o.requiredFilters?.includes(f)) out.add('filter-became-required', id, { value: f }, at('required_filters'));
  for (const f of o.requiredFilters ?? [])
    if (n.filter.includes(f) && !n.requiredFilters?.includes(f))
      out.add('filter-became-optional', id, { value: f }, at(n.requiredFilters ? 'required_filters' : 'filter'));
  for (const f of o.sort) if (!n.sort.includes(f)) out.add('sort-removed', id, { value: f }, at('sort'));
  for (const f of n.sort) if (!o.sort.includes(f)) out.add('sort-added', id, { value: f }, at('sort'));
  // A direction of a field still sorted on (`-created_at` where `+created_at` is now written): a value a client sends.
  for (const v of o.sortValues) if (!n.sortValues.includes(v) && n.sort.includes(v.replace(/^-/, ''))) out.add('sort-removed', id, { value: v }, at('sort'));
  for (const v of n.sortValues) if (!o.sortValues.includes(v) && o.sort.includes(v.replace(/^-/, ''))) out.add('sort-added', id, { value: v }, at('sort'));
  // The sort's name on the wire (sort_param): a request sending the old name is refused, wherever both sort.
  if (o.sort.length > 0 && n.sort.length > 0 && (o.sortParam ?? LIST_PARAMS.sort) !== (n.sortParam ?? LIST_PARAMS.sort))
    out.add(
      'sort-param-changed',
      id,
      { old: o.sortParam ?? LIST_PARAMS.sort, new: n.sortParam ?? LIST_PARAMS.sort },
      n.sortParam !== undefined ? at('sort_param') : at('sort'),
    );
  if ((o.requestFields !== undefined || n.requestFields !== undefined) && o.action === n.action && o.resource === n.resource)
    diffRequestFields(out, om, nm, o, n);
  if ((o.answerFields !== undefined || n.answerFields !== undefined) && o.action === n.action && o.resource === n.resource) diffAnswerFields(out, om, nm, o, n);
  // The one media type a create's, update's or replace's body is sent as (request_media_type): a client sending the
  // old type is refused (415), and a JSON merge patch reads a null otherwise than the format's update does.
  if (o.action === n.action && (o.requestMediaType !== undefined || n.requestMediaType !== undefined) && getRequestMediaType(o) !== getRequestMediaType(n))
    out.add('request-media-type-changed', id, { old: getRequestMediaType(o), new: getRequestMediaType(n) }, at('request_media_type'));
  // A request that dropped members it does not name and now refuses them breaks the clients that send them.
  if (o.action === n.action && getUnknownFields(o) !== getUnknownFields(n))
    out.add(
      getUnknownFields(n) === 'refuse' ? 'unknown-fields-refused' : 'unknown-fields-ignored',
      id,
      {},
      {
        old: o.unknownFields !== undefined ? joinPointer(o.pointer, 'unknown_fields') : o.pointer,
        new: n.unknownFields !== undefined ? joinPointer(n.pointer, 'unknown_fields') : n.pointer,
      },
    );
  // if_match: required: a client sending no If-Match is refused (428) with it.
  if ((o.ifMatch === 'required') !== (n.ifMatch === 'required'))
    out.add(
      n.ifMatch === 'required' ? 'if-match-required-added' : 'if-match-required-removed',
      id,
      {},
      { old: o.ifMatch ? joinPointer(o.pointer, 'if_match') : o.pointer, new: n.ifMatch ? joinPointer(n.pointer, 'if_match') : n.pointer },
    );
  // upsert: a client that makes objects by PUT to a new identifier is answered 404 without it.
  if (o.action === 'replace' && n.action === 'replace' && (o.upsert === true) !== (n.upsert === true))
    out.add(
      n.upsert ? 'upsert-added' : 'upsert-removed',
      id,
      {},
      { old: o.upsert ? joinPointer(o.pointer, 'upsert') : o.pointer, new: n.upsert ? joinPointer(n.pointer, 'upsert') : n.pointer },
    );
  if (o.paging && n.paging) {
    const a = o.paging;
    const b = n.paging;
    // The request's parameters and the answer's shape: a client written for one reads the other wrongly (`next?`:
    // left out on the last page, next_optional, where a client may wait for null).
    const shape = (p: typeof a) =>
      `${p.style}, ${p.body === 'array' ? 'a bare array' : `{ ${[p.items, ...(p.style === 'cursor' && p.next !== undefined ? [`${p.next}${p.nextOptional ? '?' : ''}`] : [])].join(', ')} }`}`;
    // The query parameters' names (paging.params): said only when either side renames one.
    const by = (p: typeof a) => PAGING_ROLES[p.style].map((role) => getPagingParamName(p, role)).join(' and ');
    const renamed = Object.keys(a.params).length > 0 || Object.keys(b.params).length > 0;
    // A header's name is compared without regard to case (RFC 9110): X-Total-Count and x-total-count are one.
    const header = (p: typeof a) => p.totalHeader?.toLowerCase();
    // paging.members, each a role at a path: one removed (or moved) is breaking, one added is not.
    const member = (m: PageMemberModel) => `${m.role} ${m.path.join('.')}`;
    const bMembers = new Set((b.members ?? []).map(member));
    const aMembers = new Set((a.members ?? []).map(member));
    if (
      shape(a) !== shape(b) ||
      by(a) !== by(b) ||
      (a.total !== undefined && a.total !== b.total) ||
      (a.totalHeader !== undefined && header(a) !== header(b)) ||
      (a.hasMore !== undefined && a.hasMore !== b.hasMore) ||
      (a.url !== undefined && a.url !== b.url) ||
      (a.nextLink !== undefined && a.nextLink !== b.nextLink) ||
      (a.previousLink !== undefined && a.previousLink !== b.previousLink) ||
      Object.entries(a.constants ?? {}).some(([k, v]) => b.constants?.[k] !== v) ||
      getFirstPage(a) !== getFirstPage(b) ||
      [...aMembers].some((m) => !bMembers.has(m)) ||
      (a.link && !b.link)
    ) {
      const say = (p: typeof a) =>
        `${shape(p)}${renamed && by(p) !== '' ? `, by ${by(p)}` : ''}${p.total !== undefined ? `, total ${p.total}` : ''}` +
        `${p.totalHeader !== undefined ? `, total in header ${p.totalHeader}` : ''}${p.hasMore !== undefined ? `, has_more ${p.hasMore}` : ''}` +
        `${Object.entries(p.constants ?? {})
          .map(([k, v]) => `, ${k} always ${JSON.stringify(v)}`)
          .join('')}${p.url !== undefined ? `, url ${p.url}` : ''}${p.nextLink !== undefined ? `, next_link ${p.nextLink}` : ''}` +
        `${p.previousLink !== undefined ? `, previous_link ${p.previousLink}` : ''}${p.link ? ', Link header' : ''}` +
        `${p.firstPage === 0 ? ', pages from 0' : ''}${(p.members ?? []).map((m) => `, ${m.role} ${m.path.join('.')}`).join('')}`;
      out.add('list-paging-changed', id, { old: say(a), new: say(b) }, at('paging'));
    } else {
      if (a.total === undefined && b.total !== undefined) out.add('list-paging-extended', id, { value: `the total \`${b.total}\`` }, at('paging'));
      if (!a.link && b.link) out.add('list-paging-extended', id, { value: 'a Link header to the next page' }, at('paging'));
      if (a.hasMore === undefined && b.hasMore !== undefined)
        out.add('list-paging-extended', id, { value: `\`${b.hasMore}\`, whether objects follow the page` }, at('paging'));
      if (a.totalHeader === undefined && b.totalHeader !== undefined)
        out.add('list-paging-extended', id, { value: `the total in a \`${b.totalHeader}\` header` }, at('paging'));
      if (a.url === undefined && b.url !== undefined) out.add('list-paging-extended', id, { value: `\`${b.url}\`, the list's address` }, at('paging'));
      if (a.nextLink === undefined && b.nextLink !== undefined)
        out.add('list-paging-extended', id, { value: `\`${b.nextLink}\`, the next page's address` }, at('paging'));
      if (a.previousLink === undefined && b.previousLink !== undefined)
        out.add('list-paging-extended', id, { value: `\`${b.previousLink}\`, the previous page's address` }, at('paging'));
      for (const [k, v] of Object.entries(b.constants ?? {}))
        if (a.constants?.[k] === undefined) out.add('list-paging-extended', id, { value: `\`${k}\`, always ${JSON.stringify(v)}` }, at('paging'));
      for (const m of b.members ?? [])
        if (!aMembers.has(member(m))) out.add('list-paging-extended', id, { value: `\`${m.path.join('.')}\`, the page's ${m.role}` }, at('paging'));
    }
  }
  // A list's own page sizes (paging.page_size), as they apply to it, where either side states its own.
  if (o.paging && n.paging && (o.paging.pageSize || n.paging.pageSize)) diffListPageSize(out, om, nm, o, n);
  // Only between two of the same action on the same resource: another action or resource is its own breaking change.
  const ob = o.action === n.action && o.resource === n.resource ? getBoundFields(om, o) : [];
  const nb = o.action === n.action && o.resource === n.resource ? getBoundFields(nm, n) : [];
  if (ob.join('\u0000') !== nb.join('\u0000'))
    out.add('path-binding-changed', id, { old: sayBindings(o, ob), new: sayBindings(n, nb) }, n.bindings || o.bindings ? at('bind') : at('path'));
  // The answer's wrapping: a client reads the object where the old envelope (or none) put it.
  if (getEnvelopeKey(o.envelope) !== getEnvelopeKey(n.envelope))
    out.add(
      'envelope-changed',
      id,
      { old: describeEnvelope(o.envelope), new: describeEnvelope(n.envelope) },
      n.envelope ? { old: o.envelope?.pointer, new: n.envelope.pointer } : w,
    );
  // The request's wrapping (request_envelope): a client sends the body where the old wrapper (or none) put it.
  const wrapOf = (x: OperationModel) => (x.requestEnvelope !== undefined && REQUEST_ENVELOPED_ACTIONS.has(x.action) ? x.requestEnvelope.data : undefined);
  if (o.action === n.action && wrapOf(o) !== wrapOf(n)) {
    const say = (d: string | undefined) => (d === undefined ? 'bare' : `wrapped in { "${d}": … }`);
    out.add('request-envelope-changed', id, { old: say(wrapOf(o)), new: say(wrapOf(n)) }, at('request_envelope'));
  }
  diffCallbacks(out, o, n);
  if (!o.deprecated && n.deprecated) out.add('operation-deprecated', id, {}, at('deprecated'));
  for (const e of n.errors) if (!o.errors.includes(e)) out.add('operation-error-added', id, { value: e }, at('errors'));
  for (const e of o.errors) if (!n.errors.includes(e)) out.add('operation-error-removed', id, { value: e }, at('errors'));
  const oi = isIdempotentOperation(om, o);
  const ni = isIdempotentOperation(nm, n);
  if (oi && !ni && n.method !== 'GET') out.add('operation-no-longer-idempotent', id, {}, w);
  if (!oi && ni && o.method !== 'GET') out.add('operation-became-idempotent', id, {}, w);
  // Declared shapes (custom operations).
  if (shapeText(o.request) !== shapeText(n.request))
    out.add('operation-request-changed', id, { old: shapeText(o.request), new: shapeText(n.request) }, at('request'));
  else if (o.request?.fields || n.request?.fields) {
    const query = n.method === 'GET';
    const flow = (f: FieldModel): Flow => ({ request: true, requestRequired: !mayLeaveOut(f), response: false });
    new FieldDiff(out, { part: 'endpoints', query }).fields(`${id} request.`, o.request?.fields ?? [], n.request?.fields ?? [], flow, flow);
  } else if (o.request?.union && n.request?.union) {
    new FieldDiff(out, { part: 'endpoints' }).union(
      `${id} request`,
      o.request.union,
      n.request.union,
      { request: true, requestRequired: true, response: false },
      { request: true, requestRequired: true, response: false },
      at('request'),
    );
  }
  // Declared query parameters and headers (of any action): each as a request field of its own.
  const param = (f: FieldModel): Flow => ({ request: true, requestRequired: !mayLeaveOut(f), response: false });
  if (o.query.length > 0 || n.query.length > 0) new FieldDiff(out, { part: 'endpoints', query: true }).fields(`${id} query.`, o.query, n.query, param, param);
  if (o.headers.length > 0 || n.headers.length > 0) new FieldDiff(out, { part: 'endpoints' }).fields(`${id} headers.`, o.headers, n.headers, param, param);
  if (o.responseHeaders.length > 0 || n.responseHeaders.length > 0) diffResponseHeaders(out, id, o.responseHeaders, n.responseHeaders, at('response_headers'));
  // A create's Location (the format's, or none: `location: false`, a resource no read addresses), as a declared header.
  if (o.action === 'create' && n.action === 'create' && o.resource === n.resource) {
    const ol = createAnswersLocation(om, o);
    const nl = createAnswersLocation(nm, n);
    const where = o.location !== undefined || n.location !== undefined ? at('location') : w;
    if (ol && !nl) out.add('response-header-removed', id, { value: 'Location' }, where);
    if (!ol && nl) out.add('response-header-added', id, { value: 'Location' }, where);
  }
  // A delete's answer: the object deleted, or none. Added, clients that read no body are not affected.
  if (o.action === 'delete' && n.action === 'delete' && (o.response === undefined) !== (n.response === undefined))
    out.add(n.response ? 'delete-response-added' : 'delete-response-removed', id, { value: n.resource ?? o.resource ?? '' }, at('response'));
  else if (shapeText(o.response) !== shapeText(n.response))
    out.add('operation-response-changed', id, { old: shapeText(o.response), new: shapeText(n.response) }, at('response'));
  else if (o.response?.fields || n.response?.fields) {
    const flow = (): Flow => ({ request: false, requestRequired: false, response: true });
    new FieldDiff(out, { part: 'endpoints' }).fields(`${id} response.`, o.response?.fields ?? [], n.response?.fields ?? [], flow, flow);
  } else if (o.response?.union && n.response?.union) {
    const flow: Flow = { request: false, requestRequired: false, response: true };
    new FieldDiff(out, { part: 'endpoints' }).union(`${id} response`, o.response.union, n.response.union, flow, flow, at('response'));
  }
  // Authentication: an operation that takes the default in both specs is reported once, with the default.
  if (!(o.authDeclared === 'default' && n.authDeclared === 'default')) {
    const c = compareRequirements(o.auth, n.auth);
    const params = { old: requirementText(o.auth), new: requirementText(n.auth) };
    const where = { ...at('auth'), part: 'authentication' as const };
    if (c.tightened) out.add('operation-auth-tightened', id, params, where);
    else if (c.loosened) out.add('operation-auth-loosened', id, params, where);
  }
}

/** Callbacks: which URL field subscribes, and which kinds reach it (the kinds' own bodies are the events part's). */
function diffCallbacks(out: Collector, o: OperationModel, n: OperationModel): void {
  const id = o.id;
  const olds = new Map((o.callbacks ?? []).map((c) => [c.name, c]));
  const news = new Map((n.callbacks ?? []).map((c) => [c.name, c]));
  for (const [name, a] of olds) {
    const b = news.get(name);
    if (!b) {
      out.add('callback-removed', id, { value: name }, { old: a.pointer, new: n.pointer });
      continue;
    }
    const at = (k: string) => ({ old: joinPointer(a.pointer, k), new: joinPointer(b.pointer, k) });
    if (a.url !== b.url) out.add('callback-url-changed', id, { value: name, old: a.url, new: b.url }, at('url'));
    for (const k of a.events) if (!b.events.includes(k)) out.add('callback-event-removed', id, { value: name, kind: k }, at('events'));
    for (const k of b.events) if (!a.events.includes(k)) out.add('callback-event-added', id, { value: name, kind: k }, at('events'));
  }
  for (const [name, b] of news) if (!olds.has(name)) out.add('callback-added', id, { value: name }, { old: o.pointer, new: b.pointer });
}

// ─── authentication ────────────────────────────────────────────────────────────────────────────────────

function diffScheme(out: Collector, o: SchemeModel, n: SchemeModel): void {
  const w = { old: o.pointer, new: n.pointer };
  if (o.type !== n.type) {
    out.add('scheme-type-changed', o.name, { old: o.type, new: n.type }, w);
    return;
  }
  const credential: [string, unknown, unknown][] = [
    ['where the key travels', o.type === 'api_key' ? getApiKeyPlacement(o) : o.in, n.type === 'api_key' ? getApiKeyPlacement(n) : n.in],
    ['the credential name', o.credentialName?.toLowerCase(), n.credentialName?.toLowerCase()],
    ['the key prefix', o.prefix, n.prefix],
    ['the token format', o.token, n.token],
    ['the issuer', o.issuer, n.issuer],
    ['the audience', o.audience, n.audience],
    ['the token path', o.tokenPath, n.tokenPath],
  ];
  for (const [what, a, c] of credential) if (a !== c) out.add('scheme-credential-changed', o.name, { what, old: show(a), new: show(c) }, w);
  if (o.lifetime && n.lifetime && o.lifetime.ms !== n.lifetime.ms) {
    out.add(
      n.lifetime.ms < o.lifetime.ms ? 'token-lifetime-shortened' : 'token-lifetime-lengthened',
      o.name,
      { old: o.lifetime.text, new: n.lifetime.text },
      w,
    );
  }
  if (o.algorithms && n.algorithms) {
    for (const a of o.algorithms) if (!n.algorithms.includes(a)) out.add('algorithm-removed', o.name, { value: a }, w);
    for (const a of n.algorithms) if (!o.algorithms.includes(a)) out.add('algorithm-added', o.name, { value: a }, w);
  }
  // A lifetime or algorithm list that starts or stops being stated (as limit-set / limit-unset).
  const stated: [string, string | undefined, string | undefined][] = [
    ['the token lifetime', o.lifetime?.text, n.lifetime?.text],
    ['the list of accepted algorithms', o.algorithms?.join(', '), n.algorithms?.join(', ')],
  ];
  for (const [what, a, c] of stated) {
    if (a !== undefined && c === undefined) out.add('scheme-token-rule-unset', o.name, { what, old: a }, w);
    else if (a === undefined && c !== undefined) out.add('scheme-token-rule-set', o.name, { what, new: c }, w);
  }
}

function diffAuthentication(out: Collector, o: ServiceModel, n: ServiceModel): void {
  const oa = o.authentication;
  const na = n.authentication;
  const newSchemes = byName(na?.schemes ?? []);
  const oldSchemes = byName(oa?.schemes ?? []);
  for (const s of oa?.schemes ?? []) {
    const ns = newSchemes.get(s.name);
    if (!ns) out.add('scheme-removed', s.name, {}, { old: s.pointer });
    else diffScheme(out, s, ns);
  }
  for (const s of na?.schemes ?? []) if (!oldSchemes.has(s.name)) out.add('scheme-added', s.name, {}, { new: s.pointer });
  const newScopes = new Set((na?.scopes ?? []).map((s) => s.name));
  const oldScopes = new Set((oa?.scopes ?? []).map((s) => s.name));
  const scopePtr = (name: string) => joinPointer('/authentication/scopes', name);
  for (const s of oldScopes) if (!newScopes.has(s)) out.add('scope-removed', s, {}, { old: scopePtr(s) });
  for (const s of newScopes) if (!oldScopes.has(s)) out.add('scope-added', s, {}, { new: scopePtr(s) });
  const c = compareRequirements(oa?.default, na?.default);
  const params = { old: requirementText(oa?.default), new: requirementText(na?.default) };
  const where = { old: oa?.default ? '/authentication/default' : undefined, new: na?.default ? '/authentication/default' : undefined };
  if (c.tightened) out.add('default-auth-tightened', 'default', params, where);
  else if (c.loosened) out.add('default-auth-loosened', 'default', params, where);
}

// ─── events ────────────────────────────────────────────────────────────────────────────────────────────

function triggerText(t: EventKindModel['triggers'][number]): string {
  return t.action === 'transition' ? `transition ${t.resource}.${t.transition}` : `${t.action} of ${t.resource}`;
}

function bodyText(k: EventKindModel): string {
  return isRawEvent(k) ? 'the payload itself (raw)' : 'the payload in the event envelope';
}

function diffEvents(out: Collector, o: ServiceModel, n: ServiceModel): void {
  const newKinds = byName(n.events?.kinds ?? []);
  const oldKinds = byName(o.events?.kinds ?? []);
  for (const k of o.events?.kinds ?? []) {
    const nk = newKinds.get(k.name);
    if (!nk) {
      out.add('event-kind-removed', k.name, {}, { old: k.pointer });
      continue;
    }
    const w = { old: k.pointer, new: nk.pointer };
    if (shapeText(k.payload) !== shapeText(nk.payload)) out.add('event-payload-changed', k.name, { old: shapeText(k.payload), new: shapeText(nk.payload) }, w);
    else if (k.payload?.fields || nk.payload?.fields) {
      const flow = (): Flow => ({ request: false, requestRequired: false, response: true });
      new FieldDiff(out, { part: 'events' }).fields(`${k.name} payload.`, k.payload?.fields ?? [], nk.payload?.fields ?? [], flow, flow);
    }
    // envelope ↔ raw moves the payload (data.object ↔ the whole body) for every receiver.
    if (isRawEvent(k) !== isRawEvent(nk)) out.add('event-body-changed', k.name, { old: bodyText(k), new: bodyText(nk) }, w);
    const ot = k.triggers.map(triggerText);
    const nt = nk.triggers.map(triggerText);
    for (const t of ot) if (!nt.includes(t)) out.add('event-trigger-removed', k.name, { value: t }, w);
    for (const t of nt) if (!ot.includes(t)) out.add('event-trigger-added', k.name, { value: t }, w);
  }
  for (const k of n.events?.kinds ?? []) if (!oldKinds.has(k.name)) out.add('event-kind-added', k.name, {}, { new: k.pointer });

  const ow = o.events?.webhook;
  const nw = n.events?.webhook;
  const wp = '/events/delivery/webhook';
  const hw = { old: ow ? wp : undefined, new: nw ? wp : undefined };
  if (ow?.signing !== undefined && ow.signing !== nw?.signing) out.add('webhook-signing-changed', 'webhook', { old: ow.signing, new: show(nw?.signing) }, hw);
  if (ow?.retries && nw?.retries) {
    const text = (r: readonly { text: string }[]) => `[${r.map((x) => x.text).join(', ')}]`;
    const total = (r: readonly { ms: number }[]) => r.reduce((s, x) => s + x.ms, 0);
    if (text(ow.retries) !== text(nw.retries)) {
      const reduced = nw.retries.length < ow.retries.length || total(nw.retries) < total(ow.retries);
      out.add(reduced ? 'webhook-retries-reduced' : 'webhook-retries-changed', 'webhook', { old: text(ow.retries), new: text(nw.retries) }, hw);
    }
  } else if (ow?.retries && !nw?.retries)
    out.add('webhook-retries-reduced', 'webhook', { old: `[${ow.retries.map((x) => x.text).join(', ')}]`, new: NOT_SHOWN }, hw);
  if (ow?.timeout && nw?.timeout && nw.timeout.ms < ow.timeout.ms)
    out.add('webhook-timeout-shortened', 'webhook', { old: ow.timeout.text, new: nw.timeout.text }, hw);
  if (ow?.path !== undefined && ow.path !== nw?.path)
    out.add('webhook-registration-changed', 'webhook', { what: 'the path', old: ow.path, new: show(nw?.path) }, hw);
  if (ow?.path !== undefined && nw?.path !== undefined) {
    const added = (nw.scopes ?? []).filter((s) => !(ow.scopes ?? []).includes(s));
    if (added.length > 0)
      out.add(
        'webhook-registration-changed',
        'webhook',
        { what: 'the scopes required', old: show((ow.scopes ?? []).join(', ')), new: (nw.scopes ?? []).join(', ') },
        hw,
      );
  }
  const os = o.events?.stream;
  const ns = n.events?.stream;
  if (os?.path !== undefined && os.path !== ns?.path) {
    out.add(
      'event-stream-changed',
      'stream',
      { what: 'the path', old: os.path, new: show(ns?.path) },
      { old: '/events/delivery/stream', new: ns ? '/events/delivery/stream' : undefined },
    );
  }
  diffBroker(out, o, n);
}

/** events.delivery.broker: where consumers bind (subject, stream, exchange, routing key) moving is breaking. */
function diffBroker(out: Collector, o: ServiceModel, n: ServiceModel): void {
  const ob = o.events?.broker;
  const nb = n.events?.broker;
  const bp = '/events/delivery/broker';
  const at = (sub: string) => ({ old: ob ? `${bp}/${sub}` : undefined, new: nb?.[sub as 'nats' | 'amqp'] ? `${bp}/${sub}` : undefined });
  const pairs: ['nats' | 'amqp', string, string | undefined, string | undefined][] = [
    ['nats', 'the subject', ob?.nats?.subject, nb?.nats?.subject],
    ['nats', 'the stream', ob?.nats?.stream, nb?.nats?.stream],
    ['amqp', 'the exchange', ob?.amqp?.exchange, nb?.amqp?.exchange],
    ['amqp', 'the routing key', ob?.amqp?.routingKey, nb?.amqp?.routingKey],
  ];
  for (const [broker, what, old, now] of pairs) {
    const subject = broker === 'nats' ? 'NATS' : 'AMQP';
    if (old !== undefined && old !== now) out.add('event-broker-changed', subject, { what, old, new: show(now) }, at(broker));
  }
  if (nb?.nats && !ob?.nats) out.add('event-broker-added', 'NATS', { what: 'subject', new: nb.nats.subject }, at('nats'));
  if (nb?.amqp && !ob?.amqp) out.add('event-broker-added', 'AMQP', { what: 'exchange', new: nb.amqp.exchange }, at('amqp'));
}

// ─── errors ────────────────────────────────────────────────────────────────────────────────────────────

function diffErrors(out: Collector, o: ServiceModel, n: ServiceModel): void {
  const oe = o.errors;
  const ne = n.errors;
  const newCodes = byName(ne?.codes ?? []);
  const oldCodes = byName(oe?.codes ?? []);
  for (const c of oe?.codes ?? []) {
    const nc = newCodes.get(c.name);
    if (!nc) out.add('error-code-removed', c.name, {}, { old: c.pointer });
    else if ((c.statusRange ?? c.status) !== (nc.statusRange ?? nc.status))
      out.add(
        'error-status-changed',
        c.name,
        { old: c.statusRange ?? c.status, new: nc.statusRange ?? nc.status },
        { old: joinPointer(c.pointer, 'status'), new: joinPointer(nc.pointer, 'status') },
      );
  }
  for (const c of ne?.codes ?? []) if (!oldCodes.has(c.name)) out.add('error-code-added', c.name, {}, { new: c.pointer });
  // Declared headers of error answers (names compared without case): one removed is breaking, one added is not.
  const headers = (subject: string, before: readonly FieldModel[], after: readonly FieldModel[], where: Where) => {
    const b = new Set(after.map((h) => h.name.toLowerCase()));
    const a = new Set(before.map((h) => h.name.toLowerCase()));
    for (const h of before) if (!b.has(h.name.toLowerCase())) out.add('error-header-removed', subject, { value: h.name }, where);
    for (const h of after) if (!a.has(h.name.toLowerCase())) out.add('error-header-added', subject, { value: h.name }, where);
  };
  headers('every error', oe?.headers ?? [], ne?.headers ?? [], { old: '/errors/headers', new: '/errors/headers' });
  for (const c of oe?.codes ?? []) {
    const nc = newCodes.get(c.name);
    if (nc) headers(`error code ${c.name}`, c.headers, nc.headers, { old: joinPointer(c.pointer, 'headers'), new: joinPointer(nc.pointer, 'headers') });
  }
  const ob = oe?.byCondition ?? {};
  const nb = ne?.byCondition ?? {};
  const conditions = new Set([...Object.keys(ob), ...Object.keys(nb)]) as Set<keyof typeof ob>;
  for (const cond of conditions) {
    const a = ob[cond];
    const c = nb[cond];
    if (a === c) continue;
    const where = { old: a !== undefined ? oldCodes.get(a)?.pointer : undefined, new: c !== undefined ? newCodes.get(c)?.pointer : undefined };
    if (a !== undefined && c !== undefined) out.add('error-condition-moved', cond, { old: a, new: c }, where);
    else if (a !== undefined) out.add('error-condition-undeclared', cond, { old: a }, where);
    else out.add('error-condition-declared', cond, { new: c }, where);
  }
  const kind = (m: ServiceModel) =>
    m.errors?.body === undefined ? NOT_SHOWN : m.errors.body.kind === 'problem' ? 'problem details (RFC 9457)' : 'declared fields';
  if (oe?.body !== undefined && kind(o) !== kind(n))
    out.add('error-body-changed', 'body', { old: kind(o), new: kind(n) }, { old: '/errors/body', new: ne?.body ? '/errors/body' : undefined });
  else if (oe?.body?.kind === 'declared' && ne?.body?.kind === 'declared') {
    // Which fields carry the code, status and message, and the media type, as the format resolves them.
    const roles = (b: DeclaredErrorBodyModel) => {
      const r = getErrorBodyRoles(b);
      const at = (path: readonly string[] | undefined) => path?.join('.') ?? 'no field';
      const values = b.codeValues === 'unstated' ? ' (its values not stated)' : '';
      return `code in ${at(r.at.code)}${values}, status in ${at(r.at.status)}, message in ${at(r.at.message)}, as ${r.mediaType}`;
    };
    if (roles(oe.body) !== roles(ne.body))
      out.add('error-body-changed', 'body', { old: roles(oe.body), new: roles(ne.body) }, { old: '/errors/body', new: '/errors/body' });
    if (oe.body.answerMembers !== ne.body.answerMembers)
      out.add(ne.body.answerMembers === 'open' ? 'error-members-opened' : 'error-members-named', 'body', {}, { old: '/errors/body', new: '/errors/body' });
    const flow = (): Flow => ({ request: false, requestRequired: false, response: true });
    new FieldDiff(out, { part: 'errors' }).fields('error body.', oe.body.fields, ne.body.fields, flow, flow);
  }
}

// ─── limits ────────────────────────────────────────────────────────────────────────────────────────────

function rateKey(r: RateLimitModel): string {
  return r.name ?? `${r.by ?? 'unstated'} on ${r.operations ? [...r.operations].sort().join(', ') : 'every operation'}`;
}

function diffLimits(out: Collector, o: ServiceModel, n: ServiceModel): void {
  const ol = o.limits;
  const nl = n.limits;
  // Two policies with the same key (the checker warns) are told apart by their order.
  const keyed = (rates: readonly RateLimitModel[]) => {
    const seen = new Map<string, number>();
    return new Map(
      rates.map((r) => {
        const k = rateKey(r);
        const i = seen.get(k) ?? 0;
        seen.set(k, i + 1);
        return [i === 0 ? k : `${k} (${i + 1})`, r];
      }),
    );
  };
  const newRates = keyed(nl?.rate ?? []);
  const oldRates = keyed(ol?.rate ?? []);
  const rateText = (r: RateLimitModel) => `${r.requests} per ${r.per.text}`;
  for (const [key, r] of oldRates) {
    const nr = newRates.get(key);
    if (!nr) {
      out.add('rate-limit-removed', key, {}, { old: r.pointer });
      continue;
    }
    const w = { old: r.pointer, new: nr.pointer };
    const a = r.requests / r.per.ms;
    const c = nr.requests / nr.per.ms;
    if (c < a || (c === a && nr.requests < r.requests)) out.add('rate-limit-lowered', key, { old: rateText(r), new: rateText(nr) }, w);
    else if (c > a) out.add('rate-limit-raised', key, { old: rateText(r), new: rateText(nr) }, w);
    if (r.by !== nr.by) out.add('rate-limit-changed', key, { what: 'what it counts by', old: show(r.by), new: show(nr.by) }, w);
    const ops = (x: RateLimitModel) => (x.operations ? [...x.operations].sort().join(', ') : 'every operation');
    if (ops(r) !== ops(nr)) out.add('rate-limit-changed', key, { what: 'the operations', old: ops(r), new: ops(nr) }, w);
    if (r.onStoreFailure !== nr.onStoreFailure)
      out.add('rate-limit-changed', key, { what: 'on_store_failure', old: show(r.onStoreFailure), new: show(nr.onStoreFailure) }, w);
  }
  for (const [key, r] of newRates) if (!oldRates.has(key)) out.add('rate-limit-added', key, { new: rateText(r) }, { new: r.pointer });

  const scalar = (
    subject: string,
    key: string,
    a: number | undefined,
    c: number | undefined,
    aText: string | undefined,
    cText: string | undefined,
    lowered: DiffRuleCode,
  ) => {
    const ptr = `/limits/${key}`;
    if (a === c) return;
    if (a === undefined) out.add('limit-set', subject, { new: cText }, { new: ptr });
    else if (c === undefined) out.add('limit-unset', subject, { old: aText }, { old: ptr });
    else out.add(c < a ? lowered : 'limit-raised', subject, { old: aText, new: cText }, { old: ptr, new: ptr });
  };
  scalar('limits.body_size', 'body_size', ol?.bodySize?.bytes, nl?.bodySize?.bytes, ol?.bodySize?.text, nl?.bodySize?.text, 'body-size-lowered');
  scalar('limits.header_size', 'header_size', ol?.headerSize?.bytes, nl?.headerSize?.bytes, ol?.headerSize?.text, nl?.headerSize?.text, 'header-size-lowered');
  scalar('limits.nesting_depth', 'nesting_depth', ol?.nestingDepth, nl?.nestingDepth, show(ol?.nestingDepth), show(nl?.nestingDepth), 'nesting-depth-lowered');
  scalar(
    'limits.page_size.max',
    'page_size/max',
    ol?.pageSize?.max,
    nl?.pageSize?.max,
    show(ol?.pageSize?.max),
    show(nl?.pageSize?.max),
    'page-size-max-lowered',
  );
  scalar('limits.timeout', 'timeout', ol?.timeout?.ms, nl?.timeout?.ms, ol?.timeout?.text, nl?.timeout?.text, 'timeout-shortened');
  scalar('limits.concurrency', 'concurrency', ol?.concurrency, nl?.concurrency, show(ol?.concurrency), show(nl?.concurrency), 'concurrency-lowered');
  const of = ol?.failedAuth;
  const nf = nl?.failedAuth;
  const boundText = (f: { attempts: number; per: { text: string } }) => `${f.attempts} per ${f.per.text}`;
  if (of && !nf) out.add('limit-unset', 'limits.failed_auth', { old: boundText(of) }, { old: '/limits/failed_auth' });
  else if (!of && nf) out.add('limit-set', 'limits.failed_auth', { new: boundText(nf) }, { new: '/limits/failed_auth' });
  else if (of && nf && (of.attempts !== nf.attempts || of.per.ms !== nf.per.ms)) {
    const a = of.attempts / of.per.ms;
    const c = nf.attempts / nf.per.ms;
    const tightened = c < a || (c === a && nf.attempts < of.attempts);
    out.add(
      tightened ? 'failed-auth-bound-tightened' : 'failed-auth-bound-loosened',
      'limits.failed_auth',
      { old: boundText(of), new: boundText(nf) },
      { old: '/limits/failed_auth', new: '/limits/failed_auth' },
    );
  }
  const od = ol?.pageSize?.default;
  const nd = nl?.pageSize?.default;
  if (od !== undefined && nd !== undefined && od !== nd)
    out.add(
      'page-size-default-changed',
      'limits.page_size.default',
      { old: od, new: nd },
      { old: '/limits/page_size/default', new: '/limits/page_size/default' },
    );
  const oo = ol?.pageSize?.overMax;
  const no = nl?.pageSize?.overMax;
  if (oo !== undefined && no !== undefined && oo !== no)
    out.add(
      'page-over-max-changed',
      'limits.page_size.over_max',
      { old: oo, new: no },
      { old: '/limits/page_size/over_max', new: '/limits/page_size/over_max' },
    );
}

// ─── versioning ────────────────────────────────────────────────────────────────────────────────────────

function placementText(p: VersionPlacementModel | undefined): string {
  if (!p) return NOT_SHOWN;
  if (p.kind === 'path') return `the path (${p.template})`;
  return p.kind === 'media_type' ? `the media type (${p.template})` : `the ${p.kind} ${p.name}`;
}

/** The changes the new spec declares between the old spec's current version and its own; undefined when it does not advance. */
export function getDeclaredChanges(o: ServiceModel, n: ServiceModel): VersionChangeModel[] | undefined {
  const ov = o.versioning;
  const nv = n.versioning;
  if (ov?.current === undefined || nv?.current === undefined || ov.current === nv.current) return undefined;
  const scheme = nv.scheme ?? 'date';
  const since = nv.supported.filter((s) => compareVersions(scheme, s.version, ov.current!) >= 0 && compareVersions(scheme, s.version, nv.current!) < 0);
  if (!since.some((s) => s.version === ov.current)) return undefined;
  return since.sort((a, b) => compareVersions(scheme, a.version, b.version)).flatMap((s) => s.changes);
}

function served(m: ServiceModel): Map<string, { sunset?: string; deprecated?: string; pointer: string }> {
  const v = m.versioning;
  const out = new Map<string, { sunset?: string; deprecated?: string; pointer: string }>();
  if (!v) return out;
  if (v.current !== undefined) out.set(v.current, { pointer: '/versioning/current' });
  for (const s of v.supported) out.set(s.version, { sunset: s.sunset, deprecated: s.deprecated, pointer: s.pointer });
  return out;
}

function diffVersioning(out: Collector, o: ServiceModel, n: ServiceModel, today: string): void {
  const ov = o.versioning;
  const nv = n.versioning;
  if (!ov) return;
  const at = (k: string) => ({ old: `/versioning/${k}`, new: nv ? `/versioning/${k}` : undefined });
  if (ov.scheme !== undefined && ov.scheme !== nv?.scheme)
    out.add('version-scheme-changed', 'versioning.scheme', { old: ov.scheme, new: show(nv?.scheme) }, at('scheme'));
  if (ov.placement && placementText(ov.placement) !== placementText(nv?.placement))
    out.add('version-placement-changed', 'versioning.placement', { old: placementText(ov.placement), new: placementText(nv?.placement) }, at('placement'));
  if (ov.default !== undefined && ov.default !== nv?.default)
    out.add('version-default-changed', 'versioning.default', { old: ov.default, new: show(nv?.default) }, at('default'));
  if (ov.current !== undefined && nv?.current !== undefined && ov.current !== nv.current)
    out.add('current-version-advanced', 'versioning.current', { old: ov.current, new: nv.current }, at('current'));
  const os = served(o);
  const ns = served(n);
  for (const [version, info] of os) {
    const now = ns.get(version);
    if (!now) {
      const passed = info.sunset !== undefined && info.sunset <= today;
      if (version !== ov.current || nv === undefined)
        out.add(passed ? 'version-dropped' : 'version-dropped-before-sunset', version, { old: info.sunset ?? 'no sunset stated' }, { old: info.pointer });
      else out.add('version-dropped-before-sunset', version, { old: 'no sunset stated' }, { old: info.pointer });
      continue;
    }
    if (info.sunset !== undefined && now.sunset !== undefined && now.sunset < info.sunset)
      out.add('version-sunset-moved-earlier', version, { old: info.sunset, new: now.sunset }, { old: info.pointer, new: now.pointer });
    if (info.deprecated === undefined && now.deprecated !== undefined)
      out.add('version-deprecated', version, { new: now.deprecated }, { old: info.pointer, new: now.pointer });
  }
  for (const [version, info] of ns) if (!os.has(version) && version !== nv?.current) out.add('version-added', version, {}, { new: info.pointer });
}

/** After every other rule: breaking changes need a new version, and the new version's declared changes must match. */
function diffVersionHistory(out: Collector, o: ServiceModel, n: ServiceModel): void {
  const ov = o.versioning;
  const nv = n.versioning;
  if (ov?.current === undefined || nv?.current === undefined) return;
  const breaking = out.changes.filter((c) => c.impact === 'breaking' && c.part !== 'versioning');
  if (ov.current === nv.current) {
    if (breaking.length > 0)
      out.add(
        'current-version-not-advanced',
        'versioning.current',
        { old: ov.current, count: breaking.length },
        { old: '/versioning/current', new: '/versioning/current' },
      );
    return;
  }
  const declared = getDeclaredChanges(o, n);
  if (!declared) return;
  const entry = nv.supported.find((s) => s.version === ov.current)!;
  const explains = (resource: string, field: string) =>
    declared.some((c) => c.resource === resource && (c.field === field || c.from === field || c.to === field));
  const resources = new Set(o.resources.map((r) => r.name));
  for (const c of breaking) {
    if (c.part !== 'resources') continue;
    const m = /^([^.]+)\.([^.[\]]+)/.exec(c.subject);
    if (!m || !resources.has(m[1]!) || !/^(request-|response-|field-)/.test(c.code)) continue;
    if (!explains(m[1]!, m[2]!)) out.add('undeclared-breaking-change', c.subject, { version: ov.current }, { old: c.old?.pointer, new: entry.pointer });
  }
  const has = (m: ServiceModel, resource: string | undefined, field: string | undefined) =>
    field !== undefined && m.resources.find((r) => r.name === resource)?.fields.some((f) => f.name === field) === true;
  for (const c of declared) {
    let shown = true;
    if (c.kind === 'rename_field') shown = has(o, c.resource, c.from) && has(n, c.resource, c.to) && !has(n, c.resource, c.from);
    else if (c.kind === 'add_field') shown = !has(o, c.resource, c.field) && has(n, c.resource, c.field);
    else if (c.kind === 'remove_field') shown = has(o, c.resource, c.field) && !has(n, c.resource, c.field);
    if (!shown)
      out.add(
        'declared-change-not-shown',
        `${c.resource ?? ''}.${c.field ?? c.from ?? ''}`,
        { version: ov.current, change: describeChange(c) },
        { new: entry.pointer },
      );
  }
}

export function describeChange(c: VersionChangeModel): string {
  if (c.kind === 'rename_field') return `rename_field ${c.resource ?? '?'}.${c.from ?? '?'} → ${c.to ?? '?'}`;
  if (c.kind === 'add_field') return `add_field ${c.resource ?? '?'}.${c.field ?? '?'}`;
  if (c.kind === 'remove_field') return `remove_field ${c.resource ?? '?'}.${c.field ?? '?'}`;
  return `a change (${c.description ?? 'no description'})`;
}

// ─── purpose ───────────────────────────────────────────────────────────────────────────────────────────

function diffPurpose(out: Collector, o: ServiceModel, n: ServiceModel): void {
  const op = o.purpose;
  const np = n.purpose;
  if (op?.name !== undefined && np?.name !== undefined && op.name !== np.name)
    out.add('purpose-name-changed', 'purpose.name', { old: op.name, new: np.name }, { old: '/purpose/name', new: '/purpose/name' });
  const oi = op?.includes ?? [];
  const ni = np?.includes ?? [];
  oi.forEach((item, i) => {
    if (!ni.includes(item)) out.add('purpose-scope-narrowed', 'purpose.scope.includes', { item }, { old: `/purpose/scope/includes/${i}` });
  });
  ni.forEach((item, i) => {
    if (!oi.includes(item)) out.add('purpose-scope-widened', 'purpose.scope.includes', { item }, { new: `/purpose/scope/includes/${i}` });
  });
}

export interface CompareOptions {
  /** The date sunsets are compared with (YYYY-MM-DD); today by default. */
  today?: string;
}

/** Every change between two models, in the order the rules find them (see `sortChanges` for the reported order). */
export function compareModels(before: ServiceModel, newModel: ServiceModel, options: CompareOptions = {}): Change[] {
  const out = new Collector(before.file, newModel.file);
  const today = options.today ?? new Date().toISOString().slice(0, 10);
  // A resource the new spec declares renamed is compared with itself under its new name, and reported once as renamed.
  const renames = getDeclaredResourceRenames(before, newModel);
  for (const [from, to] of renames)
    out.add('resource-renamed', from, { old: from, new: to }, { old: getResource(before, from)!.pointer, new: getResource(newModel, to)!.pointer });
  const oldModel = renames.size > 0 ? renameResources(before, renames) : before;
  diffPurpose(out, oldModel, newModel);
  diffResources(out, oldModel, newModel);
  diffStates(out, oldModel, newModel);
  diffEndpoints(out, oldModel, newModel);
  diffAuthentication(out, oldModel, newModel);
  diffEvents(out, oldModel, newModel);
  diffErrors(out, oldModel, newModel);
  diffLimits(out, oldModel, newModel);
  diffVersioning(out, oldModel, newModel, today);
  diffVersionHistory(out, oldModel, newModel);
  return out.changes;
}

/** The resources the new spec renamed (`renamedFrom`) from one the old spec has under that name and not the new one. */
function getDeclaredResourceRenames(o: ServiceModel, n: ServiceModel): Map<string, string> {
  const out = new Map<string, string>();
  for (const [from, to] of getResourceRenames(n)) if (getResource(o, from) !== undefined && getResource(o, to) === undefined) out.set(from, to);
  return out;
}

/** Values a spec writes (a default, an example): their members are data, never names of the model. */
const DATA_KEYS = new Set(['default', 'example', 'examples']);

/**
 * A copy of `model` with each renamed resource under its new name, and every name referring to it renamed: a ref
 * field's `to`, and the `resource` of an operation, a request or response shape, an event payload or trigger, a state
 * machine, a version change. Pointers stay the old spec's.
 */
function renameResources(model: ServiceModel, renames: ReadonlyMap<string, string>): ServiceModel {
  const copy = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(copy);
    if (value === null || typeof value !== 'object') return value;
    const o = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o)) {
      const named = typeof v === 'string' && renames.has(v) && (k === 'resource' || (k === 'to' && o.type === 'ref'));
      out[k] = named ? renames.get(v) : DATA_KEYS.has(k) ? v : copy(v);
    }
    return out;
  };
  const m = copy(model) as ServiceModel & { resources: ResourceModel[] };
  m.resources = m.resources.map((r) => (renames.has(r.name) ? { ...r, name: renames.get(r.name)! } : r));
  return m;
}

/** Whether a create answers the format's Location (getCreateLocation, on its route). */
function createAnswersLocation(model: ServiceModel, o: OperationModel): boolean {
  const route = getOperationRoute(model, o.id);
  return route !== undefined && getCreateLocation(model, route) !== undefined;
}

/**
 * An operation's declared response headers (names compared without case): one removed is breaking, one added is
 * not; a header kept is compared as a response field (its type, constraints, whether it is always sent).
 */
function diffResponseHeaders(out: Collector, id: string, before: readonly FieldModel[], after: readonly FieldModel[], where: Where): void {
  const byKey = (list: readonly FieldModel[]) => new Map(list.map((h) => [h.name.toLowerCase(), h]));
  const a = byKey(before);
  const b = byKey(after);
  for (const [k, h] of a) if (!b.has(k)) out.add('response-header-removed', id, { value: h.name }, where);
  for (const [k, h] of b) if (!a.has(k)) out.add('response-header-added', id, { value: h.name }, where);
  // Kept headers under their new name, so a change of case alone is no change.
  const kept = [...a].filter(([k]) => b.has(k)).map(([k, h]) => ({ ...h, name: b.get(k)!.name }));
  const flow = (): Flow => ({ request: false, requestRequired: false, response: true });
  new FieldDiff(out, { part: 'endpoints' }).fields(
    `${id} response_headers.`,
    kept,
    [...b.values()].filter((h) => a.has(h.name.toLowerCase())),
    flow,
    flow,
  );
}
