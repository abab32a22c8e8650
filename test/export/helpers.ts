// Shared by the export and import tests: the examples compiled, and the tools we did not write run for real
// (swagger-parser, Redocly's linter, the AsyncAPI parser, the TypeScript compiler).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import type { CheckedModel } from '../../src/model/model-types.js';
import { compileSpecFile } from '../../src/program.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const EXAMPLE_NAMES = ['orders', 'library', 'empty'] as const;
export const OPENAPI_FIXTURES = join(ROOT, 'test', 'fixtures', 'openapi');

export function exampleModel(name: string): CheckedModel {
  const compiled = compileSpecFile(join(ROOT, 'examples', `${name}.yaml`));
  if (!compiled.checked) throw new Error(`examples/${name}.yaml does not check: ${compiled.diagnostics.map((d) => d.message).join('; ')}`);
  return compiled.checked;
}

export function tempDir(prefix = 'servicespec-interop-'): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function run(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeout?: number } = {}): Promise<RunResult> {
  return new Promise((done) => {
    execFile(
      command,
      [...args],
      { cwd: options.cwd ?? ROOT, env: { ...process.env, ...options.env }, timeout: options.timeout ?? 120_000, maxBuffer: 256 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
        done({ code, stdout, stderr });
      },
    );
  });
}

export interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer?: string }[];
}

/** `redocly lint --format=json` with the recommended rules, no telemetry and no update check: one call, one document. */
export async function redoclyLint(file: string): Promise<{ errors: LintProblem[]; warnings: LintProblem[] }> {
  const dir = dirname(file);
  writeFileSync(join(dir, 'redocly.yaml'), 'extends:\n  - recommended\n');
  const cli = join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
  const r = await run(process.execPath, [cli, 'lint', '--format=json', '--config', join(dir, 'redocly.yaml'), file], {
    cwd: dir,
    env: { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
  });
  const start = r.stdout.indexOf('{');
  if (start < 0) throw new Error(`redocly printed no JSON (exit ${r.code}): ${r.stderr.slice(0, 500)}`);
  const report = JSON.parse(r.stdout.slice(start)) as { problems: LintProblem[] };
  return { errors: report.problems.filter((p) => p.severity === 'error'), warnings: report.problems.filter((p) => p.severity !== 'error') };
}

/** The TypeScript compiler on files, under `--strict` and the given options; its output when it fails. */
export async function tsc(dir: string, files: readonly string[], options: Record<string, unknown>): Promise<RunResult> {
  const config = { compilerOptions: { strict: true, noEmit: true, skipLibCheck: true, ...options }, files };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config, null, 2));
  return run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(dir, 'tsconfig.json')], { cwd: dir });
}

/**
 * The TypeScript files in `dir` compiled as a user's ES module project would be (ES2022, the DOM's fetch, strict,
 * noUncheckedIndexedAccess) into `dir/out`, and its `driver.js` imported: the generated client driven for real.
 * Returns tsc's output ('' when it compiled cleanly) and the driver module.
 */
export async function buildDriver<T>(dir: string, files: readonly string[]): Promise<{ output: string; driver: T }> {
  const out = join(dir, 'out');
  const compiled = await tsc(dir, files, {
    noEmit: false,
    outDir: out,
    target: 'ES2022',
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    module: 'ES2022',
    moduleResolution: 'bundler',
    types: [],
    noUncheckedIndexedAccess: true,
  });
  const output = compiled.stdout + compiled.stderr;
  if (output !== '') return { output, driver: undefined as T };
  writeFileSync(join(out, 'package.json'), '{ "type": "module" }');
  return { output, driver: (await import(pathToFileURL(join(out, 'driver.js')).href)) as T };
}

/** Where two JSON values differ, as readable lines (empty when equal). */
export function jsonDiff(a: unknown, b: unknown, path = ''): string[] {
  if (isDeepStrictEqual(a, b)) return [];
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) {
    return [`${path || '/'}: ${JSON.stringify(a)?.slice(0, 200)} ≠ ${JSON.stringify(b)?.slice(0, 200)}`];
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].flatMap((k) => jsonDiff((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}/${k}`));
}
