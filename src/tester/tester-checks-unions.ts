// endpoints.union-variants: every variant of every union a request carries — a union request body, or a union field
// of a create, replace, update or custom body — sent valid, complete and tagged, and answered as a success that
// keeps it (a resource's union field comes back as sent, so an answer under another variant's tag is caught; the
// judge holds the answer to the response schema, which picks the variant by its tag). The invalid ones (a tag no
// variant has, a variant without one of its required fields) are endpoints.invalid-requests cases
// (unionMutations in tester-arbitraries.ts).

import { objectKey } from './tester-context.js';
import fc from 'fast-check';
import { isSuccessAnswer, type OperationRoute } from '../model/model-routes.js';
import { isAnswered, isWritable, type SchemaView } from '../model/model-schemas.js';
import type { UnionModel } from '../model/model-types.js';
import { objectArbitrary, padUnionsForMergePatch, sampleVariant, sortedJson } from './tester-arbitraries.js';
import { isMergePatch, isNoContentStatus } from '../model/model-defaults.js';
import { describe, type TestContext } from './tester-context.js';
import type { TestRequest } from './tester-http.js';

const VIEW: Partial<Record<string, SchemaView>> = { create: 'create', update: 'update', replace: 'replace' };

/**
 * The unions a route's request carries: the body itself (`field` undefined), or its top-level union fields — of a
 * resource's, those its request takes (`request_fields`).
 */
function requestUnions(ctx: TestContext, route: OperationRoute): { field?: string; union: UnionModel }[] {
  const o = route.operation;
  if (!route.hasBody) return [];
  if (o.action === 'custom') {
    if (o.request?.union && !o.request.list) return [{ union: o.request.union }];
    return (o.request?.fields ?? []).filter((f) => f.type === 'union' && f.union).map((f) => ({ field: f.name, union: f.union! }));
  }
  const view = VIEW[o.action];
  const r = route.resource;
  if (!view || !r) return [];
  return ctx
    .requestFields(route)
    .filter((f) => f.type === 'union' && f.union && isWritable(r, f, view))
    .map((f) => ({ field: f.name, union: f.union! }));
}

export async function checkUnionVariants(ctx: TestContext, route: OperationRoute): Promise<void> {
  const unions = requestUnions(ctx, route);
  if (unions.length === 0) return;
  const o = route.operation;
  const resource = o.action === 'custom' ? undefined : route.resource;
  // Untagged variants no drawn value is alone (another variant takes each: the oneOf refuses them): not sent.
  const untold: string[] = [];
  await ctx.check('endpoints', 'endpoints.union-variants', o.id, async (scope) => {
    const headers = await ctx.authFor(o.auth);
    if (!headers) return scope.skip('no credential for this operation');
    if (ctx.missingHeaders(route).length > 0) return scope.skip(`the tester does not generate request headers; ${o.id} requires one`);
    if (route.query.some((q) => q.kind === 'param' && q.parameter && !q.parameter.optional && !q.parameter.hasDefault))
      return scope.skip(`${o.id} requires query parameters`);
    let id: unknown;
    let target: Record<string, unknown> | undefined;
    if (ctx.idParams(route).length > 0) {
      if (!route.resource) return scope.skip('the spec does not say what the path parameter names (no resource)');
      target = await ctx.ensureObject(route.resource);
      if (!target) return scope.skip(`no ${route.resource.name} to send bodies to`);
      id = objectKey(route.resource, target);
    }
    for (const { field, union } of unions) {
      for (const v of union.variants) {
        const value = sampleVariant(ctx.model, union, v, ctx.seed);
        if (!value) {
          if (union.discriminator === undefined && union.variants.length > 1 && !JSON.stringify(v.fields).includes('"type":"ref"'))
            untold.push(`${field ?? 'the body'} as variant ${v.name}`);
          continue;
        }
        let body: Record<string, unknown>;
        if (field === undefined) body = value;
        else {
          const base = resource
            ? await ctx.sampleCreateBody(resource, 0, true)
            : ((await ctx.resolveRefs(
                fc.sample(objectArbitrary(ctx.model, o.request?.fields ?? [], undefined, 'create', true), { seed: ctx.seed, numRuns: 1 })[0],
              )) as Record<string, unknown>);
          if (resource && o.action !== 'create') for (const f of resource.fields) if (f.writeOnce) delete base[f.name];
          // A client-given identifier is a create's to send: a replace's (an upsert's) path names it.
          if (resource && o.action !== 'create' && resource.identifier !== undefined) delete base[resource.identifier];
          // Only what the request takes (`request_fields`): an update of a few fields is sent those, the variant among them.
          body = ctx.onlyRequestFields(route, ctx.makeUnique(resource, { ...base, [field]: value }));
          // Bound fields holding the path's values (\`bind\`): only the variant is judged.
          if (resource && o.action !== 'create' && target) body = ctx.bindBody(route, body, target);
          // A merge patch says the variant whole, the other variants' members null (RFC 7396 merges objects).
          if (resource && isMergePatch(o)) body = padUnionsForMergePatch(resource, body);
        }
        const what = `${field ?? 'the body'} as variant ${v.name}`;
        let req: TestRequest = { method: route.method, path: ctx.pathOf(route, id), headers, body };
        let res = await ctx.send(route, req);
        // A value the service keeps unique, stated or not (a VIN an imported document's 409 guards, one an earlier
        // check sent with the same seed): the service keeping its promise, not a refusal of the variant. The other
        // text fields are drawn afresh and the body sent again, as a create's valid requests are.
        for (let i = 0; i < 10 && resource !== undefined && field !== undefined && ctx.isConflict(route, res); i++) {
          let fresh = ctx.freshen(resource, body, (name) => name === field);
          if (o.action !== 'create' && target) fresh = ctx.bindBody(route, fresh, target);
          req = { method: route.method, path: ctx.pathOf(route, id), headers, body: fresh };
          res = await ctx.send(route, req);
        }
        if (res.status === 501) return scope.skip(`the service answers 501 Not Implemented for ${o.id}: its answers were not checked`, 'not-run');
        const refusedAsDeclared =
          o.action === 'custom' &&
          res.status >= 400 &&
          res.status < 500 &&
          o.errors.some((e) => ctx.model.errors?.codes.find((c) => c.name === e)?.status === res.status);
        if (refusedAsDeclared) continue;
        if (!isSuccessAnswer(route, res.status))
          return scope.fail(ctx.failure(o.id, `status ${route.successStatus} for a valid body with ${what}`, v.pointer, req, res));
        // A 204 or 205 answers no object to compare (Okta's global token revocation, a create answering 204).
        if (resource && field !== undefined && isAnswered(resource, field) && !isNoContentStatus(res.status)) {
          const back = (res.body as Record<string, unknown> | undefined)?.[field];
          if (sortedJson(back) !== sortedJson(value))
            return scope.fail(
              ctx.failure(
                o.id,
                `${what} kept as sent: ${JSON.stringify(value).slice(0, 120)}`,
                v.pointer,
                req,
                `${field} is ${JSON.stringify(back)?.slice(0, 120)}; ${describe(res)}`,
              ),
            );
          if (o.action === 'create') ctx.remember(resource, res.body as Record<string, unknown>);
        }
      }
    }
  });
  // Said, not sent: a value both variants take would be refused (a union is a oneOf), a false failure.
  for (const what of untold)
    await ctx.check('endpoints', 'endpoints.union-variants', `${o.id}: ${what}`, async (scope) =>
      scope.skip(`no value drawn for ${what} is that variant alone (another variant takes it: union-indistinguishable); none was sent`, 'not-run'),
    );
}
