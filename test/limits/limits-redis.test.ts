import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStore } from '../../src/runtime/limits/limits-store.js';
import { readFileSync } from 'node:fs';
import { compileSpecText } from '../../src/program.js';
import { startService, type Running } from '../runtime/helpers.js';
import { needService } from '../support/services.js';

const LIMITED = new URL('./fixtures/limited.yaml', import.meta.url).pathname;
const redisUp = await needService('Redis', 6379);
const handlers = { ping: () => ({ ok: true }), slow: () => ({ ok: true }) };

describe.runIf(redisUp)('rate limits shared through Redis', () => {
  const prefix = `servicespec:test:${process.pid}:${Date.now()}:`;
  let a: Running;
  let b: Running;
  beforeAll(async () => {
    // A loaded machine can hold 50 concurrent commands past the default 250 ms, and the declared failure mode would
    // then admit them: this test is about the shared budget, so its commands may take longer.
    const store = () => createRedisStore({ url: 'redis://127.0.0.1:6379', prefix, commandTimeoutMs: 10_000 });
    // The budget refills one request every 12 s at 5 per minute, and the fixture's 300 ms time-out answers 503: a
    // loaded machine that spreads the 50 requests over seconds would see a refill or a time-out, neither of which is
    // what this test is about. Per hour, with 30 s to answer, exactly the budget is admitted however slow the run.
    const text = readFileSync(LIMITED, 'utf8')
      .replace('requests: 5, per: 1m, by: operation', 'requests: 5, per: 1h, by: operation')
      .replace('timeout: 300ms', 'timeout: 30s');
    expect(text).toContain('per: 1h, by: operation');
    expect(text).toContain('timeout: 30s');
    const model = compileSpecText(text).model!;
    a = await startService(model, { handlers, rateLimitStore: store() });
    b = await startService(model, { handlers, rateLimitStore: store() });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    const r = new Redis('redis://127.0.0.1:6379');
    const keys = await r.keys(`${prefix}*`);
    if (keys.length) await r.del(...keys);
    r.disconnect();
  });

  it('two instances admit at most the declared budget together under 50 concurrent clients', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).call('GET', '/limited')));
    const admitted = results.filter((r) => r.status === 200).length;
    const refused = results.filter((r) => r.status === 429 && r.body.code === 'rate_limited').length;
    // Over-admission, reported: the declared budget is 5 (per hour here) for the operation.
    console.info(`redis limiter: ${admitted} admitted of 50 concurrent (budget 5), over-admission ${Math.max(0, admitted - 5)}`);
    expect(admitted).toBe(5);
    expect(refused).toBe(45);
  });
});

describe('an unreachable Redis', () => {
  it.each(['open', 'closed'] as const)('holds the declared failure mode (%s) and logs it', async (mode) => {
    const text = readFileSync(LIMITED, 'utf8').replace(
      'by: operation, operations: [limited] }',
      `by: operation, operations: [limited], on_store_failure: ${mode} }`,
    );
    const model = compileSpecText(text).model!;
    const errors: string[] = [];
    // Port 1 on loopback: nothing listens there, so every command fails at once.
    const store = createRedisStore({ url: 'redis://127.0.0.1:1', onError: (e) => errors.push(e.message) });
    const s = await startService(model, { handlers, rateLimitStore: store });
    try {
      const r = await s.call('GET', '/limited');
      if (mode === 'open') expect(r.status).toBe(200);
      else {
        expect(r.status).toBe(429);
        expect(r.body.code).toBe('rate_limited');
      }
      expect(errors.length).toBeGreaterThan(0);
    } finally {
      await s.close();
    }
  });
});
