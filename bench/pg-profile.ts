// A CPU profile of one server on PostgreSQL under one scenario's load (server-side `node --cpu-prof`):
//   npx tsx bench/pg-profile.ts served|baseline create|read|list [events|noevents|outbox] [seconds] [connections]
// Prints req/s, the Node process's and the PostgreSQL backends' CPU per request, and the profile by self time.
import { randomBytes } from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { load, processCpuMicros, startServer } from './lib/bench-load.js';

const BASE = process.env.SERVICESPEC_BENCH_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/test';
const [mode = 'served', scenario = 'create', variant = 'events', seconds = '5', connections = '16'] = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), 'ss-pgprof-'));
const schema = `prof_${randomBytes(3).toString('hex')}`;
const u = new URL(BASE);
u.searchParams.set('schema', schema);
u.searchParams.set('application_name', schema);
const env: Record<string, string> = variant === 'events' ? { BENCH_EVENTS: 'keep' } : variant === 'outbox' ? { BENCH_BASELINE_OUTBOX: '1' } : {};
if (!process.env.NO_PROF) env.BENCH_PROFILE_DIR = dir;
const s = await startServer(mode as 'served' | 'baseline', dir, 'none', u.toString(), { env });
const admin = new pg.Client({ connectionString: BASE });
await admin.connect();
const backends = async () => {
  const rows = (await admin.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [schema])).rows as { pid: number }[];
  return new Map(rows.map(({ pid }) => [pid, processCpuMicros(pid) ?? 0]));
};
await load(s, scenario as 'create', { connections: Number(connections), seconds: Number(process.env.WARM_S ?? 6) });
/** CPU (µs) of each of the server's threads, by thread name: the main thread, V8's compiler and GC helpers, libuv's pool. */
const threads = () => {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${s.child.pid}/task`)) {
    const stat = readFileSync(`/proc/${s.child.pid}/task/${tid}/stat`, 'utf8');
    const name = `${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))}${tid === String(s.child.pid) ? ' (main)' : ''}`;
    const f = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    out.set(name, (out.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) * 10_000);
  }
  return out;
};
const threadsBefore = threads();
const before = await backends();
// STRACE=1: count the server's system calls during the load (strace -c; slows the server).
const tracer = process.env.STRACE ? spawn('strace', ['-c', '-f', '-p', String(s.child.pid)], { stdio: ['ignore', 'ignore', 'pipe'] }) : undefined;
let traced = '';
tracer?.stderr!.on('data', (d: Buffer) => (traced += d.toString()));
if (tracer) await new Promise((r) => setTimeout(r, 500));
const signal = () => void (process.env.NO_PROF || s.child.kill('SIGUSR2'));
signal();
const f0 = await load(s, scenario as 'create', { connections: Number(connections), seconds: Number(seconds) });
const f = f0;
const after = await backends();
const threadsAfter = threads();
console.log([...threadsAfter].map(([n, t]) => `${n}: ${((t - (threadsBefore.get(n) ?? 0)) / Math.max(1, f0.requests)).toFixed(0)} µs/req`).join(', '));
if (tracer) {
  tracer.kill('SIGINT');
  await new Promise((r) => tracer.on('exit', r));
  console.log(traced);
}
signal();
await new Promise((r) => setTimeout(r, 1500));
let db = 0;
for (const [pid, cpu] of after) db += cpu - (before.get(pid) ?? 0);
console.log(
  `${mode} ${scenario} ${variant}: ${f.rps.toFixed(0)} req/s, node ${f.cpuPerRequest?.toFixed(0)} µs/req, pg ${(db / f.requests).toFixed(0)} µs/req, errors ${f.errors}, requests ${f.requests}`,
);
s.child.kill('SIGINT');
await new Promise((r) => s.child.on('exit', r));
await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
await admin.end();
const file = readdirSync(dir).find((n) => n.endsWith('.cpuprofile'));
if (file) {
  console.log(`profile: ${join(dir, file)}`);
  console.log(
    execFileSync(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'lib/profile-summary.ts'), join(dir, file), '--top', process.env.TOP ?? '45', '--per', String(f.requests)],
      { encoding: 'utf8' },
    ),
  );
}
