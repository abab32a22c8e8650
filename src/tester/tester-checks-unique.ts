import { isSuccessAnswer, type OperationRoute } from '../model/model-routes.js';
import { describe, type TestContext } from './tester-context.js';
import type { TestRequest } from './tester-http.js';

// endpoints.unique: a create that repeats a value the spec says is unique — a `unique` field, or the identifier of a
// resource whose creates send it (identifier_source: client) — answers the declared unique_conflict, and nothing
// is made. Without this check a service that accepts duplicates is caught only by side effects, if at all.

/** The unique check of one create route (called per route by checkEndpoints). */
export async function checkUnique(ctx: TestContext, route: OperationRoute): Promise<void> {
  const o = route.operation;
  const resource = route.resource;
  if (o.action !== 'create' || !resource) return;
  const fields = resource.fields.filter((f) => !f.readOnly && (f.unique || (resource.identifierSource === 'client' && f.name === resource.identifier)));
  if (fields.length === 0) return;
  await ctx.check('endpoints', 'endpoints.unique', o.id, async (scope) => {
    const d = ctx.declared('unique_conflict');
    if (!d) return scope.skip('the spec declares no error code for a unique conflict (not shown)');
    const headers = await ctx.authFor(o.auth);
    if (!headers) return scope.skip('no credential for this operation');
    const made = await ctx.createObject(resource);
    if (!made || !isSuccessAnswer(route, made.res.status)) return scope.skip('could not create the first object');
    const sent = made.req.body as Record<string, unknown>;
    for (const f of fields) {
      if (sent[f.name] === undefined || sent[f.name] === null) continue;
      // Every other unique value fresh, so that only this field repeats.
      // Bound again: a create whose path binds the repeated key (\`bind\`) names it in the path too.
      const body = ctx.bindBody(route, { ...(await ctx.sampleCreateBody(resource)), [f.name]: sent[f.name] });
      const req: TestRequest = { method: route.method, path: ctx.pathOf(route), headers, body };
      const res = await ctx.send(route, req);
      const why = ctx.expectCondition(res, 'unique_conflict');
      if (why !== undefined)
        return scope.fail(
          ctx.failure(
            o.id,
            `the declared ${d.code} answer for a second ${resource.name} with the same ${f.name} (${JSON.stringify(sent[f.name])})`,
            d.pointer,
            req,
            `${why}; ${describe(res)}`,
          ),
        );
    }
  });
}
