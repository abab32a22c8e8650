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
import {
  getEndpointAccess,
  type ClaimedDelivery,
  type DeliveryOutcome,
  type EventStorage,
  type WebhookAccess,
  type WebhookEndpointRecord,
} from '../storage/storage-types.js';
import type { OutboxHub } from './events-hub.js';
import { createObjectMatch } from './events-callbacks.js';
import { createEventBody } from './events-payload.js';
import { EVENTS_BUILT_IN } from './events-options.js';
import type { AttemptResult, Sender } from './events-send.js';
import { signWebhook } from './events-signing.js';
import { createDueTimer, withNow, type DeliveryLag, type SchedulerClock } from './events-scheduler.js';
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
  /** Timers with the same notion of now as `now` (the system's timers by default; tests inject a clock they move). */
  clock?: SchedulerClock;
  /** Told how late each attempt started (now − its due time). */
  lag?: DeliveryLag;
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
  const visible = (access: WebhookAccess, type: string, data: unknown) =>
    (access.object === undefined || aboutObject(access.object, data)) && events.sees(getAccessPrincipal(access), type, data);
  const retries = (o.model.events?.webhook?.retries ?? EVENTS_BUILT_IN.retriesMs.map((ms) => ({ ms }))).map((d) => d.ms);
  const timeoutMs = o.model.events?.webhook?.timeout?.ms ?? EVENTS_BUILT_IN.timeoutMs;
  const leaseMs = timeoutMs + LEASE_MARGIN_MS;
  const clock = o.clock ?? withNow(o.now);
  /** Concurrency slots taken: each is freed when its receiver has answered (the outcome is written after). */
  const inFlight = new Set<Promise<void>>();
  /** Attempts not finished yet (their outcomes not written): stop() waits for them. */
  const working = new Set<Promise<void>>();
  let stopped = true;
  /** The outbox position the last fan-out covered (-1: fan out on the next pass whatever the hub says). */
  let fannedTo = -1;
  /** Whether the queue may hold due work; false after a pass found none, until a fan-out or a timed pass. */
  let mayHaveWork = true;
  let unsubscribe: (() => void) | undefined;
  // Outcomes are written in batches, one batch at a time: those that end while one is written wait and go together
  // in the next. So outcomes take one of the worker's connections, never all of them (claims need one when due).
  let outcomes: { seq: number; endpointId: string; outcome: DeliveryOutcome; done: (err?: unknown) => void }[] = [];
  let writing = false;

  function flushOutcomes(): void {
    if (writing || outcomes.length === 0) return;
    writing = true;
    // The attempts that end in this turn of the event loop join the batch.
    setImmediate(() => {
      const batch = outcomes;
      outcomes = [];
      o.storage
        .finishDeliveries(batch)
        .then(
          () => batch.forEach((b) => b.done()),
          (err: unknown) => batch.forEach((b) => b.done(err)),
        )
        .finally(() => {
          writing = false;
          flushOutcomes();
        });
    });
  }

  function record(seq: number, endpointId: string, outcome: DeliveryOutcome): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      outcomes.push({ seq, endpointId, outcome, done: (err) => (err === undefined ? resolve() : reject(err)) });
      flushOutcomes();
    });
  }

  // One timer, armed for the earliest due time known (a retry's, the queue's next) and at most a poll interval away.
  const timer = createDueTimer(
    clock,
    () => {
      // A timed pass also picks up what other processes queued (a replay, say).
      fannedTo = -1;
      mayHaveWork = true;
      nudge();
    },
    o.pollIntervalMs,
  );

  function schedule(at: number | undefined): void {
    if (stopped) return;
    timer.arm(at ?? Infinity);
  }

  /** Claims due deliveries for the free slots, earliest due first, and starts their attempts; true when it filled them all. */
  async function claim(): Promise<boolean> {
    const free = o.concurrency - inFlight.size;
    if (free <= 0 || stopped || !(mayHaveWork || inFlight.size > 0)) return false;
    const claimed = await o.storage.claimDeliveries(clock.now(), leaseMs, free);
    for (const c of claimed) {
      let release!: () => void;
      const slot = new Promise<void>((resolve) => (release = resolve));
      const work = attempt(c, release)
        .catch((err: unknown) => o.log.error({ err, event: c.event.id, endpoint: c.endpoint.id }, 'webhook delivery failed unexpectedly'))
        .finally(() => {
          release();
          working.delete(work);
        });
      working.add(work);
      inFlight.add(slot);
      void slot.then(() => {
        inFlight.delete(slot);
        claims.run();
      });
    }
    return claimed.length === free;
  }

  /**
   * A task run soon and never twice at once: calls in the same turn of the event loop share one run, and a call
   * during a run makes one more run after it.
   */
  function createPass(work: () => Promise<void>): { run(): void; readonly running: boolean } {
    let running = false;
    let again = false;
    let queued = false;
    const pass = {
      run(): void {
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
          again = false;
          void work().finally(() => {
            running = false;
            if (again && !stopped) pass.run();
          });
        });
      },
      get running() {
        return running;
      },
    };
    return pass;
  }

  /** Fan-outs counted: a claim pass that saw none pending knows whether one queued work since it looked. */
  let fanOuts = 0;

  // Claims and the fan-out are separate passes: a due retry is claimed while a fan-out (the slow step under write
  // load: a batch of 500, a lock across instances) is still running, never behind it.
  const claims = createPass(async () => {
    try {
      while ((await claim()) && !stopped && inFlight.size < o.concurrency);
      if (!mayHaveWork && inFlight.size === 0) {
        schedule(undefined);
        return;
      }
      const before = fanOuts;
      const next = await o.storage.nextDeliveryAt();
      // Nothing pending and nothing in flight: no claims until a fan-out queues something (or a timed pass).
      if (next === undefined && inFlight.size === 0 && fanOuts === before) mayHaveWork = false;
      schedule(next);
    } catch (err) {
      if (!stopped) {
        o.log.error({ err }, 'webhook delivery worker failed; retrying');
        schedule(clock.now() + o.pollIntervalMs);
      }
    }
  });

  const fanOut = createPass(async () => {
    // Only when the outbox moved since the last fan-out (not when an attempt merely ended).
    const seen = o.hub.lastSeq;
    if (seen <= fannedTo || stopped) return;
    try {
      let n: number;
      do {
        n = await o.storage.fanOutEvents(clock.now(), FAN_OUT_BATCH, visible);
        if (n > 0) {
          fanOuts++;
          mayHaveWork = true;
          claims.run();
        }
      } while (n === FAN_OUT_BATCH && !stopped);
      fannedTo = seen;
    } catch (err) {
      if (!stopped) {
        o.log.error({ err }, 'webhook fan-out failed; retrying');
        schedule(clock.now() + o.pollIntervalMs);
      }
    }
  });

  /** Look for work soon: what is due, and what the outbox holds that is not fanned out yet. */
  function nudge(): void {
    claims.run();
    fanOut.run();
  }

  /**
   * Checked again before each attempt (fan-out already left out what the endpoint may not see): an endpoint whose
   * credential was revoked is disabled, and an event it may not see (queued by an older version) is withheld.
   */
  async function mayReceive(access: WebhookAccess, c: ClaimedDelivery): Promise<boolean> {
    const { delivery, event, endpoint } = c;
    const at = new Date(clock.now()).toISOString();
    if (access.credential && !(await o.credentialCurrent(access.credential))) {
      const reason = 'the credential that registered it was revoked';
      await o.storage.setWebhookDisabled(endpoint.id, { at, reason });
      o.log.warn({ endpoint: endpoint.id }, `webhook endpoint disabled: ${reason}`);
      return false;
    }
    if (visible(access, event.type, event.data)) return true;
    await record(delivery.seq, endpoint.id, {
      status: 'dead',
      attempts: delivery.attempts,
      nextAttemptAt: clock.now(),
      at,
      lastError: 'withheld: the principal that registered the endpoint may not read this event',
    });
    return false;
  }

  function delayFor(attempts: number, r: AttemptResult): number {
    if (r.status !== undefined && RETRY_AFTER_STATUSES.has(r.status) && r.retryAfterMs !== undefined) return Math.min(r.retryAfterMs, o.maxRetryAfterMs);
    const base = retries[attempts - 1] ?? 0;
    return Math.max(0, Math.round(base * (1 + o.jitter * (2 * o.random() - 1))));
  }

  /** One attempt; `release` frees its concurrency slot once the receiver has answered (before the outcome is written). */
  async function attempt(c: ClaimedDelivery, release: () => void): Promise<void> {
    const { delivery, event, endpoint } = c;
    const attempts = delivery.attempts + 1;
    const access = getEndpointAccess(endpoint);
    if (access && !(await mayReceive(access, c))) return;
    const started = clock.now();
    if (c.dueAt !== undefined) o.lag?.observe('webhook', delivery.attempts > 0 ? 'retry' : 'first', started - c.dueAt);
    const body = eventBody(event);
    const secrets = signingSecrets(endpoint, started);
    let r: AttemptResult;
    if (secrets.length === 0) r = { error: 'the endpoint has no current secret' };
    else r = await o.sender.send(endpoint.url, { ...signWebhook(secrets, event.id, Math.floor(started / 1000), body) }, body, timeoutMs);
    release();
    const now = clock.now();
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
    // The retry's due time is known here: the timer is armed for it now, not when some later pass ends.
    if (outcome.status === 'pending') schedule(outcome.nextAttemptAt);
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
      timer.clear();
      await Promise.allSettled([...working]);
      // A loop still running finishes its storage calls before the storage closes.
      while (claims.running || fanOut.running) await new Promise((r) => setTimeout(r, 5));
    },
  };
}
