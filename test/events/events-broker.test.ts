// serve --broker: every acknowledged write's event reaches NATS JetStream (exactly once after de-duplication by
// Nats-Msg-Id) and RabbitMQ (at least once, ids kept), across a SIGKILL of serve mid-burst and a broker outage.
// Real servers: NATS 127.0.0.1:4222 (JetStream), RabbitMQ 127.0.0.1:5672 guest/guest; skipped, with the reason
// printed, when one is not running. SERVICESPEC_BROKER_OUTAGE_MS sets the outage (bench/broker-outage.ts does 30 s).

import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { connect as amqpConnect } from 'amqplib';
import { connect as natsConnect, type NatsConnection } from 'nats';
import { afterAll, describe, expect, it } from 'vitest';
import { startChildServer } from '../runtime/child-server.js';
import { until } from './helpers.js';
import { dropTestSchema, getPostgresSkipReason, getTestSchemaUrl } from '../support/postgres.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'src', 'cli', 'cli-main.ts');
const BASE_SPEC = readFileSync(new URL('./fixtures/events-public.yaml', import.meta.url), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'servicespec-broker-'));
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
const pgSkip = await getPostgresSkipReason();
if (pgSkip !== undefined) console.log(`events-broker: ${pgSkip}; the two-instance test is skipped`);
if (!natsUp) console.log('events-broker: NATS is not running on 127.0.0.1:4222; its tests are skipped');
if (!rabbitUp) console.log('events-broker: RabbitMQ is not running on 127.0.0.1:5672; its tests are skipped');

/** The tickets spec with a broker section of its own names, so runs never share a stream or an exchange. */
function brokerSpec(): { file: string; tag: string } {
  const tag = `t${randomBytes(4).toString('hex')}`;
  const text = BASE_SPEC.replace(
    '    stream: { path: /events, heartbeat: 200ms }\n',
    `    stream: { path: /events, heartbeat: 200ms }\n    broker:\n      nats: { subject: "${tag}.{kind}.{id}", stream: ${tag.toUpperCase()} }\n      amqp: { exchange: ${tag}, routing_key: "{kind}" }\n`,
  );
  const file = join(dir, `${tag}.yaml`);
  writeFileSync(file, text);
  return { file, tag };
}

interface Burst {
  acknowledged: string[];
  failed: number;
}

/** Creates tickets `count` at a time until `total`, or until `stop()` says so; each 201's id is acknowledged. */
async function burst(url: string, total: number, stop: () => boolean = () => false): Promise<Burst> {
  const acknowledged: string[] = [];
  let failed = 0;
  let next = 0;
  const one = async (): Promise<void> => {
    while (next < total && !stop()) {
      next++;
      try {
        const res = await fetch(`${url}/tickets`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ title: `t${next}` }),
        });
        if (res.status === 201) acknowledged.push(((await res.json()) as { id: string }).id);
        else failed++;
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, one));
  return { acknowledged, failed };
}

interface Seen {
  msgId: string;
  id: string;
  objectId: string;
  type: string;
}

async function readStream(nc: NatsConnection, stream: string): Promise<Seen[]> {
  const jsm = await nc.jetstreamManager();
  const n = (await jsm.streams.info(stream)).state.messages;
  const out: Seen[] = [];
  for (let seq = 1; out.length < n; seq++) {
    const m = await jsm.streams.getMessage(stream, { seq });
    const body = JSON.parse(new TextDecoder().decode(m.data)) as { id: string; type: string; data: { object: { id: string } } };
    out.push({ msgId: m.header.get('Nats-Msg-Id'), id: body.id, objectId: body.data.object.id, type: body.type });
  }
  return out;
}

