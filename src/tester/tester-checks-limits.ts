import { parseDictionary, parseList } from 'structured-headers';
import { objectKey } from './tester-context.js';
import { isSuccessAnswer, PAGE_FIELDS, type OperationRoute } from '../model/model-routes.js';
import { NOT_SHOWN } from '../model/model-defaults.js';
import { getPageSize } from '../model/model-lookup.js';
import { getPageItems, getPageSizeParam, isDefaultPaging, pageSizeQuery } from './tester-checks-lists.js';
import type { TestRequest, TestResponse } from './tester-http.js';
import { describe, type TestContext } from './tester-context.js';
import { isThrifty } from './tester-pacing.js';

// The limits part: body size at the limit and one byte over, page size default and max, the rate-limit
// headers on every limited answer, and (opt-in, it spends the budget) the rate limit itself.

/** The policy names and their q/w in a RateLimit-Policy header, or a reason it cannot be read. */
function readPolicies(value: string | null): Map<string, { q?: number; w?: number }> | string {
  if (value === null) return 'no RateLimit-Policy header';
  try {
    const out = new Map<string, { q?: number; w?: number }>();
    for (const [item, params] of parseList(value)) {
      const q = params.get('q');
      const w = params.get('w');
      out.set(String(item), { ...(typeof q === 'number' ? { q } : {}), ...(typeof w === 'number' ? { w } : {}) });
    }
    return out;
  } catch {
    return `an unreadable RateLimit-Policy header: ${value}`;
  }
}

/** Undefined when a limited answer carries the declared policies and a RateLimit header, else what is wrong. */
export function rateHeadersMismatch(ctx: TestContext, route: OperationRoute, res: TestResponse): string | undefined {
  const policies = (ctx.model.limits?.rate ?? [])
    .map((r, i) => ({ r, name: r.name ?? `rate${i}` }))
    .filter((p) => !p.r.operations || p.r.operations.includes(route.operation.id));
  if (policies.length === 0) return undefined;
  const got = readPolicies(res.headers.get('ratelimit-policy'));
  if (typeof got === 'string') return got;
  for (const p of policies) {
    const g = got.get(p.name);
    const w = Math.max(1, Math.round(p.r.per.ms / 1000));
    if (!g) return `RateLimit-Policy lacks the declared policy ${p.name}`;
    if (g.q !== p.r.requests || g.w !== w)
      return `RateLimit-Policy ${p.name} says q=${String(g.q)};w=${String(g.w)}, the spec says ${p.r.requests} per ${p.r.per.text} (q=${p.r.requests};w=${w})`;
  }
  const rl = res.headers.get('ratelimit');
  if (rl === null) return 'no RateLimit header';
  try {
    // Each declared policy's remaining quota (r) within its quota, and the seconds until it resets (t) within its
    // window (draft-ietf-httpapi-ratelimit-headers: t is delta seconds, not a time since the epoch).
    for (const [item, params] of parseList(rl)) {
      const p = policies.find((x) => x.name === String(item));
      if (!p) continue;
      const w = Math.max(1, Math.round(p.r.per.ms / 1000));
      const r = params.get('r');
      const t = params.get('t');
      if (typeof r === 'number' && r > p.r.requests) return `RateLimit ${p.name} says r=${r}, more than its quota of ${p.r.requests}`;
      if (typeof t === 'number' && t > w) return `RateLimit ${p.name} says t=${t}, more than its window of ${w} s (t is the seconds until the quota resets)`;
    }
  } catch {
    try {
      parseDictionary(rl);
    } catch {
      return `an unreadable RateLimit header: ${rl}`;
    }
  }
  return undefined;
}

/** A padding member's name in an over-limit body: no field's, and refused or ignored alike, after the size. */
const PAD_MEMBER = 'servicespec_padding';

/**
 * A body of exactly `bytes` bytes in UTF-8: `json` (an object's text) padded with spaces; `wide`: where there is
 * room, with a member of three-byte characters (€) first, then spaces. Far fewer characters (and UTF-16 units) than
 * bytes, so a service counting characters instead of bytes, as Content-Length and the limit do, takes it.
 */
