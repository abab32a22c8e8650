// Two checkouts of servicespec against each other (a change's cost: "before" and "after"), served in their own
// processes from bench/lib/bench-server.ts of each root, alternating within one run; CPU per request read from
// /proc is the figure to trust on a shared machine.
//
//   AB_OLD=/tmp/old-checkout npx tsx bench/ab-bench.ts [read,list,create]
//   env: BENCH_SECONDS (3), BENCH_ROUNDS (7), BENCH_CONNECTIONS (16); AB_POSTGRES=postgres://… serves both on
//   PostgreSQL (a schema each, left behind); BENCH_EVENTS=keep serves the spec with its events (bench-served.ts)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load, median, pairedRatios, type Figures, type Started } from './lib/bench-load.js';

const NEW = fileURLToPath(new URL('..', import.meta.url));
const OLD = process.env.AB_OLD;
if (!OLD) throw new Error('set AB_OLD to the other checkout');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const scenarios = (process.argv[2] ?? 'read,list,create').split(',') as ('read' | 'list' | 'create')[];
const extra = process.argv.slice(3);

function db(dir: string, name: string): string {
  if (!process.env.AB_POSTGRES) return join(dir, `${name}.db`);
  const u = new URL(process.env.AB_POSTGRES);
  u.searchParams.set('schema', `ab_${name}_${Math.random().toString(36).slice(2, 8)}`);
  return u.toString();
}

async function start(root: string, dir: string, name: string): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench/lib/bench-server.ts'), 'served', db(dir, name), 'none', ...extra], {
    stdio: ['ignore', 'pipe', 'inherit'],
    cwd: root,
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    child.on('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
  return { ...(JSON.parse(line) as Omit<Started, 'child'>), child };
}

const dir = mkdtempSync(join(tmpdir(), 'ss-ab-'));
const a = await start(NEW, dir, 'new');
const b = await start(OLD, dir, 'old');
try {
  for (const s of [a, b]) for (const scenario of scenarios) await load(s, scenario, { connections: CONNECTIONS, seconds: Number(process.env.AB_WARM_S ?? 1) });
  for (const scenario of scenarios) {
    const fa: Figures[] = [];
    const fb: Figures[] = [];
    for (let round = 0; round < ROUNDS; round++)
      for (const s of round % 2 ? [b, a] : [a, b]) (s === a ? fa : fb).push(await load(s, scenario, { connections: CONNECTIONS, seconds: SECONDS }));
    const r = pairedRatios(fa, fb);
    const cpu = (f: Figures[]) => median(f.map((x) => x.cpuPerRequest ?? NaN)).toFixed(0);
    console.log(
      `| ${scenario} | ${median(fa.map((x) => x.rps)).toFixed(0)} | ${cpu(fa)} | ${median(fb.map((x) => x.rps)).toFixed(0)} | ${cpu(fb)} | ${r.rps.toFixed(2)} | ${r.cpu?.toFixed(2)} | ${[...fa, ...fb].reduce((n, x) => n + x.errors, 0)} |`,
    );
  }
} finally {
  a.child.kill('SIGTERM');
  b.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
console.log(`load average ${loadavg()[0]!.toFixed(1)}`);
