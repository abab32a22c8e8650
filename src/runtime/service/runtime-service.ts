import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, ServerResponse, STATUS_CODES, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders } from 'node:http';
import type { Duplex } from 'node:stream';
import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { FORM_MEDIA_TYPE } from '../../model/model-defaults.js';
import { getRoutes, isIdempotentOperation, type Route } from '../../model/model-routes.js';
import type { AuthRequirement, CheckedModel, ServiceModel } from '../../model/model-types.js';
import { getUncheckedProblem } from '../../model/model-checked.js';
import type { DiagnosticCode } from '../../diagnostics/diagnostics-catalogue.js';
import type { HttpMethod } from '../../spec/spec-types.js';
import { createActionHandler, createEventEmitter } from './runtime-actions.js';
import type { RouteHandler } from '../runtime-context.js';
import { withFailureBound } from '../auth/auth-attempts.js';
import { registerTokenRoute } from '../auth/auth-token-endpoint.js';
import { parseFormBytes, parseJsonBytes } from '../runtime-body.js';
import type { Authenticator, CustomHandler, Principal, RuntimeContext } from '../runtime-context.js';
import { andThen, ANSWERED, createPipeline, createPlainPipeline, fromPluggable, type Step } from '../runtime-steps.js';
import { createCursorCodec } from '../runtime-cursor.js';
import {
  createErrorResponder,
  getRawAnswerHeaders,
  getUnavailableError,
  markUnknownOutcome,
  REQUEST_ID_HEADER,
  ServiceError,
  type ErrorResponder,
  type RawErrorAnswer,
} from '../runtime-errors.js';
import { BUILT_IN, type RuntimeGap } from '../runtime-built-in.js';
import { getNotImplementedAnswer, getRuntimeGaps } from './runtime-gaps.js';
import { getLoggerOptions } from '../runtime-logging.js';
import { registerCors, type CorsOptions } from '../runtime-cors.js';
import { createValidatorFactory, type ValidatorFactory } from '../runtime-validation.js';
import { createIdempotency, startRecordSweep, type Idempotency } from '../limits/limits-idempotency.js';
import { createRateLimiter } from '../limits/limits-rate.js';
import { createMemoryStore, type RateLimitStore } from '../limits/limits-store.js';
import { createVersionAdapter, createVersionResolver } from '../runtime-versioning.js';
import { unwrapRequestEnvelope } from '../runtime-envelope.js';
import { REQUEST_ENVELOPED_ACTIONS } from '../../model/model-envelope.js';
import { registerServiceRoutes } from './runtime-service-routes.js';
// events (issue 5): the event stream, webhook registration and delivery (src/runtime/events).
import { getEventStartProblems, type WebhookOptions } from '../events/events-options.js';
import { setUpEvents } from '../events/events-service.js';
import { getStoragePlan } from '../storage/storage-plan.js';
import { createServePrepare } from '../storage/storage-migrate.js';

/** Ends each storage refusal at start; `servicespec serve` names the exact command after the list. */
export const MIGRATE_HINT = 'serve runs only additive steps at start: plan this change with servicespec migrate';
import type { Storage } from '../storage/storage-types.js';
import { withTimeout } from '../runtime-deadline.js';
import type { Clock } from '../../util/util-clock.js';
import { getFastPaths } from '../../util/util-fast-paths.js';
import ipaddr from 'ipaddr.js';
import { createMetrics, type Metrics } from '../runtime-metrics.js';
import { getTracer, hasTracingSdk, registerRequestTracing, traceStorage, type TracedRoute, type TracingOption } from '../runtime-tracing.js';
import { createRouteTable, getCatchAllPaths, getCatchAllSegments, type RouteMatch, type RouteTable } from '../runtime-route-table.js';

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
  /** The declared request time-out's clock (util-clock.ts): performance.now() and the system's timers unless a test moves its own. */
  timeoutClock?: Clock;
  /** Close the storage when the service closes (default true). */
  closeStorage?: boolean;
  /** Where rate-limit state lives: in-process by default, Redis to share one budget across instances. */
  rateLimitStore?: RateLimitStore;
  /** events (issue 5): webhook delivery settings, e.g. `{ allowTargets: ['127.0.0.0/8'] }` for a receiver on this machine. */
  webhooks?: WebhookOptions;
  /** Serve the OpenAPI and AsyncAPI documents and the docs console under /_servicespec (docs/runtime.md); health is always served. */
  docs?: boolean;
  /** Browsers on these origins may call the service (a deployment setting; off by default: no CORS headers). */
  cors?: CorsOptions;
  /** How often and how many expired Idempotency-Key records are removed (default every 5 s, up to 20,000). */
  recordSweep?: { everyMs: number; limit: number };
  /**
   * False: every fast path takes its plain counterpart (docs/architecture.md, "Fast paths"): one Fastify route per
   * operation, answers built as objects and serialised, promise pipelines. Default: SERVICESPEC_FAST_PATHS (on
   * unless `off`). The storage and the authenticator have their own switches (createSqliteStorage's and
   * createAuthenticator's `fastPaths`), with the same default.
   */
  fastPaths?: boolean;
  /**
   * The reverse proxies in front of the service, as addresses or CIDR ranges (`['10.0.0.0/8', '::1']`): a request
   * whose peer is one of them has its client address read from `X-Forwarded-For` (the nearest address not itself
   * a trusted proxy; Fastify's `trustProxy`), which the failed-credential bound and `by: address` rate limits count
   * by. Default none: the address is the connection's peer, and `X-Forwarded-For` is ignored.
   */
  trustProxy?: readonly string[];
  /**
   * Serve /_servicespec/metrics in the Prometheus text format (docs/runtime.md, "Metrics"): requests by operation
   * and status, latency histograms, rate-limit refusals, webhook deliveries, outbox lag. Default off: then nothing
   * is counted and no hook is added.
   */
  metrics?: boolean;
  /**
   * OpenTelemetry traces through @opentelemetry/api (docs/runtime.md, "Traces"): `true` uses the tracer provider the
   * host registered, or pass a provider. One SERVER span per request, a CLIENT span per storage call within it; the
   * incoming trace context is read with the host's propagator. Default off: no hook is added, the storage is not wrapped.
   */
  tracing?: TracingOption;
}

/** Each entry of `trustProxy` checked as an address or a CIDR range; the problems, one per bad entry. */
export function getTrustProxyProblems(entries: readonly string[]): string[] {
  const problems: string[] = [];
  for (const e of entries) {
    const ok = e.includes('/') ? ipaddr.isValidCIDR(e) : ipaddr.isValid(e);
    if (!ok) problems.push(`trust proxy: ${JSON.stringify(e.slice(0, 80))} is not an IP address or a CIDR range (such as 10.0.0.0/8)`);
  }
  return problems;
}

