// perf of the whole machine while one server on PostgreSQL takes one scenario's load (root; perf on PATH):
//   npx tsx bench/pg-perf.ts served|baseline create|read|list [events|noevents|outbox] [seconds]
// Writes perf.data to PERF_OUT (default /tmp/pg-perf.data) and prints CPU per request by process (comm).
import { randomBytes } from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { load, startServer } from './lib/bench-load.js';

const BASE = process.env.SERVICESPEC_BENCH_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/test';
const [mode = 'served', scenario = 'create', variant = 'events', seconds = '5'] = process.argv.slice(2);
const out = process.env.PERF_OUT ?? '/tmp/pg-perf.data';
const dir = mkdtempSync(join(tmpdir(), 'ss-pgperf-'));
const schema = `perf_${randomBytes(3).toString('hex')}`;
const u = new URL(BASE);
u.searchParams.set('schema', schema);
u.searchParams.set('application_name', schema);
const env: Record<string, string> = variant === 'events' ? { BENCH_EVENTS: 'keep' } : variant === 'outbox' ? { BENCH_BASELINE_OUTBOX: '1' } : {};
const s = await startServer(mode as 'served' | 'baseline', dir, 'none', u.toString(), { env });
await load(s, scenario as 'create', { connections: 16, seconds: Number(process.env.WARM_S ?? 6) });
const perf = spawn('perf', ['record', '-a', '-g', '-F', '999', '-o', out], { stdio: ['ignore', 'ignore', 'inherit'] });
await new Promise((r) => setTimeout(r, 300));
const f = await load(s, scenario as 'create', { connections: 16, seconds: Number(seconds) });
perf.kill('SIGINT');
await new Promise((r) => perf.on('exit', r));
console.log(`${mode} ${scenario} ${variant}: ${f.rps.toFixed(0)} req/s, ${f.requests} requests`);
const byComm = execFileSync('perf', ['report', '-i', out, '--sort', 'comm', '--stdio', '--no-children', '-g', 'none'], {
  encoding: 'utf8',
  maxBuffer: 1 << 26,
});
console.log(
  byComm
    .split('\n')
    .filter((l) => /%/.test(l))
    .slice(0, 15)
    .join('\n'),
);
s.child.kill('SIGINT');
await new Promise((r) => s.child.on('exit', r));
const admin = new pg.Client({ connectionString: BASE });
await admin.connect();
await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
await admin.end();
