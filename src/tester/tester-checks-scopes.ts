// errors.other-scope: an operation whose path binds a scope (`bind` to a field that is no key: a task's project_id
// under /projects/{projectId}/tasks/{taskId}), or to a resource's parent (`bind: { slug: Article.slug }` of a comment
// under /articles/{slug}/comments/{id}), finds an object only under its own scope. The object made under the
// run's scope, addressed by its identifier under another scope that exists (a second project), is missing there: the
// declared `missing_resource` answer (an imported document's own 404), and a list under the other scope does not hold
// it. A service that finds it anyway lets one tenant's path reach another's objects (OWASP API1, BOLA). Under a chain
// of parents (a visit under a pet under an owner), each operation, a create too, is also sent with the run's pet kept
// and another existing owner named: the pet is not under it, so that is missing_resource as well.
//
// errors.missing-parent: a create or a list whose path names its parent by a ref (a task's project_id: { type: ref,
// to: Project } under /projects/{projectId}/tasks), under a parent identifier that names nothing, is the declared
// missing_resource answer (an imported document's own 404): the path names an object that is not there. So is a
// custom GET under a parent path (/projects/{projectId}/… where /projects/{projectId} reads a Project) that declares a
// 404 of its own: an imported list the format cannot hold as a list. A service that answers a create there 201 makes
// orphans; one answering an empty list hides that the parent is gone.

import { getResource } from '../model/model-lookup.js';
import { ADDRESSING_ACTIONS, getFieldAt, getParentRefBindings, getPathParent } from '../model/model-path-bindings.js';
import type { FieldModel, PathBindingModel, ResourceModel } from '../model/model-types.js';
import { missingIdentifier } from './tester-arbitraries.js';
import { isSuccessAnswer, type OperationRoute } from '../model/model-routes.js';
import { getPageItems, outsidePath } from './tester-checks-lists.js';
import { describe, isKeyPath, objectKey, type CheckScope, type TestContext } from './tester-context.js';
import type { TestRequest } from './tester-http.js';

/**
 * The scopes a route binds: bound fields that are no key (neither the identifier nor a unique field or key), and the
 * parent a binding names (`Article.slug` of a resource under a parent), which no field of the resource holds.
 */
function scopeBindings(route: OperationRoute): PathBindingModel[] {
  const r = route.resource;
  if (!r) return [];
  return (route.operation.bindings ?? []).filter((b) => b.parent !== undefined || (getFieldAt(r, b.field) !== undefined && !isKeyPath(r, b.field)));
}

/** Reads first and deletes last: a service that deletes through another scope's path leaves the others nothing to find. */
const ORDER: Readonly<Record<string, number>> = { list: 0, read: 1, delete: 3 };

