import { isDeepStrictEqual } from 'node:util';
import { getRoutes, type OperationRoute, type StreamRoute } from '../model/model-routes.js';
import { pageSizeQuery } from './tester-checks-lists.js';
import { isRawEvent } from '../model/model-defaults.js';
import type { EventKindModel, ResourceModel, ServiceModel, StateMachineModel } from '../model/model-types.js';
import type { EventStream, StreamEvent, TestRequest, TestResponse } from './tester-http.js';
import { describe, type TestContext } from './tester-context.js';
import type { Failure } from './tester-types.js';
import { checkCallbacks } from './tester-checks-callbacks.js';
import { checkWebhooks } from './tester-checks-webhooks.js';

// The events part: each declared trigger produces exactly its kind on the stream, once, with the object it
// is about; another subject's stream does not show it.

const WAIT_MS = 3000;
const GRACE_MS = 300;

/** The transitions that lead from the initial state to one of `targets`, shortest first (breadth-first). */
function pathTo(machine: StateMachineModel, targets: readonly string[]): string[] | undefined {
  if (machine.initial === undefined) return undefined;
  const queue: { state: string; path: string[] }[] = [{ state: machine.initial, path: [] }];
  const seen = new Set([machine.initial]);
  while (queue.length > 0) {
    const { state, path } = queue.shift()!;
    if (targets.includes(state)) return path;
    for (const t of machine.transitions) {
      if (!t.from.includes(state) || seen.has(t.to)) continue;
      seen.add(t.to);
      queue.push({ state: t.to, path: [...path, t.name] });
    }
  }
  return undefined;
}

async function openStream(ctx: TestContext, stream: StreamRoute, headers: Record<string, string>): Promise<EventStream> {
  const s = await ctx.client.openStream(ctx.fillVersion(stream.path), headers);
  await s.waitFor(() => s.opened, WAIT_MS);
  return s;
}

/**
 * The payload an event on the stream carries: the envelope's `data.object`, or for a kind whose body is raw the whole
 * `data` (its kind named by the `event:` line).
 */
function createPayloadOf(model: ServiceModel): (e: StreamEvent) => Record<string, unknown> | undefined {
  const raw = new Set((model.events?.kinds ?? []).filter(isRawEvent).map((k) => k.name));
  return (e) => {
    const d = e.data as { data?: { object?: Record<string, unknown> } } | Record<string, unknown> | undefined;
    if (e.event !== undefined && raw.has(e.event)) return d !== null && typeof d === 'object' ? (d as Record<string, unknown>) : undefined;
    return (d as { data?: { object?: Record<string, unknown> } } | undefined)?.data?.object;
  };
}

const aboutObject = (payloadOf: (e: StreamEvent) => Record<string, unknown> | undefined, resource: ResourceModel, id: unknown) => (e: StreamEvent) =>
  payloadOf(e)?.[resource.identifier ?? 'id'] === id;

