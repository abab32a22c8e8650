// --broker URL (nats:// or amqp://): the tester reads the events the service publishes to the broker the spec
// declares (events.delivery.broker) and checks each declared trigger's event arrives there — its kind, subject or
// routing key, message id (the envelope's id), content type and payload against the declared schema (envelope or
// raw body as declared) — and that every acknowledged write of a burst has its event, once after de-duplication by
// message id.
//
// - NATS JetStream: an ordered consumer on the spec's stream (or the one capturing its subjects), filtered to the
//   spec's subject when it has one, starting after the stream's last message when the check began (no clock involved).
// - AMQP: an exclusive, auto-deleted queue bound to the spec's exchange with each kind's routing key (`{id}` bound
//   as `*`, which needs a topic exchange, as the relay's per-object keys do).
// The client libraries (npm `nats`, `amqplib`) are loaded only when --broker is given.

import { isRawEvent } from '../model/model-defaults.js';
import {
  encodeBrokerToken,
  fillBrokerTemplate,
  getBrokerKindBinding,
  getNatsStreamSubjects,
  parseBrokerTemplate,
  type BrokerKindBinding,
} from '../model/model-broker.js';
import { getShapeSchema } from '../model/model-schemas.js';
import type { EventKindModel, ResourceModel, ServiceModel } from '../model/model-types.js';
import type { TestContext } from './tester-context.js';
import type { TestRequest } from './tester-http.js';
import { prepareTrigger } from './tester-checks-events.js';

const CONNECT_TIMEOUT_MS = 3_000;
const WAIT_MS = 5_000;
const GRACE_MS = 300;
/** Creates in the burst whose events must all arrive. */
export const BROKER_BURST = 20;

/** One message as the broker delivered it to the tester. */
export interface BrokerSeen {
  /** `Nats-Msg-Id` / AMQP `message-id`. */
  messageId?: string;
  /** The subject (NATS) or routing key (AMQP). */
  address: string;
  contentType?: string;
  /** AMQP `type` (the kind). */
  type?: string;
  body: string;
}

export interface BrokerListener {
  readonly seen: readonly BrokerSeen[];
  close(): Promise<void>;
}

export type TesterBrokerProtocol = 'nats' | 'amqp';

/** Reads `--broker URL` and checks the spec declares that broker; a string says what is wrong. */
export function parseTesterBrokerUrl(raw: string, model: ServiceModel): { protocol: TesterBrokerProtocol; url: string } | string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return `--broker ${JSON.stringify(raw)} is not a URL; use nats://host:4222 or amqp://user:password@host:5672`;
  }
  const scheme = u.protocol.replace(/:$/, '');
  const protocol = scheme === 'nats' || scheme === 'tls' ? 'nats' : scheme === 'amqp' || scheme === 'amqps' ? 'amqp' : undefined;
  if (protocol === undefined) return `--broker: ${scheme}:// is not a broker the tester reads; use nats:// (NATS JetStream) or amqp:// (RabbitMQ)`;
  if (u.hostname === '') return `--broker ${JSON.stringify(raw)} names no host`;
  if (!model.events?.broker?.[protocol])
    return `--broker: the spec declares no events.delivery.broker.${protocol}, so there is nothing to read from ${scheme}://`;
  return { protocol, url: raw };
}

async function listenNats(url: string, model: ServiceModel): Promise<BrokerListener> {
  const nats = await import('nats');
  const u = new URL(url);
  const nc = await nats.connect({
    servers: `${u.hostname}:${u.port || '4222'}`,
    ...(u.username !== '' ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } : {}),
    ...(u.protocol === 'tls:' ? { tls: {} } : {}),
    name: 'servicespec test',
    timeout: CONNECT_TIMEOUT_MS,
  });
  try {
    const jsm = await nc.jetstreamManager();
    const subjects = getNatsStreamSubjects(model, model.events!);
    const named = model.events!.broker!.nats!.stream;
    let stream: string;
    try {
      stream = named ?? (await jsm.streams.find(subjects[0]!.replace(/\*/g, 'x')));
    } catch {
      throw new Error(`no JetStream stream captures ${subjects[0]}`);
    }
    let last: number;
    try {
      last = (await jsm.streams.info(stream)).state.last_seq;
    } catch {
      throw new Error(`JetStream has no stream ${stream} (serve --broker creates it when it starts)`);
    }
    // One subject: filtered to it. Several: the whole stream (a filter on several subjects needs NATS 2.10; what is
    // not the spec's is told apart by its kind and object anyway).
    const consumer = await nc.jetstream().consumers.get(stream, {
      ...(subjects.length === 1 ? { filterSubjects: subjects[0]! } : {}),
      deliver_policy: nats.DeliverPolicy.StartSequence,
      opt_start_seq: last + 1,
    });
    const messages = await consumer.consume();
    const seen: BrokerSeen[] = [];
    const reading = (async () => {
      for await (const m of messages) {
        const id = m.headers?.get('Nats-Msg-Id');
        const type = m.headers?.get('Content-Type');
        seen.push({ address: m.subject, body: m.string(), ...(id ? { messageId: id } : {}), ...(type ? { contentType: type } : {}) });
      }
    })().catch(() => undefined);
    return {
      seen,
      async close() {
        await messages.close().catch(() => undefined);
        await reading;
        await nc.close().catch(() => undefined);
      },
    };
  } catch (err) {
    await nc.close().catch(() => undefined);
    throw err;
  }
}

