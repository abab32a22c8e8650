// A server for the benchmarks, run in its own process:
//   bench-server.ts served DB [none|memory|redis]   examples/orders.yaml through servicespec
//   bench-server.ts baseline DB                      the hand-written Fastify + better-sqlite3 service
// DB is a SQLite path or a postgres:// URL (then the baseline is the Fastify + pg one).
// Prints one JSON line { url, key, customerId, orderId }, then serves until killed.
import { fileURLToPath } from 'node:url';
import { startBaseline } from '../baseline/orders-baseline.js';
import { startBaselinePg } from '../baseline/orders-baseline-pg.js';
import { readFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { compileSpecText } from '../../src/program.js';
import { createRedisStore } from '../../src/runtime/limits/limits-store.js';
import { createApiKey } from '../../src/runtime/auth/auth-credentials.js';
import { createAuthenticator } from '../../src/runtime/auth/auth-authenticator.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { createPostgresStorage } from '../../src/runtime/storage/storage-postgres.js';
import { ORDER_BODY } from './orders-body.js';

const ORDERS = fileURLToPath(new URL('../../examples/orders.yaml', import.meta.url));


/**
 * The spec's own rate limits (100 a minute) would refuse a load test, so the policies are replaced:
 * `none` drops them, `memory` and `redis` declare one policy too large to refuse, to measure the limiter's cost.
 */
function ordersSpec(rate: string): string {
  const doc = parse(readFileSync(ORDERS, 'utf8')) as { limits: { rate?: unknown[] } };
  if (rate === 'none') delete doc.limits.rate;
  else doc.limits.rate = [{ name: 'bench', requests: 1_000_000_000, per: '1m', by: 'credential' }];
  return stringify(doc);
}

async function served(dbPath: string, rate: string) {
  const model = compileSpecText(ordersSpec(rate), ORDERS).model!;
  const storage = dbPath.startsWith('postgres') ? createPostgresStorage({ url: dbPath }) : createSqliteStorage({ path: dbPath });
  const authenticator = await createAuthenticator(model, storage, { allowGaps: true });
  const rateLimitStore = rate === 'redis' ? createRedisStore({ url: 'redis://127.0.0.1:6379', prefix: `servicespec:bench:${process.pid}:` }) : undefined;
  const app = await createService(model, { storage, authenticator, allowGaps: true, handlers: { quote: () => ({}) }, ...(rateLimitStore ? { rateLimitStore } : {}) });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const { key } = await createApiKey(storage, model, { subject: 'bench', scopes: ['orders:read', 'orders:write', 'customers:write'] });
  const customer = await (await fetch(`${url}/customers`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ name: 'Bench', email: `bench-${process.pid}@example.com` }) })).json() as { id: string };
  return { url, key, customerId: customer.id };
}

const [mode, dbPath, rate = 'none'] = process.argv.slice(2);
const s = mode === 'baseline' ? await (dbPath!.startsWith('postgres') ? startBaselinePg(dbPath!) : startBaseline(dbPath!)) : await served(dbPath!, rate);
const order = (await (await fetch(`${s.url}/orders`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': s.key }, body: JSON.stringify(ORDER_BODY(s.customerId)) })).json()) as { id: string };
// Enough orders that a page of 20 is always full.
for (let i = 0; i < 40; i++) await fetch(`${s.url}/orders`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': s.key }, body: JSON.stringify(ORDER_BODY(s.customerId)) });
console.log(JSON.stringify({ url: s.url, key: s.key, customerId: s.customerId, orderId: order.id }));
process.on('SIGINT', () => process.exit(0));
