// Connecting `serve --broker URL`: the URL read and checked against the spec, the publisher for its protocol (its
// client library loaded only then), and the start-up probe that tells a broker that is down (waited for) from one
// that refuses (a one-line error).

import type { ServiceModel } from '../../model/model-types.js';
import { BrokerError, type BrokerProtocol, type BrokerPublisher, type BrokerTarget } from './events-broker-types.js';

/** Reads a `--broker` URL and checks the spec declares that broker; a string says what is wrong. */
export function parseBrokerUrl(raw: string, model: ServiceModel): BrokerTarget | string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return `--broker ${JSON.stringify(raw)} is not a URL; use nats://host:4222 or amqp://user:password@host:5672`;
  }
  const scheme = u.protocol.replace(/:$/, '');
  const protocol: BrokerProtocol | undefined = scheme === 'nats' || scheme === 'tls' ? 'nats' : scheme === 'amqp' || scheme === 'amqps' ? 'amqp' : undefined;
  if (protocol === undefined) return `--broker: ${scheme}:// is not a broker this service publishes to; use nats:// (NATS JetStream) or amqp:// (RabbitMQ)`;
  if (u.hostname === '') return `--broker ${JSON.stringify(raw)} names no host`;
  if (u.port !== '' && !/^\d+$/.test(u.port)) return `--broker ${JSON.stringify(raw)} has a bad port`;
  if (!model.events?.broker?.[protocol])
    return `--broker: the spec declares no events.delivery.broker.${protocol}, so there is nothing to publish to ${scheme}://`;
  const shown = u.password !== '' ? raw.replace(`:${u.password}@`, ':***@') : raw;
  return { protocol, url: raw, shown };
}

/** The publisher for a target; the client library loads only here, so a service without a broker never loads it. */
export async function createBrokerPublisher(target: BrokerTarget, model: ServiceModel): Promise<BrokerPublisher> {
  if (target.protocol === 'nats') return (await import('./events-broker-nats.js')).createNatsPublisher(target.url, model);
  return (await import('./events-broker-amqp.js')).createAmqpPublisher(target.url, model);
}

/**
 * Connects once, as `serve` does before it listens: undefined when it worked or the broker is merely unreachable
 * (the relay keeps trying; events wait in the outbox), the one-line reason when retrying cannot help (refused
 * credentials, a missing exchange or stream).
 */
export async function probeBroker(target: BrokerTarget, model: ServiceModel): Promise<{ fatal?: string; down?: string }> {
  const p = await createBrokerPublisher(target, model);
  try {
    await p.connect();
    return {};
  } catch (err) {
    const e = err instanceof BrokerError ? err : new BrokerError(String((err as Error).message ?? err), false);
    return e.fatal ? { fatal: e.message } : { down: e.message };
  } finally {
    await p.close().catch(() => undefined);
  }
}
