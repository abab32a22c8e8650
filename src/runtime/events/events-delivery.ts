// The webhook delivery worker. The queue is the database (storage `// events` section):
//
//   outbox ──fan-out (stored cursor)──▶ one pending delivery per endpoint ──claim (lease)──▶ attempt ──▶ outcome
//
// Fan-out and every outcome are committed before the next step, so an event committed before a crash (even one
// not yet fanned out) is delivered after the restart, and a delivery whose attempt was cut off by a crash is
// attempted again when its lease runs out: at least once, with the same `webhook-id` (the event's id) every time.
//
// Outcomes: 2xx delivered; 410 disables the endpoint; anything else is retried after the spec's next delay
// (scaled by jitter), or after the receiver's Retry-After on 429, 502, 503 and 504; after the last delay the
// delivery is dead (dead-lettered) until it is replayed.

import type { DeliveryOutcomeName } from '../runtime-metrics.js';
import type { FastifyBaseLogger } from 'fastify';
import type { ServiceModel } from '../../model/model-types.js';
import { getEventAccess, type CredentialRef } from '../runtime-access.js';
import { getEndpointAccess, type ClaimedDelivery, type DeliveryOutcome, type EventStorage, type WebhookAccess, type WebhookEndpointRecord } from '../storage/storage-types.js';
import type { OutboxHub } from './events-hub.js';
import { createObjectMatch } from './events-callbacks.js';
import { createEventBody } from './events-payload.js';
import { EVENTS_BUILT_IN } from './events-options.js';
import type { AttemptResult, Sender } from './events-send.js';
import { signWebhook } from './events-signing.js';
import { getAccessPrincipal } from './events-webhooks.js';

const RETRY_AFTER_STATUSES = new Set([429, 502, 503, 504]);
const FAN_OUT_BATCH = 500;
const LEASE_MARGIN_MS = 1_000;

export interface DeliveryWorkerOptions {
  storage: EventStorage;
  /** Whether the stored credential behind an API-registered endpoint is still valid (not revoked). */
  credentialCurrent: (ref: CredentialRef) => boolean | Promise<boolean>;
  model: ServiceModel;
  hub: OutboxHub;
  sender: Sender;
  log: FastifyBaseLogger;
  now: () => number;
  random: () => number;
  jitter: number;
  concurrency: number;
  pollIntervalMs: number;
  maxRetryAfterMs: number;
  /** Told each attempt's outcome (the service's metrics, when on). */
  onOutcome?: (outcome: DeliveryOutcomeName) => void;
}

export interface DeliveryWorker {
  start(): void;
  /** Look for work now. */
  nudge(): void;
  /** Stops taking work and waits for attempts in flight. */
  stop(): Promise<void>;
}

/** The secrets that sign at `now`: the current one and, during a rotation, the previous one. */
export function signingSecrets(endpoint: WebhookEndpointRecord, now: number): string[] {
  return endpoint.secrets.filter((s) => s.expiresAt === undefined || Date.parse(s.expiresAt) > now).map((s) => s.secret);
}

