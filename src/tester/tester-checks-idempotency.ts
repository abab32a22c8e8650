import { getIdempotencyHeader } from '../model/model-defaults.js';
import { isSuccessAnswer, isIdempotentOperation } from '../model/model-routes.js';
import type { TestRequest } from './tester-http.js';
import { describe, objectKey, type TestContext } from './tester-context.js';

// Idempotency-Key (endpoints.idempotency): the same request sent twice with one key gets the same answer and
// makes one object; the key reused with another body gets the declared idempotency_conflict code. An update or a
// replace sent twice with one key gets its first answer again (a retried change is not applied twice).

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
      const first = await ctx.send(route, req);
      if (!isSuccessAnswer(route, first.status)) return scope.skip(`${o.id} answered ${first.status}: nothing to replay`);
      ctx.remember(route.resource!, first.body as Record<string, unknown>);
      const again = await ctx.send(route, req);
      if (again.status !== first.status || again.text !== first.text) {
        return scope.fail(
          ctx.failure(
            o.id,
            `the same answer to the same request with ${header}: ${key} (one object made)`,
            '/endpoints/idempotency',
            req,
            `first ${describe(first).slice(0, 160)}; then ${describe(again).slice(0, 160)}`,
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
  for (const route of ctx.routes.filter(
    (r) => (r.operation.action === 'update' || r.operation.action === 'replace') && r.resource && isIdempotentOperation(ctx.model, r.operation),
  )) {
    const o = route.operation;
    const r = route.resource!;
    await ctx.check('endpoints', 'endpoints.idempotency', o.id, async (scope) => {
      const headers = await ctx.authFor(o.auth);
      if (!headers) return scope.skip('no credential for this operation');
      const target = await ctx.ensureObject(r);
      if (!target) return scope.skip(`no ${r.name} could be made to change`);
      const id = objectKey(r, target);
      const key = `servicespec-test-${ctx.runId}-${o.id}-${Date.now().toString(36)}`;
      const body = await ctx.validBody(route, id);
      const req: TestRequest = { method: route.method, path: ctx.pathOf(route, id), headers: { ...headers, [header]: key }, body };
      const first = await ctx.send(route, req);
      if (!isSuccessAnswer(route, first.status)) return scope.skip(`${o.id} answered ${first.status}: nothing to replay`);
      const again = await ctx.send(route, req);
      if (again.status !== first.status || again.text !== first.text)
        scope.fail(
          ctx.failure(
            o.id,
            `the same answer to the same change with ${header}: ${key} (the first answer replayed, the change applied once)`,
            '/endpoints/idempotency',
            req,
            `first ${describe(first).slice(0, 160)}; then ${describe(again).slice(0, 160)}`,
          ),
        );
    });
  }
}
