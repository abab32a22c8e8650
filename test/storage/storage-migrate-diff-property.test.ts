// migrate over the diff tests' evolutions (issue 28, "Done when"): examples/library.yaml holding random books,
// members and loans is evolved by random edits from the diff property's generator (test/diff/diff-arbitrary.ts:
// new optional fields, required fields with a default, new resources, operations, states' transitions, limits…)
// together with edits that touch data (a dropped field, a declared rename, integer → number, optional → required
// with a default, Book renamed Volume by the resource's renamedFrom), then `migrate --apply --allow-data-loss` runs: every value the new spec keeps reads back
// unaltered, each filled one is the default, and the service serves the new spec (it starts and reads each book).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { createAuthenticator } from '../../src/runtime/auth/auth-authenticator.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { createMigratePrepare, type MigratePlan } from '../../src/runtime/storage/storage-migrate.js';
import { getStoragePlan } from '../../src/runtime/storage/storage-plan.js';
import { createPostgresStorage } from '../../src/runtime/storage/storage-postgres.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import type { Row, Storage } from '../../src/runtime/storage/storage-types.js';
import { nonBreakingEdit } from '../diff/diff-arbitrary.js';
import { library, type Doc } from '../diff/diff-helpers.js';
import { dropTestSchema, getPostgresSkipReason, getTestSchemaUrl } from '../support/postgres.js';

const dir = mkdtempSync(join(tmpdir(), 'servicespec-migrate-diff-'));
const pgSkip = await getPostgresSkipReason();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Pages = 'keep' | 'to_number' | 'require';
interface DataEdits {
  dropMetadata: boolean;
  renameAddress: boolean;
  renameBook: boolean;
  pages: Pages;
}

const dataEdits: fc.Arbitrary<DataEdits> = fc.record({
  dropMetadata: fc.boolean(),
  renameAddress: fc.boolean(),
  renameBook: fc.boolean(),
  pages: fc.constantFrom<Pages>('keep', 'to_number', 'require'),
});

function applyDataEdits(d: Doc, e: DataEdits): void {
  const book = d.resources.Book.fields;
  if (e.dropMetadata) delete book.metadata;
  if (e.renameAddress) {
    const member = d.resources.Member.fields;
    member.home = { ...member.address, renamedFrom: 'address' };
    delete member.address;
  }
  if (e.pages === 'to_number') book.pages = { type: 'number', minimum: 1, optional: true };
  if (e.pages === 'require') book.pages = { type: 'integer', minimum: 1, default: 1 };
  if (e.renameBook) renameResource(d, 'Book', 'Volume');
}

/** The resource `from` as `to` (renamedFrom), and every name referring to it: a ref's `to`, a `resource`. */
function renameResource(d: Doc, from: string, to: string): void {
  d.resources[to] = { renamedFrom: from, ...d.resources[from] };
  delete d.resources[from];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      for (const [k, x] of Object.entries(o)) {
        if (x === from && (k === 'resource' || (k === 'to' && o.type === 'ref'))) o[k] = to;
        else walk(x);
      }
    }
  };
  walk(d);
}

const uuid = (kind: number, i: number) => `00000000-0000-4000-8000-${String(kind * 1000 + i).padStart(12, '0')}`;
const text = fc.stringMatching(/^[a-zA-Z0-9 é]{1,12}$/);

const bookGen = fc.record({
  title: text,
  authors: fc.array(text, { minLength: 1, maxLength: 3 }),
  language: fc.constantFrom('en', 'nl', 'de', 'fr'),
  pages: fc.option(fc.integer({ min: 1, max: 2000 }), { nil: undefined }),
  copies: fc.integer({ min: 0, max: 50 }),
  metadata: fc.option(fc.dictionary(fc.constantFrom('a', 'b', 'shelf'), fc.oneof(fc.integer(), text, fc.boolean())), { nil: undefined }),
});
const memberGen = fc.record({
  full_name: text,
  active: fc.boolean(),
  address: fc.option(fc.record({ street: text, city: text, postal_code: text }), { nil: undefined }),
});
const loanGen = fc.record({
  status: fc.constantFrom('requested', 'active', 'overdue', 'returned', 'lost'),
  renewals: fc.integer({ min: 0, max: 3 }),
  fine_cents: fc.integer({ min: 0, max: 100 }).map((n) => n * 5),
});

const caseGen = fc.record({
  edits: fc.uniqueArray(nonBreakingEdit, { maxLength: 4, selector: (e) => e.name }),
  data: dataEdits,
  books: fc.array(bookGen, { minLength: 1, maxLength: 5 }),
  members: fc.array(memberGen, { minLength: 1, maxLength: 4 }),
  loans: fc.array(loanGen, { maxLength: 4 }),
});

type Case = typeof caseGen extends fc.Arbitrary<infer T> ? T : never;

function withoutUndefined(row: Row): Row {
  return Object.fromEntries(Object.entries(row).filter(([, v]) => v !== undefined));
}