describe.skipIf(!natsUp)('serve --broker nats://', () => {
  it('SIGKILL mid-burst of 400 creates, restart: a JetStream reader sees every acknowledged write once', async () => {
    const { file, tag } = brokerSpec();
    const stream = tag.toUpperCase();
    const args = [file, '--db', `sqlite:${join(dir, `${tag}.db`)}`, '--allow-gaps', '--broker', 'nats://127.0.0.1:4222'];
    const nc = await natsConnect({ servers: '127.0.0.1:4222' });
    try {
      const first = await startChildServer(args, 120_000);
      let killed = false;
      const running = burst(first.url, 400, () => killed);
      // The relay creates the stream once serve is up: until then `info` says the stream is not found.
      const published = () =>
        nc
          .jetstreamManager()
          .then((j) => j.streams.info(stream))
          .then(
            (i) => i.state.messages,
            () => 0,
          );
      await until(async () => ((await published()) >= 150 ? true : undefined), 60_000, '150 events published');
      first.child.kill('SIGKILL');
      killed = true;
      await first.exited;
      const { acknowledged } = await running;
      expect(acknowledged.length).toBeGreaterThanOrEqual(150);
      const second = await startChildServer(args, 120_000);
      try {
        const want = new Set(acknowledged);
        const seen = await until(
          async () => {
            const all = await readStream(nc, stream);
            const ids = new Set(all.map((s) => s.objectId));
            return [...want].every((id) => ids.has(id)) ? all : undefined;
          },
          60_000,
          'every acknowledged create in the stream',
        );
        // Exactly once after de-duplication: no event id twice in the stream; the message id is the event id.
        expect(new Set(seen.map((s) => s.id)).size).toBe(seen.length);
        for (const s of seen) expect(s.msgId).toBe(s.id);
        expect(seen.every((s) => s.type === 'ticket.created')).toBe(true);
        // The killed instance's lease runs out first (until then the new one stands by), then it publishes the rest.
        const health = await until(
          async () => {
            const h = (await (await fetch(`${second.url}/_servicespec/health`)).json()) as { broker: { broker: string; state: string; lag: number } };
            return h.broker.state === 'ok' && h.broker.lag === 0 ? h : undefined;
          },
          60_000,
          'the broker relay ok with lag 0',
        );
        expect(health.broker).toMatchObject({ broker: 'nats', state: 'ok', lag: 0 });
      } finally {
        second.child.kill('SIGTERM');
        await second.exited;
      }
    } finally {
      await (await nc.jetstreamManager()).streams.delete(stream).catch(() => undefined);
      await nc.close();
    }
  }, 300_000);

  it('a bad URL and refused credentials are one-line errors at start, exit non-zero', () => {
    const { file } = brokerSpec();
    const run = (url: string) => {
      try {
        execFileSync(process.execPath, ['--import', 'tsx', CLI, 'serve', file, '--db', 'sqlite::memory:', '--allow-gaps', '--port', '0', '--broker', url], {
          cwd: ROOT,
          stdio: 'pipe',
          timeout: 120_000,
        });
        return { code: 0, err: '' };
      } catch (e) {
        const x = e as { status: number; stderr: Buffer };
        return {
          code: x.status,
          err: x.stderr
            .toString()
            .trim()
            .split('\n')
            .filter((l) => l.startsWith('servicespec serve:')),
        };
      }
    };
    expect(run('kafka://127.0.0.1:9092')).toEqual({
      code: 2,
      err: ['servicespec serve: --broker: kafka:// is not a broker this service publishes to; use nats:// (NATS JetStream) or amqp:// (RabbitMQ)'],
    });
    expect(run('not a url')).toMatchObject({ code: 2 });
    if (rabbitUp)
      expect(run('amqp://guest:wrong@127.0.0.1:5672')).toEqual({
        code: 1,
        err: ['servicespec serve: --broker amqp://guest:***@127.0.0.1:5672: RabbitMQ refused the credentials (ACCESS_REFUSED)'],
      });
  }, 400_000);
});

const rabbitmqctl = (command: string) => promisify(execFile)('rabbitmqctl', [command]);
const OUTAGE_MS = Number(process.env.SERVICESPEC_BROKER_OUTAGE_MS ?? 3_000);

