// errors.other-scope: an operation whose path binds a scope (`bind` to a field that is no key: a task's project_id
// under /projects/{projectId}/tasks/{taskId}) finds an object only under its own scope. The object made under the
// run's scope, addressed by its identifier under another scope that exists (a second project), is missing there: the
// declared `missing_resource` answer (an imported document's own 404), and a list under the other scope does not hold
// it. A service that finds it anyway lets one tenant's path reach another's objects (OWASP API1, BOLA).

import { ADDRESSING_ACTIONS, getFieldAt } from '../model/model-path-bindings.js';
import { isSuccessAnswer, type OperationRoute } from '../model/model-routes.js';
import { getPageItems } from './tester-checks-lists.js';
import { describe, isKeyPath, objectKey, type TestContext } from './tester-context.js';
import type { TestRequest } from './tester-http.js';

/** The scope fields a route binds: bound fields that are no key (neither the identifier nor a unique field or key). */
function scopeBindings(route: OperationRoute): string[] {
  const r = route.resource;
  if (!r) return [];
  return (route.operation.bindings ?? []).filter((b) => getFieldAt(r, b.field) !== undefined && !isKeyPath(r, b.field)).map((b) => b.field);
}

/** Reads first and deletes last: a service that deletes through another scope's path leaves the others nothing to find. */
const ORDER: Readonly<Record<string, number>> = { list: 0, read: 1, delete: 3 };

export async function checkScopes(ctx: TestContext): Promise<void> {
  const routes = [...ctx.routes].sort((a, b) => (ORDER[a.operation.action] ?? 2) - (ORDER[b.operation.action] ?? 2));
  for (const route of routes) {
    const o = route.operation;
    const r = route.resource;
    if (!r || (o.action !== 'list' && !ADDRESSING_ACTIONS.has(o.action))) continue;
    const scopes = scopeBindings(route);
    if (scopes.length === 0 || (o.action !== 'list' && ctx.idParams(route).length === 0)) continue;
    await ctx.check('errors', 'errors.other-scope', o.id, async (scope) => {
      const headers = await ctx.authFor(o.auth);
      if (!headers) return scope.skip('no credential for this operation');
      const d = o.action === 'list' ? undefined : ctx.refusal(route, 'missing_resource');
      if (o.action !== 'list' && !d) return scope.skip('the spec declares no error code for a missing object (not shown)');
      const obj = await ctx.ensureObject(r);
      if (!obj) return scope.skip(ctx.noObject(r));
      const other = await ctx.otherScope(route, obj);
      if (!other) return scope.skip(`no other ${scopes.join(', ')} to address a ${r.name} under: a second one could not be made`);
      const id = objectKey(r, obj);
      const where = scopes.map((f) => `${f} ${JSON.stringify(other.target[f] ?? '')}`).join(', ');
      if (o.action === 'list') {
        const req: TestRequest = { method: route.method, path: ctx.pathOf(route, undefined, {}, other.params), headers };
        const res = await ctx.send(route, req);
        if (!isSuccessAnswer(route, res.status)) return;
        const items = getPageItems(route, res.body) ?? [];
        const key = r.identifier;
        const held = key !== undefined && items.some((x) => typeof x === 'object' && x !== null && (x as Record<string, unknown>)[key] === id);
        if (held)
          scope.fail(
            ctx.failure(
              o.id,
              `no ${r.name} of another ${scopes.join(', ')} in the list under ${where}`,
              o.pointer,
              req,
              `it holds ${r.name} ${JSON.stringify(id)}; ${describe(res)}`,
            ),
          );
        return;
      }
      // A valid body whose bound fields agree with the other scope's path, so that only the scope can be refused.
      let body: Record<string, unknown> | undefined;
      if (route.hasBody) body = ctx.bindBody(route, o.action === 'replace' || o.action === 'transition' ? await ctx.validBody(route, id) : {}, other.target);
      const req: TestRequest = { method: route.method, path: ctx.pathOf(route, id, {}, other.params), headers, ...(body !== undefined ? { body } : {}) };
      const res = await ctx.send(route, req);
      const why = ctx.expectRefusal(res, route, 'missing_resource');
      if (why !== undefined)
        scope.fail(
          ctx.failure(
            o.id,
            `the declared ${d!.label} answer for a ${r.name} addressed under another ${scopes.join(', ')} (${where})`,
            d!.pointer,
            req,
            `${why}; ${describe(res)}`,
          ),
        );
    });
  }
}
