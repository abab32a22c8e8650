// Import of the largest corpus document as a user runs it: the whole process `servicespec import openapi <doc> -o
// <out>` (the built CLI, dist/), timed from spawn to exit, hyperfine-style: warm-up runs, then N timed runs; mean ±
// standard deviation, median, min and max. Beside it, `servicespec --version` (node starting and loading the CLI)
// as the floor every command pays, so the import's own work is the difference of the medians.
//
//   npm run build && npx tsx bench/import-bench.ts [runs]        # writes its section of bench/RESULTS.md
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeResultsSection } from './lib/bench-results.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli', 'cli-main.js');
const CORPUS = join(ROOT, 'test', 'fixtures', 'openapi');
const RUNS = Number(process.argv[2] ?? 10);
const WARMUP = 2;

interface Stats {
  mean: number;
  sd: number;
  median: number;
  min: number;
  max: number;
}

function stats(ms: number[]): Stats {
  const s = [...ms].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  const sd = Math.sqrt(s.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, s.length - 1));
  const mid = s.length >> 1;
  const median = s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  return { mean, sd, median, min: s[0]!, max: s[s.length - 1]! };
}

/** Wall time of one whole process, in ms; throws when it fails (a benchmark of an error is no benchmark). */
function timeOnce(args: string[]): number {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`servicespec ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

function measure(args: string[]): Stats {
  for (let i = 0; i < WARMUP; i++) timeOnce(args);
  return stats(Array.from({ length: RUNS }, () => timeOnce(args)));
}

const docs = readdirSync(CORPUS)
  .filter((f) => /\.(ya?ml|json)$/.test(f))
  .map((f) => ({ f, size: statSync(join(CORPUS, f)).size }))
  .sort((a, b) => b.size - a.size);
const largest = docs[0]!;
const out = mkdtempSync(join(tmpdir(), 'servicespec-import-bench-'));
const loadBefore = loadavg()[0]!;
const floor = measure(['--version']);
const doc = join(CORPUS, largest.f);
const imp = measure(['import', 'openapi', doc, '-o', join(out, 'imported.servicespec.yaml')]);
const loadAfter = loadavg()[0]!;
rmSync(out, { recursive: true, force: true });

const f = (n: number) => n.toFixed(0);
const row = (what: string, s: Stats) => `| ${what} | ${f(s.median)} | ${f(s.mean)} ± ${f(s.sd)} | ${f(s.min)} | ${f(s.max)} |`;
const loaded = loadBefore > cpus().length * 0.75 || loadAfter > cpus().length * 0.75;
const md = `## import-bench: \`servicespec import openapi\` of the largest corpus document, whole process

\`${largest.f}\` (${largest.size.toLocaleString('en')} bytes, the largest of test/fixtures/openapi/), imported by the built
CLI as a user runs it; each figure is one process from spawn to exit (node's child_process, hyperfine-style:
${WARMUP} warm-up runs, then ${RUNS} timed runs). \`--version\` is the floor every command pays (node starting, the CLI
loaded).

\`\`\`
npm run build && npx tsx bench/import-bench.ts ${RUNS}
\`\`\`

${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, node ${process.version}, ${cpus().length} cores, load average ${loadBefore.toFixed(1)} at the start and ${loadAfter.toFixed(1)} at the end${loaded ? ': **a loaded machine** (parallel sessions): the absolute figures are upper bounds, to be measured again on a quiet machine before they are quoted' : ''}.

| command | median (ms) | mean ± sd (ms) | min (ms) | max (ms) |
|---|---:|---:|---:|---:|
${row('`servicespec --version`', floor)}
${row(`\`servicespec import openapi ${largest.f} -o …\``, imp)}

The import's own work (parse, validate, \`$ref\` bundling, import, check of the result, writing the spec): about
${f(imp.median - floor.median)} ms, the difference of the medians.`;
writeResultsSection('import-bench', md);
console.log(md);