export async function checkScopes(ctx: TestContext): Promise<void> {
  const routes = [...ctx.routes].sort((a, b) => (ORDER[a.operation.action] ?? 2) - (ORDER[b.operation.action] ?? 2));
  for (const route of routes) {
    const o = route.operation;
    const r = route.resource;
    if (!r) continue;
    // A parent further up a chain (`Owner.id` of a Visit under a Pet under an Owner): a create goes under it too.
    const chain = (o.bindings ?? []).some((b) => b.parent !== undefined && b.parent.level > 1);
    if (o.action !== 'list' && !ADDRESSING_ACTIONS.has(o.action) && !(chain && o.action === 'create')) continue;
    const bound = scopeBindings(route);
    // What another scope is: another value of a scope field, another parent object (`another Article`).
    const scopes = bound.map((b) => b.parent?.resource ?? b.field);
    if (bound.length === 0 || (o.action !== 'list' && o.action !== 'create' && ctx.idParams(route).length === 0)) continue;
    await ctx.check('errors', 'errors.other-scope', o.id, async (scope) => {
      const headers = await ctx.authFor(o.auth);
      if (!headers) return scope.skip('no credential for this operation');
      const d = ctx.refusal(route, 'missing_resource');
      if (o.action !== 'list' && !d) return scope.skip('the spec declares no error code for a missing object (not shown)');
      if (o.action === 'create') return checkOuterParents(ctx, route, d!, headers, scope);
      const obj = await ctx.ensureObject(r);
      if (!obj) return scope.skip(ctx.noObject(r));
      const other = await ctx.otherScope(route, obj);
      if (!other) return scope.skip(`no other ${scopes.join(', ')} to address a ${r.name} under: a second one could not be made`);
      const id = objectKey(r, obj);
      // The values the other scope's path names: a parent's is in no field of the object (`other.target` has none).
      const where = bound.map((b) => `${b.field} ${JSON.stringify(other.params[b.param] ?? '')}`).join(', ');
      if (o.action === 'list') {
        const req: TestRequest = { method: route.method, path: ctx.pathOf(route, undefined, {}, other.params), headers };
        const res = await ctx.send(route, req);
        if (!isSuccessAnswer(route, res.status)) return;
        const items = getPageItems(route, res.body) ?? [];
        const key = r.identifier;
        const held = key !== undefined && items.some((x) => typeof x === 'object' && x !== null && (x as Record<string, unknown>)[key] === id);
        // Any item of another scope shows it, the one made here or not (it may be on a later page).
        const stray = held ? undefined : outsidePath(route, req.path, items);
        if (stray) return scope.fail(ctx.failure(o.id, `${stray.expected} (the list under ${where})`, o.pointer, req, `${stray.actual}; ${describe(res)}`));
        if (held)
          return scope.fail(
            ctx.failure(
              o.id,
              `no ${r.name} of another ${scopes.join(', ')} in the list under ${where}`,
              o.pointer,
              req,
              `it holds ${r.name} ${JSON.stringify(id)}; ${describe(res)}`,
            ),
          );
        // With no missing_resource code declared, a list under another outer parent has no answer to be held to.
        if (chain && d) await checkOuterParents(ctx, route, d, headers, scope);
        return;
      }
      // A valid body whose bound fields agree with the other scope's path, so that only the scope can be refused.
      let body: Record<string, unknown> | undefined;
      if (route.hasBody) body = ctx.bindBody(route, o.action === 'replace' || o.action === 'transition' ? await ctx.validBody(route, id) : {}, other.target);
      const req: TestRequest = { method: route.method, path: ctx.pathOf(route, id, {}, other.params), headers, ...(body !== undefined ? { body } : {}) };
      const res = await ctx.send(route, req);
      const why = ctx.expectRefusal(res, route, 'missing_resource');
      if (why !== undefined)
        return scope.fail(
          ctx.failure(
            o.id,
            `the declared ${d!.label} answer for a ${r.name} addressed under another ${scopes.join(', ')} (${where})`,
            d!.pointer,
            req,
            `${why}; ${describe(res)}`,
          ),
        );
      if (chain) await checkOuterParents(ctx, route, d!, headers, scope, id);
    });
  }
}

/**
 * A route under a chain of parents, with its inner parent (the run's Pet) and object kept but a parent further up
 * named as another that exists (a second Owner, whose pets the run's is not one of): the declared missing_resource
 * answer (docs/format.md "Resources under a parent"), for a create and a list too. A service that finds the inner
 * parent by its own identifier alone, never checking it is under the outer one, answers it as under its own.
 */
async function checkOuterParents(
  ctx: TestContext,
  route: OperationRoute,
  d: NonNullable<ReturnType<TestContext['refusal']>>,
  headers: Record<string, string>,
  scope: CheckScope,
  id?: unknown,
): Promise<void> {
  const o = route.operation;
  const r = route.resource!;
  const outers = await ctx.otherOuterParents(route);
  // A create judged by this probe alone is not run without it; the others have passed their own.
  if (outers.length === 0) {
    if (o.action === 'create') scope.skip(`no other parent further up a ${r.name}'s chain to name: a second one could not be made`);
    return;
  }
  for (const outer of outers) {
    const params = { [outer.param]: String(outer.value) };
    let body: Record<string, unknown> | undefined;
    // A valid body agreeing with the path, so that only the outer parent can be refused.
    if (o.action === 'create') body = ctx.bindBody(route, await ctx.validBody(route), {});
    else if (route.hasBody) body = ctx.bindBody(route, o.action === 'replace' || o.action === 'transition' ? await ctx.validBody(route, id) : {}, {});
    const req: TestRequest = { method: route.method, path: ctx.pathOf(route, id, {}, params), headers, ...(body !== undefined ? { body } : {}) };
    const res = await ctx.send(route, req);
    const why = ctx.expectRefusal(res, route, 'missing_resource');
    if (why !== undefined)
      return scope.fail(
        ctx.failure(
          o.id,
          `the declared ${d.label} answer for a ${o.action === 'create' || o.action === 'list' ? o.action : r.name} under another ${outer.resource.name} (${outer.param} ${JSON.stringify(params[outer.param])}), which the ${r.name}'s parent is not under`,
          d.pointer,
          req,
          `${why}; ${describe(res)}`,
        ),
      );
  }
}

