import { isSuccessAnswer, isConditionalChange, type OperationRoute } from '../model/model-routes.js';
import type { ResourceModel } from '../model/model-types.js';
import { isWritable } from '../model/model-schemas.js';
import { isMergePatch } from '../model/model-defaults.js';
import { padUnionsForMergePatch } from './tester-arbitraries.js';
import type { TestRequest, TestResponse } from './tester-http.js';
import { describe, objectKey, type TestContext } from './tester-context.js';

// Conditional requests (`etag: true`, docs/format.md "Conditional requests"): endpoints.etag holds a read to a quoted
// ETag, answered 304 with no body to If-None-Match naming it, and to a new tag once the object changed;
// endpoints.if-match holds each one-object change to its declared precondition_failed for a stale If-Match (the object
// unchanged, read back), to a success with the current tag and with `*` (any existing object), and with
// `if_match: required` to precondition_required without one.

/** An entity-tag (RFC 9110 §8.8.3): quoted, weak or not. */
const ENTITY_TAG = /^(W\/)?"[\x21\x23-\x7e\x80-\xff]*"$/;

/** The change the etag check makes to see the tag move: an update, else a replace, else a transition. */
function changeOf(ctx: TestContext, r: ResourceModel): OperationRoute | undefined {
  const changes = ctx.routes.filter((x) => x.resource === r && isConditionalChange(r, x.operation) && x.operation.action !== 'delete');
  return ['update', 'replace', 'transition'].map((a) => changes.find((x) => x.operation.action === a)).find((x) => x !== undefined);
}

/** A body that changes the object: an update's, the writable fields of a drawn object (validBody sends none); else validBody. */
async function changeBody(ctx: TestContext, r: ResourceModel, route: OperationRoute, id: unknown): Promise<Record<string, unknown>> {
  if (route.operation.action !== 'update') return ctx.validBody(route, id);
  const drawn = await ctx.sampleCreateBody(r, 7);
  const b: Record<string, unknown> = {};
  for (const f of r.fields) if (drawn[f.name] !== undefined && isWritable(r, f, 'update')) b[f.name] = drawn[f.name];
  // Another value than the object made holds, field by field (unlike): the change changes it, and its tag must move.
  const made = ctx.pool.get(r.name)?.find((x) => objectKey(r, x) === id);
  const body = ctx.onlyRequestFields(route, ctx.bindBody(route, ctx.unlike(route, b, made), ctx.pathTarget(route, id)));
  // A merge patch says a union field whole (its other variants' members null): merged into the object's variant, a
  // drawn one would otherwise hold both variants' members, and be refused, so no change would be seen.
  return isMergePatch(route.operation) ? padUnionsForMergePatch(r, body) : body;
}

export async function checkConditional(ctx: TestContext): Promise<void> {
  for (const r of ctx.model.resources.filter((x) => x.etag === true)) {
    const read = ctx.routes.find((x) => x.resource === r && x.operation.action === 'read');
    if (read) await checkETag(ctx, r, read);
    for (const route of ctx.routes.filter((x) => x.resource === r && isConditionalChange(r, x.operation))) await checkIfMatch(ctx, r, route, read);
  }
}

/** A fresh object of `r` and its read (path, credential), or why there is none. */
async function freshObject(
  ctx: TestContext,
  r: ResourceModel,
  read: OperationRoute,
): Promise<{ path: string; headers: Record<string, string>; key: unknown; made?: { req: TestRequest; tag: string } } | string> {
  const headers = await ctx.authFor(read.operation.auth);
  if (!headers) return 'no credential for the read';
  const made = await ctx.createObject(r);
  const obj = made && made.res.status < 300 ? (made.res.body as Record<string, unknown> | undefined) : await ctx.ensureObject(r);
  if (!obj) return `no ${r.name} could be made`;
  // The tag the create answered, where it answered one (an upsert's PUT, a create): the object's, as a read shows it.
  const tag = made && made.res.status < 300 ? made.res.headers.get('etag') : null;
  return { path: ctx.pathOf(read, objectKey(r, obj)), headers, key: objectKey(r, obj), ...(made && tag !== null ? { made: { req: made.req, tag } } : {}) };
}

