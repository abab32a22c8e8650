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
