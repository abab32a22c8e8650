import type { FieldModel, LimitsModel, OperationModel, ResourceModel, ServiceModel, StateMachineModel } from './model-types.js';

/** The limits of a spec that states none in `limits` (a list may still state its own page sizes). */
export const NO_LIMITS: LimitsModel = Object.freeze({ rate: Object.freeze([]) });

// Lookups by name, indexed once per model (models are frozen, so an index cannot go stale): the rules and
// routes look names up for every operation, which is quadratic with a linear search in large specs.
const resourceIndex = new WeakMap<ServiceModel, Map<string, ResourceModel>>();
const machineIndex = new WeakMap<ServiceModel, Map<string, StateMachineModel>>();

function indexOf<T>(cache: WeakMap<ServiceModel, Map<string, T>>, model: ServiceModel, list: readonly T[], key: (x: T) => string): Map<string, T> {
  let index = cache.get(model);
  if (!index) {
    index = new Map();
    // The first of equal names wins, as with a linear search.
    for (const x of list) if (!index.has(key(x))) index.set(key(x), x);
    if (Object.isFrozen(model)) cache.set(model, index);
  }
  return index;
}

export function getResource(model: ServiceModel, name: string | undefined): ResourceModel | undefined {
  return name === undefined ? undefined : indexOf(resourceIndex, model, model.resources, (r) => r.name).get(name);
}

export function getStateMachine(model: ServiceModel, resource: string | undefined): StateMachineModel | undefined {
  return resource === undefined ? undefined : indexOf(machineIndex, model, model.stateMachines, (m) => m.resource).get(resource);
}

/**
 * The resource renames a spec declares (`renamedFrom` on a resource, one earlier name or several), old name → current
 * name: each names a resource the spec no longer has (one it still has is not renamed: the name is ignored), and of
 * several resources renamed from one name only the first counts (check: resource-renamed-from-twice).
 */
export function getResourceRenames(model: ServiceModel): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  for (const r of model.resources) {
    for (const from of r.renamedFrom ?? []) {
      if (out.has(from) || getResource(model, from) !== undefined) continue;
      out.set(from, r.name);
    }
  }
  return out;
}

export function getField(resource: ResourceModel | undefined, name: string): FieldModel | undefined {
  return resource?.fields.find((f) => f.name === name);
}

/**
 * The field a state machine keeps its state in: the one it names, else the resource's one field of type state
 * (docs/format.md); undefined when it names none and the resource has not exactly one (check: state-field-mismatch).
 */
/**
 * A resource's fields as its `fields` declare them: with variants (a resource of several shapes), the shared ones, not
 * the tag the resource holds itself nor a variant's own; every field otherwise.
 */
export function getDeclaredFields(resource: ResourceModel): readonly FieldModel[] {
  if (resource.variants === undefined) return resource.fields;
  const tag = `${resource.pointer}/discriminator`;
  return resource.fields.filter((f) => f.ofVariants === undefined && f.pointer !== tag);
}

export function getStateField(model: ServiceModel, machine: StateMachineModel): string | undefined {
  if (machine.field !== undefined) return machine.field;
  const fields = getResource(model, machine.resource)?.fields.filter((f) => f.type === 'state') ?? [];
  return fields.length === 1 ? fields[0]!.name : undefined;
}

/** A list's page sizes as they apply to it, each key with the pointer of the spec's place that states it. */
export interface PageSizeInEffect {
  default?: number;
  max?: number;
  overMax?: 'reject' | 'clamp';
  /** Where each key is stated: the list's `paging/page_size/<key>`, else `/limits/page_size/<key>` (stated or not). */
  pointers: { default: string; max: string; overMax: string };
}

/**
 * The page sizes of a list operation: each key of its own `paging.page_size`, else limits.page_size's (one list may
 * cap at 25 and another at 100). Any other operation: limits.page_size's.
 */
export function getPageSize(model: ServiceModel, operation?: OperationModel): PageSizeInEffect {
  const own = operation?.paging?.pageSize;
  const all = model.limits?.pageSize;
  const at = (key: 'default' | 'max' | 'over_max', stated: boolean) =>
    stated && operation ? `${operation.pointer}/paging/page_size/${key}` : `/limits/page_size/${key}`;
  const def = own?.default ?? all?.default;
  const max = own?.max ?? all?.max;
  const overMax = own?.overMax ?? all?.overMax;
  return {
    ...(def !== undefined ? { default: def } : {}),
    ...(max !== undefined ? { max } : {}),
    ...(overMax !== undefined ? { overMax } : {}),
    pointers: {
      default: at('default', own?.default !== undefined),
      max: at('max', own?.max !== undefined),
      overMax: at('over_max', own?.overMax !== undefined),
    },
  };
}
