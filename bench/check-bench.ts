// `servicespec check` against `redocly lint` of the same spec's OpenAPI export, process against process, in one
// run: the generated spec (bench/lib/foundation-spec.ts) at 2,000 and 5,000 operations, each clean and with one
// warning (a state no transition reaches); plus `check` of examples/empty.yaml and a bare `node -e 0` for the floor.
// Each command runs RUNS times, the commands taking turns; wall and CPU (user + system) times come from
// /usr/bin/time, and the ratios are of medians. Runs the built CLI (dist/): `npm run build` first.
//
//   npx tsx bench/check-bench.ts            # print and replace the "check" section of bench/RESULTS.md
//   CHECK_BENCH_RUNS=9 npx tsx bench/check-bench.ts
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportOpenApi } from '../src/export/export-openapi.js';
import { serializeDocument } from '../src/export/export-shared.js';
import { compileSpecText } from '../src/program.js';
import { writeResultsSection } from './lib/bench-results.js';
import { generateLargeSpec } from './lib/foundation-spec.js';
import { machine, median } from './lib/foundation-measure.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli', 'cli-main.js');
const REDOCLY = join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
const RUNS = Number(process.env.CHECK_BENCH_RUNS ?? 5);
const SIZES = [400, 1000];

/** One state no transition reaches: check reports one warning (unreachable-state). */
function withOneWarning(text: string): string {
  const line = '      cancelled: { description: Stopped., terminal: true }\n';
  return text.replace(line, `${line}      orphan: { description: Never reached., terminal: true }\n`);
}

interface Timed {
  wall: number;
  cpu: number;
  stdout: string;
}

function timeProcess(args: readonly string[], cwd: string): Timed {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S', process.execPath, ...args], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
  });
  const [wall, user, sys] = (r.stderr.trim().split('\n').at(-1) ?? '').split(' ').map(Number);
  if (wall === undefined || user === undefined || sys === undefined || Number.isNaN(wall)) throw new Error(`no timing for ${args.join(' ')}: ${r.stderr}`);
  return { wall: wall * 1000, cpu: (user + sys) * 1000, stdout: r.stdout };
}

interface Case {
  name: string;
  ops: number;
  spec: string;
  openapi: string;
  summary: string;
  lint: string;
}

