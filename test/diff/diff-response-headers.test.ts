// Declared response headers in diff: removed is breaking, added is not (diff-rules rows); a header kept is compared
// as a response field, and a change of case alone (header names are compared without case) is no change.
import { expect, it } from 'vitest';
import { diffEdits as diffAll } from './diff-helpers.js';

// current-version-not-advanced (a breaking change under the same version) is not what is asked here.
const diffEdits: typeof diffAll = (...args) => {
  const r = diffAll(...args);
  return { ...r, changes: r.changes.filter((c) => c.code !== 'current-version-not-advanced') };
};

const declare = (headers: Record<string, unknown>) => (d: { endpoints: { operations: Record<string, Record<string, unknown>> } }) => {
  d.endpoints.operations.bookAvailability!.response_headers = headers;
};

it('a kept header whose type changes, or that is no longer always sent, is a response field change; case alone is none', () => {
  const old = declare({ 'X-Copies': { type: 'integer' } });
  expect(diffEdits(old, declare({ 'x-copies': { type: 'integer' } })).changes.map((c) => c.code)).toEqual([]);
  const typed = diffEdits(old, declare({ 'X-Copies': { type: 'string' } })).changes;
  expect(typed.map((c) => [c.code, c.impact])).toEqual([['response-field-type-changed', 'breaking']]);
  expect(typed[0]!.subject).toBe('bookAvailability response_headers.X-Copies');
  expect(diffEdits(old, declare({ 'X-Copies': { type: 'integer', optional: true } })).changes.map((c) => [c.code, c.impact])).toEqual([
    ['response-field-became-optional', 'breaking'],
  ]);
  expect(diffEdits(old, declare({})).changes.map((c) => [c.code, c.impact])).toEqual([['response-header-removed', 'breaking']]);
});
