import fc from 'fast-check';
import { isSuccessAnswer, LIST_PARAMS, PAGE_FIELDS, type OperationRoute } from '../model/model-routes.js';
import { getStateField } from '../model/model-lookup.js';
import { mayLeaveOut } from '../model/model-defaults.js';
import { isAnswered } from '../model/model-schemas.js';
import { sortedJson } from './tester-arbitraries.js';
import type { TestRequest } from './tester-http.js';
import {
  checkListFilters,
  checkListShapes,
  exactlyFullPage,
  getLargestPageSize,
  saysMore,
  varyField,
  checkSortOrder,
  fillPool,
  isDefaultPaging,
  listedCopyMismatch,
  pageThrough,
} from './tester-checks-lists.js';
import { describe, type TestContext } from './tester-context.js';
import { getStatePaths } from './tester-state-walks.js';
import { runProperty } from './tester-checks-endpoints.js';
import type { ResourceModel, StateMachineModel } from '../model/model-types.js';
import type { Failure } from './tester-types.js';

// The states part: every transition tried in every reachable state (the pairs, by construction), then generated
// sequences of transitions on a fresh object for interleavings, each compared with the reference machine the spec
// declares; then lists paged through with every sort, and filtered.

/**
 * The main subject's objects a list shows in states not in `reached` (states no legal path from a create leads
 * to: set by the service itself, or by data it was given), by state; and the request that listed the first.
 */
async function getListedStates(
  ctx: TestContext,
  machine: StateMachineModel,
  resource: ResourceModel,
  field: string,
  reached: ReadonlySet<string>,
): Promise<{ ids: Map<string, unknown[]>; req?: TestRequest }> {
  const ids = new Map<string, unknown[]>();
  const wanted = new Set(machine.states.map((x) => x.name).filter((x) => !reached.has(x)));
  const list = ctx.routes.find((r) => r.operation.action === 'list' && r.resource?.name === resource.name);
  const headers = list && wanted.size > 0 ? await ctx.authFor(list.operation.auth).catch(() => undefined) : undefined;
  if (!list || !headers) return { ids };
  let first: TestRequest | undefined;
  await pageThrough(ctx, list, headers, (items, req) => {
    for (const item of items) {
      const state = item?.[field];
      const id = item?.[resource.identifier ?? 'id'];
      if (typeof state !== 'string' || !wanted.has(state) || id === undefined) continue;
      first ??= req;
      ids.set(state, [...(ids.get(state) ?? []), id]);
    }
  });
  return { ids, ...(first ? { req: first } : {}) };
}

interface Walked {
  id: unknown;
  /** The requests that made the object and walked it there, as curl lines. */
  trail: string[];
  /** The object as the last of them answered it (the create, or the last transition), when one did. */
  last?: Record<string, unknown>;
}

/**
 * The first field a legal transition changed that it has no say in, from the object as answered before it (`was`) to
 * as answered after it (`now`): a field a client writes but the transition's own `requires` (which its request may
 * carry), the identifier, a `create_time`, and another transition's `stamp` (a read-only time no other rule sets).
 * The state field, its own stamp, and the other read-only fields (an `updated_at`, a `source: service` value) may
 * change. Undefined when none did; a field absent or `null` on both sides is unchanged.
 */
export function transitionSideEffect(
  resource: ResourceModel,
  machine: StateMachineModel,
  t: { name: string; stamp?: string; requires: readonly string[] },
  was: Record<string, unknown>,
  now: Record<string, unknown>,
): string | undefined {
  const otherStamps = new Set(machine.transitions.filter((x) => x.name !== t.name && x.stamp !== undefined).map((x) => x.stamp!));
  const kept = (f: ResourceModel['fields'][number]) =>
    f.name === resource.identifier ||
    f.generated === 'create_time' ||
    (!f.readOnly && f.type !== 'state') ||
    (otherStamps.has(f.name) && f.name !== t.stamp && f.generated === undefined && f.source === undefined);
  const norm = (v: unknown) => (v === undefined || v === null ? 'null' : sortedJson(v));
  const f = resource.fields.find(
    (f) => kept(f) && f.name !== t.stamp && !t.requires.includes(f.name) && isAnswered(resource, f.name) && norm(was[f.name]) !== norm(now[f.name]),
  );
  return f === undefined
    ? undefined
    : `${f.name} ${JSON.stringify(was[f.name]) ?? '(absent)'} before ${t.name}, ${JSON.stringify(now[f.name]) ?? '(absent)'} after`;
}

