// The real `servicespec diff` command: formats, --fail-on exit codes, git:REV:path, and bad input.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, STACK_LINE, tempDir } from '../cli/cli-helpers.js';
import { ROOT } from './diff-helpers.js';

const LIBRARY = join(ROOT, 'examples', 'library.yaml');
const original = readFileSync(LIBRARY, 'utf8');
// A real change: Book.title's maxLength tightened (breaking) and an optional Book.subtitle added (non-breaking).
const changed = original
  .replace('title: { type: string, minLength: 1, maxLength: 300,', 'title: { type: string, minLength: 1, maxLength: 200,')
  .replace('      language: { type: enum', '      subtitle: { type: string, optional: true }\n      language: { type: enum');

describe('servicespec diff', () => {
  const dir = tempDir();
  const next = join(dir.path, 'library-next.yaml');
  const additive = join(dir.path, 'library-additive.yaml');
  const broken = join(dir.path, 'broken.yaml');

  beforeAll(() => {
    writeFileSync(next, changed);
    writeFileSync(additive, original.replace('      language: { type: enum', '      subtitle: { type: string, optional: true }\n      language: { type: enum'));
    writeFileSync(broken, 'servicespec: 1\nresources:\n  Book:\n    fields:\n      id: { type: uuidd }\n');
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.org', '-c', 'user.name=t', ...args], { cwd: dir.path, stdio: 'pipe' });
    git('init', '-q');
    writeFileSync(join(dir.path, 'spec.yaml'), original);
    git('add', 'spec.yaml');
    git('commit', '-qm', 'spec');
    writeFileSync(join(dir.path, 'spec.yaml'), changed);
  });
  afterAll(() => dir.remove());

  it('prints the changes grouped by part, breaking first, and a summary; exit 0 without --fail-on', async () => {
    const r = await runCli(['diff', LIBRARY, next]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('resources');
    expect(lines[1]).toMatch(/^ {2}breaking +request-field-constraint-tightened +Book\.title: maxLength tightened from 300 to 200/);
    expect(lines[2]).toContain(`${LIBRARY}:38 → ${next}:38`);
    expect(r.stdout).toMatch(/non-breaking +request-field-added +Book\.subtitle/);
    expect(r.stdout.indexOf('request-field-constraint-tightened')).toBeLessThan(r.stdout.indexOf('request-field-added '));
    expect(r.stdout).toContain('current-version-not-advanced');
    expect(lines.at(-1)).toBe(`2 breaking, 0 needs review, 1 non-breaking (${LIBRARY} → ${next})`);
  });

  it('--fail-on breaking exits 1 on a breaking change and 0 on an additive one; --fail-on any exits 1 on any change', async () => {
    expect((await runCli(['diff', LIBRARY, next, '--fail-on', 'breaking'])).code).toBe(1);
    expect((await runCli(['diff', LIBRARY, additive, '--fail-on', 'breaking'])).code).toBe(0);
    expect((await runCli(['diff', LIBRARY, additive, '--fail-on', 'review'])).code).toBe(0);
    expect((await runCli(['diff', LIBRARY, additive, '--fail-on', 'any'])).code).toBe(1);
    const same = await runCli(['diff', LIBRARY, LIBRARY, '--fail-on', 'any']);
    expect(same.code).toBe(0);
    expect(same.stdout).toBe(`no changes (${LIBRARY} → ${LIBRARY})\n`);
  });

  it('--format json carries code, impact, part, subject, reason and both locations', async () => {
    const r = await runCli(['diff', LIBRARY, next, '--format', 'json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { summary: unknown; changes: Record<string, unknown>[] };
    expect(report.summary).toEqual({ breaking: 2, needsReview: 0, nonBreaking: 1 });
    expect(report.changes[0]).toEqual({
      code: 'request-field-constraint-tightened',
      impact: 'breaking',
      part: 'resources',
      subject: 'Book.title',
      reason: 'Book.title: maxLength tightened from 300 to 200; values accepted before are refused',
      old: { file: LIBRARY, pointer: '/resources/Book/fields/title', line: 38, column: 7 },
      new: { file: next, pointer: '/resources/Book/fields/title', line: 38, column: 7 },
    });
  });

  it('--format markdown writes a heading with the summary and a table per part', async () => {
    const r = await runCli(['diff', LIBRARY, next, '--format', 'markdown']);
    expect(r.stdout).toMatch(/^### 🔴 servicespec diff: 2 breaking, 0 needs review, 1 non-breaking/);
    expect(r.stdout).toContain(
      '#### resources\n\n| impact | rule | change | where |\n|---|---|---|---|\n| **breaking** | `request-field-constraint-tightened` |',
    );
  });

  it('reads git:REV:path through git show', async () => {
    const r = await runCli(['diff', 'git:HEAD:spec.yaml', 'spec.yaml', '--fail-on', 'breaking'], { cwd: dir.path });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('git:HEAD:spec.yaml:38 → spec.yaml:38');
  });

  it('an unreadable git: argument is git-show-failed, exit 2, no stack trace', async () => {
    for (const arg of ['git:HEAD:missing.yaml', 'git:no-such-rev:spec.yaml', 'git:HEAD', 'git:--output=x:spec.yaml']) {
      const r = await runCli(['diff', arg, 'spec.yaml'], { cwd: dir.path });
      expect(r.code, arg).toBe(2);
      expect(r.stderr, arg).toContain('error git-show-failed');
      expect(r.stderr).not.toMatch(STACK_LINE);
    }
  });

  it('a spec that does not compile exits 2 with its diagnostics; a missing file too', async () => {
    const r = await runCli(['diff', LIBRARY, broken]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error invalid-value');
    expect(r.stderr).toContain('both specs must compile without errors');
    const missing = await runCli(['diff', join(dir.path, 'nope.yaml'), LIBRARY]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('error file-not-found');
  });

  it('usage errors exit 2', async () => {
    expect((await runCli(['diff', LIBRARY])).code).toBe(2);
    expect((await runCli(['diff', LIBRARY, next, '--format', 'html'])).code).toBe(2);
    expect((await runCli(['diff', LIBRARY, next, '--fail-on', 'sometimes'])).code).toBe(2);
  });
});
