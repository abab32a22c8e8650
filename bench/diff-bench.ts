// `servicespec diff` on two 5,000-operation specs (1,000 resources, bench/lib/foundation-spec.ts). The new spec
// changes every tenth resource's name length, adds a required field to every fifth, drops one filter of every
// list and removes 50 operations, so the comparison has thousands of changes to classify and place.
// Target: the comparison (diffSpecs on the two compiled specs) under 1 s.
//
//   npx tsx bench/diff-bench.ts
import { cpus, loadavg } from 'node:os';
import { diffSpecs } from '../src/diff/diff-run.js';
import { compileSpecText } from '../src/program.js';
import { writeResultsSection } from './lib/bench-results.js';
import { generateLargeSpec } from './lib/foundation-spec.js';

const RUNS = 5;
const oldText = generateLargeSpec({ resources: 1000, operationsPerResource: 5 });
let n = 0;
const newText = oldText
  .replace(/name: \{ type: string, minLength: 1, maxLength: 200, example: Example name \}/g, (m) =>
    n++ % 10 === 0 ? m.replace('maxLength: 200', 'maxLength: 100') : m,
  )
  .replace(/(\n {6}created_at: \{ type: datetime, readOnly: true, generated: create_time \})/g, (m) =>
    n++ % 5 === 0 ? `\n      extra: { type: string }${m}` : m,
  )
  .replace(/filter: \[kind, code\]/g, 'filter: [kind]')
  .replace(/\n {4}delete(Resource00[0-4]\d): \{[^\n]*/g, '');

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

function time<T>(fn: () => T): [T, number, number] {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const v = fn();
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return [v, wall, (cpu.user + cpu.system) / 1000];
}

const [oldSpec, compileOldMs] = time(() => compileSpecText(oldText, 'old.yaml'));
const [newSpec, compileNewMs] = time(() => compileSpecText(newText, 'new.yaml'));
const ops = (s: typeof oldSpec) => s.model?.endpoints?.operations.length ?? 0;
if (!oldSpec.model || !newSpec.model) throw new Error('the generated specs do not compile');

diffSpecs(oldSpec, newSpec); // warm-up
const walls: number[] = [];
const cpusMs: number[] = [];
let summary = '';
let changes = 0;
for (let i = 0; i < RUNS; i++) {
  // Fresh compiled specs each run would measure the front end again; the comparison and placing are what is timed.
  const [outcome, wall, cpu] = time(() => diffSpecs(oldSpec, newSpec));
  walls.push(wall);
  cpusMs.push(cpu);
  if (outcome.ok) {
    changes = outcome.report.changes.length;
    const s = outcome.report.summary;
    summary = `${s.breaking} breaking, ${s.needsReview} needs review, ${s.nonBreaking} non-breaking`;
  }
}
const med = median(walls);
const met = med < 1000;
const lines = [
  '## diff-bench: `servicespec diff` on two 5,000-operation specs',
  '',
  '- Command: `npx tsx bench/diff-bench.ts`',
  `- Date: ${new Date().toISOString()}`,
  `- Machine: ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), Node ${process.version}, ${process.platform} ${process.arch}; 1-minute load average at the end ${loadavg()[0]!.toFixed(1)}`,
  `- Specs: old ${ops(oldSpec)} operations, new ${ops(newSpec)} operations (1,000 resources each; bench/lib/foundation-spec.ts, edited as the script says); ${changes} changes found (${summary})`,
  `- Median of ${RUNS} runs after one warm-up, in one process.`,
  '',
  '| measured | median wall | median CPU | wall runs (ms) |',
  '|---|---|---|---|',
  `| diffSpecs (compare the two models, classify, place every change at file:line) | ${med.toFixed(0)} ms | ${median(cpusMs).toFixed(0)} ms | ${walls.map((w) => w.toFixed(0)).join(', ')} |`,
  `| for scale: compiling each spec once (load + validate + model + check) | old ${compileOldMs.toFixed(0)} ms, new ${compileNewMs.toFixed(0)} ms | | |`,
  '',
  `Target (the comparison under 1 s): ${met ? 'met' : 'NOT met'}. The whole command also reads and compiles both specs, which is the front end's cost (see foundation-bench).`,
];
writeResultsSection('diff-bench', lines.join('\n'));
process.stdout.write(`${lines.join('\n')}\n`);
