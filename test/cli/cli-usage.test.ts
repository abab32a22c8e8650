import { describe, expect, it } from 'vitest';
import { PACKAGE_VERSION, runCli, spawnCli, STACK_LINE } from './cli-helpers.js';

describe('usage', { timeout: 120_000 }, () => {
  const usageCases: [string, string[], RegExp][] = [
    ['an unknown command', ['chek', 'x.yaml'], /^servicespec: unknown command 'chek' \(Did you mean check\?\)/],
    ['an unknown option', ['check', '--bogus', 'x.yaml'], /^servicespec check: unknown option '--bogus'/],
    ['an unknown top-level option', ['--bogus'], /^servicespec: unknown option '--bogus'/],
    ['a missing argument', ['check'], /^servicespec check: missing required argument 'file'/],
    ['too many arguments', ['gaps', 'a.yaml', 'b.yaml'], /^servicespec gaps: too many arguments/],
    ['a bad --format', ['check', '--format', 'xml', 'x.yaml'], /^servicespec check: option '--format <format>' argument 'xml' is invalid/],
  ];
  for (const [what, args, message] of usageCases) {
    it(`exits 2 with one line and no stack trace for ${what}`, async () => {
      const r = await runCli(args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).not.toMatch(STACK_LINE);
    });
  }

  it('exits 2 for an empty PORT, where Number("") would have picked a random port', async () => {
    const r = await spawnCli(['serve', 'examples/orders.yaml'], { env: { PORT: '' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^servicespec serve: --port \(or PORT\) is empty/);
    expect(r.stderr).not.toMatch(STACK_LINE);
  });

  it('exits 2 with the help on stderr when no command is given', async () => {
    const r = await runCli([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Usage: servicespec');
  });

  it('prints the package version with --version', async () => {
    const r = await runCli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(PACKAGE_VERSION);
  });

  it('prints help with --help, listing exit codes', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: servicespec');
    expect(r.stdout).toContain('Exit status: 0 clean, 1 errors found, 2 usage error.');
  });

  it('has --help on every command', async () => {
    const top = await runCli(['--help']);
    const section = top.stdout.split(/^Commands:$/m)[1] ?? '';
    const commands = [...section.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((m) => m[1]!).filter((c) => c !== 'help');
    expect(commands).toEqual(expect.arrayContaining(['check', 'gaps', 'doc', 'init']));
    for (const c of commands) {
      const r = await runCli([c, '--help']);
      expect(r.code, c).toBe(0);
      expect(r.stdout, c).toContain(`Usage: servicespec ${c}`);
      if (['check', 'gaps', 'doc', 'init'].includes(c)) expect(r.stdout, c).toMatch(/Exit status/);
    }
  });
});