async function listenAmqp(url: string, model: ServiceModel): Promise<BrokerListener> {
  const amqp = await import('amqplib');
  const { exchange, routingKey } = model.events!.broker!.amqp!;
  const conn = await amqp.connect(url, { timeout: CONNECT_TIMEOUT_MS });
  conn.on('error', () => undefined);
  try {
    const ch = await conn.createChannel();
    ch.on('error', () => undefined);
    try {
      await ch.checkExchange(exchange);
    } catch {
      throw new Error(`RabbitMQ has no exchange ${exchange}`);
    }
    const q = await ch.assertQueue('', { exclusive: true, autoDelete: true, durable: false });
    const parts = parseBrokerTemplate(routingKey);
    const keys = new Set((model.events?.kinds ?? []).flatMap((k) => fillBrokerTemplate(parts, getBrokerKindBinding(model, k), '*') ?? []));
    for (const key of keys) await ch.bindQueue(q.queue, exchange, key);
    const seen: BrokerSeen[] = [];
    await ch.consume(
      q.queue,
      (m) => {
        if (!m) return;
        const p = m.properties as { messageId?: string; contentType?: string; type?: string };
        seen.push({
          address: m.fields.routingKey,
          body: m.content.toString('utf8'),
          ...(p.messageId ? { messageId: p.messageId } : {}),
          ...(p.contentType ? { contentType: p.contentType } : {}),
          ...(p.type ? { type: p.type } : {}),
        });
      },
      { noAck: true },
    );
    return {
      seen,
      async close() {
        await conn.close().catch(() => undefined);
      },
    };
  } catch (err) {
    await conn.close().catch(() => undefined);
    throw err;
  }
}

/** Listens on the broker before any write is made. */
export function listenBroker(protocol: TesterBrokerProtocol, url: string, model: ServiceModel): Promise<BrokerListener> {
  return protocol === 'nats' ? listenNats(url, model) : listenAmqp(url, model);
}

/** A message read: its kind, the object's payload and its id, when the body says so. */
interface Read {
  m: BrokerSeen;
  json?: unknown;
  kind?: string;
  payload?: Record<string, unknown>;
}

function createReader(model: ServiceModel, template: string): (m: BrokerSeen) => Read {
  const raw = new Set((model.events?.kinds ?? []).filter(isRawEvent).map((k) => k.name));
  const parts = parseBrokerTemplate(template);
  const kinds = (model.events?.kinds ?? []).map((k) => ({
    name: k.name,
    prefix: fillBrokerTemplate(parts, getBrokerKindBinding(model, k), '\u0000')?.split('\u0000')[0],
  }));
  return (m) => {
    let json: unknown;
    try {
      json = JSON.parse(m.body);
    } catch {
      return { m };
    }
    const envelope = json as { type?: unknown; data?: { object?: unknown } } | null;
    // The kind: the envelope's type, AMQP's type property, or the one kind whose address the subject fits.
    let kind = typeof envelope?.type === 'string' && !raw.has(envelope.type) ? envelope.type : m.type;
    if (kind === undefined) {
      const fits = kinds.filter((k) => k.prefix !== undefined && m.address.startsWith(k.prefix));
      if (fits.length === 1) kind = fits[0]!.name;
    }
    const isRaw = kind !== undefined && raw.has(kind);
    const payload = isRaw ? json : envelope?.data?.object;
    return {
      m,
      json,
      ...(kind !== undefined ? { kind } : {}),
      ...(payload !== null && typeof payload === 'object' && !Array.isArray(payload) ? { payload: payload as Record<string, unknown> } : {}),
    };
  };
}

