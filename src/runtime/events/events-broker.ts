// The broker relay (events.delivery.broker, `serve --broker URL`): publishes every outbox entry to NATS JetStream
// or RabbitMQ, from the same transactional outbox that feeds webhooks and the stream.
//
//   outbox (committed, in order) ──read after the stored cursor──▶ window ──publish, wait for acks──▶ cursor moves
//
// - After commit: only committed entries are read (`readOutbox`); the cursor (a setting) moves only past entries the
//   broker acknowledged, so a crash or an outage at any point publishes them again, with the same message id
//   (`Nats-Msg-Id`: JetStream drops the copy within its de-duplication window; AMQP `message-id`: at least once).
// - Order per object: a window holds at most one event per object (resource + identifier), so an entry is published
//   only after every earlier entry of its object was acknowledged; entries of different objects go together.
// - One publisher between instances: a lease (a keyed record with an expiry, `claimRecord`) held and renewed by the
//   instance that publishes; the others stand by and take over when it lapses.
// - The broker down: writes are unaffected (they only append to the outbox); the relay retries, and health reports
//   its state and the outbox lag.
// A Kafka relay is one more `BrokerPublisher` (events-broker-nats.ts and events-broker-amqp.ts are the two).

import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  encodeBrokerToken,
  fillBrokerTemplate,
  getBrokerKindBinding,
  parseBrokerTemplate,
  type BrokerKindBinding,
  type BrokerTemplatePart,
} from '../../model/model-broker.js';
import type { ServiceModel } from '../../model/model-types.js';
import type { OutboxEntry, Storage } from '../storage/storage-types.js';
import { createEventBody } from './events-payload.js';
import type { OutboxHub } from './events-hub.js';
import { withNow, type DeliveryLag, type SchedulerClock } from './events-scheduler.js';
import { BrokerError, type BrokerHealth, type BrokerMessage, type BrokerPublisher, type BrokerProtocol } from './events-broker-types.js';

export interface BrokerRelayOptions {
  model: ServiceModel;
  storage: Storage;
  hub: OutboxHub;
  publisher: BrokerPublisher;
  log: FastifyBaseLogger;
  now: () => number;
  /** Timers with the same notion of now (the system's by default). */
  clock?: SchedulerClock;
  /** Told how late each acknowledged publish was (broker ack − the event's commit time). */
  lag?: DeliveryLag;
  pollIntervalMs: number;
  /** How long a lease lasts without renewal (default 10 s). */
  leaseMs?: number;
  /** The longest wait between reconnection attempts (default 2 s). */
  maxBackoffMs?: number;
}

export interface BrokerRelay {
  start(): Promise<void>;
  health(): Promise<BrokerHealth>;
  stop(): Promise<void>;
}

const BATCH = 500;
const WINDOW = 256;
const LEASE_NAMESPACE = 'events:broker_lease';

/** The position key of each broker's relay (a setting), kept across restarts. */
export function getBrokerCursorKey(protocol: BrokerProtocol): string {
  return `events:broker_seq:${protocol}`;
}

