// The delivery scheduler (events-scheduler.ts) with an injected clock: a retry declared at N seconds is attempted
// when the clock reaches its due time (N scaled by the jitter), not before and not at the next poll; its lag is
// reported by health and the metrics. Real HTTP to a real receiver; only time is moved by hand.

import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDeliveryLag, createDueTimer } from '../../src/runtime/events/events-scheduler.js';
import { loadModel } from '../runtime/helpers.js';
import { EVENTS_SPEC, LOOPBACK, manualClock, startEventService, startReceiver, until } from './helpers.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

describe('the due timer', () => {
  it('fires at the earliest due time asked for, at most the longest wait away', () => {
    const clock = manualClock(1_000);
    const fired: number[] = [];
    const timer = createDueTimer(clock, () => fired.push(clock.now()), 10_000);
    timer.arm(6_000);
    timer.arm(4_000); // earlier: wins
    timer.arm(9_000); // later: ignored
    clock.advance(2_999);
    expect(fired).toEqual([]);
    clock.advance(1);
    expect(fired).toEqual([4_000]);
    timer.arm(Infinity); // nothing due: a pass after the longest wait
    clock.advance(10_000);
    expect(fired).toEqual([4_000, 14_000]);
    timer.arm(20_000);
    timer.clear();
    clock.advance(60_000);
    expect(fired).toEqual([4_000, 14_000]);
  });

  it('keeps the latest lags per channel and kind', () => {
    const heard: number[] = [];
    const lag = createDeliveryLag((_c, _k, s) => heard.push(s));
    for (let i = 1; i <= 100; i++) lag.observe('webhook', 'retry', i);
    lag.observe('broker', 'publish', -5); // a clock step back counts as on time
    expect(lag.summary()).toEqual({
      'webhook.retry': { count: 100, p50Ms: 50, p95Ms: 95, maxMs: 100 },
      'broker.publish': { count: 1, p50Ms: 0, p95Ms: 0, maxMs: 0 },
    });
    expect(heard[0]).toBe(0.001);
  });
});

describe('webhook retries on the injected clock', () => {
  it('a retry declared at 5 s is attempted when the clock reaches its due time (5 s × the jitter factor), and its lag is 0', async () => {
    // The fixture with a 5 s retry and a poll interval far beyond the test: only the armed timer can wake the worker.
    const dir = mkdtempSync(join(tmpdir(), 'servicespec-sched-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const spec = join(dir, 'events.yaml');
    writeFileSync(spec, readFileSync(EVENTS_SPEC, 'utf8').replace('retries: [100ms, 200ms], timeout: 500ms', 'retries: [5s, 10s], timeout: 500ms'));
    const model = loadModel(spec);
    const clock = manualClock(Date.parse('2026-01-01T00:00:00Z'));
    // The receiver notes the injected clock's time of each attempt as it arrives.
    const attemptsAt: number[] = [];
    const r = await startReceiver((n) => (attemptsAt.push(clock.now()), { status: n === 0 ? 503 : 204 }));
    const s = await startEventService({
      model,
      metrics: true,
      webhooks: { allowTargets: LOOPBACK, jitter: 0.2, random: () => 0.75, pollIntervalMs: 3_600_000, clock },
    });
    cleanup.push(
      () => r.close(),
      () => s.close(),
    );
    const started = clock.now();
    const reg = await s.call('POST', '/webhooks', { url: r.url }, { 'x-api-key': s.adminKey });
    expect(reg.status).toBe(201);
    const seen = () => r.received.length;
    expect((await s.call('POST', '/tickets', { title: 'on time' })).status).toBe(201);
    await until(() => seen() >= 1, 5000, 'the first attempt');
    await until(async () => (await s.storage.listDeliveries({}))[0]?.attempts === 1, 5000, 'the first outcome');
    const [d] = await s.storage.listDeliveries({});
    // 5 s × (1 + 0.2 × (2 × 0.75 − 1)) = 5.5 s after the failed attempt
    expect(d!.nextAttemptAt).toBe(started + 5_500);
    // A millisecond before the due time the worker looks for due work, finds none, and arms its timer for the due
    // time (the witness that the pass has run); nothing has been sent meanwhile.
    clock.advance(5_499);
    await until(() => clock.nextDue() === started + 5_500, 5000, 'the retry timer armed for its due time');
    expect(seen()).toBe(1);
    clock.advance(1);
    await until(() => seen() >= 2, 5000, 'the retry at its due time');
    expect(attemptsAt[1]).toBe(started + 5_500);
    await until(async () => (await s.storage.listDeliveries({ status: 'delivered' })).length === 1, 5000, 'delivered');
    const health = await s.call('GET', '/_servicespec/health');
    expect(health.body.delivery['webhook.retry']).toEqual({ count: 1, lag_p50_ms: 0, lag_p95_ms: 0, lag_max_ms: 0 });
    expect(health.body.delivery['webhook.first'].count).toBe(1);
    const metrics = await fetch(`${s.url}/_servicespec/metrics`).then((m) => m.text());
    expect(metrics).toContain('servicespec_event_delivery_lag_seconds_bucket{channel="webhook",kind="retry",le="0.005"} 1');
    expect(metrics).toContain('servicespec_event_delivery_lag_seconds_count{channel="webhook",kind="first"} 1');
  });
});
