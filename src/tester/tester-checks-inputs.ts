import fc from 'fast-check';
import { objectKey } from './tester-context.js';
import { getFieldSchema, isAnswered, type SchemaView } from '../model/model-schemas.js';
import { getFieldAt } from '../model/model-path-bindings.js';
import { DEFAULT_PAGING, getFirstPage, getPagingParamName, isMergePatch } from '../model/model-defaults.js';
import { isSuccessAnswer, type OperationRoute } from '../model/model-routes.js';
import { getNextCursor, getPageItems, getPageSizeParam } from './tester-checks-lists.js';
import type { FieldModel, ResourceModel } from '../model/model-types.js';
import {
  getCustomBodyArbitrary,
  heldAsPatched,
  sendableFields,
  heldAsSent,
  missingIdentifier,
  objectArbitrary,
  padUnionsForMergePatch,
  getCaseVariants,
  parametersArbitrary,
  getVariantFields,
} from './tester-arbitraries.js';
import { getEdgeCases } from './tester-input-edges.js';
import { checkUnionVariants } from './tester-checks-unions.js';
import { checkUnique } from './tester-checks-unique.js';
import { checkActionParams, checkQueryParams, getForeignText, withQuery } from './tester-checks-params.js';
import { isThrifty, pickThrifty } from './tester-pacing.js';
import type { TestRequest, TestResponse } from './tester-http.js';
import { describe, notImplemented, type CheckScope, type TestContext } from './tester-context.js';
import { responseMismatch } from './tester-judge.js';
import type { Failure } from './tester-types.js';

// The whole input space, by targeted cases: valid bodies at every edge of the declared space
// (endpoints.input-space), identifiers that name nothing and malformed ones on every operation that takes one,
// transitions included (errors.missing-object, errors.malformed-id), and list requests at and past their edges
// (endpoints.list-edges). An undeclared 5xx on any of them is also the judge's (tester-judge.ts).

const VIEW: Partial<Record<string, SchemaView>> = { create: 'create', update: 'update', replace: 'replace' };