/**
 * In each state reachable from a new object, every transition of the machine: the legal ones succeed and land in
 * their `to` (read back), every other one gets the declared illegal-transition answer and leaves the object as it
 * was (read back). Deterministic: a transition out of a terminal state, or an illegal one from the initial state,
 * is caught on every seed.
 */
async function checkStatePairs(
  ctx: TestContext,
  machine: StateMachineModel,
  resource: ResourceModel,
  field: string,
  transitions: readonly OperationRoute[],
  read: OperationRoute | undefined,
): Promise<void> {
  if (!ctx.selected('states', 'states.pairs') || ctx.stopped) return;
  const headers = new Map<string, Record<string, string>>();
  for (const t of transitions) {
    const h = await ctx.authFor(t.operation.auth).catch(() => undefined);
    if (h) headers.set(t.operation.id, h);
  }
  const readHeaders = read ? await ctx.authFor(read.operation.auth).catch(() => undefined) : undefined;
  let root = machine.initial;
  if (root === undefined) {
    // No declared initial state: walk from the state a new object shows.
    const made = await ctx.createObject(resource).catch(() => undefined);
    const shown = made?.res.body?.[field];
    if (typeof shown === 'string') root = shown;
  }
  if (root === undefined) {
    ctx.skip(
      'states',
      'states.pairs',
      `${machine.resource} (${field})`,
      `no state to start from: the machine declares no initial state and a new ${resource.name} shows none`,
    );
    return;
  }
  const all = getStatePaths(root, transitions);
  const walkable = getStatePaths(
    root,
    transitions.filter((t) => headers.has(t.operation.id)),
  );
  // States a list shows that no legal path from a create reaches are starting points too: a listed object in one
  // is walked on from there (each listed object used once), and so are the states only those lead to.
  const listed = await getListedStates(ctx, machine, resource, field, new Set(all.keys()));
  const plans: { state: string; path: OperationRoute[]; from?: string }[] = [...all].map(([state, path]) => ({ state, path }));
  for (const from of listed.ids.keys()) {
    for (const [state, path] of getStatePaths(from, transitions))
      if (!all.has(state) && !plans.some((p) => p.state === state)) plans.push({ state, path, from });
  }
  ctx.statePairs.total += plans.length * transitions.length;
  const idName = resource.identifier ?? 'id';

  /** An object walked to `state` by `path`, from a new one or a listed one in `from`; a failure when a step goes wrong, a string when there is none to walk. */
  const walk = async (
    state: string,
    path: readonly OperationRoute[],
    from?: string,
    createBody?: Record<string, unknown>,
  ): Promise<Walked | Failure | string> => {
    let id: unknown;
    let trail: string[];
    let last: Record<string, unknown> | undefined;
    if (from !== undefined) {
      id = listed.ids.get(from)?.shift();
      if (id === undefined) return `no listed ${resource.name} in ${from} left to try it on (each object a list showed is used once)`;
      trail = [`# ${resource.name} ${String(id)} in ${from}, as a list showed it:`, ctx.client.curl(listed.req!)];
    } else {
      const made = await ctx.createObject(resource, createBody);
      if (!made) return `no credential to create a ${resource.name}`;
      if (made.res.status >= 300)
        return ctx.failure(resource.name, `a created ${resource.name} to walk the machine from`, resource.pointer, made.req, made.res);
      id = made.res.body?.[idName];
      if (machine.initial !== undefined && made.res.body?.[field] !== machine.initial)
        return ctx.failure(
          resource.name,
          `a new ${resource.name} in the initial state ${machine.initial}`,
          machine.pointer,
          made.req,
          `${field} is ${JSON.stringify(made.res.body?.[field])}`,
        );
      trail = [`# ${resource.name} ${String(id)} made by:`, ctx.client.curl(made.req)];
      last = made.res.body as Record<string, unknown> | undefined;
    }
    for (const r of path) {
      const t = r.transition!;
      const req: TestRequest = { method: r.method, path: ctx.pathOf(r, id), headers: headers.get(r.operation.id)!, body: await ctx.transitionBody(r, id) };
      const res = await ctx.send(r, req);
      if (!isSuccessAnswer(r, res.status) || res.body?.[field] !== t.to) {
        const f = ctx.failure(r.operation.id, `${t.name} succeeds (${r.successStatus}) and lands in ${t.to}, on the way to ${state}`, t.pointer, req, res);
        return { ...f, curl: [...trail, `# then (${t.name}):`, f.curl ?? ''].join('\n') };
      }
      trail.push(`# then (${t.name}):`, ctx.client.curl(req));
      last = res.body as Record<string, unknown> | undefined;
    }
    return { id, trail, ...(last && typeof last === 'object' && !Array.isArray(last) ? { last } : {}) };
  };
  const readBack = async (id: unknown): Promise<{ req: TestRequest; res: Awaited<ReturnType<TestContext['send']>> } | undefined> => {
    if (!read || !readHeaders) return undefined;
    const req: TestRequest = { method: 'GET', path: ctx.pathOf(read, id), headers: readHeaders };
    return { req, res: await ctx.send(read, req) };
  };
  // A new object to walk holds every optional field, none null (as an update's starts from one), so a transition
  // that clears one it has no say in shows (transitionSideEffect).
  const complete = async () => ctx.withRequiredFilters(resource, await ctx.sampleCreateBody(resource, 0, true));
  const withTrail = (f: Failure, w: Walked): Failure => ({ ...f, curl: [...w.trail, '# then:', f.curl ?? ''].join('\n') });

  // Each transition's first legal try is followed by the resource's lists: the copy they show must be the read's.
  const listedAfter = new Set<string>();
  for (const { state, path: pathToState, from } of plans) {
    const terminal = machine.states.find((x) => x.name === state)?.terminal === true;
    const shown = from === undefined ? '' : from === state ? ', shown by a list' : `, from a listed ${from}`;
    await ctx.check('states', 'states.pairs', `${machine.resource} in ${state}${terminal ? ' (terminal)' : ''}${shown}`, async (scope) => {
      const path = from === undefined ? walkable.get(state) : pathToState.every((r) => headers.has(r.operation.id)) ? pathToState : undefined;
      if (!path)
        return scope.skip(
          `cannot reach ${state}: no credential for ${pathToState
            .filter((r) => !headers.has(r.operation.id))
            .map((r) => r.operation.id)
            .join(', ')}`,
        );
      const usable = transitions.filter((t) => headers.has(t.operation.id));
      const illegal = usable.filter((t) => !t.transition!.from.includes(state));
      const legal = usable.filter((t) => t.transition!.from.includes(state));
      // Illegal tries leave the object where it is: one object serves them all, then each legal one gets its own.
      let w: Walked | Failure | string | undefined;
      if (illegal.length > 0) {
        w = await walk(state, path, from, await complete());
        if (typeof w === 'string') return scope.skip(w);
        if (!('id' in w)) return scope.fail(w);
        const before = await readBack(w.id);
        if (before && (before.res.status !== 200 || before.res.body?.[field] !== state))
          return scope.fail(withTrail(ctx.failure(read!.operation.id, `a read shows ${field} = ${state}`, machine.pointer, before.req, before.res), w));
        for (const r of illegal) {
          const t = r.transition!;
          const req: TestRequest = {
            method: r.method,
            path: ctx.pathOf(r, w.id),
            headers: headers.get(r.operation.id)!,
            body: await ctx.transitionBody(r, w.id),
          };
          const res = await ctx.send(r, req);
          const d = ctx.declared('illegal_transition');
          const why = res.status < 300 ? `status ${res.status}: the transition was allowed` : ctx.expectCondition(res, 'illegal_transition');
          ctx.statePairs.tried++;
          const expected = `${d ? `${d.code} (${d.status})` : 'a refusal'}: ${t.name} is not allowed from ${state}${terminal ? ', a terminal state' : ''} (only from ${t.from.join(', ')})`;
          if (why !== undefined) return scope.fail(withTrail(ctx.failure(r.operation.id, expected, t.pointer, req, `${why}; ${describe(res)}`), w));
          const after = await readBack(w.id);
          if (before && after && JSON.stringify(after.res.body) !== JSON.stringify(before.res.body)) {
            return scope.fail(
              withTrail(
                ctx.failure(
                  r.operation.id,
                  `the ${resource.name} unchanged after the refused ${t.name}`,
                  t.pointer,
                  req,
                  `a read before showed ${JSON.stringify(before.res.body).slice(0, 200)}, after: ${JSON.stringify(after.res.body).slice(0, 200)}`,
                ),
                w,
              ),
            );
          }
        }
      }
      for (const [i, r] of legal.entries()) {
        const t = r.transition!;
        // A field the transition requires that a create may leave out: on an object made with it, the request may
        // leave it out (success); on one made without it, a request leaving it out is refused with `validation`
        // and changes nothing (the guard), before the request giving it is tried below.
        const guarded = t.requires.filter((n) => {
          const f = resource.fields.find((x) => x.name === n);
          return f !== undefined && mayLeaveOut(f);
        });
        if (guarded.length > 0 && from === undefined && read && readHeaders) {
          const held = await walk(state, path, undefined, await ctx.sampleCreateBody(resource, 0, true));
          if (typeof held === 'string') return scope.skip(held);
          if (!('id' in held)) return scope.fail(held);
          const shown = await readBack(held.id);
          if (shown?.res.status === 200 && guarded.every((n) => shown.res.body?.[n] !== undefined && shown.res.body?.[n] !== null)) {
            const body = await ctx.transitionBody(r, held.id);
            for (const n of guarded) delete body[n];
            const req: TestRequest = { method: r.method, path: ctx.pathOf(r, held.id), headers: headers.get(r.operation.id)!, body };
            const res = await ctx.send(r, req);
            if (!isSuccessAnswer(r, res.status) || res.body?.[field] !== t.to)
              return scope.fail(
                withTrail(
                  ctx.failure(
                    r.operation.id,
                    `${t.name} from ${state} succeeds (${r.successStatus}) and lands in ${t.to}: the ${resource.name} holds ${guarded.join(', ')}, which the request need not give again`,
                    t.pointer,
                    req,
                    res,
                  ),
                  held,
                ),
              );
          }
          const bare = await ctx.sampleCreateBody(resource);
          for (const n of guarded) delete bare[n];
          const lacking = await walk(state, path, undefined, bare);
          if (typeof lacking === 'string') return scope.skip(lacking);
          if (!('id' in lacking)) return scope.fail(lacking);
          const before = await readBack(lacking.id);
          const unset = guarded.filter((n) => before?.res.body?.[n] === undefined || before.res.body[n] === null);
          if (before?.res.status === 200 && unset.length > 0) {
            const req: TestRequest = { method: r.method, path: ctx.pathOf(r, lacking.id), headers: headers.get(r.operation.id)!, body: {} };
            const res = await ctx.send(r, req);
            const why = res.status < 300 ? `status ${res.status}: the transition was allowed` : ctx.expectCondition(res, 'validation');
            const after = await readBack(lacking.id);
            const changed = after && JSON.stringify(after.res.body) !== JSON.stringify(before.res.body);
            if (why !== undefined || changed)
              return scope.fail(
                withTrail(
                  ctx.failure(
                    r.operation.id,
                    `${ctx.declared('validation')?.code ?? 'validation'}: ${t.name} requires ${unset.join(', ')}, which the ${resource.name} lacks and the request leaves out; the ${resource.name} unchanged`,
                    t.pointer,
                    req,
                    why !== undefined ? `${why}; ${describe(res)}` : `a read after shows ${JSON.stringify(after?.res.body).slice(0, 200)}`,
                  ),
                  lacking,
                ),
              );
          }
          w = lacking;
        } else if (i > 0 || !w) w = await walk(state, path, from, await complete());
        if (typeof w === 'string') return scope.skip(`tried ${i} of the ${legal.length} legal transitions from ${state}: ${w}`);
        if (!('id' in w)) return scope.fail(w);
        const body = await ctx.transitionBody(r, w.id);
        const req: TestRequest = { method: r.method, path: ctx.pathOf(r, w.id), headers: headers.get(r.operation.id)!, body };
        const res = await ctx.send(r, req);
        ctx.statePairs.tried++;
        if (!isSuccessAnswer(r, res.status))
          return scope.fail(
            withTrail(ctx.failure(r.operation.id, `${t.name} from ${state} succeeds (${r.successStatus}) and lands in ${t.to}`, t.pointer, req, res), w),
          );
        if (res.body?.[field] !== t.to)
          return scope.fail(withTrail(ctx.failure(r.operation.id, `${field} = ${t.to} after ${t.name} from ${state}`, t.pointer, req, res), w));
        // The stamp, on every legal pair (the sequences meet each transition only at random).
        if (t.stamp !== undefined && (typeof res.body?.[t.stamp] !== 'string' || Number.isNaN(Date.parse(res.body[t.stamp] as string))))
          return scope.fail(withTrail(ctx.failure(r.operation.id, `${t.stamp} stamped by ${t.name} from ${state}`, t.pointer, req, res), w));
        ctx.checkShape(resource, res.body, req, r.operation.id);
        const after = await readBack(w.id);
        if (after && (after.res.status !== 200 || after.res.body?.[field] !== t.to))
          return scope.fail(
            withTrail(ctx.failure(read!.operation.id, `a read after ${t.name} from ${state} shows ${field} = ${t.to}`, t.pointer, after.req, after.res), w),
          );
        // What the transition has no say in is as it was: a transition that clears an assignee, or stamps another's
        // time, changes what its request does not carry.
        const changed = w.last ? transitionSideEffect(resource, machine, t, w.last, (after?.res.body ?? res.body) as Record<string, unknown>) : undefined;
        if (changed !== undefined)
          return scope.fail(
            withTrail(
              ctx.failure(
                r.operation.id,
                `${t.name} from ${state} changes ${field}${t.stamp ? ` and ${t.stamp}` : ''}${t.requires.length > 0 ? ` (and may set ${t.requires.join(', ')})` : ''}, nothing else`,
                t.pointer,
                after?.req ?? req,
                changed,
              ),
              w,
            ),
          );
        // Once per transition (a list walked per pair would cost pages each): a list cache the transition does not
        // refresh (a projection updated on create and update only) still shows the state it left.
        if (after && !listedAfter.has(r.operation.id) && after.res.body && typeof after.res.body === 'object' && !Array.isArray(after.res.body)) {
          listedAfter.add(r.operation.id);
          const stale = await listedCopyMismatch(ctx, resource, after.res.body as Record<string, unknown>);
          if (stale)
            return scope.fail({
              ...ctx.failure(r.operation.id, `${stale.expected} after ${t.name} from ${state}`, t.pointer, stale.req, stale.actual),
              curl: [...w.trail, `# then (${t.name}):`, ctx.client.curl(req), '# then (the list):', ctx.client.curl(stale.req)].join('\n'),
            });
        }
        w = undefined;
      }
      const missing = transitions.filter((t) => !headers.has(t.operation.id));
      if (missing.length > 0)
        scope.skip(
          `tried ${usable.length} of ${transitions.length} transitions in ${state}; no credential for ${missing.map((t) => t.operation.id).join(', ')}`,
        );
    });
  }
}

