import type { FieldModel, ResourceModel, ServiceModel, VersionChangeModel } from './model-types.js';
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

/**
 * The model as a client of `version` sees it. Only what `versioning.supported[].changes` declares differs from the
 * current model: a renamed field has its old name, an added field is absent, and a removed field is present as
 * `json`, optional, because the spec does not show its old shape. Undefined when the spec does not serve `version`.
 */
export function getVersionModel(model: ServiceModel, version: string): ServiceModel | undefined {
  const v = model.versioning;
  if (!v) return undefined;
  if (version === v.current) return model;
  if (!v.supported.some((s) => s.version === version)) return undefined;
  const scheme = v.scheme ?? 'date';
  const changes = [...getChangesSince(model, version)].reverse();
  const resources = new Map<string, ResourceModel>(model.resources.map((r) => [r.name, r]));
  const edit = (name: string | undefined, f: (fields: FieldModel[], r: ResourceModel) => FieldModel[]) => {
    const r = name === undefined ? undefined : resources.get(name);
    if (r) resources.set(r.name, { ...r, fields: f([...r.fields], r) });
  };
  for (const c of changes) {
    if (c.kind === 'rename_field' && c.from !== undefined && c.to !== undefined) {
      const { from, to } = c;
      edit(c.resource, (fields) => fields.map((x) => (x.name === to ? { ...x, name: from } : x)));
    } else if (c.kind === 'add_field' && c.field !== undefined) {
      const { field } = c;
      edit(c.resource, (fields) => fields.filter((x) => x.name !== field));
    } else if (c.kind === 'remove_field' && c.field !== undefined) {
      const { field } = c;
      edit(c.resource, (fields, r) =>
        fields.some((x) => x.name === field)
          ? fields
          : [...fields, { name: field, pointer: joinPointer(joinPointer(r.pointer, 'fields'), field), type: 'json', description: 'shape not shown in the spec', optional: true, nullable: false, readOnly: false, writeOnce: false, unique: false, hasDefault: false, hasExample: false }],
      );
    }
  }
  const supported = v.supported.filter((s) => compareVersions(scheme, s.version, version) < 0);
  return Object.freeze({
    ...model,
    file: `${model.file}@${version}`,
    resources: model.resources.map((r) => resources.get(r.name)!),
    versioning: { ...v, current: version, supported },
  });
}

/**
 * The current fields of `resource` a client of `version` cannot send: each added since that version (under its
 * current name, after later renames) and still in the current model. Empty for the current version.
 */
export function getFieldsAddedSince(model: ServiceModel, version: string, resource: string): FieldModel[] {
  const added: string[] = [];
  for (const c of getChangesSince(model, version)) {
    if (c.resource !== resource) continue;
    if (c.kind === 'add_field' && c.field !== undefined) added.push(c.field);
    else if (c.kind === 'remove_field' && c.field !== undefined) added.splice(0, added.length, ...added.filter((f) => f !== c.field));
    else if (c.kind === 'rename_field' && c.from !== undefined && c.to !== undefined) added.splice(0, added.length, ...added.map((f) => (f === c.from ? c.to! : f)));
  }
  const fields = getResource(model, resource)?.fields ?? [];
  return fields.filter((f) => added.includes(f.name));
}
