import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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
