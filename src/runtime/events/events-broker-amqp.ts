// AMQP 0-9-1 (RabbitMQ) publisher for the broker relay (events-broker.ts), with the npm `amqplib` client: a confirm
// channel, each event published persistent to the spec's exchange with its routing key, `message-id` = the event id,
// `type` = the kind, `content-type`; a publish counts once the broker confirms it. The exchange is the operator's
// (declared with its queues and bindings); a missing one is an error at start.

import { connect, type ChannelModel, type ConfirmChannel } from 'amqplib';
import type { ServiceModel } from '../../model/model-types.js';
import { BrokerError, type BrokerMessage, type BrokerPublisher } from './events-broker-types.js';

const CONFIRM_TIMEOUT_MS = 5_000;

function describe(err: unknown, exchange: string): BrokerError {
  const text = (err as Error).message ?? String(err);
  if (/ACCESS[-_]REFUSED|403/.test(text)) return new BrokerError('RabbitMQ refused the credentials (ACCESS_REFUSED)', true);
  if (/NOT_ALLOWED|530/.test(text)) return new BrokerError('RabbitMQ refused the virtual host (NOT_ALLOWED)', true);
  if (/NOT_FOUND|404/.test(text)) return new BrokerError(`RabbitMQ has no exchange ${exchange}; declare it (with its queues and bindings) first`, true);
  if (/ECONNREFUSED/.test(text)) return new BrokerError('RabbitMQ refused the connection (is the server running?)', false);
  return new BrokerError(`RabbitMQ: ${text.split('\n')[0]}`, false);
}

export function createAmqpPublisher(url: string, model: ServiceModel): BrokerPublisher {
  const { exchange } = model.events!.broker!.amqp!;
  let conn: ChannelModel | undefined;
  let ch: ConfirmChannel | undefined;
  let up = false;

  return {
    protocol: 'amqp',
    get connected() {
      return up;
    },
    async connect() {
      await conn?.close().catch(() => undefined);
      try {
        const c = await connect(url, { timeout: 2_000 });
        conn = c;
        c.on('error', () => (up = false));
        c.on('close', () => (up = false));
        const channel = await c.createConfirmChannel();
        channel.on('error', () => (up = false));
        channel.on('close', () => (up = false));
        await channel.checkExchange(exchange);
        ch = channel;
        up = true;
      } catch (err) {
        up = false;
        await conn?.close().catch(() => undefined);
        throw describe(err, exchange);
      }
    },
    async publish(messages: readonly BrokerMessage[]) {
      const channel = ch!;
      const confirms = messages.map(
        (m) =>
          new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(false), CONFIRM_TIMEOUT_MS);
            try {
              channel.publish(
                exchange,
                m.address,
                m.body,
                { messageId: m.id, type: m.type, contentType: m.contentType, persistent: true, timestamp: Math.floor(m.timestamp / 1000) },
                (err) => {
                  clearTimeout(timer);
                  resolve(err === null || err === undefined);
                },
              );
            } catch {
              clearTimeout(timer);
              up = false;
              resolve(false);
            }
          }),
      );
      return Promise.all(confirms);
    },
    async close() {
      up = false;
      await conn?.close().catch(() => undefined);
    },
  };
}