export async function checkStates(ctx: TestContext, runs: number): Promise<void> {
  for (const machine of ctx.model.stateMachines) {
    const resource = ctx.model.resources.find((r) => r.name === machine.resource);
    const transitions = ctx.routes.filter((r) => r.operation.action === 'transition' && r.resource?.name === machine.resource && r.transition);
    const read = ctx.routes.find((r) => r.operation.action === 'read' && r.resource?.name === machine.resource);
    const field = getStateField(ctx.model, machine);
    const target = `${machine.resource} (${field ?? 'state'})`;
    if (!resource || !field || transitions.length === 0) {
      ctx.skip('states', 'states.pairs', target, 'no transition operations serve this machine');
      ctx.skip('states', 'states.sequences', target, 'no transition operations serve this machine');
      continue;
    }
    await checkStatePairs(ctx, machine, resource, field, transitions, read);
    await ctx.check('states', 'states.sequences', target, async (scope) => {
      const headers = new Map<string, Record<string, string>>();
      for (const t of transitions) {
        const h = await ctx.authFor(t.operation.auth);
        if (h) headers.set(t.operation.id, h);
      }
      const usable = transitions.filter((t) => headers.has(t.operation.id));
      const missing = transitions.filter((t) => !headers.has(t.operation.id)).map((t) => t.operation.id);
      if (usable.length === 0) return scope.skip(`no credential for ${missing.join(', ')}`);
      const readHeaders = read ? await ctx.authFor(read.operation.auth) : undefined;
      // Where a transition requires a field a create may leave out, every other sequence walks an object made
      // without it, so that the transition meets its guard (the object lacks the field: refused, then given), and
      // the others one made with it, whose transitions leave it out of the request (it may carry it, need not): a
      // guard not enforced, or one read from the request alone, shows.
      const guarded = new Set(transitions.flatMap((t) => t.transition!.requires));
      const guardedOut = resource.fields.filter((f) => guarded.has(f.name) && mayLeaveOut(f)).map((f) => f.name);
      const steps = fc.tuple(
        fc.array(fc.constantFrom(...usable), { minLength: 1, maxLength: Math.min(6, machine.states.length + 2) }),
        guardedOut.length > 0 ? fc.boolean() : fc.constant(false),
      );
      await runProperty(ctx, scope, steps, runs, async ([sequence, lacking]) => {
        let body: Record<string, unknown> | undefined;
        if (guardedOut.length > 0) {
          body = await ctx.sampleCreateBody(resource, 0, !lacking);
          if (lacking) for (const n of guardedOut) delete body[n];
        }
        const made = await ctx.createObject(resource, body);
        if (!made || made.res.status >= 300)
          return made ? ctx.failure(resource.name, 'a created object to walk the machine from', resource.pointer, made.req, made.res) : undefined;
        const id = made.res.body[resource.identifier ?? 'id'];
        let state = machine.initial;
        let obj = made.res.body as Record<string, unknown>;
        if (state !== undefined && made.res.body[field] !== state)
          return ctx.failure(
            resource.name,
            `a new object in the initial state ${state}`,
            machine.pointer,
            made.req,
            `${field} is ${JSON.stringify(made.res.body[field])}`,
          );
        const trail: string[] = [`# ${resource.name} ${String(id)} made by:`, ctx.client.curl(made.req)];
        for (const route of sequence) {
          const f = await step(ctx, route, field, id, state, obj, headers.get(route.operation.id)!, guardedOut.length > 0 && !lacking);
          if (f.failure)
            return { ...f.failure, curl: [...trail, `# then (${sequence.map((x) => x.transition!.name).join(' → ')}):`, f.failure.curl ?? ''].join('\n') };
          trail.push(ctx.client.curl({ method: route.method, path: ctx.pathOf(route, id), headers: headers.get(route.operation.id)!, body: f.body ?? {} }));
          state = f.state;
          obj = f.obj;
          if (read && readHeaders) {
            const req: TestRequest = { method: 'GET', path: ctx.pathOf(read, id), headers: readHeaders };
            const res = await ctx.send(read, req);
            if (res.status !== 200 || res.body?.[field] !== state)
              return ctx.failure(
                read.operation.id,
                `a read after ${sequence.map((s) => s.transition!.name).join(' → ')} shows ${field} = ${state}`,
                machine.pointer,
                req,
                res,
              );
          }
        }
        return undefined;
      });
      if (missing.length > 0) scope.skip(`walked ${usable.map((t) => t.operation.id).join(', ')}; no credential for ${missing.join(', ')}`);
    });
  }
  await checkLists(ctx);
  await checkListShapes(ctx);
}

