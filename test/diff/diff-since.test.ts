// Versions checked: `check` compares each supported version's declared changes with what the spec shows, and
// `check --since OLD` compares the spec with an earlier one through the differ.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileSpecFile, compileSpecText } from '../../src/program.js';
import { runCli, tempDir } from '../cli/cli-helpers.js';
import { library, ROOT, type Doc } from './diff-helpers.js';

const LIBRARY = join(ROOT, 'examples', 'library.yaml');

function versionDiagnostics(edit: (d: Doc) => void): string[] {
  const d = library();
  edit(d);
  return compileSpecText(JSON.stringify(d, null, 1), 'spec.json')
    .diagnostics.filter((x) => x.code.startsWith('version-'))
    .map((x) => `${x.line ?? '?'} ${x.severity} ${x.code}: ${x.message}`);
}

describe('check: declared changes the spec does not show', () => {
  it('the examples declare only changes they show', () => {
    for (const f of ['library.yaml', 'orders.yaml', 'empty.yaml']) {
      expect(
        compileSpecFile(join(ROOT, 'examples', f)).diagnostics.filter((x) => x.code.startsWith('version-')),
        f,
      ).toEqual([]);
    }
  });

  it('an added field the next version does not have', () => {
    const found = versionDiagnostics((d) => delete d.resources.Book.fields.language);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(
      /^\d+ warning version-change-not-shown: version `1` declares add_field Book\.language, which the spec does not show: version 2 has no field language$/,
    );
  });

  it('a removed field the next version still has', () => {
    const found = versionDiagnostics((d) => d.versioning.supported[0].changes.push({ remove_field: { resource: 'Book', field: 'pages' } }));
    expect(found).toEqual([
      expect.stringMatching(
        /warning version-change-not-shown: version `1` declares remove_field Book\.pages, which the spec does not show: version 2 still has pages$/,
      ),
    ]);
  });

  it('a rename whose old name the next version still has; and through an intermediate version', () => {
    const renamed = versionDiagnostics((d) => (d.resources.Member.fields.name = { type: 'string', optional: true }));
    expect(renamed).toEqual([
      expect.stringMatching(/version-change-not-shown: version `1` declares rename_field Member\.name → full_name, .*version 2 still has name$/),
    ]);
    // Version 1 → 2 renames name → full_name; 2 → 3 adds nickname. Version 2 (derived) has full_name, so 1's rename is shown.
    const chained = versionDiagnostics((d) => {
      d.resources.Member.fields.nickname = { type: 'string', optional: true };
      d.versioning.current = 3;
      d.versioning.supported.unshift({ version: 2, changes: [{ add_field: { resource: 'Member', field: 'nickname' } }] });
    });
    expect(chained).toEqual([]);
  });
});

describe('check --since OLD', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());
  const write = (name: string, edit: (d: Doc) => void) => {
    const d = library();
    edit(d);
    const path = join(dir.path, name);
    writeFileSync(path, JSON.stringify(d, null, 1));
    return path;
  };

  it('a breaking change under the same current version is version-not-advanced (exit 1)', async () => {
    const next = write('same-version.json', (d) => (d.resources.Book.fields.subtitle = { type: 'string' }));
    const r = await runCli(['check', next, '--since', LIBRARY]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `error version-not-advanced: the spec makes 1 breaking change(s) since ${LIBRARY} (such as: Book.subtitle: new required request field; requests without it are refused) but the current version is still \`2\``,
    );
  });

  it('a new version that declares its breaking change is clean; one that does not is version-change-undeclared', async () => {
    const declared = write('declared.json', (d) => {
      d.resources.Book.fields.subtitle = { type: 'string' };
      d.versioning.current = 3;
      d.versioning.supported.unshift({ version: 2, changes: [{ add_field: { resource: 'Book', field: 'subtitle' } }] });
    });
    const clean = await runCli(['check', declared, '--since', LIBRARY]);
    expect(clean.stdout).not.toMatch(/version-(change|not)/);
    // Declared, but the older versions' clients cannot send the new required field: only that is reported.
    expect(clean.stdout).toContain(
      'warning version-field-required: version `1` clients cannot create Book: subtitle came after version `1`, is required and has no default',
    );
    expect(clean.stdout).toContain('0 errors, 2 warnings');
    expect(clean.code).toBe(0);
    const undeclared = write('undeclared.json', (d) => {
      d.resources.Book.fields.subtitle = { type: 'string' };
      d.versioning.current = 3;
      d.versioning.supported.unshift({ version: 2 });
    });
    const r = await runCli(['check', undeclared, '--since', LIBRARY]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /undeclared\.json:\d+:\d+: error version-change-undeclared: Book\.subtitle: a breaking change since .*library\.yaml, which version `2` does not declare among its changes/,
    );
  });

  it('a declared change the two specs do not show is version-change-not-shown', async () => {
    const next = write('not-shown.json', (d) => {
      d.versioning.current = 3;
      d.versioning.supported.unshift({ version: 2, changes: [{ rename_field: { resource: 'Book', from: 'name', to: 'title' } }] });
    });
    const r = await runCli(['check', next, '--since', LIBRARY]);
    expect(r.stdout).toContain('warning version-change-not-shown: version `2` declares rename_field Book.name → title');
    expect(r.code).toBe(0);
  });

  it('an OLD that does not compile is a usage error (exit 2); a git: one that cannot be read is git-show-failed', async () => {
    const broken = join(dir.path, 'broken.yaml');
    writeFileSync(broken, 'servicespec: 1\nresorces: {}\n');
    const r = await runCli(['check', LIBRARY, '--since', broken]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error unknown-key');
    const g = await runCli(['check', LIBRARY, '--since', 'git:no-such-rev:examples/library.yaml']);
    expect(g.code).toBe(2);
    expect(g.stderr).toContain('error git-show-failed');
  });
});