export async function checkEvents(ctx: TestContext): Promise<void> {
  const kinds = ctx.model.events?.kinds ?? [];
  if (kinds.length === 0) {
    ctx.skip('events', 'events.emitted', 'events', 'the spec declares no event kinds');
    return;
  }
  const stream = getRoutes(ctx.model).find((r): r is StreamRoute => r.kind === 'stream');
  const payloadOf = createPayloadOf(ctx.model);
  for (const kind of kinds) {
    for (const trigger of kind.triggers) {
      const target = `${kind.name} on ${trigger.action === 'transition' ? `transition ${trigger.transition}` : trigger.action} of ${trigger.resource}`;
      if (!stream) {
        ctx.skip('events', 'events.emitted', target, 'the spec serves no event stream (events.delivery.stream.path not shown)');
        continue;
      }
      await ctx.check('events', 'events.emitted', target, async (scope) => {
        const resource = ctx.model.resources.find((r) => r.name === trigger.resource);
        const streamHeaders = await ctx.authFor(stream.auth);
        if (!resource || !streamHeaders) return scope.skip('no credential for the event stream');
        const ready = await prepareTrigger(ctx, trigger, resource);
        if (typeof ready === 'string') return scope.skip(ready);
        const { op, opHeaders } = ready;
        let id = ready.id;
        const s = await openStream(ctx, stream, streamHeaders);
        try {
          if (s.status !== 200)
            return scope.fail({
              operation: 'event stream',
              expected: 'the stream opens (200)',
              actual: `${s.status}`,
              curl: `curl -N ${ctx.client.url(ctx.fillVersion(stream.path))}`,
            });
          const req: TestRequest = { method: op.method, path: ctx.pathOf(op, id), headers: opHeaders };
          if (op.hasBody) req.body = await ctx.validBody(op, id);
          const res = await ctx.send(op, req);
          if (res.status >= 300) return scope.skip(`${op.operation.id} answered ${res.status}: nothing to observe`);
          if (id === undefined) id = res.body?.[resource.identifier ?? 'id'];
          const idName = resource.identifier ?? 'id';
          const fields = kind.payload?.fields;
          let about = aboutObject(payloadOf, resource, id);
          if (fields && !fields.some((x) => x.name === idName)) {
            // The declared payload carries no identifier: the event is the object's when its fields hold the answer's values.
            const object = (res.body ?? {}) as Record<string, unknown>;
            const shown = fields.filter((x) => object[x.name] !== undefined);
            if (shown.length === 0) return scope.skip(`the payload of ${kind.name} carries neither the identifier nor a value the answer shows`);
            about = (e: StreamEvent) => shown.every((x) => JSON.stringify(payloadOf(e)?.[x.name]) === JSON.stringify(object[x.name]));
          }
          const f = await expectKind(ctx, s, kind, about, op, req, res);
          if (!f) {
            const e = s.events.find((x) => about(x) && (x.event === kind.name || x.data?.type === kind.name));
            const wrong = e ? getPayloadProblem(kind, resource, payloadOf(e), res.body) : undefined;
            if (wrong !== undefined) scope.fail(ctx.failure(op.operation.id, wrong, kind.pointer, req, JSON.stringify(payloadOf(e!) ?? null).slice(0, 300)));
            return;
          }
          // An event the credential may not see (it lacks a scope reading the object needs) is rightly kept from it.
          const hidden = await hiddenBecause(ctx, kind, id);
          if (hidden !== undefined) return scope.skip(hidden);
          scope.fail(f);
        } finally {
          s.close();
        }
      });
    }
  }
  await checkStreamOwnership(ctx, stream);
  await checkWebhooks(ctx);
  await checkCallbacks(ctx);
}

/**
 * Why an event's payload is not what the spec declares, or undefined: a payload of declared `fields` holds no other
 * member; one that is the resource is the object as the change's answer shows it (docs/events.md: "the resource as it
 * is after the change"), each member the answer holds present and equal. A delete answers no object to compare.
 */
function getPayloadProblem(kind: EventKindModel, resource: ResourceModel, payload: Record<string, unknown> | undefined, answer: unknown): string | undefined {
  if (!payload) return undefined;
  const fields = kind.payload?.fields;
  if (fields) {
    const extra = Object.keys(payload).filter((k) => !fields.some((x) => x.name === k));
    return extra.length > 0
      ? `${kind.name}'s payload holds its declared fields only (${fields.map((x) => x.name).join(', ')}), not ${extra.join(', ')}`
      : undefined;
  }
  if (kind.payload?.resource !== resource.name || answer === null || typeof answer !== 'object' || Array.isArray(answer)) return undefined;
  for (const [k, v] of Object.entries(answer as Record<string, unknown>)) {
    if (!(k in payload)) return `${kind.name}'s payload the ${resource.name} as the answer shows it after the change: ${k} missing`;
    if (!isDeepStrictEqual(payload[k], v))
      return `${kind.name}'s payload the ${resource.name} as the answer shows it after the change: ${k} ${JSON.stringify(v)}, not ${JSON.stringify(payload[k])}`;
  }
  return undefined;
}

