// `servicespec test --broker URL` (issue 30, item 6): the tester reads the events the service publishes to NATS
// JetStream or RabbitMQ and checks each trigger's event (kind, subject/routing key, message id, content type, payload)
// and that every acknowledged create of a burst has its event. Against a service with the broker relay on (what
// `serve --broker` runs), every check passes; against a mutant relay that drops one event, the burst check fails.
// Real servers on 127.0.0.1 (NATS 4222 with JetStream, RabbitMQ 5672 guest/guest), with a stream and an exchange
// named for this run; skipped, with the reason printed, when one is not running.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as amqpConnect } from 'amqplib';
import { connect as natsConnect } from 'nats';
import { afterAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { CheckedModel } from '../../src/model/model-types.js';
import { createBrokerRelay, type BrokerRelay } from '../../src/runtime/events/events-broker.js';
import { createBrokerPublisher, parseBrokerUrl } from '../../src/runtime/events/events-broker-connect.js';
import type { BrokerPublisher, BrokerTarget } from '../../src/runtime/events/events-broker-types.js';
import { createOutboxHub } from '../../src/runtime/events/events-hub.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import type { Storage } from '../../src/runtime/storage/storage-types.js';
import { BROKER_BURST, parseTesterBrokerUrl } from '../../src/tester/tester-broker.js';
import { testService } from '../../src/tester/tester-run.js';
import { runCli } from '../cli/cli-helpers.js';
import { loadModel } from '../runtime/helpers.js';

const NATS_URL = 'nats://127.0.0.1:4222';
const AMQP_URL = 'amqp://guest:guest@127.0.0.1:5672';
const BASE_SPEC = readFileSync(new URL('../events/fixtures/events-public.yaml', import.meta.url), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'servicespec-tester-broker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = netConnect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}
const natsUp = await portOpen(4222);
const rabbitUp = await portOpen(5672);
if (!natsUp) console.log('tester-broker: NATS is not running on 127.0.0.1:4222; its tests are skipped');
if (!rabbitUp) console.log('tester-broker: RabbitMQ is not running on 127.0.0.1:5672; its tests are skipped');

/** The tickets spec with a broker section named for this run (subjects and keys carry the object's id). */
function brokerSpec(): { file: string; tag: string; model: CheckedModel } {
  const tag = `tb${randomBytes(4).toString('hex')}`;
  const text = BASE_SPEC.replace(
    '    stream: { path: /events, heartbeat: 200ms }\n',
    `    stream: { path: /events, heartbeat: 200ms }\n    broker:\n      nats: { subject: "${tag}.{kind}.{id}", stream: ${tag.toUpperCase()} }\n      amqp: { exchange: ${tag}, routing_key: "{kind}.{id}" }\n`,
  );
  const file = join(dir, `${tag}.yaml`);
  writeFileSync(file, text);
  return { file, tag, model: loadModel(file) };
}

interface Served {
  url: string;
  app: FastifyInstance;
  storage: Storage;
  /** The mutant's own relay (undefined: the service's). */
  relay?: BrokerRelay;
  close(): Promise<void>;
}

/** The service; with `broker`, its relay on (as `serve --broker`); with `mutant`, a relay of the test's that drops the 10th ticket.created. */
async function serve(model: CheckedModel, broker: BrokerTarget, mutant: boolean): Promise<Served> {
  const storage = createSqliteStorage({ path: join(dir, `${randomBytes(4).toString('hex')}.db`), synchronous: 'normal' });
  const app = await createService(model, { storage, allowGaps: true, webhooks: mutant ? {} : { broker } });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  let relay: BrokerRelay | undefined;
  if (mutant) {
    const real = await createBrokerPublisher(broker, model);
    let created = 0;
    const dropping: BrokerPublisher = {
      protocol: real.protocol,
      get connected() {
        return real.connected;
      },
      connect: () => real.connect(),
      close: () => real.close(),
      // The 10th ticket.created is acknowledged without being sent: the relay moves past it, the event is lost.
      async publish(messages) {
        const keep = messages.filter((m) => !(m.type === 'ticket.created' && ++created === 10));
        const acked = await real.publish(keep);
        const out: boolean[] = [];
        let i = 0;
        for (const m of messages) out.push(keep.includes(m) ? acked[i++]! : true);
        return out;
      },
    };
    const hub = createOutboxHub(storage, 50, () => undefined);
    await hub.start();
    relay = createBrokerRelay({ model, storage, hub, publisher: dropping, log: app.log, now: Date.now, pollIntervalMs: 100 });
    await relay.start();
    const r = relay;
    const closeApp = app.close.bind(app);
    return {
      url,
      app,
      storage,
      relay,
      async close() {
        await r.stop();
        hub.stop();
        await closeApp();
      },
    };
  }
  return { url, app, storage, close: () => app.close() };
}

/** Until the relay says it publishes (the NATS stream exists by then). */
async function relayReady(s: Served): Promise<void> {
  const end = Date.now() + 60_000;
  for (;;) {
    const state = s.relay
      ? (await s.relay.health()).state
      : ((await (await fetch(`${s.url}/_servicespec/health`)).json()) as { broker?: { state: string } }).broker?.state;
    if (state === 'ok') return;
    if (Date.now() > end) throw new Error(`the relay did not come up (${state})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const BURST_TARGET = `every acknowledged write: ${BROKER_BURST} creates of Ticket → ticket.created`;

async function run(protocol: 'nats' | 'amqp', setUp: (tag: string) => Promise<() => Promise<void>>): Promise<void> {
  const url = protocol === 'nats' ? NATS_URL : AMQP_URL;
  const { tag, model } = brokerSpec();
  const tearDown = await setUp(tag);
  const target = parseBrokerUrl(url, model) as BrokerTarget;
  try {
    const good = await serve(model, target, false);
    try {
      await relayReady(good);
      const report = await testService(model, { baseUrl: good.url, broker: url, only: ['events.broker'], seed: 1 });
      const results = report.results.map((r) => ({ target: r.target, outcome: r.outcome, why: r.failure?.actual ?? r.reason }));
      expect(results.filter((r) => r.outcome !== 'passed')).toEqual([]);
      // One per declared trigger (create, update, delete, three transitions) and the burst.
      expect(results.map((r) => r.target)).toEqual(
        expect.arrayContaining([
          'ticket.created on create of Ticket',
          'ticket.deleted on delete of Ticket',
          'ticket.finished on transition finish of Ticket',
          BURST_TARGET,
        ]),
      );
      expect(results).toHaveLength(7);
      // The relay's publishes are measured by the scheduler: health reports their lag.
      const health = (await (await fetch(`${good.url}/_servicespec/health`)).json()) as { delivery?: Record<string, { count: number }> };
      expect(health.delivery?.['broker.publish']?.count).toBeGreaterThanOrEqual(BROKER_BURST);
    } finally {
      await good.close();
    }
    const mutant = await serve(model, target, true);
    try {
      await relayReady(mutant);
      const report = await testService(model, { baseUrl: mutant.url, broker: url, only: ['events.broker'], seed: 1 });
      const burst = report.results.find((r) => r.target === BURST_TARGET);
      expect(burst?.outcome).toBe('failed');
      expect(burst?.failure?.actual).toMatch(new RegExp(`^1 of ${BROKER_BURST} acknowledged creates have no ticket.created on the broker: [0-9a-f-]{36}$`));
      expect(report.verdict).toBe('failed');
    } finally {
      await mutant.close();
    }
  } finally {
    await tearDown();
  }
}

describe.skipIf(!natsUp)('test --broker nats://', () => {
  it('passes against the relay, and catches a relay that drops one event', async () => {
    await run('nats', async (tag) => async () => {
      const nc = await natsConnect({ servers: '127.0.0.1:4222' });
      await (await nc.jetstreamManager()).streams.delete(tag.toUpperCase()).catch(() => undefined);
      await nc.close();
    });
  }, 180_000);
});

describe.skipIf(!rabbitUp)('test --broker amqp://', () => {
  it('passes against the relay, and catches a relay that drops one event', async () => {
    await run('amqp', async (tag) => {
      const conn = await amqpConnect(AMQP_URL);
      const ch = await conn.createChannel();
      // The operator's exchange (the relay never declares one): a topic exchange, as per-object routing keys need.
      await ch.assertExchange(tag, 'topic', { durable: false });
      return async () => {
        await ch.deleteExchange(tag).catch(() => undefined);
        await conn.close();
      };
    });
  }, 180_000);
});

describe('test --broker: bad input', () => {
  const { file, model } = brokerSpec();
  it('reads nats:// and amqp:// URLs of brokers the spec declares', () => {
    expect(parseTesterBrokerUrl(NATS_URL, model)).toEqual({ protocol: 'nats', url: NATS_URL });
    expect(parseTesterBrokerUrl('amqps://u:p@mq.example:5671', model)).toMatchObject({ protocol: 'amqp' });
  });

  it.each([
    ['kafka://127.0.0.1:9092', '--broker: kafka:// is not a broker the tester reads; use nats:// (NATS JetStream) or amqp:// (RabbitMQ)'],
    ['not a url', '--broker "not a url" is not a URL; use nats://host:4222 or amqp://user:password@host:5672'],
  ])('%s is a usage error (exit 2) with one line', async (url, message) => {
    const r = await runCli(['test', file, '--base-url', 'http://127.0.0.1:9', '--broker', url, '--no-progress']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`servicespec test: ${message} (see \`servicespec test --help\`)\n`);
  });

  it('a broker the spec does not declare is a usage error', async () => {
    const plain = join(dir, 'plain.yaml');
    writeFileSync(plain, BASE_SPEC);
    const r = await runCli(['test', plain, '--base-url', 'http://127.0.0.1:9', '--broker', NATS_URL, '--no-progress']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'servicespec test: --broker: the spec declares no events.delivery.broker.nats, so there is nothing to read from nats:// (see `servicespec test --help`)\n',
    );
  });
});
