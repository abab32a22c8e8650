// A CPU profile of one server under one scenario's load, taken after a warm-up load (not start-up, not the JIT's
// first minutes), summarised in µs per request by self time (function and file) and by total time (a function and
// what it calls):
//   npx tsx bench/runtime-profile.ts served|baseline read|list|create [full|normal] [key|open] [seconds] [connections] [keyed]
// The server profiles itself on SIGUSR2 (bench/lib/bench-server.ts, BENCH_PROFILE_DIR); the .cpuprofile is left in
// the printed directory. TOP=N lines per table.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, startServer } from './lib/bench-load.js';

const [mode = 'served', scenario = 'read', sync = 'normal', auth = 'key', seconds = '5', connections = '50', keyed] = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), 'ss-prof-'));
const s = await startServer(mode as 'served' | 'baseline', dir, 'none', undefined, {
  synchronous: sync as 'full' | 'normal',
  auth: auth as 'key' | 'open',
  env: { BENCH_PROFILE_DIR: dir },
});
const options = { connections: Number(connections), seconds: Number(seconds), idempotencyKeys: keyed === 'keyed' };
await load(s, scenario as 'read', { ...options, seconds: 3 });
const profiled = new Promise((resolve) => s.child.stdout!.on('data', (d: Buffer) => d.toString().includes('profiled') && resolve(undefined)));
s.child.kill('SIGUSR2');
await new Promise((r) => setTimeout(r, 200));
const f = await load(s, scenario as 'read', options);
s.child.kill('SIGUSR2');
await profiled;
console.log(
  `${mode} ${scenario} ${sync} ${auth}${keyed === 'keyed' ? ' keyed' : ''}: ${f.rps.toFixed(0)} req/s, ${f.cpuPerRequest?.toFixed(1)} µs CPU/req, ${f.requests} requests, errors ${f.errors}`,
);
s.child.kill('SIGINT');
await new Promise((r) => s.child.on('exit', r));

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const file = readdirSync(dir).find((n) => n.endsWith('.cpuprofile'))!;
const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const name = (n: Node) => {
  const url = n.callFrame.url.replace(/^.*node_modules\//, 'nm:').replace(/^.*\/(src|bench)\//, '$1/');
  return { fn: `${n.callFrame.functionName || '(anon)'} ${url}:${n.callFrame.lineNumber + 1}`, url };
};
const byFn = new Map<string, number>();
const byFile = new Map<string, number>();
const totalByFn = new Map<string, number>();
let busy = 0;
// Total time: a node's self time counted once for every distinct function on its stack.
const walk = (id: number, stack: Set<string>) => {
  const n = nodes.get(id)!;
  const { fn, url } = name(n);
  if (n.callFrame.functionName === '(idle)') return;
  const t = self.get(id) ?? 0;
  busy += t;
  byFn.set(fn, (byFn.get(fn) ?? 0) + t);
  const pkg = url.startsWith('nm:')
    ? url
        .split('/')
        .slice(0, url.startsWith('nm:@') ? 2 : 1)
        .join('/')
    : url || n.callFrame.functionName;
  byFile.set(pkg, (byFile.get(pkg) ?? 0) + t);
  const added = !stack.has(fn);
  if (added) stack.add(fn);
  for (const f of stack) totalByFn.set(f, (totalByFn.get(f) ?? 0) + t);
  for (const c of n.children ?? []) walk(c, stack);
  if (added) stack.delete(fn);
};
walk(profile.nodes[0]!.id, new Set());
const per = (t: number) => `${(t / f.requests).toFixed(2).padStart(7)} µs`;
const k = Number(process.env.TOP ?? 40);
const top = (m: Map<string, number>, n: number) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([fn, t]) => `${per(t)}  ${fn}`);
console.log(
  `profile: ${join(dir, file)}\nbusy (sampled, not idle): ${per(busy)} per request\n-- self, by file/package --\n${top(byFile, 25).join('\n')}\n-- self, by function --\n${top(byFn, k).join('\n')}\n-- total (with callees), by function --\n${top(totalByFn, k).join('\n')}`,
);
