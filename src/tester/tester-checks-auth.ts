import { getRoutes, isSuccessAnswer, type OperationRoute, type WebhooksRoute } from '../model/model-routes.js';
import { getLargestPageSize, getPageItems, pageSizeQuery } from './tester-checks-lists.js';
import { objectKey } from './tester-context.js';
import type { TestRequest } from './tester-http.js';
import { describe, type TestContext } from './tester-context.js';

// The authentication part: no credential, a bad one, one lacking each required scope, on every operation that
// requires one; ownership: another subject cannot read, list, change or watch what belongs to the main subject.

/** A request to a route that is well-formed apart from its credential. */
async function requestFor(ctx: TestContext, route: OperationRoute, headers: Record<string, string>): Promise<TestRequest | undefined> {
  let id: unknown;
  if (ctx.idParams(route).length > 0 && !route.resource) {
    // An action on one object below a read's path (`POST /tasks/{taskId}/complete`): an object the run made.
    const named = await ctx.itemPathValues(route);
    if (!named || ctx.idParams(route).some((p) => named[p] === undefined)) return undefined;
    const req: TestRequest = { method: route.method, path: ctx.pathOf(route, undefined, {}, named), headers };
    if (route.hasBody) req.body = await ctx.validBody(route, undefined);
    return req;
  }
  if (ctx.idParams(route).length > 0 && route.resource) {
    const obj = await ctx.ensureObject(route.resource);
    if (!obj) return undefined;
    id = objectKey(route.resource, obj);
  }
  const req: TestRequest = { method: route.method, path: ctx.pathOf(route, id), headers };
  if (route.hasBody) req.body = await ctx.validBody(route, id);
  return req;
}

/**
 * Bearer JWTs forged from a token the service issued (`headers.authorization`), each with its claims unchanged: the
 * signature altered (one bit), and the token unsigned (`alg: none`, RFC 7519 §6). None when the credential is no JWT.
 */
