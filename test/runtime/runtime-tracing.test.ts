// OpenTelemetry traces (issue 29 item 5): the host registers an SDK (here sdk-trace-base with an in-memory
// exporter, the AsyncLocalStorage context manager and the W3C propagator), the service makes the spans. Real HTTP
// to a real server on SQLite, or PostgreSQL with SERVICESPEC_TEST_DB=postgres.
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import Fastify from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CustomHandler } from '../../src/runtime/runtime-context.js';
import { servicespecPlugin } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { until } from '../events/helpers.js';
import { loadModel, startService, TICKETS, type Running } from './helpers.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
// As a host's setup module does (docs/runtime.md, "Traces").
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
trace.setGlobalTracerProvider(provider);

const SYSTEM = process.env.SERVICESPEC_TEST_DB === 'postgres' ? 'postgresql' : 'sqlite';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const handlers: Record<string, CustomHandler> = {
  estimate: () => {
    throw new Error('estimates are broken today');
  },
};

/** The spans ended so far whose trace is `traceId`. */
const spansOf = (traceId: string): ReadableSpan[] => exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
/** The request's SERVER span once it has ended (after the answer was sent), with the spans of its trace. */
async function serverSpan(traceId: string, name: string): Promise<{ server: ReadableSpan; all: ReadableSpan[] }> {
  const server = await until(() => spansOf(traceId).find((s) => s.kind === SpanKind.SERVER && s.name === name), 10_000, `the span ${name}`);
  return { server, all: spansOf(traceId) };
}
const childrenOf = (all: readonly ReadableSpan[], parent: ReadableSpan) => all.filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId);
const traceparent = (traceId: string) => ({ traceparent: `00-${traceId}-${PARENT_ID}-01` });
/** A valid ticket in a fresh project. */
async function ticket(s: Running, title: string): Promise<Record<string, unknown>> {
  const project = await s.call('POST', '/projects', { slug: `p${Math.random().toString(36).slice(2, 10)}`, name: 'Traced' });
  expect(project.status).toBe(201);
  return { title, reporter: 'a@example.com', project: project.body.id };
}