/** Undefined when `res` is one of the declared answers to `conditions`, else what differs (from the first). */
/** Every body operation sent valid bodies at the edges of its declared space. */
async function checkInputSpace(ctx: TestContext, route: OperationRoute): Promise<void> {
  const o = route.operation;
  const resource = route.resource;
  const view = VIEW[o.action];
  const fields: readonly FieldModel[] = view && resource ? ctx.requestFields(route) : o.action === 'custom' && o.request ? sendableFields(o.request) : [];
  if (fields.length === 0 || !route.hasBody || (!view && o.action !== 'custom')) return;
  await ctx.check('endpoints', 'endpoints.input-space', o.id, async (scope: CheckScope) => {
    const headers = await ctx.authFor(o.auth);
    if (!headers) return scope.skip('no credential for this operation');
    const required = ctx.missingHeaders(route);
    if (required.length > 0) return scope.skip(`the tester does not generate request headers; ${o.id} requires ${required.join(', ')}`);
    if (route.query.some((q) => q.kind === 'param' && q.parameter && !q.parameter.optional && !q.parameter.hasDefault))
      return scope.skip(`${o.id} requires query parameters: its input space is covered by endpoints.valid-requests`);
    // A create under a parent the run has none of is answered missing_resource (endpoints.valid-requests says so too).
    const unmade = o.action === 'create' ? ctx.unmadeParent(route, true) : undefined;
    if (unmade !== undefined) return scope.skip(unmade, 'not-run');
    let id: unknown;
    let target: Record<string, unknown> | undefined;
    if (ctx.idParams(route).length > 0) {
      if (!resource) return scope.skip('the spec does not say what the path parameter names (no resource)');
      target = await ctx.ensureObject(resource);
      if (!target) return scope.skip(`no ${resource.name} to send bodies to`);
      id = objectKey(resource, target);
    }
    // With request_fields, the fields the operation takes (a replace's drawn for it: a create's may leave some out).
    const base =
      resource && view
        ? o.requestFields !== undefined && view === 'replace'
          ? await ctx.validBody(route, id)
          : ctx.onlyRequestFields(route, await ctx.sampleCreateBody(resource, 0, true, target && ctx.variantTagOf(resource, undefined, target)))
        : ((await ctx.resolveRefs(fc.sample(objectArbitrary(ctx.model, fields, undefined, 'create', true), { seed: ctx.seed, numRuns: 1 })[0])) as Record<
            string,
            unknown
          >);
    // A client-given identifier is sent by the create only: no other request writes it.
    if (resource && view !== 'create')
      for (const f of resource.fields) if (f.writeOnce || (resource.identifierSource === 'client' && f.name === resource.identifier)) delete base[f.name];
    const limit = ctx.model.limits?.bodySize?.bytes;
    const fits = (b: Record<string, unknown>) => limit === undefined || Buffer.byteLength(JSON.stringify(b)) <= limit - 64;
    const send = async (label: string, value: Record<string, unknown>, mayRefuse = false): Promise<Failure | undefined> => {
      const resolved = (await ctx.resolveRefs(value)) as Record<string, unknown>;
      // A merge patch says a union field whole, and keeps what it does not name of an object (RFC 7396).
      const patching = resource !== undefined && isMergePatch(o);
      const patch = (b: Record<string, unknown>) => (patching ? padUnionsForMergePatch(resource, b) : b);
      let body = patch(ctx.bindBody(route, ctx.makeUnique(resource, resolved), target));
      // A custom operation taking a list (request: { list: true }) is sent the body at the edge as its one item.
      let req: TestRequest = { method: route.method, path: ctx.pathOf(route, id), headers, body: o.action === 'custom' && o.request?.list ? [body] : body };
      let res = await ctx.send(route, req);
      // A unique value another run (or another client) already took is the service keeping its promise, stated or
      // not, not a fault: draw fresh values and send again (a short pattern leaves few values to draw from). The
      // edge value itself is kept where the field is the one at the edge.
      for (let i = 0; i < 3 && resource !== undefined && ctx.isConflict(route, res); i++) {
        const edge = (name: string) => JSON.stringify(resolved[name]) !== JSON.stringify(base[name]);
        body = patch(ctx.bindBody(route, ctx.makeUnique(resource, ctx.freshen(resource, resolved, edge)), target));
        req = { method: route.method, path: ctx.pathOf(route, id), headers, body };
        res = await ctx.send(route, req);
      }
      // Still a conflict: the edge value itself is taken (an earlier edge sent it, the service keeps it unique). A
      // body with every text drawn afresh that the service takes says so, and this edge cannot be sent again.
      for (let i = 0, fresh = body; i < 10 && resource !== undefined && ctx.isConflict(route, res); i++) {
        fresh = patch(ctx.bindBody(route, ctx.makeUnique(resource, ctx.freshen(resource, fresh)), target));
        const again = await ctx.send(route, { method: route.method, path: ctx.pathOf(route, id), headers, body: fresh });
        if (isSuccessAnswer(route, again.status)) return undefined;
      }
      // The declared conflict to fresh values too, after the service made objects of this kind: a rule of its state
      // the spec does not state (a quota), not a refusal of this edge.
      if (o.action === 'create' && resource !== undefined && ctx.isConflict(route, res) && (ctx.pool.get(resource.name)?.length ?? 0) > 0) return undefined;
      // The service says it does not implement the operation (a custom operation with no handler; a create whose
      // request leaves out a required value the spec does not state): nothing of it can be judged, and it is not run.
      if (res.status === 501) return undefined;
      // With no body size shown, a body refused as too large (413 Content Too Large, RFC 9110) met a limit the spec
      // does not state (serve's built-in 1 MiB, a named gap): the edge's many long texts (Keycloak's realm, three
      // clients of 1000-character strings, 1.04 MB) are not judged. With one shown, no body over it is sent (fits).
      if (limit === undefined && res.status === 413) return undefined;
      const refusedAsDeclared =
        o.action === 'custom' &&
        res.status >= 400 &&
        res.status < 500 &&
        o.errors.some((e) => ctx.model.errors?.codes.find((c) => c.name === e)?.status === res.status);
      if (refusedAsDeclared) return undefined;
      // A value the service may refuse (NUL): the declared validation answer, or any 4xx where the spec declares none.
      if (mayRefuse && res.status >= 400 && (ctx.declared('validation') ? ctx.expectCondition(res, 'validation') === undefined : res.status < 500))
        return undefined;
      if (!isSuccessAnswer(route, res.status)) return ctx.failure(o.id, `status ${route.successStatus} for a valid body with ${label}`, o.pointer, req, res);
      const m = responseMismatch(ctx, route, req, res);
      if (m !== undefined)
        return ctx.failure(o.id, `a body in the declared response shape (sent: ${label})`, resource?.pointer ?? o.pointer, req, `${m}; ${describe(res)}`);
      // A 204 answer holds no object to compare (a create answering 204 with no body).
      if (resource && view && res.status !== 204) {
        for (const [k, v] of Object.entries(body)) {
          if (isAnswered(resource, k) && !(patching ? heldAsPatched(resource, k, res.body?.[k], v) : heldAsSent(resource, k, res.body?.[k], v)))
            return ctx.failure(
              o.id,
              `field ${k} kept as sent (${label}): ${JSON.stringify(v).slice(0, 120)}`,
              resource.pointer,
              req,
              `${k} is ${JSON.stringify(res.body?.[k])?.slice(0, 120)}`,
            );
        }
        if (o.action === 'create') ctx.remember(resource, res.body as Record<string, unknown>);
      }
      return undefined;
    };
    const cases = getEdgeCases(
      ctx.model,
      resource ? getVariantFields(resource, fields, ctx.variantTagOf(resource, undefined, target ?? base)) : fields,
      resource,
      view ?? 'create',
      base,
    );
    for (const c of isThrifty(ctx.model) ? pickThrifty(cases, (x) => x.label, 6, 0) : cases) {
      const whole = fits(c.body) ? await send(c.label, c.body, c.mayRefuse) : undefined;
      if (fits(c.body) && whole === undefined) continue;
      // The whole body failed (or is over the body size limit): one field at a time names the field.
      let named: Failure | undefined;
      for (const s of c.single) {
        if (!fits(s.body)) continue;
        named = await send(s.label, s.body, c.mayRefuse);
        if (named) break;
      }
      const f = named ?? whole;
      if (f) return scope.fail(f);
    }
    if (ctx.notImplemented.has(o.id)) scope.skip(notImplemented(o.id), 'not-run');
  });
}