/**
 * Why a service would not start: a model that is not a checked one (`codes`: model-has-errors, model-unchecked),
 * the spec's gaps (without allowGaps), a refused migration, a missing handler, secret or authenticator.
 */
export class ServiceStartError extends Error {
  constructor(
    readonly problems: readonly string[],
    /** The diagnostic codes of the problems that have one. */
    readonly codes: readonly DiagnosticCode[] = [],
  ) {
    super(`the service cannot start:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ServiceStartError';
  }
}

/** Refuses a model the front end did not check clean (a JavaScript caller, a cast): the runtime restates no check rule. */
function requireChecked(model: ServiceModel, entry: string): asserts model is CheckedModel {
  const problem = getUncheckedProblem(model, entry);
  if (problem) throw new ServiceStartError([problem.message], [problem.code]);
}

const ALL_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const CURSOR_SECRET_KEY = 'cursor_secret';
/** Actions that write through `createActionHandler`'s transaction, where a keyed request's claim can ride along. */
const IN_CHANGE_ACTIONS: ReadonlySet<string> = new Set(['create', 'update', 'replace', 'delete', 'transition']);

export interface PluginOptions extends Omit<ServiceOptions, 'logger' | 'trustProxy'> {
  // trustProxy is the host app's own Fastify option (`Fastify({ trustProxy })`): a plugin cannot set it.
  /** `CompiledSpec.checked`: a model the front end found no errors in. */
  model: CheckedModel;
}

/**
 * What a start without --allow-gaps refuses for the spec's gaps: each runtime gap and each custom operation's handler
 * not given, with what the runtime would do instead. serve lists them beside any other refusal, all at once.
 */
export function getGapProblems(model: ServiceModel, handlers: Record<string, unknown> | undefined): string[] {
  const problems = getRuntimeGaps(model).map((g) => `${g.item} (with --allow-gaps the runtime would ${g.builtIn})`);
  for (const o of model.endpoints?.operations ?? [])
    if (o.action === 'custom' && (o.handler === undefined || !handlers?.[o.handler]))
      problems.push(
        `handler ${o.handler ?? '(none named)'} of custom operation ${o.id}: not given; pass it with --handlers FILE (with --allow-gaps the runtime would ${getNotImplementedAnswer(model)})`,
      );
  return problems;
}

/** Checks what would stop the service from serving the model faithfully. */
async function prepare(model: ServiceModel, options: PluginOptions): Promise<{ gaps: RuntimeGap[]; secret: string }> {
  const gaps = getRuntimeGaps(model);
  const problems: string[] = options.allowGaps ? [] : getGapProblems(model, options.handlers);
  for (const o of model.endpoints?.operations ?? []) {
    // A handler not given (an imported spec's, say) is a gap of this start: with allowGaps, answered not_implemented.
    if (options.allowGaps && o.action === 'custom' && (o.handler === undefined || !options.handlers?.[o.handler]))
      gaps.push({
        part: 'endpoints',
        item: `handler ${o.handler ?? '(none named)'} of custom operation ${o.id}: not given`,
        builtIn: getNotImplementedAnswer(model),
      });
    if (o.auth?.kind === 'required' && !options.authenticator) {
      problems.push(`operation ${o.id} requires a credential, but no authenticator is configured`);
    }
  }
  // auth (issue 4): a token endpoint signs with the key the authenticator holds.
  for (const s of model.authentication?.schemes ?? []) {
    if (s.type === 'oauth2_client_credentials' && s.tokenPath !== undefined && !options.authenticator)
      problems.push(`scheme ${s.name} serves a token endpoint, but no authenticator is configured`);
  }
  problems.push(...getEventStartProblems(getRoutes(model), options.webhooks, options.authenticator !== undefined, model)); // events (issue 5)
  if (problems.length > 0) throw new ServiceStartError(problems);
  // migrate (issue 28): only additive steps run at start; the rest is `servicespec migrate`'s (it moves, fills or drops data).
  const plan = getStoragePlan(model);
  const migration = await options.storage.migrate(plan, { prepare: createServePrepare(plan, model) });
  if (!migration.ok)
    throw new ServiceStartError(
      migration.refusals.map((r) => (r.table === '*' && r.column === undefined ? `storage: ${r.reason}` : `storage: ${r.reason}; ${MIGRATE_HINT}`)),
    );
  // Every instance on one database signs cursors with the same secret, so any of them can continue a page.
  const secret =
    (await options.storage.getSetting(CURSOR_SECRET_KEY)) ?? (await options.storage.claimSetting(CURSOR_SECRET_KEY, randomBytes(32).toString('base64url')));
  return { gaps, secret };
}

/**
 * The spec as a Fastify plugin: every route of `getRoutes(model)`, declared errors for everything
 * else. Register it in an existing app, or use `createService` for a standalone one.
 */
export const servicespecPlugin: FastifyPluginAsync<PluginOptions> = async (app, options) => {
  requireChecked(options.model, 'servicespecPlugin');
  return registerServicespec(app, options, false);
};

/**
 * The plugin's work; `tabled` (createService only, where this app is the whole server) serves simple paths through
 * the runtime's route table behind a catch-all per path depth instead of a Fastify route per operation.
 */
async function registerServicespec(app: FastifyInstance, options: PluginOptions, tabled: boolean): Promise<void> {
  const { model } = options;
  const { gaps, secret } = await prepare(model, options);
  // Fastify runs onClose hooks last registered first: the storage's, registered before every other part's, closes
  // it after they have finished (the delivery worker records the outcomes of attempts still in flight).
  if (options.closeStorage !== false) app.addHook('onClose', async () => options.storage.close());
  for (const g of gaps) app.log.warn({ gap: g.item, builtIn: g.builtIn }, `spec gap: ${g.item}; using built-in behaviour: ${g.builtIn}`);

  const now = options.now ?? (() => new Date());
  const routes = getRoutes(model);
  // Traces (off by default): a request hook and the storage decorated, added only when asked for.
  const tracer = getTracer(options.tracing);
  if (tracer) {
    if (!hasTracingSdk(tracer))
      app.log.warn(
        'tracing is on, but no OpenTelemetry SDK is registered: spans are dropped (load one first: node --import ./otel-setup.mjs; docs/runtime.md, "Traces")',
      );
    registerRequestTracing(app, tracer, createRouteNamer(routes));
  }
  const storage = tracer ? traceStorage(options.storage, tracer) : options.storage;
  const metrics = options.metrics === true ? createMetrics() : undefined;
  const findRoute = createRouteFinder(routes);
  const operationOf = metrics ? createOperationNamer(findRoute) : undefined;
  const responder = createErrorResponder(model, (request) => {
    const r = findRoute(request);
    return r?.kind === 'operation' ? r.operation : undefined;
  });
  const errors = metrics ? countRefusals(responder, metrics, operationOf!) : responder;
  const ctx: RuntimeContext = {
    model,
    storage,
    errors,
    cursors: createCursorCodec(secret),
    now,
    handlers: options.handlers ?? {},
    // Failed credentials are bounded whichever authenticator checks them (src/runtime/auth/auth-attempts.ts).
    // On the service's clock, as the service's own authenticator counts on its own.
    ...(options.authenticator ? { authenticator: withFailureBound(options.authenticator, model, () => now().getTime()) } : {}),
  };
  const compile = createValidatorFactory();
  const fast = getFastPaths(options.fastPaths);
  const events = createEventEmitter(model, now, compile);
  const eventsRuntime = setUpEvents(app, {
    model,
    storage: options.storage,
    compile,
    now,
    ...(options.webhooks ? { options: options.webhooks } : {}),
    ...(metrics ? { onDelivery: metrics.delivery, onLag: metrics.lag } : {}),
  }); // events (issue 5)
  const versions = createVersionResolver(model, now);
  const rateStore = options.rateLimitStore ?? createMemoryStore();
  const retention = model.endpoints?.idempotency?.retention?.ms ?? BUILT_IN.idempotencyRetentionMs;
  const idempotency = model.endpoints?.idempotency ? createIdempotency(model, storage, retention, now) : undefined;
  const maxDepth = model.limits?.nestingDepth ?? BUILT_IN.nestingDepth;
  const bodyLimit = model.limits?.bodySize?.bytes ?? BUILT_IN.bodySize;

  // Declared up front so every request object has one shape; added per request they would make Fastify's
  // property accesses polymorphic.
  for (const name of ['principal', 'specVersion', 'keepFields', 'deadline', 'idempotencyClaim', 'keyedChange', 'routeMatch'] as const)
    if (!app.hasRequestDecorator(name)) app.decorateRequest(name, undefined);

  app.removeAllContentTypeParsers();
  // JSON in any of its media types, with parameters (RFC 8259 §11: `charset` has no effect; only UTF-8 is JSON).
  app.addContentTypeParser(/^application\/([a-z0-9.+-]+\+)?json(;|$)/i, { parseAs: 'buffer', bodyLimit }, (request, bytes, done) => {
    if (!hasJsonBody(request)) return done(null, undefined);
    if (hasFormBody(request)) return done(new ServiceError('unsupported_media_type', `send the body as ${FORM_MEDIA_TYPE}`), undefined);
    // An operation stating its one JSON type (request_media_type) reads that type only: another JSON type is not it.
    const own = getBodyType(request);
    if (own !== undefined && getMediaType(request.headers['content-type']) !== own)
      return done(new ServiceError('unsupported_media_type', `send the body as ${own}`), undefined);
    try {
      checkEncoding(request);
      const charset = getCharset(request.headers['content-type']);
      if (charset !== undefined && charset.toLowerCase() !== 'utf-8')
        throw new ServiceError('unsupported_media_type', `send the body as UTF-8 JSON, not charset ${charset.slice(0, 40)}`);
      done(null, parseJsonBytes(bytes as Buffer, maxDepth));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  // Any other content (or none named): refused where the route reads a body, ignored where it reads none.
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (request, bytes, done) => {
    if (!hasJsonBody(request)) return done(null, undefined);
    // A custom operation whose request is a form (request.media_type) reads that, and only that.
    if (hasFormBody(request)) {
      try {
        if (!FORM_TYPE.test(request.headers['content-type'] ?? '')) throw new ServiceError('unsupported_media_type', `send the body as ${FORM_MEDIA_TYPE}`);
        checkEncoding(request);
        const charset = getCharset(request.headers['content-type']);
        if (charset !== undefined && charset.toLowerCase() !== 'utf-8')
          throw new ServiceError('unsupported_media_type', `send the form as UTF-8, not charset ${charset.slice(0, 40)}`);
        return done(null, parseFormBytes(bytes as Buffer));
      } catch (err) {
        return done(err as Error, undefined);
      }
    }
    done(new ServiceError('unsupported_media_type', `send the body as ${getBodyType(request) ?? 'application/json'}`), undefined);
  });

  app.setErrorHandler((err, request, reply) => {
    if (err instanceof ServiceError) return errors.send(request, reply, err);
    const code = (err as { code?: string }).code;
    switch (code) {
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        // A Content-Type that is not a media type at all: unsupported where a body is read, unreadable elsewhere.
        if (!hasJsonBody(request)) return errors.send(request, reply, new ServiceError('malformed_request', 'the Content-Type header is not a media type'));
        return errors.send(request, reply, new ServiceError('unsupported_media_type', `send the body as ${getBodyType(request) ?? 'application/json'}`));
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
    // A database fault is worth trying again: `unavailable` with Retry-After, not `internal`.
    const unavailable = getUnavailableError(err);
    if (unavailable !== undefined) {
      request.log.warn({ err }, 'the database is unavailable');
      markUnknownOutcome(request, err);
      return errors.send(request, reply, unavailable);
    }
    request.log.error({ err }, 'unexpected failure');
    return errors.send(request, reply, new ServiceError('internal', 'an unexpected error occurred'));
  });

  const notFound: RouteHandler = (request, reply) =>
    errors.send(request, reply, new ServiceError('route_not_found', `no operation at ${request.method} ${request.url.split('?')[0]}`));
  app.setNotFoundHandler(notFound);

  const services: RouteServices = {
    ctx,
    versions,
    compile,
    rateStore,
    fast,
    ...(idempotency ? { idempotency } : {}),
    ...(eventsRuntime.nudge ? { nudge: eventsRuntime.nudge } : {}),
    ...(options.timeoutClock ? { timeoutClock: options.timeoutClock } : {}),
  };
  // events (issue 5): the stream and the webhook registration routes are served like operations. An operation's
  // handler is made with its route's pipeline (in the table: on first use, or while warming), checked here.
  const served = routes.map((route) => {
    if (route.kind === 'operation') {
      const callbacks = eventsRuntime.callbacksFor(route); // callbacks: events-callbacks.ts
      return { route, handler: (): RouteHandler => createActionHandler(route, { ctx, compile, events, fast, ...(callbacks ? { callbacks } : {}) }) };
    }
    const handler = route.kind === 'stream' || route.kind === 'webhooks' ? eventsRuntime.handlerFor(route) : undefined;
    return { route, handler: handler && ((): RouteHandler => handler) };
  });
  const methodsByPath = new Map<string, Set<string>>();
  for (const { route, handler } of served) {
    if (!handler && route.kind !== 'token') continue;
    const set = methodsByPath.get(route.routerPath) ?? new Set<string>();
    set.add(route.method);
    if (route.method === 'GET') set.add('HEAD');
    methodsByPath.set(route.routerPath, set);
  }
  // A path's methods it does not serve are answered 405 with Allow: by its GET route where it has one (one route
  // for the path's GET, HEAD and refusals; fewer routes make a large spec start faster), else by a route of their own.
  // Paths of one shape (vercel's GET /v13/deployments/{idOrUrl} and DELETE /v13/deployments/{id}) are one route to
  // Fastify: a method is refused once for the shape (at its first path), and only where no path of it serves it.
  const shapeOf = (path: string) => path.replace(/:[^/]+/g, ':');
  const methodsByShape = new Map<string, Set<string>>();
  for (const [path, methods] of methodsByPath) {
    const shape = shapeOf(path);
    const had = methodsByShape.get(shape);
    if (had === undefined) methodsByShape.set(shape, new Set(methods));
    else for (const m of methods) had.add(m);
  }
  const refusals = new Map<string, { methods: HttpMethod[]; answer: RouteHandler }>();
  const refused = new Set<string>();
  for (const path of methodsByPath.keys()) {
    const shape = shapeOf(path);
    if (refused.has(shape)) continue;
    refused.add(shape);
    const methods = methodsByShape.get(shape)!;
    const allow = [...methods].sort().join(', ');
    const others = ALL_METHODS.filter((m) => !methods.has(m));
    if (others.length === 0) continue;
    refusals.set(path, {
      methods: others,
      answer: async (request, reply) =>
        errors.send(request, reply, new ServiceError('method_not_allowed', `${request.method} is not allowed here; allowed: ${allow}`, undefined, { allow })),
    });
  }
  // HEAD where Fastify would add it: the host app's `exposeHeadRoutes` (default true) decides, as for its own routes.
  const head = (app.initialConfig as { exposeHeadRoutes?: boolean }).exposeHeadRoutes !== false;
  const paths = new Map<string, TabledPath>();
  for (const path of methodsByPath.keys()) paths.set(path, { routerPath: path, methods: new Map(), refuse: refusals.get(path)?.answer ?? notFound });
  const table = tabled ? createRouteTable(paths) : undefined;
  // Pipelines the table builds on first use; once the service is up they are built one a turn (warm, below).
  const unbuilt: TabledMethod[] = [];
  for (const { route, handler } of served) {
    // auth (issue 4): the RFC 6749 token endpoint, in its own context with a form parser (src/runtime/auth).
    if (route.kind === 'token') await registerTokenRoute(app, route, ctx);
    else if (handler && table) {
      const hooks = getRouteHooks(route, services);
      const entry: TabledMethod = {
        ...hooks,
        handle: (request, reply) => build(entry)(request, reply),
        build: () => createRoutePipeline(route, handler(), services),
      };
      unbuilt.push(entry);
      const path = paths.get(route.routerPath)!;
      path.methods.set(route.method, entry);
      if (route.method === 'GET' && head) path.methods.set('HEAD', entry);
    } else if (handler) {
      const refusal = route.method === 'GET' ? refusals.get(route.routerPath) : undefined;
      if (refusal) refusals.delete(route.routerPath);
      registerRoute(app, route, createRoutePipeline(route, handler(), services), getRouteHooks(route, services), head, refusal);
    }
  }
  if (table) registerCatchAlls(app, table, head, notFound);
  await registerServiceRoutes(app, {
    model,
    storage,
    rateStore,
    docs: options.docs === true,
    ...(metrics ? { metrics, now } : {}),
    ...(eventsRuntime.brokerHealth ? { brokerHealth: eventsRuntime.brokerHealth } : {}),
    ...(eventsRuntime.deliveryLag ? { deliveryLag: eventsRuntime.deliveryLag } : {}),
  });
  // Metrics (off by default): one onResponse hook for every answer, added only when they are on.
  if (metrics) {
    app.addHook('onResponse', function countRequest(request, reply, done) {
      metrics.request(operationOf!(request), request.method, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  }
  if (!table)
    for (const [path, { methods, answer }] of refusals)
      app.route({ method: head && methods.includes('GET') ? [...methods, 'HEAD'] : methods, exposeHeadRoute: false, url: path, handler: answer });
  // Validators compile on first use, pipelines are built on first use (in the table); once the service is up the
  // rest are made one a turn, between requests.
  let closing = false;
  // A turn compiles a validator where one is waiting (a pipeline just built makes its own), else builds a pipeline.
  let unbuiltNext = 0;
  const warm = () => {
    if (closing) return;
    if (!compile.compileNext()) {
      while (unbuiltNext < unbuilt.length && unbuilt[unbuiltNext]!.build === undefined) unbuiltNext++;
      if (unbuiltNext === unbuilt.length) return;
      try {
        build(unbuilt[unbuiltNext++]!);
      } catch (err) {
        // Not thrown here (nothing would catch it): the route's first request answers it as internal.
        app.log.error({ err }, 'a route could not be prepared');
      }
    }
    setTimeout(warm, 0).unref();
  };
  app.addHook('onReady', (done) => {
    setTimeout(warm, 0).unref();
    done();
  });
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  if (idempotency) {
    let sweep: { stop(): Promise<void> } | undefined;
    app.addHook('onReady', (done) => {
      sweep = startRecordSweep(options.storage, now, (err) => app.log.warn({ err }, 'removing expired Idempotency-Key records failed'), options.recordSweep);
      done();
    });
    app.addHook('preClose', async () => sweep?.stop());
  }
  if (model.limits?.concurrency !== undefined)
    limitConcurrency(app, model.limits.concurrency, new Set(routes.filter((r) => r.kind === 'stream').map((r) => r.routerPath)));
  app.addHook('onClose', async () => rateStore.close());
}

/** The route a request was routed to (HEAD as its GET); undefined where no route of the spec matched. */
function createRouteFinder(routes: readonly Route[]): (request: FastifyRequest) => Route | undefined {
  const byKey = new Map<string, Route>();
  for (const r of routes) byKey.set(`${r.method} ${r.routerPath}`, r);
  return (request) => {
    const path = getRoutePath(request);
    return path === undefined ? undefined : byKey.get(`${request.method === 'HEAD' ? 'GET' : request.method} ${path}`);
  };
}

/**
 * The metrics' operation label of a request: the operation id of its route, the route kind for the token endpoint,
 * the event stream and the webhook registration routes, `none` where no route matched.
 */
function createOperationNamer(find: (request: FastifyRequest) => Route | undefined): (request: FastifyRequest) => string {
  return (request) => {
    const r = find(request);
    return r === undefined ? 'none' : r.kind === 'operation' ? r.operation.id : r.kind;
  };
}

/**
 * A request's route for its span: the spec's path template (as served, `{name}` for parameters) and the operation
 * id; for the runtime's own routes (health, documents, metrics) Fastify's path; undefined where no route matched.
 */
function createRouteNamer(routes: readonly Route[]): (request: FastifyRequest) => TracedRoute | undefined {
  const names = new Map<string, TracedRoute>();
  const templates = new Map<string, string>();
  for (const r of routes) {
    names.set(`${r.method} ${r.routerPath}`, r.kind === 'operation' ? { route: r.path, operation: r.operation.id } : { route: r.path });
    templates.set(r.routerPath, r.path);
  }
  return (request) => {
    const path = getRoutePath(request);
    if (path === undefined) return undefined;
    // A method the path does not serve (answered 405) is named by the path's template.
    return names.get(`${request.method === 'HEAD' ? 'GET' : request.method} ${path}`) ?? { route: templates.get(path) ?? path };
  };
}

/** The error responder, counting each rate_limited refusal in the metrics. */
function countRefusals(errors: ErrorResponder, metrics: Metrics, operationOf: (request: FastifyRequest) => string): ErrorResponder {
  return {
    ...errors,
    send(request, reply, error) {
      if (error.condition === 'rate_limited') metrics.rateLimited(operationOf(request));
      return errors.send(request, reply, error);
    },
  };
}

/** The form media type, with any parameters. */
const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(;|$)/i;

/** Whether the request's route reads its body as a form (`config.formBody`: a custom operation's `request.media_type`). */
function hasFormBody(request: FastifyRequest): boolean {
  const formBody = (request.routeOptions.config as RouteConfig | undefined)?.formBody;
  return typeof formBody === 'function' ? formBody(request) : formBody === true;
}

/** The one JSON media type the request's route reads (`config.bodyType`: an operation's `request_media_type`), if stated. */
function getBodyType(request: FastifyRequest): string | undefined {
  const bodyType = (request.routeOptions.config as RouteConfig | undefined)?.bodyType;
  return typeof bodyType === 'function' ? bodyType(request) : bodyType;
}

/** A Content-Type's media type, lower case, without parameters. */
function getMediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Whether the request's route reads a JSON body (`config.jsonBody`, set by `registerRoute`, or the table's answer). */
function hasJsonBody(request: FastifyRequest): boolean {
  const jsonBody = (request.routeOptions.config as RouteConfig | undefined)?.jsonBody;
  return typeof jsonBody === 'function' ? jsonBody(request) : jsonBody === true;
}

interface RouteConfig {
  jsonBody?: boolean | ((request: FastifyRequest) => boolean);
  /** The body is read as a form, not JSON (with `jsonBody`: the route reads a body). */
  formBody?: boolean | ((request: FastifyRequest) => boolean);
  /** The one JSON media type the body is sent as (`request_media_type`), lower case; any JSON type when absent. */
  bodyType?: string | ((request: FastifyRequest) => string | undefined);
  /** The spec's router path a catch-all matched (the table's). */
  routePath?: (request: FastifyRequest) => string | undefined;
}

type OnSend = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void) => void;
type OnResponse = (request: FastifyRequest, reply: FastifyReply, done: () => void) => void;

interface RouteHooks {
  jsonBody: boolean;
  formBody?: boolean;
  bodyType?: string;
  onSend?: OnSend;
  onResponse?: OnResponse;
}

/** One method of a tabled path: its pipeline (built on first use, or while warming), body and route hooks. */
interface TabledMethod extends RouteHooks {
  handle: RouteHandler;
  build: (() => RouteHandler) | undefined;
}

/** A path of the table: its methods (HEAD with GET's), and the answer to any other (405, with Allow). */
interface TabledPath {
  routerPath: string;
  methods: Map<string, TabledMethod>;
  refuse: RouteHandler;
}

function build(entry: TabledMethod): RouteHandler {
  if (entry.build === undefined) return entry.handle;
  const handle = entry.build();
  entry.build = undefined;
  entry.handle = handle;
  return handle;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The table's match for a catch-all's request (null: none), found once. */
    routeMatch: RouteMatch<TabledPath> | null | undefined;
  }
}

/**
 * A catch-all per path depth (`/:s0`, `/:s0/:s1`, …) in front of the table: Fastify's router has split, decoded
 * and checked the segments; the table names the path, its parameters and the method's entry. What the table
 * does not match is answered as Fastify's not-found handler would; a route's hooks run only for its own requests.
 */
function registerCatchAlls(app: FastifyInstance, table: RouteTable<TabledPath>, head: boolean, notFound: RouteHandler): void {
  const matchOf = (request: FastifyRequest): RouteMatch<TabledPath> | undefined => {
    let m = request.routeMatch;
    if (m === undefined) request.routeMatch = m = table.match(getCatchAllSegments(request.params as Record<string, string>)) ?? null;
    return m ?? undefined;
  };
  const entryOf = (request: FastifyRequest): TabledMethod | undefined => matchOf(request)?.value.methods.get(request.method);
  const handler: RouteHandler = (request, reply) => {
    const m = matchOf(request);
    if (m === undefined) return notFound(request, reply);
    request.params = m.params;
    const entry = m.value.methods.get(request.method);
    return entry === undefined ? m.value.refuse(request, reply) : entry.handle(request, reply);
  };
  const config: RouteConfig = {
    jsonBody: (request) => entryOf(request)?.jsonBody === true,
    formBody: (request) => entryOf(request)?.formBody === true,
    bodyType: (request) => entryOf(request)?.bodyType,
    routePath: (request) => matchOf(request)?.value.routerPath,
  };
  const onSend: OnSend = (request, reply, payload, done) => {
    const own = entryOf(request)?.onSend;
    if (own === undefined) return done(null, payload);
    own(request, reply, payload, done);
  };
  const onResponse: OnResponse = (request, reply, done) => {
    const own = entryOf(request)?.onResponse;
    if (own === undefined) return done();
    own(request, reply, done);
  };
  // Methods whose entries have no hooks (reads, as a rule) get catch-alls without them: a hook costs every request.
  const sends = new Set<string>();
  const responds = new Set<string>();
  for (const path of table.values()) {
    for (const [method, entry] of path.methods) {
      if (entry.onSend) sends.add(method);
      if (entry.onResponse) responds.add(method);
    }
  }
  const groups = new Map<string, string[]>();
  for (const method of head ? [...ALL_METHODS, 'HEAD'] : ALL_METHODS) {
    const key = `${sends.has(method)} ${responds.has(method)}`;
    groups.set(key, [...(groups.get(key) ?? []), method]);
  }
  for (const method of groups.values()) {
    for (const url of getCatchAllPaths(table.depth)) {
      app.route({
        method,
        url,
        exposeHeadRoute: false,
        config,
        ...(sends.has(method[0]!) ? { onSend } : {}),
        ...(responds.has(method[0]!) ? { onResponse } : {}),
        handler,
      });
    }
  }
}

/** The `charset` parameter of a Content-Type header, if it names one (parameter names are case-insensitive). */
function getCharset(header: string | undefined): string | undefined {
  const m = header === undefined ? null : /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(header);
  return m ? (m[1] ?? m[2]) : undefined;
}

/** A compressed body would be read as if it were JSON text: only the identity coding is accepted. */
function checkEncoding(request: FastifyRequest): void {
  const coding = request.headers['content-encoding'];
  if (coding !== undefined && coding.trim().toLowerCase() !== 'identity' && coding.trim() !== '') {
    throw new ServiceError('unsupported_media_type', `the body's content coding ${coding.slice(0, 40)} is not supported; send it uncompressed`);
  }
}

interface RouteServices {
  ctx: RuntimeContext;
  /** The fast paths (synchronous step runner), or the plain promise pipeline (ServiceOptions.fastPaths). */
  fast: boolean;
  versions: ReturnType<typeof createVersionResolver>;
  compile: ValidatorFactory;
  rateStore: RateLimitStore;
  idempotency?: Idempotency;
  /** events (issue 5): wakes the stream and the delivery worker once a write has been answered. */
  nudge?: () => void;
  /** ServiceOptions.timeoutClock. */
  timeoutClock?: Clock;
}

/**
 * One operation's request pipeline: version, credential, rate limits, Idempotency-Key, then the action under
 * the declared time-out. Hooks cost every request a trip through Fastify's hook runner, so the steps run in the
 * handler through the step runner (runtime-steps.ts), and a route gets a step only where it needs one. Each step
 * answers synchronously when it can (a cached key, an in-process limiter, a SQLite read), so a read is answered
 * in the turn it arrived; the first step that needs a promise hands the rest of the pipeline to it.
 */
function createRoutePipeline(route: Route, handler: RouteHandler, services: RouteServices): RouteHandler {
  const { ctx, versions, idempotency } = services;
  const op = route.kind === 'operation' ? route.operation : undefined;
  const requirement = op?.auth ?? (route.kind === 'stream' || route.kind === 'webhooks' ? route.auth : undefined); // events (issue 5)
  const authenticator = requirement?.kind === 'required' ? ctx.authenticator! : undefined;
  const limiter = op ? createRateLimiter(ctx.model, op, services.rateStore) : undefined;
  const idem = op && idempotency && isIdempotentOperation(ctx.model, op) ? idempotency : undefined;
  const timeoutMs = ctx.model.limits?.timeout?.ms;
  const current = ctx.model.versioning?.current;
  // Older versions see their own shape (versioning.supported[].changes): their bodies are checked in it and
  // upgraded, their answers serialised through the rewrite to their field names.
  const adapter = route.kind === 'operation' && current !== undefined ? createVersionAdapter(ctx.model, route, services.compile) : undefined;
  const fromOld = adapter?.request;
  const toOld = adapter?.response;

  const steps: Step[] = [];
  // Under a media type placement the event stream (text/event-stream, events in the current version) names no version.
  const versioned = !(route.kind === 'stream' && versions.inMediaType === true);
  steps.push((request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    const version = versioned ? versions.resolve(request) : undefined;
    if (version === undefined) return undefined;
    request.specVersion = version;
    if (toOld && version !== current) {
      // A custom serializer leaves the type unset; errors set their own (problem+json) when they are sent. A string
      // is already serialised (a keyed create's answer, through this serializer), as Fastify's own takes it.
      reply
        .type('application/json; charset=utf-8')
        .serializer((payload: unknown) => (typeof payload === 'string' ? payload : JSON.stringify(reply.statusCode < 300 ? toOld(version, payload) : payload)));
    }
    // After the type above: a version in the media type sets the answer's type to that version's.
    versions.annotate(reply, version);
    return undefined;
  });
  if (authenticator) {
    const required = requirement as AuthRequirement & { kind: 'required' };
    const setPrincipal = (request: FastifyRequest, principal: Principal): undefined => void (request.principal = principal);
    steps.push((request, reply) => {
      // What answers a credential carries (and its refusals) is for that caller only: no cache keeps it.
      reply.header('cache-control', 'no-store');
      return andThen(fromPluggable(authenticator.authenticate(request, required)), (p) => setPrincipal(request, p));
    });
  }
  if (limiter) steps.push(limiter);
  // A write (create, update, replace, delete, transition) claims its key in its own transaction (one commit for
  // claim, change, answer). On SQLite that is a fast path (its plain counterpart claims the key first and stores the
  // answer once sent); on PostgreSQL it is always so: a COMMIT whose answer is lost then leaves the key with the
  // outcome (storage-faults.ts, outcomeUnknown), so a retry replays it, or runs when nothing was applied.
  const claimsInChange = (services.fast || services.ctx.storage.dialect === 'postgres') && op !== undefined && IN_CHANGE_ACTIONS.has(op.action);
  if (idem) steps.push((request, reply) => andThen(idem.begin(request, reply, claimsInChange), (outcome) => (outcome === 'replayed' ? ANSWERED : undefined)));
  // The check runs after the credential and limits, as the action's own validation does.
  const actOld = async (version: string, request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const upgraded = fromOld!(version, request.body);
    if (upgraded.keep.length > 0) request.keepFields = upgraded.keep;
    request.body = upgraded.body;
    try {
      return await handler(request, reply);
    } catch (err) {
      throw err instanceof ServiceError && adapter?.error ? adapter.error(version, err) : err;
    }
  };
  const inner: RouteHandler = fromOld
    ? (request, reply) => {
        const version = request.specVersion;
        return version === undefined || version === current || request.body === undefined ? handler(request, reply) : actOld(version, request, reply);
      }
    : handler;
  // A request wrapper comes off first: an older version's adapter and the action read the body it holds.
  const wrapped = op?.requestEnvelope !== undefined && REQUEST_ENVELOPED_ACTIONS.has(op.action) ? op.requestEnvelope.data : undefined;
  const act: RouteHandler = wrapped === undefined ? inner : unwrapRequestEnvelope(wrapped, inner);
  // Work that outlives the time-out is answered as the time-out; a keyed request's key then keeps what the work did.
  const late = idem ? idem.settleLate : undefined;
  const clock = services.timeoutClock;
  steps.push(timeoutMs === undefined ? act : (request, reply) => withTimeout(request, reply, timeoutMs, ctx.errors, act, late, clock));
  return services.fast ? createPipeline(steps) : createPlainPipeline(steps);
}

/** What a route reads and which of its hooks run: the body, the Idempotency-Key's answer, the events' wake-up. */
function getRouteHooks(route: Route, services: RouteServices): RouteHooks {
  const { ctx, idempotency, nudge } = services;
  const op = route.kind === 'operation' ? route.operation : undefined;
  const idem = op && idempotency && isIdempotentOperation(ctx.model, op) ? idempotency : undefined;
  return {
    jsonBody: route.kind === 'operation' || route.kind === 'webhooks' ? route.hasBody : false,
    ...(op?.request?.mediaType === FORM_MEDIA_TYPE ? { formBody: true } : {}),
    ...(op?.requestMediaType !== undefined ? { bodyType: op.requestMediaType.toLowerCase() } : {}),
    // Waits only where the answer is stored after it was made (not for a request without a key).
    ...(idem
      ? {
          onSend: (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void) => {
            const storing = idem.finish(request, reply, payload);
            if (storing === undefined) return done(null, payload);
            storing.then(() => done(null, payload), done);
          },
        }
      : {}),
    // A write's transaction (and the events it appended) has committed by the time it is answered.
    ...(nudge && route.method !== 'GET' ? { onResponse: (_request: FastifyRequest, _reply: FastifyReply, done: () => void) => (nudge(), done()) } : {}),
  };
}

/** One operation's Fastify route (outside the table). */
function registerRoute(
  app: FastifyInstance,
  route: Route,
  pipeline: RouteHandler,
  hooks: RouteHooks,
  head: boolean,
  refusal?: { methods: HttpMethod[]; answer: RouteHandler },
): void {
  // A GET route serves HEAD itself (as Fastify's own HEAD route would: Node sends the headers, with the length of
  // the body it leaves out) and, where given, answers the path's other methods 405.
  const get = route.method === 'GET';
  app.route({
    method: get ? ['GET', ...(head ? ['HEAD'] : []), ...(refusal?.methods ?? [])] : route.method,
    ...(get ? { exposeHeadRoute: false } : {}),
    url: route.routerPath,
    config: { jsonBody: hooks.jsonBody, ...(hooks.formBody ? { formBody: true } : {}), ...(hooks.bodyType ? { bodyType: hooks.bodyType } : {}) },
    ...(hooks.onSend ? { onSend: hooks.onSend } : {}),
    ...(hooks.onResponse ? { onResponse: hooks.onResponse } : {}),
    // Fastify sends what a synchronous handler returns unless it is undefined; the steps send their answers themselves.
    handler: refusal
      ? (request, reply) => (request.method === 'GET' || request.method === 'HEAD' ? pipeline(request, reply) : refusal.answer(request, reply))
      : pipeline,
  });
}

/** Refuses requests beyond the declared number in flight, as rate limited with a short Retry-After. */
function limitConcurrency(app: FastifyInstance, max: number, exempt: ReadonlySet<string>): void {
  let inFlight = 0;
  const release = () => inFlight--;
  app.addHook('onRequest', (request, reply, done) => {
    // Long-lived streams are not requests in flight; they would hold a slot for as long as a client listens.
    // (routeOptions is an object Fastify builds on each access: read only where a stream is served.)
    if (exempt.size > 0 && exempt.has(getRoutePath(request) ?? '')) return done();
    if (inFlight >= max) return done(new ServiceError('rate_limited', `more than ${max} requests are in flight`, undefined, { 'retry-after': '1' }));
    inFlight++;
    // 'close' fires once whether the response finished or the client went away early.
    reply.raw.on('close', release);
    done();
  });
}

/** The spec's router path of the request's route: the table's match behind a catch-all, else Fastify's route. */
function getRoutePath(request: FastifyRequest): string | undefined {
  const options = request.routeOptions;
  const routePath = (options.config as RouteConfig | undefined)?.routePath;
  return routePath ? routePath(request) : options.url;
}

/** What Fastify's router refuses by itself (a malformed URL), as a condition with a declared answer. */
function getFrameworkError(err: { code?: string }): ServiceError {
  if (err.code === 'FST_ERR_BAD_URL') return new ServiceError('malformed_request', 'the URL is not valid (a percent-encoding does not decode)');
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') return new ServiceError('route_not_found', 'no operation takes a path parameter that long');
  return new ServiceError('internal', 'an unexpected error occurred');
}

/** Node keeps the first of two Host headers; which one a proxy in front used is unknown, so the request is refused. */
function hasTwoHosts(raw: readonly string[]): boolean {
  let seen = false;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') {
      if (seen) return true;
      seen = true;
    }
  }
  return false;
}

