// A served older version as a model of its own: the current model with the declared changes undone, newest first.
import { getChangesSince, compareVersions } from '../model/model-versions.js';
import type { FieldModel, ResourceModel, ServiceModel } from '../model/model-types.js';
import { joinPointer } from '../spec/spec-loader.js';

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
