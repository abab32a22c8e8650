import type {
  FieldModel,
  OperationModel,
  ResourceModel,
  ServiceModel,
  StateMachineModel,
  TransitionModel,
  VersionChangeModel,
  VersioningModel,
} from './model-types.js';
import { mayLeaveOut } from './model-defaults.js';
import { isWritable } from './model-schemas.js';
import { joinPointer } from '../util/util-json-pointer.js';
import { getResource } from './model-lookup.js';

export type VersionScheme = 'date' | 'semver' | 'integer';

/** Negative when a is older than b, positive when newer, 0 when equal. */
export function compareVersions(scheme: VersionScheme, a: string, b: string): number {
  if (scheme === 'integer') return Number(a) - Number(b);
  if (scheme === 'semver') {
    const pa = a.split(/[.-]/).slice(0, 3).map(Number);
    const pb = b.split(/[.-]/).slice(0, 3).map(Number);
    for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] ?? 0) - (pb[i] ?? 0);
    return 0;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The changes a request in `version` goes through to reach the current version, oldest first: each
 * supported version's `changes` lead from it to the next newer one. Empty for the current version.
 */
export function getChangesSince(model: ServiceModel, version: string): VersionChangeModel[] {
  const v = model.versioning;
  if (!v || version === v.current) return [];
  const scheme = v.scheme ?? 'date';
  return [...v.supported]
    .filter((s) => compareVersions(scheme, s.version, version) >= 0 && (v.current === undefined || compareVersions(scheme, s.version, v.current) < 0))
    .sort((a, b) => compareVersions(scheme, a.version, b.version))
    .flatMap((s) => s.changes);
}

/** One field of a resource across the versions: its name in the older version and now (undefined where it has none). */
export interface FieldHistory {
  old?: string;
  now?: string;
}

/**
 * What the declared changes since `version` did to `resource`'s fields, one entry per field they touch: renamed
 * (both names), added since (`now` only), removed since (`old` only). A field added and removed again is left out.
 */
export function getFieldHistory(model: ServiceModel, version: string, resource: string): FieldHistory[] {
  const entries: FieldHistory[] = [];
  const current = (name: string) => entries.find((e) => e.now === name);
  for (const c of getChangesSince(model, version)) {
    if (c.resource !== resource) continue;
    if (c.kind === 'rename_field' && c.from !== undefined && c.to !== undefined) {
      const e = current(c.from);
      if (e) e.now = c.to;
      else entries.push({ old: c.from, now: c.to });
    } else if (c.kind === 'add_field' && c.field !== undefined) {
      entries.push({ now: c.field });
    } else if (c.kind === 'remove_field' && c.field !== undefined) {
      const e = current(c.field);
      if (e) delete e.now;
      else entries.push({ old: c.field });
    }
  }
  return entries.filter((e) => e.old !== undefined || e.now !== undefined);
}

/** `name` (a current field of `resource`) as `version` calls it; undefined when that version does not have it. */
export function getOldFieldName(model: ServiceModel, version: string, resource: string, name: string): string | undefined {
  const e = getFieldHistory(model, version, resource).find((x) => x.now === name);
  return e ? e.old : name;
}

/**
 * The model as a client of `version` sees it. Only what `versioning.supported[].changes` declares differs from the
 * current model: a renamed field has its old name (also where the identifier, owner, state field, a transition's
 * `requires` or `stamp` names it), an added field is absent, and a removed field is present as `json`, optional,
 * because the spec does not show its old shape. Undefined when the spec does not serve `version`.
 */
export function getVersionModel(model: ServiceModel, version: string): ServiceModel | undefined {
  const v = model.versioning;
  if (!v) return undefined;
  if (version === v.current) return model;
  if (!v.supported.some((s) => s.version === version)) return undefined;
  // Models are frozen: each version's is built once (the runtime asks once per route).
  let built = versionModels.get(model);
  if (!built) versionModels.set(model, (built = new Map()));
  let vm = built.get(version);
  if (!vm) built.set(version, (vm = buildVersionModel(model, v, version)));
  return vm;
}

const versionModels = new WeakMap<ServiceModel, Map<string, ServiceModel>>();