async function expectKind(
  ctx: TestContext,
  s: EventStream,
  kind: EventKindModel,
  about: (e: never) => boolean,
  op: OperationRoute,
  req: TestRequest,
  res: TestResponse,
): Promise<Failure | undefined> {
  const mine = () => s.events.filter((e) => about(e as never));
  const arrived = await s.waitFor(() => mine().some((e) => e.event === kind.name || e.data?.type === kind.name), WAIT_MS);
  await ctx.client.clock.sleep(GRACE_MS);
  const got = mine().map((e) => e.event ?? String(e.data?.type));
  const expectedKinds = new Set(
    ctx.model
      .events!.kinds.filter((k) =>
        k.triggers.some(
          (t) =>
            (t.action === 'transition' ? op.operation.action === 'transition' && t.transition === op.transition?.name : t.action === op.operation.action) &&
            t.resource === op.resource?.name,
        ),
      )
      .map((k) => k.name),
  );
  const exact = got.filter((k) => k === kind.name).length;
  const unexpected = got.filter((k) => !expectedKinds.has(k));
  if (!arrived || exact !== 1 || unexpected.length > 0) {
    return ctx.failure(
      op.operation.id,
      `exactly one ${kind.name} event on the stream for the object (${op.operation.id} ${describe(res).slice(0, 40)}…)`,
      kind.pointer,
      req,
      `events for the object: ${got.length === 0 ? 'none' : got.join(', ')}`,
    );
  }
  return undefined;
}

function findTriggerRoute(ctx: TestContext, trigger: EventKindModel['triggers'][number], resource: ResourceModel): OperationRoute | undefined {
  if (trigger.action === 'transition') return ctx.routes.find((r) => r.resource?.name === resource.name && r.transition?.name === trigger.transition);
  return ctx.routes.find((r) => r.resource?.name === resource.name && r.operation.action === trigger.action);
}

/**
 * Makes an object and brings it where `trigger` applies (a transition's from state, by the shortest path); the
 * operation to fire and its headers, or why it cannot.
 */
export async function prepareTrigger(
  ctx: TestContext,
  trigger: EventKindModel['triggers'][number],
  resource: ResourceModel,
): Promise<{ op: OperationRoute; opHeaders: Record<string, string>; id: unknown } | string> {
  const op = findTriggerRoute(ctx, trigger, resource);
  if (!op) return `no operation performs ${trigger.action} on ${trigger.resource}`;
  const opHeaders = await ctx.authFor(op.operation.auth);
  if (!opHeaders) return `no credential for ${op.operation.id}`;
  if (trigger.action === 'create') return { op, opHeaders, id: undefined };
  const made = await ctx.createObject(resource);
  if (!made) return `no credential to create a ${resource.name}`;
  if (made.res.status >= 300) return `cannot create a ${resource.name} (${made.res.status})`;
  const id = made.res.body[resource.identifier ?? 'id'];
  if (trigger.action === 'transition') {
    const machine = ctx.model.stateMachines.find((m) => m.resource === resource.name)!;
    const t = machine.transitions.find((x) => x.name === trigger.transition)!;
    for (const name of pathTo(machine, t.from) ?? []) {
      const r = ctx.routes.find((x) => x.transition?.name === name && x.resource?.name === resource.name);
      const h = r ? await ctx.authFor(r.operation.auth) : undefined;
      if (!r || !h) return `cannot reach a state ${t.name} starts from (no credential for ${name})`;
      const res = await ctx.send(r, { method: r.method, path: ctx.pathOf(r, id), headers: h, body: await ctx.validBody(r, id) });
      if (res.status >= 300) return `cannot reach a state ${t.name} starts from (${name} answered ${res.status})`;
    }
  }
  return { op, opHeaders, id };
}

/**
 * Why the main credential is rightly not shown an event of `kind`: reading one of the resources it carries needs a
 * scope the credential lacks (each read or list route answers it the declared missing_scope). Undefined otherwise.
 */
