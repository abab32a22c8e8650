// Generators of spec edits on examples/library.yaml (diff-helpers.ts), shared by the diff properties and by
// migrate's (test/storage/storage-migrate-property.test.ts: the same evolutions, applied to a database with rows).
import fc from 'fast-check';
import type { Doc, Edit } from './diff-helpers.js';

const FRESH = ['alpha', 'beta', 'gamma', 'delta'] as const;
const TYPES = ['string', 'integer', 'number', 'boolean', 'date', 'datetime', 'uuid', 'email', 'uri', 'json'] as const;

/** Edits that no client can notice: additions of optional things, raised limits, new filters and sort fields. */
export const nonBreakingEdit: fc.Arbitrary<{ name: string; edit: Edit }> = fc.oneof(
  fc
    .record({ r: fc.constantFrom('Book', 'Member', 'Loan'), f: fc.constantFrom(...FRESH), t: fc.constantFrom(...TYPES), readOnly: fc.boolean() })
    .map(({ r, f, t, readOnly }) => ({
      name: `optional field ${r}.${f}`,
      edit: (d: Doc) => (d.resources[r].fields[`x_${f}`] = { type: t, optional: true, ...(readOnly ? { readOnly: true } : {}) }),
    })),
  fc.record({ r: fc.constantFrom('Book', 'Member'), f: fc.constantFrom(...FRESH) }).map(({ r, f }) => ({
    name: `field with a default ${r}.${f}`,
    edit: (d: Doc) => (d.resources[r].fields[`d_${f}`] = { type: 'integer', default: 1 }),
  })),
  fc.constantFrom(...FRESH).map((n) => ({
    name: `resource ${n}`,
    edit: (d: Doc) => (d.resources[`New${n}`] = { fields: { id: { type: 'uuid', readOnly: true }, label: { type: 'string' } } }),
  })),
  fc.constantFrom(...FRESH).map((n) => ({
    name: `operation ${n}`,
    edit: (d: Doc) =>
      (d.endpoints.operations[`read_${n}`] = {
        method: 'GET',
        path: `/extra-${n}/{id}`,
        action: 'read',
        resource: 'Book',
        auth: 'none',
        errors: ['not_found'],
      }),
  })),
  fc
    .constantFrom(...FRESH)
    .map((n) => ({ name: `event kind ${n}`, edit: (d: Doc) => (d.events.kinds[`book.${n}`] = { on: ['update'], payload: { resource: 'Book' } }) })),
  fc
    .record({ n: fc.constantFrom(...FRESH), status: fc.integer({ min: 400, max: 599 }) })
    .map(({ n, status }) => ({ name: `error code ${n}`, edit: (d: Doc) => (d.errors.codes[`e_${n}`] = { status }) })),
  fc.constantFrom(...FRESH).map((n) => ({ name: `scope ${n}`, edit: (d: Doc) => (d.authentication.scopes[`${n}:read`] = 'More.') })),
  fc
    .constantFrom('title', 'pages', 'published_on', 'copies')
    .map((f) => ({ name: `filter ${f}`, edit: (d: Doc) => d.endpoints.operations.listBooks.filter.push(f) })),
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
  fc
    .constantFrom(...FRESH)
    .map((n) => ({ name: `transition ${n}`, edit: (d: Doc) => (d.states.Loan.transitions[`t_${n}`] = { from: 'active', to: 'overdue' }) })),
  fc
    .constantFrom('getBook', 'listLoans', 'createMember')
    .map((id) => ({ name: `deprecate ${id}`, edit: (d: Doc) => (d.endpoints.operations[id].deprecated = true) })),
);
