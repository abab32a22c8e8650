// Export and import at scale, against the tools people use today, in the same run:
//   - OpenAPI export of the generated 1,000-resource / 5,000-operation spec (bench/lib/foundation-spec.ts), with the
//     check of the spec before it, against `redocly lint` (recommended rules) of the exported document;
//   - import of the largest document of the public corpus (test/fixtures/openapi/kubernetes-coordination-v1.json),
//     against @apidevtools/swagger-parser's validate() of the same file (where any importer starts).
// Times are medians; peak memory is process.resourceUsage().maxRSS of a fresh child process running the part once
// (for Redocly: of its own CLI process, read by a preload module).
//
//   npx tsx bench/interop-bench.ts            # print the results and replace the "## Interop" section of bench/RESULTS.md
//   INTEROP_BENCH_RUNS=3 npx tsx bench/interop-bench.ts
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { hasErrors } from '../src/diagnostics/diagnostics-catalogue.js';
import { exportOpenApi } from '../src/export/export-openapi.js';
import { serializeDocument } from '../src/export/export-shared.js';
import { importOpenApiFile } from '../src/import/import-openapi.js';
import { getRoutes } from '../src/model/model-routes.js';
import { compileSpecText } from '../src/program.js';
import { generateLargeSpec } from './lib/foundation-spec.js';
import { fmtMB, fmtMs, machine, median, runChild } from './lib/foundation-measure.js';

const SCRIPT = fileURLToPath(import.meta.url);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS = join(ROOT, 'bench', 'RESULTS.md');
const CORPUS_FILE = join(ROOT, 'test', 'fixtures', 'openapi', 'kubernetes-coordination-v1.json');
const REDOCLY = join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
const SIZE = { resources: 1000, operationsPerResource: 5 };
const RUNS = Number(process.env.INTEROP_BENCH_RUNS ?? 3);

