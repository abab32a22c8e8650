// Several served (or baseline) servers on PostgreSQL, each with its own environment, loaded in turn (the order
// rotating each round); the medians of Node and PostgreSQL-backend CPU per request. For A/B of storage variants:
//   npx tsx bench/pg-variants.ts create 'served:BENCH_EVENTS=keep' 'served:BENCH_EVENTS=keep,SOME_FLAG=1' 'baseline:'
//   env: BENCH_ROUNDS (6), BENCH_SECONDS (2), WARM_S (4)
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { load, median, processCpuMicros, startServer, type Started } from './lib/bench-load.js';

const BASE = process.env.SERVICESPEC_BENCH_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/test';
const [scenario = 'create', ...specs] = process.argv.slice(2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const dir = mkdtempSync(join(tmpdir(), 'ss-pgvar-'));
const admin = new pg.Client({ connectionString: BASE });
await admin.connect();
const servers: { label: string; s: Started; app: string; node: number[]; db: number[]; rps: number[] }[] = [];
for (const spec of specs) {
  const [mode, envText = ''] = spec.split(':') as ['served' | 'baseline', string?];
  const env = Object.fromEntries(
    envText
      .split(',')
      .filter(Boolean)
      .map((kv) => kv.split('=') as [string, string]),
  );
  const app = `var_${randomBytes(3).toString('hex')}`;
  const u = new URL(BASE);
  u.searchParams.set('schema', app);
  u.searchParams.set('application_name', app);
  servers.push({ label: spec, s: await startServer(mode, dir, 'none', u.toString(), { env }), app, node: [], db: [], rps: [] });
}
const backends = async (app: string) =>
  new Map(
    ((await admin.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [app])).rows as { pid: number }[]).map(({ pid }) => [
      pid,
      processCpuMicros(pid) ?? 0,
    ]),
  );
try {
  for (const v of servers) await load(v.s, scenario as 'create', { connections: 16, seconds: Number(process.env.WARM_S ?? 4) });
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < servers.length; k++) {
      const v = servers[(k + round) % servers.length]!;
      const before = await backends(v.app);
      const f = await load(v.s, scenario as 'create', { connections: 16, seconds: SECONDS });
      const after = await backends(v.app);
      let used = 0;
      for (const [pid, cpu] of after) used += cpu - (before.get(pid) ?? 0);
      v.node.push(f.cpuPerRequest ?? NaN);
      v.db.push(used / f.requests);
      v.rps.push(f.rps);
    }
  }
  for (const v of servers)
    console.log(
      `${v.label.padEnd(60)} ${median(v.rps).toFixed(0).padStart(6)} req/s  node ${median(v.node).toFixed(0)}  pg ${median(v.db).toFixed(0)}  total ${median(v.node.map((n, i) => n + v.db[i]!)).toFixed(0)} µs/req   node per round ${v.node.map((x) => x.toFixed(0)).join(' ')}`,
    );
} finally {
  for (const v of servers) v.s.child.kill('SIGTERM');
  for (const v of servers) await admin.query(`DROP SCHEMA IF EXISTS "${v.app}" CASCADE`);
  await admin.end();
}
console.log(`load average ${loadavg()[0]!.toFixed(1)}`);