const NOSNIFF = 'x-content-type-options';

/**
 * Node's ServerResponse with `X-Content-Type-Options: nosniff` first in every answer's headers. Added in writeHead,
 * not by `setHeader` when the request arrives: a header set that way sends the writeHead(status, headers) every
 * Fastify answer makes down Node's slow path (each header set one by one, then checked again), a few microseconds a
 * request (bench/RESULTS.md). Where headers were set one by one anyway, nosniff is set first, as before.
 */
class NosniffResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  override setHeader(name: string, value: number | string | readonly string[]): this {
    if (!super.hasHeader(NOSNIFF)) super.setHeader(NOSNIFF, 'nosniff');
    return super.setHeader(name, value);
  }

  override appendHeader(name: string, value: string | readonly string[]): this {
    if (!super.hasHeader(NOSNIFF)) super.setHeader(NOSNIFF, 'nosniff');
    return super.appendHeader(name, value);
  }

  override writeHead(
    statusCode: number,
    reason?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
    headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
  ): this {
    // Set one by one already (setHeader above put nosniff first): Node merges the rest in.
    if (super.hasHeader(NOSNIFF)) return super.writeHead(statusCode, reason as string, headers);
    const given = typeof reason === 'string' ? headers : reason;
    if (given === undefined || given === null) {
      super.setHeader(NOSNIFF, 'nosniff');
      return super.writeHead(statusCode, reason as string, headers);
    }
    // Node's own fast path takes the headers as a flat [name, value, …] list too.
    const list: unknown[] = [NOSNIFF, 'nosniff'];
    if (Array.isArray(given)) {
      if (given.length > 0 && Array.isArray(given[0])) for (const pair of given as unknown as unknown[][]) list.push(pair[0], pair[1]);
      else for (const item of given) list.push(item);
    } else {
      const record = given as OutgoingHttpHeaders;
      for (const name in record) if (Object.hasOwn(record, name)) list.push(name, record[name]);
    }
    return typeof reason === 'string'
      ? super.writeHead(statusCode, reason, list as OutgoingHttpHeader[])
      : super.writeHead(statusCode, list as OutgoingHttpHeader[]);
  }
}

