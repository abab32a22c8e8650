// The real `servicespec` bin as a process: the few things in-process runs (runCli) cannot show — the process's exit
// status, its streams, standard input from a pipe. Serving as a process is covered by startCli (cli-watch, cli-cors,
// cli-database, cli-logs).
import { describe, expect, it } from 'vitest';
import { EXAMPLES, spawnCli, STACK_LINE } from './cli-helpers.js';

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