export function overLimitBody(json: string, bytes: number, wide = false): { raw: string; chars: number; wide: boolean } {
  const room = bytes - Buffer.byteLength(json);
  const empty = json === '{}';
  const overhead = Buffer.byteLength(`"${PAD_MEMBER}":""`) + (empty ? 0 : 1);
  const n = wide && json.startsWith('{') && room >= overhead + 3 ? Math.floor((room - overhead) / 3) : 0;
  const body = n > 0 ? `{"${PAD_MEMBER}":"${'\u20ac'.repeat(n)}"${empty ? '' : ','}${json.slice(1)}` : json;
  const raw = body + ' '.repeat(Math.max(0, bytes - Buffer.byteLength(body)));
  return { raw, chars: [...raw].length, wide: n > 0 };
}

/** Undefined when `res` is the declared body_too_large answer, else what differs. */
function expectTooLarge(ctx: TestContext, res: TestResponse): string | undefined {
  const why = ctx.expectCondition(res, 'body_too_large');
  return why !== undefined || res.status < 300 ? `${why ?? ''}; ${describe(res)}` : undefined;
}

function tooLargeFailure(
  ctx: TestContext,
  operation: string,
  text: string,
  bytes: number,
  over: ReturnType<typeof overLimitBody>,
  req: TestRequest,
  why: string,
): ReturnType<TestContext['failure']> & { curl: string } {
  const d = ctx.declared('body_too_large');
  return {
    ...ctx.failure(
      operation,
      `${d?.code ?? 'body_too_large'} for a body one byte over ${text}${over.wide ? ` (${bytes} bytes in UTF-8, ${over.chars} characters)` : ''}`,
      d?.pointer ?? '/limits/body_size',
      req,
      why,
    ),
    curl: over.wide
      ? `# a ${bytes}-byte body of ${over.chars} characters: valid JSON with a member of three-byte characters (€), padded with spaces\n${ctx.client.curl(req)}`
      : `# a ${bytes}-byte body: valid JSON padded with ${over.raw.length - over.raw.trimEnd().length} spaces\n${ctx.client.curl(req)}`,
  };
}