async function hiddenBecause(ctx: TestContext, kind: EventKindModel, id: unknown): Promise<string | undefined> {
  const names = new Set([...(kind.payload?.resource !== undefined ? [kind.payload.resource] : []), ...kind.triggers.map((t) => t.resource)]);
  for (const name of names) {
    const readers = ctx.routes.filter((r) => r.resource?.name === name && (r.operation.action === 'read' || r.operation.action === 'list'));
    if (readers.length === 0) continue;
    const scopes = new Set<string>();
    let refused = 0;
    for (const r of readers) {
      const headers = await ctx.authFor(r.operation.auth);
      if (!headers) continue;
      const res = await ctx.send(r, {
        method: 'GET',
        path: r.operation.action === 'list' ? ctx.pathOf(r, undefined, pageSizeQuery(r, '1')) : ctx.pathOf(r, id),
        headers,
      });
      if (!ctx.declared('missing_scope') || ctx.expectCondition(res, 'missing_scope') !== undefined) break;
      refused++;
      if (r.operation.auth?.kind === 'required') for (const x of r.operation.auth.scopes) scopes.add(x);
    }
    if (refused === readers.length)
      return `the credential given lacks ${[...scopes].join(', ')} (reading ${name} needs it), so the service rightly keeps ${kind.name} from it: give one that has it`;
  }
  return undefined;
}

/** The events each owned resource's changes emit: another subject's stream must not show them. */
async function checkStreamOwnership(ctx: TestContext, stream: StreamRoute | undefined): Promise<void> {
  for (const kind of ctx.model.events?.kinds ?? []) {
    for (const trigger of kind.triggers) {
      const resource = ctx.model.resources.find((r) => r.name === trigger.resource);
      if (resource?.owner === undefined) continue;
      const target = `${kind.name} on ${trigger.action === 'transition' ? `transition ${trigger.transition}` : trigger.action} of ${trigger.resource}, on another subject's stream`;
      await ctx.check('events', 'events.ownership', target, async (scope) => {
        if (!stream) return scope.skip('the spec serves no event stream (events.delivery.stream.path not shown)');
        const mainHeaders = await ctx.authFor(stream.auth);
        const otherHeaders = await ctx.authFor(stream.auth, ctx.other);
        if (!mainHeaders) return scope.skip('no credential for the event stream');
        if (!otherHeaders) return scope.skip('no second subject (give one with --other-header/--other-bearer/--other-basic/--other-client-id)');
        const ready = await prepareTrigger(ctx, trigger, resource);
        if (typeof ready === 'string') return scope.skip(ready);
        const mine = await openStream(ctx, stream, mainHeaders);
        const theirs = await openStream(ctx, stream, otherHeaders);
        try {
          const { op, opHeaders } = ready;
          const req: TestRequest = { method: op.method, path: ctx.pathOf(op, ready.id), headers: opHeaders };
          if (op.hasBody) req.body = await ctx.validBody(op, ready.id);
          const res = await ctx.send(op, req);
          if (res.status >= 300) return scope.skip(`${op.operation.id} answered ${res.status}: nothing to observe`);
          const id = ready.id ?? res.body?.[resource.identifier ?? 'id'];
          const about = aboutObject(createPayloadOf(ctx.model), resource, id);
          const ofKind = (e: { event?: string; data: { type?: string } }) => e.event === kind.name || e.data?.type === kind.name;
          const shown = await mine.waitFor(() => mine.events.some((e) => about(e as never) && ofKind(e)), WAIT_MS);
          await theirs.waitFor(() => theirs.events.some((e) => about(e as never)), GRACE_MS);
          const leaked = theirs.events.filter((e) => about(e as never));
          if (leaked.length > 0) {
            return scope.fail({
              operation: 'event stream',
              expected: `another subject's stream does not show the main subject's ${resource.name} (owner: ${resource.owner})`,
              ...(ctx.specRef(resource.pointer) ? { spec: ctx.specRef(resource.pointer)! } : {}),
              actual: `${leaked.map((e) => e.event ?? String(e.data?.type)).join(', ')} for ${String(id)} seen by the other subject after ${op.operation.id}`,
              curl: [
                `# with the other subject's stream open (curl -N -H '<other credential>' ${ctx.client.url(ctx.fillVersion(stream.path))}):`,
                ctx.client.curl(req),
              ].join('\n'),
            });
          }
          if (!shown) {
            // Nothing to compare with: the main subject's own stream did not show the event either.
            const hidden = await hiddenBecause(ctx, kind, id);
            return scope.skip(hidden ?? `the main subject's stream did not show ${kind.name} either (events.emitted judges that)`);
          }
        } finally {
          mine.close();
          theirs.close();
        }
      });
    }
  }
}