/** One transition on an object in `state`: the reference machine says whether it succeeds and where it lands. */
async function step(
  ctx: TestContext,
  route: OperationRoute,
  field: string,
  id: unknown,
  state: string | undefined,
  obj: Record<string, unknown>,
  headers: Record<string, string>,
  leaveOutHeld = false,
): Promise<{ failure?: Failure; state: string | undefined; obj: Record<string, unknown>; body?: Record<string, unknown> }> {
  const t = route.transition!;
  const o = route.operation;
  const resource = route.resource!;
  const body = await ctx.transitionBody(route, id);
  const legal = state !== undefined && t.from.includes(state);
  const unset = t.requires.filter((n) => obj[n] === undefined || obj[n] === null);
  // A required field the object holds already need not be sent again.
  if (leaveOutHeld) for (const n of t.requires) if (!unset.includes(n)) delete body[n];
  if (legal && unset.length > 0) {
    // A required field the object lacks and the request leaves out is refused; the object stays where it was.
    const req: TestRequest = { method: route.method, path: ctx.pathOf(route, id), headers, body: {} };
    const res = await ctx.send(route, req);
    const why = ctx.expectCondition(res, 'validation');
    if (why !== undefined)
      return {
        failure: ctx.failure(
          o.id,
          `${ctx.declared('validation')?.code ?? 'validation'}: ${t.name} requires ${unset.join(', ')}, which the object lacks`,
          t.pointer,
          req,
          `${why}; ${describe(res)}`,
        ),
        state,
        obj,
      };
  }
  const req: TestRequest = { method: route.method, path: ctx.pathOf(route, id), headers, body };
  const res = await ctx.send(route, req);
  if (legal) {
    if (!isSuccessAnswer(route, res.status))
      return { failure: ctx.failure(o.id, `${t.name} from ${state} succeeds (${route.successStatus}) and lands in ${t.to}`, t.pointer, req, res), state, obj };
    if (res.body?.[field] !== t.to) return { failure: ctx.failure(o.id, `${field} = ${t.to} after ${t.name}`, t.pointer, req, res), state, obj };
    for (const [k, v] of Object.entries(body))
      if (isAnswered(resource, k) && JSON.stringify(res.body?.[k]) !== JSON.stringify(v))
        return { failure: ctx.failure(o.id, `${k} recorded as sent by ${t.name}`, t.pointer, req, res), state, obj };
    if (t.stamp !== undefined && (typeof res.body?.[t.stamp] !== 'string' || Number.isNaN(Date.parse(res.body[t.stamp] as string))))
      return { failure: ctx.failure(o.id, `${t.stamp} stamped by ${t.name}`, t.pointer, req, res), state, obj };
    ctx.checkShape(resource, res.body, req, o.id);
    return { state: t.to, obj: res.body as Record<string, unknown>, body };
  }
  const d = ctx.declared('illegal_transition');
  const why = ctx.expectCondition(res, 'illegal_transition');
  if (why !== undefined)
    return {
      failure: ctx.failure(
        o.id,
        `${d?.code ?? 'illegal_transition'} (${d?.status ?? '?'}): ${t.name} is not allowed from ${state} (only from ${t.from.join(', ')})`,
        t.pointer,
        req,
        `${why}; ${describe(res)}`,
      ),
      state,
      obj,
    };
  return { state, obj, body };
}