export async function checkLimits(ctx: TestContext): Promise<void> {
  const limits = ctx.model.limits;
  // Body size.
  const bodyRoute = ctx.routes.find((r) => r.operation.action === 'create' && r.resource);
  const bodySize = limits?.bodySize;
  if (!bodySize) ctx.skip('limits', 'limits.body-size', 'body_size', 'the spec does not show a body size limit (not shown)');
  else if (!bodyRoute) ctx.skip('limits', 'limits.body-size', 'body_size', 'no create operation to send a body to');
  else {
    const o = bodyRoute.operation;
    const where = ctx.model.limits ? `/limits/body_size` : undefined;
    await ctx.check('limits', 'limits.body-size', `${o.id} at ${bodySize.text}`, async (scope) => {
      const headers = await ctx.authFor(o.auth);
      if (!headers) return scope.skip('no credential for the create operation');
      const json = JSON.stringify(await ctx.sampleCreateBody(bodyRoute.resource!));
      const pad = bodySize.bytes - Buffer.byteLength(json);
      if (pad < 0) return scope.skip('a valid body is already larger than the limit');
      const at: TestRequest = { method: o.method, path: ctx.pathOf(bodyRoute), headers, raw: json + ' '.repeat(pad) };
      const resAt = await ctx.send(bodyRoute, at);
      if (!isSuccessAnswer(bodyRoute, resAt.status))
        return scope.fail({
          ...ctx.failure(o.id, `a body of exactly ${bodySize.text} (${bodySize.bytes} bytes) accepted`, where, at, resAt),
          curl: `# a ${bodySize.bytes}-byte body: valid JSON padded with ${pad} spaces\n${ctx.client.curl(at)}`,
        });
      ctx.remember(bodyRoute.resource!, resAt.body as Record<string, unknown>);
      // One byte over: padded with spaces, then with a member of three-byte characters (over in bytes, far under in
      // characters: a service counting characters takes it, whatever it answers the member).
      for (const wide of [false, true]) {
        const over = overLimitBody(JSON.stringify(await ctx.sampleCreateBody(bodyRoute.resource!)), bodySize.bytes + 1, wide);
        if (wide && !over.wide) break;
        const overReq: TestRequest = { method: o.method, path: ctx.pathOf(bodyRoute), headers, raw: over.raw };
        const why = expectTooLarge(ctx, await ctx.send(bodyRoute, overReq));
        if (why !== undefined) return scope.fail(tooLargeFailure(ctx, o.id, bodySize.text, bodySize.bytes + 1, over, overReq, why));
      }
    });
    // The limit holds for every body, not a create's only: an update's or a replace's too (one of the create's
    // resource first, else any), sent to an object the run made.
    const change =
      ctx.routes.find((r) => (r.operation.action === 'update' || r.operation.action === 'replace') && r.resource === bodyRoute.resource && r.hasBody) ??
      ctx.routes.find((r) => (r.operation.action === 'update' || r.operation.action === 'replace') && r.resource && r.hasBody);
    if (change)
      await ctx.check('limits', 'limits.body-size', `${change.operation.id} at ${bodySize.text}`, async (scope) => {
        const headers = await ctx.authFor(change.operation.auth);
        if (!headers) return scope.skip(`no credential for ${change.operation.id}`);
        const target = await ctx.ensureObject(change.resource!);
        if (!target) return scope.skip(`no ${change.resource!.name} could be made to change`);
        const id = objectKey(change.resource!, target);
        const json = JSON.stringify(await ctx.validBody(change, id));
        if (Buffer.byteLength(json) > bodySize.bytes) return scope.skip('a valid body is already larger than the limit');
        const over = overLimitBody(json, bodySize.bytes + 1);
        // The operation's stated media type (a merge patch), so that only the size can be refused.
        const type = change.operation.requestMediaType ?? 'application/json';
        const req: TestRequest = { method: change.method, path: ctx.pathOf(change, id), headers: { ...headers, 'content-type': type }, raw: over.raw };
        const why = expectTooLarge(ctx, await ctx.send(change, req));
        if (why !== undefined) scope.fail(tooLargeFailure(ctx, change.operation.id, bodySize.text, bodySize.bytes + 1, over, req, why));
      });
  }
  // Page size.
  // Any list asked for its page size (limit, per_page), read by its own shape: lists that state their paging too.
  // Each list's page sizes as they apply to it: its own paging.page_size over limits.page_size.
  const sizedLists = ctx.routes.filter((r) => r.operation.action === 'list' && r.resource && getPageSizeParam(r) !== undefined);
  const sizeOf = (r: OperationRoute) => getPageSize(ctx.model, r.operation);
  // Made by a create, or by an upsert's PUT where there is none.
  const creatable = sizedLists.filter((r) => ctx.createRoute(r.resource!.name) ?? ctx.upsertRoute(r.resource!.name));
  const listRoute = creatable.find((r) => sizeOf(r).default !== undefined) ?? creatable[0];
  const page = listRoute ? sizeOf(listRoute) : getPageSize(ctx.model);
  // Nothing to hold a list to where the spec states neither a default nor a maximum page size.
  if (page.default === undefined && page.max === undefined && !sizedLists.some((r) => sizeOf(r).max !== undefined))
    ctx.skip('limits', 'limits.page-size', 'page_size', 'the spec does not show a page size limit (not shown)', 'not-applicable');
  else if (!listRoute) ctx.skip('limits', 'limits.page-size', 'page_size', 'no paged list operation whose resource can be created');
  else {
    const o = listRoute.operation;
    const resource = listRoute.resource!;
    await ctx.check('limits', 'limits.page-size', `${o.id} default ${page.default ?? NOT_SHOWN}`, async (scope) => {
      if (page.default === undefined) return scope.skip('the spec does not show a default page size (not shown)');
      const headers = await ctx.authFor(o.auth);
      if (!headers) return scope.skip('no credential for the list operation');
      const probe: TestRequest = { method: 'GET', path: ctx.pathOf(listRoute), headers };
      let res = await ctx.send(listRoute, probe);
      const shown = (res.status === 200 ? getPageItems(listRoute, res.body) : undefined)?.length ?? 0;
      // A cursor page with a next cursor says more exist; any other shape is filled until it must.
      if (res.status === 200 && (isDefaultPaging(listRoute) ? !res.body?.[PAGE_FIELDS.next] : shown <= page.default)) {
        for (let i = shown; i <= page.default; i++) {
          const c = await ctx.createObject(resource);
          if (!c || c.res.status >= 300) return scope.skip(`cannot create ${resource.name} objects to fill a page`);
        }
      }
      res = await ctx.send(listRoute, probe);
      const n = (res.status === 200 ? getPageItems(listRoute, res.body) : undefined)?.length ?? -1;
      if (res.status !== 200 || n !== page.default)
        return scope.fail(
          ctx.failure(
            o.id,
            `${page.default} items by default (page_size.default) when more exist`,
            page.pointers.default,
            probe,
            `${n} items; ${describe(res).slice(0, 200)}`,
          ),
        );
    });
    // The maximum on every list asked for its page size (two requests each, no objects made): one list honouring it
    // says nothing of another's handler. Under a tight rate budget, the first list only.
    const maxRoutes = isThrifty(ctx.model) ? [listRoute] : [listRoute, ...sizedLists.filter((r) => r !== listRoute)];
    for (const listRoute of maxRoutes) {
      const o = listRoute.operation;
      const page = sizeOf(listRoute);
      await ctx.check('limits', 'limits.page-size', `${o.id} max ${page.max ?? NOT_SHOWN}`, async (scope) => {
        if (page.max === undefined) return scope.skip('the spec does not show a maximum page size (not shown)');
        const headers = await ctx.authFor(o.auth);
        if (!headers) return scope.skip('no credential for the list operation');
        const sizeParam = getPageSizeParam(listRoute)!;
        const atMax: TestRequest = { method: 'GET', path: ctx.pathOf(listRoute, undefined, { [sizeParam]: String(page.max) }), headers };
        const r1 = await ctx.send(listRoute, atMax);
        if (r1.status !== 200) return scope.fail(ctx.failure(o.id, `${sizeParam}=${page.max} (the maximum) accepted`, page.pointers.max, atMax, r1));
        const over: TestRequest = { method: 'GET', path: ctx.pathOf(listRoute, undefined, { [sizeParam]: String(page.max + 1) }), headers };
        const r2 = await ctx.send(listRoute, over);
        if (page.overMax === 'clamp') {
          let items = r2.status === 200 ? getPageItems(listRoute, r2.body) : undefined;
          if (!items || items.length > page.max)
            return scope.fail(ctx.failure(o.id, `${sizeParam}=${page.max + 1} clamped to ${page.max}`, page.pointers.overMax, over, r2));
          // Clamped to the maximum, not to less: with more objects than it, a full page of exactly the maximum.
          const shown = getPageItems(listRoute, r1.body)?.length ?? 0;
          if (shown < page.max) {
            // Objects made until more exist than the maximum (a nested list's parent is not made here).
            if (listRoute.pathParams.length > 0) return;
            for (let i = shown; i <= page.max; i++) {
              const c = await ctx.createObject(listRoute.resource!);
              if (!c || c.res.status >= 300) return;
            }
          }
          const r3 = await ctx.send(listRoute, over);
          items = r3.status === 200 ? getPageItems(listRoute, r3.body) : undefined;
          if (!items || items.length !== page.max)
            scope.fail(
              ctx.failure(
                o.id,
                `${sizeParam}=${page.max + 1} clamped to ${page.max}: ${page.max} items when more exist`,
                page.pointers.overMax,
                over,
                `${items?.length ?? 'no'} items; ${describe(r3).slice(0, 200)}`,
              ),
            );
          return;
        }
        if (page.overMax !== 'reject') return scope.skip('the spec does not show what a page size over the maximum gets (over_max not shown)');
        const why = ctx.expectCondition(r2, 'validation');
        if (why !== undefined || r2.status < 300)
          scope.fail(
            ctx.failure(
              o.id,
              `${ctx.declared('validation')?.code ?? 'validation'} for ${sizeParam}=${page.max + 1} (over_max: reject)`,
              page.pointers.overMax,
              over,
              `${why ?? ''}; ${describe(r2)}`,
            ),
          );
      });
    }
  }
  // Rate-limit headers on every limited answer.
  if ((limits?.rate ?? []).length === 0) ctx.skip('limits', 'limits.rate-headers', 'rate', 'the spec declares no rate limit');
  else {
    for (const route of ctx.routes.filter((r) => r.operation.action === 'read' || r.operation.action === 'list')) {
      await ctx.check('limits', 'limits.rate-headers', route.operation.id, async (scope) => {
        const headers = await ctx.authFor(route.operation.auth);
        if (!headers) return scope.skip('no credential for this operation');
        let id: unknown;
        if (ctx.idParams(route).length > 0) {
          const obj = route.resource ? await ctx.ensureObject(route.resource) : undefined;
          if (!obj) return scope.skip('no object to read');
          id = objectKey(route.resource!, obj);
        }
        const req: TestRequest = { method: 'GET', path: ctx.pathOf(route, id), headers };
        const res = await ctx.send(route, req);
        const why = rateHeadersMismatch(ctx, route, res);
        if (why !== undefined)
          scope.fail(
            ctx.failure(
              route.operation.id,
              'RateLimit-Policy and RateLimit headers naming the declared policies',
              '/limits/rate',
              req,
              `${why}; ${describe(res).slice(0, 200)}`,
            ),
          );
      });
    }
  }
}

