import type { FastifyInstance, FastifyReply } from 'fastify';
import { getServiceRoutes, RESERVED_PREFIX, SERVICE_PATHS } from '../../model/model-routes.js';
import type { ServiceModel } from '../../model/model-types.js';
import type { RateLimitStore } from '../limits/limits-store.js';
import type { Storage } from '../storage/storage-types.js';
import { METRICS_CONTENT_TYPE, type Gauge, type Metrics } from '../runtime-metrics.js';
import type { BrokerHealth } from '../events/events-broker-types.js';
import type { LagSummary } from '../events/events-scheduler.js';

// The service's own routes under the reserved prefix (model-routes.ts, SERVICE_PATHS): health always, the
// OpenAPI and AsyncAPI documents and the docs console when asked for (`docs: true`, `serve --docs`).

/** How long a health probe waits for the database or Redis before reporting it unavailable (docs/runtime.md). */
export const HEALTH_PROBE_MS = 2_000;

/** The page may run its own inline script and style, and talk to this origin only: nothing downloads. */
const CONSOLE_CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export interface ServiceRoutesOptions {
  model: ServiceModel;
  storage: Storage;
  rateStore: RateLimitStore;
  docs: boolean;
  /** Serve /_servicespec/metrics from these (docs/runtime.md, "Metrics"). */
  metrics?: Metrics;
  /** The service's clock (the outbox lag is measured with it). */
  now?: () => Date;
  /** The broker relay's state and outbox lag (serve --broker): reported by health. */
  brokerHealth?: () => Promise<BrokerHealth>;
  /** How late recent webhook attempts and broker publishes started (events-scheduler.ts): reported by health. */
  deliveryLag?: () => Partial<Record<string, LagSummary>>;
}

/** Where the metrics are served when they are on (a service route, under the reserved prefix). */
export const METRICS_PATH = `${RESERVED_PREFIX}/metrics`;

type Probe = 'ok' | 'unavailable';

async function probe(run: () => Promise<unknown>): Promise<Probe> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Probe>((resolve) => {
    timer = setTimeout(() => resolve('unavailable'), HEALTH_PROBE_MS);
    timer.unref();
  });
  try {
    return await Promise.race([
      run().then(
        (): Probe => 'ok',
        (): Probe => 'unavailable',
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function sendJson(reply: FastifyReply, status: number, text: string): FastifyReply {
  return reply.code(status).header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-store').send(text);
}

export async function registerServiceRoutes(app: FastifyInstance, options: ServiceRoutesOptions): Promise<void> {
  const { model, storage, rateStore } = options;
  app.get(SERVICE_PATHS.health, async (_request, reply) => {
    const checks: Record<string, Probe> = { database: await probe(() => storage.getSetting('cursor_secret')) };
    if (rateStore.ping) checks.redis = await probe(() => rateStore.ping!());
    const ok = Object.values(checks).every((c) => c === 'ok');
    // The broker is reported, not required: writes are answered while it is down (events wait in the outbox).
    const broker = options.brokerHealth ? await options.brokerHealth().catch(() => undefined) : undefined;
    // Recent lag by channel and kind (webhook.first, webhook.retry, broker.publish), in milliseconds; reported, never failing health.
    const lag = options.deliveryLag?.();
    const delivery =
      lag && Object.keys(lag).length > 0
        ? Object.fromEntries(Object.entries(lag).map(([k, v]) => [k, { count: v!.count, lag_p50_ms: v!.p50Ms, lag_p95_ms: v!.p95Ms, lag_max_ms: v!.maxMs }]))
        : undefined;
    return sendJson(
      reply,
      ok ? 200 : 503,
      JSON.stringify({ status: ok ? 'ok' : 'unavailable', checks, ...(broker ? { broker } : {}), ...(delivery ? { delivery } : {}) }),
    );
  });
  const metrics = options.metrics;
  if (metrics) {
    const events = (model.events?.kinds.length ?? 0) > 0;
    const webhooks = model.events?.webhook !== undefined;
    app.get(METRICS_PATH, async (_request, reply) => {
      // Read when scraped, from the database: where the outbox is and how late the oldest due delivery is.
      const gauges: Gauge[] = [];
      if (events) gauges.push({ name: 'servicespec_outbox_last_seq', help: 'The newest committed outbox position.', value: await storage.lastOutboxSeq() });
      if (webhooks) {
        const due = await storage.nextDeliveryAt();
        const lag = due === undefined ? 0 : Math.max(0, (options.now?.() ?? new Date()).getTime() - due) / 1000;
        gauges.push({
          name: 'servicespec_outbox_lag_seconds',
          help: 'How long the oldest pending webhook delivery has been due (0 when none is overdue).',
          value: lag,
        });
      }
      return reply.code(200).header('content-type', METRICS_CONTENT_TYPE).header('cache-control', 'no-store').send(metrics.render(gauges));
    });
  }
  if (!options.docs) return;
  // Loaded only when asked for: a service without docs does not pay for the exporters and the page.
  const [{ exportOpenApi }, { exportAsyncApi }, { renderConsole }] = await Promise.all([
    import('../../export/export-openapi.js'),
    import('../../export/export-asyncapi.js'),
    import('../../render/render-console.js'),
  ]);
  const openapi = JSON.stringify(exportOpenApi(model).document);
  const asyncapi = JSON.stringify(exportAsyncApi(model).document);
  const page = renderConsole(model, { served: true, serviceRoutes: getServiceRoutes() });
  app.get(SERVICE_PATHS.openapi, async (_request, reply) => sendJson(reply, 200, openapi));
  app.get(SERVICE_PATHS.asyncapi, async (_request, reply) => sendJson(reply, 200, asyncapi));
  app.get(SERVICE_PATHS.docs, async (_request, reply) =>
    reply
      .code(200)
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', CONSOLE_CSP)
      .header('cache-control', 'no-store')
      .send(page),
  );
}
