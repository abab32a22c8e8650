import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStore } from '../../src/runtime/limits/limits-store.js';
import { loadModel, startService, type Running } from '../runtime/helpers.js';
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
    a = await startService(loadModel(LIMITED), { handlers, rateLimitStore: store() });
    b = await startService(loadModel(LIMITED), { handlers, rateLimitStore: store() });
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
    // Over-admission, reported: the declared budget is 5 per minute for the operation.
    console.info(`redis limiter: ${admitted} admitted of 50 concurrent (budget 5), over-admission ${Math.max(0, admitted - 5)}`);
    expect(admitted).toBe(5);
    expect(refused).toBe(45);
  });
});

describe('an unreachable Redis', () => {
  it.each(['open', 'closed'] as const)('holds the declared failure mode (%s) and logs it', async (mode) => {
    const { compileSpecText } = await import('../../src/program.js');
    const { readFileSync } = await import('node:fs');
    const text = readFileSync(LIMITED, 'utf8').replace('by: operation, operations: [limited] }', `by: operation, operations: [limited], on_store_failure: ${mode} }`);
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