/** Node's http server answers some requests itself, with an empty body: they get the declared error instead. */
function answerRaw(res: ServerResponse, answer: RawErrorAnswer): void {
  res.writeHead(answer.status, getRawAnswerHeaders(answer).flat());
  res.end(answer.text);
}

/** The declared error as bytes for a socket no ServerResponse writes to (a CONNECT, a request Node could not read). */
function formatRawAnswer(answer: RawErrorAnswer, nosniff: boolean): Buffer {
  let head = `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? 'Error'}\r\n`;
  // First, as NosniffResponse puts it.
  if (nosniff) head += 'X-Content-Type-Options: nosniff\r\n';
  for (const [k, v] of getRawAnswerHeaders(answer)) head += `${k}: ${v}\r\n`;
  // Header values are Latin-1 on the wire, as Node writes them; the body is UTF-8 (its Content-Length counts those bytes).
  return Buffer.concat([Buffer.from(`${head}\r\n`, 'latin1'), Buffer.from(answer.text)]);
}

/**
 * How long a request may take to arrive, from its first byte: the declared time-out where there is one (headers
 * within the built-in or the time-out, whichever is less), else the built-ins; and how often Node checks.
 */
export function getArrivalTimeouts(model: ServiceModel): { requestTimeout: number; headersTimeout: number; connectionsCheckingInterval: number } {
  const requestTimeout = model.limits?.timeout?.ms ?? BUILT_IN.requestTimeoutMs;
  return {
    requestTimeout,
    headersTimeout: Math.min(BUILT_IN.headersTimeoutMs, requestTimeout),
    connectionsCheckingInterval: Math.min(1_000, Math.max(100, Math.floor(requestTimeout / 4))),
  };
}

