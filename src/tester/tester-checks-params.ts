import fc from 'fast-check';
import { getDeclaredParameters, isSuccessAnswer, type OperationRoute } from '../model/model-routes.js';
import type { FieldModel, ParameterModel } from '../model/model-types.js';
import { getCustomBodyArbitrary, parametersArbitrary } from './tester-arbitraries.js';
import { describe, notImplemented, objectKey, type TestContext } from './tester-context.js';
import type { TestRequest } from './tester-http.js';
import { walkToTransition } from './tester-state-walks.js';

// A custom operation's declared query parameters (operation.query) broken one at a time: a required one left out, one
// given text its type cannot read or a number past its bounds. Each is a request breaking the operation's declared
// schema, refused as validation (endpoints.invalid-requests), as valid-requests is the same request unbroken.

/** Where a custom operation acts: the object its path names (one the run made) and the path's other values. */
export async function getCustomTarget(ctx: TestContext, route: OperationRoute): Promise<{ id?: unknown; named: Record<string, string> } | { skip: string }> {
  if (ctx.idParams(route).length === 0) return { named: {} };
  if (route.resource) {
    const obj = await ctx.ensureObject(route.resource);
    if (!obj) return { skip: `no ${route.resource.name} to address` };
    return { id: objectKey(route.resource, obj), named: {} };
  }
  // An action on one object (`POST /tasks/{taskId}/complete`, below a read's path): an object the run made. Other
  // path parameters that name no resource the spec declares (an imported document's `{namespace}`): values drawn
  // like any other untyped string input.
  return { named: { ...ctx.drawPathValues(ctx.idParams(route)), ...(await ctx.fieldPathValues(route)), ...(await ctx.itemPathValues(route)) } };
}

/** `path` with `values` as its query (an array's items repeated), after any query it already has. */
export function withQuery(path: string, values: Record<string, unknown>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) for (const x of Array.isArray(v) ? v : [v]) if (x !== undefined) q.append(k, String(x));
  const s = q.toString();
  return s === '' ? path : `${path}${path.includes('?') ? '&' : '?'}${s}`;
}

/** A text no value of `type` reads as (a query parameter's, a list filter's); undefined for a type any text is. */
export function getForeignText(type: FieldModel['type']): string | undefined {
  switch (type) {
    case 'integer':
    case 'number':
      return 'not-a-number';
    case 'boolean':
      return 'maybe';
    case 'enum':
      return '__no_such_value__';
    case 'uuid':
    case 'ref':
      return 'not-an-id';
    case 'date':
      return 'not-a-date';
    case 'datetime':
      return 'not-a-time';
    default:
      return undefined;
  }
}

/** Texts `p` cannot take, each with why: of another type, past a bound. */
function badTexts(p: ParameterModel): [string, string][] {
  const foreign = getForeignText(p.type);
  const out: [string, string][] = foreign === undefined ? [] : [[foreign, p.type === 'enum' ? 'none of its values' : `no ${p.type}`]];
  if (p.type === 'integer' || p.type === 'number') {
    if (p.minimum !== undefined) out.push([String(p.minimum - 1), `below its minimum ${p.minimum}`]);
    else if (p.exclusiveMinimum !== undefined) out.push([String(p.exclusiveMinimum), `at its exclusive minimum ${p.exclusiveMinimum}`]);
    if (p.maximum !== undefined) out.push([String(p.maximum + 1), `above its maximum ${p.maximum}`]);
    else if (p.exclusiveMaximum !== undefined) out.push([String(p.exclusiveMaximum), `at its exclusive maximum ${p.exclusiveMaximum}`]);
  }
  return out;
}

/** A custom operation's query parameters: each required one left out, each typed one given a value it cannot take. */
export async function checkQueryParams(ctx: TestContext, route: OperationRoute): Promise<void> {
  const o = route.operation;
  if (o.action !== 'custom' || !ctx.selected('endpoints', 'endpoints.invalid-requests')) return;
  const params = route.query.flatMap((q) => (q.kind === 'param' && q.parameter ? [q.parameter] : []));
  const cases: { label: string; drop?: string; set?: [string, string] }[] = [
    ...params.filter((p) => !p.optional && !p.hasDefault).map((p) => ({ label: `query parameter ${p.name} missing (required)`, drop: p.name })),
    ...params.flatMap((p) =>
      badTexts(p).map(([text, why]) => ({ label: `query parameter ${p.name}=${text} (${why})`, set: [p.name, text] as [string, string] })),
    ),
  ];
  if (cases.length === 0) return;
  let base: TestRequest | undefined;
  let values: Record<string, unknown> = {};
  let fresh = (): unknown => undefined;
  await ctx.check(
    'endpoints',
    'endpoints.invalid-requests',
    `${o.id}: a valid query to break`,
    async (scope) => {
      const headers = await ctx.authFor(o.auth);
      if (!headers) return scope.skip('no credential for this operation');
      if (ctx.missingHeaders(route).length > 0) return scope.skip(`the tester does not generate request headers; ${o.id} requires some`);
      const target = await getCustomTarget(ctx, route);
      if ('skip' in target) return scope.skip(target.skip);
      values = fc.sample(parametersArbitrary(ctx.model, params, true), { seed: ctx.seed, numRuns: 1 })[0] as Record<string, unknown>;
      if (o.request) {
        const { arbitrary, resource } = getCustomBodyArbitrary(ctx.model, o.request);
        const value = await ctx.resolveRefs(fc.sample(arbitrary, { seed: ctx.seed, numRuns: 1 })[0]);
        // Unique values fresh for each request: a broken one is refused for what is broken, not as a conflict.
        fresh = () =>
          Array.isArray(value)
            ? value.map((v) => ctx.makeUnique(resource, v as Record<string, unknown>))
            : ctx.makeUnique(resource, value as Record<string, unknown>);
      }
      const body = fresh();
      const req: TestRequest = {
        method: route.method,
        path: withQuery(ctx.pathOf(route, target.id, {}, target.named), values),
        headers,
        ...(body !== undefined ? { body } : {}),
      };
      const res = await ctx.send(route, req);
      if (res.status === 501) return scope.skip(notImplemented(o.id), 'not-run');
      // Refused unbroken (a rule of the handler's the spec does not state), a refusal of a broken one would show nothing.
      if (!isSuccessAnswer(route, res.status)) return scope.skip(`the valid request to break was refused (${describe(res)})`);
      base = { ...req, path: ctx.pathOf(route, target.id, {}, target.named) };
    },
    { quiet: true },
  );
  if (!base) return;
  for (const c of cases) {
    await ctx.check('endpoints', 'endpoints.invalid-requests', `${o.id}: ${c.label}`, async (scope) => {
      const d = ctx.refusal(route, 'validation');
      if (!d) return scope.skip('no error code declared for validation (not shown)');
      const broken = { ...values };
      if (c.drop !== undefined) delete broken[c.drop];
      if (c.set) broken[c.set[0]] = c.set[1];
      const body = fresh();
      const req: TestRequest = { ...base!, path: withQuery(base!.path, broken), ...(body !== undefined ? { body } : {}) };
      const res = await ctx.send(route, req);
      const why = ctx.expectRefusal(res, route, 'validation');
      if (why !== undefined) scope.fail(ctx.failure(o.id, `${d.label} for a request with ${c.label}`, d.pointer, req, `${why}; ${describe(res)}`));
    });
  }
}

