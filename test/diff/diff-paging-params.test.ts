// Renaming a list's paging parameter (paging.params, docs/format.md "List shapes") is breaking: a client sending the
// old name is refused (the runtime reads only the named parameters). Naming a parameter by its default name is no change.
import { describe, expect, it } from 'vitest';
import type { DiffReport } from '../../src/diff/diff-run.js';
import { diffEdits } from './diff-helpers.js';

/** The changes but the library's unadvanced version (a breaking change without a new version, reported besides). */
const own = (r: DiffReport) => r.changes.filter((c) => c.code !== 'current-version-not-advanced');

describe('paging.params in diff', () => {
  it('renaming the cursor parameter is list-paging-changed, breaking, naming both', () => {
    const report = diffEdits(undefined, (d) => (d.endpoints.operations.listBooks.paging = { params: { cursor: 'continue' } }));
    expect(own(report).map((c) => [c.code, c.impact])).toEqual([['list-paging-changed', 'breaking']]);
    expect(own(report)[0]!.reason).toBe(
      'operation listBooks: the list now pages as cursor, { items, next_cursor }, by limit and continue (was cursor, { items, next_cursor }, by limit and cursor); clients written for the old shape read it wrongly',
    );
  });

  it('renaming it again, or renaming the page size of an offset list, is breaking too', () => {
    const again = diffEdits(
      (d) => (d.endpoints.operations.listBooks.paging = { params: { cursor: 'continue' } }),
      (d) => (d.endpoints.operations.listBooks.paging = { params: { cursor: 'pageToken' } }),
    );
    expect(own(again).map((c) => c.code)).toEqual(['list-paging-changed']);
    const size = diffEdits(
      (d) => (d.endpoints.operations.listBooks.paging = { style: 'offset' }),
      (d) => (d.endpoints.operations.listBooks.paging = { style: 'offset', params: { limit: 'top' } }),
    );
    expect(own(size).map((c) => [c.code, c.impact])).toEqual([['list-paging-changed', 'breaking']]);
    expect(own(size)[0]!.reason).toContain('by top and offset (was offset, { items }, by limit and offset)');
  });

  it("naming a parameter by the format's own name is no change", () => {
    const report = diffEdits(undefined, (d) => (d.endpoints.operations.listBooks.paging = { params: { cursor: 'cursor', limit: 'limit' } }));
    expect(report.changes.map((c) => c.code)).toEqual([]);
  });

  it('the next cursor moved from the page to the Link header alone (next: false) is breaking, naming both shapes', () => {
    const report = diffEdits(
      (d) => (d.endpoints.operations.listBooks.paging = { link: true }),
      (d) => (d.endpoints.operations.listBooks.paging = { next: false, link: true }),
    );
    expect(own(report).map((c) => [c.code, c.impact])).toEqual([['list-paging-changed', 'breaking']]);
    expect(own(report)[0]!.reason).toContain('cursor, { items }, Link header (was cursor, { items, next_cursor }, Link header)');
  });
});
