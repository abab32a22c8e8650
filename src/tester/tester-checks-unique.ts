import { getValueAt } from '../model/model-path-bindings.js';
import { isSuccessAnswer, type OperationRoute } from '../model/model-routes.js';
import { isWritable } from '../model/model-schemas.js';
import { describe, objectKey, setValueAt, type TestContext } from './tester-context.js';
import type { TestRequest } from './tester-http.js';

// endpoints.unique: a create that repeats a value the spec says is unique — a `unique` field, the identifier of a
// resource whose creates send it (identifier_source: client), or the values of a key unique together (unique_keys)
// — answers the declared unique_conflict, and nothing is made. Without this check a service that accepts duplicates is caught only by side effects, if at all.
// An update or replace that gives one object a `unique` field's value another holds answers it too, and changes nothing.

/** The unique check of one create route (called per route by checkEndpoints). */
export async function checkUnique(ctx: TestContext, route: OperationRoute): Promise<void> {
  const o = route.operation;
  const resource = route.resource;
  if ((o.action === 'update' || o.action === 'replace') && resource) return checkUniqueChange(ctx, route);
  if (o.action !== 'create' || !resource) return;
  const fields = resource.fields.filter((f) => !f.readOnly && (f.unique || (resource.identifierSource === 'client' && f.name === resource.identifier)));
  // Keys unique together (`unique_keys`, a bin's [warehouse_id, code]): one of a single field is a unique field.
  const keys = (resource.uniqueKeys ?? []).filter((k) => k.length > 1);
  if (fields.length === 0 && keys.length === 0) return;
  await ctx.check('endpoints', 'endpoints.unique', o.id, async (scope) => {
    const d = ctx.declared('unique_conflict');
    if (!d) return scope.skip('the spec declares no error code for a unique conflict (not shown)');
    const headers = await ctx.authFor(o.auth);
    if (!headers) return scope.skip('no credential for this operation');
    const made = await ctx.createObject(resource);
    if (!made || !isSuccessAnswer(route, made.res.status)) return scope.skip('could not create the first object');
    const sent = made.req.body as Record<string, unknown>;
    /** Sends `body` to `path`; the failure when the answer is not the declared conflict over `what` (the values repeated). */
    const repeat = async (path: string, body: Record<string, unknown>, what: string) => {
      const req: TestRequest = { method: route.method, path, headers, body };
      const res = await ctx.send(route, req);
      const why = ctx.expectCondition(res, 'unique_conflict');
      return why === undefined
        ? undefined
        : ctx.failure(o.id, `the declared ${d.code} answer for a second ${resource.name} with the same ${what}`, d.pointer, req, `${why}; ${describe(res)}`);
    };
    // Each key whose members the first create sent, sent again with every other value fresh, to the same path (the
    // same parent where the path names one: a bin's warehouse). A member the answer holds but the request did not
    // send (bound by the path) is the path's, so the same too.
    const answered = made.res.body as Record<string, unknown>;
    for (const key of keys) {
      const values = key.map((p) => getValueAt(sent, p) ?? getValueAt(answered, p));
      if (values.some((v) => v === undefined || v === null)) continue;
      const body = { ...(await ctx.sampleCreateBody(resource)) };
      key.forEach((p, i) => {
        if (getValueAt(sent, p) !== undefined) setValueAt(resource, body, p, values[i]);
      });
      const failure = await repeat(made.req.path, body, `${key.join(' and ')} (${values.map((v) => JSON.stringify(v)).join(', ')}), unique together`);
      if (failure) return scope.fail(failure);
    }
    for (const f of fields) {
      if (sent[f.name] === undefined || sent[f.name] === null) continue;
      // Every other unique value fresh, so that only this field repeats.
      // Bound again: a create whose path binds the repeated key (\`bind\`) names it in the path too.
      const body = ctx.bindBody(route, { ...(await ctx.sampleCreateBody(resource)), [f.name]: sent[f.name] });
      const failure = await repeat(ctx.pathOf(route), body, `${f.name} (${JSON.stringify(sent[f.name])})`);
      if (failure) return scope.fail(failure);
    }
  });
}

/** An update or replace giving a second object the value of a `unique` field the first holds: the declared conflict. */
async function checkUniqueChange(ctx: TestContext, route: OperationRoute): Promise<void> {
  const o = route.operation;
  const resource = route.resource!;
  const action = o.action as 'update' | 'replace';
  const takes = new Set(ctx.requestFields(route).map((f) => f.name));
  const bound = new Set((o.bindings ?? []).map((b) => b.field.split('.')[0]));
  const fields = resource.fields.filter((f) => f.unique && !f.readOnly && takes.has(f.name) && !bound.has(f.name) && isWritable(resource, f, action));
  if (fields.length === 0) return;
  await ctx.check('endpoints', 'endpoints.unique', o.id, async (scope) => {
    const d = ctx.declared('unique_conflict');
    if (!d) return scope.skip('the spec declares no error code for a unique conflict (not shown)');
    const headers = await ctx.authFor(o.auth);
    if (!headers) return scope.skip('no credential for this operation');
    const create = ctx.createRoute(resource.name);
    const first = await ctx.createObject(resource);
    const second = await ctx.createObject(resource);
    if (!create || !first || !second || !isSuccessAnswer(create, first.res.status) || !isSuccessAnswer(create, second.res.status))
      return scope.skip(`could not create two ${resource.name} objects`);
    const held = first.res.body as Record<string, unknown>;
    const other = second.res.body as Record<string, unknown>;
    const id = objectKey(resource, other);
    for (const f of fields) {
      const taken = held[f.name] ?? (first.req.body as Record<string, unknown>)[f.name];
      if (taken === undefined || taken === null) continue;
      const body = action === 'update' ? { [f.name]: taken } : { ...(await ctx.validBody(route, id)), [f.name]: taken };
      const req: TestRequest = { method: route.method, path: ctx.pathOf(route, id), headers, body };
      const res = await ctx.send(route, req);
      const why = ctx.expectCondition(res, 'unique_conflict');
      if (why !== undefined)
        return scope.fail(
          ctx.failure(
            o.id,
            `the declared ${d.code} answer for an ${action} giving ${resource.name} ${JSON.stringify(id)} the ${f.name} another holds (${JSON.stringify(taken)})`,
            d.pointer,
            req,
            `${why}; ${describe(res)}`,
          ),
        );
    }
  });
}