async function runCase(c: Case, open: () => Storage): Promise<void> {
  const v2Doc = library();
  for (const e of c.edits) e.edit(v2Doc);
  applyDataEdits(v2Doc, c.data);
  const m1 = compileSpecText(JSON.stringify(library()), 'v1.yaml').checked!;
  const compiled = compileSpecText(JSON.stringify(v2Doc), 'v2.yaml');
  expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const m2 = compiled.checked!;
  const at = '2026-06-01T10:00:00.000Z';
  const books = c.books.map((b, i) => withoutUndefined({ id: uuid(1, i), isbn: `978${String(1_000_000_000 + i)}`, added_at: at, ...b }));
  const members = c.members.map((m, i) =>
    withoutUndefined({ id: uuid(2, i), card_number: String(2_000_000_000 + i), email: `m${i}@example.org`, joined_on: '2026-06-01', ...m }),
  );
  const loans = c.loans.map((l, i) => ({
    id: uuid(3, i),
    book: books[i % books.length]!.id,
    member: members[i % members.length]!.id,
    borrower: 'alice',
    requested_at: at,
    ...l,
  }));

  const s1 = open();
  try {
    expect((await s1.migrate(getStoragePlan(m1))).ok).toBe(true);
    await s1.transaction(async (tx) => {
      for (const b of books) await tx.insert('Book', b);
      for (const m of members) await tx.insert('Member', m);
      for (const l of loans) await tx.insert('Loan', l);
    });
  } finally {
    await s1.close();
  }

  const s2 = open();
  let plan: MigratePlan | undefined;
  try {
    const result = await s2.migrate(getStoragePlan(m2), { prepare: createMigratePrepare(m2, { apply: true, allowDataLoss: true, onPlan: (p) => (plan = p) }) });
    expect(plan!.refusals).toEqual([]);
    expect(result).toMatchObject({ ok: true });
    expect(plan!.steps.filter((x) => x.kind === 'drop_table')).toEqual([]);
    if (c.data.renameBook) expect(plan!.steps[0]).toMatchObject({ kind: 'rename_table', table: 'Book', to: 'Volume', rows: books.length });
    // Each required field a diff edit added with a default (`d_<name>: { type: integer, default: 1 }`).
    const filled = (resource: string) => Object.keys(v2Doc.resources[resource].fields as Record<string, unknown>).filter((f) => f.startsWith('d_'));
    await s2.read(async (tx) => {
      for (const b of books) {
        const expected: Row = { ...b };
        if (c.data.dropMetadata) delete expected.metadata;
        if (c.data.pages === 'require') expected.pages = b.pages ?? 1;
        for (const f of filled(c.data.renameBook ? 'Volume' : 'Book')) expected[f] = 1;
        const got = (await tx.get(c.data.renameBook ? 'Volume' : 'Book', b.id))!;
        expect(got).toMatchObject(expected);
        // (toMatchObject takes a subset of a nested object: the JSON values are compared whole.)
        expect(got.metadata ?? undefined).toEqual(expected.metadata);
        if (c.data.dropMetadata) expect(got).not.toHaveProperty('metadata');
      }
      for (const m of members) {
        const expected: Row = { ...m };
        if (c.data.renameAddress) {
          delete expected.address;
          if (m.address !== undefined) expected.home = m.address;
        }
        for (const f of filled('Member')) expected[f] = 1;
        const got = (await tx.get('Member', m.id))!;
        expect(got).toMatchObject(expected);
        expect(got[c.data.renameAddress ? 'home' : 'address'] ?? undefined).toEqual(m.address);
        if (c.data.renameAddress) expect(got).not.toHaveProperty('address');
      }
      for (const l of loans) expect(await tx.get('Loan', l.id)).toMatchObject(l);
    });
  } finally {
    await s2.close();
  }

  // The service serves the new spec: it starts on the migrated database (nothing left to refuse) and reads each book.
  const s3 = open();
  try {
    const authenticator = await createAuthenticator(m2, s3, { allowGaps: true });
    const app = await createService(m2, { storage: s3, authenticator, allowGaps: true });
    try {
      for (const b of books) {
        const res = await app.inject({ method: 'GET', url: `/v2/books/${b.id as string}` });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ id: b.id, title: b.title, copies: b.copies });
      }
    } finally {
      await app.close();
    }
  } finally {
    await s3.close().catch(() => undefined);
  }
}

let n = 0;
describe('migrate --apply --allow-data-loss over the diff tests’ evolutions of examples/library.yaml', () => {
  it('on SQLite: kept values read back unaltered, filled ones hold the default, and the service serves the new spec', async () => {
    await fc.assert(
      fc.asyncProperty(caseGen, async (c) => {
        const path = join(dir, `l${n++}.db`);
        await runCase(c, () => createSqliteStorage({ path }));
      }),
      { numRuns: 25 },
    );
  }, 180_000);

  it.skipIf(pgSkip !== undefined)(
    'on PostgreSQL: the same',
    async () => {
      await fc.assert(
        fc.asyncProperty(caseGen, async (c) => {
          const url = getTestSchemaUrl();
          try {
            await runCase(c, () => createPostgresStorage({ url }));
          } finally {
            await dropTestSchema(url);
          }
        }),
        { numRuns: 8 },
      );
    },
    180_000,
  );
});
