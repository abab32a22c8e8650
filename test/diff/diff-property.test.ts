// Properties over many specs: a spec diffed with itself has no changes; a generated non-breaking edit of a real
// spec is never reported breaking.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { diffModels } from '../../src/diff/diff-run.js';
import { compileSpecText } from '../../src/program.js';
import { specDocument, wellFormedResourcesSpec } from '../check/spec-arbitrary.js';
import { nonBreakingEdit } from './diff-arbitrary.js';
import { diffEdits } from './diff-helpers.js';

describe('a spec diffed with itself', () => {
  it('has no changes (generated specs, compiled twice from the same text)', () => {
    fc.assert(
      fc.property(fc.oneof(specDocument, wellFormedResourcesSpec), (doc) => {
        const text = stringify(doc);
        const a = compileSpecText(text, 'a.yaml').model;
        const b = compileSpecText(text, 'b.yaml').model;
        if (!a || !b) return;
        expect(diffModels(a, b, { today: '2026-06-01' }).changes).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('a generated non-breaking change', () => {
  it('is never reported breaking', () => {
    fc.assert(
      fc.property(fc.uniqueArray(nonBreakingEdit, { minLength: 1, maxLength: 4, selector: (e) => e.name }), (edits) => {
        const report = diffEdits(undefined, (d) => edits.forEach((e) => e.edit(d)));
        expect(report.changes.length).toBeGreaterThan(0);
        expect(report.changes.filter((c) => c.impact === 'breaking')).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });
});
