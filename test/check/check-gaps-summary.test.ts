// The gap report's last line says how much of each part is shown ("0 of 9 parts shown" alone read as if nothing were
// there, for an import whose parts were all partly shown), and a resource no operation serves (a shape an import keeps
// by its component name, a union variant's) has no identifier gap: nothing addresses its objects.
import { describe, expect, it } from 'vitest';
import { formatGapReport, getGapReport } from '../../src/check/check-gaps.js';
import { compileSpecText } from '../../src/program.js';

const SPEC = `servicespec: 1
purpose: { name: Notes }
resources:
  Note:
    fields:
      text: { type: string }
  Price:
    fields:
      amount: { type: integer }
endpoints:
  operations:
    listNotes: { method: GET, path: /notes, action: list, resource: Note }
`;

describe('the gap report', () => {
  it('ends with the parts shown in full, partly and not at all', () => {
    const text = formatGapReport(getGapReport(compileSpecText(SPEC).model!));
    expect(text.trimEnd().split('\n').at(-1)).toBe('0 of 9 parts shown in full; 3 partly shown, 6 not shown');
  });

  it('names the identifier gap of a resource an operation serves, not of one none serves', () => {
    const missing = getGapReport(compileSpecText(SPEC).model!)
      .parts.flatMap((p) => p.missing)
      .filter((g) => g.item === 'identifier');
    expect(missing.map((g) => g.where)).toEqual(['resource Note']);
    // With no endpoints at all, every resource's identifier is still a gap of the draft.
    const draft = SPEC.slice(0, SPEC.indexOf('endpoints:'));
    const all = getGapReport(compileSpecText(draft).model!)
      .parts.flatMap((p) => p.missing)
      .filter((g) => g.item === 'identifier');
    expect(all.map((g) => g.where)).toEqual(['resource Note', 'resource Price']);
  });
});
