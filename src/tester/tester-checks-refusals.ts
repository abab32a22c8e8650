import { isSuccessAnswer, getRoutes, type OperationRoute, type Route } from '../model/model-routes.js';
import { objectKey } from './tester-context.js';
import type { Condition } from '../spec/spec-types.js';
import { describe, routeMatchers, type TestContext } from './tester-context.js';
import type { TestRequest, TestResponse } from './tester-http.js';
import { isThrifty } from './tester-pacing.js';

// Requests no operation takes, sent on purpose on every run rather than met by chance: each path the spec serves
// with the methods it does not take (method_not_allowed, with Allow), paths that name no operation
// (route_not_found), and a request header section over the declared limit (headers_too_large).

/** The methods tried on a path that does not take them (HEAD and OPTIONS are left out: servers answer them for GET and CORS). */
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** The request header the header-size check pads. */
export const PADDING_HEADER = 'X-Servicespec-Padding';
/** Where the spec shows no header size: a header section this large is either served or refused with the declared answer. */
export const UNDECLARED_HEADER_PROBE = 32 * 1024;

/** Per served path template: a route to address it by (its GET where it has one), its operations and every method served there. */
function getPaths(ctx: TestContext): { route: OperationRoute; operations: string[]; methods: Set<string> }[] {
  const all = getRoutes(ctx.model);
  const out = new Map<string, { route: OperationRoute; operations: string[]; methods: Set<string> }>();
  for (const r of ctx.routes) {
    if (out.has(r.path)) continue;
    const mine = ctx.routes.filter((x) => x.path === r.path);
    out.set(r.path, {
      route: mine.find((x) => x.method === 'GET') ?? r,
      operations: mine.map((x) => x.operation.id),
      methods: new Set(all.filter((x) => x.path === r.path).map((x) => x.method)),
    });
  }
  return [...out.values()];
}

/** Whether some route (of any kind) takes `method` on the concrete `path`. */
function takes(matchers: readonly { route: Route; re: RegExp }[], method: string, path: string): boolean {
  const p = new URL(path.split('?')[0] ?? '', 'http://127.0.0.1').pathname;
  return matchers.some((m) => m.route.method === method && m.re.test(p));
}

/** The headers of the main subject for `route`, and its path with an object of the main subject's where it names one. */
async function addressOf(ctx: TestContext, route: OperationRoute): Promise<{ headers: Record<string, string>; path: string } | string> {
  const headers = await ctx.authFor(route.operation.auth);
  if (!headers) return 'no credential for this operation';
  const ids = ctx.idParams(route);
  if (ids.length === 0) return { headers, path: ctx.pathOf(route) };
  if (!route.resource) return { headers, path: ctx.pathOf(route, undefined, {}, Object.fromEntries(ids.map((n) => [n, 'servicespec']))) };
  const obj = await ctx.ensureObject(route.resource);
  if (!obj) return ctx.noObject(route.resource);
  return { headers, path: ctx.pathOf(route, objectKey(route.resource, obj)) };
}

/** Undefined when `res` is the declared answer to `condition` (a success is never that), else what differs. */
function expectRefusal(ctx: TestContext, res: TestResponse, condition: Condition): string | undefined {
  return res.status < 300 ? `status ${res.status}: the request was served` : ctx.expectCondition(res, condition);
}