/**
 * Identifiers in the identifier field's type that are not well formed, or past what any storage holds. None is a dot
 * segment (`.`, `..`, `%2E%2E`): clients and servers resolve those away (RFC 3986), so the request would name the
 * route above (a parent, a custom action), not a malformed identifier. `...` is one segment as sent.
 */
function malformedIds(r: ResourceModel, idField = r.fields.find((f) => f.name === r.identifier)): string[] {
  const out = ['%20', 'x'.repeat(300), '...', '%00', "1' OR '1'='1"];
  if (idField?.type === 'integer') out.unshift('not-a-number', '99999999999999999999999', '-1', '1.5', '0x10');
  else if (idField?.type === 'uuid') out.unshift('not-a-uuid', '00000000-0000-4000-8000-00000000000g', '{00000000-0000-4000-8000-000000000000}');
  return out.filter((id) => !/^(\.|%2e){1,2}$/i.test(id));
}

/**
 * Every operation that names an object, transitions and custom actions on one object (`POST /bookings/{id}/cancel`)
 * included: one that does not exist, malformed ones.
 */
async function checkIdentifiers(ctx: TestContext, route: OperationRoute): Promise<void> {
  const o = route.operation;
  const action = ctx.objectActionOf(route);
  const resource = route.resource ?? action!.resource;
  // A valid body for the path of \`id\` (bound fields agreeing with it), so that only the path can be refused.
  const body = async (id?: unknown): Promise<unknown> => {
    if (!route.hasBody) return undefined;
    if (o.action === 'replace' || o.action === 'transition') return ctx.validBody(route, id);
    if (action && o.request) {
      const { arbitrary, resource: bodyResource } = getCustomBodyArbitrary(ctx.model, o.request);
      const value = await ctx.resolveRefs(fc.sample(arbitrary, { seed: ctx.seed, numRuns: 1 })[0]);
      return Array.isArray(value)
        ? value.map((v) => ctx.makeUnique(bodyResource, v as Record<string, unknown>))
        : ctx.makeUnique(bodyResource, value as Record<string, unknown>);
    }
    return {};
  };
  // A custom action names its object by one parameter; the others (a parent's) as an object the run made has them.
  // With no such object, each is drawn: left empty (`/projects//issues/7/lock`), no route would name the request.
  const parents = action ? { ...ctx.drawPathValues(route.pathParams), ...(await ctx.itemPathValues(route)) } : {};
  // A custom action's required query parameters (pocketsmith's `DELETE /events/{id}?behaviour=one`) are sent valid:
  // left out, the request is refused for them (validation) before its object is looked for.
  const params = action ? route.query.flatMap((q) => (q.parameter && !q.parameter.optional && !q.parameter.hasDefault ? [q.parameter] : [])) : [];
  const query = params.length > 0 ? (fc.sample(parametersArbitrary(ctx.model, params), { seed: ctx.seed, numRuns: 1 })[0] ?? {}) : {};
  const pathFor = (id: unknown): string =>
    action ? withQuery(ctx.pathOf(route, undefined, {}, { ...parents, [action.param]: String(id) }), query) : ctx.pathOf(route, id);
  // A custom action is held to the refusals it lists: its handler answers for the object, not the runtime.
  const listed = (condition: 'missing_resource' | 'validation') => {
    const d = ctx.declared(condition);
    return !action || d === undefined || o.errors.includes(d.code);
  };
  if (o.action === 'transition' || action) {
    // valid-requests (which sends the others) leaves transitions to the states part.
    await ctx.check('errors', 'errors.missing-object', o.id, async (scope) => {
      const headers = await ctx.authFor(o.auth);
      if (!headers) return scope.skip('no credential for this operation');
      // A request without a header the operation requires is refused for it (validation) before its object is looked
      // for: PagerDuty's `From` on POST /incidents/{id}/notes, answered 400 whether the incident exists or not.
      const required = ctx.missingHeaders(route);
      if (required.length > 0) return scope.skip(`the tester does not generate request headers; ${o.id} requires ${required.join(', ')}`);
      const d = listed('missing_resource') ? ctx.refusal(route, 'missing_resource') : undefined;
      if (!d) return scope.skip('the spec declares no error code for a missing object (not shown)');
      // In the named field's own form (a key field's pattern too), so that it is missing, not malformed.
      const idField = action?.field ?? resource.fields.find((f) => f.name === resource.identifier);
      const id = idField ? missingIdentifier(idField) : '00000000-0000-4000-8000-00000000dead';
      const b = await body(id);
      const req: TestRequest = { method: route.method, path: pathFor(id), headers, ...(b !== undefined ? { body: b } : {}) };
      const res = await ctx.send(route, req);
      // A custom action the service does not implement (serve without its handler answers 501): not run.
      if (action && res.status === 501) return scope.skip(notImplemented(o.id), 'not-run');
      const why = ctx.expectRefusal(res, route, 'missing_resource');
      if (why !== undefined)
        scope.fail(ctx.failure(o.id, `the declared ${d.label} answer for an object that does not exist`, d.pointer, req, `${why}; ${describe(res)}`));
    });
  }
  // The fields the identifier in the path stands for: a custom action's, those the path binds (a label's `name`),
  // else the identifier.
  const keyFields = action
    ? [action.field]
    : ctx.idParams(route).flatMap((p) => {
        const bound = o.bindings?.find((x) => x.param === p)?.field;
        const f = bound !== undefined ? getFieldAt(resource, bound) : resource.fields.find((x) => x.name === resource.identifier);
        return f ? [f] : [];
      });
  // Whether each of those fields takes the text sent as a value (its type, format, pattern and bounds).
  const takes = (raw: string): boolean => {
    let text: string;
    try {
      text = raw.startsWith('%') ? decodeURIComponent(raw) : raw;
    } catch {
      return false;
    }
    return (
      keyFields.length > 0 &&
      keyFields.every((f) => {
        const schema = getFieldSchema(ctx.model, { ...f, nullable: false }, resource, { safeIntegers: true });
        const numeric = (schema.type === 'integer' || schema.type === 'number') && /^-?[0-9]+(\.[0-9]+)?$/.test(text);
        return ctx.mismatch(schema, numeric ? Number(text) : text) === undefined;
      })
    );
  };
  await ctx.check('errors', 'errors.malformed-id', o.id, async (scope) => {
    const headers = await ctx.authFor(o.auth);
    if (!headers) return scope.skip('no credential for this operation');
    // Each refusal the answer may be, as TestContext.refusal holds it: the code declaring the condition, else the
    // operation's own code of it (an imported document's 404, or a client error that means a bad request). A
    // condition with neither (an imported document's two 404 codes, neither chosen) is not one of them.
    const held = (['missing_resource', 'validation'] as const).filter((c) => listed(c) && ctx.refusal(route, c) !== undefined);
    if (held.length === 0) return scope.skip('the spec declares no error code for a missing object or a validation error (not shown)');
    const refusals = held.map((c) => ctx.refusal(route, c)!);
    const expected = refusals.map((r) => r.label).join(' or ');
    const judge = (res: TestResponse, raw: string): string | undefined => {
      // A text the path's field takes (a space, a quote in a free text `name`) names an object that does not exist,
      // not a malformed one: any answer but a server error is the service's to give (a 404, a rule of its own).
      if (takes(raw)) return res.status >= 500 ? `status ${res.status}` : undefined;
      // An upsert's path gives the object it makes its identifier: a malformed one is an invalid value, as in a create.
      if (o.upsert === true && ctx.expectRefusal(res, route, 'validation') === undefined) return undefined;
      const whys = held.map((c) => ctx.expectRefusal(res, route, c));
      if (whys.includes(undefined)) return undefined;
      // serve's answer to an identifier no object has where no code declares missing_resource (RealWorld's comments)
      // is not judged, as errors.declared-codes leaves it. Only that condition: a marked answer naming another
      // (validation, 422) is judged, the declared refusal being owed.
      if (ctx.isGapAnswer(res, 'missing_resource')) return undefined;
      // A path the router does not take is the declared route_not_found (or method_not_allowed) answer.
      if ((['route_not_found', 'method_not_allowed'] as const).some((c) => ctx.declared(c) && ctx.expectCondition(res, c) === undefined)) return undefined;
      // Name what is wrong with the answer the service chose: a 400 with a bad body is reported by its body, not as
      // "status 400, not 404" when 400 is one of the answers allowed.
      const chosen = refusals.findIndex((r) => r.codes.some((k) => k.status === res.status));
      return whys[chosen === -1 ? 0 : chosen];
    };
    const b = await body();
    const ids = malformedIds(resource, keyFields.length === 1 ? keyFields[0] : undefined);
    // The path's other parameters (a parent's, /events/{eventId}/registrations/{id}) as a request of the run names
    // them, so that only the identifier is malformed: left empty, the parent's absence answered first.
    const placeholder = 'servicespec-malformed-id';
    const single = action || ctx.idParams(route).length === 1 ? pathFor(placeholder) : undefined;
    for (const raw of isThrifty(ctx.model) ? ids.slice(0, 2) : ids) {
      const segment = raw.startsWith('%') ? raw : encodeURIComponent(raw);
      let path = ctx.fillVersion(route.path);
      if (single?.includes(placeholder)) path = single.replace(placeholder, segment);
      else for (const name of route.pathParams) path = path.replace(`{${name}}`, ctx.idParams(route).includes(name) ? segment : '');
      const req: TestRequest = { method: route.method, path, headers, ...(b !== undefined ? { body: b } : {}) };
      const res = await ctx.send(route, req);
      if (action && res.status === 501) return scope.skip(notImplemented(o.id), 'not-run');
      const why = judge(res, raw);
      if (why !== undefined)
        return scope.fail(
          ctx.failure(
            o.id,
            `${expected} for a malformed identifier (${JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw)})`,
            refusals[0]!.pointer,
            req,
            `${why}; ${describe(res)}`,
          ),
        );
    }
  });
}

