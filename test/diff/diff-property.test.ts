// Properties over many specs: a spec diffed with itself has no changes; a generated non-breaking edit of a real
// spec is never reported breaking.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { diffModels } from '../../src/diff/diff-run.js';
import { compileSpecText } from '../../src/program.js';
import { specDocument, wellFormedResourcesSpec } from '../check/spec-arbitrary.js';
import { diffEdits, type Doc, type Edit } from './diff-helpers.js';

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

const FRESH = ['alpha', 'beta', 'gamma', 'delta'] as const;
const TYPES = ['string', 'integer', 'number', 'boolean', 'date', 'datetime', 'uuid', 'email', 'uri', 'json'] as const;

/** Edits that no client can notice: additions of optional things, raised limits, new filters and sort fields. */
const nonBreakingEdit: fc.Arbitrary<{ name: string; edit: Edit }> = fc.oneof(
  fc.record({ r: fc.constantFrom('Book', 'Member', 'Loan'), f: fc.constantFrom(...FRESH), t: fc.constantFrom(...TYPES), readOnly: fc.boolean() }).map(({ r, f, t, readOnly }) => ({
    name: `optional field ${r}.${f}`,
    edit: (d: Doc) => (d.resources[r].fields[`x_${f}`] = { type: t, optional: true, ...(readOnly ? { readOnly: true } : {}) }),
  })),
  fc.record({ r: fc.constantFrom('Book', 'Member'), f: fc.constantFrom(...FRESH) }).map(({ r, f }) => ({
    name: `field with a default ${r}.${f}`,
    edit: (d: Doc) => (d.resources[r].fields[`d_${f}`] = { type: 'integer', default: 1 }),
  })),
  fc.constantFrom(...FRESH).map((n) => ({ name: `resource ${n}`, edit: (d: Doc) => (d.resources[`New${n}`] = { fields: { id: { type: 'uuid', readOnly: true }, label: { type: 'string' } } }) })),
  fc.constantFrom(...FRESH).map((n) => ({
    name: `operation ${n}`,
    edit: (d: Doc) => (d.endpoints.operations[`read_${n}`] = { method: 'GET', path: `/extra-${n}/{id}`, action: 'read', resource: 'Book', auth: 'none', errors: ['not_found'] }),
  })),
  fc.constantFrom(...FRESH).map((n) => ({ name: `event kind ${n}`, edit: (d: Doc) => (d.events.kinds[`book.${n}`] = { on: ['update'], payload: { resource: 'Book' } }) })),
  fc.record({ n: fc.constantFrom(...FRESH), status: fc.integer({ min: 400, max: 599 }) }).map(({ n, status }) => ({ name: `error code ${n}`, edit: (d: Doc) => (d.errors.codes[`e_${n}`] = { status }) })),
  fc.constantFrom(...FRESH).map((n) => ({ name: `scope ${n}`, edit: (d: Doc) => (d.authentication.scopes[`${n}:read`] = 'More.') })),
  fc.constantFrom('title', 'pages', 'published_on', 'copies').map((f) => ({ name: `filter ${f}`, edit: (d: Doc) => d.endpoints.operations.listBooks.filter.push(f) })),
  fc.constantFrom('pages', 'copies').map((f) => ({ name: `sort ${f}`, edit: (d: Doc) => d.endpoints.operations.listBooks.sort.push(f) })),
  fc.record({ by: fc.integer({ min: 1, max: 1000 }) }).map(({ by }) => ({
    name: `limits raised by ${by}`,
    edit: (d: Doc) => {
      d.limits.body_size += by;
      d.limits.page_size.max += by;
      d.limits.rate[0].requests += by;
      d.limits.concurrency += by;
      d.limits.timeout = `${10 + by}s`;
    },
  })),
  fc.constantFrom(...FRESH).map((n) => ({ name: `transition ${n}`, edit: (d: Doc) => (d.states.Loan.transitions[`t_${n}`] = { from: 'active', to: 'overdue' }) })),
  fc.constantFrom('getBook', 'listLoans', 'createMember').map((id) => ({ name: `deprecate ${id}`, edit: (d: Doc) => (d.endpoints.operations[id].deprecated = true) })),
);

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
