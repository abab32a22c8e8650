import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDiagnostic, DIAGNOSTICS, hasErrors, isDiagnosticCode } from '../../src/diagnostics/diagnostics-catalogue.js';
import { formatDiagnostics } from '../../src/diagnostics/diagnostics-format.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CODES = Object.keys(DIAGNOSTICS);
const STAGES = ['load', 'structure', 'semantic', 'cli', 'export', 'import'];

function files(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && pattern.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

interface DocRow {
  code: string;
  severity: string;
  stage: string;
  meaning: string;
  fix: string;
}

/** The rows of every table in docs/diagnostics.md whose first cell is a `code`. */
function documentedRows(): DocRow[] {
  const text = readFileSync(join(ROOT, 'docs', 'diagnostics.md'), 'utf8');
  const rows: DocRow[] = [];
  for (const line of text.split('\n')) {
    const m = /^\|\s*`([a-z0-9-]+)`\s*\|(.*)\|\s*$/.exec(line);
    if (!m) continue;
    const cells = m[2]!.split('|').map((c) => c.trim());
    rows.push({ code: m[1]!, severity: cells[0] ?? '', stage: cells[1] ?? '', meaning: cells[2] ?? '', fix: cells[3] ?? '' });
  }
  return rows;
}

/** Quoted code names in a source text (how src/ passes a code to createDiagnostic or report). */
function quotedCodes(text: string): Set<string> {
  const found = new Set<string>();
  for (const m of text.matchAll(/['"`]([a-z0-9]+(?:-[a-z0-9]+)+)['"`]/g)) if (isDiagnosticCode(m[1]!)) found.add(m[1]!);
  return found;
}

/** Code names anywhere in a test's text: tests assert them alone ('unknown-key') or with a place ('unknown-key 2:1'). */
function mentionedCodes(text: string): Set<string> {
  const found = new Set<string>();
  for (const m of text.matchAll(/(?<![a-z0-9-])([a-z0-9]+(?:-[a-z0-9]+)+)(?![a-z0-9-])/g)) if (isDiagnosticCode(m[1]!)) found.add(m[1]!);
  return found;
}

// Codes that no test under test/ asserts yet. Every entry says why; when a test starts asserting one, this test
// fails until the entry is removed, so the list can only shrink. A code that nothing can produce belongs in
// NOT_EMITTED instead, and should be removed from the catalogue.
const NOT_YET_ASSERTED: Record<string, string> = {};

// Codes in the catalogue that no source file emits.
const NOT_EMITTED: Record<string, string> = {};

describe('the diagnostics catalogue and docs/diagnostics.md', () => {
  const rows = documentedRows();

  it('documents every code in DIAGNOSTICS', () => {
    const documented = new Set(rows.map((r) => r.code));
    expect(CODES.filter((c) => !documented.has(c))).toEqual([]);
  });

  it('documents no code that DIAGNOSTICS lacks, and each code once', () => {
    expect(rows.map((r) => r.code).filter((c) => !isDiagnosticCode(c))).toEqual([]);
    const seen = rows.map((r) => r.code);
    expect(seen.filter((c, i) => seen.indexOf(c) !== i)).toEqual([]);
  });

  it('gives each code its catalogue severity, a known stage, a meaning and a fix', () => {
    for (const r of rows) {
      if (!isDiagnosticCode(r.code)) continue;
      expect(r.severity, r.code).toBe(DIAGNOSTICS[r.code].severity);
      expect(STAGES, r.code).toContain(r.stage);
      expect(r.meaning.length, r.code).toBeGreaterThan(10);
      expect(r.fix.length, r.code).toBeGreaterThan(5);
    }
  });

  it('groups the codes by stage in the order the catalogue lists them', () => {
    const order = rows.filter((r) => isDiagnosticCode(r.code)).map((r) => r.code);
    expect(order).toEqual(CODES);
  });
});

describe('every code can be produced', () => {
  // Tests and the golden files they compare with (test/fixtures/**/*.diagnostics.txt and the like).
  const testFiles = files(join(ROOT, 'test'), /\.(ts|txt|snap)$/).filter((f) => !f.endsWith('diagnostics-catalogue.test.ts'));
  const asserted = new Set<string>();
  for (const f of testFiles) for (const c of mentionedCodes(readFileSync(f, 'utf8'))) asserted.add(c);

  it('every code is asserted by at least one test under test/ (or listed, with a reason, as not yet)', () => {
    const missing = CODES.filter((c) => !asserted.has(c));
    expect(
      missing.filter((c) => !(c in NOT_YET_ASSERTED)),
      'codes no test asserts: add a test that produces each',
    ).toEqual([]);
  });

  it('the not-yet-asserted list holds only codes that are still not asserted (remove entries as tests arrive)', () => {
    const stale = Object.keys(NOT_YET_ASSERTED).filter((c) => asserted.has(c) || !isDiagnosticCode(c));
    expect(stale).toEqual([]);
  });

  it('every code is emitted somewhere in src/ (or listed, with a reason, as never emitted)', () => {
    const catalogue = join(ROOT, 'src', 'diagnostics', 'diagnostics-catalogue.ts');
    const emitted = new Set<string>();
    for (const f of files(join(ROOT, 'src'), /\.ts$/)) {
      if (f === catalogue) continue;
      for (const c of quotedCodes(readFileSync(f, 'utf8'))) emitted.add(c);
    }
    const never = CODES.filter((c) => !emitted.has(c));
    expect(never.sort()).toEqual(Object.keys(NOT_EMITTED).sort());
  });

  it('the scan found the test files it should', () => {
    const names = testFiles.map((f) => relative(ROOT, f));
    expect(names).toContain(join('test', 'check', 'check-rules.test.ts'));
    expect(names).toContain(join('test', 'spec', 'spec-loader.test.ts'));
  });
});

describe('createDiagnostic and formatting', () => {
  it('fills message parameters, keeps unknown ones, and carries the location', () => {
    const d = createDiagnostic(
      'unknown-key',
      { key: 'resorces', where: 'the top level', suggestion: '' },
      { file: 'a.yaml', line: 2, column: 1, pointer: '/resorces' },
    );
    expect(d).toEqual({
      code: 'unknown-key',
      severity: 'error',
      message: 'unknown key `resorces` at the top level',
      file: 'a.yaml',
      line: 2,
      column: 1,
      pointer: '/resorces',
    });
    // @ts-expect-error -- a parameter left out (the type requires it) is left in the message as written
    expect(createDiagnostic('file-not-found').message).toBe('no such file: {path}');
  });

  it('parameter values are inserted literally, never expanded again', () => {
    expect(createDiagnostic('file-not-found', { path: '{path} $& $1' }).message).toBe('no such file: {path} $& $1');
  });

  it('hasErrors counts only errors', () => {
    expect(hasErrors([createDiagnostic('dead-end-state', { state: 'a', resource: 'B' })])).toBe(false);
    expect(hasErrors([createDiagnostic('file-not-found', { path: 'x' })])).toBe(true);
  });

  it('formats text and JSON', () => {
    const ds = [
      createDiagnostic('file-not-found', { path: 'x.yaml' }, { file: 'x.yaml' }),
      createDiagnostic('dead-end-state', { state: 'a', resource: 'B' }, { file: 'x.yaml', line: 3, column: 5 }),
    ];
    expect(formatDiagnostics(ds)).toBe(
      'x.yaml: error file-not-found: no such file: x.yaml\nx.yaml:3:5: warning dead-end-state: state `a` of B is not terminal but has no transition out of it\n1 error, 1 warning\n',
    );
    expect(JSON.parse(formatDiagnostics(ds, 'json'))).toEqual({ diagnostics: ds });
    expect(formatDiagnostics([])).toBe('');
  });
});