function main(): void {
  const dir = mkdtempSync(join(tmpdir(), 'check-bench-'));
  writeFileSync(join(dir, 'redocly.yaml'), 'extends:\n  - recommended\n');
  const cases: Case[] = [];
  for (const resources of SIZES) {
    const clean = generateLargeSpec({ resources, operationsPerResource: 5 });
    for (const [label, text] of [
      ['clean', clean],
      ['one warning', withOneWarning(clean)],
    ] as const) {
      const compiled = compileSpecText(text, 'bench.yaml');
      if (!compiled.model) throw new Error('the generated spec does not compile');
      const ops = compiled.model.endpoints?.operations.length ?? 0;
      const base = join(dir, `spec-${ops}-${label.replace(' ', '-')}`);
      writeFileSync(`${base}.yaml`, text);
      writeFileSync(`${base}.openapi.yaml`, serializeDocument(exportOpenApi(compiled.model).document, 'yaml'));
      cases.push({ name: label, ops, spec: `${base}.yaml`, openapi: `${base}.openapi.yaml`, summary: '', lint: '' });
    }
  }
  const empty = join(ROOT, 'examples', 'empty.yaml');
  const ours = new Map<Case, Timed[]>(cases.map((c) => [c, []]));
  const theirs = new Map<Case, Timed[]>(cases.map((c) => [c, []]));
  const emptyRuns: Timed[] = [];
  const nodeRuns: Timed[] = [];
  const load = loadavg()[0]!;
  for (let round = 0; round < RUNS; round++) {
    emptyRuns.push(timeProcess([CLI, 'check', empty], dir));
    nodeRuns.push(timeProcess(['-e', '0'], dir));
    for (const c of cases) {
      // Ours and theirs take turns, the first swapping each round, so a busy machine weighs on both alike.
      const pair = [() => ours.get(c)!.push(timeProcess([CLI, 'check', c.spec], dir)), () => theirs.get(c)!.push(timeProcess([REDOCLY, 'lint', '--format=json', '--config', join(dir, 'redocly.yaml'), c.openapi], dir))];
      if (round % 2 === 1) pair.reverse();
      for (const run of pair) run();
    }
  }
  for (const c of cases) {
    c.summary = (ours.get(c)![0]!.stdout.trim().split('\n').at(-1) ?? '').replace(/^.*: no problems found$/, 'no problems');
    const json = JSON.parse(theirs.get(c)![0]!.stdout.slice(theirs.get(c)![0]!.stdout.indexOf('{'))) as { totals: { errors: number; warnings: number } };
    c.lint = `${json.totals.errors} errors, ${json.totals.warnings} warnings`;
  }
  rmSync(dir, { recursive: true, force: true });

  const ms = (v: number) => `${Math.round(v)} ms`;
  const med = (runs: Timed[], k: 'wall' | 'cpu') => median(runs.map((r) => r[k]));
  const rows = cases.map((c) => {
    const o = ours.get(c)!;
    const t = theirs.get(c)!;
    const rw = med(t, 'wall') / med(o, 'wall');
    const rc = med(t, 'cpu') / med(o, 'cpu');
    return `| ${c.ops} | ${c.name} (check: ${c.summary}; lint: ${c.lint}) | ${ms(med(o, 'wall'))} / ${ms(med(o, 'cpu'))} | ${ms(med(t, 'wall'))} / ${ms(med(t, 'cpu'))} | **${rw.toFixed(1)}×** / **${rc.toFixed(1)}×** | ${rc >= 10 ? 'met' : 'not met'} |`;
  });
  const m = machine();
  const md = [
    '## check against redocly lint, process against process',
    '',
    `Command: \`npm run build && CHECK_BENCH_RUNS=${RUNS} npx tsx bench/check-bench.ts\` — ${new Date().toISOString().slice(0, 10)}, ${m.nproc} × ${m.cpu}, Node ${m.node}, load average ${load.toFixed(1)} at the start.`,
    '',
    `\`servicespec check SPEC\` (the built CLI) against \`redocly lint --format=json\` (recommended rules, telemetry off) of the OpenAPI export of the same spec (bench/lib/foundation-spec.ts), one process per run, ${RUNS} rounds taking turns; medians of wall / CPU (user + system) time from /usr/bin/time. The target is 10× on both; on this shared machine CPU time is the steadier figure.`,
    '',
    '| operations | spec | check: wall / CPU | redocly lint: wall / CPU | ratio wall / CPU | 10× on CPU |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    "Before issue 19's changes (2026-11-23) (same files, /usr/bin/time, same machine): `check` of the 2,000-operation spec 1.9 s CPU clean and with one warning (the js-yaml path never applied to specs with `- { ... }` items, so every such spec took the `yaml` parser; and a warning re-parsed the file with `yaml`), of examples/empty.yaml 0.33–0.39 s CPU (the CLI loaded Fastify, ioredis and the runtime; Ajv compiled the schema on each run).",
    '',
    `\`servicespec check examples/empty.yaml\`: ${ms(med(emptyRuns, 'wall'))} wall / ${ms(med(emptyRuns, 'cpu'))} CPU (target ≤ 150 ms whole process); \`node -e 0\` on the same machine: ${ms(med(nodeRuns, 'wall'))} wall / ${ms(med(nodeRuns, 'cpu'))} CPU.`,
    '',
    "Where the time goes after the issue 19 item 4 changes (CPU time per phase in one process, `process.cpuUsage`, least of 5 runs taking turns with the build before them, spec with one warning; 2,000 / 5,000 operations; before them in brackets): Node's own start ~72 ms, commander ~12, the loader's modules ~10 (45: `yaml` is loaded only when a spec needs the positions parser — the fast path has its own copy of the YAML 1.2 core tags, compared with `yaml`'s by a test, and a diagnostic's position is read off the node's line, or its few lines parsed), the validator ~10, js-yaml parse with the plain-tree check ~130 / 197 (154 / 229: a text with no anchor has no alias, so the collections are counted, not kept in two sets), Ajv validation ~54 / 100, model building ~50 / 88 (99 / 142: fields and operations are built without the undefined-key copy and frozen as they are built, so the model's deep freeze skips them; event triggers from one index of the transitions), semantic rules ~140 / 277 (113 / 261: the routes' conditions no longer allocate a set per route, but the garbage collection the model building no longer triggers falls in this phase now), placing the diagnostic ~11 / 16 (16 / 24). Whole process, the two builds taking turns (/usr/bin/time, medians of 7 CPU): examples/empty.yaml 170 → 130 ms, 2,000 operations clean 580 → 510 ms, with one warning 590 → 530 ms, 5,000 with one warning 940 → 850 ms; instructions (valgrind --tool=callgrind, whole process): 2,000 with one warning 3.61 → 3.10 G (−14%), the empty spec 932 → 785 M (−16%). The floor for 10× at 2,000 operations: Redocly spends ~3.4–4.1 s CPU on the export here, so `check` would need ≤ ~340–400 ms for the whole process; Node's start and module loading (~110 ms), js-yaml (~130) and Ajv (~55) already take ~295 ms of it before the model and the rules (~190) — what is left is a YAML reader faster than js-yaml (the plain-tree check is now a few per cent of it) or a model and rules pass at a fraction of today's cost, not loading. `check` of the empty spec: Node's start, commander, js-yaml, the ahead-of-time validator and our own modules; `yaml`, Fastify and the runtime are not loaded.",
  ].join('\n');
  console.log(md);
  writeResultsSection('check', md);
}

main();
