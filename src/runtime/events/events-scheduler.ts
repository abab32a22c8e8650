// The delivery scheduler's parts shared by webhooks (events-delivery.ts) and the broker relay (events-broker.ts):
// the clock (injected: tests move time by hand), one timer armed for the earliest due time, and the lag
// (when work was done − when it was due) of recent deliveries, for health and the metrics.
//
// Why retries came late under load (issue 30, item 3), and what answers each cause:
// - a timed pass fanned the outbox out before it claimed what was due: under write load that is the slowest step
//   (500 events a batch, a lock across instances); a pass now claims due work first;
// - the timer was armed only when a pass ended (a pass under load keeps going while writes nudge it); a retry's due
//   time is now armed the moment its outcome is known;
// - an attempt's concurrency slot was held until its outcome was written: a slot is freed when the receiver answers;
// - claims and the fan-out ran in one loop: they are separate passes now (events-delivery.ts);
// - the worker's claims and outcomes waited for a connection behind the requests (PostgreSQL pool), and outcome
//   batches, one statement per delivery, took every connection the worker had: on PostgreSQL the worker has three
//   of its own (storage-postgres.ts, `background`), outcomes go one batch (one statement) at a time.
// (On SQLite the worker's statements still share the one queue with the requests; not measured under load here.)

import { SYSTEM_CLOCK, type Clock } from '../../util/util-clock.js';

/** Time and timers, in milliseconds since the epoch; the system's unless a test injects its own. */
export type SchedulerClock = Clock;
export { SYSTEM_CLOCK };

/** The system's timers with another notion of now (WebhookOptions.now without injected timers). */
export function withNow(now: () => number): SchedulerClock {
  return { ...SYSTEM_CLOCK, now };
}

export interface DueTimer {
  /** Fire at `at` (or sooner: at most `maxWaitMs` from now); an earlier arming wins over a later one. */
  arm(at: number): void;
  clear(): void;
}

/** One timer for the earliest due time asked for. */
export function createDueTimer(clock: SchedulerClock, fire: () => void, maxWaitMs: number): DueTimer {
  let handle: unknown;
  let armedAt = Infinity;
  const clear = () => {
    if (handle !== undefined) clock.clearTimer(handle);
    handle = undefined;
    armedAt = Infinity;
  };
  return {
    arm(at) {
      const now = clock.now();
      const target = Math.min(at, now + maxWaitMs);
      if (handle !== undefined && armedAt <= target) return;
      clear();
      armedAt = target;
      handle = clock.setTimer(
        () => {
          handle = undefined;
          armedAt = Infinity;
          fire();
        },
        Math.max(0, target - now),
      );
    },
    clear,
  };
}

export type DeliveryChannel = 'webhook' | 'broker';
/** A webhook's first attempt (due when the event was fanned out), a retry (due at its declared delay), a broker publish (due at commit). */
export type LagKind = 'first' | 'retry' | 'publish';

export interface LagSummary {
  /** Samples in the window (the latest WINDOW attempts). */
  count: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

export interface DeliveryLag {
  observe(channel: DeliveryChannel, kind: LagKind, lagMs: number): void;
  /** By channel and kind, over the latest attempts; only those seen. */
  summary(): Partial<Record<`${DeliveryChannel}.${LagKind}`, LagSummary>>;
}

const WINDOW = 512;

function quantile(sorted: readonly number[], q: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

/** Keeps the latest lags per channel and kind; `listener` hears every one (the metrics' histogram). */
export function createDeliveryLag(listener?: (channel: DeliveryChannel, kind: LagKind, seconds: number) => void): DeliveryLag {
  const windows = new Map<`${DeliveryChannel}.${LagKind}`, { samples: number[]; next: number }>();
  return {
    observe(channel, kind, lagMs) {
      const ms = Math.max(0, lagMs);
      const key = `${channel}.${kind}` as const;
      let w = windows.get(key);
      if (!w) windows.set(key, (w = { samples: [], next: 0 }));
      if (w.samples.length < WINDOW) w.samples.push(ms);
      else w.samples[w.next] = ms;
      w.next = (w.next + 1) % WINDOW;
      listener?.(channel, kind, ms / 1000);
    },
    summary() {
      const out: Partial<Record<`${DeliveryChannel}.${LagKind}`, LagSummary>> = {};
      for (const [key, w] of windows) {
        const sorted = [...w.samples].sort((a, b) => a - b);
        out[key] = { count: sorted.length, p50Ms: quantile(sorted, 0.5), p95Ms: quantile(sorted, 0.95), maxMs: sorted[sorted.length - 1] ?? 0 };
      }
      return out;
    },
  };
}
