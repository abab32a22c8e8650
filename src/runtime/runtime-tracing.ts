// OpenTelemetry traces (issue 29 item 5), through @opentelemetry/api only: the host registers the SDK, the
// exporter, the context manager and the propagator (docs/runtime.md, "Traces"); the runtime makes spans with
// whatever is registered. Off (the default) nothing here runs: no hook is added and the storage is not wrapped.
// On: one SERVER span per request (stable HTTP semantic conventions) and one CLIENT span per storage call made
// while a request's span is active.
import {
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Storage, StorageTx, SyncReader, SyncWriter } from './storage/storage-types.js';

/** `true`: the tracer provider the host registered globally; a provider: that one. */
export type TracingOption = boolean | TracerProvider;

/** The instrumentation scope's name, as spans name the library that made them. */
export const TRACER_NAME = 'servicespec';

/** The tracer the option asks for; undefined when tracing is off. */
export function getTracer(option: TracingOption | undefined): Tracer | undefined {
  if (option === undefined || option === false) return undefined;
  return (option === true ? trace.getTracerProvider() : option).getTracer(TRACER_NAME);
}

/**
 * Whether the tracer records anything: with no SDK registered, @opentelemetry/api's tracer makes spans with no valid
 * context. The probe span is not ended, so no processor exports it.
 */
export function hasTracingSdk(tracer: Tracer): boolean {
  return isSpanContextValid(tracer.startSpan('servicespec probe').spanContext());
}

/** What a request's route is called in its span: the spec's path template and, for an operation, its id. */
export interface TracedRoute {
  route: string;
  operation?: string;
}

// The methods HTTP semantic conventions name; any other is `_OTHER` (with the original kept).
const KNOWN_METHODS = new Set(['CONNECT', 'DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'TRACE', 'QUERY']);

/**
 * Adds the request span's hooks to `app` (and the routes it encapsulates): the span starts when the request is
 * routed, as a child of the trace the request's headers carry (the host's propagator reads them), is the active
 * span for everything the request does (the request's and the answer's events are bound to it, so the handler
 * runs in it after the body arrives), and ends when the answer is sent or the connection closes.
 */
export function registerRequestTracing(app: FastifyInstance, tracer: Tracer, routeOf: (request: FastifyRequest) => TracedRoute | undefined): void {
  app.addHook('onRequest', function traceRequest(request, reply, done) {
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const named = routeOf(request);
    const method = request.method;
    const known = KNOWN_METHODS.has(method);
    const attributes: Attributes = {
      'http.request.method': known ? method : '_OTHER',
      'url.path': request.url.split('?', 1)[0]!,
      'url.scheme': request.protocol,
      'network.protocol.version': request.raw.httpVersion,
      'client.address': request.ip,
    };
    if (!known) attributes['http.request.method_original'] = method;
    if (named) attributes['http.route'] = named.route;
    if (named?.operation !== undefined) attributes['servicespec.operation'] = named.operation;
    const host = request.hostname;
    if (host !== '') attributes['server.address'] = host;
    const port = request.port ?? request.socket.localPort;
    if (port !== undefined && port !== null) attributes['server.port'] = Number(port);
    const peer = request.socket.remoteAddress;
    if (peer !== undefined) attributes['network.peer.address'] = peer;
    const agent = request.headers['user-agent'];
    if (agent !== undefined) attributes['user_agent.original'] = agent;
    const span = tracer.startSpan(named ? `${known ? method : 'HTTP'} ${named.route}` : known ? method : 'HTTP', { kind: SpanKind.SERVER, attributes }, parent);
    const active = trace.setSpan(parent, span);
    // Listeners added later (Fastify's body reading, the answer's finish) run in the request's context too.
    context.bind(active, request.raw);
    context.bind(active, reply.raw);
    // 'close' comes once for every answer, sent or cut off by the client.
    reply.raw.once('close', () => endRequestSpan(span, reply));
    context.with(active, done);
  });
}

function endRequestSpan(span: Span, reply: FastifyReply): void {
  const res = reply.raw;
  // A status only where one was sent: a client that left before the answer began got none.
  if (res.headersSent) span.setAttribute('http.response.status_code', res.statusCode);
  if (res.headersSent && res.statusCode >= 500) {
    span.setAttribute('error.type', String(res.statusCode));
    span.setStatus({ code: SpanStatusCode.ERROR });
  } else if (!res.writableFinished) {
    // The client went away before the answer was complete.
    span.setAttribute('error.type', 'aborted');
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'the connection closed before the answer was sent' });
  }
  span.end();
}