export function createDeliveryWorker(o: DeliveryWorkerOptions): DeliveryWorker {
  const events = getEventAccess(o.model);
  const eventBody = createEventBody(o.model);
  const aboutObject = createObjectMatch(o.model);
  // A callback's subscription (access.object) takes only the events about its object (events-callbacks.ts).
  const visible = (access: WebhookAccess, type: string, data: unknown) => (access.object === undefined || aboutObject(access.object, data)) && events.sees(getAccessPrincipal(access), type, data);
  const retries = (o.model.events?.webhook?.retries ?? EVENTS_BUILT_IN.retriesMs.map((ms) => ({ ms }))).map((d) => d.ms);
  const timeoutMs = o.model.events?.webhook?.timeout?.ms ?? EVENTS_BUILT_IN.timeoutMs;
  const leaseMs = timeoutMs + LEASE_MARGIN_MS;
  const inFlight = new Set<Promise<void>>();
  let running = false;
  let again = false;
  let queued = false;
  let stopped = true;
  /** The outbox position the last fan-out covered (-1: fan out on the next pass whatever the hub says). */
  let fannedTo = -1;
  /** Whether the queue may hold due work; false after a pass found none, until a fan-out or a timed pass. */
  let mayHaveWork = true;
  let timer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;
  // Outcomes of attempts that ended in the same turn are written together: one place in the storage's queue,
  // not one each behind the service's own transactions.
  let outcomes: { seq: number; endpointId: string; outcome: DeliveryOutcome; done: (err?: unknown) => void }[] = [];

  function record(seq: number, endpointId: string, outcome: DeliveryOutcome): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      outcomes.push({ seq, endpointId, outcome, done: (err) => (err === undefined ? resolve() : reject(err)) });
      if (outcomes.length > 1) return;
      setImmediate(() => {
        const batch = outcomes;
        outcomes = [];
        o.storage.finishDeliveries(batch).then(
          () => batch.forEach((b) => b.done()),
          (err: unknown) => batch.forEach((b) => b.done(err)),
        );
      });
    });
  }

  function schedule(at: number | undefined): void {
    if (stopped) return;
    const wait = Math.max(0, Math.min(at === undefined ? Infinity : at - o.now(), o.pollIntervalMs));
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      // A timed pass also picks up what other processes queued (a replay, say).
      fannedTo = -1;
      mayHaveWork = true;
      nudge();
    }, wait);
    timer.unref();
  }

  /** Runs a pass soon; nudges in the same turn of the event loop (many attempts ending, many writes) share one. */
  function nudge(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    if (queued) return;
    queued = true;
    setImmediate(() => {
      queued = false;
      if (stopped || running) return;
      running = true;
      void loop().finally(() => {
        running = false;
        if (again && !stopped) nudge();
      });
    });
  }

  async function loop(): Promise<void> {
    try {
      do {
        again = false;
        // Fan out only when the outbox moved since the last fan-out (not when an attempt merely ended).
        const seen = o.hub.lastSeq;
        if (seen > fannedTo) {
          let n: number;
          do {
            n = await o.storage.fanOutEvents(o.now(), FAN_OUT_BATCH, visible);
            if (n > 0) mayHaveWork = true;
          } while (n === FAN_OUT_BATCH && !stopped);
          fannedTo = seen;
        }
        const free = o.concurrency - inFlight.size;
        if (free > 0 && !stopped && (mayHaveWork || inFlight.size > 0)) {
          const claimed = await o.storage.claimDeliveries(o.now(), leaseMs, free);
          for (const c of claimed) {
            const p = attempt(c).catch((err: unknown) => o.log.error({ err, event: c.event.id, endpoint: c.endpoint.id }, 'webhook delivery failed unexpectedly'));
            inFlight.add(p);
            void p.finally(() => {
              inFlight.delete(p);
              nudge();
            });
          }
          if (claimed.length === free) again = true;
        }
      } while (again && !stopped && inFlight.size < o.concurrency);
      if (!mayHaveWork && inFlight.size === 0) {
        schedule(undefined);
        return;
      }
      const next = await o.storage.nextDeliveryAt();
      // Nothing pending and nothing in flight: no claims until a fan-out queues something (or a timed pass).
      if (next === undefined && inFlight.size === 0) mayHaveWork = false;
      schedule(next);
    } catch (err) {
      if (!stopped) {
        o.log.error({ err }, 'webhook delivery worker failed; retrying');
        schedule(o.now() + o.pollIntervalMs);
      }
    }
  }

  /**
   * Checked again before each attempt (fan-out already left out what the endpoint may not see): an endpoint whose
   * credential was revoked is disabled, and an event it may not see (queued by an older version) is withheld.
   */
  async function mayReceive(access: WebhookAccess, c: ClaimedDelivery): Promise<boolean> {
    const { delivery, event, endpoint } = c;
    const at = new Date(o.now()).toISOString();
    if (access.credential && !(await o.credentialCurrent(access.credential))) {
      const reason = 'the credential that registered it was revoked';
      await o.storage.setWebhookDisabled(endpoint.id, { at, reason });
      o.log.warn({ endpoint: endpoint.id }, `webhook endpoint disabled: ${reason}`);
      return false;
    }
    if (visible(access, event.type, event.data)) return true;
    await record(delivery.seq, endpoint.id, { status: 'dead', attempts: delivery.attempts, nextAttemptAt: o.now(), at, lastError: 'withheld: the principal that registered the endpoint may not read this event' });
    return false;
  }

  function delayFor(attempts: number, r: AttemptResult): number {
    if (r.status !== undefined && RETRY_AFTER_STATUSES.has(r.status) && r.retryAfterMs !== undefined) return Math.min(r.retryAfterMs, o.maxRetryAfterMs);
    const base = retries[attempts - 1] ?? 0;
    return Math.max(0, Math.round(base * (1 + o.jitter * (2 * o.random() - 1))));
  }

  async function attempt(c: ClaimedDelivery): Promise<void> {
    const { delivery, event, endpoint } = c;
    const attempts = delivery.attempts + 1;
    const access = getEndpointAccess(endpoint);
    if (access && !(await mayReceive(access, c))) return;
    const started = o.now();
    const body = eventBody(event);
    const secrets = signingSecrets(endpoint, started);
    let r: AttemptResult;
    if (secrets.length === 0) r = { error: 'the endpoint has no current secret' };
    else r = await o.sender.send(endpoint.url, { ...signWebhook(secrets, event.id, Math.floor(started / 1000), body) }, body, timeoutMs);
    const now = o.now();
    const at = new Date(now).toISOString();
    const base = { attempts, at, ...(r.status !== undefined ? { lastStatus: r.status } : {}) };
    let outcome: DeliveryOutcome;
    if (r.status !== undefined && r.status >= 200 && r.status < 300 && r.error === undefined) {
      outcome = { ...base, status: 'delivered', nextAttemptAt: now };
    } else if (r.status === 410) {
      outcome = { ...base, status: 'dead', nextAttemptAt: now, lastError: 'the receiver answered 410 Gone; the endpoint is disabled' };
      o.onOutcome?.('dead');
      await record(delivery.seq, endpoint.id, outcome);
      await o.storage.setWebhookDisabled(endpoint.id, { at, reason: 'the receiver answered 410 Gone' });
      o.log.warn({ endpoint: endpoint.id, url: endpoint.url }, 'webhook endpoint answered 410 Gone; disabled');
      return;
    } else {
      const error = r.error ?? `the receiver answered ${r.status}`;
      if (attempts > retries.length) {
        outcome = { ...base, status: 'dead', nextAttemptAt: now, lastError: error };
        o.log.warn({ event: event.id, type: event.type, endpoint: endpoint.id, attempts, error }, 'webhook delivery dead-lettered after the last retry');
      } else {
        outcome = { ...base, status: 'pending', nextAttemptAt: now + delayFor(attempts, r), lastError: error };
      }
    }
    o.onOutcome?.(outcome.status === 'delivered' ? 'delivered' : outcome.status === 'dead' ? 'dead' : 'retry');
    await record(delivery.seq, endpoint.id, outcome);
  }

  return {
    start() {
      stopped = false;
      unsubscribe = o.hub.subscribe(() => nudge());
      nudge();
    },
    nudge,
    async stop() {
      stopped = true;
      unsubscribe?.();
      if (timer) clearTimeout(timer);
      await Promise.allSettled([...inFlight]);
      // A loop still running finishes its storage calls before the storage closes.
      while (running) await new Promise((r) => setTimeout(r, 5));
    },
  };
}
