import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXAMPLES, ROOT, runCli, STACK_LINE, tempDir } from './cli-helpers.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

describe('servicespec init', { timeout: 120_000 }, () => {
  it('writes a skeleton that check accepts and whose nine parts are all not shown', async () => {
    const dir = join(tmp.path, 'fresh', 'project');
    const init = await runCli(['init', dir]);
    expect(init.code).toBe(0);
    const file = join(dir, 'service.yaml');
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^# yaml-language-server: \$schema=\S+servicespec\.schema\.json$/m);
    expect(text).toMatch(/^servicespec: 1$/m);
    for (const part of ['purpose', 'resources', 'states', 'endpoints', 'authentication', 'events', 'errors', 'limits', 'versioning']) {
      expect(text).toMatch(new RegExp(`^# ${part}:$`, 'm'));
    }
    // The editor schema reference resolves from the file's folder.
    const ref = /\$schema=(\S+)/.exec(text)![1]!;
    expect(existsSync(join(dir, ref))).toBe(true);

    const check = await runCli(['check', '--format', 'json', file]);
    expect(check.code).toBe(0);
    expect(JSON.parse(check.stdout)).toEqual({ diagnostics: [] });

    const gaps = await runCli(['gaps', '--format', 'json', file]);
    expect(gaps.code).toBe(0);
    const report = JSON.parse(gaps.stdout) as { parts: { status: string }[]; shown: number };
    expect(report.parts).toHaveLength(9);
    expect(report.parts.every((p) => p.status === 'not shown')).toBe(true);
    expect(report.shown).toBe(0);
  });

  it('writes service.yaml into the current folder by default', async () => {
    const dir = join(tmp.path, 'cwd');
    await runCli(['init', dir]); // creates the folder
    const again = await runCli(['init', '--force'], { cwd: dir });
    expect(again.code).toBe(0);
    expect(readdirSync(dir)).toEqual(['service.yaml']);
  });

  it('refuses to overwrite an existing file, and overwrites it with --force', async () => {
    const dir = join(tmp.path, 'existing');
    const first = await runCli(['init', dir]);
    expect(first.code).toBe(0);
    const file = join(dir, 'service.yaml');
    writeFileSync(file, 'servicespec: 1\n# mine\n');

    const refused = await runCli(['init', dir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('already exists');
    expect(refused.stderr).toContain('--force');
    expect(refused.stderr).not.toMatch(STACK_LINE);
    expect(readFileSync(file, 'utf8')).toBe('servicespec: 1\n# mine\n');

    const forced = await runCli(['init', '--force', dir]);
    expect(forced.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('# 9. Versioning');
  });

  it('exits 1 with output-unwritable when the folder cannot be made', async () => {
    const blocker = join(tmp.path, 'a-file');
    writeFileSync(blocker, 'x');
    const r = await runCli(['init', join(blocker, 'sub')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error output-unwritable');
    expect(r.stderr).not.toMatch(STACK_LINE);
  });
});

describe('servicespec doc', { timeout: 120_000 }, () => {
  const empty = join(ROOT, 'examples', 'empty.yaml');

  it('writes Markdown to standard output', async () => {
    const r = await runCli(['doc', empty]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^# /);
    expect(r.stdout).toContain('not shown');
  });

  it('writes Markdown to a file with -o, leaving no temporary file behind', async () => {
    const dir = join(tmp.path, 'doc-md');
    await runCli(['init', dir]);
    const out = join(dir, 'service.md');
    const r = await runCli(['doc', empty, '-o', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(readFileSync(out, 'utf8')).toMatch(/^# /);
    expect(readdirSync(dir).sort()).toEqual(['service.md', 'service.yaml']);
  });

  it('writes HTML with --html', async () => {
    const out = join(tmp.path, 'service.html');
    const r = await runCli(['doc', '--html', empty, '--output', out]);
    expect(r.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/<html/i);
  });

  it('exits 1 with output-unwritable for a folder that does not exist', async () => {
    const r = await runCli(['doc', empty, '-o', join(tmp.path, 'missing', 'x.md')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error output-unwritable');
    expect(r.stderr).not.toMatch(STACK_LINE);
  });

  it('exits 1 with output-unwritable when the output is a folder', async () => {
    const r = await runCli(['doc', empty, '-o', tmp.path]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error output-unwritable');
  });

  it('exits 1 and writes nothing for a spec with errors', async () => {
    const spec = join(tmp.path, 'bad.yaml');
    writeFileSync(spec, 'servicespec: 1\nresources:\n  Order:\n    fields:\n      customer: { type: ref, to: Custmer }\n');
    const out = join(tmp.path, 'bad.md');
    const r = await runCli(['doc', spec, '-o', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error unknown-resource');
    expect(existsSync(out)).toBe(false);
  });

  for (const example of EXAMPLES) {
    it(`renders examples/${basename(example)} as Markdown and HTML`, async () => {
      const md = await runCli(['doc', example]);
      const html = await runCli(['doc', '--html', example]);
      expect(md.stderr).toBe('');
      expect(md.code).toBe(0);
      expect(md.stdout).toMatch(/^# /);
      expect(html.code).toBe(0);
      expect(html.stdout).toMatch(/<html/i);
    });
  }
});
