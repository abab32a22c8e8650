import { getStateField } from '../model/model-lookup.js';
import type { OperationRoute } from '../model/model-routes.js';
import { isWritable } from '../model/model-schemas.js';
import type { FieldModel } from '../model/model-types.js';
import { getMutations, sortedJson } from './tester-arbitraries.js';
import { walkToTransition } from './tester-state-walks.js';
import { describe, type TestContext } from './tester-context.js';
import type { TestRequest } from './tester-http.js';
import { isThrifty, pickThrifty } from './tester-pacing.js';

// Broken bodies sent to a transition (endpoints.invalid-requests). A transition's request takes the fields it
// `requires` in their declared shapes, and nothing else (docs/format.md: a transition's request shape stays closed).
// The states part sends only valid bodies, so a service taking a transition's body unread passed. Each broken body
// goes to an object in a state the transition leaves, so that the body is the only thing to refuse; the refusal must
// be the declared one, and a read afterwards must show the object as it was.

/** The invalid-requests probes of every transition that takes a body. */
export async function checkTransitionBodies(ctx: TestContext): Promise<void> {
  for (const route of ctx.routes) if (route.operation.action === 'transition') await checkTransitionBody(ctx, route);
}

async function checkTransitionBody(ctx: TestContext, route: OperationRoute): Promise<void> {
  const o = route.operation;
  const t = route.transition;
  const resource = route.resource;
  if (!t || !resource || !route.hasBody || !ctx.selected('endpoints', 'endpoints.invalid-requests') || ctx.stopped) return;
  const fields = t.requires
    .map((n) => resource.fields.find((f) => f.name === n))
    .filter((f): f is FieldModel => f !== undefined && isWritable(resource, f, 'update'));
  if (fields.length === 0) return;
  const machine = ctx.model.stateMachines.find((m) => m.resource === resource.name);
  if (!machine || !getStateField(ctx.model, machine) || machine.initial === undefined) return;
  const read = ctx.routes.find((r) => r.operation.action === 'read' && r.resource?.name === resource.name);
  // Only the transition's own fields: the resource's read-only ones are the format's rule, judged on its changes.
  const all = getMutations(ctx.model, fields, undefined, 'update');
  const mutations = isThrifty(ctx.model) ? pickThrifty(all, (m) => m.label.slice(m.label.indexOf(' ') + 1).replace(/[0-9.]+/g, '#'), 10, ctx.seed) : all;
  /** The object the next probe goes to, in a state the transition leaves; undefined once a probe may have moved it. */
  let current: { id: unknown } | undefined;
  for (const m of mutations) {
    await ctx.check('endpoints', 'endpoints.invalid-requests', `${o.id}: ${m.label}`, async (scope) => {
      const headers = await ctx.authFor(o.auth);
      if (!headers) return scope.skip('no credential for this operation');
      const d = ctx.refusal(route, m.condition);
      if (!d) return scope.skip(`no error code declared for ${m.condition} (not shown)`);
      if (current === undefined) {
        const w = await walkToTransition(ctx, route);
        if (typeof w === 'string') return scope.skip(w, 'not-run');
        current = w;
      }
      const readHeaders = read ? await ctx.authFor(read.operation.auth) : undefined;
      const readReq: TestRequest | undefined = read && readHeaders ? { method: 'GET', path: ctx.pathOf(read, current.id), headers: readHeaders } : undefined;
      const before = read && readReq ? await ctx.send(read, readReq) : undefined;
      const req: TestRequest = {
        method: route.method,
        path: ctx.pathOf(route, current.id),
        headers,
        body: m.apply(await ctx.transitionBody(route, current.id)),
      };
      const res = await ctx.send(route, req);
      // Taken, the object has moved on: the next probe walks another.
      if (res.status < 400) current = undefined;
      const why = ctx.expectRefusal(res, route, m.condition);
      if (why !== undefined)
        return scope.fail(ctx.failure(o.id, `${d.label} for a body of ${t.name} with ${m.label}`, d.pointer, req, `${why}; ${describe(res)}`));
      if (!read || !readReq || before?.status !== 200) return;
      const after = await ctx.send(read, readReq);
      if (sortedJson(after.body) !== sortedJson(before.body)) {
        current = undefined;
        scope.fail(
          ctx.failure(
            o.id,
            `the ${resource.name} unchanged by ${t.name}, refused for ${m.label} (a read before and after)`,
            t.pointer,
            req,
            `after: ${describe(after)}`,
          ),
        );
      }
    });
  }
}
