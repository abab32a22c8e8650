// The injected clock: time and timers that tests move by hand (the webhook worker, the broker relay, the
// PostgreSQL outbox sequencer, the request time-out, SQLite's credential cache); the system's unless a caller
// passes its own.

/** Time and timers, in milliseconds; the system's unless a test injects its own. */
export interface Clock {
  now(): number;
  /** Calls `fire` once after `ms` (never keeps the process alive). */
  setTimer(fire: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

/** The system's timers, and the time since the epoch. */
export const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  setTimer(fire, ms) {
    const t = setTimeout(fire, ms);
    t.unref();
    return t;
  },
  clearTimer: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** The system's timers, and a monotonic now (for intervals: a step of the wall clock does not stretch them). */
export const MONOTONIC_CLOCK: Clock = { ...SYSTEM_CLOCK, now: () => performance.now() };
