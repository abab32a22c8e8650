// NATS JetStream publisher for the broker relay (events-broker.ts), with the npm `nats` client. Each event is a
// JetStream publish with `Nats-Msg-Id` (the event id: the stream drops a copy within its de-duplication window)
// and `Content-Type`; a publish counts once the stream's PubAck arrives (stored). The stream the spec names is
// created, with the spec's subjects and the server's default limits, when it is missing.

import { connect, headers, type JetStreamClient, type NatsConnection } from 'nats';
import { getNatsStreamSubjects } from '../../model/model-broker.js';
import type { ServiceModel } from '../../model/model-types.js';
import { BrokerError, type BrokerMessage, type BrokerPublisher } from './events-broker-types.js';

const FATAL_CODES = new Set(['AUTHORIZATION_VIOLATION', 'AUTHENTICATION_EXPIRED', 'AUTHENTICATION_TIMEOUT', 'PERMISSIONS_VIOLATION']);
const ACK_TIMEOUT_MS = 5_000;

function describe(err: unknown): BrokerError {
  const e = err as { code?: string; message?: string };
  if (e.code !== undefined && FATAL_CODES.has(e.code))
    return new BrokerError(`NATS refused the credentials (${e.code.toLowerCase().replace(/_/g, ' ')})`, true);
  if (e.code === 'CONNECTION_REFUSED') return new BrokerError('NATS refused the connection (is the server running?)', false);
  return new BrokerError(`NATS: ${e.message ?? String(err)}`, false);
}

export function createNatsPublisher(url: string, model: ServiceModel): BrokerPublisher {
  const u = new URL(url);
  const spec = model.events!.broker!.nats!;
  let nc: NatsConnection | undefined;
  let js: JetStreamClient | undefined;
  let up = false;

  async function ensureStream(conn: NatsConnection): Promise<void> {
    const jsm = await conn.jetstreamManager();
    const subjects = getNatsStreamSubjects(model, model.events!);
    if (spec.stream === undefined) {
      // No stream named: one the operator made must capture the subjects, or nothing would be stored.
      for (const s of subjects) {
        try {
          await jsm.streams.find(s.replace(/\*/g, 'x'));
        } catch {
          throw new BrokerError(`no JetStream stream captures subject ${s}; name one in events.delivery.broker.nats.stream or create it`, true);
        }
      }
      return;
    }
    try {
      await jsm.streams.info(spec.stream);
    } catch (err) {
      if ((err as { api_error?: { err_code?: number } }).api_error?.err_code !== 10059) throw err;
      await jsm.streams.add({ name: spec.stream, subjects });
    }
  }

  return {
    protocol: 'nats',
    get connected() {
      return up && nc !== undefined && !nc.isClosed();
    },
    async connect() {
      if (nc && !nc.isClosed()) await nc.close().catch(() => undefined);
      try {
        const conn = await connect({
          servers: `${u.hostname}:${u.port || '4222'}`,
          ...(u.username !== '' ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } : {}),
          ...(u.protocol === 'tls:' ? { tls: {} } : {}),
          name: 'servicespec broker relay',
          reconnect: true,
          maxReconnectAttempts: -1,
          reconnectTimeWait: 250,
          timeout: 2_000,
        });
        nc = conn;
        await ensureStream(conn);
        js = conn.jetstream({ timeout: ACK_TIMEOUT_MS });
        up = true;
        void (async () => {
          for await (const s of conn.status()) {
            if (s.type === 'disconnect') up = false;
            else if (s.type === 'reconnect') up = true;
          }
        })().catch(() => undefined);
        void conn.closed().then(() => (up = false));
      } catch (err) {
        up = false;
        if (err instanceof BrokerError) throw err;
        throw describe(err);
      }
    },
    async publish(messages: readonly BrokerMessage[]) {
      const client = js!;
      // Called together, sent in order on the one connection; each waits for its own PubAck.
      const results = await Promise.allSettled(
        messages.map((m) => {
          const h = headers();
          h.set('Content-Type', m.contentType);
          return client.publish(m.address, m.body, { msgID: m.id, headers: h, timeout: ACK_TIMEOUT_MS });
        }),
      );
      return results.map((r) => r.status === 'fulfilled');
    },
    async close() {
      up = false;
      if (nc && !nc.isClosed()) await nc.drain().catch(() => nc?.close());
    },
  };
}
