// /_servicespec/metrics (issue 29 item 5): the Prometheus text exposition format scraped over real HTTP and read
// by a strict parser; off unless asked, and then no hook is registered at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomHandler } from '../../src/runtime/runtime-context.js';
import { addWebhookEndpoint } from '../../src/runtime/events/index.js';
import { parseTargetPolicy } from '../../src/runtime/events/events-targets.js';
import { LOOPBACK, startEventService, startReceiver, until, type EventService, type Receiver } from '../events/helpers.js';
import { loadModel, startService, TICKETS, type Running } from './helpers.js';

const METERED = new URL('./fixtures/metered.yaml', import.meta.url).pathname;
const handlers: Record<string, CustomHandler> = { ping: () => ({ ok: true }) };

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = `[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\[\\\\"n])*"`;
const SAMPLE = new RegExp(`^(${NAME})(\\{(?:${LABEL})(?:,${LABEL})*\\})? (-?[0-9]+(?:\\.[0-9]+)?(?:e[-+]?[0-9]+)?|\\+Inf|-Inf|NaN)$`);

/**
 * A strict reader of the text format (0.0.4): every line is a HELP, a TYPE or a sample; each family is typed once,
 * before its samples; a sample belongs to the family typed last (a histogram's _bucket/_sum/_count); no series
 * twice; the text ends with a line feed. Returns each series' value by its exact text (`name{labels}`).
 */
function parseExposition(text: string): Map<string, number> {
  expect(text.endsWith('\n')).toBe(true);
  const series = new Map<string, number>();
  const typed = new Map<string, string>();
  let current: { name: string; type: string } | undefined;
  for (const line of text.slice(0, -1).split('\n')) {
    const help = new RegExp(`^# HELP (${NAME}) (.*)$`).exec(line);
    const type = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`).exec(line);
    if (help) continue;
    if (type) {
      expect(typed.has(type[1]!), `${type[1]} typed twice`).toBe(false);
      typed.set(type[1]!, type[2]!);
      current = { name: type[1]!, type: type[2]! };
      continue;
    }
    const m = SAMPLE.exec(line);
    expect(m, `not a sample line: ${JSON.stringify(line)}`).not.toBeNull();
    const name = m![1]!;
    const allowed = current?.type === 'histogram' ? [`${current.name}_bucket`, `${current.name}_sum`, `${current.name}_count`] : [current?.name];
    expect(allowed, `${name} outside its family`).toContain(name);
    const key = `${name}${m![2] ?? ''}`;
    expect(series.has(key), `${key} twice`).toBe(false);
    series.set(key, m![3] === '+Inf' ? Infinity : Number(m![3]));
  }
  return series;
}

describe('metrics off (the default)', () => {
  let s: Running;
  beforeAll(async () => {
    s = await startService(loadModel(TICKETS));
  });
  afterAll(async () => s.close());

  it('serves no metrics route and registers no hook', async () => {
    const r = await s.call('GET', '/_servicespec/metrics');
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('not_found');
    // The metrics' hook is a named function (countRequest): off, it is on no route.
    expect(s.app.printRoutes({ includeHooks: true, commonPrefix: false })).not.toContain('countRequest');
  });
});

describe('metrics on', { timeout: 60_000 }, () => {
  let s: Running;
  beforeAll(async () => {
    s = await startService(loadModel(METERED), { handlers, allowGaps: false, metrics: true });
  });
  afterAll(async () => s.close());

  it('counts requests by operation and status, their latency, and rate-limit refusals', async () => {
    expect(s.app.printRoutes({ includeHooks: true, commonPrefix: false })).toContain('countRequest');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await s.call('GET', '/limited')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await s.call('GET', '/no/such/route')).status).toBe(404);
    const scrape = await fetch(`${s.url}/_servicespec/metrics`);
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const m = parseExposition(await scrape.text());
    const id = 'limited'; // the operation's id is its label
    expect(m.get(`servicespec_requests_total{operation="${id}",method="GET",status="200"}`)).toBe(5);
    expect(m.get(`servicespec_requests_total{operation="${id}",method="GET",status="429"}`)).toBe(1);
    expect(m.get('servicespec_requests_total{operation="none",method="GET",status="404"}')).toBe(1);
    expect(m.get(`servicespec_rate_limited_total{operation="${id}"}`)).toBe(1);
    // The histogram: cumulative buckets, +Inf equal to the count, a sum of non-negative seconds.
    const buckets = [...m.entries()].filter(([k]) => k.startsWith(`servicespec_request_duration_seconds_bucket{operation="${id}",`)).map(([, v]) => v);
    expect(buckets).toHaveLength(12);
    for (let i = 1; i < buckets.length; i++) expect(buckets[i]!).toBeGreaterThanOrEqual(buckets[i - 1]!);
    expect(buckets.at(-1)).toBe(6);
    expect(m.get(`servicespec_request_duration_seconds_count{operation="${id}"}`)).toBe(6);
    expect(m.get(`servicespec_request_duration_seconds_sum{operation="${id}"}`)).toBeGreaterThanOrEqual(0);
    expect(m.get('servicespec_webhook_delivery_failures_total')).toBe(0);
  });
});

describe('metrics of events: webhook deliveries, failures and the outbox', { timeout: 60_000 }, () => {
  let s: EventService;
  let good: Receiver;
  let bad: Receiver;
  beforeAll(async () => {
    s = await startEventService({ metrics: true });
    good = await startReceiver(() => ({ status: 200 }));
    bad = await startReceiver(() => ({ status: 500 }));
    for (const r of [good, bad]) await addWebhookEndpoint({ storage: s.storage, model: s.model, policy: parseTargetPolicy(LOOPBACK) }, { url: r.url });
  });
  afterAll(async () => {
    await s.close();
    await good.close();
    await bad.close();
  });

  it('counts deliveries by outcome (the failing receiver retried, then dead) and reads the outbox position', async () => {
    expect((await s.call('POST', '/tickets', { title: 'Metrics' })).status).toBe(201);
    const scrape = async () => parseExposition(await (await fetch(`${s.url}/_servicespec/metrics`)).text());
    // retries: [100ms, 200ms] in the fixture: three attempts to the failing receiver, the last one dead.
    const m = await until(async () => {
      const x = await scrape();
      return x.get('servicespec_webhook_deliveries_total{outcome="dead"}') === 1 && x.get('servicespec_webhook_deliveries_total{outcome="delivered"}') === 1
        ? x
        : undefined;
    });
    expect(m.get('servicespec_webhook_deliveries_total{outcome="retry"}')).toBe(2);
    expect(m.get('servicespec_webhook_delivery_failures_total')).toBe(3);
    expect(m.get('servicespec_outbox_last_seq')).toBeGreaterThanOrEqual(1);
    expect(m.get('servicespec_outbox_lag_seconds')).toBe(0);
    expect(m.get('servicespec_requests_total{operation="createTicket",method="POST",status="201"}')).toBe(1);
  });
});
