// What the plugin (runtime-service.ts) calls: the handlers of the stream and webhook registration routes, and
// the delivery worker, started when the app is ready and stopped (after open streams end) when it closes.

import type { DeliveryOutcomeName } from '../runtime-metrics.js';
import type { FastifyInstance } from 'fastify';
import type { OperationRoute, StreamRoute, WebhooksRoute } from '../../model/model-routes.js';
import type { ServiceModel } from '../../model/model-types.js';
import { getEventAccess, isCredentialCurrent, type CredentialRef } from '../runtime-access.js';
import type { RouteHandler } from '../runtime-context.js';
import type { Validator } from '../runtime-validation.js';
import type { Storage } from '../storage/storage-types.js';
import { createBrokerRelay, type BrokerRelay } from './events-broker.js';
import { createBrokerPublisher } from './events-broker-connect.js';
import type { BrokerHealth } from './events-broker-types.js';
import { createDeliveryLag, withNow, type DeliveryChannel, type LagKind, type LagSummary } from './events-scheduler.js';
import { createDeliveryWorker, type DeliveryWorker } from './events-delivery.js';
import { createOutboxHub } from './events-hub.js';
import { createCallbackHooks, type CallbackHooks } from './events-callbacks.js';
import { EVENTS_BUILT_IN, hasCallbacks, type WebhookOptions } from './events-options.js';
import { createSender } from './events-send.js';
import { createStreamHandler } from './events-stream.js';
import { parseTargetPolicy } from './events-targets.js';
import { createWebhookHandler } from './events-webhooks.js';

export interface EventsRuntime {
  handlerFor(route: StreamRoute | WebhooksRoute): RouteHandler;
  /** A create's callback hooks; undefined for an operation without callbacks. */
  callbacksFor(route: OperationRoute): CallbackHooks | undefined;
  /** Wakes the stream and the delivery worker after a write; absent when the spec has no events. */
  nudge?: () => void;
  /** The broker relay's state and outbox lag, for health; absent without `broker`. */
  brokerHealth?: () => Promise<BrokerHealth>;
  /** How late recent webhook attempts and broker publishes started, for health; absent when neither runs. */
  deliveryLag?: () => Partial<Record<`${DeliveryChannel}.${LagKind}`, LagSummary>>;
}

export interface EventsSetup {
  model: ServiceModel;
  storage: Storage;
  compile: (schema: Record<string, unknown>) => Validator;
  now: () => Date;
  options?: WebhookOptions;
  /** Told each webhook delivery attempt's outcome (the service's metrics, when on). */
  onDelivery?: (outcome: DeliveryOutcomeName) => void;
  /** Told how late each webhook attempt and broker publish started (the service's metrics, when on). */
  onLag?: (channel: DeliveryChannel, kind: LagKind, seconds: number) => void;
}

/** Wires event delivery into the plugin's context. Throws TargetPolicyError for a bad allowed range. */
export function setUpEvents(app: FastifyInstance, s: EventsSetup): EventsRuntime {
  const o = s.options ?? {};
  const policy = parseTargetPolicy(o.allowTargets ?? []);
  const clock = o.now ?? o.clock?.now ?? Date.now;
  const schedulerClock = o.clock ? { ...o.clock, now: clock } : withNow(clock);
  const lag = createDeliveryLag(s.onLag);
  const broker = o.broker !== undefined && s.model.events?.broker !== undefined;
  const pollIntervalMs = o.pollIntervalMs ?? EVENTS_BUILT_IN.pollIntervalMs;
  const hub = createOutboxHub(s.storage, pollIntervalMs, (err) => app.log.error({ err }, 'reading the outbox failed'));
  const open = new Set<{ end(): void }>();
  const hasEvents = (s.model.events?.kinds.length ?? 0) > 0;
  const deliver = (s.model.events?.webhook !== undefined || hasCallbacks(s.model)) && o.deliver !== false;
  const credentialCurrent = (ref: CredentialRef) => isCredentialCurrent(s.storage, ref);
  const access = getEventAccess(s.model);
  let worker: DeliveryWorker | undefined;
  let relay: BrokerRelay | undefined;
  let sender: ReturnType<typeof createSender> | undefined;

  app.addHook('onReady', async () => {
    await hub.start();
    if (deliver) {
      sender = createSender(policy, o.lookup, schedulerClock);
      worker = createDeliveryWorker({
        storage: s.storage,
        credentialCurrent,
        model: s.model,
        hub,
        sender,
        log: app.log,
        now: clock,
        clock: schedulerClock,
        lag,
        random: o.random ?? Math.random,
        jitter: o.jitter ?? EVENTS_BUILT_IN.jitter,
        concurrency: o.concurrency ?? EVENTS_BUILT_IN.concurrency,
        pollIntervalMs,
        maxRetryAfterMs: o.maxRetryAfterMs ?? EVENTS_BUILT_IN.maxRetryAfterMs,
        ...(s.onDelivery ? { onOutcome: s.onDelivery } : {}),
      });
      worker.start();
    }
    if (o.broker && broker) {
      relay = createBrokerRelay({
        model: s.model,
        storage: s.storage,
        hub,
        publisher: await createBrokerPublisher(o.broker, s.model),
        log: app.log,
        now: clock,
        clock: schedulerClock,
        lag,
        pollIntervalMs,
      });
      await relay.start();
    }
  });
  // Streams never go idle: end them first, or closing would wait for their clients.
  app.addHook('preClose', async () => {
    for (const stream of [...open]) stream.end();
  });
  app.addHook('onClose', async () => {
    await relay?.stop();
    hub.stop();
    await worker?.stop();
    sender?.close();
  });

  return {
    // Called by the write routes once they have answered (their transactions have committed by then).
    ...(hasEvents ? { nudge: () => hub.nudge() } : {}),
    ...(deliver || broker ? { deliveryLag: () => lag.summary() } : {}),
    ...(o.broker && broker
      ? { brokerHealth: () => relay?.health() ?? Promise.resolve({ broker: o.broker!.protocol, state: 'starting' as const, lag: 0 }) }
      : {}),
    callbacksFor(route) {
      if (o.callbackSecret === undefined) return undefined; // a start problem (getEventStartProblems) unless no operation has callbacks
      return createCallbackHooks(route, {
        storage: s.storage,
        model: s.model,
        policy,
        ...(o.lookup ? { lookup: o.lookup } : {}),
        now: s.now,
        secret: o.callbackSecret,
        log: app.log,
      });
    },
    handlerFor(route) {
      if (route.kind === 'stream') {
        return createStreamHandler(route, {
          model: s.model,
          storage: s.storage,
          hub,
          access,
          credentialCurrent,
          ...(s.model.events?.stream?.heartbeat ? { heartbeatMs: s.model.events.stream.heartbeat.ms } : {}),
          open,
        });
      }
      return createWebhookHandler(route, {
        storage: s.storage,
        model: s.model,
        policy,
        ...(o.lookup ? { lookup: o.lookup } : {}),
        now: s.now,
        compile: s.compile,
        rotationGraceMs: o.rotationGraceMs ?? EVENTS_BUILT_IN.rotationGraceMs,
      });
    },
  };
}
