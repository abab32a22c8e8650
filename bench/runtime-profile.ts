// A CPU profile of one server under one scenario's load, summarised by self time (function and file):
//   npx tsx bench/runtime-profile.ts served|baseline read|list|create [full|normal] [key|open] [seconds] [connections] [keyed]
// The server runs with `node --cpu-prof` (bench/lib/bench-server.ts); the .cpuprofile is left in the printed directory.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, startServer } from './lib/bench-load.js';

const [mode = 'served', scenario = 'read', sync = 'normal', auth = 'key', seconds = '5', connections = '50', keyed] = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), 'ss-prof-'));
const s = await startServer(mode as 'served' | 'baseline', dir, 'none', undefined, { synchronous: sync as 'full' | 'normal', auth: auth as 'key' | 'open', nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] });
const f = await load(s, scenario as 'read', { connections: Number(connections), seconds: Number(seconds), idempotencyKeys: keyed === 'keyed' });
console.log(`${mode} ${scenario}: ${f.rps.toFixed(0)} req/s, ${f.cpuPerRequest?.toFixed(0)} µs CPU/req, errors ${f.errors}`);
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
const total = [...self.values()].reduce((a, b) => a + b, 0);
const byFn = new Map<string, number>();
const byFile = new Map<string, number>();
for (const n of profile.nodes) {
  const t = self.get(n.id) ?? 0;
  const url = n.callFrame.url.replace(/^.*node_modules\//, 'nm:').replace(/^.*\/(src|bench)\//, '$1/');
  const fn = `${n.callFrame.functionName || '(anon)'} ${url}:${n.callFrame.lineNumber + 1}`;
  byFn.set(fn, (byFn.get(fn) ?? 0) + t);
  const pkg = url.startsWith('nm:') ? url.split('/').slice(0, url.startsWith('nm:@') ? 2 : 1).join('/') : url || n.callFrame.functionName;
  byFile.set(pkg, (byFile.get(pkg) ?? 0) + t);
}
const top = (m: Map<string, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([name, t]) => `${((100 * t) / total).toFixed(1).padStart(5)}%  ${name}`);
console.log(`profile: ${join(dir, file)}\n-- by file/package --\n${top(byFile, 25).join('\n')}\n-- by function --\n${top(byFn, 40).join('\n')}`);
