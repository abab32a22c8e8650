import { getIdempotencyHeader } from '../model/model-defaults.js';
import { isSuccessAnswer, isIdempotentOperation, type OperationRoute } from '../model/model-routes.js';
import type { TestRequest } from './tester-http.js';
import { describe, objectKey, type TestContext } from './tester-context.js';
import { walkToTransition } from './tester-state-walks.js';
import { getCustomTarget } from './tester-checks-params.js';
import { getCustomBodyArbitrary } from './tester-arbitraries.js';
import fc from 'fast-check';
import { heldAsSent } from './tester-arbitraries.js';
import { pageThrough } from './tester-checks-lists.js';

// Idempotency-Key (endpoints.idempotency): the same request sent twice with one key gets the same answer and
// makes one object; the key reused with another body gets the declared idempotency_conflict code. An update or a
// replace sent twice with one key gets its first answer again (a retried change is not applied twice), and so does a
// transition or a custom POST: a retry answered with a state error (the transition already made) is not a replay. A
// custom POST's key reused with another body gets the declared idempotency_conflict code, as a create's.

export async function checkIdempotency(ctx: TestContext): Promise<void> {
  const header = getIdempotencyHeader(ctx.model);
  for (const route of ctx.routes.filter((r) => r.operation.action === 'create' && r.resource && isIdempotentOperation(ctx.model, r.operation))) {
    const o = route.operation;
    await ctx.check('endpoints', 'endpoints.idempotency', o.id, async (scope) => {
      const headers = await ctx.authFor(o.auth);
      if (!headers) return scope.skip('no credential for this operation');
      const key = `servicespec-test-${ctx.runId}-${o.id}-${Date.now().toString(36)}`;
      const body = await ctx.sampleCreateBody(route.resource!);
      const req: TestRequest = { method: route.method, path: ctx.pathOf(route), headers: { ...headers, [header]: key }, body };
      const resource = route.resource!;
      // The objects already holding what the body sends: a replay must not add one more.
      const list = ctx.routes.find((r) => r.operation.action === 'list' && r.resource === resource && r.pathParams.length === 0);
      const listHeaders = list ? await ctx.authFor(list.operation.auth) : undefined;
      const twins = async (made: unknown): Promise<number | undefined> => {
        if (!list || !listHeaders) return undefined;
        let n = 0;
        let read = false;
        await pageThrough(ctx, list, listHeaders, (items) => {
          read = true;
          for (const item of items) if (objectKey(resource, item) !== made && Object.entries(body).every(([k, v]) => heldAsSent(resource, k, item[k], v))) n++;
        });
        return read ? n : undefined;
      };
      const before = await twins(undefined);
      const first = await ctx.send(route, req);
      if (!isSuccessAnswer(route, first.status)) return scope.skip(`${o.id} answered ${first.status}: nothing to replay`);
      ctx.remember(resource, first.body as Record<string, unknown>);
      const made = typeof first.body === 'object' && first.body !== null ? objectKey(resource, first.body as Record<string, unknown>) : undefined;
      // The object changed between the two: the retry still gets the first answer, not the object as it is now.
      const update = ctx.routes.find((r) => r.operation.action === 'update' && r.resource === resource);
      const updateHeaders = update && made !== undefined ? await ctx.authFor(update.operation.auth) : undefined;
      let changed = '';
      if (update && updateHeaders) {
        const res = await ctx.send(update, {
          method: update.method,
          path: ctx.pathOf(update, made),
          headers: updateHeaders,
          body: await ctx.validBody(update, made),
        });
        if (isSuccessAnswer(update, res.status)) changed = ` after ${update.operation.id} changed it`;
      }
      const again = await ctx.send(route, req);
      if (again.status !== first.status || again.text !== first.text) {
        return scope.fail(
          ctx.failure(
            o.id,
            `the first answer again to the same request with ${header}: ${key}${changed} (one object made)`,
            '/endpoints/idempotency',
            req,
            `first ${describe(first).slice(0, 160)}; then ${describe(again).slice(0, 160)}`,
          ),
        );
      }
      // One object made: the list shows no second one holding what the body sent.
      const after = before === undefined ? undefined : await twins(made);
      if (before !== undefined && after !== undefined && after > before)
        return scope.fail(
          ctx.failure(
            o.id,
            `one ${resource.name} made by the request and its retry with ${header}: ${key}`,
            '/endpoints/idempotency',
            req,
            `${list!.operation.id} lists ${after - before} more ${resource.name} holding what the request sent, besides the one its first answer names`,
          ),
        );
      // A key names one request of one client: another subject's request with it, or the body sent to another
      // operation, is not answered the first answer (which names this subject's object).
      const otherHeaders = resource.owner !== undefined ? await ctx.authFor(o.auth, ctx.other) : undefined;
      if (otherHeaders && Object.keys(otherHeaders).length > 0) {
        const theirs: TestRequest = { ...req, headers: { ...otherHeaders, [header]: key } };
        const res = await ctx.send(route, theirs);
        if (res.status === first.status && res.text === first.text)
          return scope.fail(
            ctx.failure(
              o.id,
              `another subject's request with ${header}: ${key} not answered this subject's ${resource.name} (a key is one client's)`,
              '/endpoints/idempotency',
              theirs,
              `the first answer again: ${describe(res).slice(0, 160)}`,
            ),
          );
      }
      const elsewhere = ctx.routes.find((r) => r !== route && r.operation.action === 'create' && r.pathParams.length === 0 && r.path !== route.path);
      const elsewhereHeaders = elsewhere ? await ctx.authFor(elsewhere.operation.auth) : undefined;
      if (elsewhere && elsewhereHeaders) {
        const moved: TestRequest = { method: elsewhere.method, path: ctx.pathOf(elsewhere), headers: { ...elsewhereHeaders, [header]: key }, body };
        const res = await ctx.send(elsewhere, moved);
        if (isSuccessAnswer(elsewhere, res.status) && elsewhere.resource && typeof res.body === 'object' && res.body !== null && res.text !== first.text)
          ctx.remember(elsewhere.resource, res.body as Record<string, unknown>);
        if (res.status === first.status && res.text === first.text)
          return scope.fail(
            ctx.failure(
              o.id,
              `${header}: ${key} reused on ${elsewhere.operation.id} (${elsewhere.method} ${elsewhere.path}) not answered ${o.id}'s first answer: another request`,
              '/endpoints/idempotency',
              moved,
              `the first answer again: ${describe(res).slice(0, 160)}`,
            ),
          );
      }
      const d = ctx.declared('idempotency_conflict');
      if (!d) return scope.skip('no error code declared for idempotency_conflict (not shown)');
      let otherBody = await ctx.sampleCreateBody(route.resource!, 1);
      for (let i = 2; JSON.stringify(otherBody) === JSON.stringify(body) && i < 10; i++) otherBody = await ctx.sampleCreateBody(route.resource!, i);
      if (JSON.stringify(otherBody) === JSON.stringify(body)) return scope.skip('no second valid body differs from the first');
      const other = { ...req, body: otherBody };
      const res = await ctx.send(route, other);
      const why = ctx.expectCondition(res, 'idempotency_conflict');
      if (why !== undefined)
        scope.fail(ctx.failure(o.id, `${d.code} (${d.status}) for ${header}: ${key} reused with another body`, d.pointer, other, `${why}; ${describe(res)}`));
    });
  }
  // Changes, transitions and custom POSTs: the request each would send once, sent twice with one key.
  for (const route of ctx.routes.filter(
    (r) =>
      (((r.operation.action === 'update' || r.operation.action === 'replace') && r.resource) ||
        (r.operation.action === 'transition' && r.transition) ||
        (r.operation.action === 'custom' && r.method === 'POST')) &&
      isIdempotentOperation(ctx.model, r.operation),
  )) {
    const o = route.operation;
    const what = o.action === 'transition' ? 'transition' : o.action === 'custom' ? 'action' : 'change';
    await ctx.check('endpoints', 'endpoints.idempotency', o.id, async (scope) => {
      const headers = await ctx.authFor(o.auth);
      if (!headers) return scope.skip('no credential for this operation');
      const sent =
        o.action === 'transition'
          ? await transitionRequest(ctx, route, headers)
          : o.action === 'custom'
            ? await customRequest(ctx, route, headers)
            : await changeRequest(ctx, route, headers);
      if (typeof sent === 'string') return scope.skip(sent);
      const key = `servicespec-test-${ctx.runId}-${o.id}-${Date.now().toString(36)}`;
      const req: TestRequest = { ...sent, headers: { ...sent.headers, [header]: key } };
      const first = await ctx.send(route, req);
      if (!isSuccessAnswer(route, first.status)) return scope.skip(`${o.id} answered ${first.status}: nothing to replay`);
      const again = await ctx.send(route, req);
      if (again.status !== first.status || again.text !== first.text)
        return scope.fail(
          ctx.failure(
            o.id,
            `the same answer to the same ${what} with ${header}: ${key} (the first answer replayed, the ${what} applied once)`,
            '/endpoints/idempotency',
            req,
            `first ${describe(first).slice(0, 160)}; then ${describe(again).slice(0, 160)}`,
          ),
        );
      // A custom action's key reused with another body: the declared conflict, as a create's (a replay of the first
      // answer to another request would tell the client its second request was done).
      const d = ctx.declared('idempotency_conflict');
      if (o.action !== 'custom' || !d || req.body === undefined) return;
      const other = await customRequest(ctx, route, headers, 1);
      if (typeof other === 'string' || other.path !== req.path || JSON.stringify(other.body) === JSON.stringify(req.body)) return;
      const reused: TestRequest = { ...req, body: other.body };
      const res = await ctx.send(route, reused);
      const why = ctx.expectCondition(res, 'idempotency_conflict');
      if (why !== undefined)
        scope.fail(ctx.failure(o.id, `${d.code} (${d.status}) for ${header}: ${key} reused with another body`, d.pointer, reused, `${why}; ${describe(res)}`));
    });
  }
}

