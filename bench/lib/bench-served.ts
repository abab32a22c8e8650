// The served side of the HTTP benchmarks: examples/orders.yaml through servicespec, with an API key and a customer.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { parse, stringify } from 'yaml';
import { compileSpecText } from '../../src/program.js';
import { createRedisStore } from '../../src/runtime/limits/limits-store.js';
import { createApiKey } from '../../src/runtime/auth/auth-credentials.js';
import { createAuthenticator } from '../../src/runtime/auth/auth-authenticator.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { createPostgresStorage } from '../../src/runtime/storage/storage-postgres.js';

const ORDERS = fileURLToPath(new URL('../../examples/orders.yaml', import.meta.url));

/**
 * The spec's own rate limits (100 a minute) would refuse a load test, so the policies are replaced:
 * `none` drops them, `memory` and `redis` declare one policy too large to refuse, to measure the limiter's cost.
 */
function ordersSpec(rate: string, open: boolean): string {
  const doc = parse(readFileSync(ORDERS, 'utf8')) as {
    limits: { rate?: unknown[] };
    resources: Record<string, { owner?: string; owner_access?: string; owner_override_scopes?: string[]; fields: Record<string, unknown> }>;
    endpoints: { operations: Record<string, { auth?: unknown }> };
    events?: unknown;
    states?: Record<string, { transitions?: Record<string, { emits?: unknown }> }>;
  };
  // The baseline has no events: the outbox and its fan-out are left out unless BENCH_EVENTS=keep (bench/events-bench.ts
  // measures their cost).
  if (process.env.BENCH_EVENTS !== 'keep') {
    delete doc.events;
    for (const m of Object.values(doc.states ?? {})) for (const t of Object.values(m.transitions ?? {})) delete t.emits;
  }
  if (rate === 'none') delete doc.limits.rate;
  else doc.limits.rate = [{ name: 'bench', requests: 1_000_000_000, per: '1m', by: 'credential' }];
  if (open) {
    for (const o of Object.values(doc.endpoints.operations)) o.auth = 'none';
    for (const r of Object.values(doc.resources)) {
      if (r.owner !== undefined) delete r.fields[r.owner];
      delete r.owner;
      delete r.owner_access;
      delete r.owner_override_scopes;
    }
  }
  return stringify(doc);
}

export async function startServed(
  dbPath: string,
  rate: string,
  synchronous: 'full' | 'normal',
  open: boolean,
): Promise<{ url: string; key: string; customerId: string; app: FastifyInstance }> {
  const model = compileSpecText(ordersSpec(rate, open), ORDERS).checked!;
  const storage = dbPath.startsWith('postgres') ? createPostgresStorage({ url: dbPath }) : createSqliteStorage({ path: dbPath, synchronous });
  const authenticator = await createAuthenticator(model, storage, { allowGaps: true });
  const rateLimitStore = rate === 'redis' ? createRedisStore({ url: 'redis://127.0.0.1:6379', prefix: `servicespec:bench:${process.pid}:` }) : undefined;
  const app = await createService(model, {
    storage,
    authenticator,
    allowGaps: true,
    handlers: { quote: () => ({}) },
    ...(rateLimitStore ? { rateLimitStore } : {}),
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const { key } = await createApiKey(storage, model, { subject: 'bench', scopes: ['orders:read', 'orders:write', 'customers:write'] });
  const customer = (await (
    await fetch(`${url}/customers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ name: 'Bench', email: `bench-${process.pid}@example.com` }),
    })
  ).json()) as { id: string };
  return { url, key, customerId: customer.id, app };
}