function buildVersionModel(model: ServiceModel, v: VersioningModel, version: string): ServiceModel {
  const scheme = v.scheme ?? 'date';
  const histories = new Map(model.resources.map((r) => [r.name, getFieldHistory(model, version, r.name)]));
  const oldName = (resource: string, name: string): string | undefined => {
    const e = histories.get(resource)?.find((x) => x.now === name);
    return e ? e.old : name;
  };
  const resources = model.resources.map((r): ResourceModel => {
    const history = histories.get(r.name) ?? [];
    if (history.length === 0) return r;
    const fields: FieldModel[] = [];
    for (const f of r.fields) {
      const name = oldName(r.name, f.name);
      if (name !== undefined) fields.push(name === f.name ? f : { ...f, name });
    }
    for (const e of history) {
      if (e.now !== undefined || e.old === undefined || fields.some((x) => x.name === e.old)) continue;
      fields.push({
        name: e.old,
        pointer: joinPointer(joinPointer(r.pointer, 'fields'), e.old),
        type: 'json',
        description: 'shape not shown in the spec',
        optional: true,
        nullable: false,
        readOnly: false,
        writeOnce: false,
        unique: false,
        hasDefault: false,
        hasExample: false,
      });
    }
    const out: ResourceModel = { ...r, fields };
    const id = r.identifier === undefined ? undefined : oldName(r.name, r.identifier);
    if (id !== undefined) out.identifier = id;
    else delete out.identifier;
    const owner = r.owner === undefined ? undefined : oldName(r.name, r.owner);
    if (owner !== undefined) out.owner = owner;
    else delete out.owner;
    return out;
  });
  const stateMachines = model.stateMachines.map((m): StateMachineModel => {
    if ((histories.get(m.resource) ?? []).length === 0) return m;
    const rename = (name: string) => oldName(m.resource, name);
    const field = m.field === undefined ? undefined : rename(m.field);
    const out: StateMachineModel = {
      ...m,
      transitions: m.transitions.map((t) => {
        const stamp = t.stamp === undefined ? undefined : rename(t.stamp);
        const copy: TransitionModel = { ...t, requires: t.requires.flatMap((n) => rename(n) ?? []) };
        if (stamp !== undefined) copy.stamp = stamp;
        else delete copy.stamp;
        return copy;
      }),
    };
    if (field !== undefined) out.field = field;
    else delete out.field;
    return out;
  });
  const supported = v.supported.filter((s) => compareVersions(scheme, s.version, version) < 0);
  // An operation's request_fields and answer_fields by their old names (a field added since is not the old version's
  // to send, nor to answer).
  const renamed = (o: OperationModel) =>
    (o.requestFields !== undefined || o.answerFields !== undefined) && o.resource !== undefined && (histories.get(o.resource) ?? []).length > 0
      ? {
          ...o,
          ...(o.requestFields !== undefined ? { requestFields: o.requestFields.flatMap((n) => oldName(o.resource!, n) ?? []) } : {}),
          ...(o.answerFields !== undefined ? { answerFields: o.answerFields.flatMap((n) => oldName(o.resource!, n) ?? []) } : {}),
        }
      : o;
  const endpoints = model.endpoints?.operations.some((o) => renamed(o) !== o)
    ? { ...model.endpoints, operations: model.endpoints.operations.map(renamed) }
    : model.endpoints;
  return Object.freeze({
    ...model,
    file: `${model.file}@${version}`,
    resources,
    stateMachines,
    ...(endpoints ? { endpoints } : {}),
    versioning: { ...v, current: version, supported },
  });
}

/**
 * The current fields of `resource` a client of `version` cannot send: each added since that version (under its
 * current name, after later renames) and still in the current model. Empty for the current version.
 */
export function getFieldsAddedSince(model: ServiceModel, version: string, resource: string): FieldModel[] {
  const added = new Set(getFieldHistory(model, version, resource).flatMap((e) => (e.old === undefined && e.now !== undefined ? [e.now] : [])));
  const fields = getResource(model, resource)?.fields ?? [];
  return fields.filter((f) => added.has(f.name));
}

/** A field of `resource` that differs between an older version and the current one. */
export interface FieldDifference extends FieldHistory {
  resource: string;
  /** For a field added since: the declared default an older version's create gets. */
  default?: { value: unknown };
}

/** How one operation's bodies differ for a client of an older version. */
export interface OperationDifference {
  operation: string;
  /** The request body's fields that differ (a transition's: those its `requires` lists). */
  request: FieldDifference[];
  /** The answer's fields that differ. */
  response: FieldDifference[];
  /** A create's fields added since, required with no default: its clients cannot create the resource. */
  unsendable: string[];
}

/** What a client of `version` sees differ from the current version, derived from the declared changes. */
export interface VersionDifferences {
  version: string;
  fields: FieldDifference[];
  operations: OperationDifference[];
  /** Declared changes of kind `other`, between that version and the current one, in their own words. */
  other: string[];
}

/** The fields and operations `version` differs in from the current version; undefined when it is not served. */
export function getVersionDifferences(model: ServiceModel, version: string): VersionDifferences | undefined {
  const v = model.versioning;
  if (!v || (version !== v.current && !v.supported.some((s) => s.version === version))) return undefined;
  const byResource = new Map<string, FieldDifference[]>();
  for (const r of model.resources) {
    const diffs = getFieldHistory(model, version, r.name)
      .filter((e) => e.old !== e.now)
      .map((e): FieldDifference => {
        const f = e.old === undefined && e.now !== undefined ? r.fields.find((x) => x.name === e.now) : undefined;
        return { resource: r.name, ...e, ...(f?.hasDefault ? { default: { value: f.default } } : {}) };
      });
    if (diffs.length > 0) byResource.set(r.name, diffs);
  }
  const operations: OperationDifference[] = [];
  for (const o of model.endpoints?.operations ?? []) {
    const custom = o.action === 'custom';
    const inName = custom ? o.request?.resource : ['create', 'replace', 'update', 'transition'].includes(o.action) ? o.resource : undefined;
    const outName = custom
      ? o.response?.resource
      : o.action === 'delete'
        ? o.response === undefined
          ? undefined
          : o.resource
        : o.action === 'list'
          ? (o.response?.resource ?? o.resource)
          : o.resource;
    let request = inName === undefined ? [] : (byResource.get(inName) ?? []);
    if (o.action === 'transition') {
      const requires = model.stateMachines.find((m) => m.resource === o.resource)?.transitions.find((t) => t.name === o.transition)?.requires ?? [];
      request = request.filter((d) => d.now !== undefined && requires.includes(d.now));
    }
    const response = outName === undefined ? [] : (byResource.get(outName) ?? []);
    const r = o.action === 'create' && o.resource !== undefined ? model.resources.find((x) => x.name === o.resource) : undefined;
    const unsendable = r
      ? getFieldsAddedSince(model, version, r.name)
          .filter((f) => !mayLeaveOut(f, 'create') && isWritable(r, f, 'create'))
          .map((f) => f.name)
      : [];
    if (request.length + response.length + unsendable.length > 0) operations.push({ operation: o.id, request, response, unsendable });
  }
  const other = getChangesSince(model, version).flatMap((c) => (c.kind === 'other' ? [c.description ?? 'a change the spec does not describe'] : []));
  return { version, fields: [...byResource.values()].flat(), operations, other };
}