/** What is wrong with one delivered event of `kind` about object `id`, in words; undefined when nothing is. */
function problemsOf(ctx: TestContext, r: Read, kind: EventKindModel, binding: BrokerKindBinding, template: string, id: unknown): string[] {
  const problems: string[] = [];
  const raw = isRawEvent(kind);
  if (r.m.messageId === undefined) problems.push('no message id (Nats-Msg-Id / message-id)');
  if (!raw && r.m.messageId !== undefined && (r.json as { id?: unknown }).id !== r.m.messageId)
    problems.push(`message id ${r.m.messageId} is not the envelope's id ${String((r.json as { id?: unknown }).id)}`);
  if (r.m.contentType === undefined || !/^application\/json\b/i.test(r.m.contentType))
    problems.push(`content type ${r.m.contentType ?? '(none)'} instead of application/json`);
  const address = id === undefined ? undefined : fillBrokerTemplate(parseBrokerTemplate(template), binding, encodeBrokerToken(String(id as string)));
  if (address !== undefined && r.m.address !== address) problems.push(`sent to ${r.m.address} instead of ${address}`);
  if (!raw && (r.json as { type?: unknown }).type !== kind.name) problems.push(`envelope type ${String((r.json as { type?: unknown }).type)}`);
  if (kind.payload) {
    const m = ctx.mismatch(
      getShapeSchema(ctx.model, { ...kind.payload, list: false }, 'response'),
      raw ? r.json : (r.json as { data?: { object?: unknown } }).data?.object,
    );
    if (m !== undefined) problems.push(`payload ${m}`);
  }
  return problems;
}

/** Waits on the run's clock until `test` holds or `ms` pass; answers whether it held. */
async function waitUntil(ctx: TestContext, test: () => boolean, ms: number): Promise<boolean> {
  const end = ctx.client.clock.now() + ms;
  while (!test()) {
    if (ctx.client.clock.now() >= end) return false;
    await ctx.client.clock.sleep(50);
  }
  return true;
}

const distinctIds = (reads: readonly Read[]) => new Set(reads.map((r) => r.m.messageId ?? r.m.body));

export async function checkBroker(ctx: TestContext): Promise<void> {
  const kinds = ctx.model.events?.kinds ?? [];
  const raw = ctx.options.broker;
  if (raw === undefined || kinds.length === 0) {
    if (kinds.length > 0)
      ctx.skip(
        'events',
        'events.broker',
        'events',
        'not asked for (give --broker nats://… or amqp://… to read the broker the spec declares)',
        'not-applicable',
      );
    return;
  }
  const target = parseTesterBrokerUrl(raw, ctx.model);
  if (typeof target === 'string') {
    ctx.skip('events', 'events.broker', 'events', target, 'not-run');
    return;
  }
  const broker = ctx.model.events!.broker!;
  const template = target.protocol === 'nats' ? broker.nats!.subject : broker.amqp!.routingKey;
  let listener: BrokerListener;
  try {
    listener = await listenBroker(target.protocol, target.url, ctx.model);
  } catch (err) {
    ctx.skip('events', 'events.broker', 'events', `cannot read the broker at ${raw.replace(/:[^:@/]*@/, ':***@')}: ${(err as Error).message}`, 'not-run');
    return;
  }
  const read = createReader(ctx.model, template);
  const idHint = template.includes('{id}') && target.protocol === 'amqp' ? ' (the tester binds {id} as `*`: the exchange must be a topic exchange)' : '';
  try {
    for (const kind of kinds) {
      const binding = getBrokerKindBinding(ctx.model, kind);
      for (const trigger of kind.triggers) {
        const name = `${kind.name} on ${trigger.action === 'transition' ? `transition ${trigger.transition}` : trigger.action} of ${trigger.resource}`;
        await ctx.check('events', 'events.broker', name, async (scope) => {
          const resource = ctx.model.resources.find((r) => r.name === trigger.resource);
          if (!resource) return scope.skip(`no resource ${trigger.resource}`);
          const idField = binding.idField;
          if (idField === undefined) return scope.skip(`the event cannot be told apart from others: ${binding.whyNoId ?? 'it carries no identifier'}`);
          const ready = await prepareTrigger(ctx, trigger, resource);
          if (typeof ready === 'string') return scope.skip(ready);
          const { op, opHeaders } = ready;
          const req: TestRequest = { method: op.method, path: ctx.pathOf(op, ready.id), headers: opHeaders };
          if (op.hasBody) req.body = await ctx.validBody(op, ready.id);
          const res = await ctx.send(op, req);
          if (res.status >= 300) return scope.skip(`${op.operation.id} answered ${res.status}: nothing to observe`);
          const id = ready.id ?? res.body?.[resource.identifier ?? 'id'];
          const mine = () => listener.seen.map(read).filter((r) => r.kind === kind.name && r.payload?.[idField] === id);
          await waitUntil(ctx, () => mine().length > 0, WAIT_MS);
          await ctx.client.clock.sleep(GRACE_MS);
          const got = mine();
          if (got.length === 0) {
            return scope.fail(
              ctx.failure(
                op.operation.id,
                `${kind.name} about ${resource.name} ${String(id)} published to the broker (${target.protocol}, ${template})${idHint}`,
                kind.pointer,
                req,
                `${listener.seen.length} messages read, none of ${kind.name} about it`,
              ),
            );
          }
          const ids = distinctIds(got);
          if (ids.size > 1)
            return scope.fail(
              ctx.failure(
                op.operation.id,
                `one ${kind.name} event about the object (copies carry the same message id)`,
                kind.pointer,
                req,
                `${ids.size} events with message ids ${[...ids].join(', ')}`,
              ),
            );
          const problems = problemsOf(ctx, got[0]!, kind, binding, template, id);
          if (problems.length > 0)
            return scope.fail(
              ctx.failure(
                op.operation.id,
                `${kind.name} as declared: ${isRawEvent(kind) ? 'the payload itself' : 'the envelope'}, application/json, message id = event id, ${template} filled`,
                kind.pointer,
                req,
                problems.join('; '),
              ),
            );
        });
      }
    }
    await checkBurst(ctx, listener, read);
  } finally {
    await listener.close();
  }
}