describe.skipIf(!rabbitUp)('serve --broker amqp://', () => {
  /** A durable queue bound to the spec's (durable) exchange, collecting every message; `reconnect` after an outage. */
  async function collector(tag: string) {
    const got: { messageId: string; id: string; objectId: string; type: string; title: string }[] = [];
    let conn: Awaited<ReturnType<typeof amqpConnect>> | undefined;
    const open = async () => {
      conn = await amqpConnect('amqp://guest:guest@127.0.0.1:5672');
      conn.on('error', () => undefined);
      const ch = await conn.createChannel();
      ch.on('error', () => undefined);
      await ch.assertExchange(tag, 'topic', { durable: true });
      await ch.assertQueue(tag, { durable: true });
      await ch.bindQueue(tag, tag, '#');
      await ch.consume(tag, (m) => {
        if (!m) return;
        const body = JSON.parse(m.content.toString()) as { id: string; type: string; data: { object: { id: string; title: string } } };
        got.push({ messageId: String(m.properties.messageId), id: body.id, objectId: body.data.object.id, type: body.type, title: body.data.object.title });
        ch.ack(m);
      });
    };
    await open();
    return {
      got,
      reconnect: open,
      close: async () => {
        const c = await amqpConnect('amqp://guest:guest@127.0.0.1:5672');
        const ch = await c.createChannel();
        await ch.deleteQueue(tag).catch(() => undefined);
        await ch.deleteExchange(tag).catch(() => undefined);
        await c.close().catch(() => undefined);
        await conn?.close().catch(() => undefined);
      },
    };
  }

  it('SIGKILL mid-burst of 400 creates, restart: every acknowledged write arrives at least once, ids kept', async () => {
    const { file, tag } = brokerSpec();
    const c = await collector(tag);
    const args = [file, '--db', `sqlite:${join(dir, `${tag}.db`)}`, '--allow-gaps', '--broker', 'amqp://guest:guest@127.0.0.1:5672'];
    try {
      const first = await startChildServer(args, 120_000);
      let killed = false;
      const running = burst(first.url, 400, () => killed);
      await until(() => (c.got.length >= 150 ? true : undefined), 60_000, '150 events published');
      first.child.kill('SIGKILL');
      killed = true;
      await first.exited;
      const { acknowledged } = await running;
      const second = await startChildServer(args, 120_000);
      try {
        await until(() => (acknowledged.every((id) => c.got.some((g) => g.objectId === id)) ? true : undefined), 60_000, 'every acknowledged create delivered');
        for (const g of c.got) expect(g.messageId).toBe(g.id);
        // A redelivered event is the same message (same id, same body).
        const byId = new Map<string, string>();
        for (const g of c.got) {
          if (byId.has(g.id)) expect(byId.get(g.id)).toBe(g.objectId);
          byId.set(g.id, g.objectId);
        }
      } finally {
        second.child.kill('SIGTERM');
        await second.exited;
      }
    } finally {
      await c.close();
    }
  }, 300_000);

  it(`RabbitMQ stopped for ${OUTAGE_MS} ms under load and started again: 0 lost, order per object kept, 0 failed writes`, async () => {
    const { file, tag } = brokerSpec();
    const c = await collector(tag);
    const server = await startChildServer(
      [file, '--db', `sqlite:${join(dir, `${tag}.db`)}`, '--allow-gaps', '--broker', 'amqp://guest:guest@127.0.0.1:5672'],
      120_000,
    );
    let stopping = false;
    try {
      // Load: each writer creates a ticket, then renames it 5 times (title r1..r5): a per-object order to keep.
      const acknowledged: { id: string; titles: string[] }[] = [];
      let failed = 0;
      const writer = async () => {
        while (!stopping) {
          const res = await fetch(`${server.url}/tickets`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ title: 'r0' }),
          });
          if (res.status !== 201) {
            failed++;
            continue;
          }
          const t = { id: ((await res.json()) as { id: string }).id, titles: ['r0'] };
          acknowledged.push(t);
          for (let i = 1; i <= 5; i++) {
            const r = await fetch(`${server.url}/tickets/${t.id}`, {
              method: 'PATCH',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ title: `r${i}` }),
            });
            if (r.status === 200) t.titles.push(`r${i}`);
            else failed++;
          }
        }
      };
      const writers = Promise.all(Array.from({ length: 4 }, writer));
      await until(() => (c.got.length >= 50 ? true : undefined), 30_000, 'events flowing');
      type Health = { status: string; broker: { state: string; lag: number } };
      const health = async () => (await (await fetch(`${server.url}/_servicespec/health`)).json()) as Health;
      // Not execFileSync: a test loop blocked for the seconds rabbitmqctl takes reuses keep-alive sockets the
      // service closed meanwhile (fetch failed: other side closed).
      await rabbitmqctl('stop_app');
      const stoppedAt = Date.now();
      try {
        // The service notices the outage and keeps answering while events wait (a generous bound, not a latency figure).
        const during = await until(
          async () => {
            const h = await health();
            return h.broker.state === 'unavailable' && h.broker.lag > 0 ? h : undefined;
          },
          30_000,
          'the outage seen',
        );
        expect(during.status).toBe('ok');
        // The outage itself is real time on a real broker (the scenario's length, not a wait for a state).
        const left = OUTAGE_MS - (Date.now() - stoppedAt);
        if (left > 0) await new Promise((r) => setTimeout(r, left));
      } finally {
        await rabbitmqctl('start_app');
      }
      await c.reconnect();
      // Writes go on once the relay publishes again, before the load stops.
      await until(async () => ((await health()).broker.state === 'ok' ? true : undefined), 60_000, 'the relay back');
      const after = acknowledged.length;
      await until(() => (acknowledged.length >= after + 8 ? true : undefined), 30_000, 'writes after the outage');
      stopping = true;
      await writers;
      expect(failed).toBe(0);
      // Every acknowledged write's event arrived, and per object (first copy of each id) in write order.
      const titlesOf = () => {
        const seen = new Set<string>();
        const by = new Map<string, string[]>();
        for (const g of c.got) {
          if (seen.has(g.id)) continue;
          seen.add(g.id);
          by.set(g.objectId, [...(by.get(g.objectId) ?? []), g.title]);
        }
        return by;
      };
      await until(
        () => (acknowledged.every((t) => (titlesOf().get(t.id)?.length ?? 0) >= t.titles.length) ? true : undefined),
        60_000,
        'every acknowledged write delivered',
      );
      const by = titlesOf();
      for (const t of acknowledged) expect(by.get(t.id), t.id).toEqual(t.titles);
      for (const g of c.got) expect(g.messageId).toBe(g.id);
    } finally {
      stopping = true;
      server.child.kill('SIGTERM');
      await server.exited;
      await c.close();
    }
  }, 300_000);
});

