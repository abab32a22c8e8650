// Bounds on guessing: failed credentials counted per client address and per credential id (`limits.failed_auth`,
// else a logged gap's built-in), and a cap on password hashes running at once.

import type { ServiceModel } from '../../model/model-types.js';
import { gcra } from '../limits/limits-store.js';
import type { Authenticator, Principal } from '../runtime-context.js';
import { fromPluggable, isPending } from '../runtime-steps.js';
import { ServiceError } from '../runtime-errors.js';
import type { RuntimeGap } from '../runtime-built-in.js';

/** Used where the spec shows no `limits.failed_auth` (a runtime gap, served only with --allow-gaps). */
export const FAILED_AUTH_BUILT_IN = { attempts: 10, perMs: 60_000, perText: '1m' } as const;

/** Protective built-ins for password hashing (scrypt, 16 MiB each): at most this many at once, this many waiting. */
export const PASSWORD_HASHING = { concurrent: 2, waiting: 32 } as const;

/** Counters kept in memory at most; expired ones are swept first, then the oldest dropped. */
const MAX_COUNTERS = 100_000;

/** The gap when operations require a credential and the spec shows no bound on failed ones. */
export function getFailedAuthGaps(model: ServiceModel): RuntimeGap[] {
  if (model.limits?.failedAuth !== undefined) return [];
  const required = (model.endpoints?.operations ?? []).some((o) => o.auth?.kind === 'required');
  if (!required) return [];
  const b = FAILED_AUTH_BUILT_IN;
  return [
    {
      part: 'limits',
      item: 'failed authentication bound (limits.failed_auth): not shown',
      builtIn: `answer rate_limited after ${b.attempts} failed credentials per ${b.perText} from one client address or for one user name or key id`,
    },
  ];
}

export interface FailureBound {
  readonly attempts: number;
  readonly perMs: number;
  /** Milliseconds until one more failure would be allowed for any of these keys; 0 when all have room. */
  blockedFor(keys: readonly string[]): number;
  /** Whether any failure is counted (none: nothing is blocked, and the keys need not be made). */
  counting(): boolean;
  /** Counts one failure against each key. */
  fail(keys: readonly string[]): void;
  /**
   * Milliseconds until one more failure is allowed for a request from `address` presenting `ids`: its ids first,
   * then its address — except that an address's spent bound does not hold back a request whose every id has
   * signed in from that address before (`succeeded`), so a guesser behind a shared address (a proxy) cannot lock
   * out the people already using it; each id's own bound still holds.
   */
  blockedForAttempt(address: string, ids: readonly string[]): number;
  /** Remembers that these ids signed in from this address (kept until MAX_COUNTERS newer ones push them out). */
  succeeded(address: string, ids: readonly string[]): void;
}

/** The answer once a bound is spent: the declared rate_limited error with the seconds until one more attempt. */
export function failedAuthRefusal(waitMs: number): ServiceError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new ServiceError('rate_limited', `too many failed credentials from this address or for this credential; retry in ${seconds} s`, undefined, {
    'retry-after': String(seconds),
  });
}

/** The bound the spec declares, else the built-in (served only with --allow-gaps), on the clock `now` (ms). */
export function createFailureBoundFor(model: ServiceModel, now: () => number = Date.now): FailureBound {
  const bound = model.limits?.failedAuth;
  return createFailureBound(bound?.attempts ?? FAILED_AUTH_BUILT_IN.attempts, bound?.per.ms ?? FAILED_AUTH_BUILT_IN.perMs, now);
}

/**
 * An embedding application's own authenticator, bounded per client address: its credential ids and what is
 * guessable are unknown here, so once an address has spent its bound its requests are refused unchecked. The
 * service's own authenticator (which has a token issuer) bounds itself, per address and per id, and is returned
 * as it is.
 */
export function withFailureBound(inner: Authenticator, model: ServiceModel, now: () => number = Date.now): Authenticator {
  if (typeof (inner as { tokenIssuer?: unknown }).tokenIssuer === 'function') return inner;
  const failures = createFailureBoundFor(model, now);
  const counted = (key: string, err: unknown): never => {
    if (err instanceof ServiceError && (err.condition === 'invalid_credential' || err.condition === 'expired_credential')) failures.fail([key]);
    throw err;
  };
  return {
    authenticate(request, requirement) {
      const key = `a:${request.ip}`;
      const wait = failures.counting() ? failures.blockedFor([key]) : 0;
      if (wait > 0) throw failedAuthRefusal(wait);
      let answer: Principal | Promise<Principal>;
      try {
        answer = fromPluggable(inner.authenticate(request, requirement));
      } catch (err) {
        return counted(key, err);
      }
      return isPending(answer) ? answer.catch((err: unknown) => counted(key, err)) : answer;
    },
  };
}

/** GCRA per key, as the rate limits count: `attempts` at once, then one per `perMs / attempts`. In-process. */
export function createFailureBound(attempts: number, perMs: number, now: () => number = Date.now): FailureBound {
  const tats = new Map<string, number>();
  // address + "\n" + id, oldest first.
  const known = new Set<string>();
  const bound: FailureBound = {
    attempts,
    perMs,
    blockedForAttempt(address, ids) {
      if (tats.size === 0) return 0;
      const own = ids.length > 0 ? bound.blockedFor(ids) : 0;
      const shared = bound.blockedFor([address]);
      if (shared === 0 || (ids.length > 0 && ids.every((id) => known.has(`${address}\n${id}`)))) return own;
      return Math.max(own, shared);
    },
    succeeded(address, ids) {
      for (const id of ids) {
        const k = `${address}\n${id}`;
        if (known.has(k)) continue;
        known.add(k);
        if (known.size > MAX_COUNTERS) known.delete(known.values().next().value!);
      }
    },
    blockedFor(keys) {
      if (tats.size === 0) return 0;
      let wait = 0;
      const t = now();
      for (const key of keys) {
        const tat = tats.get(key);
        if (tat === undefined || tat <= t) continue;
        const { decision } = gcra(tat, t, attempts, perMs);
        if (!decision.allowed) wait = Math.max(wait, decision.retryAfterMs);
      }
      return wait;
    },
    counting() {
      return tats.size > 0;
    },
    fail(keys) {
      const t = now();
      for (const key of keys) {
        tats.set(key, gcra(tats.get(key), t, attempts, perMs).tat);
      }
      if (tats.size > MAX_COUNTERS) {
        for (const [k, v] of tats) if (v <= t) tats.delete(k);
        for (const k of tats.keys()) {
          if (tats.size <= MAX_COUNTERS) break;
          tats.delete(k);
        }
      }
    },
  };
  return bound;
}

/** A counting semaphore with a bounded queue: `acquire` gives a release function, or undefined when the queue is full. */
export interface Semaphore {
  acquire(): Promise<(() => void) | undefined>;
}

export function createSemaphore(concurrent: number, waiting: number): Semaphore {
  let running = 0;
  const queue: (() => void)[] = [];
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else running--;
  };
  const once = () => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      release();
    };
  };
  return {
    acquire() {
      if (running < concurrent) {
        running++;
        return Promise.resolve(once());
      }
      if (queue.length >= waiting) return Promise.resolve(undefined);
      return new Promise((resolve) => queue.push(() => resolve(once())));
    },
  };
}