export function createBrokerRelay(o: BrokerRelayOptions): BrokerRelay {
  const protocol = o.publisher.protocol;
  const broker = o.model.events!.broker!;
  const template = protocol === 'nats' ? broker.nats!.subject : broker.amqp!.routingKey;
  const parts: BrokerTemplatePart[] = parseBrokerTemplate(template);
  // The same body webhooks and the stream carry: the envelope, or the payload itself for a `raw` kind.
  const eventBody = createEventBody(o.model);
  const bindings = new Map<string, BrokerKindBinding>((o.model.events?.kinds ?? []).map((k) => [k.name, getBrokerKindBinding(o.model, k)]));
  const leaseMs = o.leaseMs ?? 10_000;
  const maxBackoffMs = o.maxBackoffMs ?? 2_000;
  const me = randomUUID();
  const cursorKey = getBrokerCursorKey(protocol);
  let cursor = 0;
  let leaseUntil = 0;
  let state: BrokerHealth['state'] = 'starting';
  let lastError: string | undefined;
  let stopped = false;
  let loop: Promise<void> | undefined;
  const wake = new AbortController();
  let sleeper: AbortController | undefined;

  const clock = o.clock ?? withNow(o.now);
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      sleeper = new AbortController();
      const t = clock.setTimer(resolve, ms);
      sleeper.signal.addEventListener('abort', () => {
        clock.clearTimer(t);
        resolve();
      });
    });

  function objectKey(e: OutboxEntry): string | undefined {
    const b = bindings.get(e.type);
    if (b?.resource === undefined || b.idField === undefined) return undefined;
    const id = (e.data as { object?: Record<string, unknown> } | null)?.object?.[b.idField];
    return id === undefined ? undefined : `${b.resource}|${String(id as string)}`;
  }

  function toMessage(e: OutboxEntry): BrokerMessage {
    const b = bindings.get(e.type) ?? { kind: e.type };
    const id = b.idField !== undefined ? (e.data as { object?: Record<string, unknown> } | null)?.object?.[b.idField] : undefined;
    // check keeps every placeholder fillable (broker-placeholder-unfilled); `_` only if a stored event lacks its id.
    const address = fillBrokerTemplate(parts, b, encodeBrokerToken(id === undefined || id === null ? '_' : String(id as string))) ?? e.type;
    return { id: e.id, type: e.type, address, body: Buffer.from(eventBody(e)), contentType: 'application/json', timestamp: Date.parse(e.timestamp) };
  }

  /** The longest prefix of `entries` holding at most one entry per object (an entry of no known object goes alone). */
  function window(entries: readonly OutboxEntry[]): OutboxEntry[] {
    const seen = new Set<string>();
    const out: OutboxEntry[] = [];
    for (const e of entries) {
      if (out.length >= WINDOW) break;
      const key = objectKey(e);
      if (key === undefined) {
        if (out.length === 0) out.push(e);
        break;
      }
      if (seen.has(key)) break;
      seen.add(key);
      out.push(e);
    }
    return out;
  }

  async function holdLease(): Promise<boolean> {
    const now = o.now();
    if (leaseUntil - now > leaseMs / 2) return true;
    const expires = new Date(now + leaseMs).toISOString();
    const got = await o.storage.claimRecord(LEASE_NAMESPACE, protocol, me, expires, new Date(now).toISOString());
    if (!got.created && got.value !== me) {
      leaseUntil = 0;
      return false;
    }
    if (!got.created) await o.storage.putRecord(LEASE_NAMESPACE, protocol, me, expires);
    if (leaseUntil === 0) {
      // Newly held: continue from the stored position (another instance may have moved it).
      cursor = Number(await o.storage.getSetting(cursorKey));
    }
    leaseUntil = now + leaseMs;
    return true;
  }

  async function run(): Promise<void> {
    let backoff = 100;
    const fail = async (err: unknown) => {
      lastError = err instanceof Error ? err.message : String(err);
      state = 'unavailable';
      o.log.warn({ broker: protocol, err: lastError }, 'the event broker is unavailable; events wait in the outbox');
      await sleep(backoff);
      backoff = Math.min(backoff * 2, maxBackoffMs);
    };
    while (!stopped) {
      try {
        if (!(await holdLease())) {
          state = 'standby';
          await sleep(o.pollIntervalMs);
          continue;
        }
        if (!o.publisher.connected) {
          try {
            await o.publisher.connect();
          } catch (err) {
            await fail(err);
            continue;
          }
        }
        const entries = await o.storage.readOutbox(cursor, BATCH);
        if (entries.length === 0) {
          state = 'ok';
          lastError = undefined;
          backoff = 100;
          await Promise.race([o.hub.waitBeyond(cursor, Math.min(o.pollIntervalMs, leaseMs / 4), wake.signal), sleepUntilWoken()]);
          continue;
        }
        let rest: readonly OutboxEntry[] = entries;
        while (rest.length > 0 && !stopped) {
          const w = window(rest);
          const acked = await o.publisher.publish(w.map(toMessage));
          let n = 0;
          while (n < acked.length && acked[n]) n++;
          if (n > 0) {
            if (o.lag) {
              const at = clock.now();
              for (let i = 0; i < n; i++) o.lag.observe('broker', 'publish', at - Date.parse(w[i]!.timestamp));
            }
            cursor = w[n - 1]!.seq;
            await o.storage.setSetting(cursorKey, String(cursor));
          }
          if (n < w.length) throw new BrokerError(`the broker did not acknowledge ${w.length - n} of ${w.length} events`, false);
          rest = rest.slice(n);
          state = 'ok';
          lastError = undefined;
          backoff = 100;
          if (!(await holdLease())) break;
        }
      } catch (err) {
        if (stopped) break;
        await fail(err);
      }
    }
  }

  /** Resolves when stop() is called. */
  function sleepUntilWoken(): Promise<void> {
    return new Promise<void>((resolve) => {
      if (wake.signal.aborted) resolve();
      wake.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  return {
    async start() {
      // The first relay on a database starts after what the outbox holds now: only later events are published.
      await o.storage.claimSetting(cursorKey, String(await o.storage.lastOutboxSeq()));
      cursor = Number(await o.storage.getSetting(cursorKey));
      loop = run().catch((err: unknown) => o.log.error({ err }, 'the broker relay stopped unexpectedly'));
    },
    async health() {
      const stored = Number((await o.storage.getSetting(cursorKey)) ?? 0);
      const last = await o.storage.lastOutboxSeq();
      return { broker: protocol, state, lag: Math.max(0, last - stored), ...(lastError !== undefined ? { lastError } : {}) };
    },
    async stop() {
      stopped = true;
      wake.abort();
      sleeper?.abort();
      await loop;
      await o.publisher.close().catch(() => undefined);
      // Hand over at once rather than after the lease runs out.
      if (leaseUntil > 0) await o.storage.deleteRecord(LEASE_NAMESPACE, protocol).catch(() => undefined);
    },
  };
}