async function timeAsync(runs: number, fn: () => unknown): Promise<number[]> {
  await fn();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

/** One run's wall-clock and CPU (user + system) time, in milliseconds. */
interface Timed {
  wall: number;
  cpu: number;
}

function timed(fn: () => void): Timed {
  const c = process.cpuUsage();
  const t = performance.now();
  fn();
  const d = process.cpuUsage(c);
  return { wall: performance.now() - t, cpu: (d.user + d.system) / 1000 };
}

const cpuOf = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

/** The measured parts, each run once in a fresh process for its peak memory (and its cold time). */
async function child(mode: string, file: string): Promise<void> {
  const t = performance.now();
  if (mode === 'export') {
    const c = compileSpecText(readFileSync(file, 'utf8'), file);
    writeFileSync(`${file}.out.yaml`, serializeDocument(exportOpenApi(c.model!).document, 'yaml'));
  } else if (mode === 'import') {
    await importOpenApiFile(file);
  } else if (mode === 'swagger-parser') {
    await SwaggerParser.validate(file);
  }
  const ms = performance.now() - t;
  // cpu: the whole process, module loading included, as for Redocly's process below
  console.log(JSON.stringify({ ms, cpu: cpuOf(process.cpuUsage()), maxRSS: process.resourceUsage().maxRSS }));
}

interface Redocly {
  wall: number;
  /** CPU time of the whole process (user + system). */
  cpu: number;
  /** Redocly's own "validated in N ms". */
  own: number;
  maxRSS: number;
  errors: number;
  warnings: number;
}

/** One `redocly lint` process on the file; its peak memory comes from a preload module that reports on exit. */
function redoclyLint(file: string, dir: string): Redocly {
  const preload = join(dir, 'report-rss.mjs');
  const report = join(dir, 'rss.json');
  writeFileSync(
    preload,
    `import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => { const u = process.cpuUsage(); writeFileSync(${JSON.stringify(report)}, JSON.stringify({ maxRSS: process.resourceUsage().maxRSS, cpu: (u.user + u.system) / 1000 })); });\n`,
  );
  writeFileSync(join(dir, 'redocly.yaml'), 'extends:\n  - recommended\n');
  const t = performance.now();
  const r = spawnSync(process.execPath, ['--import', preload, REDOCLY, 'lint', '--format=json', '--config', join(dir, 'redocly.yaml'), file], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
  });
  const wall = performance.now() - t;
  const own = Number(/validated in (\d+)ms/.exec(r.stderr)?.[1] ?? NaN);
  const json = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as { totals: { errors: number; warnings: number } };
  const { maxRSS, cpu } = JSON.parse(readFileSync(report, 'utf8')) as { maxRSS: number; cpu: number };
  return { wall, cpu, own, maxRSS, errors: json.totals.errors, warnings: json.totals.warnings };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'interop-bench-'));
  const text = generateLargeSpec(SIZE);
  const specFile = join(dir, 'large.yaml');
  writeFileSync(specFile, text);
  const compiled = compileSpecText(text, specFile);
  if (!compiled.model || hasErrors(compiled.diagnostics)) throw new Error('the generated spec does not compile cleanly');
  const model = compiled.model;
  const ops = model.endpoints?.operations.length ?? 0;

  // ours, in this process (warm)
  const exported = exportOpenApi(model);
  const yamlText = serializeDocument(exported.document, 'yaml');
  const docFile = join(dir, 'large.openapi.yaml');
  writeFileSync(docFile, yamlText);
  // Ours and theirs run in turns, so a busy machine weighs on both alike.
  const check: Timed[] = [];
  const exp: Timed[] = [];
  const yaml: Timed[] = [];
  const pipeline: Timed[] = [];
  const lints: Redocly[] = [];
  const colds: { ms: number; cpu: number; maxRSS: number }[] = [];
  const routes: Timed[] = [];
  timed(() => serializeDocument(exportOpenApi(compileSpecText(text, specFile).model!).document, 'yaml'));
  for (let i = 0; i < RUNS; i++) {
    check.push(timed(() => compileSpecText(text, specFile)));
    exp.push(timed(() => exportOpenApi(model)));
    yaml.push(timed(() => serializeDocument(exported.document, 'yaml')));
    pipeline.push(timed(() => serializeDocument(exportOpenApi(compileSpecText(text, specFile).model!).document, 'yaml')));
    const t0 = performance.now();
    const cold = runChild(SCRIPT, ['--child', 'export', specFile]) as { ms: number; cpu: number; maxRSS: number };
    colds.push({ ...cold, ms: performance.now() - t0 });
    routes.push(timed(() => getRoutes(model)));
    lints.push(redoclyLint(docFile, dir));
  }
  const lintWall = median(lints.map((l) => l.wall));
  const lintCpu = median(lints.map((l) => l.cpu));
  const lintOwn = median(lints.map((l) => l.own));
  const coldWall = median(colds.map((c) => c.ms));
  const coldCpu = median(colds.map((c) => c.cpu));

  // import of the largest corpus document, and swagger-parser's validate of it
  const tImport = await timeAsync(RUNS, () => importOpenApiFile(CORPUS_FILE));
  const tValidate = await timeAsync(RUNS, () => SwaggerParser.validate(CORPUS_FILE));
  const importCold = runChild(SCRIPT, ['--child', 'import', CORPUS_FILE]) as { ms: number; maxRSS: number };
  const validateCold = runChild(SCRIPT, ['--child', 'swagger-parser', CORPUS_FILE]) as { ms: number; maxRSS: number };
  const imported = await importOpenApiFile(CORPUS_FILE);

  // the exported 5,000-operation document imported back (the round trip at scale)
  const tImportLarge = await timeAsync(1, () => importOpenApiFile(docFile));
  const largeCold = runChild(SCRIPT, ['--child', 'import', docFile]) as { ms: number; maxRSS: number };
  rmSync(dir, { recursive: true, force: true });

  const m = machine();
  const w = (t: Timed[]) => median(t.map((x) => x.wall));
  const c = (t: Timed[]) => median(t.map((x) => x.cpu));
  const runsOf = (t: Timed[]) => t.map((x) => x.wall.toFixed(0)).join(', ');
  const ours = w(pipeline);
  const lines = [
    `- Command: \`npx tsx bench/interop-bench.ts\``,
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${m.nproc} CPUs (${m.cpu}), Node ${m.node}, ${m.platform}; 1-minute load average at the end ${loadavg()[0]!.toFixed(1)} (other work was running: CPU times are the steadier figures)`,
    `- Spec: ${model.resources.length} resources, ${ops} operations, ${(text.length / 1024 / 1024).toFixed(2)} MiB of YAML (bench/lib/foundation-spec.ts); the exported OpenAPI 3.1 document is ${(yamlText.length / 1024 / 1024).toFixed(2)} MiB of YAML, with ${exported.diagnostics.length} export diagnostics (infos: items written to extensions, summaries derived).`,
    `- Median of ${RUNS} runs after one warm-up; ours and Redocly's run in turns. "In process" runs in this (warm) process; "process" is a fresh process doing the whole job once, start to exit (ours through tsx, which also compiles the TypeScript), with its CPU time (user + system) and peak memory (process.resourceUsage().maxRSS).`,
    `- Redocly: \`redocly lint --format=json\` with the recommended rules, telemetry off, one process per run; its own "validated in" time, the process's wall and CPU time, and its peak memory (read by a preload module). Result on this document: ${lints[0]!.errors} errors, ${lints[0]!.warnings} warning${lints[0]!.warnings === 1 ? '' : 's'}.`,
    '',
    '### OpenAPI export of the generated spec, against `redocly lint` of the same document',
    '',
    '| measured | wall (median) | runs (ms) | CPU (median) | peak RSS |',
    '|---|---|---|---|---|',
    `| ours, in process: check the spec (compileSpecText) | ${fmtMs(w(check))} | ${runsOf(check)} | ${fmtMs(c(check))} | |`,
    `| ours, in process: exportOpenApi (model → document) | ${fmtMs(w(exp))} | ${runsOf(exp)} | ${fmtMs(c(exp))} | |`,
    `| — of which getRoutes(model) (src/model/model-routes.ts) | ${fmtMs(w(routes))} | ${runsOf(routes)} | ${fmtMs(c(routes))} | |`,
    `| ours, in process: YAML serialisation | ${fmtMs(w(yaml))} | ${runsOf(yaml)} | ${fmtMs(c(yaml))} | |`,
    `| **ours, in process: check + export + YAML** | **${fmtMs(ours)}** | ${runsOf(pipeline)} | **${fmtMs(c(pipeline))}** | |`,
    `| Redocly, in process: its own "validated in" | ${fmtMs(lintOwn)} | ${lints.map((l) => l.own.toFixed(0)).join(', ')} | | |`,
    `| **ours, process: read spec, check, export, write YAML** | **${fmtMs(coldWall)}** | ${colds.map((x) => x.ms.toFixed(0)).join(', ')} | **${fmtMs(coldCpu)}** | ${fmtMB(median(colds.map((x) => x.maxRSS)))} |`,
    `| **Redocly, process: lint** | **${fmtMs(lintWall)}** | ${lints.map((l) => l.wall.toFixed(0)).join(', ')} | **${fmtMs(lintCpu)}** | ${fmtMB(median(lints.map((l) => l.maxRSS)))} |`,
    '',
    `Ratios (ours ÷ Redocly's): in process ${(ours / lintOwn).toFixed(2)}× (wall); process against process ${(coldWall / lintWall).toFixed(2)}× wall and ${(coldCpu / lintCpu).toFixed(2)}× CPU; peak memory ${(median(colds.map((x) => x.maxRSS)) / median(lints.map((l) => l.maxRSS))).toFixed(2)}×.`,
    `Target (our export + check faster than their lint): in process **${ours < lintOwn ? 'met' : 'missed'}**; process against process **${coldCpu < lintCpu ? 'met' : 'missed'}** on CPU time and **${coldWall < lintWall ? 'met' : 'missed'}** on wall time. The rows above split our time into check, export and YAML serialisation (js-yaml).`,
    '',
    '### Import of the largest corpus document, against swagger-parser validate()',
    '',
    `Document: kubernetes-coordination-v1.json (${(readFileSync(CORPUS_FILE).length / 1024).toFixed(0)} KiB, OpenAPI 3.0, 12 operations); the import gives ${Object.keys(imported.document?.resources ?? {}).length} resources and ${Object.keys(imported.document?.endpoints?.operations ?? {}).length} operations, with ${imported.diagnostics.length} import diagnostics.`,
    '',
    '| measured | median | runs (ms) | cold (child) | peak RSS |',
    '|---|---|---|---|---|',
    `| ours: importOpenApiFile (bundle, validate, convert, compile the result, gap report) | ${fmtMs(median(tImport))} | ${tImport.map((x) => x.toFixed(0)).join(', ')} | ${fmtMs(importCold.ms)} | ${fmtMB(importCold.maxRSS)} |`,
    `| baseline: SwaggerParser.validate (parse, dereference, validate) | ${fmtMs(median(tValidate))} | ${tValidate.map((x) => x.toFixed(0)).join(', ')} | ${fmtMs(validateCold.ms)} | ${fmtMB(validateCold.maxRSS)} |`,
    `| ours: import of the exported ${ops}-operation document (the round trip at scale) | ${fmtMs(tImportLarge[0]!)} | ${tImportLarge.map((x) => x.toFixed(0)).join(', ')} | ${fmtMs(largeCold.ms)} | ${fmtMB(largeCold.maxRSS)} |`,
    '',
    `Ratio to the baseline: ${(median(tImport) / median(tValidate)).toFixed(2)}× warm, ${(importCold.ms / validateCold.ms).toFixed(2)}× cold. The import does the baseline's work (its validation uses the same OpenAPI JSON Schema, compiled once per process: src/import/import-validate.ts) and then converts, writes the spec and compiles it (load, validate against the format's JSON Schema, check, gap report); cold, it also loads its own modules through tsx and compiles both JSON Schemas.`,
  ];
  const section = ['<!-- interop-bench:start -->', '## Interop', '', ...lines, '<!-- interop-bench:end -->'].join('\n');
  console.log(`\n${section}\n`);
  if (!process.argv.includes('--no-write')) writeSection(section);
}

/** Replaces this bench's section of bench/RESULTS.md (between its markers), or appends it. */
function writeSection(section: string): void {
  const current = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '# Benchmark results\n';
  const re = /<!-- interop-bench:start -->[\s\S]*?<!-- interop-bench:end -->/;
  const next = re.test(current) ? current.replace(re, () => section) : `${current.replace(/\n*$/, '\n\n')}${section}\n`;
  writeFileSync(RESULTS, next);
}

const childAt = process.argv.indexOf('--child');
if (childAt >= 0) await child(process.argv[childAt + 1]!, process.argv[childAt + 2]!);
else await main();