/**
 * Fastify's options that keep a slow or hostile client from holding a socket or memory; `nosniff`: every answer
 * carries `X-Content-Type-Options: nosniff` (createService's server).
 */
export function getServerOptions(model: ServiceModel, logger: FastifyServerOptions['logger'] = false, nosniff = false): FastifyServerOptions {
  const errors = createErrorResponder(model);
  const headerSize = model.limits?.headerSize?.bytes ?? BUILT_IN.headerSize;
  const arrival = getArrivalTimeouts(model);
  return {
    logger: getLoggerOptions(model, logger), // credentials redacted from every line (runtime-logging.ts)
    bodyLimit: model.limits?.bodySize?.bytes ?? BUILT_IN.bodySize,
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : randomUUID();
    },
    requestTimeout: arrival.requestTimeout,
    connectionTimeout: 60_000,
    keepAliveTimeout: 5_000,
    // While closing, a request already on an open connection is served (with Connection: close), not refused
    // with Fastify's own 503 body: no condition declares "closing", and the storage closes only after the last answer.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // A path parameter may be as long as the headers allow; the route decides (a malformed identifier names no object).
    routerOptions: { maxParamLength: headerSize },
    frameworkErrors: (err: Error, request: FastifyRequest, reply: FastifyReply) => errors.send(request, reply, getFrameworkError(err as { code?: string })),
    // Clients that trickle headers or bodies are checked for at most every second, not every 30 s (getArrivalTimeouts).
    serverFactory: (handler: (req: IncomingMessage, res: ServerResponse) => void) => {
      // RFC 9112 §3.2: an HTTP/1.1 request without Host, or any with two, is refused with 400 (the declared body).
      const serve = (req: IncomingMessage, res: ServerResponse) => {
        if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1)
          return answerRaw(res, errors.raw('malformed_request', 'the request has no Host header'));
        if (hasTwoHosts(req.rawHeaders)) return answerRaw(res, errors.raw('malformed_request', 'the request has more than one Host header'));
        handler(req, res);
      };
      const server = createServer(
        {
          ...arrival,
          maxHeaderSize: headerSize,
          requireHostHeader: false,
          ...(nosniff ? { ServerResponse: NosniffResponse } : {}),
        },
        serve,
      );
      // An expectation other than 100-continue is ignored (RFC 9110 §10.1.1 allows it), not answered 417 with no body.
      server.on('checkExpectation', serve);
      // CONNECT asks for a tunnel; Node would drop the connection without an answer.
      server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
        socket.end(formatRawAnswer(errors.raw('route_not_found', 'this service is not a proxy; CONNECT names no operation'), nosniff));
      });
      return server;
    },
  } as FastifyServerOptions;
}

