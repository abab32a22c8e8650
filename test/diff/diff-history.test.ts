// The examples' own version history: each served older version (the current model with its declared changes
// undone) diffed with the next newer one shows exactly the declared changes.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffModels } from '../../src/diff/diff-run.js';
import { getVersionModel } from '../../src/model/model-served-versions.js';
import { compareVersions } from '../../src/model/model-versions.js';
import { compileSpecFile } from '../../src/program.js';
import { ROOT } from './diff-helpers.js';

const EXAMPLES = readdirSync(join(ROOT, 'examples')).filter((f) => f.endsWith('.yaml'));

describe("diff on the examples' version history", () => {
  const versioned = EXAMPLES.filter((f) => (compileSpecFile(join(ROOT, 'examples', f)).model?.versioning?.supported.length ?? 0) > 0);

  it('finds the versioned examples', () => {
    expect(versioned).toEqual(expect.arrayContaining(['library.yaml', 'orders.yaml']));
  });

  it.each(versioned)('%s: each consecutive pair of served versions differs by its declared changes only', (file) => {
    const model = compileSpecFile(join(ROOT, 'examples', file)).model!;
    const v = model.versioning!;
    const versions = [...v.supported.map((s) => s.version), v.current!].sort((a, b) => compareVersions(v.scheme ?? 'date', a, b));
    for (let i = 0; i + 1 < versions.length; i++) {
      const older = getVersionModel(model, versions[i]!)!;
      const newer = getVersionModel(model, versions[i + 1]!)!;
      const report = diffModels(older, newer, { today: '2026-01-01' });
      const declared = v.supported.find((s) => s.version === versions[i])!.changes;
      const codes = report.changes.map((c) => c.code);
      expect(codes).not.toContain('undeclared-breaking-change');
      expect(codes).not.toContain('declared-change-not-shown');
      expect(codes).toContain('current-version-advanced');
      // Every breaking change is a declared one, and every declared change is reported.
      const fieldOf = (subject: string) => /^([^.]+)\.([^.[\]]+)/.exec(subject)?.slice(1).join('.');
      const declaredFields = declared.flatMap((c) => [c.field, c.from, c.to].filter((x) => x !== undefined).map((f) => `${c.resource}.${f}`));
      for (const c of report.changes.filter((x) => x.impact === 'breaking')) expect(declaredFields, c.reason).toContain(fieldOf(c.subject));
      for (const c of declared) {
        const subject = `${c.resource}.${c.kind === 'rename_field' ? c.from : c.field}`;
        expect(
          report.changes.map((x) => x.subject),
          subject,
        ).toContain(subject);
      }
    }
  });

  it('library.yaml: version 1 → 2 is the Member.name rename (breaking) and the new Book.language with a default (non-breaking)', () => {
    const model = compileSpecFile(join(ROOT, 'examples', 'library.yaml')).model!;
    const report = diffModels(getVersionModel(model, '1')!, model, { today: '2026-01-01' });
    const found = report.changes.filter((c) => c.part === 'resources').map((c) => [c.code, c.subject, c.impact]);
    expect(found).toEqual([
      ['field-renamed', 'Member.name', 'breaking'],
      ['request-field-added', 'Book.language', 'non-breaking'],
    ]);
  });

  it('an unserved version has no model', () => {
    const model = compileSpecFile(join(ROOT, 'examples', 'library.yaml')).model!;
    expect(getVersionModel(model, '7')).toBeUndefined();
    expect(getVersionModel(model, '2')).toBe(model);
  });
});
