// The first hour's friction (issue 29), each as a new user met it.

import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/cli-run.js';
import { CLI, EXAMPLES, ROOT, runCli, spawnCli, STACK_LINE, tempDir } from './cli-helpers.js';

const TSX_LOADER = join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs');

const [, LIBRARY, ORDERS] = EXAMPLES as [string, string, string];
const PARTLY = join(ROOT, 'test', 'fixtures', 'partly-shown-auth', 'service.yaml');
const ESC = '\u001b[';

/** Runs the command in-process as if stdout and stderr were (or were not) a terminal, with exactly this environment. */
async function runAs(args: string[], tty: boolean, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await run(args, {
    out: (s) => void (stdout += s),
    err: (s) => void (stderr += s),
    env,
    stdin: () => Buffer.from(''),
    isTTY: { out: tty, err: tty },
    cwd: ROOT,
  });
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
      expect(r.stderr).toContain(
        `servicespec serve: port ${port} on 127.0.0.1 is already in use (EADDRINUSE): stop what is using it, or pick another with --port (or PORT); --port 0 picks a free one\n`,
      );
      expect(r.stderr).not.toMatch(STACK_LINE);
    } finally {
      blocker.close();
    }
  });
});

describe('keys without --db finds the database npm start serves', { timeout: 120_000 }, () => {
  it("npm start's database is the one every command defaults to for its spec", async () => {
    const { defaultDbUrl } = await import('../../src/cli/cli-keys.js');
    const start = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start!;
    const words = start.split(/\s+/);
    const spec = words[words.indexOf('serve') + 1]!;
    const db = words.includes('--db') ? words[words.indexOf('--db') + 1]! : defaultDbUrl(spec);
    expect(resolve(ROOT, db.replace(/^sqlite:/, ''))).toBe(resolve(ROOT, defaultDbUrl(spec).replace(/^sqlite:/, '')));
  });

  it("the README's credential commands for `test` run as written, against the database serve uses by default", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### `test`: hold a running service to its spec'));
    const block = /```\n([\s\S]*?)```/.exec(section)![1]!;
    const commands = block
      .split('\n')
      .filter((l) => l.startsWith('$ '))
      .map((l) => l.slice(2));
    expect(commands.length).toBeGreaterThanOrEqual(5);
    const dir = tempDir();
    try {
      mkdirSync(join(dir.path, 'examples'));
      copyFileSync(ORDERS, join(dir.path, 'examples', 'orders.yaml'));
      // the service's database, as `npm start` (serve with no --db) would have made it
      expect((await runCli(['keys', 'list', 'examples/orders.yaml', '--create'], { cwd: dir.path })).code).toBe(0);
      expect(existsSync(join(dir.path, 'examples', 'data', 'orders.db'))).toBe(true);
      const script = [
        'set -eu',
        `servicespec() { ${JSON.stringify(process.execPath)} --import ${JSON.stringify(TSX_LOADER)} ${JSON.stringify(CLI)} "$@"; }`,
        ...commands,
        'printf "%s\\n" "$KEY" "$BOB_KEY" "$READ_ONLY_KEY" "$PAY_ID" "$PAY_SECRET"',
      ].join('\n');
      const r = spawnSync('bash', ['-c', script], { cwd: dir.path, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 100_000 });
      expect(r.status, r.stderr).toBe(0);
      const values = r.stdout.trim().split('\n');
      expect(values).toHaveLength(5);
      for (const v of values) expect(v).toMatch(/^\S{8,}$/);
      const keys = await runCli(['keys', 'list', 'examples/orders.yaml', '--format', 'json'], { cwd: dir.path });
      expect(keys.stdout).toContain('"carol"');
    } finally {
      dir.remove();
    }
  });
});

describe('test --help', () => {
  it('ends with examples, the first making the credential the second uses', async () => {
    const r = await runCli(['test', '--help']);
    expect(r.stdout).toContain('\nExamples:\n  $ KEY=$(servicespec keys create examples/orders.yaml --subject alice --scopes ');
    expect(r.stdout).toContain('  $ servicespec test examples/orders.yaml --base-url http://127.0.0.1:3000 --header "X-API-Key: $KEY"\n');
  });
});

describe('the first `import openapi` example, as written', { timeout: 120_000 }, () => {
  it('is the same in the README and --help, and runs (input and output are different files)', async () => {
    const { COMMAND_EXAMPLES } = await import('../../src/cli/cli-examples.js');
    const example = COMMAND_EXAMPLES['import openapi']![0]!;
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(`$ ${example} `);
    const dir = tempDir();
    try {
      const args = example.split(/\s+/).slice(1);
      copyFileSync(join(ROOT, 'test', 'fixtures', 'openapi', 'oai-petstore.yaml'), join(dir.path, args[2]!));
      const r = await runCli(args, { cwd: dir.path });
      expect(r.code, r.stderr).toBe(0);
      expect(existsSync(join(dir.path, args[4]!))).toBe(true);
      expect((await runCli(['check', join(dir.path, args[4]!)])).code).toBe(0);
    } finally {
      dir.remove();
    }
  });
});
