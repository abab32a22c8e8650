// A list's total in a response header (paging.total_header, docs/format.md "List shapes"): added, a client reads
// more than before (not breaking); removed or renamed, a client reading the old header finds none (breaking).
import { describe, expect, it } from 'vitest';
import type { DiffReport } from '../../src/diff/diff-run.js';
import { diffEdits } from './diff-helpers.js';

const own = (r: DiffReport) => r.changes.filter((c) => c.code !== 'current-version-not-advanced');
const counted = { style: 'page', body: 'array', total_header: 'X-Total-Count' };

// Style after orders by the identifier: the fixture's sort is dropped.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- edits the fixture document by path
const stripe = (d: any, paging: object) => {
  d.endpoints.operations.listBooks.paging = paging;
  delete d.endpoints.operations.listBooks.sort;
};

describe('paging.has_more in diff', () => {
  it('added is list-paging-extended; removed or renamed is list-paging-changed', () => {
    const after = { style: 'after', items: 'data' };
    const added = diffEdits(
      (d) => stripe(d, after),
      (d) => stripe(d, { ...after, has_more: 'has_more' }),
    );
    expect(own(added).map((c) => [c.code, c.impact])).toEqual([['list-paging-extended', 'non-breaking']]);
    const removed = diffEdits(
      (d) => stripe(d, { ...after, has_more: 'has_more' }),
      (d) => stripe(d, after),
    );
    expect(own(removed).map((c) => [c.code, c.impact])).toEqual([['list-paging-changed', 'breaking']]);
    expect(own(removed)[0]!.reason).toContain('(was after, { data }, has_more has_more)');
  });
});

describe('paging.total_header in diff', () => {
  it('added is list-paging-extended, not breaking', () => {
    const report = diffEdits(
      (d) => (d.endpoints.operations.listBooks.paging = { style: 'page', body: 'array' }),
      (d) => (d.endpoints.operations.listBooks.paging = counted),
    );
    expect(own(report).map((c) => [c.code, c.impact])).toEqual([['list-paging-extended', 'non-breaking']]);
    expect(own(report)[0]!.reason).toContain('the total in a `X-Total-Count` header');
  });

  it('removed or renamed is list-paging-changed, breaking; another case of the same name is no change', () => {
    const removed = diffEdits(
      (d) => (d.endpoints.operations.listBooks.paging = counted),
      (d) => (d.endpoints.operations.listBooks.paging = { style: 'page', body: 'array' }),
    );
    expect(own(removed).map((c) => [c.code, c.impact])).toEqual([['list-paging-changed', 'breaking']]);
    expect(own(removed)[0]!.reason).toContain('(was page, a bare array, total in header X-Total-Count)');
    const renamed = diffEdits(
      (d) => (d.endpoints.operations.listBooks.paging = counted),
      (d) => (d.endpoints.operations.listBooks.paging = { ...counted, total_header: 'X-Total' }),
    );
    expect(own(renamed).map((c) => c.code)).toEqual(['list-paging-changed']);
    const cased = diffEdits(
      (d) => (d.endpoints.operations.listBooks.paging = counted),
      (d) => (d.endpoints.operations.listBooks.paging = { ...counted, total_header: 'x-total-count' }),
    );
    expect(cased.changes.map((c) => c.code)).toEqual([]);
  });
});