async function checkETag(ctx: TestContext, r: ResourceModel, read: OperationRoute): Promise<void> {
  const o = read.operation;
  /** Why the tag's moving with a change was not seen, where a change was tried and refused: said, not passed over. */
  let unmoved: string | undefined;
  await ctx.check('endpoints', 'endpoints.etag', o.id, async (scope) => {
    const fresh = await freshObject(ctx, r, read);
    if (typeof fresh === 'string') return scope.skip(fresh);
    const req: TestRequest = { method: 'GET', path: fresh.path, headers: fresh.headers };
    const res = await ctx.send(read, req);
    if (!isSuccessAnswer(read, res.status)) return scope.skip(`${o.id} answered ${res.status}: nothing to compare`);
    const tag = res.headers.get('etag');
    if (tag === null || !ENTITY_TAG.test(tag))
      return scope.fail(ctx.failure(o.id, `a quoted ETag on the ${r.name} (etag: true)`, r.pointer, req, tag === null ? 'no ETag header' : `ETag ${tag}`));
    // Strong (docs/format.md, "Conditional requests"): a weak tag never matches If-Match (RFC 9110 §13.1.1), so a
    // client could not make a conditional change with the tag the service gave.
    if (tag.startsWith('W/'))
      return scope.fail(ctx.failure(o.id, `a strong ETag on the ${r.name} (etag: true), which If-Match can name`, r.pointer, req, `ETag ${tag}`));
    // The tag the create answered is the object's: a client's first If-Match sends it.
    if (fresh.made && fresh.made.tag !== tag)
      return scope.fail({
        ...ctx.failure(
          o.id,
          `the ETag the create answered (${fresh.made.tag}) is the ${r.name}'s, as a read right after answers it`,
          r.pointer,
          req,
          `ETag ${tag}`,
        ),
        curl: ctx.client.curlSequence([{ req: fresh.made.req }, { note: `then (${o.id})`, req }]),
      });
    // A change first (If-Match the tag just read): the tag must change with the object. Asked before If-None-Match,
    // so that a read ignoring If-None-Match (the tag a document answers, the 304 it does not declare) does not keep
    // a tag that never changes from being seen.
    let current = tag;
    const change = changeOf(ctx, r);
    const changeHeaders = change ? await ctx.authFor(change.operation.auth) : undefined;
    if (change && changeHeaders) {
      const id = fresh.key;
      const body = await changeBody(ctx, r, change, id);
      const changeReq: TestRequest = { method: change.method, path: ctx.pathOf(change, id), headers: { ...changeHeaders, 'if-match': tag }, body };
      const changed = await ctx.send(change, changeReq);
      if (isSuccessAnswer(change, changed.status)) {
        // The change answers the object as changed, so its ETag too (docs/format.md: every answer carrying one of the
        // resource's objects), the tag a read right after it answers: a client's next If-Match sends it.
        const changeTag = changed.body !== undefined && changed.text !== '' ? changed.headers.get('etag') : undefined;
        if (changeTag === null)
          return scope.fail(
            ctx.failure(
              change.operation.id,
              `a quoted ETag on ${change.operation.id}'s answer, the ${r.name} as changed (etag: true)`,
              r.pointer,
              changeReq,
              'no ETag header',
            ),
          );
        const after = await ctx.send(read, req);
        const newTag = after.headers.get('etag');
        if (changeTag !== undefined && isSuccessAnswer(read, after.status) && newTag !== null && changeTag !== newTag)
          return scope.fail({
            ...ctx.failure(
              o.id,
              `the ETag ${change.operation.id} answered (${changeTag}) is the ${r.name}'s, as a read right after answers it`,
              r.pointer,
              req,
              `ETag ${newTag}`,
            ),
            curl: ctx.client.curlSequence([{ req: changeReq }, { note: `then (${o.id})`, req }]),
          });
        if (isSuccessAnswer(read, after.status) && newTag === tag && JSON.stringify(after.body) !== JSON.stringify(res.body))
          return scope.fail(
            ctx.failure(
              o.id,
              `a new ETag once ${change.operation.id} changed the ${r.name}`,
              r.pointer,
              req,
              `ETag ${tag} before and after ${change.operation.id}`,
            ),
          );
        if (!isSuccessAnswer(read, after.status)) return;
        if (newTag === null || !ENTITY_TAG.test(newTag))
          return scope.fail(
            ctx.failure(o.id, `a quoted ETag on the ${r.name} (etag: true)`, r.pointer, req, newTag === null ? 'no ETag header' : `ETag ${newTag}`),
          );
        current = newTag;
      } else
        unmoved = `${change.operation.id} with If-Match: its current tag answered ${describe(changed).slice(0, 120)}: no change was made, so a new ETag after one was not looked for`;
    }
    const conditional: TestRequest = { ...req, headers: { ...fresh.headers, 'if-none-match': current } };
    const same = await ctx.send(read, conditional);
    if (same.status !== 304 || same.text !== '')
      return scope.fail(
        ctx.failure(o.id, `304 with no body to If-None-Match: ${current}, the ${r.name}'s current tag`, r.pointer, conditional, describe(same).slice(0, 200)),
      );
    // A 304 carries the ETag a 200 would (RFC 9110 §15.4.5; docs/format.md): the client keeps its copy by it.
    if (same.headers.get('etag') !== current)
      return scope.fail(
        ctx.failure(o.id, `the ${r.name}'s ETag (${current}) on the 304`, r.pointer, conditional, `ETag: ${same.headers.get('etag') ?? '(none)'}`),
      );
    // If-None-Match compares weakly (RFC 9110 §13.1.2): the current tag made weak matches too.
    const weakReq: TestRequest = { ...req, headers: { ...fresh.headers, 'if-none-match': `W/${current}` } };
    const weak = await ctx.send(read, weakReq);
    if (weak.status !== 304)
      return scope.fail(
        ctx.failure(
          o.id,
          `304 to If-None-Match: W/${current}: If-None-Match compares weakly (RFC 9110 §13.1.2)`,
          r.pointer,
          weakReq,
          describe(weak).slice(0, 200),
        ),
      );
    // A tag that is not the current one matches nothing: the object, as without the header.
    const otherReq: TestRequest = { ...req, headers: { ...fresh.headers, 'if-none-match': `"servicespec-stale-${ctx.runId}"` } };
    const other = await ctx.send(read, otherReq);
    if (!isSuccessAnswer(read, other.status) || other.text === '')
      return scope.fail(
        ctx.failure(
          o.id,
          `the ${r.name} (${read.successStatus}) to If-None-Match naming a tag it does not have`,
          r.pointer,
          otherReq,
          describe(other).slice(0, 200),
        ),
      );
    // The tag it had before the change matches nothing now: a client holding that copy gets the object as changed
    // (a service matching on part of the tag, the object's id, answers 304 and the client keeps its stale copy).
    if (current !== tag) {
      const olderReq: TestRequest = { ...req, headers: { ...fresh.headers, 'if-none-match': tag } };
      const older = await ctx.send(read, olderReq);
      if (!isSuccessAnswer(read, older.status) || older.text === '')
        scope.fail(
          ctx.failure(
            o.id,
            `the ${r.name} (${read.successStatus}) to If-None-Match: ${tag}, its tag before the change (now ${current})`,
            r.pointer,
            olderReq,
            describe(older).slice(0, 200),
          ),
        );
    }
  });
  if (unmoved !== undefined) ctx.skip('endpoints', 'endpoints.etag', `${o.id}: a new ETag after a change`, `not run: ${unmoved}`, 'not-run');
}