describe.skipIf(!natsUp || pgSkip !== undefined)('serve --broker with two instances on one PostgreSQL database', () => {
  it('one instance publishes (the other stands by), each event stored once', async () => {
    const { file, tag } = brokerSpec();
    const stream = tag.toUpperCase();
    const db = getTestSchemaUrl();
    const args = [file, '--db', db, '--allow-gaps', '--broker', 'nats://127.0.0.1:4222'];
    const nc = await natsConnect({ servers: '127.0.0.1:4222' });
    const a = await startChildServer(args, 120_000);
    const b = await startChildServer(args, 120_000);
    try {
      const [ra, rb] = await Promise.all([burst(a.url, 60), burst(b.url, 60)]);
      const acknowledged = [...ra.acknowledged, ...rb.acknowledged];
      expect(acknowledged.length).toBe(120);
      const seen = await until(
        async () => {
          const all = await readStream(nc, stream).catch(() => []);
          return acknowledged.every((id) => all.some((s) => s.objectId === id)) ? all : undefined;
        },
        60_000,
        'every create in the stream',
      );
      expect(seen.length).toBe(120);
      const states = await Promise.all(
        [a, b].map(async (x) => ((await (await fetch(`${x.url}/_servicespec/health`)).json()) as { broker: { state: string } }).broker.state),
      );
      expect(states.sort()).toEqual(['ok', 'standby']);
    } finally {
      for (const x of [a, b]) x.child.kill('SIGTERM');
      await Promise.all([a.exited, b.exited]);
      await (await nc.jetstreamManager()).streams.delete(stream).catch(() => undefined);
      await nc.close();
      await dropTestSchema(db);
    }
  }, 300_000);
});
