import fc from 'fast-check';
import { objectKey } from './tester-context.js';
import { FORM_MEDIA_TYPE, getUnknownFields, isMergePatch, isNullableInRequests } from '../model/model-defaults.js';
import type { FieldModel, ResourceModel } from '../model/model-types.js';
import { getRequestSchema, getSchemaMembers, isAnswered, isWritable, type SchemaView } from '../model/model-schemas.js';
import { isChangeAnswer, isSuccessAnswer, type OperationRoute } from '../model/model-routes.js';
import { REQUEST_ENVELOPED_ACTIONS } from '../model/model-envelope.js';
import { getParentRefBindings } from '../model/model-path-bindings.js';
import {
  fieldArbitrary,
  getMutations,
  getCustomBodyArbitrary,
  getUnionVariantMatches,
  sendableFields,
  heldAsPatched,
  heldAsSent,
  nullLeftOut,
  isPlainObject,
  missingIdentifier,
  objectArbitrary,
  padUnionsForMergePatch,
  parametersArbitrary,
  READ_ONLY_NUMBER,
  sortedJson,
  unionArbitrary,
  unionMutations,
  type Mutation,
  getVariantFields,
} from './tester-arbitraries.js';
import { getLargestPageSize, getPageItems, getPageSizeParam, listedCopyMismatch, outsidePath, pageThrough, totalHeaderProblem } from './tester-checks-lists.js';
import { getListTotal } from './tester-envelope.js';
import { BoundReached, type TestRequest, type TestResponse } from './tester-http.js';
import { describe, notImplemented, type CheckScope, type TestContext } from './tester-context.js';
import { checkInputs } from './tester-checks-inputs.js';
import { getCustomTarget, withQuery } from './tester-checks-params.js';
import { isThrifty, pickThrifty } from './tester-pacing.js';
import { responseMismatch } from './tester-judge.js';
import type { Failure } from './tester-types.js';

// The endpoints part: every operation, with valid requests generated from the model (shrunk on failure) and
// invalid ones breaking each declared constraint.

const VIEW: Partial<Record<string, SchemaView>> = { create: 'create', update: 'update', replace: 'replace' };

