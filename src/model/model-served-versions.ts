// Served older versions: the declared changes checked against what the spec shows, and one document per version.
import { compareVersions, getOldFieldName, getVersionModel } from './model-versions.js';
import type { ServiceModel } from './model-types.js';
import { joinPointer } from '../util/util-json-pointer.js';

export { getVersionModel };

/** A declared change the spec does not show, and why. */
export interface UnshownChange {
  version: string;
  /** JSON pointer of the change in `versioning.supported[].changes`. */
  pointer: string;
  change: string;
  detail: string;
}

function hasField(model: ServiceModel, resource: string, field: string): boolean {
  return model.resources.find((r) => r.name === resource)?.fields.some((f) => f.name === field) === true;
}

/**
 * Each change `versioning.supported[i]` declares, checked against the next newer version (the current model with
 * the later versions' changes undone): an added field it does not have, a removed field it still has, a rename
 * whose old name it still has. Changes naming an undeclared resource are the checker's `unknown-resource`.
 */
export function getUnshownChanges(model: ServiceModel): UnshownChange[] {
  const v = model.versioning;
  if (!v || v.current === undefined) return [];
  const scheme = v.scheme ?? 'date';
  const versions = [...v.supported.map((s) => s.version), v.current].sort((a, b) => compareVersions(scheme, a, b));
  const out: UnshownChange[] = [];
  for (const s of v.supported) {
    const next = versions[versions.indexOf(s.version) + 1];
    const newer = next === undefined ? undefined : getVersionModel(model, next);
    if (!newer || next === undefined) continue;
    s.changes.forEach((c, i) => {
      if (c.resource === undefined || !model.resources.some((r) => r.name === c.resource)) return;
      const pointer = joinPointer(joinPointer(s.pointer, 'changes'), i);
      const report = (detail: string, change: string) => out.push({ version: s.version, pointer, change, detail });
      if (c.kind === 'add_field' && c.field !== undefined && !hasField(newer, c.resource, c.field)) {
        report(`version ${next} has no field ${c.field}`, `add_field ${c.resource}.${c.field}`);
      } else if (c.kind === 'remove_field' && c.field !== undefined && hasField(newer, c.resource, c.field)) {
        report(`version ${next} still has ${c.field}`, `remove_field ${c.resource}.${c.field}`);
      } else if (c.kind === 'rename_field' && c.from !== undefined && c.to !== undefined) {
        const change = `rename_field ${c.resource}.${c.from} → ${c.to}`;
        // A new name the next version does not have is the checker's unknown-field.
        if (hasField(newer, c.resource, c.from)) report(`version ${next} still has ${c.from}`, change);
      }
    });
  }
  return out;
}

/**
 * The model a document for one served version describes: `getVersionModel`, serving that version only, its event
 * payloads in the current shape. For an
 * older version a request names it (the service's default would answer in another version's shape), so the
 * document's version parameter is required and has that one value. Undefined when the spec does not serve it.
 */
export function getVersionDocumentModel(model: ServiceModel, version: string): ServiceModel | undefined {
  const vm = getVersionModel(model, version);
  const v = vm?.versioning;
  if (!vm || !v) return undefined;
  if (version === model.versioning?.current) return Object.freeze({ ...vm, versioning: { ...v, supported: [] } });
  // Query parameters keep the current names, as the runtime reads them; a filter or sort field the version does not
  // have (under any name) is left out of its document.
  const has = (resource: string, name: string) => getOldFieldName(model, version, resource, name) !== undefined;
  const endpoints = vm.endpoints && {
    ...vm.endpoints,
    operations: vm.endpoints.operations.map((o) => {
      const r = o.resource;
      if (r === undefined || (o.filter.every((f) => has(r, f)) && o.sort.every((f) => has(r, f)))) return o;
      const requiredFilters = o.requiredFilters?.filter((f) => has(r, f));
      const kept = {
        ...o,
        filter: o.filter.filter((f) => has(r, f)),
        sort: o.sort.filter((f) => has(r, f)),
        sortValues: o.sortValues.filter((v) => has(r, v.replace(/^-/, ''))),
      };
      if (requiredFilters === undefined || requiredFilters.length === 0) delete kept.requiredFilters;
      else kept.requiredFilters = requiredFilters;
      return kept;
    }),
  };
  // Events are sent in the current version (their envelope names it) whichever version a request names: a payload
  // of a resource this version shows differently keeps the current fields.
  const resources = new Map(model.resources.map((r) => [r.name, r]));
  const events = vm.events && {
    ...vm.events,
    kinds: vm.events.kinds.map((k) => {
      const r = k.payload?.resource === undefined ? undefined : resources.get(k.payload.resource);
      return r && k.payload && vm.resources.find((x) => x.name === r.name) !== r ? { ...k, payload: { fields: r.fields, list: k.payload.list } } : k;
    }),
  };
  return Object.freeze({
    ...vm,
    ...(endpoints ? { endpoints } : {}),
    ...(events ? { events } : {}),
    versioning: { ...v, supported: [], default: 'required' as const },
  });
}

/** Every version the spec serves: the current one and each supported one. */
export function getServedVersions(model: ServiceModel): string[] {
  const v = model.versioning;
  if (!v) return [];
  return [...new Set([...(v.current !== undefined ? [v.current] : []), ...v.supported.map((s) => s.version)])];
}
