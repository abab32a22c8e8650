// The real `servicespec` bin as a process: the few things in-process runs (runCli) cannot show — the process's exit
// status, its streams, standard input from a pipe. Serving as a process is covered by startCli (cli-watch, cli-cors,
// cli-database, cli-logs).
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILT_CLI, EXAMPLES, spawnCli, STACK_LINE, tempDir } from './cli-helpers.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

describe('servicespec as a process', { timeout: 60_000 }, () => {
  it('--help exits 0 with the usage on stdout', async () => {
    const r = await spawnCli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: servicespec/);
    expect(r.stdout).toContain('Exit status: 0 clean, 1 errors found, 2 usage error.');
  });

  it('check exits 1 on a spec with errors read from a pipe, 0 on a clean file, 2 on an unknown option; no stack trace', async () => {
    const bad = await spawnCli(['check', '-'], { input: 'servicespec: 1\npurpse: {}\n' });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('purpse');
    expect(bad.stdout + bad.stderr).not.toMatch(STACK_LINE);
    const clean = await spawnCli(['check', EXAMPLES[0]!, '--quiet']);
    expect(clean).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const usage = await spawnCli(['check', EXAMPLES[0]!, '--no-such']);
    expect(usage.code).toBe(2);
    expect(usage.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});

// The built bin runs `check FILE` from its one-file bundle (src/cli/cli-bundle.ts), with V8's code cache of it in the
// OS temp folder on Node 20 (Node 22+: Node's own compile cache), and of the validator it requires. Needs `npm run build`.
describe.runIf(existsSync(BUILT_CLI))('the built bin: check from its bundle', { timeout: 60_000 }, () => {
  it('answers as commander does, with no code cache, with one, and with a broken one', async () => {
    const spec = join(tmp.path, 'warning.yaml');
    writeFileSync(spec, 'servicespec: 1\nresources:\n  Lease:\n    fields:\n      apiVersion: { type: string }\n');
    const cacheRoot = join(tmp.path, 'os-tmp');
    const env = { TMPDIR: cacheRoot };
    for (const argv of [
      ['check', spec],
      ['check', '--format', 'json', spec],
      ['check', '-q', '-'],
      ['check', EXAMPLES[0]!],
    ]) {
      const input = 'servicespec: 1\npurpse: {}\n';
      const plain = await spawnCli(argv, { built: true, input, env: { ...env, SERVICESPEC_FAST_PATHS: 'off' } });
      expect(plain.stdout + plain.stderr).not.toMatch(STACK_LINE);
      expect(await spawnCli(argv, { built: true, input, env }), argv.join(' ')).toEqual(plain);
      expect(await spawnCli(argv, { built: true, input, env }), argv.join(' ')).toEqual(plain);
    }
    const cacheDir = join(cacheRoot, 'servicespec-compile-cache');
    if (process.versions.node.startsWith('20.')) {
      // One for the bundle, one for the ahead-of-time validator beside it; both broken, both recompiled.
      const files = readdirSync(cacheDir);
      expect(files).toHaveLength(2);
      for (const file of files) writeFileSync(join(cacheDir, file), 'not a code cache');
      const plain = await spawnCli(['check', spec], { built: true, env: { ...env, SERVICESPEC_FAST_PATHS: 'off' } });
      expect(await spawnCli(['check', spec], { built: true, env })).toEqual(plain);
      expect(await spawnCli(['check', spec], { built: true, env })).toEqual(plain);
    }
  });
});