/** Runs `property` over `arb` with the run's seed; the last failing (shrunk) case is reported. */
export async function runProperty<T>(
  ctx: TestContext,
  scope: CheckScope,
  arb: fc.Arbitrary<T>,
  runs: number,
  property: (value: T) => Promise<Failure | undefined>,
  examples: readonly T[] = [],
): Promise<void> {
  let last: Failure | undefined;
  // Shrinking keeps to the failure first found: a smaller value failing otherwise (an empty update the service
  // refuses for a rule the spec cannot state) counts as passing, so the report names the fault that was found.
  const kindOf = (f: Failure) => f.expected.split(/[:(]/)[0]!.trim();
  // A bound reached, or a request that failed (no answer within --request-timeout, a reset): the rest of the cases
  // are not sent, and the error goes to ctx.check, which reports it. fc.check returns a thrown error as a result,
  // and would shrink on it, each shrink waiting again.
  let stopped: unknown;
  await fc.check(
    fc.asyncProperty(arb, async (value) => {
      if (stopped !== undefined) return true;
      try {
        const f = await property(value);
        if (f && last && kindOf(f) !== kindOf(last)) return true;
        if (f) last = f;
        return f === undefined;
      } catch (err) {
        stopped = err;
        return true;
      }
    }),
    { seed: ctx.seed, numRuns: runs, endOnFailure: false, maxSkipsPerRun: 10, ...(examples.length > 0 ? { examples: examples.map((e) => [e] as [T]) } : {}) },
  );
  if (last) scope.fail(last);
  if (stopped !== undefined && !(last && stopped instanceof BoundReached)) throw stopped;
}

export async function checkEndpoints(ctx: TestContext, runs: number): Promise<void> {
  for (const route of ctx.routes) {
    const o = route.operation;
    if (o.action === 'transition') {
      // The states part walks transitions; here only identifiers that name nothing or are malformed.
      await checkInputs(ctx, route);
      continue;
    }
    await ctx.check('endpoints', 'endpoints.valid-requests', o.id, async (scope) => {
      const headers = await ctx.authFor(o.auth);
      if (!headers)
        return scope.skip(
          `no credential for scheme ${o.auth?.kind === 'required' ? o.auth.schemes.join(' or ') : ''} (give one with --header, --bearer, --basic or --client-id/--client-secret)`,
        );
      const view = VIEW[o.action];
      if (o.action === 'create' || o.action === 'update' || o.action === 'replace') {
        const resource = route.resource!;
        // A create under a parent the run has none of (Discord's channels under a guild, whose create is not served) is
        // answered missing_resource, as a list there is: not run, saying so.
        const unmade = o.action === 'create' ? ctx.unmadeParent(route, true) : undefined;
        if (unmade !== undefined) return scope.skip(unmade, 'not-run');
        // A change starts from an object holding every optional field (made for it, where a create can): what the
        // change leaves out is then there to be kept, or cleared.
        const target = o.action === 'create' ? undefined : ((await freshComplete(ctx, resource)) ?? (await ctx.ensureObject(resource)));
        if (o.action !== 'create' && !target) return scope.skip(`no ${resource.name} to ${o.action}: its create operation did not succeed`);
        // The fields its request takes (request_fields), as the model's request schema says.
        // A resource of several shapes: a change is of the target's variant.
        const arb = objectArbitrary(ctx.model, ctx.requestFields(route), resource, view!, false, target && ctx.variantTagOf(resource, undefined, target));
        // A JSON merge patch (request_media_type) holds what it sends merged into the object: objects member by member.
        const held = isMergePatch(o) ? heldAsPatched : heldAsSent;
        let failed = false;
        const watched: CheckScope = { fail: (f) => ((failed = true), scope.fail(f)), skip: (reason, kind) => scope.skip(reason, kind) };
        // Sent first on every seed, as drawn bodies may always carry them: a create or a replace with its required
        // fields only (what it leaves out is given its default, or cleared), an update with one field (the rest is kept).
        const drawn = fc.sample(arb, { seed: ctx.seed, numRuns: 1 })[0] as Record<string, unknown> | undefined;
        const leftOut = drawn && leaveOut(resource, o.action, drawn);
        const examples = namedExamples(ctx, route);
        const exampleTexts = new Set(examples.map((e) => JSON.stringify(e)));
        let listedOnce = false;
        // Creates read back: each case's, but under a tight rate budget (isThrifty) the first's only.
        let createsRead = 0;
        await runProperty(
          ctx,
          watched,
          arb,
          runs,
          async (value) => {
            // The object as a read shows it before this change (each case, shrunk ones too, reads it afresh): what the
            // change does not send is held to it.
            const was = target ? await readCurrent(ctx, route, target) : undefined;
            const drawnValue = (await ctx.resolveRefs(value)) as Record<string, unknown>;
            // A change sends each field another value than the object holds, where it has one (unlike): a service
            // ignoring it would otherwise pass.
            const resolved = target ? ctx.unlike(route, drawnValue, was ?? target) : drawnValue;
            // A merge patch says a union field whole (the other variants' members null): padUnionsForMergePatch.
            const patch = (b: Record<string, unknown>) => (isMergePatch(o) ? padUnionsForMergePatch(resource, b) : b);
            let body = patch(ctx.bindBody(route, ctx.makeUnique(resource, resolved), target));
            let req: TestRequest = { method: route.method, path: ctx.pathOf(route, target && objectKey(resource, target)), headers, body };
            let res = await ctx.send(route, req);
            // A value the service held before (a unique one, a client-given identifier, one it keeps unique without the
            // spec saying so): draw fresh ones and send again.
            for (let i = 0; i < 10 && ctx.isConflict(route, res); i++) {
              body = patch(ctx.bindBody(route, ctx.makeUnique(resource, ctx.freshen(resource, resolved)), target));
              req = { ...req, body };
              res = await ctx.send(route, req);
            }
            // Another declared client error (a 422 for a rule of the service's own: a title it keeps unique without the
            // spec saying so): sent once more with its text drawn afresh, judged by that answer.
            if (ctx.isDeclaredRefusal(route, res)) {
              const refused = { req, res };
              body = patch(ctx.bindBody(route, ctx.makeUnique(resource, ctx.freshen(resource, resolved)), target));
              req = { ...req, body };
              res = await ctx.send(route, req);
              // The spec's own example refused, its text drawn afresh taken: a refusal of the example's content, unless
              // an object the list shows already holds one of its texts (an earlier run's, a value the service keeps
              // unique without the spec saying so).
              if (exampleTexts.has(JSON.stringify(value)) && isSuccessAnswer(route, res.status) && !(await holdsTextOf(ctx, resource, value)))
                return ctx.failure(o.id, `status ${route.successStatus} for the spec's own named example`, o.pointer, refused.req, refused.res);
            }
            // Still the declared conflict with fresh values, after the service made objects of this kind in the run: a
            // rule of its state the spec does not state (at most three holds per patron), not a refusal of the body.
            if (o.action === 'create' && ctx.isConflict(route, res) && (ctx.pool.get(resource.name)?.length ?? 0) > 0) return undefined;
            // The service says it does not implement the operation (serve, where the spec leaves a required value
            // unstated): nothing of it can be judged, and the check is not run (below).
            if (res.status === 501) return undefined;
            // A change of an object that exists: an upsert answering 201 there says it made a new one.
            if (!(target ? isChangeAnswer(route, res.status) : isSuccessAnswer(route, res.status)))
              return ctx.failure(o.id, `status ${route.successStatus} for a valid request`, o.pointer, req, res);
            const m = responseMismatch(ctx, route, req, res);
            if (m !== undefined) return ctx.failure(o.id, `a body in the declared response shape`, route.resource?.pointer, req, `${m}; ${describe(res)}`);
            // A 204 answer holds no object (an imported create answering `204` with no body, etsi's notification
            // endpoint): nothing of it to compare; a change is still read back below.
            const answered = res.status !== 204;
            for (const [k, v] of answered ? Object.entries(body) : []) {
              // A write-only field is sent, never answered: nothing to compare. Nor is a field the client does not write
              // (read-only): only a named example sends one (PagerDuty's createAddon example holds the read-only
              // `type`), and the service sets it, not the client.
              const written = resource.fields.find((f) => f.name === k);
              if (o.action === 'create' && written !== undefined && !isWritable(resource, written, 'create')) continue;
              if (isAnswered(resource, k) && !held(resource, k, res.body?.[k], v))
                return ctx.failure(
                  o.id,
                  `field ${k} kept as sent (${JSON.stringify(v)})`,
                  route.resource?.pointer,
                  req,
                  `${k} is ${JSON.stringify(res.body?.[k])}`,
                );
            }
            // A create holds it against nothing made before: each field it leaves out with a default holds it.
            const untouched = answered ? untouchedMismatch(route, was ?? {}, body, res.body) : undefined;
            if (untouched) return ctx.failure(o.id, untouched.expected, route.resource?.pointer, req, untouched.actual);
            if (o.action === 'create' && answered) ctx.remember(resource, res.body as Record<string, unknown>);
            // A change the answer shows must be the one kept: a read afterwards shows every field as sent. So must a
            // create's: an answer may echo the body while the service stores less (a value answered but never
            // written), which only a read shows.
            // (Not a 202: an object accepted for later may not be there yet.)
            const made =
              o.action === 'create' &&
              answered &&
              res.status !== 202 &&
              isPlainObject(res.body) &&
              // By its identifier only: a resource without one is read by its bound fields, which an answer may not hold.
              resource.identifier !== undefined &&
              res.body[resource.identifier] !== undefined &&
              (createsRead++ === 0 || !isThrifty(ctx.model))
                ? res.body
                : undefined;
            const read = o.action === 'create' && !made ? undefined : ctx.readAfter(resource, route);
            const readHeaders = read ? await ctx.authFor(read.operation.auth) : undefined;
            const readKey = read ? objectKey(resource, made ?? target!) : undefined;
            if (read && readHeaders && readKey !== undefined) {
              // Addressed as the change was (its identifier, or the bound fields of a resource without one).
              const again: TestRequest = { method: 'GET', path: ctx.pathOf(read, readKey), headers: readHeaders };
              const after = await ctx.send(read, again);
              const written = (k: string) => {
                const f = resource.fields.find((x) => x.name === k);
                return o.action !== 'create' || f === undefined || isWritable(resource, f, 'create');
              };
              const lost = Object.entries(body).find(([k, v]) => written(k) && isAnswered(resource, k) && !held(resource, k, after.body?.[k], v));
              const untouchedAfter = was && after.status === read.successStatus ? untouchedMismatch(route, was, body, after.body) : undefined;
              if (untouchedAfter)
                return {
                  ...ctx.failure(o.id, `${untouchedAfter.expected} in a read after the ${o.action}`, route.resource?.pointer, again, untouchedAfter.actual),
                  curl: ctx.client.curlSequence([{ req }, { note: `then (${read.operation.id})`, req: again }]),
                };
              if (after.status !== read.successStatus || lost)
                return {
                  ...ctx.failure(
                    o.id,
                    lost
                      ? `field ${lost[0]} kept as sent (${JSON.stringify(lost[1])}) in a read after the ${o.action}`
                      : `status ${read.successStatus} for a read after the ${o.action}`,
                    route.resource?.pointer,
                    again,
                    lost ? `${lost[0]} is ${JSON.stringify(after.body?.[lost[0]])}` : describe(after),
                  ),
                  curl: ctx.client.curlSequence([{ req }, { note: `then (${read.operation.id})`, req: again }]),
                };
              // Once a check (a list walked per case would cost pages each): the list shows the change the read does.
              if (!listedOnce && isPlainObject(after.body)) {
                listedOnce = true;
                const stale = await listedCopyMismatch(ctx, resource, after.body);
                if (stale)
                  return {
                    ...ctx.failure(o.id, `${stale.expected} after the ${o.action}`, route.resource?.pointer, stale.req, stale.actual),
                    curl: ctx.client.curlSequence([{ req }, { note: `then (${read.operation.id})`, req: again }, { note: 'then (the list)', req: stale.req }]),
                  };
              }
            }
            return undefined;
          },
          [...(leftOut ? [leftOut as never] : []), ...(examples as never[])],
        );
        if (ctx.notImplemented.has(o.id) && !failed) return scope.skip(notImplemented(o.id), 'not-run');
        if (isMergePatch(o) && target && !failed) await checkPatchNulls(ctx, scope, route, target, headers);
      } else if (o.action === 'read' || o.action === 'delete') {
        const resource = route.resource!;
        const made = o.action === 'delete' ? await ctx.createObject(resource, await ctx.addressableBody(resource)) : undefined;
        let target = o.action === 'delete' ? (made?.res.body as Record<string, unknown> | undefined) : await ctx.ensureObject(resource);
        // Changed once before it is deleted, where an update or replace can: a delete answering the object as it was
        // made, not as it is, is caught.
        if (o.action === 'delete' && o.response !== undefined && target && made && made.res.status < 300)
          target = (await changeOnce(ctx, resource, target)) ?? target;
        if (!target || (made && made.res.status >= 300)) {
          // Not run, whichever: an object the tester cannot make (an imported read beside a custom create) is not a check that passed.
          if (!ctx.createRoute(resource.name))
            return scope.skip(
              `no ${resource.name} to ${o.action}: the spec has no create operation for ${resource.name}, and the tester makes objects only through one`,
              'not-run',
            );
          return scope.skip(`no ${resource.name} to ${o.action}: its create operation did not succeed`);
        }
        const id = objectKey(resource, target);
        const req: TestRequest = { method: route.method, path: ctx.pathOf(route, id), headers };
        const res = await ctx.send(route, req);
        if (!isSuccessAnswer(route, res.status)) return scope.fail(ctx.failure(o.id, `status ${route.successStatus}`, o.pointer, req, res));
        const m = responseMismatch(ctx, route, req, res);
        if (m !== undefined) return scope.fail(ctx.failure(o.id, 'a body in the declared response shape', resource.pointer, req, `${m}; ${describe(res)}`));
        if (o.action === 'delete' && o.response !== undefined) {
          // The object it deleted, as it was: the one made, with the values it was made with.
          const answered = res.body as Record<string, unknown>;
          const changed = Object.keys(answered).find((k) => Object.hasOwn(target, k) && sortedJson(answered[k]) !== sortedJson(target[k]));
          if (changed !== undefined)
            return scope.fail(
              ctx.failure(
                o.id,
                `the deleted ${resource.name} as it was`,
                `${o.pointer}/response`,
                req,
                `${changed} is ${JSON.stringify(answered[changed])}, was ${JSON.stringify(target[changed])}`,
              ),
            );
        }
        if (o.action === 'delete') {
          const read = ctx.routes.find((r) => r.operation.action === 'read' && r.resource?.name === resource.name);
          // A read the run holds no credential for (bearer-only where the delete took an API key) cannot say it.
          const h = read ? await ctx.authFor(read.operation.auth) : undefined;
          if (read && h) {
            const again: TestRequest = { method: 'GET', path: ctx.pathOf(read, id), headers: h };
            const after = await ctx.send(read, again);
            // Where no code declares a missing object, the read's own 404 (RFC 9110); with none, at least no success.
            const refusal = ctx.refusal(read, 'missing_resource');
            const why = refusal
              ? ctx.expectRefusal(after, read, 'missing_resource')
              : isSuccessAnswer(read, after.status)
                ? `status ${after.status}`
                : undefined;
            if (why !== undefined)
              return scope.fail(ctx.failure(read.operation.id, 'a deleted object is not found', refusal?.pointer, again, `${why}; ${describe(after)}`));
          }
          const orphan = await listedUnderDeleted(ctx, resource, id);
          if (orphan)
            return scope.fail({ ...orphan.failure, curl: ctx.client.curlSequence([{ req }, { note: `then (${orphan.failure.operation})`, req: orphan.req }]) });
          const listed = await findListed(ctx, resource, id);
          if (listed)
            return scope.fail({
              ...ctx.failure(
                listed.route.operation.id,
                'a deleted object is not listed',
                o.pointer,
                listed.req,
                `${resource.identifier} ${JSON.stringify(id)} is on the page`,
              ),
              curl: ctx.client.curlSequence([{ req }, { note: `then (${listed.route.operation.id})`, req: listed.req }]),
            });
          // The list's declared total (paging.total, total_header) counts the objects it lists, the deleted one gone:
          // a total still counting it (a soft delete the count query does not filter) is not the number of objects.
          const miscount = await totalMiscount(ctx, resource);
          if (miscount)
            return scope.fail({
              ...ctx.failure(
                miscount.route.operation.id,
                `${miscount.expected} after a delete`,
                miscount.route.operation.pointer,
                miscount.req,
                miscount.actual,
              ),
              curl: ctx.client.curlSequence([{ req }, { note: `then (${miscount.route.operation.id})`, req: miscount.req }]),
            });
          // The same delete again: the object is missing now, and says so as `serve` does (missing_resource), not a
          // second success as though there were still something to delete. Where nothing declares the refusal
          // (no code, no 404 of the operation's own), RFC 9110 leaves the answer to the service: not judged.
          const missing = ctx.refusal(route, 'missing_resource');
          if (missing) {
            const second: TestRequest = { ...req };
            const twice = await ctx.send(route, second);
            const why = ctx.expectRefusal(twice, route, 'missing_resource');
            if (why !== undefined)
              return scope.fail({
                ...ctx.failure(
                  o.id,
                  `the declared ${missing.label} answer for a second delete of the deleted object`,
                  missing.pointer,
                  second,
                  `${why}; ${describe(twice)}`,
                ),
                curl: ctx.client.curlSequence([{ req }, { note: 'then the same delete again', req: second }]),
              });
          }
          const list = ctx.pool.get(resource.name);
          if (list)
            ctx.pool.set(
              resource.name,
              list.filter((x) => x !== target),
            );
        }
      } else if (o.action === 'list') {
        const unmade = ctx.unmadeParent(route);
        if (unmade !== undefined) return scope.skip(unmade, 'not-run');
        const max = getLargestPageSize(ctx, o);
        await runProperty(ctx, scope, fc.option(fc.integer({ min: 1, max }), { nil: undefined }), Math.min(runs, 5), async (limit) => {
          const size = getPageSizeParam(route);
          const req: TestRequest = {
            method: 'GET',
            path: ctx.pathOf(route, undefined, limit !== undefined && size !== undefined ? { [size]: String(limit) } : {}),
            headers,
          };
          const res = await ctx.send(route, req);
          if (!isSuccessAnswer(route, res.status)) return ctx.failure(o.id, `status ${route.successStatus}`, o.pointer, req, res);
          const m = responseMismatch(ctx, route, req, res);
          if (m !== undefined) return ctx.failure(o.id, 'a page in the declared shape', route.resource?.pointer, req, `${m}; ${describe(res)}`);
          const other = outsidePath(route, req.path, getPageItems(route, res.body)!);
          if (other !== undefined) return ctx.failure(o.id, other.expected, o.pointer, req, other.actual);
          const n = getPageItems(route, res.body)!.length;
          if (limit !== undefined && size !== undefined && n > limit) return ctx.failure(o.id, `at most ${limit} items`, o.pointer, req, `${n} items`);
          return undefined;
        });
      } else if (o.action === 'custom') {
        const target = await getCustomTarget(ctx, route);
        if ('skip' in target) return scope.skip(target.skip);
        const { id, named } = target;
        // Declared query parameters are generated within their types and constraints (headers are not, yet).
        const required = ctx.missingHeaders(route);
        if (required.length > 0) return scope.skip(`the tester does not generate request headers; ${o.id} requires ${required.join(', ')}`);
        const params = route.query.flatMap((q) => (q.parameter ? [q.parameter] : []));
        const query = params.length > 0 ? parametersArbitrary(ctx.model, params) : fc.constant({});
        // Refusals with a declared code pass, but a check whose every request was refused saw no answer to judge.
        const refused = new Set<number>();
        let answered = 0;
        const isDeclaredRefusal = (res: TestResponse) => {
          const status = res.status;
          // serve's answer to a condition no code declares (marked UNDECLARED_CONDITION_HEADER: a handler's
          // ctx.fail('missing_resource') for a drawn path value, where the document lists no 404, as Twilio's FetchDay)
          // is a refusal all the same, as expectRefusal reads it: a gap's answer, not judged.
          const declared =
            status >= 400 &&
            status < 500 &&
            (o.errors.some((e) => ctx.model.errors?.codes.find((c) => c.name === e)?.status === status) || ctx.isGapAnswer(res));
          if (declared) refused.add(status);
          else if (status !== 501) answered++;
          return declared;
        };
        const noneAnswered = () => {
          if (answered === 0 && refused.size > 0 && !ctx.notImplemented.has(o.id))
            scope.skip(
              `every valid request sent to ${o.id} was refused with a declared code (${[...refused].join(', ')}): no success answer to check (an object in the state it needs, a value it takes, is not something the spec says)`,
              'not-run',
            );
        };
        if (!o.request) {
          await runProperty(ctx, scope, query, params.length > 0 ? Math.min(runs, 5) : 1, async (values) => {
            const req: TestRequest = { method: route.method, path: withQuery(ctx.pathOf(route, id, {}, named), values), headers };
            const res = await ctx.send(route, req);
            if (res.status === 501) return undefined;
            // A handler may refuse for its own reasons (a path naming no data set), with one of its declared codes.
            if (isDeclaredRefusal(res)) return undefined;
            if (!isSuccessAnswer(route, res.status)) return ctx.failure(o.id, `status ${route.successStatus} (or a declared refusal)`, o.pointer, req, res);
            const m = responseMismatch(ctx, route, req, res);
            if (m !== undefined) return ctx.failure(o.id, 'a body in the declared response shape', o.pointer, req, `${m}; ${describe(res)}`);
            return readBack(ctx, route, named, req, res);
          });
          if (ctx.notImplemented.has(o.id)) scope.skip(notImplemented(o.id), 'not-run');
          noneAnswered();
          return;
        }
        // A body naming a resource (`request: {resource: Pet}`) is that resource's create shape.
        const { arbitrary, resource: bodyResource } = getCustomBodyArbitrary(ctx.model, o.request);
        const arb = fc.tuple(arbitrary, query);
        // An untagged union body no draw could tell apart (two variants take it: the oneOf refuses it) is not sent.
        const union = o.request.union?.discriminator === undefined ? o.request.union : undefined;
        let untold = 0;
        let cases = 0;
        await runProperty(ctx, scope, arb, runs, async ([value, values]) => {
          cases++;
          if (union && (Array.isArray(value) ? value : [value]).some((v) => getUnionVariantMatches(ctx.model, union, v).length > 1)) {
            untold++;
            return undefined;
          }
          const resolved = await ctx.resolveRefs(value);
          const body = Array.isArray(resolved)
            ? resolved.map((v) => ctx.makeUnique(bodyResource, v as Record<string, unknown>))
            : ctx.makeUnique(bodyResource, resolved as Record<string, unknown>);
          const req: TestRequest = { method: route.method, path: withQuery(ctx.pathOf(route, id, {}, named), values), headers, body };
          const res = await ctx.send(route, req);
          if (res.status === 501) return undefined;
          // A handler may refuse a valid request for its own reasons, with one of the operation's declared codes.
          if (isDeclaredRefusal(res)) return undefined;
          if (!isSuccessAnswer(route, res.status)) return ctx.failure(o.id, `status ${route.successStatus} (or a declared refusal)`, o.pointer, req, res);
          const m = responseMismatch(ctx, route, req, res);
          if (m !== undefined) return ctx.failure(o.id, 'a body in the declared response shape', o.pointer, req, `${m}; ${describe(res)}`);
          return readBack(ctx, route, named, req, res);
        });
        if (untold > 0 && untold === cases)
          return scope.skip(
            `no body drawn is one variant alone of the untagged union (union-indistinguishable: the oneOf refuses it); none was sent`,
            'not-run',
          );
        if (ctx.notImplemented.has(o.id)) scope.skip(notImplemented(o.id), 'not-run');
        noneAnswered();
      }
    });
    // An upsert answers a new identifier by creating the object (checkUpsert), not as missing.
    if (o.upsert && ctx.upsertRoute(route.resource?.name) === route) await checkUpsert(ctx, route);
    else if (ctx.idParams(route).length > 0 && route.resource) {
      await ctx.check('errors', 'errors.missing-object', o.id, async (scope) => {
        const headers = await ctx.authFor(o.auth);
        if (!headers) return scope.skip('no credential for this operation');
        const d = ctx.refusal(route, 'missing_resource');
        if (!d) return scope.skip('the spec declares no error code for a missing object (not shown)');
        const idField = route.resource!.fields.find((f) => f.name === route.resource!.identifier);
        // In the identifier's own form (its pattern, its length): a malformed one is a validation refusal, not this.
        const id = idField ? missingIdentifier(idField) : '00000000-0000-4000-8000-00000000dead';
        // A valid body for that path (bound fields agreeing with it), so that only the missing object can be refused.
        const body = route.hasBody ? (o.action === 'replace' || o.action === 'update' ? await ctx.validBody(route, id) : {}) : undefined;
        const req: TestRequest = { method: route.method, path: ctx.pathOf(route, id), headers, ...(body !== undefined ? { body } : {}) };
        const res = await ctx.send(route, req);
        const why = ctx.expectRefusal(res, route, 'missing_resource');
        if (why !== undefined)
          scope.fail(ctx.failure(o.id, `the declared ${d.label} answer for an object that does not exist`, d.pointer, req, `${why}; ${describe(res)}`));
      });
    }
    if (route.hasBody) await checkInvalid(ctx, route);
    await checkInputs(ctx, route);
  }
}

/**
 * Whether an object a list of the resource shows (its first pages, the run's scope) holds one of the text values of
 * `body` in the same field: where one does, a refusal of `body` may be a value the service keeps unique.
 */
async function holdsTextOf(ctx: TestContext, resource: ResourceModel, body: Record<string, unknown>): Promise<boolean> {
  const list = ctx.routes.find((r) => r.operation.action === 'list' && r.resource?.name === resource.name && !r.operation.requiredFilters);
  const headers = list ? await ctx.authFor(list.operation.auth).catch(() => undefined) : undefined;
  // No list to look in: the refusal cannot be told from a value taken, and is not held against the service.
  if (!list || !headers) return true;
  const texts = Object.entries(body).filter(([, v]) => typeof v === 'string');
  const found = await pageThrough(ctx, list, headers, (items) => items.some((x) => texts.some(([k, v]) => isPlainObject(x) && x[k] === v)));
  return found !== undefined;
}

/**
 * The list page holding the object `id` names, where a list of its resource the run has a credential for shows it
 * (its first pages, the run's scope): the request that found it; undefined when no page does.
 */
async function findListed(ctx: TestContext, resource: ResourceModel, id: unknown): Promise<{ route: OperationRoute; req: TestRequest } | undefined> {
  const list = ctx.routes.find((r) => r.operation.action === 'list' && r.resource?.name === resource.name && !r.operation.requiredFilters);
  const key = resource.identifier;
  const headers = list && key !== undefined ? await ctx.authFor(list.operation.auth).catch(() => undefined) : undefined;
  if (!list || !headers || key === undefined) return undefined;
  const req = await pageThrough(ctx, list, headers, (items) => items.some((x) => isPlainObject(x) && String(x[key]) === String(id)));
  return req ? { route: list, req } : undefined;
}

/**
 * A create's named request examples (`examples.request`) that its request schema takes and that name no other object
 * (a `ref` the run did not make): valid requests the spec shows, sent first as drawn bodies are, so a service
 * refusing its own documented example fails. An example the schema refuses is the spec's slip, not sent. An example
 * is the body on the wire (check-examples.ts reads it so): with a `request_envelope`, the object inside its member,
 * which the run wraps again as it sends it (before, PagerDuty's `{ "addon": { … } }` went as `{ "addon": { "addon":
 * … } }`); one without that member shows no body the operation takes, and is not sent.
 */
function namedExamples(ctx: TestContext, route: OperationRoute): Record<string, unknown>[] {
  const o = route.operation;
  const resource = route.resource;
  if (o.action !== 'create' || !resource || !o.examples) return [];
  const schema = getRequestSchema(ctx.model, resource, o, 'create');
  const refs = new Set(resource.fields.filter((f) => f.type === 'ref').map((f) => f.name));
  const wrap = o.requestEnvelope !== undefined && REQUEST_ENVELOPED_ACTIONS.has(o.action) ? o.requestEnvelope.data : undefined;
  return o.examples.request
    .map((e) => (wrap === undefined ? e.value : isPlainObject(e.value) ? e.value[wrap] : undefined))
    .filter((v): v is Record<string, unknown> => isPlainObject(v) && !Object.keys(v).some((k) => refs.has(k)) && ctx.mismatch(schema, v) === undefined)
    .map((v) => structuredClone(v));
}

/**
 * Where a list of the resource declares a total (a page's `paging.total`, or `paging.total_header`) and its pages in
 * the run's scope end within the pages walked (a short page last): the total its first page answers must be the
 * number of objects the pages listed. Undefined when it is, or cannot be told.
 */
async function totalMiscount(
  ctx: TestContext,
  resource: ResourceModel,
): Promise<{ route: OperationRoute; req: TestRequest; expected: string; actual: string } | undefined> {
  const list = ctx.routes.find((r) => r.operation.action === 'list' && r.resource?.name === resource.name && !r.operation.requiredFilters);
  const p = list?.operation.paging;
  if (!list || !p || (p.total === undefined && p.totalHeader === undefined)) return undefined;
  const headers = await ctx.authFor(list.operation.auth).catch(() => undefined);
  if (!headers) return undefined;
  const size = getLargestPageSize(ctx, list.operation);
  let counted = 0;
  let ended = false;
  let first: TestRequest | undefined;
  await pageThrough(ctx, list, headers, (items, req) => {
    first ??= req;
    counted += items.length;
    ended = items.length < size;
  });
  if (!first || !ended) return undefined;
  const res = await ctx.send(list, first);
  if (!isSuccessAnswer(list, res.status)) return undefined;
  const said = p.totalHeader !== undefined ? totalHeaderProblem(res, p.totalHeader) : getListTotal(list, res)?.value;
  if (typeof said !== 'number' || said === counted) return undefined;
  const where = p.totalHeader !== undefined ? `the \`${p.totalHeader}\` header` : `the total (${p.total})`;
  return { route: list, req: first, expected: `${where} equal to the ${counted} objects its pages list`, actual: `${where} is ${said}` };
}

/**
 * `upsert: true`: a PUT to an identifier no object has creates the object (201) with that identifier, a read then
 * shows it, and a second PUT to it replaces it (200).
 */
async function checkUpsert(ctx: TestContext, route: OperationRoute): Promise<void> {
  const o = route.operation;
  const resource = route.resource!;
  const id = resource.identifier!;
  await ctx.check('endpoints', 'endpoints.valid-requests', `${o.id}: a PUT to a new identifier creates it (upsert)`, async (scope) => {
    const headers = await ctx.authFor(o.auth);
    if (!headers) return scope.skip('no credential for this operation');
    const drawn = await ctx.sampleCreateBody(resource);
    const { path, body } = ctx.upsertRequest(route, drawn);
    const req: TestRequest = { method: route.method, path, headers, body };
    const res = await ctx.send(route, req);
    if (res.status !== 201) return scope.fail(ctx.failure(o.id, `status 201 for an identifier no ${resource.name} has (upsert: true)`, o.pointer, req, res));
    if (typeof res.body === 'object' && res.body !== null) ctx.remember(resource, res.body as Record<string, unknown>);
    const read = ctx.routes.find((r) => r.operation.action === 'read' && r.resource?.name === resource.name && !r.operation.bindings);
    const readHeaders = read ? await ctx.authFor(read.operation.auth) : undefined;
    if (read && readHeaders) {
      const get: TestRequest = { method: 'GET', path: ctx.pathOf(read, drawn[id]), headers: readHeaders };
      const got = await ctx.send(read, get);
      if (!isSuccessAnswer(read, got.status) || (got.body as Record<string, unknown> | undefined)?.[id] !== drawn[id])
        return scope.fail({
          ...ctx.failure(o.id, `the ${resource.name} the upsert made, read back by ${read.operation.id}`, o.pointer, get, got),
          curl: ctx.client.curlSequence([{ req }, { note: `then (${read.operation.id})`, req: get }]),
        });
    }
    const again: TestRequest = { method: route.method, path, headers, body };
    const second = await ctx.send(route, again);
    if (!isChangeAnswer(route, second.status))
      return scope.fail(ctx.failure(o.id, `status ${route.successStatus} for a second PUT to the identifier (a replace)`, o.pointer, again, second));
  });
}

/**
 * A custom action on one object that answers that object (`POST /bookings/{id}/cancel` answering the Booking): the
 * answer is the object as the action left it, so a read right after shows the same values. Undefined when it
 * does, or when the answer is another object (a copy the action made), else the failure.
 */
async function readBack(
  ctx: TestContext,
  route: OperationRoute,
  named: Record<string, string>,
  req: TestRequest,
  res: { body: unknown },
): Promise<Failure | undefined> {
  const action = ctx.objectActionOf(route);
  const answer = res.body;
  if (!action || route.operation.response?.resource !== action.resource.name || route.operation.response.list || !isPlainObject(answer)) return undefined;
  const r = action.resource;
  const id = named[action.param];
  if (id === undefined || String(answer[r.identifier!]) !== id) return undefined;
  const headers = await ctx.authFor(action.read.operation.auth);
  if (!headers) return undefined;
  const readReq: TestRequest = { method: 'GET', path: ctx.pathOf(action.read, undefined, {}, named), headers };
  const read = await ctx.send(action.read, readReq);
  if (!isSuccessAnswer(action.read, read.status) || !isPlainObject(read.body)) return undefined;
  const stored = read.body;
  const differs = r.fields.find(
    (f) => isAnswered(r, f.name) && Object.hasOwn(answer, f.name) && Object.hasOwn(stored, f.name) && sortedJson(answer[f.name]) !== sortedJson(stored[f.name]),
  );
  if (!differs) return undefined;
  return {
    ...ctx.failure(
      route.operation.id,
      `a read right after shows the ${r.name} as the action answered it (${differs.name}: ${JSON.stringify(answer[differs.name])?.slice(0, 120)})`,
      route.operation.pointer,
      req,
      `${action.read.operation.id} shows ${differs.name}: ${JSON.stringify(stored[differs.name])?.slice(0, 120)}`,
    ),
    curl: ctx.client.curlSequence([{ req }, { note: `then (${action.read.operation.id})`, req: readReq }]),
  };
}

/** For each writable field of the resource the route's request does not take (\`request_fields\`): it sent, valid. */
function outsideRequestFields(ctx: TestContext, route: OperationRoute, view: SchemaView): Mutation[] {
  const r = route.resource!;
  const taken = new Set(ctx.requestFields(route).map((f) => f.name));
  return r.fields
    .filter((f) => !taken.has(f.name) && isWritable(r, f, view))
    .map((f) => {
      const value = fc.sample(fieldArbitrary(ctx.model, { ...f, nullable: false }, r), { seed: ctx.seed, numRuns: 1 })[0];
      return {
        label: `${f.name} (not in request_fields) sent`,
        condition: 'validation' as const,
        apply: (b: Record<string, unknown>) => ({ ...b, [f.name]: value }),
      };
    });
}

/** A mutation breaking a rule of the format's rather than a declared schema: an unknown, read-only, write-once field, or one outside `request_fields`. */
const FORMAT_RULE = /unknown field$|\(read-only\) sent$|\(write-once\) sent in an update$|\(not in request_fields\) sent$/;

/** A mutation adding an unknown member inside an object field (or an array's object items), not at the top. */
const NESTED_UNKNOWN = /^[^\s(]+ with an unknown field$/;

/** A mutation sending a field the request names but does not take: the field, and why it does not. */
const DROPPED_FIELD = /^(\S+) \((read-only|write-once|not in request_fields)\) sent/;

/**
 * A list under a deleted object (a recipe's reviews, `/recipes/{recipe_id}/reviews`, its path binding a reference to
 * the deleted one's resource): answered as a list under a parent that does not exist is (errors.missing-parent), not
 * with a page of what the object left behind (a soft delete the nested list does not filter). Undefined when it is,
 * or where nothing declares the refusal.
 */
async function listedUnderDeleted(ctx: TestContext, resource: ResourceModel, id: unknown): Promise<{ failure: Failure; req: TestRequest } | undefined> {
  for (const child of ctx.routes) {
    if (child.operation.action !== 'list' || !child.resource) continue;
    const parents = getParentRefBindings(child.resource, child.operation);
    if (parents.length !== 1 || parents[0]!.field.to !== resource.name) continue;
    const d = ctx.refusal(child, 'missing_resource');
    const headers = d ? await ctx.authFor(child.operation.auth) : undefined;
    if (!d || !headers) continue;
    const req: TestRequest = { method: 'GET', path: ctx.pathOf(child, undefined, {}, { [parents[0]!.param]: String(id) }), headers };
    const res = await ctx.send(child, req);
    const why = ctx.expectRefusal(res, child, 'missing_resource');
    if (why !== undefined)
      return {
        failure: ctx.failure(
          child.operation.id,
          `the declared ${d.label} answer for a list under a deleted ${resource.name}`,
          d.pointer,
          req,
          `${why}; ${describe(res)}`,
        ),
        req,
      };
  }
  return undefined;
}

/** The member the tester adds to a body that its request does not name. */
const UNKNOWN_MEMBER = '__unknown_field__';

/**
 * `unknown_fields: ignore`: a valid body with a member its request does not name is accepted (the success status),
 * and the member dropped: not in the answer, not in a read afterwards (never stored).
 */
async function checkUnknownIgnored(
  ctx: TestContext,
  route: OperationRoute,
  path: string,
  headers: Record<string, string>,
  base: Record<string, unknown>,
  target: Record<string, unknown> | undefined,
  bound: (name: string) => boolean,
): Promise<void> {
  const o = route.operation;
  const resource = route.resource!;
  await ctx.check('endpoints', 'endpoints.valid-requests', `${o.id}: a member its request does not name (unknown_fields: ignore)`, async (scope) => {
    // A create's text drawn afresh, as each broken body's is: \`base\` was sent before, and a service keeping a value
    // unique that its spec cannot state (FastAPI's slug, a 409 the document lists) refuses it again as a conflict.
    const draw = (): TestRequest => ({
      method: route.method,
      path,
      headers,
      body: { ...(o.action === 'create' ? ctx.makeUnique(resource, ctx.freshen(resource, base, bound)) : base), [UNKNOWN_MEMBER]: 'x' },
    });
    let req = draw();
    let res = await ctx.send(route, req);
    for (let i = 0; i < 3 && o.action === 'create' && ctx.isConflict(route, res); i++) {
      req = draw();
      res = await ctx.send(route, req);
    }
    const what = `a body with ${UNKNOWN_MEMBER}, which unknown_fields: ignore drops`;
    if (!isSuccessAnswer(route, res.status)) return scope.fail(ctx.failure(o.id, `status ${route.successStatus} for ${what}`, o.pointer, req, describe(res)));
    const answered = res.body as Record<string, unknown> | undefined;
    if (o.action === 'create' && answered) ctx.remember(resource, answered);
    if (answered && typeof answered === 'object' && Object.hasOwn(answered, UNKNOWN_MEMBER))
      return scope.fail(ctx.failure(o.id, `${UNKNOWN_MEMBER} left out of the answer to ${what}`, o.pointer, req, describe(res)));
    const read = ctx.routes.find((r) => r.operation.action === 'read' && r.resource?.name === resource.name);
    const readHeaders = read ? await ctx.authFor(read.operation.auth) : undefined;
    const of = o.action === 'create' ? answered : target;
    if (!read || !readHeaders || !of || typeof of !== 'object') return;
    const again: TestRequest = { method: 'GET', path: ctx.pathOf(read, objectKey(resource, of)), headers: readHeaders };
    const after = await ctx.send(read, again);
    const stored = after.body as Record<string, unknown> | undefined;
    if (stored && typeof stored === 'object' && Object.hasOwn(stored, UNKNOWN_MEMBER))
      scope.fail({
        ...ctx.failure(o.id, `${UNKNOWN_MEMBER} not stored by ${what} (a read afterwards)`, o.pointer, again, describe(after)),
        curl: ctx.client.curlSequence([{ req }, { note: `then (${read.operation.id})`, req: again }]),
      });
  });
}

async function checkInvalid(ctx: TestContext, route: OperationRoute): Promise<void> {
  const o = route.operation;
  const resource = route.resource;
  const view = VIEW[o.action] ?? 'create';
  // A custom operation whose request names a resource (`request: {resource: Label}`) takes that resource's create body.
  const named = !resource && o.request?.resource !== undefined && !o.request.list ? ctx.model.resources.find((r) => r.name === o.request!.resource) : undefined;
  const fields = resource ? ctx.requestFields(route) : named ? named.fields : (o.request?.fields ?? []);
  if (!ctx.selected('endpoints', 'endpoints.invalid-requests') || ctx.stopped) return;
  // A field the path binds (or an object holding one) keeps the path's value when the text is drawn afresh.
  const bound = (name: string) => o.bindings?.some((b) => b.field.split('.')[0] === name) === true;
  let headers: Record<string, string> | undefined;
  let target: Record<string, unknown> | undefined;
  let base: Record<string, unknown> = {};
  let path = '';
  let unjudged = false;
  const objectAction = ctx.objectActionOf(route) !== undefined;
  // The valid body every mutation starts from (and the object it is sent to) are made inside a check, so a
  // service that cannot be reached is reported, not thrown.
  let ready = false;
  await ctx.check(
    'endpoints',
    'endpoints.invalid-requests',
    `${o.id}: a valid body to break`,
    async (scope) => {
      headers = await ctx.authFor(o.auth);
      if (!headers) return scope.skip('no credential for this operation');
      target = resource && o.action !== 'create' && o.action !== 'custom' ? await ctx.ensureObject(resource) : undefined;
      if (resource && o.action !== 'create' && o.action !== 'custom' && !target) return scope.skip(`no ${resource.name} to send bodies to`);
      // Complete: every optional object present, so that each nested field's mutation breaks the body.
      const bodyArb =
        !resource && o.request?.union
          ? unionArbitrary(ctx.model, o.request.union, true)
          : objectArbitrary(ctx.model, !resource && !named && o.request ? sendableFields(o.request) : fields, undefined, 'create', true);
      base = resource
        ? await ctx.sampleCreateBody(resource, 0, true)
        : named
          ? await ctx.sampleCreateBody(named, 0, true)
          : ((await ctx.resolveRefs(fc.sample(bodyArb, { seed: ctx.seed, numRuns: 1 })[0])) as Record<string, unknown>);
      // Bound fields holding the path's values (\`bind\`): each mutation, not a disagreement with the path, is what is refused.
      if (resource && o.action !== 'create' && target) base = ctx.bindBody(route, base, target);
      base = ctx.onlyRequestFields(route, base);
      // Path parameters naming no resource (a custom operation's `{dataset}`) are drawn as valid-requests draws them.
      // An action on one object (`POST …/enrolments/{enrolmentId}/withdraw`) is sent to a new object: the pool's may
      // be in a state another check moved it to, where the action is refused whatever its body.
      const pathParams = async () =>
        !resource && o.action === 'custom' && ctx.idParams(route).length > 0
          ? { ...ctx.drawPathValues(ctx.idParams(route)), ...(await ctx.fieldPathValues(route)), ...(await ctx.itemPathValues(route, objectAction)) }
          : {};
      path = ctx.pathOf(route, target && objectKey(resource, target), {}, await pathParams());
      // What only a create writes (a write-once field, a client-given identifier: \`identifier_source: client\`) is no
      // part of a change's body.
      if (resource && view !== 'create') for (const f of resource.fields) if (f.writeOnce || !isWritable(resource, f, view)) delete base[f.name];
      // The body unbroken first: a refusal of a broken one shows the service judged what was broken only where the
      // unbroken one is taken. Refused too (an object the path names that the run could not make, a rule of the
      // service's the spec does not state: a customer that must exist), every refusal below would pass unjudged.
      // A create's with its text drawn afresh: the values the probes send stay unsent, so none of them meets a value
      // the service keeps unique without the spec saying so (a project key) and is refused for that instead.
      const fresh = o.action === 'create' && resource ? resource : named;
      const unbroken = fresh ? ctx.makeUnique(fresh, ctx.freshen(fresh, base, bound)) : base;
      const req: TestRequest = {
        method: route.method,
        path,
        headers,
        body: resource && isMergePatch(o) ? padUnionsForMergePatch(resource, unbroken) : unbroken,
      };
      const res = await ctx.send(route, req);
      if (res.status === 501) return scope.skip(notImplemented(o.id), 'not-run');
      ready = true;
      if (!isSuccessAnswer(route, res.status)) {
        unjudged = true;
        return scope.skip(`the valid body to break was refused (${describe(res)}): a refusal of a broken one would show nothing`);
      }
      // The action taken moved its object (a withdrawn enrolment is withdrawn no more): the broken bodies go to another
      // new one, where only the body can be refused.
      if (objectAction) path = ctx.pathOf(route, undefined, {}, await pathParams());
    },
    { quiet: true },
  );
  if (!ready || !headers) return;
  // Under a tight rate budget, one mutation per kind of constraint (the field rotated by seed), at most 10.
  // A union body: an unknown field (variants are closed), a tag no variant has, a variant without a required field.
  const all =
    !resource && o.request?.union && !o.request.list
      ? [...getMutations(ctx.model, [], undefined, view), ...unionMutations(ctx.model, o.request.union, [])]
      : named
        ? // What a resource's own rules refuse (a read-only or write-once member) a custom handler may take or drop.
          getMutations(ctx.model, fields, named, 'create').filter((m) => !/ \((read-only|write-once)\) sent$/.test(m.label))
        : // A resource of several shapes: the fields of the unbroken body's variant (its tag, or its target's).
          getMutations(
            ctx.model,
            resource ? getVariantFields(resource, fields, ctx.variantTagOf(resource, undefined, target ?? base)) : fields,
            resource,
            view,
          );
  // A field a create's or replace's path binds may be left out of its body (the path gives it, with the objects on
  // its way): leaving it, or an object holding it, out breaks nothing.
  if ((o.action === 'create' || o.action === 'replace') && o.bindings) {
    const given = new Set(o.bindings.flatMap((b) => b.field.split('.').map((_, i, parts) => `${parts.slice(0, i + 1).join('.')} missing (required)`)));
    for (let i = all.length - 1; i >= 0; i--) if (given.has(all[i]!.label)) all.splice(i, 1);
  }
  // An update or replace naming another value for a bound field than its path's would move the object: refused.
  if (target) all.push(...ctx.pathDisagreements(route, target));
  // A writable field outside the operation's request_fields, holding a value the field could take: refused as unknown.
  if (resource && o.requestFields !== undefined) all.push(...outsideRequestFields(ctx, route, view));
  // A JSON merge patch (request_media_type): a null removes a field that may be absent, or a map's member, and an
  // object merges into the stored one, so neither a null on an optional field or a map's member nor a nested object
  // without a required member is wrong.
  if (resource && isMergePatch(o))
    for (let i = all.length - 1; i >= 0; i--) {
      const hit = / null \(not nullable\)$| missing \(required\)$/.exec(all[i]!.label);
      if (!hit) continue;
      const name = all[i]!.label.slice(0, hit.index);
      if (name.includes('[')) continue; // inside an array, which a patch replaces whole
      // A map's member (metadata.key): a patch merges the map member by member, and its null removes the member.
      const parts = name.split('.');
      if (hit[0].startsWith(' null') && parts.length > 1 && fieldAt(resource.fields, parts.slice(0, -1))?.type === 'map') {
        all.splice(i, 1);
        continue;
      }
      const f = fieldAt(resource.fields, name.split('.'));
      if (hit[0].startsWith(' missing') ? name.includes('.') : f?.optional) all.splice(i, 1);
    }
  // A mutation adding a top-level member the request does not name (an unknown, read-only or write-once field, one
  // outside request_fields): `unknown_fields: ignore` accepts and drops it, so it is no invalid request (its own
  // check below); a stated `refuse` (an imported additionalProperties: false) is the spec's rule, not only the format's.
  const ignore = getUnknownFields(o) === 'ignore';
  const stated = o.unknownFields === 'refuse' && resource !== undefined;
  const takes = resource && view !== 'response' ? new Set(Object.keys(getSchemaMembers(getRequestSchema(ctx.model, resource, o, view)))) : undefined;
  const unnamed = (m: Mutation) => takes !== undefined && Object.keys(m.apply(base)).some((k) => !takes.has(k) && !Object.hasOwn(base, k));
  // Nor one inside an object field: the format closes nested objects, but a document that leaves its request open
  // seldom closes the objects in it (OpenAPI's default), and the import cannot say otherwise.
  // A field it names but does not take (read-only, write-once, outside request_fields) stays: sent, it must be dropped,
  // not stored (JSON Schema's readOnly also lets a service refuse it).
  const dropped = (m: Mutation) => ignore && unnamed(m) && DROPPED_FIELD.test(m.label);
  if (ignore)
    for (let i = all.length - 1; i >= 0; i--) if ((unnamed(all[i]!) && !dropped(all[i]!)) || / with an unknown field$/.test(all[i]!.label)) all.splice(i, 1);
  // A field the path binds that the operation's request_fields leave out is the path's alone: an imported request
  // never names it (FastAPI's ReviewCreate under /recipes/{recipe_id}/reviews holds no recipe_id), so a service
  // ignoring members its request does not name ignores it in the body too, whatever it holds. The format's runtime
  // holds a body's value to the path's, a rule of the format no OpenAPI document states: not judged under ignore.
  const pathOnly =
    ignore && o.requestFields !== undefined
      ? new Set((o.bindings ?? []).map((b) => b.field.split(/[.[]/)[0]!).filter((n) => !o.requestFields!.includes(n)))
      : undefined;
  if (pathOnly !== undefined && pathOnly.size > 0)
    for (let i = all.length - 1; i >= 0; i--) if (pathOnly.has(/^[^\s.[(]+/.exec(all[i]!.label)?.[0] ?? '')) all.splice(i, 1);
  const mutations = isThrifty(ctx.model) ? pickThrifty(all, (m) => m.label.slice(m.label.indexOf(' ') + 1).replace(/[0-9.]+/g, '#'), 10, ctx.seed) : all;
  // A form request (request.media_type) carries every value as text: a value of another JSON type, or a null, reads
  // as text a field may take, so those mutations cannot be sent; the rest (missing, unknown, out of bounds) can.
  const form = o.request?.mediaType === FORM_MEDIA_TYPE;
  for (const m of unjudged ? [] : mutations) {
    await ctx.check('endpoints', 'endpoints.invalid-requests', `${o.id}: ${m.label}`, async (scope) => {
      if (form && / of the wrong type$| null \(not nullable\)$/.test(m.label)) return scope.skip('a form carries every value as text (request.media_type)');
      // A stated \`unknown_fields: refuse\` (an imported document's additionalProperties: false) closes the body's top
      // level: the objects in it the document may leave open (OpenAPI's default), which the import cannot say.
      if (stated && NESTED_UNKNOWN.test(m.label))
        return scope.skip(
          'unknown_fields: refuse states the top level of the body; an object field in it may be open in the document it came from',
          'not-applicable',
        );
      // Where no code declares the condition, only a body breaking its declared schema is held to the operation's
      // own refusals: an unknown, read-only or write-once field is the format's rule, which an OpenAPI document
      // need not state (additionalProperties, readOnly's SHOULD NOT).
      const d = ctx.declared(m.condition) || !FORMAT_RULE.test(m.label) || (stated && unnamed(m)) ? ctx.refusal(route, m.condition) : undefined;
      // A read-only member no rule makes the service refuse: JSON Schema's readOnly lets it ignore or refuse it,
      // not store it. Judged where a stored value would show (a text of 8 or more characters the service would not
      // make itself: a drawn uuid or time, not a state or a small number).
      if (dropped(m) && resource)
        return checkReadOnlyEither(
          ctx,
          scope,
          route,
          path,
          headers!,
          m.apply(o.action === 'create' ? ctx.makeUnique(resource, base) : base),
          DROPPED_FIELD.exec(m.label)![1]!,
          DROPPED_FIELD.exec(m.label)![2]!,
        );
      const readOnly = /^(\S+) \(read-only\) sent$/.exec(m.label)?.[1];
      if (!d && readOnly !== undefined && resource)
        return checkReadOnlyEither(ctx, scope, route, path, headers!, m.apply(o.action === 'create' ? ctx.makeUnique(resource, base) : base), readOnly);
      if (!d) return scope.skip(`no error code declared for ${m.condition} (not shown)`);
      // A create's unique values fresh for each, its text drawn afresh too (a serial number the spec cannot say is
      // unique): one mutation a service took, or the valid body sent before, must not make the next a conflict.
      const draw = () =>
        m.apply(o.action === 'create' && resource ? ctx.makeUnique(resource, ctx.freshen(resource, base, bound)) : named ? ctx.makeUnique(named, base) : base);
      const requestOf = (mutated: Record<string, unknown>): TestRequest => ({
        method: route.method,
        path,
        headers: headers!,
        body: resource && isMergePatch(o) ? padUnionsForMergePatch(resource, mutated) : mutated,
      });
      let req = requestOf(draw());
      let res = await ctx.send(route, req);
      // A create's conflict: a value drawn afresh that the service already holds, kept unique without the spec saying
      // so (a drawn text can meet one an earlier check sent). Drawn again, and judged by that answer.
      for (let i = 0; i < 3 && o.action === 'create' && resource && ctx.isConflict(route, res); i++) {
        req = requestOf(draw());
        res = await ctx.send(route, req);
      }
      // Refused as too large (413) where the spec shows no body size: a text past a maxLength of 1 MiB (SendGrid's
      // html_content) made a body past serve's built-in limit, a named gap. Refused all the same; its code not judged.
      if (res.status === 413 && ctx.model.limits?.bodySize === undefined) return;
      const why = ctx.expectRefusal(res, route, m.condition);
      if (why !== undefined) scope.fail(ctx.failure(o.id, `${d.label} for a body with ${m.label}`, d.pointer, req, `${why}; ${describe(res)}`));
    });
  }
  if (ignore && resource && !unjudged) await checkUnknownIgnored(ctx, route, path, headers, base, target, bound);
  // request_envelope: the body the operation takes, sent without its wrapper, is no body it takes.
  const wrap = o.requestEnvelope !== undefined && REQUEST_ENVELOPED_ACTIONS.has(o.action) ? o.requestEnvelope.data : undefined;
  if (wrap !== undefined && !unjudged)
    await ctx.check('endpoints', 'endpoints.invalid-requests', `${o.id}: the body not wrapped in ${wrap}`, async (scope) => {
      const d = ctx.refusal(route, 'validation');
      if (!d) return scope.skip('no error code declared for validation (not shown)');
      const body = o.action === 'create' && resource ? ctx.makeUnique(resource, base) : base;
      // A body whose one member is the wrapper's name would be the wrapped body itself.
      if (Object.keys(body).length === 1 && Object.hasOwn(body, wrap)) return scope.skip(`the body's one member is ${wrap}`);
      const req: TestRequest = { method: route.method, path, headers: headers!, body, bare: true };
      const res = await ctx.send(route, req);
      const why = ctx.expectRefusal(res, route, 'validation');
      if (why !== undefined) scope.fail(ctx.failure(o.id, `${d.label} for a body not wrapped in ${wrap}`, d.pointer, req, `${why}; ${describe(res)}`));
    });
  const statedType = o.requestMediaType;
  const sentAs = wrap === undefined ? base : { [wrap]: base };
  const raw: { label: string; condition: 'malformed_request' | 'unsupported_media_type'; req: TestRequest }[] = [
    ...(statedType !== undefined && statedType.toLowerCase() !== 'application/json'
      ? [
          {
            label: `a body sent as application/json where the request is ${statedType}`,
            condition: 'unsupported_media_type' as const,
            req: { method: route.method, path, headers: { ...headers!, 'content-type': 'application/json' }, raw: JSON.stringify(base) },
          },
        ]
      : []),
    form
      ? {
          label: `a JSON body where the request is a form (${FORM_MEDIA_TYPE})`,
          condition: 'unsupported_media_type',
          req: { method: route.method, path, headers: { ...headers!, 'content-type': 'application/json' }, raw: JSON.stringify(sentAs) },
        }
      : {
          label: 'malformed JSON',
          condition: 'malformed_request',
          req: { method: route.method, path, headers: { ...headers!, 'content-type': statedType ?? 'application/json' }, raw: '{"unterminated": ' },
        },
    {
      label: 'a body that is not JSON (text/plain)',
      condition: 'unsupported_media_type',
      req: { method: route.method, path, headers: { ...headers!, 'content-type': 'text/plain' }, raw: 'hello' },
    },
  ];
  for (const r of raw) {
    // Unjudged, a malformed body is still sent: a server error is the service's whatever it refuses first
    // (endpoints.no-server-error, which every answer is held to).
    // A request that fails (no answer within --request-timeout: Prism's proxy to malformed JSON) fails this probe,
    // as where it is judged: it ended the whole run as an internal error.
    if (unjudged) {
      let failed: unknown;
      await ctx.send(route, r.req).catch((err: unknown) => (failed = err ?? new Error('the request failed')));
      if (failed !== undefined)
        await ctx.check('endpoints', 'endpoints.invalid-requests', `${o.id}: ${r.label}`, () => {
          throw failed;
        });
      continue;
    }
    await ctx.check('endpoints', 'endpoints.invalid-requests', `${o.id}: ${r.label}`, async (scope) => {
      const d = ctx.refusal(route, r.condition);
      if (!d) return scope.skip(`no error code declared for ${r.condition} (not shown)`);
      const res = await ctx.send(route, r.req);
      const why = ctx.expectRefusal(res, route, r.condition);
      if (why !== undefined) scope.fail(ctx.failure(o.id, `${d.label} for ${r.label}`, d.pointer, r.req, `${why}; ${describe(res)}`));
    });
  }
}

/** The field a dotted name reaches through object fields, if any. */
function fieldAt(fields: readonly FieldModel[] | undefined, parts: readonly string[]): FieldModel | undefined {
  const f = fields?.find((x) => x.name === parts[0]);
  return parts.length <= 1 ? f : fieldAt(f?.fields, parts.slice(1));
}

/** A read-only member sent where no rule makes the service refuse it: refused (a client error) or accepted and not stored. */
async function checkReadOnlyEither(
  ctx: TestContext,
  scope: CheckScope,
  route: OperationRoute,
  path: string,
  headers: Record<string, string>,
  sentBody: Record<string, unknown>,
  field: string,
  why = 'read-only',
): Promise<void> {
  let body = sentBody;
  const r = route.resource!;
  // A field of a few values (an enum, a state): what a create gives it unsent, then another of its values sent, so
  // that an answer holding the value sent shows it stored (a client setting an invoice `paid`).
  const choices = getValueChoices(ctx, r, field);
  let baseline: unknown;
  if (route.operation.action === 'create' && choices !== undefined) {
    const { [field]: _left, ...without } = body;
    const plain = await ctx.send(route, { method: route.method, path, headers, body: ctx.makeUnique(r, without) });
    if (isSuccessAnswer(route, plain.status) && isPlainObject(plain.body) && plain.body[field] !== undefined) {
      baseline = plain.body[field];
      const other = choices.find((v) => v !== baseline);
      if (other !== undefined) body = { ...body, [field]: other };
    }
  }
  const sent = body[field];
  const req: TestRequest = { method: route.method, path, headers, body: isMergePatch(route.operation) ? padUnionsForMergePatch(r, body) : body };
  const res = await ctx.send(route, req);
  const expected =
    why === 'read-only'
      ? `${field} (read-only) sent: ignored (not stored) or refused with a client error (JSON Schema readOnly)`
      : `${field} (${why}) sent: dropped (unknown_fields: ignore), not stored`;
  if (isSuccessAnswer(route, res.status)) {
    // A field of one value (Box's read-only `type: enum [web_link]`) holds the value sent whatever the service does
    // with it: an answer holding it shows nothing stored.
    const f = r.fields.find((x) => x.name === field);
    const only = f?.values;
    const got = isPlainObject(res.body) ? res.body[field] : undefined;
    // A time is kept as the instant sent however the service writes it (DRF's microseconds: `…00.000000Z`).
    const same =
      got === sent ||
      (f?.type === 'datetime' &&
        typeof got === 'string' &&
        typeof sent === 'string' &&
        Date.parse(got) === Date.parse(sent) &&
        !Number.isNaN(Date.parse(sent)));
    const kept = same && !(only?.length === 1 && only[0] === sent);
    // What shows it stored: a text of 8 or more characters (a time sent, a month or more from now: not one the
    // service makes itself), a number the service would not make in a run (READ_ONLY_NUMBER), another of few values.
    const distinct =
      (typeof sent === 'string' && sent.length >= 8 && (got === sent || Math.abs(Date.parse(sent) - Date.now()) > 30 * 86_400_000)) ||
      sent === READ_ONLY_NUMBER ||
      (baseline !== undefined && sent !== baseline);
    if (kept && distinct)
      scope.fail(ctx.failure(route.operation.id, expected, r.pointer, req, `${field} is ${JSON.stringify(sent)}, as sent; ${describe(res)}`));
    return;
  }
  if (res.status < 400 || res.status >= 500) scope.fail(ctx.failure(route.operation.id, expected, r.pointer, req, describe(res)));
}

/** The values a field may hold when they are few (an enum's, a state field's machine's states); else undefined. */
function getValueChoices(ctx: TestContext, r: ResourceModel, field: string): readonly unknown[] | undefined {
  const f = r.fields.find((x) => x.name === field);
  if (f?.values !== undefined && f.values.length > 1) return f.values;
  if (f?.type !== 'state') return undefined;
  const machine = ctx.model.stateMachines.find((m) => m.resource === r.name && (m.field === undefined || m.field === field));
  return machine && machine.states.length > 1 ? machine.states.map((x) => x.name) : undefined;
}

/**
 * A new object made with every optional field (objectArbitrary's complete), or undefined where none can be made so.
 * A field with a default holds another value than it where its type has one (an enum's other value, a boolean's
 * other, the next number within its bounds): a change that resets what it was not sent to the default then shows.
 */
async function freshComplete(ctx: TestContext, resource: ResourceModel): Promise<Record<string, unknown> | undefined> {
  if (!ctx.createRoute(resource.name)) return undefined;
  const body = await ctx.sampleCreateBody(resource, 0, true);
  const stateFields = new Set(ctx.model.stateMachines.filter((m) => m.resource === resource.name).map((m) => m.field));
  for (const f of resource.fields) {
    if (!f.hasDefault || stateFields.has(f.name) || !Object.hasOwn(body, f.name) || JSON.stringify(body[f.name]) !== JSON.stringify(f.default)) continue;
    const other = otherThanDefault(f);
    if (other !== undefined) body[f.name] = other;
  }
  const made = await ctx.createObject(resource, body);
  return made && made.res.status < 300 && isPlainObject(made.res.body) ? made.res.body : undefined;
}

/** One valid update (else replace) of the object, answered a success: the object as a read (else the answer) shows it after. */
async function changeOnce(ctx: TestContext, resource: ResourceModel, target: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  const change =
    ctx.routes.find((r) => r.operation.action === 'update' && r.resource?.name === resource.name) ??
    ctx.routes.find((r) => r.operation.action === 'replace' && r.resource?.name === resource.name);
  const headers = change ? await ctx.authFor(change.operation.auth) : undefined;
  if (!change || !headers) return undefined;
  // The fullest of a few drawn bodies: an update's fields are all optional, and an empty one changes nothing.
  const drawn = fc.sample(objectArbitrary(ctx.model, ctx.requestFields(change), resource, change.operation.action as SchemaView), {
    seed: ctx.seed,
    numRuns: 5,
  });
  const value = drawn.reduce((a, b) => (Object.keys(b as object).length > Object.keys(a as object).length ? b : a));
  let body = ctx.bindBody(change, ctx.makeUnique(resource, ctx.unlike(change, (await ctx.resolveRefs(value)) as Record<string, unknown>, target)), target);
  if (isMergePatch(change.operation)) body = padUnionsForMergePatch(resource, body);
  const res = await ctx.send(change, { method: change.method, path: ctx.pathOf(change, objectKey(resource, target)), headers, body });
  if (!isSuccessAnswer(change, res.status)) return undefined;
  // A change answering no body (a replace's 204: spring-petclinic-rest's `PUT /owners/{ownerId}/pets/{petId}`) changed
  // the object all the same: it is as the read shows it, not as made (a delete answers the changed object).
  return (await readCurrent(ctx, change, target)) ?? (isPlainObject(res.body) ? res.body : undefined);
}

/** The object as its read answers it now; undefined without a read (or a credential for it), or when it is not found. */
async function readCurrent(ctx: TestContext, route: OperationRoute, target: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  const resource = route.resource!;
  const read = ctx.readAfter(resource, route);
  const headers = read ? await ctx.authFor(read.operation.auth) : undefined;
  if (!read || !headers) return undefined;
  const res = await ctx.send(read, { method: 'GET', path: ctx.pathOf(read, objectKey(resource, target)), headers });
  return res.status === read.successStatus && isPlainObject(res.body) ? res.body : undefined;
}

/**
 * What a change does to the fields its body leaves out (docs/format.md, the actions' table): a create gives each its
 * default, where it has one; an update keeps each; a replace clears each it can write (takes its default, where it
 * has one) and keeps the rest (a write-once field, one outside its request_fields, one its path binds). Only fields
 * a client writes are held — a read-only one the service may change (an updated_at) — but for what the create made
 * and no change remakes: the identifier and a create time. Undefined when the answer does so.
 */
function untouchedMismatch(
  route: OperationRoute,
  before: Record<string, unknown>,
  body: Record<string, unknown>,
  answer: unknown,
): { expected: string; actual: string } | undefined {
  const r = route.resource;
  const o = route.operation;
  if (!r || !isPlainObject(answer) || (o.action !== 'create' && o.action !== 'update' && o.action !== 'replace')) return undefined;
  const bound = new Set((o.bindings ?? []).map((b) => b.field.split('.')[0]!));
  for (const f of r.fields) {
    // What the service made at create and no change remakes: the identifier, a create time (the same instant,
    // however written).
    if ((f.name === r.identifier || f.generated === 'create_time') && isAnswered(r, f.name) && Object.hasOwn(before, f.name)) {
      const actual = Object.hasOwn(answer, f.name) ? answer[f.name] : undefined;
      const same =
        f.type === 'datetime' && typeof actual === 'string' && typeof before[f.name] === 'string'
          ? Date.parse(actual) === Date.parse(before[f.name] as string)
          : sortedJson(actual) === sortedJson(before[f.name]);
      if (!same)
        return {
          expected: `field ${f.name}, made by the create, kept by the ${o.action} (${JSON.stringify(before[f.name])})`,
          actual: `${f.name} is ${JSON.stringify(actual) ?? 'absent'}`,
        };
      continue;
    }
    // A merge patch merges a map or an object member by member (RFC 7396): each member the object held and the patch
    // does not name is kept (a map replaced whole by the patch's loses the others).
    const sentObject = Object.hasOwn(body, f.name) ? body[f.name] : undefined;
    const held = Object.hasOwn(before, f.name) ? before[f.name] : undefined;
    if (isMergePatch(o) && (f.type === 'map' || f.type === 'object') && isPlainObject(sentObject) && isPlainObject(held) && isAnswered(r, f.name)) {
      const got = Object.hasOwn(answer, f.name) ? answer[f.name] : undefined;
      for (const [k, v] of Object.entries(held)) {
        if (Object.hasOwn(sentObject, k)) continue;
        const member = f.type === 'object' ? f.fields?.find((x) => x.name === k) : undefined;
        if (f.type === 'object' && (!member || member.readOnly || member.writeOnly)) continue;
        const kept = isPlainObject(got) && Object.hasOwn(got, k) ? got[k] : undefined;
        if (sortedJson(kept) !== sortedJson(v))
          return {
            expected: `${f.name}.${k}, left out of the merge patch, kept (${JSON.stringify(v)})`,
            actual: `${f.name} is ${JSON.stringify(got)?.slice(0, 160) ?? 'absent'}`,
          };
      }
    }
    if (Object.hasOwn(body, f.name) || bound.has(f.name) || !isAnswered(r, f.name) || !isWritable(r, f, 'create')) continue;
    // Own members only: a field named after Object.prototype's (constructor) is absent, not the prototype's.
    const actual = Object.hasOwn(answer, f.name) ? answer[f.name] : undefined;
    const was = Object.hasOwn(before, f.name) ? before[f.name] : undefined;
    const clears = o.action === 'replace' && isWritable(r, f, 'replace') && (o.requestFields === undefined || o.requestFields.includes(f.name));
    if ((clears || o.action === 'create') && f.hasDefault) {
      // A default of null is held by an open answer leaving the field out, as a null sent is (heldAsSent).
      if (sortedJson(actual) !== sortedJson(f.default) && !nullLeftOut(r, f, actual, f.default))
        return {
          expected: `field ${f.name}, left out of the ${o.action}, holding its default ${JSON.stringify(f.default)}`,
          actual: `${f.name} is ${JSON.stringify(actual) ?? 'absent'}`,
        };
    } else if (o.action === 'create') continue;
    else if (clears) {
      if (f.optional && actual !== undefined && !(actual === null && f.nullable))
        return { expected: `field ${f.name}, left out of the replace, cleared`, actual: `${f.name} is ${JSON.stringify(actual)}` };
    } else if (sortedJson(actual) !== sortedJson(was))
      return {
        expected: `field ${f.name}, left out of the ${o.action}, kept (${JSON.stringify(was) ?? 'absent'})`,
        actual: `${f.name} is ${JSON.stringify(actual) ?? 'absent'}`,
      };
  }
  return undefined;
}

/**
 * A merge-patch update removes a field with null (RFC 7396): each top-level field that may be absent (optional, or
 * nullable) set to null, answered and read back removed (a required nullable one as null). A service ignoring the
 * null, or refusing it, fails endpoints.valid-requests.
 */
async function checkPatchNulls(
  ctx: TestContext,
  scope: CheckScope,
  route: OperationRoute,
  target: Record<string, unknown>,
  headers: Record<string, string>,
): Promise<void> {
  const resource = route.resource!;
  const o = route.operation;
  const read = ctx.readAfter(resource, route);
  const readHeaders = read ? await ctx.authFor(read.operation.auth) : undefined;
  for (const f of ctx.requestFields(route)) {
    if (!(f.optional || isNullableInRequests(f)) || !isWritable(resource, f, 'update') || f.writeOnce || !isAnswered(resource, f.name)) continue;
    if (o.bindings?.some((b) => b.field.split('.')[0] === f.name)) continue;
    const path = ctx.pathOf(route, objectKey(resource, target));
    const req: TestRequest = { method: route.method, path, headers, body: { [f.name]: null } };
    const res = await ctx.send(route, req);
    const expected = `${f.name} removed by a merge patch's null (${f.optional ? (f.nullable ? 'absent or null' : 'absent') : 'null'} after)`;
    if (!isSuccessAnswer(route, res.status)) return scope.fail(ctx.failure(o.id, `status ${route.successStatus} for ${expected}`, f.pointer, req, res));
    const body = res.body as Record<string, unknown> | undefined;
    if (!heldAsPatched(resource, f.name, body?.[f.name], null))
      return scope.fail(ctx.failure(o.id, expected, f.pointer, req, `${f.name} is ${JSON.stringify(body?.[f.name])}`));
    if (!read || !readHeaders) continue;
    const again: TestRequest = { method: 'GET', path: ctx.pathOf(read, objectKey(resource, target)), headers: readHeaders };
    const after = await ctx.send(read, again);
    const value = (after.body as Record<string, unknown> | undefined)?.[f.name];
    if (after.status === read.successStatus && !heldAsPatched(resource, f.name, value, null))
      return scope.fail({
        ...ctx.failure(o.id, `${expected} in a read after the update`, f.pointer, again, `${f.name} is ${JSON.stringify(value)}`),
        curl: ctx.client.curlSequence([{ req }, { note: `then (${read.operation.id})`, req: again }]),
      });
  }
}

/**
 * A body leaving out what it can: a create's or a replace's optional fields and those with a default, all but one
 * field of an update.
 * Undefined where nothing can be left out (an update drawn with no field, a resource with no optional field).
 */
function leaveOut(resource: ResourceModel, action: string, drawn: Record<string, unknown>): Record<string, unknown> | undefined {
  if (action === 'update') {
    const first = Object.keys(drawn)[0];
    return first === undefined ? undefined : { [first]: drawn[first] };
  }
  // Optional, or given its default when left out (where requests may leave it out: not requiredInRequests).
  const optional = new Set(resource.fields.filter((f) => f.optional || (f.hasDefault && !f.requiredInRequests)).map((f) => f.name));
  if ((action !== 'replace' && action !== 'create') || optional.size === 0) return undefined;
  return Object.fromEntries(Object.entries(drawn).filter(([k]) => !optional.has(k)));
}

/** A valid value of `f` other than its default, where its type plainly has one; undefined where not. */
function otherThanDefault(f: FieldModel): unknown {
  const d = f.default;
  if (f.values && f.values.length > 1) return f.values.find((v) => v !== d);
  if (f.type === 'boolean' && typeof d === 'boolean') return !d;
  if ((f.type === 'integer' || f.type === 'number') && typeof d === 'number' && f.multipleOf === undefined) {
    const fits = (v: number) =>
      (f.minimum === undefined || v >= f.minimum) &&
      (f.maximum === undefined || v <= f.maximum) &&
      (f.exclusiveMinimum === undefined || v > f.exclusiveMinimum) &&
      (f.exclusiveMaximum === undefined || v < f.exclusiveMaximum);
    return [d + 1, d - 1].find(fits);
  }
  return undefined;
}
