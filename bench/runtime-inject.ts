// The served service and the hand-written baseline in one process, driven by Fastify's inject (no sockets): the
// CPU time each spends per request on its own work, alternating in batches, and optionally a CPU profile of the
// served side only, taken after a warm-up (what the socket-level bench's profile hides under I/O and start-up).
//
//   npx tsx bench/runtime-inject.ts [read|list|create] [full|normal] [key|open] [--profile] [--keyed]
// --keyed: every create sends a fresh Idempotency-Key (both sides store the answer with the change).
import { writeFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { startBaseline } from './baseline/orders-baseline.js';
import { startServed } from './lib/bench-served.js';
import { median } from './lib/bench-load.js';
import { ORDER_BODY } from './lib/orders-body.js';

const [scenario = 'read', sync = 'normal', auth = 'key'] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const profile = process.argv.includes('--profile');
const keyed = process.argv.includes('--keyed');
let keyCount = 0;
const synchronous = sync === 'normal' ? 'normal' : 'full';
const open = auth === 'open';
const dir = mkdtempSync(join(tmpdir(), 'ss-inject-'));
const served = await startServed(join(dir, 's.db'), 'none', synchronous, open);
const baseline = await startBaseline(join(dir, 'b.db'), { synchronous, open });

async function prepare(s: { app: FastifyInstance; key: string; customerId: string }) {
  const headers = { 'x-api-key': s.key, 'content-type': 'application/json' };
  const payload = JSON.stringify(ORDER_BODY(s.customerId));
  let id = '';
  for (let i = 0; i < 41; i++) id ||= (JSON.parse((await s.app.inject({ method: 'POST', url: '/orders', headers, payload })).body) as { id: string }).id;
  const req =
    scenario === 'create'
      ? { method: 'POST' as const, url: '/orders', headers, payload }
      : { method: 'GET' as const, url: scenario === 'read' ? `/orders/${id}` : '/orders?limit=20', headers: { 'x-api-key': s.key } };
  return async (n: number) => {
    // CPU time (user + system) of this process: steadier than wall time on a shared machine.
    const t0 = process.cpuUsage();
    for (let i = 0; i < n; i++) {
      const r = await s.app.inject(keyed ? { ...req, headers: { ...req.headers, 'idempotency-key': `k-${keyCount++}` } } : req);
      if (r.statusCode >= 300) throw new Error(`${r.statusCode} ${r.body}`);
    }
    const t = process.cpuUsage(t0);
    return (t.user + t.system) / n;
  };
}
const runS = await prepare(served);
const runB = await prepare(baseline);
const N = scenario === 'list' ? 500 : 2000;
for (let i = 0; i < 3; i++) {
  await runS(N);
  await runB(N);
}
const session = profile ? new Session() : undefined;
if (session) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
}
const s: number[] = [];
const b: number[] = [];
const profiled = async (name: string, run: () => Promise<number>) => {
  if (!session) return run();
  await session.post('Profiler.start');
  const t = await run();
  const { profile: p } = await session.post('Profiler.stop');
  writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(p));
  return t;
};
for (let round = 0; round < 7; round++) {
  s.push(await profiled(`served-${round}`, () => runS(N)));
  b.push(await profiled(`baseline-${round}`, () => runB(N)));
}
console.log(
  `${scenario}${keyed ? ' keyed' : ''} ${sync} ${auth}: served ${median(s).toFixed(1)} µs CPU/req (${s.map((x) => x.toFixed(0)).join(', ')}), baseline ${median(b).toFixed(1)} µs CPU/req (${b.map((x) => x.toFixed(0)).join(', ')}); ratio baseline/served ${(median(b) / median(s)).toFixed(2)}`,
);
if (profile)
  console.log(
    `profiles: ${dir}/served-*.cpuprofile and baseline-*.cpuprofile, ${N} requests each (summary: npx tsx bench/lib/profile-summary.ts --per ${N} FILES)`,
  );
if (process.env.INJECT_WAL) for (const f of ['s.db-wal', 'b.db-wal']) console.log(f, statSync(join(dir, f), { throwIfNoEntry: false })?.size);
await served.app.close();
await baseline.close();
if (!profile) rmSync(dir, { recursive: true, force: true });