/** The methods of a transaction, reader and writer whose first argument is a table. */
const TABLE_METHODS = new Set(['insert', 'insertStored', 'get', 'getStored', 'list', 'listStored', 'update', 'delete']);
/** The fast paths' variants (answers kept as stored text) are the same operation. */
const OPERATION_NAMES: Readonly<Record<string, string>> = {
  insertStored: 'insert',
  getStored: 'get',
  listStored: 'list',
  findCredentialNow: 'findCredential',
  findRecordNow: 'findRecord',
};
/** Storage methods run at start, on close or in the background, never for a request: not wrapped. */
const UNTRACED = new Set(['constructor', 'close', 'watch', 'migrate']);

interface DbCall {
  tracer: Tracer;
  system: 'sqlite' | 'postgresql';
}

/**
 * One CLIENT span around `run` (sync or returning a promise), as a child of the active span; none where no span is
 * active (a storage call made outside any request: the delivery worker, a sweep). `run` runs within the span.
 */
function traced<T>(db: DbCall, operation: string, table: string | undefined, run: (active: Context) => T): T {
  const parent = context.active();
  if (trace.getSpan(parent) === undefined) return run(parent);
  const attributes: Attributes = { 'db.system': db.system, 'db.system.name': db.system, 'db.operation.name': operation };
  if (table !== undefined) attributes['db.collection.name'] = table;
  const span = db.tracer.startSpan(table === undefined ? operation : `${operation} ${table}`, { kind: SpanKind.CLIENT, attributes }, parent);
  const active = trace.setSpan(parent, span);
  let result: T;
  try {
    result = context.with(active, run, undefined, active);
  } catch (err) {
    failed(span, err);
    throw err;
  }
  if (result instanceof Promise) {
    return result.then(
      (value: unknown) => (span.end(), value),
      (err: unknown) => {
        failed(span, err);
        throw err;
      },
    ) as T;
  }
  span.end();
  return result;
}

function failed(span: Span, err: unknown): void {
  const name = err instanceof Error ? err.name : 'error';
  span.setAttribute('error.type', name);
  span.setStatus({ code: SpanStatusCode.ERROR, ...(err instanceof Error ? { message: err.message } : {}) });
  span.end();
}

/** Every method of `target` (its own and its prototypes'), each a span named by its method and table. */
function wrapCalls<T extends object>(
  db: DbCall,
  target: T,
  special: Readonly<Record<string, (fn: (...args: unknown[]) => unknown) => (...args: unknown[]) => unknown>> = {},
): T {
  // Inherits the target's plain properties (dialect); every method is replaced, so none runs with the wrapper as `this`.
  const wrapper = Object.create(target) as Record<string, unknown>;
  const seen = new Set<string>();
  for (let o: object | null = target; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const name of Object.getOwnPropertyNames(o)) {
      if (seen.has(name)) continue;
      seen.add(name);
      const value = (target as Record<string, unknown>)[name];
      if (typeof value !== 'function') continue;
      const fn = (value as (...args: unknown[]) => unknown).bind(target);
      if (special[name]) wrapper[name] = special[name](fn);
      else if (UNTRACED.has(name)) wrapper[name] = fn;
      else {
        const operation = OPERATION_NAMES[name] ?? name;
        wrapper[name] = (...args: unknown[]) =>
          traced(db, operation, TABLE_METHODS.has(name) && typeof args[0] === 'string' ? args[0] : undefined, () => fn(...args));
      }
    }
  }
  return wrapper as T;
}

/** A transaction or read: its span, and within it a span per statement of the work's `tx`. */
function wrapUnitOfWork(db: DbCall, operation: string) {
  return (fn: (...args: unknown[]) => unknown) =>
    (work: unknown, ...rest: unknown[]) =>
      traced(db, operation, undefined, (active) =>
        fn((tx: StorageTx) => context.with(active, () => (work as (tx: StorageTx) => unknown)(wrapCalls(db, tx))), ...rest),
      );
}

/**
 * The storage, decorated: each call a CLIENT span (`db.system`, `db.operation.name` — the storage method — and
 * `db.collection.name` where it names a table), transactions and reads with a span per statement inside. The fast
 * paths' synchronous readers and writers are wrapped too, so a read answered in one turn has its span as well.
 */
export function traceStorage(storage: Storage, tracer: Tracer): Storage {
  const db: DbCall = { tracer, system: storage.dialect === 'postgres' ? 'postgresql' : 'sqlite' };
  const wrapWriter = (writer: SyncWriter): SyncWriter =>
    wrapCalls(db, writer, {
      transaction: (fn) => (work: unknown) => traced(db, 'transaction', undefined, () => fn(work)),
    });
  return wrapCalls(db, storage, {
    transaction: wrapUnitOfWork(db, 'transaction'),
    read: wrapUnitOfWork(db, 'read'),
    readNow: (fn) => () => {
      const reader = fn() as SyncReader | undefined;
      return reader && wrapCalls(db, reader);
    },
    writeNow: (fn) => () => {
      const writer = fn() as SyncWriter | undefined;
      return writer && wrapWriter(writer);
    },
  });
}