/**
 * Node's parser refuses oversized headers, and cuts off a request still arriving past its time-out (headers or
 * body), before Fastify has answered; answer them in the declared shape, then close. A request that has not
 * arrived in time is the declared time-out where the spec declares one.
 */
function answerClientErrors(app: FastifyInstance, model: ServiceModel): void {
  const errors = createErrorResponder(model);
  const late = model.limits?.timeout !== undefined;
  app.server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    const response = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (!socket.writable || response?.headersSent) return void socket.destroy();
    const body =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? errors.raw('headers_too_large', 'the request headers are too large')
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' && late
          ? errors.raw('timeout', `the request did not arrive within ${model.limits!.timeout!.ms} ms`)
          : errors.raw('malformed_request', 'the request could not be read');
    socket.end(formatRawAnswer(body, true));
  });
}

/**
 * A standalone Fastify app serving the model: `CompiledSpec.checked` (compileSpecFile / compileSpecText of the spec),
 * which the checker found no errors in. Call `.listen()` on it, `.close()` to shut down cleanly.
 */
export async function createService(model: CheckedModel, options: ServiceOptions): Promise<FastifyInstance> {
  requireChecked(model, 'createService');
  const trust = options.trustProxy ?? [];
  const trustProblems = getTrustProxyProblems(trust);
  if (trustProblems.length > 0) throw new ServiceStartError(trustProblems);
  // Every answer, whichever layer gives it, carries nosniff (NosniffResponse): no browser may sniff a body into another type.
  const app = Fastify({ ...getServerOptions(model, options.logger ?? false, true), ...(trust.length > 0 ? { trustProxy: [...trust] } : {}) });
  app.server.removeAllListeners('clientError');
  answerClientErrors(app, model);
  if (options.cors) registerCors(app, model, options.cors);
  // The route table is a fast path: off, every operation has its own Fastify route, as in the plugin.
  const fast = getFastPaths(options.fastPaths);
  if (!fast) app.log.warn('fast paths off (SERVICESPEC_FAST_PATHS=off): every request takes the plain path');
  await app.register(async (child) => registerServicespec(child, { ...options, model, fastPaths: fast }, fast));
  await app.ready();
  return app;
}