/** With --rate-limits: a burst until the declared limit refuses. */
export async function checkRateLimit(ctx: TestContext): Promise<void> {
  const rates = ctx.model.limits?.rate ?? [];
  if (rates.length === 0) return;
  if (!ctx.options.rateLimits) {
    ctx.skip('limits', 'limits.rate-limit', 'rate', 'not asked for: --rate-limits spends the declared budget');
    return;
  }
  const route =
    ctx.routes.find((r) => r.operation.action === 'list' && r.operation.auth?.kind === 'required') ?? ctx.routes.find((r) => r.operation.action === 'list');
  if (!route) {
    ctx.skip('limits', 'limits.rate-limit', 'rate', 'no list operation to spend the budget on');
    return;
  }
  const o = route.operation;
  const policy = rates.filter((r) => !r.operations || r.operations.includes(o.id)).sort((a, b) => a.requests - b.requests)[0];
  if (!policy) return;
  await ctx.check('limits', 'limits.rate-limit', `${o.id}: ${policy.name ?? 'rate'} ${policy.requests} per ${policy.per.text}`, async (scope) => {
    const headers = await ctx.authFor(o.auth);
    if (!headers) return scope.skip('no credential for the list operation');
    const req: TestRequest = { method: 'GET', path: ctx.pathOf(route, undefined, pageSizeQuery(route, '1')), headers };
    ctx.client.rawRateLimits = true;
    try {
      let admitted = 0;
      let refused: TestResponse | undefined;
      const started = ctx.client.clock.now();
      for (let sent = 0; sent < policy.requests * 2 + 20 && !refused; sent += 10) {
        const batch = await Promise.all(Array.from({ length: 10 }, () => ctx.send(route, req)));
        for (const r of batch) {
          if (r.status === 429) refused ??= r;
          else if (r.status < 300) admitted++;
        }
      }
      if (!refused)
        return scope.fail(
          ctx.failure(
            o.id,
            `${ctx.declared('rate_limited')?.code ?? 'rate_limited'} once ${policy.requests} requests per ${policy.per.text} are spent`,
            policy.pointer,
            req,
            `${admitted} requests admitted, none refused`,
          ),
        );
      // The budget refills while the burst is sent: that share is admitted too.
      const refill = Math.ceil(((ctx.client.clock.now() - started) * policy.requests) / policy.per.ms);
      if (admitted > policy.requests + refill)
        return scope.fail(
          ctx.failure(
            o.id,
            `at most ${policy.requests} requests per ${policy.per.text} admitted`,
            policy.pointer,
            req,
            `${admitted} admitted before the first refusal (${refill} more could have refilled meanwhile)`,
          ),
        );
      const why = ctx.expectCondition(refused, 'rate_limited');
      if (why !== undefined)
        return scope.fail(
          ctx.failure(
            o.id,
            `${ctx.declared('rate_limited')?.code ?? 'rate_limited'} when the budget is spent`,
            ctx.declared('rate_limited')?.pointer,
            req,
            `${why}; ${describe(refused)}`,
          ),
        );
      const retry = refused.headers.get('retry-after');
      if (retry === null || !/^[0-9]+$/.test(retry))
        return scope.fail(ctx.failure(o.id, 'Retry-After (seconds) on a refusal', policy.pointer, req, `Retry-After: ${String(retry)}`));
      const h = rateHeadersMismatch(ctx, route, refused);
      if (h !== undefined) scope.fail(ctx.failure(o.id, 'RateLimit and RateLimit-Policy on a refusal', policy.pointer, req, h));
    } finally {
      ctx.client.rawRateLimits = false;
    }
  });
}
