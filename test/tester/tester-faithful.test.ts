// The tester against a faithful implementation it did not make (issue 25: "`serve` and an independent
// implementation pass clean"). fixtures/faithful-orders.mjs is a hand-written node:http server of
// ../shared/bench/orders-plain.yaml with an in-memory store, written from the spec and docs/format.md alone (no
// servicespec runtime or model): the hand-written baseline's 43 true findings (tester-independent.test.ts) put
// right. The default run (only the seed varies) must pass it on three seeds: every failure here would be a false
// positive of the tester, which is what this test is for.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceModel } from '../../src/model/model-types.js';
import { compileSpecFile } from '../../src/program.js';
import { testService } from '../../src/tester/tester-run.js';
import type { TestReport } from '../../src/tester/tester-types.js';
import { runCli } from '../cli/cli-helpers.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SERVER = fileURLToPath(new URL('./fixtures/faithful-orders.mjs', import.meta.url));
// CI has ../shared beside the clone; a git worktree one level further down finds it beside its parent.
const spec = [process.env.SERVICESPEC_SHARED_DIR, join(repo, '..', 'shared'), join(repo, '..', '..', 'shared')]
  .filter((d): d is string => d !== undefined && d !== '')
  .map((d) => join(d, 'bench', 'orders-plain.yaml'))
  .find((f) => existsSync(f));
if (spec === undefined)
  console.log(
    'tester-faithful: skipped: ../shared/bench/orders-plain.yaml is not beside this clone; set SERVICESPEC_SHARED_DIR to the shared directory to run it',
  );

const SEEDS = [1, 2, 3];

/** The checks orders-plain.yaml gives nothing to: skipped, and not making the run incomplete. */
const NOT_APPLICABLE = ['events.emitted', 'limits.rate-headers', 'purpose.prose', 'versioning.served'];

/** The server on a free port of 127.0.0.1; resolves with its address once it listens. */
async function startFaithful(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [SERVER], { env: { ...process.env, PORT: '0', HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const url = await new Promise<string>((ok, fail) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) ok(m[1]!);
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => fail(new Error(`faithful-orders.mjs exited (${String(code)}) before listening:\n${out}`)));
  });
  return { url, child };
}

describe('the server is independent of servicespec', () => {
  it('imports node: modules only', () => {
    const imports = [...readFileSync(SERVER, 'utf8').matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    for (const i of imports) expect(i).toMatch(/^node:/);
  });
});

describe.skipIf(spec === undefined)('the default tester run against a faithful hand-written implementation', () => {
  let server: { url: string; child: ChildProcess } | undefined;
  let model: ServiceModel;
  const reports = new Map<number, TestReport>();

  beforeAll(async () => {
    const compiled = compileSpecFile(spec!);
    expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    model = compiled.model!;
    server = await startFaithful();
    // One server, the seeds one after another: a later run meets the earlier runs' objects, as a user's would.
    for (const seed of SEEDS) reports.set(seed, await testService(model, { baseUrl: server.url, seed }));
  }, 120_000);

  afterAll(async () => {
    const child = server?.child;
    if (child && child.exitCode === null) {
      const gone = new Promise((ok) => child.once('exit', ok));
      child.kill('SIGTERM');
      await gone;
    }
  });

  it('`servicespec test` says PASSED and exits 0 (seed 1, the default settings)', async () => {
    const r = await runCli(['test', spec!, '--base-url', server!.url, '--seed', '1', '--no-progress']);
    expect(r.stdout).toMatch(/^PASSED: 0 failed, \d+ passed, 4 skipped/m);
    expect(r.code).toBe(0);
  }, 60_000);

  for (const seed of SEEDS) {
    it(`seed ${seed}: PASSED, 0 failures, nothing not run`, () => {
      const report = reports.get(seed)!;
      const failed = report.results.filter((r) => r.outcome === 'failed');
      expect(failed.map((r) => ({ check: r.check, target: r.target, expected: r.failure?.expected, actual: r.failure?.actual }))).toEqual([]);
      expect(report.verdict).toBe('passed');
      expect(report.ok).toBe(true);
      expect(report.unreachable).toBeUndefined();
      expect(report.stoppedBy).toBeUndefined();
      const skipped = report.results.filter((r) => r.outcome === 'skipped');
      expect(skipped.filter((r) => r.notRun === true)).toEqual([]);
      expect([...new Set(skipped.map((r) => r.check))].sort()).toEqual(NOT_APPLICABLE);
      // Every part the spec uses was looked at.
      for (const part of ['resources', 'endpoints', 'errors', 'limits']) expect(report.parts.find((p) => p.part === part)?.passed, part).toBeGreaterThan(0);
    });
  }
});