export async function checkRefusals(ctx: TestContext): Promise<void> {
  const matchers = routeMatchers(getRoutes(ctx.model));

  // Methods a path does not take: the declared method_not_allowed answer, with an Allow header naming the
  // methods it does take (RFC 9110 §15.5.6: a 405 MUST carry Allow).
  for (const { route, operations, methods } of getPaths(ctx)) {
    await ctx.check('endpoints', 'endpoints.method-not-allowed', `${route.path} (${operations.join(', ')})`, async (scope) => {
      const d = ctx.declared('method_not_allowed');
      if (!d) return scope.skip('the spec declares no error code for method_not_allowed (not shown)');
      const at = await addressOf(ctx, route);
      if (typeof at === 'string') return scope.skip(at);
      const others = METHODS.filter((m) => !methods.has(m) && !takes(matchers, m, at.path));
      if (others.length === 0) return scope.skip(`${route.path} takes every method the tester tries (${METHODS.join(', ')})`);
      // Under a tight rate budget, one method per path (rotated by seed).
      const tried = isThrifty(ctx.model) ? [others[ctx.seed % others.length]!] : others;
      for (const method of tried) {
        const req: TestRequest = { method, path: at.path, headers: at.headers, ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }) };
        const res = await ctx.send(undefined, req);
        const why = expectRefusal(ctx, res, 'method_not_allowed');
        const expected = `${d.code} (${d.status}): ${route.path} takes ${[...methods].sort().join(', ')}, not ${method}`;
        if (why !== undefined) return scope.fail(ctx.failure(route.operation.id, expected, d.pointer, req, `${why}; ${describe(res)}`));
        const allow = res.headers.get('allow');
        if (allow === null)
          return scope.fail(
            ctx.failure(
              route.operation.id,
              `${expected}, with an Allow header naming them (RFC 9110 §15.5.6)`,
              d.pointer,
              req,
              `no Allow header; ${describe(res)}`,
            ),
          );
        const named = new Set(allow.split(',').map((m) => m.trim().toUpperCase()));
        const missing = [...methods].filter((m) => !named.has(m));
        if (missing.length > 0)
          return scope.fail(
            ctx.failure(
              route.operation.id,
              `an Allow header naming ${[...methods].sort().join(', ')}`,
              d.pointer,
              req,
              `Allow: ${allow} lacks ${missing.join(', ')}`,
            ),
          );
      }
    });
  }

  // Paths that name no operation: one beside every path, one under an object's own path.
  await ctx.check('endpoints', 'endpoints.unknown-path', 'route_not_found', async (scope) => {
    const d = ctx.declared('route_not_found');
    if (!d) return scope.skip('the spec declares no error code for route_not_found (not shown)');
    const route = ctx.routes.find((r) => r.operation.auth?.kind === 'required') ?? ctx.routes[0];
    const headers = route ? await ctx.authFor(route.operation.auth) : {};
    // With credentials: a service may refuse any request without one before it looks at the path.
    if (!headers) return scope.skip('no credential for the operations of this spec');
    const prefix = ctx.versionPrefix() ?? '';
    const paths = [`${prefix}/servicespec-no-such-path`];
    const deep = ctx.routes.find((r) => r.method === 'GET' && ctx.idParams(r).length > 0 && r.resource);
    if (deep && !isThrifty(ctx.model)) {
      const at = await addressOf(ctx, deep);
      if (typeof at !== 'string') paths.push(`${at.path}/servicespec-no-such-path`);
    }
    for (const path of paths.filter((p) => !METHODS.some((m) => takes(matchers, m, p)))) {
      const req: TestRequest = { method: 'GET', path, headers };
      const res = await ctx.send(undefined, req);
      const why = expectRefusal(ctx, res, 'route_not_found');
      if (why !== undefined)
        return scope.fail(ctx.failure(`GET ${path}`, `${d.code} (${d.status}) for a path that names no operation`, d.pointer, req, `${why}; ${describe(res)}`));
    }
  });

  // A header section over the declared limit: the declared headers_too_large answer; half the limit is served.
  const size = ctx.model.limits?.headerSize;
  const d = ctx.declared('headers_too_large');
  if (!d) {
    ctx.skip('limits', 'limits.header-size', 'header_size', 'the spec declares no error code for headers_too_large (not shown)');
    return;
  }
  const route =
    ctx.routes.find((r) => r.method === 'GET' && r.operation.action === 'list') ?? ctx.routes.find((r) => r.method === 'GET' && r.operation.action === 'read');
  if (!route) {
    ctx.skip('limits', 'limits.header-size', 'header_size', 'no list or read operation to send a large header to');
    return;
  }
  await ctx.check('limits', 'limits.header-size', `${route.operation.id} ${size ? `at ${size.text}` : 'without a declared header_size'}`, async (scope) => {
    const at = await addressOf(ctx, route);
    if (typeof at === 'string') return scope.skip(at);
    const pad = (bytes: number): TestRequest => ({ method: 'GET', path: at.path, headers: { ...at.headers, [PADDING_HEADER]: 'x'.repeat(bytes) } });
    const where = size ? '/limits/header_size' : d.pointer;
    if (size) {
      const within = pad(Math.floor(size.bytes / 2));
      const ok = await ctx.send(route, within);
      if (!isSuccessAnswer(route, ok.status))
        return scope.fail({
          ...ctx.failure(
            route.operation.id,
            `status ${route.successStatus}: a header section of about half of ${size.text} is within the limit`,
            where,
            within,
            ok,
          ),
          curl: `# a ${PADDING_HEADER} header of ${Math.floor(size.bytes / 2)} bytes\n${ctx.client.curl(within)}`,
        });
    }
    const bytes = size ? size.bytes + 1024 : UNDECLARED_HEADER_PROBE;
    const over = pad(bytes);
    const res = await ctx.send(route, over);
    // With no declared limit, serving the request is as right as refusing it with the declared answer.
    if (!size && isSuccessAnswer(route, res.status)) return;
    const why = size ? expectRefusal(ctx, res, 'headers_too_large') : ctx.expectCondition(res, 'headers_too_large');
    if (why !== undefined) {
      const expected = size
        ? `${d.code} (${d.status}) for a header section over ${size.text}`
        : `status ${route.successStatus} or ${d.code} (${d.status}) for a ${bytes}-byte header`;
      scope.fail({
        ...ctx.failure(route.operation.id, expected, where, over, `${why}; ${describe(res)}`),
        curl: `# a ${PADDING_HEADER} header of ${bytes} bytes\n${ctx.client.curl(over)}`,
      });
    }
  });
}