/** Where the spec declares no validation code, any 4xx is the refusal (a 5xx is the judge's): undefined, else the status. */
function refusal(res: TestResponse): string | undefined {
  return res.status >= 400 && res.status < 500 ? undefined : `status ${res.status}`;
}

/** A list at and past its edges: limit 0, 1, the maximum and one more; forged, altered and stale cursors; unknown filter values and parameters. */
async function checkListEdges(ctx: TestContext, route: OperationRoute): Promise<void> {
  const o = route.operation;
  await ctx.check('endpoints', 'endpoints.list-edges', o.id, async (scope) => {
    const headers = await ctx.authFor(o.auth);
    if (!headers) return scope.skip('no credential for this operation');
    const unmade = ctx.unmadeParent(route);
    if (unmade !== undefined) return scope.skip(unmade, 'not-run');
    const get = async (query: Record<string, string>): Promise<{ req: TestRequest; res: TestResponse }> => {
      const req: TestRequest = { method: 'GET', path: ctx.pathOf(route, undefined, query), headers };
      return { req, res: await ctx.send(route, req) };
    };
    // Read by the list's declared paging (docs/format.md, "List shapes"): its page-size parameter, and cursors only where it pages by cursor.
    const page = (res: TestResponse): unknown[] | undefined => (isSuccessAnswer(route, res.status) ? getPageItems(route, res.body) : undefined);
    const paging = route.operation.paging ?? DEFAULT_PAGING;
    const size = getPageSizeParam(route);
    // Two objects at least, so that a page of one has a next cursor.
    if (route.resource && ctx.createRoute(route.resource.name)) for (let i = 0; i < 2; i++) await ctx.createObject(route.resource);
    const one = await get(size === undefined ? {} : { [size]: '1' });
    const items = page(one.res);
    if (!items)
      return scope.fail(
        ctx.failure(o.id, `status ${route.successStatus} and a page${size === undefined ? '' : ` for ${size}=1`}`, o.pointer, one.req, one.res),
      );
    if (size !== undefined && items.length > 1)
      return scope.fail(ctx.failure(o.id, `at most 1 item for ${size}=1`, o.pointer, one.req, `${items.length} items`));
    // The paging parameters given values no page is asked by: the declared validation answer, or, where no code
    // declares it (an imported document), one of the operation's own client errors (ctx.refusal). A page size of 0,
    // a page number of 0 and every value that is no non-negative integer (docs/format.md, "List shapes").
    const refusedBy = ctx.refusal(route, 'validation');
    // Where nothing declares the refusal, any client error is one.
    const refuse = (res: TestResponse) => (refusedBy ? ctx.expectRefusal(res, route, 'validation') : refusal(res));
    const refuseLabel = refusedBy?.label ?? 'the declared refusal';
    // The paging values are the format's rules, not a document's: a spec stating no error answer (an OpenAPI document
    // declaring successes only) is not held to refusing them (Django REST Framework serves `page_size=0` at the default).
    if (refusedBy !== undefined && ctx.errorsShown) {
      const edges: [string, string, string][] = [];
      const thrifty = isThrifty(ctx.model);
      if (size !== undefined) {
        edges.push([size, '0', 'a page holds at least one item']);
        if (!thrifty) for (const bad of ['-1', 'abc', '1.5']) edges.push([size, bad, 'no page size']);
      }
      if (paging.style === 'page' && !thrifty) {
        // Pages numbered from 0 (paging.first_page: 0) take 0: -1 is below the first.
        const first = getFirstPage(paging);
        for (const bad of [...(first === 1 ? ['0'] : []), '-1', 'abc', '1.5'])
          edges.push([getPagingParamName(paging, 'page'), bad, `pages are numbered from ${first}`]);
      }
      if (paging.style === 'offset' && !thrifty)
        for (const bad of ['-1', 'abc', '1.5']) edges.push([getPagingParamName(paging, 'offset'), bad, 'no number of objects to skip']);
      for (const [name, bad, why] of edges) {
        const r = await get({ [name]: bad });
        const w = refuse(r.res);
        if (w !== undefined)
          return scope.fail(ctx.failure(o.id, `${refusedBy.label} for ${name}=${bad} (${why})`, refusedBy.pointer, r.req, `${w}; ${describe(r.res)}`));
      }
    }
    // A cursor the service never issued: likewise the format's rule, not held where the spec states no error answer.
    if (refusedBy && ctx.errorsShown && paging.style === 'cursor') {
      const forged = await get({ [getPagingParamName(paging, 'cursor')]: 'forged-cursor-!@#' });
      const fw = refuse(forged.res);
      if (fw !== undefined)
        return scope.fail(
          ctx.failure(o.id, `${refusedBy.label} for a cursor the service never issued`, refusedBy.pointer, forged.req, `${fw}; ${describe(forged.res)}`),
        );
    }
    const next = getNextCursor(route, one.res);
    if (next !== undefined) {
      // An altered cursor (one character changed) and a cursor sent with another query: the declared refusal, or a
      // page in the declared shape — never a server error (the judge) or a page that is not one.
      const flip = (c: string) => (c === 'A' ? 'B' : 'A');
      const altered = `${next.slice(0, Math.floor(next.length / 2))}${flip(next[Math.floor(next.length / 2)]!)}${next.slice(Math.floor(next.length / 2) + 1)}`;
      for (const [label, query] of [
        ['an altered cursor', { [getPagingParamName(paging, 'cursor')]: altered }],
        ['a truncated cursor', { [getPagingParamName(paging, 'cursor')]: next.slice(0, Math.max(1, next.length - 3)) }],
      ] as const) {
        const r = await get(query);
        if (page(r.res)) continue;
        const w = refuse(r.res);
        if (w !== undefined)
          return scope.fail(ctx.failure(o.id, `a page or ${refuseLabel} for ${label}`, refusedBy?.pointer ?? o.pointer, r.req, `${w}; ${describe(r.res)}`));
      }
      // A stale cursor: its object deleted since.
      const del = ctx.routes.find((r) => r.operation.action === 'delete' && r.resource?.name === route.resource?.name);
      const identifier = route.resource?.identifier;
      const limitName = getPagingParamName(paging, 'limit');
      const cursorName = getPagingParamName(paging, 'cursor');
      // Not the parent the run's nested requests are under (a ticket its comments are listed under): deleting it
      // would take them with it. The page after it is tried instead, a few times.
      let first = items[0] as Record<string, unknown> | undefined;
      let stale: unknown = next;
      for (let i = 0; i < 5 && first && identifier !== undefined && ctx.isScopeValue(first[identifier]); i++) {
        const after = await get({ [limitName]: '1', [cursorName]: String(stale) });
        first = page(after.res)?.[0] as Record<string, unknown> | undefined;
        stale = getNextCursor(route, after.res);
        if (stale === undefined) first = undefined;
      }
      if (first && identifier !== undefined && ctx.isScopeValue(first[identifier])) first = undefined;
      const dh = del ? await ctx.authFor(del.operation.auth) : undefined;
      if (del && dh && first && identifier !== undefined) {
        await ctx.send(del, { method: del.method, path: ctx.pathOf(del, first[identifier]), headers: dh });
        const r = await get({ [limitName]: '1', [cursorName]: String(stale) });
        if (!page(r.res)) {
          const w = refuse(r.res);
          if (w !== undefined)
            return scope.fail(
              ctx.failure(
                o.id,
                `a page or the declared refusal for a cursor whose object was deleted since`,
                refusedBy?.pointer ?? o.pointer,
                r.req,
                `${w}; ${describe(r.res)}`,
              ),
            );
        }
      }
    }
    // Unknown filter values (an enum filter given a value it does not declare) and an unknown parameter.
    for (const q of route.query.filter((x) => x.kind === 'filter' && x.field)) {
      const f = q.field!;
      // A date filter keeps its one value out of this (a range filter may read it as a bound).
      const value = f.type === 'date' || f.type === 'datetime' ? undefined : getForeignText(f.type);
      if (value === undefined) continue;
      const r = await get({ [q.name]: value });
      // An enum filter's value of none of its values, where a code declares `validation`: the format refuses it (a
      // filter value no object can hold is `validation`), so an empty page does not pass — a service that never
      // checks the value answers one. Of another type, or with no code declaring it, an empty page passes.
      const strict = f.type === 'enum' && refusedBy !== undefined;
      if (!strict && page(r.res)?.length === 0) continue;
      const w = strict && page(r.res) ? `a page of ${page(r.res)!.length} item(s)` : refuse(r.res);
      if (w !== undefined)
        return scope.fail(
          ctx.failure(
            o.id,
            `${refuseLabel}${strict ? '' : ' (or an empty page)'} for ${q.name}=${value}, a value of no ${f.type}`,
            refusedBy?.pointer ?? o.pointer,
            r.req,
            `${w}; ${describe(r.res)}`,
          ),
        );
    }
    // An enum filter given a declared value in another case (`ACTIVE` for `active`), where that is no declared value:
    // values are compared exactly, so no object holds it — the declared refusal or an empty page. A service comparing
    // case-insensitively (or lowercasing the parameter) answers the objects holding the declared value.
    // Under a rate budget below 100 a minute, the first value only.
    for (const q of route.query.filter((x) => x.kind === 'filter' && x.field?.type === 'enum')) {
      for (const [declared, variant] of getCaseVariants(q.field!.values ?? []).slice(0, isThrifty(ctx.model) ? 1 : 6)) {
        const r = await get({ [q.name]: variant });
        if (page(r.res)?.length === 0) continue;
        const w = page(r.res) ? `a page of ${page(r.res)!.length} item(s)` : refuse(r.res);
        if (w !== undefined)
          return scope.fail(
            ctx.failure(
              o.id,
              `${refuseLabel} (or an empty page) for ${q.name}=${variant}, ${JSON.stringify(declared)} in another case (not one of its values)`,
              refusedBy?.pointer ?? o.pointer,
              r.req,
              `${w}; ${describe(r.res)}`,
            ),
          );
      }
    }
    // A page past the last object (an offset, or a page number, beyond every object the run can have made): a valid
    // request, answered with a page (an empty one, as serve answers it) or a client error (Django REST Framework's
    // 404 "Invalid page") — never a server error (an offset at the end read as an index).
    if (paging.style === 'offset' || paging.style === 'page') {
      const name = getPagingParamName(paging, paging.style === 'offset' ? 'offset' : 'page');
      const r = await get({ [name]: '1000000' });
      if (isSuccessAnswer(route, r.res.status) ? !page(r.res) : r.res.status >= 500)
        return scope.fail(ctx.failure(o.id, `a page, or a client error, for ${name}=1000000 (past the last object)`, o.pointer, r.req, describe(r.res)));
      // Answered with a page, an empty one: no object is that far on (one answering the last page again instead, as
      // a paginator clamping the page number does, let a client paging on never see the end).
      const items = page(r.res);
      if (items !== undefined && items.length > 0)
        return scope.fail(
          ctx.failure(
            o.id,
            `an empty page, or a client error, for ${name}=1000000 (past the last object)`,
            o.pointer,
            r.req,
            `${items.length} objects; ${describe(r.res)}`,
          ),
        );
    }
    // A sort by a field it does not sort on: the declared refusal (a page, where a service ignores it) — never a
    // server error, which the judge fails (endpoints.no-server-error).
    const sort = route.query.find((x) => x.kind === 'sort');
    if (sort) {
      const r = await get({ [sort.name]: '__no_such_field__' });
      if (!page(r.res)) {
        const w = refuse(r.res);
        if (w !== undefined)
          return scope.fail(
            ctx.failure(
              o.id,
              `${refuseLabel} (or a page) for ${sort.name}=__no_such_field__, a field it does not sort on`,
              refusedBy?.pointer ?? o.pointer,
              r.req,
              `${w}; ${describe(r.res)}`,
            ),
          );
      }
    }
    const unknown = await get({ __servicespec_unknown__: '1' });
    if (!page(unknown.res)) {
      const w = refuse(unknown.res);
      if (w !== undefined)
        scope.fail(
          ctx.failure(
            o.id,
            `a page, or ${refuseLabel}, for a parameter the operation does not declare`,
            refusedBy?.pointer ?? o.pointer,
            unknown.req,
            `${w}; ${describe(unknown.res)}`,
          ),
        );
    }
  });
}