/** Every acknowledged create of a burst has its event on the broker, once after de-duplication by message id. */
async function checkBurst(ctx: TestContext, listener: BrokerListener, read: (m: BrokerSeen) => Read): Promise<void> {
  const candidates = (ctx.model.events?.kinds ?? []).flatMap((k) =>
    k.triggers
      .filter((t) => t.action === 'create')
      .map((t) => ({ kind: k, resource: ctx.model.resources.find((r) => r.name === t.resource), idField: getBrokerKindBinding(ctx.model, k).idField })),
  );
  const pick = candidates.find(
    (c): c is { kind: EventKindModel; resource: ResourceModel; idField: string } => c.resource !== undefined && c.idField !== undefined,
  );
  const name = pick ? `every acknowledged write: ${BROKER_BURST} creates of ${pick.resource.name} → ${pick.kind.name}` : 'every acknowledged write';
  await ctx.check('events', 'events.broker', name, async (scope) => {
    if (!pick) return scope.skip("no event kind is emitted on create with the object's identifier in its payload");
    const acknowledged: unknown[] = [];
    let last: { req: TestRequest } | undefined;
    for (let i = 0; i < BROKER_BURST; i++) {
      const made = await ctx.createObject(pick.resource);
      if (!made) return scope.skip(`no credential to create a ${pick.resource.name}`);
      last = made;
      if (made.res.status < 300) acknowledged.push(made.res.body?.[pick.resource.identifier ?? 'id']);
    }
    if (acknowledged.length === 0) return scope.skip(`no create of ${pick.resource.name} was acknowledged: nothing to observe`);
    const byObject = () => {
      const m = new Map<unknown, Read[]>();
      for (const r of listener.seen.map(read)) {
        if (r.kind !== pick.kind.name) continue;
        const id = r.payload?.[pick.idField];
        if (!acknowledged.includes(id)) continue;
        m.set(id, [...(m.get(id) ?? []), r]);
      }
      return m;
    };
    await waitUntil(ctx, () => byObject().size === acknowledged.length, WAIT_MS);
    await ctx.client.clock.sleep(GRACE_MS);
    const seen = byObject();
    const missing = acknowledged.filter((id) => !seen.has(id));
    const doubled = [...seen].filter(([, reads]) => distinctIds(reads).size > 1);
    if (missing.length > 0 || doubled.length > 0) {
      const actual = [
        ...(missing.length > 0
          ? [
              `${missing.length} of ${acknowledged.length} acknowledged creates have no ${pick.kind.name} on the broker: ${missing.slice(0, 5).map(String).join(', ')}${missing.length > 5 ? ', …' : ''}`,
            ]
          : []),
        ...(doubled.length > 0
          ? [
              `${doubled.length} objects have events with different message ids (not copies): ${doubled
                .slice(0, 3)
                .map(([id]) => String(id))
                .join(', ')}`,
            ]
          : []),
      ].join('; ');
      return scope.fail(
        ctx.failure(
          ctx.createRoute(pick.resource.name)?.operation.id ?? pick.resource.name,
          `a ${pick.kind.name} on the broker for each of the ${acknowledged.length} acknowledged creates, once by message id`,
          pick.kind.pointer,
          last!.req,
          actual,
        ),
      );
    }
  });
}