export function getForgedTokens(headers: Record<string, string>): { label: string; headers: Record<string, string> }[] {
  const m = /^Bearer\s+([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(headers.authorization ?? '');
  if (!m) return [];
  let header: unknown;
  try {
    header = JSON.parse(Buffer.from(m[1]!, 'base64url').toString('utf8'));
  } catch {
    return [];
  }
  if (typeof header !== 'object' || header === null || typeof (header as { alg?: unknown }).alg !== 'string') return [];
  const signature = Buffer.from(m[3]!, 'base64url');
  if (signature.length === 0) return [];
  signature[Math.floor(signature.length / 2)]! ^= 0x01;
  const unsigned = Buffer.from(JSON.stringify({ ...header, alg: 'none' })).toString('base64url');
  return [
    {
      label: 'a token of its own with the signature altered',
      headers: { ...headers, authorization: `Bearer ${m[1]}.${m[2]}.${signature.toString('base64url')}` },
    },
    { label: 'a token of its own, unsigned (alg none)', headers: { ...headers, authorization: `Bearer ${unsigned}.${m[2]}.` } },
  ];
}

function badCredential(ctx: TestContext, schemes: readonly string[]): Record<string, string> {
  const s = ctx.model.authentication?.schemes.find((x) => schemes.includes(x.name));
  if (s?.type === 'api_key' && s.credentialName !== undefined) return { [s.credentialName]: `${s.prefix ?? ''}not-a-real-key-0000000000000000` };
  if (s?.type === 'basic') return { authorization: `Basic ${Buffer.from('nobody:wrong-password').toString('base64')}` };
  return { authorization: 'Bearer not.a.token' };
}

export async function checkAuth(ctx: TestContext): Promise<void> {
  const limitedScopes = new Set(ctx.options.limitedScopes ?? []);
  for (const route of ctx.routes) {
    const o = route.operation;
    const auth = o.auth;
    if (auth?.kind !== 'required') continue;
    await ctx.check('authentication', 'authentication.no-credential', o.id, async (scope) => {
      const req = await requestFor(ctx, route, {});
      if (!req) return scope.skip(ctx.noObject(route.resource));
      const res = await ctx.send(route, req);
      const why = ctx.expectRefusal(res, route, 'missing_credential');
      if (why !== undefined)
        scope.fail(
          ctx.failure(
            o.id,
            `${ctx.refusal(route, 'missing_credential')?.label ?? 'a refusal (missing_credential)'} without a credential`,
            o.pointer,
            req,
            `${why}; ${describe(res)}`,
          ),
        );
    });
    await checkEachScheme(ctx, route);
    if (auth.scopes.length === 0) continue;
    await ctx.check('authentication', 'authentication.missing-scope', o.id, async (scope) => {
      const lacking = auth.scopes.filter((s) => !limitedScopes.has(s));
      if (lacking.length === 0) return scope.skip(`the limited credential holds every scope ${o.id} requires (${auth.scopes.join(', ')})`);
      const headers = await ctx.authFor(auth, ctx.limited);
      if (!headers)
        return scope.skip(
          `no credential lacking ${lacking.join(', ')} for scheme ${auth.schemes.join(' or ')} (give one with --limited-header/--limited-bearer/--limited-basic/--limited-client-id, and --limited-scopes)`,
        );
      const req = await requestFor(ctx, route, headers);
      if (!req) return scope.skip('no object to address');
      const res = await ctx.send(route, req);
      const why = ctx.expectCondition(res, 'missing_scope');
      if (why !== undefined)
        scope.fail(
          ctx.failure(
            o.id,
            `${ctx.declared('missing_scope')?.code ?? 'missing_scope'}: the credential lacks ${lacking.join(', ')}`,
            o.pointer,
            req,
            `${why}; ${describe(res)}`,
          ),
        );
    });
  }
  await checkRegistrationAuth(ctx);
  await checkOwnership(ctx);
}

/**
 * The webhook registration (events.delivery.webhook.path) is authenticated like the operations, with the scopes
 * `events.delivery.webhook.scopes` names: a registration without a credential is refused `missing_credential`, and
 * one by the limited credential lacking those scopes `missing_scope`. The URL registered goes nowhere (port 9, discard);
 * an endpoint a faulty service keeps is removed after.
 */
async function checkRegistrationAuth(ctx: TestContext): Promise<void> {
  const routes = getRoutes(ctx.model);
  const add = routes.find((r): r is WebhooksRoute => r.kind === 'webhooks' && r.action === 'add');
  const remove = routes.find((r): r is WebhooksRoute => r.kind === 'webhooks' && r.action === 'remove');
  const auth = add?.auth;
  if (!add || auth?.kind !== 'required') return;
  const target = `webhook registration (POST ${add.path})`;
  const send = async (headers: Record<string, string>, condition: 'missing_credential' | 'missing_scope', expected: string) => {
    const req: TestRequest = { method: 'POST', path: ctx.fillVersion(add.path), headers, body: { url: 'http://127.0.0.1:9/servicespec-test' } };
    const res = await ctx.send(undefined, req);
    if (isSuccessAnswer(add, res.status) && remove && res.body?.id !== undefined) {
      const owner = condition === 'missing_scope' ? headers : await ctx.authFor(auth);
      await ctx
        .send(undefined, {
          method: 'DELETE',
          path: ctx.fillVersion(remove.path).replace(/\{[^{}]*\}$/, encodeURIComponent(String(res.body.id))),
          headers: owner ?? headers,
        })
        .catch(() => undefined);
    }
    const why = ctx.declared(condition) ? ctx.expectCondition(res, condition) : undefined;
    return why === undefined ? undefined : ctx.failure('webhook registration', expected, '/events/delivery/webhook', req, `${why}; ${describe(res)}`);
  };
  await ctx.check('authentication', 'authentication.no-credential', target, async (scope) => {
    const f = await send({}, 'missing_credential', `${ctx.declared('missing_credential')?.code ?? 'missing_credential'} without a credential`);
    if (f) scope.fail(f);
  });
  if (auth.scopes.length === 0) return;
  await ctx.check('authentication', 'authentication.missing-scope', target, async (scope) => {
    const limitedScopes = new Set(ctx.options.limitedScopes ?? []);
    const lacking = auth.scopes.filter((x) => !limitedScopes.has(x));
    if (lacking.length === 0) return scope.skip(`the limited credential holds every scope the registration requires (${auth.scopes.join(', ')})`);
    const headers = await ctx.authFor(auth, ctx.limited);
    if (!headers)
      return scope.skip(
        `no credential lacking ${lacking.join(', ')} for scheme ${auth.schemes.join(' or ')} (give one with --limited-header/--limited-bearer/--limited-basic/--limited-client-id, and --limited-scopes)`,
      );
    const f = await send(headers, 'missing_scope', `${ctx.declared('missing_scope')?.code ?? 'missing_scope'}: the credential lacks ${lacking.join(', ')}`);
    if (f) scope.fail(f);
  });
}

/**
 * The main subject's own API key with its last character changed: a service comparing a prefix of the key (a lookup
 * by a key id without the secret compared, a truncated comparison) takes it. Undefined where the route takes no key
 * the main subject holds.
 */
function getNearMissKey(
  ctx: TestContext,
  schemes: readonly string[],
  own: Record<string, string>,
): { label: string; headers: Record<string, string> } | undefined {
  const changed = (key: string) => {
    const last = key[key.length - 1]!;
    return key.slice(0, -1) + (/[0-9]/.test(last) ? (last === '0' ? '1' : '0') : last === 'a' ? 'b' : 'a');
  };
  for (const s of ctx.model.authentication?.schemes ?? []) {
    if (!schemes.includes(s.name)) continue;
    // HTTP Basic: the main subject's own user name with its password's last character changed, so a service that
    // looks the user up and never compares the password is caught (a user no one has, the other case, is not).
    if (s.type === 'basic') {
      const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(own.authorization ?? '');
      const pair = m ? Buffer.from(m[1]!, 'base64').toString('utf8') : '';
      const colon = pair.indexOf(':');
      if (colon < 0 || colon === pair.length - 1) continue;
      const wrong = `${pair.slice(0, colon)}:${changed(pair.slice(colon + 1))}`;
      return {
        label: "its own user with the password's last character changed",
        headers: { ...own, authorization: `Basic ${Buffer.from(wrong).toString('base64')}` },
      };
    }
    if (s.type !== 'api_key' || s.credentialName === undefined) continue;
    const name = Object.keys(own).find((k) => k.toLowerCase() === s.credentialName!.toLowerCase());
    const key = name !== undefined ? own[name] : undefined;
    if (name === undefined || key === undefined || key.length === 0) continue;
    return { label: 'its own API key with the last character changed', headers: { ...own, [name]: changed(key) } };
  }
  return undefined;
}

/**
 * A credential of a scheme the operation does not take, in the header its own scheme's credential travels in: a
 * Bearer token where only HTTP Basic is taken (or an API key named `Authorization`). The request holds no credential
 * the operation takes, so it is refused; a service honouring a Bearer token of any kind beside its Basic scheme (a
 * middleware left on for another client) passed every other case.
 */
function getOtherSchemeCredential(ctx: TestContext, schemes: readonly string[]): Record<string, string> | undefined {
  const taken = (ctx.model.authentication?.schemes ?? []).filter((s) => schemes.includes(s.name));
  if (taken.length === 0) return undefined;
  const inAuthorization = (s: (typeof taken)[number]) =>
    s.type === 'basic' || (s.type === 'api_key' && s.credentialName?.toLowerCase() === 'authorization' && (s.prefix ?? '').trim().toLowerCase() !== 'bearer');
  if (!taken.every(inAuthorization)) return undefined;
  return { authorization: 'Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJub2JvZHkifQ.bm90LWEtc2lnbmF0dXJl' };
}

/**
 * An operation that takes any of several schemes (`auth: [api_key, bearer]`) takes each: where the run holds the main
 * subject's credential for two or more of them, a request with each alone is not refused as unauthenticated (401) or
 * forbidden (403). Every other check sends the first credential it holds, so a service honouring only that one passed.
 * Not run, and not listed, where the run holds one.
 */
async function checkEachScheme(ctx: TestContext, route: OperationRoute): Promise<void> {
  const auth = route.operation.auth;
  if (auth?.kind !== 'required' || auth.schemes.length < 2) return;
  const held = auth.schemes.filter((s) => ctx.main.has([s]));
  if (held.length < 2) return;
  const o = route.operation;
  await ctx.check('authentication', 'authentication.each-scheme', o.id, async (scope) => {
    for (const s of held) {
      const headers = await ctx.main.headersFor([s]);
      if (!headers) continue;
      const req = await requestFor(ctx, route, headers);
      if (!req) return scope.skip(ctx.noObject(route.resource));
      const res = await ctx.send(route, req);
      if (res.status === 401 || res.status === 403)
        return scope.fail(
          ctx.failure(o.id, `taken with the ${s} credential alone (${o.id} takes ${auth.schemes.join(' or ')})`, o.pointer, req, describe(res)),
        );
    }
  });
}

/**
 * A credential the service never issued, per operation → `invalid_credential`. These spend the service's
 * failed-credential budget (limits.failed_auth), so they run last; when the budget is spent (the declared
 * `rate_limited` answer, by an earlier run or by this one), its Retry-After is waited out — within the time
 * limit, and said in the report — rather than the check skipped.
 */
export async function checkBadCredentials(ctx: TestContext): Promise<void> {
  const bound = ctx.model.limits?.failedAuth;
  const budget = bound ? `limits.failed_auth: ${bound.attempts} per ${bound.per.text}` : 'limits.failed_auth not shown';
  // A bearer token forged from the main subject's own (a JWT): its signature altered, and unsigned (alg none). Tried
  // on the first operation of each credential, since each spends the failed-credential budget too.
  const forgedFor = new Set<string>();
  const cases: { route: OperationRoute; label: string; headers: Record<string, string> }[] = [];
  for (const route of ctx.routes) {
    const auth = route.operation.auth;
    if (auth?.kind !== 'required') continue;
    cases.push({ route, label: route.operation.id, headers: badCredential(ctx, auth.schemes) });
    // The main subject's credential as every other check had it (a token it could not get forges nothing).
    const own = await ctx.authFor(auth).catch(() => undefined);
    const near = own ? getNearMissKey(ctx, auth.schemes, own) : undefined;
    if (near && !forgedFor.has(JSON.stringify(near.headers))) {
      forgedFor.add(JSON.stringify(near.headers));
      cases.push({ route, label: `${route.operation.id}: ${near.label}`, headers: near.headers });
    }
    const other = getOtherSchemeCredential(ctx, auth.schemes);
    const otherKey = `other scheme: ${auth.schemes.join(' ')}`;
    if (other && !forgedFor.has(otherKey)) {
      forgedFor.add(otherKey);
      cases.push({ route, label: `${route.operation.id}: a Bearer token (a scheme it does not take)`, headers: other });
    }
    const forged = own ? getForgedTokens(own) : [];
    if (forged.length === 0 || forgedFor.has(own!.authorization!)) continue;
    forgedFor.add(own!.authorization!);
    for (const f of forged) cases.push({ route, label: `${route.operation.id}: ${f.label}`, headers: f.headers });
  }
  for (const { route, label, headers } of cases) {
    const o = route.operation;
    await ctx.check('authentication', 'authentication.bad-credential', label, async (scope) => {
      const unprepared = await requestFor(ctx, route, headers);
      if (!unprepared) return scope.skip(ctx.noObject(route.resource));
      // Sent as the route takes it (a form, a merge patch's type), so only the credential is wrong: the first
      // request and each sent again after a 429 alike.
      const req = ctx.prepare(route, unprepared);
      const raw = ctx.client.rawRateLimits;
      ctx.client.rawRateLimits = true;
      let res;
      try {
        // A 429 here is the budget, waited out as the client waits out any other (not judged as an answer).
        res = await ctx.client.send(req);
        for (let i = 0; i < 3 && res.status === 429; i++) {
          await ctx.waitOut(
            Number(res.headers.get('retry-after') ?? '') || 1,
            `the service's failed-credential budget (${budget}) was spent, by an earlier run or by this one's bad-credential checks`,
          );
          res = await ctx.client.send(req);
        }
      } finally {
        ctx.client.rawRateLimits = raw;
      }
      ctx.judge(route, req, res);
      const why = ctx.expectRefusal(res, route, 'invalid_credential');
      if (why !== undefined)
        scope.fail(
          ctx.failure(
            o.id,
            `${ctx.refusal(route, 'invalid_credential')?.label ?? 'a refusal (invalid_credential)'} for a credential the service never issued`,
            o.pointer,
            req,
            `${why}; ${describe(res)}`,
          ),
        );
    });
  }
}

async function checkOwnership(ctx: TestContext): Promise<void> {
  for (const resource of ctx.model.resources.filter((r) => r.owner !== undefined)) {
    const routes = ctx.routes.filter((r) => r.resource?.name === resource.name && r.operation.action !== 'create' && r.operation.auth?.kind === 'required');
    for (const route of routes) {
      const o = route.operation;
      await ctx.check('authentication', 'authentication.ownership', o.id, async (scope) => {
        const other = await ctx.authFor(o.auth, ctx.other);
        if (!other) return scope.skip('no second subject (give one with --other-header/--other-bearer/--other-basic/--other-client-id)');
        const made = await ctx.createObject(resource);
        if (!made || made.res.status >= 300) return scope.skip(`cannot create a ${resource.name} as the main subject`);
        const id = made.res.body[resource.identifier ?? 'id'];
        if (o.action === 'list') {
          // Read in the list's own shape and page size parameter (a `{data, total}` page by `limit`, a bare array by
          // `per_page`), not only the format's default page.
          const req: TestRequest = {
            method: 'GET',
            path: ctx.pathOf(route, undefined, pageSizeQuery(route, String(getLargestPageSize(ctx, o)))),
            headers: other,
          };
          const res = await ctx.send(route, req);
          const items = res.status === 200 ? (getPageItems(route, res.body) as Record<string, unknown>[] | undefined) : undefined;
          if (items?.some((x) => x[resource.identifier ?? 'id'] === id || x[resource.owner!] === made.res.body[resource.owner!])) {
            return scope.fail(ctx.failure(o.id, `another subject's list leaves out the main subject's ${resource.name}`, resource.pointer, req, describe(res)));
          }
          return;
        }
        const condition = resource.ownerAccess === 'forbidden' ? 'not_owner' : 'missing_resource';
        const req: TestRequest = { method: route.method, path: ctx.pathOf(route, id), headers: other };
        if (route.hasBody) req.body = await ctx.validBody(route, id);
        const res = await ctx.send(route, req);
        const why = ctx.expectCondition(res, condition);
        if (why !== undefined || res.status < 300)
          scope.fail(
            ctx.failure(
              o.id,
              `${ctx.declared(condition)?.code ?? condition}: ${resource.name} ${String(id)} belongs to another subject (owner_access: ${resource.ownerAccess})`,
              resource.pointer,
              req,
              `${why ?? ''}; ${describe(res)}`,
            ),
          );
      });
    }
  }
}
