import { isSuccessAnswer, type OperationRoute } from '../model/model-routes.js';
import { isWritable } from '../model/model-schemas.js';
import type { FieldModel, ResourceModel } from '../model/model-types.js';
import { describe, objectKey, type TestContext } from './tester-context.js';
import type { TestRequest } from './tester-http.js';

// errors.in-use: a delete that would leave other objects referring to the deleted one is refused with `in_use`
// (docs/format.md, "Error conditions"), and the object stays. A service deleting it all the same leaves a note
// under a claim no read finds, an order line naming a product that is gone. Per delete of a resource that a
// top-level `ref` of another points at, and where that other resource's create can write the reference (in its body,
// or its path binding it: a note under `/claims/{claim_id}/notes`).

/** Each resource with a create that writes a top-level `ref` to `target`, with that field. */
function referrers(ctx: TestContext, target: ResourceModel): { route: OperationRoute; field: FieldModel }[] {
  const out: { route: OperationRoute; field: FieldModel }[] = [];
  for (const r of ctx.model.resources) {
    const create = ctx.createRoute(r.name);
    if (!create) continue;
    const taken = new Set(ctx.requestFields(create).map((f) => f.name));
    for (const f of r.fields) {
      if (f.type !== 'ref' || f.to !== target.name) continue;
      const bound = create.operation.bindings?.some((b) => b.field === f.name) === true;
      if (bound || (taken.has(f.name) && isWritable(r, f, 'create'))) out.push({ route: create, field: f });
    }
  }
  return out;
}

export async function checkInUse(ctx: TestContext): Promise<void> {
  if (!ctx.selected('errors', 'errors.in-use')) return;
  for (const del of ctx.routes) {
    const target = del.resource;
    if (del.operation.action !== 'delete' || !target || del.operation.bindings) continue;
    const read = ctx.routes.find((r) => r.operation.action === 'read' && r.resource === target && !r.operation.bindings);
    for (const { route: create, field } of referrers(ctx, target)) {
      const referrer = create.resource!;
      await ctx.check('errors', 'errors.in-use', `${del.operation.id}: a ${target.name} a ${referrer.name} refers to (${field.name})`, async (scope) => {
        const d = ctx.refusal(del, 'in_use');
        if (!d) return scope.skip('the spec declares no error code for in_use (not shown)');
        // A delete listing its answers (an imported document's) without that code says nothing of a refusal: deleting
        // may cascade ("Delete a project and all its tasks").
        const listed = del.operation.errors;
        if (listed.length > 0 && !d.codes.some((c) => listed.includes(c.name)))
          return scope.skip(`${del.operation.id} lists no ${d.label} among its answers (deleting may cascade)`, 'not-applicable');
        const headers = await ctx.authFor(del.operation.auth);
        const createHeaders = await ctx.authFor(create.operation.auth);
        if (!headers || !createHeaders) return scope.skip('no credential for this operation');
        const made = await ctx.createObject(target);
        if (!made || !isSuccessAnswer(ctx.createRoute(target.name) ?? ctx.upsertRoute(target.name)!, made.res.status))
          return scope.skip(`no ${target.name} could be made`, 'not-run');
        const id = objectKey(target, made.res.body as Record<string, unknown>);
        // The referrer's create, its reference to the new object: in the path where the path binds it, else in the body.
        const params: Record<string, string> = {};
        for (const b of create.operation.bindings ?? []) if (b.field === field.name) params[b.param] = String(id);
        let body = await ctx.validBody(create);
        body = Object.keys(params).length > 0 ? ctx.bindBody(create, body, { [field.name]: id }) : { ...body, [field.name]: id };
        const refReq: TestRequest = { method: create.method, path: ctx.pathOf(create, undefined, {}, params), headers: createHeaders, body };
        const referred = await ctx.send(create, refReq);
        if (!isSuccessAnswer(create, referred.status))
          return scope.skip(`no ${referrer.name} referring to a ${target.name} could be made (${describe(referred).slice(0, 120)})`, 'not-run');
        const req: TestRequest = { method: del.method, path: ctx.pathOf(del, id), headers };
        const res = await ctx.send(del, req);
        const why = ctx.expectRefusal(res, del, 'in_use');
        if (why !== undefined)
          return scope.fail({
            ...ctx.failure(
              del.operation.id,
              `${d.label} for a delete of a ${target.name} that a ${referrer.name} refers to (${field.name})`,
              d.pointer,
              req,
              `${why}; ${describe(res)}`,
            ),
            curl: ctx.client.curlSequence([{ req: made.req }, { note: `then (${create.operation.id})`, req: refReq }, { note: 'then', req }]),
          });
        // Refused, the object is still there.
        const readHeaders = read ? await ctx.authFor(read.operation.auth) : undefined;
        if (!read || !readHeaders) return;
        const getReq: TestRequest = { method: 'GET', path: ctx.pathOf(read, id), headers: readHeaders };
        const got = await ctx.send(read, getReq);
        if (!isSuccessAnswer(read, got.status))
          scope.fail(ctx.failure(del.operation.id, `the ${target.name} still there after a delete refused as in use`, d.pointer, getReq, got));
      });
    }
  }
}
