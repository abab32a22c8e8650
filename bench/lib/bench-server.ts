// A server for the benchmarks, run in its own process:
//   bench-server.ts served DB [none|memory|redis] [full|normal] [key|open]   examples/orders.yaml through servicespec
//   bench-server.ts baseline DB [none] [full|normal] [key|open]              the hand-written Fastify + better-sqlite3 service
// full|normal: SQLite's synchronous setting (WAL either way; full by default). key|open: every request checks an
// API key (the default), or no operation needs a credential (the Order's owner declaration is dropped with it).
// BENCH_EVENTS=keep serves the spec with its events (bench-served.ts); BENCH_BASELINE_OUTBOX=1 makes the PostgreSQL
// baseline append an event row with each create, in its transaction.
// DB is a SQLite path or a postgres:// URL (then the baseline is the Fastify + pg one).
// Prints one JSON line { url, key, customerId, orderId }, then serves until killed.
import { startBaseline } from '../baseline/orders-baseline.js';
import { startBaselinePg } from '../baseline/orders-baseline-pg.js';
import { startServed } from './bench-served.js';
import { ORDER_BODY } from './orders-body.js';

const [mode, dbPath, rate = 'none', sync = 'full', auth = 'key'] = process.argv.slice(2);
const synchronous = sync === 'normal' ? 'normal' : 'full';
const s =
  mode === 'baseline'
    ? await (dbPath!.startsWith('postgres')
        ? startBaselinePg(dbPath!, { outbox: process.env.BENCH_BASELINE_OUTBOX === '1' })
        : startBaseline(dbPath!, { synchronous, open: auth === 'open' }))
    : await startServed(dbPath!, rate, synchronous, auth === 'open');
const order = (await (
  await fetch(`${s.url}/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': s.key },
    body: JSON.stringify(ORDER_BODY(s.customerId)),
  })
).json()) as { id: string };
// Enough orders that a page of 20 is always full.
for (let i = 0; i < 40; i++)
  await fetch(`${s.url}/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': s.key },
    body: JSON.stringify(ORDER_BODY(s.customerId)),
  });
console.log(JSON.stringify({ url: s.url, key: s.key, customerId: s.customerId, orderId: order.id }));
process.on('SIGINT', () => process.exit(0));
// BENCH_PROFILE_DIR: SIGUSR2 starts a CPU profile, the next SIGUSR2 writes it there (only the measured load, not start-up).
if (process.env.BENCH_PROFILE_DIR) {
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  let session: InstanceType<typeof Session> | undefined;
  process.on('SIGUSR2', () => {
    void (async () => {
      if (!session) {
        session = new Session();
        session.connect();
        await session.post('Profiler.enable');
        await session.post('Profiler.setSamplingInterval', { interval: 200 });
        await session.post('Profiler.start');
        return;
      }
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(`${process.env.BENCH_PROFILE_DIR}/load-${process.pid}.cpuprofile`, JSON.stringify(profile));
      session.disconnect();
      session = undefined;
      console.log('profiled');
    })();
  });
}
