import { randomBytes, randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyServerOptions } from 'fastify';
import { getRoutes, type Route } from '../model/model-routes.js';
import type { ServiceModel } from '../model/model-types.js';
import type { HttpMethod } from '../spec/spec-types.js';
import { createActionHandler, createEventEmitter, type RouteHandler } from './runtime-actions.js';
import { parseJsonBody } from './runtime-body.js';
import type { Authenticator, CustomHandler, RuntimeContext } from './runtime-context.js';
import { createCursorCodec } from './runtime-cursor.js';
import { createErrorResponder, ServiceError } from './runtime-errors.js';
import { BUILT_IN, getRuntimeGaps, type RuntimeGap } from './runtime-gaps.js';
import { createValidatorFactory } from './runtime-validation.js';
import { createVersionResolver } from './runtime-versioning.js';
import { getStoragePlan } from './storage/storage-plan.js';
import type { Storage } from './storage/storage-types.js';

export interface ServiceOptions {
  storage: Storage;
  /** Serve even where the spec leaves a gap the runtime must fill; each is logged with the behaviour used. */
  allowGaps?: boolean;
  /** TypeScript handlers for custom operations, by the `handler` name the spec gives. */
  handlers?: Readonly<Record<string, CustomHandler>>;
  authenticator?: Authenticator;
  /** Fastify's logger option (pino); off by default for the library, on for `serve`. */
  logger?: FastifyServerOptions['logger'];
  /** The clock; tests pass a fixed one. */
  now?: () => Date;
  /** Close the storage when the service closes (default true). */
  closeStorage?: boolean;
}