async function checkIfMatch(ctx: TestContext, r: ResourceModel, route: OperationRoute, read: OperationRoute | undefined): Promise<void> {
  const o = route.operation;
  await ctx.check('endpoints', 'endpoints.if-match', o.id, async (scope) => {
    if (!read) return scope.skip(`no read operation of ${r.name} to take its ETag from`);
    const stale = ctx.declared('precondition_failed');
    if (!stale) return scope.skip('no error code declared for precondition_failed (not shown)');
    const headers = await ctx.authFor(o.auth);
    if (!headers) return scope.skip('no credential for this operation');
    const fresh = await freshObject(ctx, r, read);
    if (typeof fresh === 'string') return scope.skip(fresh);
    const before = await ctx.send(read, { method: 'GET', path: fresh.path, headers: fresh.headers });
    const tag = before.headers.get('etag');
    if (!isSuccessAnswer(read, before.status) || tag === null)
      return scope.skip(`${read.operation.id} answered ${before.status}${tag === null ? ', no ETag' : ''}`);
    const id = fresh.key;
    const body = o.action === 'delete' ? undefined : await ctx.validBody(route, id);
    const req = (ifMatch: string | undefined): TestRequest => ({
      method: route.method,
      path: ctx.pathOf(route, id),
      headers: ifMatch === undefined ? headers : { ...headers, 'if-match': ifMatch },
      ...(body !== undefined ? { body } : {}),
      ...(ifMatch === undefined ? { noIfMatch: true as const } : {}),
    });
    // A tag the service never gave: a change sent with it is refused, and nothing changes.
    const staleReq = req(`"servicespec-stale-${ctx.runId}"`);
    const refused = await ctx.send(route, staleReq);
    const why = ctx.expectCondition(refused, 'precondition_failed');
    if (why !== undefined)
      return scope.fail(
        ctx.failure(o.id, `${stale.code} (${stale.status}) for a stale If-Match`, stale.pointer, staleReq, `${why}; ${describe(refused).slice(0, 200)}`),
      );
    const still = await ctx.send(read, { method: 'GET', path: fresh.path, headers: fresh.headers });
    if (still.status !== before.status || JSON.stringify(still.body) !== JSON.stringify(before.body))
      return scope.fail(
        ctx.failure(o.id, `the ${r.name} unchanged after a refused stale If-Match`, stale.pointer, staleReq, `read back: ${describe(still).slice(0, 200)}`),
      );
    // An upsert's PUT to an identifier no object has: If-Match matches no current representation, not even `*`
    // (RFC 9110 §13.1.1; docs/format.md, "Conditional requests"), so it is refused and nothing is made. A client
    // sending it means "only if it is still there": made all the same, an object it deleted comes back.
    if (o.action === 'replace' && o.upsert) {
      const drawn = await ctx.sampleCreateBody(r);
      const { path: newPath, body: newBody } = ctx.upsertRequest(route, drawn);
      const newReq: TestRequest = { method: route.method, path: newPath, headers: { ...headers, 'if-match': '*' }, body: newBody };
      const made = await ctx.send(route, newReq);
      if (isSuccessAnswer(route, made.status) && typeof made.body === 'object' && made.body !== null) ctx.remember(r, made.body as Record<string, unknown>);
      const whyNew = ctx.expectCondition(made, 'precondition_failed');
      if (whyNew !== undefined)
        return scope.fail(
          ctx.failure(
            o.id,
            `${stale.code} (${stale.status}) for If-Match: * on a PUT to an identifier no ${r.name} has: no current representation matches (RFC 9110 §13.1.1)`,
            stale.pointer,
            newReq,
            `${whyNew}; ${describe(made).slice(0, 200)}`,
          ),
        );
      const gone: TestRequest = { method: 'GET', path: ctx.pathOf(read, drawn[r.identifier!]), headers: fresh.headers };
      const shown = await ctx.send(read, gone);
      if (isSuccessAnswer(read, shown.status))
        return scope.fail({
          ...ctx.failure(o.id, `no ${r.name} made by a PUT refused for its If-Match`, stale.pointer, gone, describe(shown).slice(0, 200)),
          curl: ctx.client.curlSequence([{ req: newReq }, { note: `then (${read.operation.id})`, req: gone }]),
        });
    }
    if (o.ifMatch === 'required') {
      const needed = ctx.declared('precondition_required');
      const bare = req(undefined);
      const res: TestResponse = await ctx.send(route, bare);
      const whyBare = ctx.expectCondition(res, 'precondition_required');
      if (needed && whyBare !== undefined)
        return scope.fail(
          ctx.failure(o.id, `${needed.code} (${needed.status}) for a change without If-Match (if_match: required)`, needed.pointer, bare, whyBare),
        );
    }
    // The current tag made weak: a weak tag never matches If-Match (RFC 9110 §13.1.1), so it is refused as stale.
    if (!tag.startsWith('W/')) {
      const weakReq = req(`W/${tag}`);
      const weak = await ctx.send(route, weakReq);
      const whyWeak = ctx.expectCondition(weak, 'precondition_failed');
      if (whyWeak !== undefined)
        return scope.fail(
          ctx.failure(
            o.id,
            `${stale.code} (${stale.status}) for If-Match: W/${tag}: a weak tag never matches (RFC 9110 §13.1.1)`,
            stale.pointer,
            weakReq,
            `${whyWeak}; ${describe(weak).slice(0, 200)}`,
          ),
        );
    }
    // The current tag in a list after one that matches nothing (RFC 9110 §13.1.1: a list matches when one of its tags does).
    const currentReq = req(`"servicespec-stale-${ctx.runId}", ${tag}`);
    const current = await ctx.send(route, currentReq);
    // A transition that does not start from the object's state is refused for that, not for its tag.
    const illegal = (res: TestResponse) => o.action === 'transition' && ctx.expectCondition(res, 'illegal_transition') === undefined;
    if (illegal(current)) return;
    if (!isSuccessAnswer(route, current.status))
      return scope.fail(
        ctx.failure(
          o.id,
          `a success for If-Match: "servicespec-stale-${ctx.runId}", ${tag}, a list naming the ${r.name}'s current tag`,
          o.pointer,
          currentReq,
          describe(current).slice(0, 200),
        ),
      );
    // The tag the change answered is the object's tag now: a read right after it answers the same one (a change
    // answering the tag it replaced sends its client's next If-Match to a refusal).
    const answered = current.headers.get('etag');
    if (o.action !== 'delete' && answered !== null && isSuccessAnswer(route, current.status)) {
      const afterReq: TestRequest = { method: 'GET', path: fresh.path, headers: fresh.headers };
      const after = await ctx.send(read, afterReq);
      const now = after.headers.get('etag');
      const strong = (t: string) => t.replace(/^W\//, '');
      // A change that changed the object moves its tag: a tag kept would let a client's stale If-Match through.
      if (isSuccessAnswer(read, after.status) && now === tag && JSON.stringify(after.body) !== JSON.stringify(before.body))
        return scope.fail(ctx.failure(o.id, `a new ETag once ${o.id} changed the ${r.name}`, r.pointer, afterReq, `ETag ${tag} before and after ${o.id}`));
      if (isSuccessAnswer(read, after.status) && now !== null && strong(now) !== strong(answered))
        return scope.fail(
          ctx.failure(
            o.id,
            `the ETag the ${o.action} answered (${answered}) is the ${r.name}'s tag after it, as a read right after answers it`,
            r.pointer,
            afterReq,
            `ETag: ${now}`,
          ),
        );
    }
    // `If-Match: *` matches any current representation (RFC 9110 §13.1.1), as serve holds it: a change of an object
    // that exists goes through. A delete's object is gone now: `*` goes to another one made for it.
    let starPath = currentReq.path;
    if (o.action === 'delete') {
      const other = await freshObject(ctx, r, read);
      if (typeof other === 'string') return;
      starPath = ctx.pathOf(route, other.key);
    }
    const starReq: TestRequest = { ...req('*'), path: starPath };
    const star = await ctx.send(route, starReq);
    if (isSuccessAnswer(route, star.status) || illegal(star)) return;
    scope.fail(
      ctx.failure(o.id, `a success for If-Match: *, which any existing ${r.name} matches (RFC 9110 §13.1.1)`, o.pointer, starReq, describe(star).slice(0, 200)),
    );
  });
}
