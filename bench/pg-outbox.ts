// The outbox's cost through the storage alone (no HTTP): 16 concurrent transactions each inserting a row and
// appending one event, while a reader asks for the newest position after each commit (as the runtime's hub does
// after each write), against the same transactions with no event. Node and PostgreSQL-backend CPU per transaction.
//   npx tsx bench/pg-outbox.ts [seconds] [rounds]
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import pg from 'pg';
import { createPostgresStorage } from '../src/runtime/storage/storage-postgres.js';
import type { TablePlan } from '../src/runtime/storage/storage-types.js';
import { median, processCpuMicros } from './lib/bench-load.js';

const BASE = process.env.SERVICESPEC_BENCH_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/test';
const SECONDS = Number(process.argv[2] ?? 3);
const ROUNDS = Number(process.argv[3] ?? 5);
const TABLE: TablePlan = {
  name: 'items',
  primaryKey: 'id',
  columns: [
    { name: 'id', type: 'text', notNull: true, unique: false, primaryKey: true, autoIncrement: false, check: {} },
    { name: 'body', type: 'json', notNull: true, unique: false, primaryKey: false, autoIncrement: false, check: {} },
  ],
};
const BODY = {
  items: [{ sku: 'SKU-0001', quantity: 2, unit_price: 1999 }],
  amount: 3998,
  currency: 'EUR',
  shipping_address: { line1: '1 Main St', city: 'Springfield', postal_code: '12345', country: 'US' },
  note: 'x'.repeat(200),
};
const admin = new pg.Client({ connectionString: BASE });
await admin.connect();
const schemas: string[] = [];

async function variant(events: boolean, label = events ? 'insert + event' : 'insert only', env: Record<string, string> = {}) {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  const app = `pgob_${randomBytes(3).toString('hex')}`;
  schemas.push(app);
  const u = new URL(BASE);
  u.searchParams.set('schema', app);
  u.searchParams.set('application_name', app);
  const s = createPostgresStorage({ url: u.toString() });
  await s.migrate({ tables: [TABLE] });
  process.env = saved;
  let n = 0;
  const run = async (seconds: number) => {
    const end = Date.now() + seconds * 1000;
    let done = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (Date.now() < end) {
          const id = `i${n++}`;
          await s.transaction(async (tx) => {
            await tx.insert('items', { id, body: BODY });
            if (events) await tx.appendEvent({ id, type: 'item.created', timestamp: new Date().toISOString(), data: { object: { id, ...BODY } } });
          });
          done++;
          if (events) void s.lastOutboxSeq();
        }
      }),
    );
    return done;
  };
  return { label, s, app, run, node: [] as number[], db: [] as number[], tps: [] as number[] };
}

const backends = async (app: string) =>
  new Map(
    ((await admin.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [app])).rows as { pid: number }[]).map(({ pid }) => [
      pid,
      processCpuMicros(pid) ?? 0,
    ]),
  );
// VARIANTS='label:K=V,K=V;label2:...' adds event variants, each with that environment while its storage is made.
const extra = (process.env.VARIANTS ?? '')
  .split(';')
  .filter(Boolean)
  .map((v) => {
    const [label, envText = ''] = v.split(':') as [string, string?];
    return {
      label,
      env: Object.fromEntries(
        envText
          .split(',')
          .filter(Boolean)
          .map((kv) => kv.split('=') as [string, string]),
      ),
    };
  });
const vs = [await variant(false), await variant(true), ...(await Promise.all(extra.map((x) => variant(true, x.label, x.env))))];
try {
  for (const v of vs) await v.run(2);
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < vs.length; k++) {
      const v = vs[(k + r) % vs.length]!;
      const b = await backends(v.app);
      const n0 = processCpuMicros(process.pid)!;
      const t0 = performance.now();
      const done = await v.run(SECONDS);
      const t = (performance.now() - t0) / 1000;
      const n1 = processCpuMicros(process.pid)!;
      const a = await backends(v.app);
      let used = 0;
      for (const [pid, cpu] of a) used += cpu - (b.get(pid) ?? 0);
      v.node.push((n1 - n0) / done);
      v.db.push(used / done);
      v.tps.push(done / t);
    }
  }
  const plain = vs[0]!;
  // The event's cost: each variant's CPU per transaction less the plain insert's in the same round.
  for (const v of vs)
    console.log(
      `${v.label.padEnd(24)} ${median(v.tps).toFixed(0)} /s  node ${median(v.node).toFixed(0)}  pg ${median(v.db).toFixed(0)} µs/tx   event's cost: node +${median(v.node.map((x, i) => x - plain.node[i]!)).toFixed(0)}  pg +${median(v.db.map((x, i) => x - plain.db[i]!)).toFixed(0)}`,
    );
} finally {
  for (const v of vs) await v.s.close();
  for (const x of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${x}" CASCADE`);
  await admin.end();
}
console.log(`load average ${loadavg()[0]!.toFixed(1)}`);
