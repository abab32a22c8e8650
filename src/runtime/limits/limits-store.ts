import { createRequire } from 'node:module';
import type { Redis as RedisClient } from 'ioredis';

// GCRA (the generic cell rate algorithm): one stored number per key, the theoretical arrival time
// (TAT). A policy of `requests` per `window` admits a request when it would not push the TAT more
// than one window ahead of now. Exact, no window-boundary bursts, O(1) per request.

export interface Decision {
  allowed: boolean;
  /** Requests still admitted right now. */
  remaining: number;
  /** Milliseconds until the quota is whole again. */
  resetMs: number;
  /** When refused: milliseconds until one request would be admitted. */
  retryAfterMs: number;
}

export interface RateLimitStore {
  readonly kind: 'memory' | 'redis';
  /** One request against the key's budget. A store that decides in-process may answer synchronously. */
  take(key: string, requests: number, windowMs: number): Decision | Promise<Decision>;
  /** Resolves when a shared store answers (the health route); in-process stores have none. */
  ping?(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TAT is a fractional millisecond near 1.8e12, where a double is exact only to 2.4e-4 ms: sums and differences
 * are compared with this slack, so a budget's edge is not lost to rounding (7 per window, one request taken,
 * leaves 6). The Lua step below uses the same constant and the same operations in the same order, so the two
 * decide alike (test/limits/limits-agree.test.ts).
 */
export const GCRA_TOLERANCE_MS = 0.001;

/** The GCRA step: from the stored TAT (or undefined) and now, the decision and the TAT to store. */
export function gcra(tat: number | undefined, now: number, requests: number, windowMs: number): { decision: Decision; tat: number } {
  const interval = windowMs / requests;
  const base = Math.max(tat ?? now, now);
  const next = base + interval;
  if (next - now > windowMs + GCRA_TOLERANCE_MS) {
    const retryAfterMs = Math.ceil(next - now - windowMs);
    return { decision: { allowed: false, remaining: 0, resetMs: Math.ceil(base - now), retryAfterMs }, tat: base };
  }
  const remaining = Math.floor((windowMs - (next - now) + GCRA_TOLERANCE_MS) / interval);
  return { decision: { allowed: true, remaining, resetMs: Math.ceil(next - now), retryAfterMs: 0 }, tat: next };
}

/** In-process store: exact for one instance. */
export function createMemoryStore(now: () => number = Date.now): RateLimitStore {
  const tats = new Map<string, number>();
  let sweeps = 0;
  return {
    kind: 'memory',
    take(key, requests, windowMs) {
      const t = now();
      const { decision, tat } = gcra(tats.get(key), t, requests, windowMs);
      tats.set(key, tat);
      // Drop keys whose TAT has passed: they carry no state beyond "full quota".
      if (++sweeps % 10_000 === 0) for (const [k, v] of tats) if (v <= t) tats.delete(k);
      return decision;
    },
    async close() {
      tats.clear();
    },
  };
}

// The same step in Lua, run atomically by Redis with Redis's own clock, so every instance agrees (ARGV[3], a
// clock of the caller's, only when the store is given one: test/limits/limits-agree.test.ts).
const GCRA_LUA = `
local now = tonumber(ARGV[3])
if now == nil then
  local now_parts = redis.call('TIME')
  now = tonumber(now_parts[1]) * 1000 + math.floor(tonumber(now_parts[2]) / 1000)
end
local requests = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local interval = window / requests
local tat = tonumber(redis.call('GET', KEYS[1]))
if tat == nil or tat < now then tat = now end
local nxt = tat + interval
if nxt - now > window + ${GCRA_TOLERANCE_MS} then
  return {0, 0, math.ceil(tat - now), math.ceil(nxt - now - window)}
end
redis.call('SET', KEYS[1], string.format('%.17g', nxt), 'PX', math.ceil(nxt - now) + 1000)
local remaining = math.floor((window - (nxt - now) + ${GCRA_TOLERANCE_MS}) / interval)
return {1, remaining, math.ceil(nxt - now), 0}
`;

export interface RedisStoreOptions {
  url: string;
  /** Called once per failure episode, for the log. */
  onError?: (err: Error) => void;
  prefix?: string;
  /** The clock, for tests that compare this store with the in-process one; by default Redis's own. */
  now?: () => number;
  /** How long a command may take before the policy's failure mode decides (default 250 ms). */
  commandTimeoutMs?: number;
}

export class RateLimitStoreUnavailable extends Error {
  constructor() {
    super('the rate-limit store is unavailable');
    this.name = 'RateLimitStoreUnavailable';
  }
}

const require = createRequire(import.meta.url);
let driver: typeof RedisClient | undefined;

/** ioredis, loaded when a Redis store is first made, so importing the package or serving without Redis does not pay for it. */
function loadRedis(): typeof RedisClient {
  driver ??= (require('ioredis') as { Redis: typeof RedisClient }).Redis;
  return driver;
}

/** Redis store: several instances share one budget. Commands time out fast; a dead Redis never hangs a request: `take` throws RateLimitStoreUnavailable and each policy's declared failure mode decides. */
export function createRedisStore(options: RedisStoreOptions): RateLimitStore {
  const redis = new (loadRedis())(options.url, {
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 250,
    connectTimeout: 1000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  // The first requests after start wait for the connection (at most connectTimeout), rather than failing
  // open or closed while it is still being made.
  let connecting: Promise<void> | undefined = new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      connecting = undefined;
      resolve();
    };
    const timer = setTimeout(done, 1000).unref();
    redis.once('ready', done);
  });
  let failing = false;
  redis.on('error', (err: Error) => {
    if (!failing) options.onError?.(err);
    failing = true;
  });
  redis.on('ready', () => {
    failing = false;
  });
  const prefix = options.prefix ?? 'servicespec:rl:';
  return {
    kind: 'redis',
    async take(key, requests, windowMs) {
      if (connecting) await connecting;
      try {
        const [allowed, remaining, resetMs, retryAfterMs] = (await redis.eval(
          GCRA_LUA,
          1,
          `${prefix}${key}`,
          requests,
          windowMs,
          ...(options.now ? [options.now()] : []),
        )) as number[];
        return { allowed: allowed === 1, remaining: remaining!, resetMs: resetMs!, retryAfterMs: retryAfterMs! };
      } catch (err) {
        if (!failing) options.onError?.(err as Error);
        failing = true;
        throw new RateLimitStoreUnavailable();
      }
    },
    async ping() {
      if (connecting) await connecting;
      await redis.ping();
    },
    async close() {
      redis.disconnect();
    },
  };
}