/** Lists: every sort, ascending and descending, paged with cursors, with no duplicate and no gap; filters hold. */
async function checkLists(ctx: TestContext): Promise<void> {
  for (const route of ctx.routes.filter((r) => r.operation.action === 'list' && r.resource && isDefaultPaging(r))) {
    const o = route.operation;
    const resource = route.resource!;
    await ctx.check('endpoints', 'endpoints.list-paging', o.id, async (scope) => {
      const headers = await ctx.authFor(o.auth);
      if (!headers) return scope.skip('no credential for this operation');
      if (!(await fillPool(ctx, resource, 5))) return scope.skip(`cannot create ${resource.name} objects to page through`);
      for (const field of o.sort) await varyField(ctx, resource, field, ctx.pool.get(resource.name)!);
      const mine = new Set((ctx.pool.get(resource.name) ?? []).map((x) => JSON.stringify(x[resource.identifier ?? 'id'])));
      const sorts = [undefined, ...o.sortValues];
      let current: Record<string, unknown>[] = [];
      for (const sort of sorts) {
        const seen: Record<string, unknown>[] = [];
        const pages: { req: TestRequest; count: number }[] = [];
        let cursor: string | undefined;
        for (let page = 0; page < 200; page++) {
          const query: Record<string, string> = { [LIST_PARAMS.limit]: '2' };
          if (sort) query[o.sortParam ?? LIST_PARAMS.sort] = sort;
          if (cursor) query[LIST_PARAMS.cursor] = cursor;
          const req: TestRequest = { method: 'GET', path: ctx.pathOf(route, undefined, query), headers };
          const res = await ctx.send(route, req);
          if (res.status !== 200 || !Array.isArray(res.body?.[PAGE_FIELDS.items])) return scope.fail(ctx.failure(o.id, 'a page', o.pointer, req, res));
          seen.push(...(res.body[PAGE_FIELDS.items] as Record<string, unknown>[]));
          pages.push({ req, count: (res.body[PAGE_FIELDS.items] as unknown[]).length });
          cursor = typeof res.body[PAGE_FIELDS.next] === 'string' ? (res.body[PAGE_FIELDS.next] as string) : undefined;
          if (!cursor) break;
        }
        if (sort === undefined) current = seen;
        const ids = seen.map((x) => JSON.stringify(x[resource.identifier ?? 'id']));
        const dup = ids.find((x, i) => ids.indexOf(x) !== i);
        const req: TestRequest = {
          method: 'GET',
          path: ctx.pathOf(route, undefined, { [LIST_PARAMS.limit]: '2', ...(sort ? { [o.sortParam ?? LIST_PARAMS.sort]: sort } : {}) }),
          headers,
        };
        // The reproduction: every page up to the one where the object shows again, cursors as sent.
        if (dup !== undefined)
          return scope.fail({
            ...ctx.failure(o.id, 'each object once across pages', o.pointer, req, `${dup} appears twice`),
            curl: ctx.client.curlPages(
              pages,
              ids.findIndex((x, i) => ids.indexOf(x) !== i),
              `${dup} again`,
            ),
          });
        const gap = [...mine].find((x) => !ids.includes(x));
        if (gap !== undefined && ctx.pool.get(resource.name)!.some((x) => JSON.stringify(x[resource.identifier ?? 'id']) === gap))
          return scope.fail({
            ...ctx.failure(o.id, 'every object of the caller across pages', o.pointer, req, `${gap} missing after ${seen.length} items`),
            curl: ctx.client.curlPages(pages, seen.length, `the last: ${gap} on none`),
          });
        const disorder = sort ? await checkSortOrder(ctx, route, sort, seen, req, pages) : undefined;
        if (disorder) return scope.fail(disorder);
      }
      // A list declaring the format's own paging: a next cursor on an exactly full last page (checkListShapes).
      if (saysMore(route) && current.length > 0 && current.length <= getLargestPageSize(ctx, o)) {
        const full = await exactlyFullPage(ctx, route, headers, LIST_PARAMS.limit, current.length);
        if (full) return scope.fail(full);
      }
      const filtered = await checkListFilters(ctx, route, current, headers);
      if (filtered) scope.fail(filtered);
    });
  }
}
