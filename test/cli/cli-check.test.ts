import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { parseDirectCheck } from '../../src/cli/cli-check-args.js';
import { EXAMPLES, ROOT, runCli, STACK_LINE, tempDir } from './cli-helpers.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

function writeSpec(name: string, text: string): string {
  const path = join(tmp.path, name);
  writeFileSync(path, text);
  return path;
}

describe('servicespec check', { timeout: 120_000 }, () => {
  for (const example of EXAMPLES) {
    it(`accepts examples/${basename(example)} with exit 0`, async () => {
      const r = await runCli(['check', example]);
      expect(r.stdout + r.stderr).not.toMatch(/\berror\b [a-z-]+:/);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('no problems found');
    });

    it(`prints parseable JSON for examples/${basename(example)} with --format json`, async () => {
      const r = await runCli(['check', '--format', 'json', example]);
      const parsed = JSON.parse(r.stdout) as { diagnostics: unknown[] };
      expect(Array.isArray(parsed.diagnostics)).toBe(true);
      expect(r.code).toBe(parsed.diagnostics.some((d) => (d as { severity: string }).severity === 'error') ? 1 : 0);
    });
  }

  it('reports a missing file as file-not-found with exit 1', async () => {
    const r = await runCli(['check', join(tmp.path, 'no-such-spec.yaml')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/error file-not-found: no such file: .*no-such-spec\.yaml/);
    expect(r.stdout).toContain('1 error, 0 warnings');
  });

  it('reports a missing file in JSON with its code', async () => {
    const r = await runCli(['check', '--format', 'json', join(tmp.path, 'no-such-spec.yaml')]);
    expect(r.code).toBe(1);
    const parsed = JSON.parse(r.stdout) as { diagnostics: { code: string; severity: string }[] };
    expect(parsed.diagnostics.map((d) => d.code)).toEqual(['file-not-found']);
  });

  it('reports a directory as file-is-directory with exit 1', async () => {
    const r = await runCli(['check', join(ROOT, 'examples')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('error file-is-directory');
  });

  it('exits 1 with a positioned diagnostic and no stack trace on broken YAML', async () => {
    const path = writeSpec('broken.yaml', 'servicespec: 1\npurpose: {name: [unclosed\n');
    const r = await runCli(['check', path]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/broken\.yaml:\d+:\d+: error yaml-syntax/);
    expect(r.stdout + r.stderr).not.toMatch(STACK_LINE);
  });

  it('exits 1 on a structural error and names the key', async () => {
    const path = writeSpec('unknown-part.yaml', 'servicespec: 1\npurpse:\n  name: X\n');
    const r = await runCli(['check', path]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/unknown-part\.yaml:2:1: error unknown-key: .*purpse/);
  });

  it('prints warnings but exits 0 when there are no errors', async () => {
    const path = writeSpec('warnings.yaml', 'servicespec: 1\nevents:\n  kinds:\n    order.paid: {}\n');
    const r = await runCli(['check', path]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('warning event-payload-unknown');
    expect(r.stdout).toMatch(/0 errors, \d+ warnings?/);
  });

  it('reads standard input for the file -', async () => {
    const r = await runCli(['check', '-'], { input: 'servicespec: 1\npurpse: {}\n' });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^<stdin>:2:1: error unknown-key: .*did you mean `purpose`\?/);
  });

  it('--quiet hides warnings and the clean summary', async () => {
    const path = writeSpec('warnings-quiet.yaml', 'servicespec: 1\nevents:\n  kinds:\n    order.paid: {}\n');
    const r = await runCli(['check', '--quiet', path]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
  });
});

describe('servicespec gaps', { timeout: 120_000 }, () => {
  it('reports all nine parts not shown for examples/empty.yaml', async () => {
    const r = await runCli(['gaps', join(ROOT, 'examples', 'empty.yaml')]);
    expect(r.code).toBe(0);
    const titles = [
      'What the service does',
      'Resources and their fields',
      'States and transitions',
      'Endpoints',
      'Authentication',
      'Events',
      'Errors',
      'Limits',
      'Versioning',
    ];
    for (const title of titles) expect(r.stdout).toMatch(new RegExp(`^${title}: not shown`, 'm'));
    expect(r.stdout).toContain('0 of 9 parts shown');
  });

  it('prints the gap report object with --format json', async () => {
    const r = await runCli(['gaps', '--format', 'json', join(ROOT, 'examples', 'orders.yaml')]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { parts: { part: string; status: string }[]; shown: number };
    expect(report.parts.map((p) => p.part)).toEqual([
      'purpose',
      'resources',
      'states',
      'endpoints',
      'authentication',
      'events',
      'errors',
      'limits',
      'versioning',
    ]);
    expect(report.shown).toBe(report.parts.filter((p) => p.status === 'shown').length);
  });

  it('exits 1 when the spec is too broken to build a model', async () => {
    const path = writeSpec('gaps-broken.yaml', 'servicespec: 2\n');
    const r = await runCli(['gaps', path]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error unsupported-format-version');
  });

  it('exits 1 for a missing file', async () => {
    const r = await runCli(['gaps', join(tmp.path, 'absent.yaml')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('file-not-found');
  });
});

describe('servicespec check --disable', { timeout: 120_000 }, () => {
  it('does not report the warnings named, and refuses a code that cannot be turned off (exit 2)', async () => {
    const spec = writeSpec('camel.yaml', 'servicespec: 1\nresources:\n  Lease:\n    fields:\n      apiVersion: { type: string }\n');
    const plain = await runCli(['check', spec]);
    expect(plain.stdout).toContain('warning name-style');
    const off = await runCli(['check', '--disable', 'name-style', spec]);
    expect(off.code).toBe(0);
    expect(off.stdout).not.toContain('name-style');
    expect(off.stdout).toContain('no problems found');
    const bad = await runCli(['check', '--disable', 'unknown-resource', spec]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('only these warnings can be turned off: name-style');
  });
});

describe('servicespec check without commander (the direct path)', { timeout: 120_000 }, () => {
  it('takes only check FILE with --quiet and --format; anything else goes to commander', () => {
    expect(parseDirectCheck(['check', 'a.yaml'])).toEqual({ file: 'a.yaml', options: { format: 'text' } });
    expect(parseDirectCheck(['check', '-q', '--format', 'json', '-'])).toEqual({ file: '-', options: { format: 'json', quiet: true } });
    expect(parseDirectCheck(['check', '--format=json', 'a.yaml', '--quiet'])).toEqual({ file: 'a.yaml', options: { format: 'json', quiet: true } });
    for (const argv of [
      ['check'],
      ['check', 'a.yaml', 'b.yaml'],
      ['check', '--format', 'xml', 'a.yaml'],
      ['check', '--format', 'a.yaml'],
      ['check', '--watch', 'a.yaml'],
      ['check', '--disable', 'name-style', 'a.yaml'],
      ['check', '--since', 'old.yaml', 'a.yaml'],
      ['check', '--help'],
      ['check', '--', 'a.yaml'],
      ['gaps', 'a.yaml'],
      ['--version', 'check', 'a.yaml'],
    ])
      expect(parseDirectCheck(argv), argv.join(' ')).toBeUndefined();
  });

  it('answers as commander does (SERVICESPEC_FAST_PATHS=off): output and exit code', async () => {
    const warning = writeSpec('direct-warning.yaml', 'servicespec: 1\nresources:\n  Lease:\n    fields:\n      apiVersion: { type: string }\n');
    const broken = writeSpec('direct-broken.yaml', 'servicespec: 1\npurpose: {name: [unclosed\n');
    const missing = join(tmp.path, 'direct-absent.yaml');
    for (const argv of [
      ['check', EXAMPLES[1]!],
      ['check', warning],
      ['check', '-q', warning],
      ['check', '--format', 'json', warning],
      ['check', '--format=json', '--quiet', broken],
      ['check', broken],
      ['check', missing],
    ]) {
      // The switch is the process's (util-fast-paths.ts), not the run's io.
      vi.stubEnv('SERVICESPEC_FAST_PATHS', 'on');
      const direct = await runCli(argv);
      vi.stubEnv('SERVICESPEC_FAST_PATHS', 'off');
      const plain = await runCli(argv);
      vi.unstubAllEnvs();
      expect(direct, argv.join(' ')).toEqual(plain);
    }
  });
});