/**
 * A built-in action's declared parameters (the action validates them: docs/format.md, "Parameters"): each required
 * one left out in turn from an otherwise valid request, and each query parameter given a value it cannot take, which
 * must be refused as `validation`: a read of an object the
 * run made, a list, a create with a valid body, an update, replace or delete of a new object made for it (a service
 * taking the request changes or deletes that object only), a transition on a new object walked to a state it leaves
 * (so that its state is no reason to refuse it). Paths the run can name: an object's with its identifier alone, a
 * list's or create's with none.
 */
export async function checkActionParams(ctx: TestContext, route: OperationRoute): Promise<void> {
  const o = route.operation;
  const onObject = o.action === 'read' || o.action === 'update' || o.action === 'replace' || o.action === 'delete' || o.action === 'transition';
  if ((!onObject && o.action !== 'list' && o.action !== 'create') || !route.resource || !ctx.selected('endpoints', 'endpoints.invalid-requests')) return;
  const declared = getDeclaredParameters(route);
  // Each required one left out; each query parameter given a text its type cannot read, or a number past a bound
  // (DRF's `ordering=__no_such_value__`: the action validates it, a service ignoring the value answers a page).
  const cases: { label: string; drop?: string; set?: [string, string] }[] = [
    ...declared
      .filter((p) => !p.optional && !p.hasDefault)
      .map((p) => ({ label: `${p.in === 'header' ? 'header' : 'query parameter'} ${p.name} missing (required)`, drop: p.name })),
    ...declared
      .filter((p) => p.in !== 'header')
      .flatMap((p) => badTexts(p).map(([text, why]) => ({ label: `query parameter ${p.name}=${text} (${why})`, set: [p.name, text] as [string, string] }))),
  ];
  if (cases.length === 0 || route.pathParams.length > (onObject ? 1 : 0)) return;
  const resource = route.resource;
  for (const { label, drop, set } of cases) {
    await ctx.check('endpoints', 'endpoints.invalid-requests', `${o.id}: ${label}`, async (scope) => {
      const d = ctx.refusal(route, 'validation');
      if (!d) return scope.skip('no error code declared for validation (not shown)');
      const headers = await ctx.authFor(o.auth);
      if (!headers) return scope.skip('no credential for this operation');
      let id: unknown;
      if (o.action === 'read') {
        const target = await ctx.ensureObject(resource);
        if (!target) return scope.skip(`no ${resource.name} to read`);
        id = objectKey(resource, target);
      } else if (o.action === 'transition') {
        const walked = await walkToTransition(ctx, route);
        if (typeof walked === 'string') return scope.skip(walked, 'not-run');
        id = walked.id;
      } else if (onObject) {
        // Its own object: a service taking the request changes (or deletes) this one, not one other checks use.
        const made = await ctx.createObject(resource);
        const obj = made && made.res.status < 300 ? (made.res.body as Record<string, unknown> | undefined) : undefined;
        if (!obj) return scope.skip(`no ${resource.name} could be made`);
        id = objectKey(resource, obj);
      }
      const body =
        o.action === 'create' || o.action === 'update' || o.action === 'replace' || o.action === 'transition' ? await ctx.validBody(route, id) : undefined;
      const req: TestRequest = {
        method: route.method,
        path: set ? withQuery(ctx.pathOf(route, id), { [set[0]]: set[1] }) : ctx.pathOf(route, id),
        headers,
        ...(drop !== undefined ? { omit: [drop] } : {}),
        ...(body !== undefined ? { body } : {}),
      };
      const res = await ctx.send(route, req);
      const why = ctx.expectRefusal(res, route, 'validation');
      if (why !== undefined) scope.fail(ctx.failure(o.id, `${d.label} for a request with ${label}`, d.pointer, req, `${why}; ${describe(res)}`));
    });
  }
}
