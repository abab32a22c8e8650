import type { FieldModel, ResourceModel, ServiceModel, StateMachineModel } from './model-types.js';

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

export function getField(resource: ResourceModel | undefined, name: string): FieldModel | undefined {
  return resource?.fields.find((f) => f.name === name);
}

/**
 * The field a state machine keeps its state in: the one it names, else the resource's one field of type state
 * (docs/format.md); undefined when it names none and the resource has not exactly one (check: state-field-mismatch).
 */
export function getStateField(model: ServiceModel, machine: StateMachineModel): string | undefined {
  if (machine.field !== undefined) return machine.field;
  const fields = getResource(model, machine.resource)?.fields.filter((f) => f.type === 'state') ?? [];
  return fields.length === 1 ? fields[0]!.name : undefined;
}
