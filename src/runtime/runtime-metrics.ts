// The service's metrics in the Prometheus text exposition format (version 0.0.4), served at /_servicespec/metrics
// when asked for (`serve --metrics`, createService's `metrics: true`); off, nothing is counted and no hook runs.
// A small writer rather than a client library: four families of counters and one histogram, no registry, no
// timers, nothing global (two services in one process count apart).

/**
 * The latency histogram's bucket bounds, in seconds: the Prometheus client libraries' default buckets
 * (prom-client's and client_golang's `DefBuckets`), so dashboards written for them read these too.
 */
export const LATENCY_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The delivery lag histogram's bounds, in seconds (how late an attempt or a publish started after it was due): fine
 * below a second, where a declared schedule's jitter lies, and out to a minute.
 */
export const LAG_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** The content type of the text exposition format. */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** What a webhook delivery attempt came to: delivered, to be retried, or dead (no retry left, or 410 Gone). */
export type DeliveryOutcomeName = 'delivered' | 'retry' | 'dead';

/** A value read when scraped (outbox position and lag). */
export interface Gauge {
  name: string;
  help: string;
  value: number;
}

export interface Metrics {
  /** One answered request: its operation id (or the route kind: token, stream, webhooks; `none` when no route matched). */
  request(operation: string, method: string, status: number, seconds: number): void;
  /** One request refused as rate_limited (a rate limit, the failed-credential bound, the concurrency limit). */
  rateLimited(operation: string): void;
  /** One webhook delivery attempt's outcome. */
  delivery(outcome: DeliveryOutcomeName): void;
  /** How late one delivery started: channel webhook or broker; kind first, retry (webhooks) or publish (broker). */
  lag(channel: string, kind: string, seconds: number): void;
  /** The exposition text: the counters and histogram, then the gauges given. */
  render(gauges?: readonly Gauge[]): string;
}

/** A label value as the text format writes it: backslash, double quote and line feed escaped. */
function labelValue(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** A sample value: integers as they are, others in JavaScript's shortest round-trip form; +Inf, -Inf, NaN named. */
function sampleValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Number.POSITIVE_INFINITY) return '+Inf';
  if (v === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(v);
}

interface Histogram {
  buckets: number[];
  sum: number;
  count: number;
}

export function createMetrics(): Metrics {
  // Keyed by the label values joined with a separator no label value holds unescaped (\u0000).
  const requests = new Map<string, { operation: string; method: string; status: number; value: number }>();
  const latency = new Map<string, Histogram>();
  const limited = new Map<string, number>();
  const deliveries = new Map<DeliveryOutcomeName, number>();
  const lags = new Map<string, Histogram & { channel: string; kind: string }>();

  return {
    request(operation, method, status, seconds) {
      const key = `${operation}\u0000${method}\u0000${status}`;
      const r = requests.get(key);
      if (r) r.value++;
      else requests.set(key, { operation, method, status, value: 1 });
      let h = latency.get(operation);
      if (!h) latency.set(operation, (h = { buckets: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 }));
      for (let i = 0; i < LATENCY_BUCKETS.length; i++) if (seconds <= LATENCY_BUCKETS[i]!) h.buckets[i]!++;
      h.sum += seconds;
      h.count++;
    },
    rateLimited(operation) {
      limited.set(operation, (limited.get(operation) ?? 0) + 1);
    },
    delivery(outcome) {
      deliveries.set(outcome, (deliveries.get(outcome) ?? 0) + 1);
    },
    lag(channel, kind, seconds) {
      const key = `${channel}\u0000${kind}`;
      let h = lags.get(key);
      if (!h) lags.set(key, (h = { channel, kind, buckets: LAG_BUCKETS.map(() => 0), sum: 0, count: 0 }));
      for (let i = 0; i < LAG_BUCKETS.length; i++) if (seconds <= LAG_BUCKETS[i]!) h.buckets[i]!++;
      h.sum += seconds;
      h.count++;
    },
    render(gauges = []) {
      const out: string[] = [];
      const family = (name: string, type: string, help: string) => out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
      family('servicespec_requests_total', 'counter', 'Requests answered, by operation, method and status.');
      for (const r of requests.values())
        out.push(`servicespec_requests_total{operation="${labelValue(r.operation)}",method="${labelValue(r.method)}",status="${r.status}"} ${r.value}`);
      family('servicespec_request_duration_seconds', 'histogram', 'Time from the request arriving to its answer being sent, by operation.');
      for (const [operation, h] of latency) {
        const op = labelValue(operation);
        LATENCY_BUCKETS.forEach((le, i) => out.push(`servicespec_request_duration_seconds_bucket{operation="${op}",le="${le}"} ${h.buckets[i]}`));
        out.push(`servicespec_request_duration_seconds_bucket{operation="${op}",le="+Inf"} ${h.count}`);
        out.push(`servicespec_request_duration_seconds_sum{operation="${op}"} ${sampleValue(h.sum)}`);
        out.push(`servicespec_request_duration_seconds_count{operation="${op}"} ${h.count}`);
      }
      family(
        'servicespec_rate_limited_total',
        'counter',
        'Requests refused as rate_limited (rate limits, the failed-credential bound, the concurrency limit), by operation.',
      );
      for (const [operation, n] of limited) out.push(`servicespec_rate_limited_total{operation="${labelValue(operation)}"} ${n}`);
      family('servicespec_webhook_deliveries_total', 'counter', 'Webhook delivery attempts, by outcome (delivered, retry, dead).');
      for (const [outcome, n] of deliveries) out.push(`servicespec_webhook_deliveries_total{outcome="${outcome}"} ${n}`);
      family('servicespec_webhook_delivery_failures_total', 'counter', 'Webhook delivery attempts that did not deliver (retry or dead).');
      out.push(`servicespec_webhook_delivery_failures_total ${(deliveries.get('retry') ?? 0) + (deliveries.get('dead') ?? 0)}`);
      if (lags.size > 0) {
        family(
          'servicespec_event_delivery_lag_seconds',
          'histogram',
          'How late deliveries started after they were due (webhook first attempts and retries, broker publishes), by channel and kind.',
        );
        for (const h of lags.values()) {
          const labels = `channel="${labelValue(h.channel)}",kind="${labelValue(h.kind)}"`;
          LAG_BUCKETS.forEach((le, i) => out.push(`servicespec_event_delivery_lag_seconds_bucket{${labels},le="${le}"} ${h.buckets[i]}`));
          out.push(`servicespec_event_delivery_lag_seconds_bucket{${labels},le="+Inf"} ${h.count}`);
          out.push(`servicespec_event_delivery_lag_seconds_sum{${labels}} ${sampleValue(h.sum)}`);
          out.push(`servicespec_event_delivery_lag_seconds_count{${labels}} ${h.count}`);
        }
      }
      for (const g of gauges) {
        family(g.name, 'gauge', g.help);
        out.push(`${g.name} ${sampleValue(g.value)}`);
      }
      return `${out.join('\n')}\n`;
    },
  };
}
