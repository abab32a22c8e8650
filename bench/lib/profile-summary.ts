// Summarises .cpuprofile files by self time: per function and per file (or package), in per cent of the samples.
//   npx tsx bench/lib/profile-summary.ts FILE.cpuprofile... [--top N]
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
const args = process.argv.slice(2);
const topN = args.includes('--top') ? Number(args[args.indexOf('--top') + 1]) : 40;
// --per N: show µs per request (N requests per profile) instead of per cent.
const per = args.includes('--per') ? Number(args[args.indexOf('--per') + 1]) : undefined;
const files = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--top' && args[i - 1] !== '--per');
const byFn = new Map<string, number>();
const byFile = new Map<string, number>();
let total = 0;
for (const f of files) {
  const p = JSON.parse(readFileSync(f, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
  for (const n of p.nodes) {
    if (n.callFrame.functionName === 'dispatch' || n.callFrame.functionName === '(idle)') continue; // the inspector's own work, and idle
    const t = self.get(n.id) ?? 0;
    total += t;
    const url = n.callFrame.url.replace(/^.*node_modules\//, 'nm:').replace(/^.*\/(src|bench)\//, '$1/');
    const fn = `${n.callFrame.functionName || '(anon)'} ${url}:${n.callFrame.lineNumber + 1}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + t);
    const pkg = url.startsWith('nm:')
      ? url
          .split('/')
          .slice(0, url.startsWith('nm:@') ? 2 : 1)
          .join('/')
      : url || n.callFrame.functionName;
    byFile.set(pkg, (byFile.get(pkg) ?? 0) + t);
  }
}
const show = (t: number) => (per ? `${(t / (per * files.length)).toFixed(1).padStart(6)} µs` : `${((100 * t) / total).toFixed(1).padStart(5)}%`);
const top = (m: Map<string, number>, k: number) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([name, t]) => `${show(t)}  ${name}`);
if (per) console.log(`total ${show(total)} per request`);
console.log(`-- by file/package --\n${top(byFile, 25).join('\n')}\n-- by function --\n${top(byFn, topN).join('\n')}`);
