// The broker relay's shared vocabulary (events-broker.ts relays, events-broker-nats.ts / -amqp.ts publish,
// events-broker-connect.ts picks one): kept apart so the publishers and the relay do not import each other.

export type BrokerProtocol = 'nats' | 'amqp';

/** One event as a broker message. */
export interface BrokerMessage {
  /** The event id: `Nats-Msg-Id` / AMQP `message-id`. */
  id: string;
  type: string;
  /** The subject (NATS) or routing key (AMQP). */
  address: string;
  body: Buffer;
  contentType: string;
  /** ms since the epoch. */
  timestamp: number;
}

/** A broker a relay publishes to. A Kafka relay is one more implementation of this. */
export interface BrokerPublisher {
  readonly protocol: BrokerProtocol;
  /** Connects (and sets up what the spec names: the JetStream stream). Rejects with BrokerError. */
  connect(): Promise<void>;
  readonly connected: boolean;
  /** Publishes in order; resolves with, per message, whether the broker acknowledged it (durably stored / confirmed). */
  publish(messages: readonly BrokerMessage[]): Promise<boolean[]>;
  close(): Promise<void>;
}

/** A broker failure; `fatal` ones (bad credentials, a missing exchange) will not pass by retrying. */
export class BrokerError extends Error {
  constructor(
    message: string,
    readonly fatal: boolean,
  ) {
    super(message);
    this.name = 'BrokerError';
  }
}

/** A `--broker` URL: its protocol and the address with any password hidden (for messages and logs). */
export interface BrokerTarget {
  protocol: BrokerProtocol;
  url: string;
  shown: string;
}

export interface BrokerHealth {
  broker: BrokerProtocol;
  /** ok: publishing (or nothing to publish); unavailable: the broker cannot be reached or refuses; standby: another instance publishes. */
  state: 'ok' | 'unavailable' | 'standby' | 'starting';
  /** Committed outbox entries not yet acknowledged by the broker (as this instance last saw them). */
  lag: number;
  lastError?: string;
}
