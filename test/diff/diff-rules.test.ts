// Each rule on its fixture pair (test/diff/diff-fixtures.ts): the expected code, with its catalogue impact, placed at
// a line of each spec, and no other change reported.
import { describe, expect, it } from 'vitest';
import { DIFF_RULES } from '../../src/diff/diff-catalogue.js';
import { diffEdits } from './diff-helpers.js';
import { ROWS } from './diff-fixtures.js';

describe('every diff rule, on a fixture pair', () => {
  it('has one row per rule in the catalogue', () => {
    expect(ROWS.map((r) => r.code).sort()).toEqual(Object.keys(DIFF_RULES).sort());
  });

  it.each(ROWS.map((r) => [r.code, r] as const))('%s', (code, row) => {
    const report = diffEdits(row.old, row.new, row.today);
    const found = report.changes.find((c) => c.code === code);
    expect(found, JSON.stringify(report.changes.map((c) => c.code))).toBeDefined();
    expect(found!.impact).toBe(DIFF_RULES[code].impact);
    expect(found!.reason.length).toBeGreaterThan(10);
    // Every template parameter was filled (paths such as /books/{id} aside).
    expect(found!.reason.replace(/\/[^\s,)]*/g, '')).not.toMatch(/\{[a-z]+\}/i);
    // Both locations that exist are placed at a line of old.yaml / new.yaml.
    for (const loc of [found!.old, found!.new]) if (loc) expect(loc.line, `${code} ${loc.pointer}`).toBeGreaterThan(0);
    const others = report.changes.map((c) => c.code).filter((c) => c !== code && c !== 'current-version-not-advanced');
    expect([...new Set(others)].sort()).toEqual([...(row.also ?? [])].filter((c) => c !== code && c !== 'current-version-not-advanced').sort());
  });
});

describe('a state machine that does not name its field', () => {
  // docs/format.md: `field` may be left out when the resource has exactly one state field; that field holds the state.
  it('naming the one state field it already kept its state in is no change', () => {
    // Before: state-field-changed, breaking ("the state is now kept in status (was not shown)").
    const report = diffEdits((d) => void delete d.states.Loan.field, undefined);
    expect(report.changes.map((c) => c.code)).toEqual([]);
  });

  it('moving the state to another field is still state-field-changed', () => {
    const report = diffEdits(
      (d) => void delete d.states.Loan.field,
      (d) => {
        d.resources.Loan.fields.stage = d.resources.Loan.fields.status;
        delete d.resources.Loan.fields.status;
        d.states.Loan.field = 'stage';
        d.endpoints.operations.listLoans.filter = ['member', 'book'];
      },
    );
    expect(report.changes.find((c) => c.code === 'state-field-changed')?.reason).toContain('stage');
  });
});