/** The input-space checks of one route (called per route by checkEndpoints). */
export async function checkInputs(ctx: TestContext, route: OperationRoute): Promise<void> {
  await checkInputSpace(ctx, route);
  await checkUnionVariants(ctx, route);
  await checkUnique(ctx, route);
  await checkQueryParams(ctx, route);
  await checkActionParams(ctx, route);
  if ((ctx.idParams(route).length > 0 && route.resource) || ctx.objectActionOf(route)) await checkIdentifiers(ctx, route);
  if (route.operation.action === 'list' && route.resource) await checkListEdges(ctx, route);
  if (route.operation.action === 'list' && route.resource && route.operation.requiredFilters) await checkRequiredFilters(ctx, route);
}

/**
 * A list's required filters (`required_filters`): the list asked without one, every other parameter as every list
 * request of the run sends them, is refused with validation; a service answering it (every object, or none) fails.
 */
async function checkRequiredFilters(ctx: TestContext, route: OperationRoute): Promise<void> {
  const o = route.operation;
  for (const name of o.requiredFilters ?? []) {
    await ctx.check('endpoints', 'endpoints.invalid-requests', `${o.id}: ${name} missing (required filter)`, async (scope) => {
      const d = ctx.refusal(route, 'validation');
      if (!d) return scope.skip('no error code declared for validation (not shown)');
      const headers = await ctx.authFor(o.auth);
      if (!headers) return scope.skip('no credential for this operation');
      const full = ctx.pathOf(route);
      const at = full.indexOf('?');
      const query = new URLSearchParams(at < 0 ? '' : full.slice(at + 1));
      query.delete(name);
      const rest = query.toString();
      const req: TestRequest = { method: 'GET', path: `${at < 0 ? full : full.slice(0, at)}${rest === '' ? '' : `?${rest}`}`, headers };
      const res = await ctx.send(route, req);
      const why = ctx.expectRefusal(res, route, 'validation');
      if (why !== undefined)
        scope.fail(ctx.failure(o.id, `${d.label} for a list request without its required filter ${name}`, d.pointer, req, `${why}; ${describe(res)}`));
    });
  }
}