/** Why a service would not start: the spec's gaps (without allowGaps), a refused migration, a missing handler. */
export class ServiceStartError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`the service cannot start:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ServiceStartError';
  }
}

const ALL_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const CURSOR_SECRET_KEY = 'cursor_secret';

export interface PluginOptions extends Omit<ServiceOptions, 'logger'> {
  model: ServiceModel;
}

/** Checks what would stop the service from serving the model faithfully. */
async function prepare(model: ServiceModel, options: PluginOptions): Promise<{ gaps: RuntimeGap[]; secret: string }> {
  const problems: string[] = [];
  const gaps = getRuntimeGaps(model);
  if (gaps.length > 0 && !options.allowGaps) {
    problems.push(...gaps.map((g) => `${g.item} (with --allow-gaps the runtime would ${g.builtIn})`));
  }
  for (const o of model.endpoints?.operations ?? []) {
    if (o.action === 'custom' && (o.handler === undefined || !options.handlers?.[o.handler])) {
      problems.push(`custom operation ${o.id} needs a handler named ${o.handler ?? '(none named)'}; pass it with --handlers FILE`);
    }
    if (o.auth?.kind === 'required' && !options.authenticator) {
      problems.push(`operation ${o.id} requires a credential, but no authenticator is configured`);
    }
  }
  if (problems.length > 0) throw new ServiceStartError(problems);
  const migration = await options.storage.migrate(getStoragePlan(model));
  if (!migration.ok) throw new ServiceStartError(migration.refusals.map((r) => `storage: ${r.reason} (refused: it would lose or reinterpret data)`));
  let secret = await options.storage.getSetting(CURSOR_SECRET_KEY);
  if (secret === undefined) {
    secret = randomBytes(32).toString('base64url');
    await options.storage.setSetting(CURSOR_SECRET_KEY, secret);
  }
  return { gaps, secret };
}

/**
 * The spec as a Fastify plugin: every route of `getRoutes(model)`, declared errors for everything
 * else. Register it in an existing app, or use `createService` for a standalone one.
 */
export const servicespecPlugin: FastifyPluginAsync<PluginOptions> = async (app, options) => {
  const { model } = options;
  const { gaps, secret } = await prepare(model, options);
  for (const g of gaps) app.log.warn({ gap: g.item, builtIn: g.builtIn }, `spec gap: ${g.item}; using built-in behaviour: ${g.builtIn}`);

  const errors = createErrorResponder(model);
  const now = options.now ?? (() => new Date());
  const ctx: RuntimeContext = {
    model,
    storage: options.storage,
    errors,
    cursors: createCursorCodec(secret),
    now,
    handlers: options.handlers ?? {},
    ...(options.authenticator ? { authenticator: options.authenticator } : {}),
  };
  const compile = createValidatorFactory();
  const events = createEventEmitter(model, now);
  const versions = createVersionResolver(model);
  const maxDepth = model.limits?.nestingDepth ?? BUILT_IN.nestingDepth;
  const bodyLimit = model.limits?.bodySize?.bytes ?? BUILT_IN.bodySize;

  app.removeAllContentTypeParsers();
  app.addContentTypeParser(/^application\/([a-z0-9.+-]+\+)?json$/i, { parseAs: 'string', bodyLimit }, (_req, text, done) => {
    try {
      done(null, parseJsonBody(text as string, maxDepth));
    } catch (err) {
      done(err as Error, undefined);
    }
  });

  app.setErrorHandler((err, request, reply) => {
    if (err instanceof ServiceError) return errors.send(request, reply, err);
    const code = (err as { code?: string }).code;
    switch (code) {
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return errors.send(request, reply, new ServiceError('unsupported_media_type', 'send the body as application/json'));
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return errors.send(request, reply, new ServiceError('body_too_large', `the body is larger than ${bodyLimit} bytes`));
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return errors.send(request, reply, new ServiceError('malformed_request', 'the request body could not be read'));
    }
    const status = (err as { statusCode?: number }).statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      return errors.send(request, reply, new ServiceError('malformed_request', 'the request could not be read'));
    }
    request.log.error({ err }, 'unexpected failure');
    return errors.send(request, reply, new ServiceError('internal', 'an unexpected error occurred'));
  });

  app.setNotFoundHandler((request, reply) => errors.send(request, reply, new ServiceError('route_not_found', `no operation at ${request.method} ${request.url.split('?')[0]}`)));

  const routes = getRoutes(model);
  const methodsByPath = new Map<string, Set<string>>();
  for (const route of routes) {
    const handler = route.kind === 'operation' ? createActionHandler(route, { ctx, compile, events }) : undefined;
    if (!handler) continue;
    registerRoute(app, route, handler, ctx, versions);
    const set = methodsByPath.get(route.routerPath) ?? new Set<string>();
    set.add(route.method);
    if (route.method === 'GET') set.add('HEAD');
    methodsByPath.set(route.routerPath, set);
  }
  for (const [path, methods] of methodsByPath) {
    const allow = [...methods].sort().join(', ');
    const others = ALL_METHODS.filter((m) => !methods.has(m));
    if (others.length === 0) continue;
    app.route({
      method: others,
      url: path,
      handler: async (request, reply) => errors.send(request, reply, new ServiceError('method_not_allowed', `${request.method} is not allowed here; allowed: ${allow}`, undefined, { allow })),
    });
  }
  if (options.closeStorage !== false) app.addHook('onClose', async () => options.storage.close());
};

function registerRoute(app: FastifyInstance, route: Route, handler: RouteHandler, ctx: RuntimeContext, versions: ReturnType<typeof createVersionResolver>): void {
  const requirement = route.kind === 'operation' ? route.operation.auth : undefined;
  app.route({
    method: route.method,
    url: route.routerPath,
    handler: async (request, reply) => {
      const version = versions.resolve(request);
      if (version !== undefined) {
        request.specVersion = version;
        versions.annotate(reply, version);
      }
      if (requirement?.kind === 'required') {
        request.principal = await ctx.authenticator!.authenticate(request, requirement);
      }
      return handler(request, reply);
    },
  });
}

/** Fastify's options that keep a slow or hostile client from holding a socket or memory. */
export function getServerOptions(model: ServiceModel, logger: FastifyServerOptions['logger'] = false): FastifyServerOptions {
  return {
    logger,
    bodyLimit: model.limits?.bodySize?.bytes ?? BUILT_IN.bodySize,
    requestIdHeader: 'x-request-id',
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : randomUUID();
    },
    requestTimeout: 30_000,
    connectionTimeout: 60_000,
    keepAliveTimeout: 5_000,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { maxParamLength: 256 },
    http: { headersTimeout: 10_000 },
  } as FastifyServerOptions;
}

/** A standalone Fastify app serving the model. Call `.listen()` on it, `.close()` to shut down cleanly. */
export async function createService(model: ServiceModel, options: ServiceOptions): Promise<FastifyInstance> {
  const app = Fastify(getServerOptions(model, options.logger ?? false));
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  await app.register(servicespecPlugin, { ...options, model });
  await app.ready();
  return app;
}
