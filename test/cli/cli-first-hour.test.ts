// The first hour's friction (issue 29), each as a new user met it.

import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/cli-run.js';
import { EXAMPLES, ROOT, spawnCli, STACK_LINE } from './cli-helpers.js';

const [, LIBRARY, ORDERS] = EXAMPLES as [string, string, string];
const PARTLY = join(ROOT, 'test', 'fixtures', 'partly-shown-auth', 'service.yaml');
const ESC = '\u001b[';

/** Runs the command in-process as if stdout and stderr were (or were not) a terminal, with exactly this environment. */
async function runAs(args: string[], tty: boolean, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await run(args, { out: (s) => void (stdout += s), err: (s) => void (stderr += s), env, stdin: () => Buffer.from(''), isTTY: { out: tty, err: tty }, cwd: ROOT });
  return { code, stdout, stderr };
}

describe('check and diff in colour', { timeout: 120_000 }, () => {
  it('check colours severities on a terminal, and not in a pipe or under NO_COLOR; FORCE_COLOR colours a pipe', async () => {
    const tty = await runAs(['check', PARTLY], true, {});
    expect(tty.stdout).toContain(`${ESC}31merror${ESC}0m ${ESC}1mscheme-incomplete${ESC}0m: scheme \`key\``);
    expect(tty.stdout).toContain(`${ESC}33mwarning${ESC}0m`);
    expect(tty.stdout).toContain(`${ESC}31m1 error${ESC}0m, ${ESC}33m11 warnings${ESC}0m\n`);
    expect((await runAs(['check', PARTLY], false, {})).stdout).not.toContain(ESC);
    expect((await runAs(['check', PARTLY], true, { NO_COLOR: '1' })).stdout).not.toContain(ESC);
    expect((await runAs(['check', PARTLY], true, { FORCE_COLOR: '0' })).stdout).not.toContain(ESC);
    expect((await runAs(['check', PARTLY], false, { FORCE_COLOR: '1' })).stdout).toContain(`${ESC}31merror`);
    expect((await runAs(['check', PARTLY, '--format', 'json'], true, {})).stdout).not.toContain(ESC);
  });

  it('diff colours impacts and counts on a terminal, and honours NO_COLOR', async () => {
    const tty = await runAs(['diff', LIBRARY, ORDERS], true, {});
    expect(tty.stdout).toMatch(new RegExp(`\\n  \\u001b\\[31mbreaking\\u001b\\[0m +`));
    expect(tty.stdout).toMatch(new RegExp(`\\n  \\u001b\\[32mnon-breaking\\u001b\\[0m +`));
    expect(tty.stdout).toMatch(new RegExp(`\\u001b\\[31m\\d+ breaking\\u001b\\[0m, \\u001b\\[33m\\d+ needs review\\u001b\\[0m, \\d+ non-breaking \\(`));
    expect((await runAs(['diff', LIBRARY, ORDERS], true, { NO_COLOR: '1' })).stdout).not.toContain(ESC);
    expect((await runAs(['diff', LIBRARY, ORDERS], false, {})).stdout).not.toContain(ESC);
  });
});

describe('errors before warnings', { timeout: 120_000 }, () => {
  it('check prints the error first, not after eleven warnings', async () => {
    const r = await runAs(['check', PARTLY], false, {});
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/service\.yaml:18:10: error scheme-incomplete: /);
    expect(lines.slice(1, -1).every((l) => / warning /.test(l))).toBe(true);
    expect(lines.at(-1)).toBe('1 error, 11 warnings');
  });
});

describe('serve on a port in use', { timeout: 120_000 }, () => {
  it('names the port and --port, not a bare EADDRINUSE', async () => {
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const r = await spawnCli(['serve', ORDERS, '--db', 'sqlite::memory:', '--allow-gaps', '--log', 'silent', '--port', String(port)]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`servicespec serve: port ${port} on 127.0.0.1 is already in use (EADDRINUSE): stop what is using it, or pick another with --port (or PORT); --port 0 picks a free one\n`);
      expect(r.stderr).not.toMatch(STACK_LINE);
    } finally {
      blocker.close();
    }
  });
});