/** An update's or a replace's valid request on an object of the run, or why there is none. */
async function changeRequest(ctx: TestContext, route: OperationRoute, headers: Record<string, string>): Promise<TestRequest | string> {
  const r = route.resource!;
  const target = await ctx.ensureObject(r);
  if (!target) return `no ${r.name} could be made to change`;
  const id = objectKey(r, target);
  return { method: route.method, path: ctx.pathOf(route, id), headers, body: await ctx.validBody(route, id) };
}

/** The transition's request on a new object walked to a state it leaves (a legal transition, sent without a key), or why there is none. */
async function transitionRequest(ctx: TestContext, route: OperationRoute, headers: Record<string, string>): Promise<TestRequest | string> {
  const walked = await walkToTransition(ctx, route);
  if (typeof walked === 'string') return walked;
  return { method: route.method, path: ctx.pathOf(route, walked.id), headers, body: await ctx.transitionBody(route, walked.id) };
}

/** A custom POST's request as valid-requests draws it (one body, its object where it names one), or why there is none. */
async function customRequest(ctx: TestContext, route: OperationRoute, headers: Record<string, string>, draw = 0): Promise<TestRequest | string> {
  const o = route.operation;
  if (ctx.missingHeaders(route).length > 0) return `the tester does not generate request headers ${o.id} requires`;
  if (route.query.some((q) => q.parameter && !q.parameter.optional)) return `${o.id} requires query parameters (not drawn here)`;
  const target = await getCustomTarget(ctx, route);
  if ('skip' in target) return target.skip;
  const path = ctx.pathOf(route, target.id, {}, target.named);
  if (!o.request) return { method: route.method, path, headers };
  const { arbitrary, resource } = getCustomBodyArbitrary(ctx.model, o.request);
  // `draw`: another body than the first (a later sample of the same seed).
  const value = await ctx.resolveRefs(fc.sample(arbitrary, { seed: ctx.seed, numRuns: 1 + draw })[draw]);
  const body = Array.isArray(value)
    ? value.map((v) => ctx.makeUnique(resource, v as Record<string, unknown>))
    : ctx.makeUnique(resource, value as Record<string, unknown>);
  return { method: route.method, path, headers, body };
}