describe('tracing off (the default)', () => {
  let s: Running;
  beforeAll(async () => {
    s = await startService(loadModel(TICKETS), { handlers });
  });
  afterAll(async () => s.close());

  it('registers no hook, wraps nothing and makes no span, though the host registered an SDK', async () => {
    exporter.reset();
    expect(s.app.printRoutes({ includeHooks: true, commonPrefix: false })).not.toContain('traceRequest');
    const created = await s.call('POST', '/tickets', await ticket(s, 'Untraced'), traceparent(TRACE_ID));
    expect(created.status).toBe(201);
    expect((await s.call('GET', `/tickets/${created.body.id}`)).status).toBe(200);
    // Other tests' spans would have ended by now: none was made at all.
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});

describe('tracing on', { timeout: 60_000 }, () => {
  let s: Running;
  beforeAll(async () => {
    s = await startService(loadModel(TICKETS), { handlers, tracing: true });
  });
  afterAll(async () => s.close());
  beforeEach(() => exporter.reset());

  it('makes one SERVER span per request, a child of the incoming traceparent, with the HTTP semantic conventions', async () => {
    expect(s.app.printRoutes({ includeHooks: true, commonPrefix: false })).toContain('traceRequest');
    const body = await ticket(s, 'Traced');
    const created = await s.call('POST', '/tickets?x=1', body, { ...traceparent(TRACE_ID), 'user-agent': 'tracing-test/1' });
    expect(created.status).toBe(201);
    const { server, all } = await serverSpan(TRACE_ID, 'POST /tickets');
    expect(server.parentSpanContext?.spanId).toBe(PARENT_ID);
    expect(server.parentSpanContext?.isRemote).toBe(true);
    expect(server.instrumentationScope.name).toBe('servicespec');
    const port = Number(new URL(s.url).port);
    expect(server.attributes).toEqual({
      'http.request.method': 'POST',
      'http.route': '/tickets',
      'http.response.status_code': 201,
      'url.path': '/tickets',
      'url.scheme': 'http',
      'server.address': '127.0.0.1',
      'server.port': port,
      'client.address': '127.0.0.1',
      'network.peer.address': '127.0.0.1',
      'network.protocol.version': '1.1',
      'user_agent.original': 'tracing-test/1',
      'servicespec.operation': 'createTicket',
    });
    expect(server.status.code).toBe(SpanStatusCode.UNSET);
    // The create (which emits ticket.created) is one transaction: its span, with a span per statement inside.
    const [tx, ...others] = childrenOf(all, server);
    expect(others).toEqual([]);
    expect(tx!.name).toBe('transaction');
    expect(tx!.kind).toBe(SpanKind.CLIENT);
    expect(tx!.attributes).toMatchObject({ 'db.system': SYSTEM, 'db.system.name': SYSTEM, 'db.operation.name': 'transaction' });
    const statements = childrenOf(all, tx!);
    expect(statements.map((x) => x.name)).toEqual(['insert Ticket', 'appendEvent']);
    expect(statements[0]!.attributes).toEqual({ 'db.system': SYSTEM, 'db.system.name': SYSTEM, 'db.operation.name': 'insert', 'db.collection.name': 'Ticket' });
    // Every span ends inside its parent.
    for (const child of [tx!, ...statements]) expect(child.ended).toBe(true);
  });

  it('names a read by its route template and gives its storage read a span (fast path or not)', async () => {
    const created = await s.call('POST', '/tickets', await ticket(s, 'Read me'));
    exporter.reset();
    const traceId = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1';
    const read = await s.call('GET', `/tickets/${created.body.id}`, undefined, traceparent(traceId));
    expect(read.status).toBe(200);
    const { server, all } = await serverSpan(traceId, 'GET /tickets/{id}');
    expect(server.attributes).toMatchObject({
      'http.route': '/tickets/{id}',
      'url.path': `/tickets/${created.body.id}`,
      'servicespec.operation': 'getTicket',
      'http.response.status_code': 200,
    });
    // The fast path on SQLite answers from its synchronous reader (the get is the request's own child); otherwise
    // (PostgreSQL, or SERVICESPEC_FAST_PATHS=off) the get runs inside a `read`.
    const gets = all.filter((x) => x.name === 'get Ticket');
    expect(gets).toHaveLength(1);
    expect(gets[0]!.attributes).toEqual({ 'db.system': SYSTEM, 'db.system.name': SYSTEM, 'db.operation.name': 'get', 'db.collection.name': 'Ticket' });
    const top = childrenOf(all, server);
    const readsNow = SYSTEM === 'sqlite' && process.env.SERVICESPEC_FAST_PATHS !== 'off';
    expect(top.map((x) => x.name)).toEqual([readsNow ? 'get Ticket' : 'read']);
    if (!readsNow) expect(childrenOf(all, top[0]!)).toEqual(gets);
  });

  it('marks a 5xx as an error, and names a request no route matched by its method alone', async () => {
    const traceId = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb2';
    expect((await s.call('POST', '/estimates', { title: 'x' }, traceparent(traceId))).status).toBe(500);
    const { server } = await serverSpan(traceId, 'POST /estimates');
    expect(server.status.code).toBe(SpanStatusCode.ERROR);
    expect(server.attributes).toMatchObject({ 'http.response.status_code': 500, 'error.type': '500', 'servicespec.operation': 'estimate' });

    const missing = 'ccccccccccccccccccccccccccccccc3';
    expect((await s.call('GET', '/no/such/route', undefined, traceparent(missing))).status).toBe(404);
    const { server: none } = await serverSpan(missing, 'GET');
    expect(none.attributes['http.route']).toBeUndefined();
    expect(none.attributes['http.response.status_code']).toBe(404);
    expect(none.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('starts a new trace where the request carries none', async () => {
    const r = await s.call('GET', '/tickets');
    expect(r.status).toBe(200);
    const server = await until(() => exporter.getFinishedSpans().find((x) => x.name === 'GET /tickets'));
    expect(server.parentSpanContext).toBeUndefined();
    expect(childrenOf(exporter.getFinishedSpans(), server).length).toBeGreaterThan(0);
  });
});

describe('tracing with a provider passed', { timeout: 60_000 }, () => {
  const own = new InMemorySpanExporter();
  let s: Running;
  beforeAll(async () => {
    s = await startService(loadModel(TICKETS), { handlers, tracing: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(own)] }) });
  });
  afterAll(async () => s.close());

  it('sends its spans to that provider, not the global one', async () => {
    exporter.reset();
    expect((await s.call('GET', '/tickets')).status).toBe(200);
    await until(() => own.getFinishedSpans().find((x) => x.name === 'GET /tickets'));
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});

describe('tracing in the plugin, inside a host app', { timeout: 60_000 }, () => {
  it("traces the spec's routes only: the host's own route gets no span from servicespec", async () => {
    const host = Fastify();
    host.get('/host-own', async () => ({ own: true }));
    await host.register(servicespecPlugin, {
      model: loadModel(TICKETS),
      storage: createSqliteStorage({ path: ':memory:' }),
      allowGaps: true,
      handlers,
      tracing: true,
    });
    const url = await host.listen({ port: 0, host: '127.0.0.1' });
    try {
      exporter.reset();
      const own = 'ddddddddddddddddddddddddddddddd4';
      expect((await fetch(`${url}/host-own`, { headers: traceparent(own) })).status).toBe(200);
      const spec = 'eeeeeeeeeeeeeeeeeeeeeeeeeeeeeee5';
      expect((await fetch(`${url}/tickets`, { headers: traceparent(spec) })).status).toBe(200);
      const { server } = await serverSpan(spec, 'GET /tickets');
      expect(server.attributes['servicespec.operation']).toBe('listTickets');
      expect(spansOf(own)).toEqual([]);
    } finally {
      await host.close();
    }
  });
});

describe('a client that leaves before the answer', { timeout: 60_000 }, () => {
  let s: Running;
  let reached!: () => void;
  let release!: () => void;
  const inHandler = new Promise<void>((r) => (reached = r));
  const held = new Promise<void>((r) => (release = r));
  beforeAll(async () => {
    s = await startService(loadModel(TICKETS), {
      tracing: true,
      handlers: {
        estimate: async () => {
          reached();
          await held;
          return { points: 1 };
        },
      },
    });
  });
  afterAll(async () => {
    release();
    await s.close();
  });

  it('ends its span as aborted, an error with no status code', async () => {
    const traceId = 'fffffffffffffffffffffffffffffff6';
    const leaving = new AbortController();
    const answer = fetch(`${s.url}/estimates`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...traceparent(traceId) },
      body: '{"title":"x"}',
      signal: leaving.signal,
    }).catch((err: unknown) => err);
    await inHandler;
    leaving.abort();
    expect(await answer).toBeInstanceOf(Error);
    const { server } = await serverSpan(traceId, 'POST /estimates');
    expect(server.attributes['error.type']).toBe('aborted');
    expect(server.attributes['http.response.status_code']).toBeUndefined();
    expect(server.status.code).toBe(SpanStatusCode.ERROR);
  });
});
