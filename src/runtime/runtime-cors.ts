// CORS (Fetch standard §3.2) for browsers on other origins: a deployment setting (`serve --cors ORIGIN`), never
// the spec's. Hand-rolled rather than @fastify/cors: that plugin answers a preflight on any path with one static
// method list, where a preflight here must be answered only for the spec's own paths, with each path's methods,
// and an undeclared path must keep its declared `route_not_found` body.

import type { FastifyInstance } from 'fastify';
import type { ServiceModel } from '../model/model-types.js';
import { getRoutes } from '../model/model-routes.js';
import { getIdempotencyHeader } from '../model/model-defaults.js';
import { REQUEST_ID_HEADER } from './runtime-errors.js';

export interface CorsOptions {
  /** Origins allowed to call the service from a browser, e.g. `https://app.example.com`; `*` allows any. */
  origins: readonly string[];
  /** How long (seconds) a browser may cache a preflight answer (default 600). */
  maxAge?: number;
}

/** Response headers a browser script may read: the ones this runtime sets. */
const EXPOSED = [
  'location',
  'retry-after',
  'ratelimit',
  'ratelimit-policy',
  'www-authenticate',
  'deprecation',
  'sunset',
  'idempotent-replayed',
  'etag',
  REQUEST_ID_HEADER,
];

/** The request headers a browser may send: the body's type and every header the spec's credentials, idempotency and version use. */
export function getCorsRequestHeaders(model: ServiceModel): string[] {
  const names = new Set(['content-type', REQUEST_ID_HEADER]);
  for (const s of model.authentication?.schemes ?? []) {
    if (s.type === 'api_key') {
      if (s.in !== 'query' && s.credentialName !== undefined) names.add(s.credentialName.toLowerCase());
    } else names.add('authorization');
  }
  if (model.endpoints?.idempotency) names.add(getIdempotencyHeader(model).toLowerCase());
  if (model.versioning?.placement?.kind === 'header') names.add(model.versioning.placement.name.toLowerCase());
  if (getRoutes(model).some((r) => r.kind === 'stream')) names.add('last-event-id');
  // Conditional requests (etag: true): the tags a script sends back.
  if (model.resources.some((r) => r.etag === true)) for (const h of ['if-match', 'if-none-match']) names.add(h);
  return [...names].sort();
}

/**
 * Answers preflight `OPTIONS` on each declared path (204 with the path's methods and the headers above) and adds
 * `Access-Control-Allow-Origin` to every answer for an allowed origin. An origin not allowed gets no CORS headers.
 */
export function registerCors(app: FastifyInstance, model: ServiceModel, options: CorsOptions): void {
  const any = options.origins.includes('*');
  const allowed = new Set(options.origins);
  const allowOrigin = (origin: string | undefined): string | undefined =>
    origin === undefined ? undefined : any ? '*' : allowed.has(origin) ? origin : undefined;
  const requestHeaders = getCorsRequestHeaders(model).join(', ');
  // A list's total header (paging.total_header) is the runtime's too: a browser client pages by it.
  const totals = (model.endpoints?.operations ?? []).flatMap((o) => (o.paging?.totalHeader !== undefined ? [o.paging.totalHeader.toLowerCase()] : []));
  const exposed = [...new Set([...EXPOSED, ...totals])].join(', ');
  const methodsByPath = new Map<string, Set<string>>();
  for (const route of getRoutes(model)) {
    const set = methodsByPath.get(route.routerPath) ?? new Set<string>();
    set.add(route.method);
    if (route.method === 'GET') set.add('HEAD');
    methodsByPath.set(route.routerPath, set);
  }

  app.addHook('onRequest', async (request, reply) => {
    const origin = allowOrigin(request.headers.origin);
    if (!any) reply.header('vary', 'Origin');
    if (origin === undefined) return;
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-expose-headers', exposed);
  });
  for (const [url, methods] of methodsByPath) {
    app.options(url, async (request, reply) => {
      const origin = allowOrigin(request.headers.origin);
      reply.header('allow', [...methods, 'OPTIONS'].sort().join(', '));
      if (origin !== undefined && request.headers['access-control-request-method'] !== undefined) {
        reply.header('access-control-allow-methods', [...methods].sort().join(', '));
        reply.header('access-control-allow-headers', requestHeaders);
        reply.header('access-control-max-age', String(options.maxAge ?? 600));
      }
      return reply.code(204).send();
    });
  }
}
