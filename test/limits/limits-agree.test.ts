// The rate limiter is written twice: in JavaScript (the in-process store) and in Lua (the Redis store, run
// atomically by Redis). Both are given the same clock and the same sequences of requests; every decision must be
// the same. Needs Redis on 127.0.0.1:6379 (skipped, with the reason printed, when it is not answering).
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryStore, createRedisStore, gcra, type Decision, type RateLimitStore } from '../../src/runtime/limits/limits-store.js';
import { needService } from '../support/services.js';

const redisUp = await needService('Redis', 6379);
const PREFIX = `servicespec:test:agree:${process.pid}:${Date.now()}:`;

interface Step {
  /** Milliseconds since the previous request. */
  dt: number;
  /** Which policy (and key) the request counts against. */
  policy: number;
}

interface Policy {
  requests: number;
  windowMs: number;
}

let run = 0;

async function decide(store: RateLimitStore, policies: readonly Policy[], steps: readonly Step[], clock: { t: number }, start: number): Promise<Decision[]> {
  clock.t = start;
  const out: Decision[] = [];
  for (const s of steps) {
    clock.t += s.dt;
    const p = policies[s.policy % policies.length]!;
    out.push(await store.take(`k${s.policy % policies.length}`, p.requests, p.windowMs));
  }
  return out;
}

async function compare(policies: readonly Policy[], steps: readonly Step[], start: number): Promise<{ js: Decision[]; lua: Decision[] }> {
  const clock = { t: start };
  const memory = createMemoryStore(() => clock.t);
  const redis = createRedisStore({ url: 'redis://127.0.0.1:6379', prefix: `${PREFIX}${run++}:`, now: () => clock.t });
  try {
    return { js: await decide(memory, policies, steps, clock, start), lua: await decide(redis, policies, steps, clock, start) };
  } finally {
    await memory.close();
    await redis.close();
  }
}

describe.runIf(redisUp)('the JavaScript and Lua rate limiters', () => {
  afterAll(async () => {
    const r = new Redis('redis://127.0.0.1:6379');
    const keys = await r.keys(`${PREFIX}*`);
    if (keys.length) await r.del(...keys);
    r.disconnect();
  });

  it('decide alike on the same sequence of requests', async () => {
    const policy = fc.record({
      requests: fc.integer({ min: 1, max: 50 }),
      windowMs: fc.oneof(fc.constantFrom(1000, 60_000, 3_600_000, 86_400_000), fc.integer({ min: 1, max: 10_000_000 })),
    });
    const step = fc.record({
      dt: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: 100_000_000 })),
      policy: fc.nat({ max: 2 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(policy, { minLength: 1, maxLength: 3 }),
        fc.array(step, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1_500_000_000_000, max: 2_000_000_000_000 }),
        async (policies, steps, start) => {
          const { js, lua } = await compare(policies, steps, start);
          expect(lua).toEqual(js);
        },
      ),
      // Found by this property: the Lua step's 1e-6 slack against JavaScript's 1e-9, and its TAT stored to 14 digits.
      { numRuns: 150, examples: [[[{ requests: 7, windowMs: 720_983 }], [{ dt: 0, policy: 0 }], 1_500_000_000_000]] },
    );
  });

  it('spend a budget alike: 7 per minute, a burst, then one request every 8.5 s', async () => {
    const steps = [...Array.from({ length: 9 }, () => ({ dt: 0, policy: 0 })), ...Array.from({ length: 30 }, () => ({ dt: 8_500, policy: 0 }))];
    const { js, lua } = await compare([{ requests: 7, windowMs: 60_000 }], steps, 1_763_900_000_123);
    expect(js.filter((d) => d.allowed).length).toBeGreaterThan(7);
    expect(lua).toEqual(js);
  });
});

describe("the JavaScript rate limiter at today's clock", () => {
  // Each step rounds the TAT by at most half a double's step near 2e12 ms (1.2e-4 ms), so GCRA_TOLERANCE_MS (1e-3)
  // covers a burst of up to 8; longer bursts at sub-millisecond intervals may count `remaining` one short.
  it('admits a whole budget of up to 8 in a burst, counting down by one, and then refuses', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 100_000_000 }),
        fc.integer({ min: 1_500_000_000_000, max: 2_000_000_000_000 }),
        (requests, windowMs, now) => {
          let tat: number | undefined;
          for (let i = 1; i <= requests; i++) {
            const step = gcra(tat, now, requests, windowMs);
            expect(step.decision).toMatchObject({ allowed: true, remaining: requests - i });
            tat = step.tat;
          }
          expect(gcra(tat, now, requests, windowMs).decision.allowed).toBe(false);
        },
      ),
      { examples: [[7, 720_983, 1_500_000_000_000]] },
    );
  });
});
