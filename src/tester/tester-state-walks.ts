// Walks through a resource's state machine by the transitions the spec serves: the shortest path to each state from
// the initial one, and a new object walked to a state a transition leaves (shared by the states part, the transition
// bodies' probes, the idempotency check and the declared-parameter check).

import { getStateField } from '../model/model-lookup.js';
import { isSuccessAnswer, type OperationRoute } from '../model/model-routes.js';
import { describe, objectKey, type TestContext } from './tester-context.js';

/** The shortest path (transition routes) from `root` to each state reachable through `routes`, breadth-first. */
export function getStatePaths(root: string, routes: readonly OperationRoute[]): Map<string, OperationRoute[]> {
  const paths = new Map<string, OperationRoute[]>([[root, []]]);
  const queue = [root];
  while (queue.length > 0) {
    const state = queue.shift()!;
    for (const r of routes) {
      const t = r.transition!;
      if (!t.from.includes(state) || paths.has(t.to)) continue;
      paths.set(t.to, [...paths.get(state)!, r]);
      queue.push(t.to);
    }
  }
  return paths;
}

/**
 * A new object walked, by the shortest path of transitions the run has credentials for, to the nearest state
 * `route`'s transition leaves: its identifier, or why there is none. Each step must succeed and, where it answers
 * the object, leave it in the step's target state (a walk that goes wrong is states.pairs' to fail, not the caller's).
 */
export async function walkToTransition(ctx: TestContext, route: OperationRoute): Promise<{ id: unknown } | string> {
  const r = route.resource;
  const t = route.transition;
  const machine = r && ctx.model.stateMachines.find((m) => m.resource === r.name);
  const field = machine ? getStateField(ctx.model, machine) : undefined;
  if (!r || !t || !machine || !field || machine.initial === undefined) return `no initial state of ${r?.name ?? 'the resource'} to walk from`;
  const usable: OperationRoute[] = [];
  const auth = new Map<string, Record<string, string>>();
  for (const x of ctx.routes) {
    if (x.operation.action !== 'transition' || x.resource?.name !== r.name || !x.transition) continue;
    const h = await ctx.authFor(x.operation.auth).catch(() => undefined);
    if (!h) continue;
    usable.push(x);
    auth.set(x.operation.id, h);
  }
  const paths = getStatePaths(machine.initial, usable);
  const path = t.from
    .map((s) => paths.get(s))
    .filter((x): x is OperationRoute[] => x !== undefined)
    .sort((a, b) => a.length - b.length)[0];
  if (!path) return `no state ${t.name} leaves (${t.from.join(', ')}) is reached from a new ${r.name}`;
  const made = await ctx.createObject(r);
  if (!made) return `no credential to create a ${r.name}`;
  if (made.res.status >= 300) return `no ${r.name} could be made (${describe(made.res)})`;
  const id = objectKey(r, made.res.body as Record<string, unknown>);
  for (const step of path) {
    const res = await ctx.send(step, {
      method: step.method,
      path: ctx.pathOf(step, id),
      headers: auth.get(step.operation.id)!,
      body: await ctx.transitionBody(step, id),
    });
    const body = res.body as Record<string, unknown> | undefined;
    if (!isSuccessAnswer(step, res.status) || (body !== undefined && typeof body === 'object' && body[field] !== step.transition!.to))
      return `a ${r.name} could not be walked to ${t.from.join(' or ')} (${step.operation.id}: ${describe(res)})`;
  }
  return { id };
}