/**
 * The path parameters naming a parent of the route (a create's or a list's bound ref; each parameter of a custom GET
 * going on under a parent's read path), the parent resource and the field of it each names; undefined where the
 * route has none, or a custom operation has a parameter that names no parent, a body, a required query parameter or
 * header, or no 404 of its own.
 */
function parentParams(ctx: TestContext, route: OperationRoute): { param: string; resource: ResourceModel; field: FieldModel }[] | undefined {
  const o = route.operation;
  const r = route.resource;
  if ((o.action === 'create' || o.action === 'list') && r) {
    const out = getParentRefBindings(r, o).flatMap((b) => {
      const target = getResource(ctx.model, b.field.to);
      const id = target?.identifier !== undefined ? getFieldAt(target, target.identifier) : undefined;
      return target && id ? [{ param: b.param, resource: target, field: id }] : [];
    });
    // The parent the objects belong to (`parent`, bound as `Article.slug`): a value no parent holds.
    for (const b of o.bindings ?? []) {
      const parent = b.parent ? ctx.bindingParent(r, b) : undefined;
      if (parent) out.push({ param: b.param, resource: parent.resource, field: parent.field });
    }
    return out.length > 0 ? out : undefined;
  }
  if (o.action !== 'custom' || o.method !== 'GET' || route.hasBody || route.pathParams.length === 0) return undefined;
  if (route.query.some((q) => q.parameter && !q.parameter.optional) || o.headers.some((h) => !h.optional)) return undefined;
  const own404 = o.errors.some((n) => ctx.model.errors?.codes.some((c) => c.name === n && c.status === 404 && c.statusRange === undefined));
  if (!own404) return undefined;
  const out: { param: string; resource: ResourceModel; field: FieldModel }[] = [];
  for (const param of route.pathParams) {
    const parent = getPathParent(ctx.model, o, param);
    const field = parent ? getFieldAt(parent.resource, parent.field) : undefined;
    // Only a parameter the path goes on after: the operation acts under the parent, not on it.
    if (!parent || !field || o.path.endsWith(`{${param}}`)) return undefined;
    out.push({ param, resource: parent.resource, field });
  }
  return out;
}

export async function checkMissingParents(ctx: TestContext): Promise<void> {
  for (const route of ctx.routes) {
    const o = route.operation;
    const parents = parentParams(ctx, route);
    if (!parents) continue;
    await ctx.check('errors', 'errors.missing-parent', o.id, async (scope) => {
      const headers = await ctx.authFor(o.auth);
      if (!headers) return scope.skip('no credential for this operation');
      const d = ctx.refusal(route, 'missing_resource');
      if (!d) return scope.skip('the spec declares no error code for a missing object (not shown)');
      const params: Record<string, string> = {};
      const target: Record<string, unknown> = {};
      for (const p of parents) {
        const missing = missingIdentifier(p.field);
        params[p.param] = String(missing);
        const b = o.bindings?.find((x) => x.param === p.param);
        if (b && !b.parent) target[b.field] = missing;
      }
      const where = parents.map((p) => `${p.resource.name} ${params[p.param]!}`).join(', ');
      let body: Record<string, unknown> | undefined;
      // A valid body whose bound fields agree with the path, so that only the missing parent can be refused.
      if (o.action === 'create') body = ctx.bindBody(route, await ctx.validBody(route), target);
      const req: TestRequest = { method: route.method, path: ctx.pathOf(route, undefined, {}, params), headers, ...(body !== undefined ? { body } : {}) };
      const res = await ctx.send(route, req);
      // Served without its handler (501): nothing of the operation's answers can be judged.
      if (res.status === 501 && o.action === 'custom') return scope.skip('the service does not implement the operation (501)');
      const why = ctx.expectRefusal(res, route, 'missing_resource');
      if (why !== undefined)
        scope.fail(
          ctx.failure(
            o.id,
            `the declared ${d.label} answer for a ${o.action === 'create' || o.action === 'list' ? o.action : 'request'} under ${where}, which does not exist`,
            d.pointer,
            req,
            `${why}; ${describe(res)}`,
          ),
        );
    });
  }
}
