// One set of tests for every storage (storage-types.ts states the guarantees): SQLite file, SQLite in memory,
// PostgreSQL. "Another instance" is a second storage object on the same database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSqliteDriver } from '../../src/runtime/storage/storage-sqlite-driver.js';
import pg from 'pg';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { createPostgresStorage } from '../../src/runtime/storage/storage-postgres.js';
import { absentColumn, getStoragePlan } from '../../src/runtime/storage/storage-plan.js';
import { compileSpecText } from '../../src/program.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import {
  StorageConstraintError,
  type ColumnPlan,
  type Storage,
  type StoragePlan,
  type StoredEvent,
  type TablePlan,
  type WebhookAccess,
} from '../../src/runtime/storage/storage-types.js';
import { manualClock, until } from '../events/helpers.js';
import { dropTestSchemas, getPostgresSkipReason, getTestSchemaUrl, POSTGRES_URL } from '../support/postgres.js';

// The driver this Node runs (better-sqlite3 13 from Node 22: 12's finalizer aborts Node 24 at exit).
const Database = loadSqliteDriver();

interface Dialect {
  name: string;
  /** Why it cannot run here (printed by the probe), or undefined. */
  skip?: string;
  /** Can a second storage object open the same database? */
  shared: boolean;
  /**
   * Can two storage objects in this one process write at once? Not SQLite: a second connection waiting for the
   * write lock blocks the thread the first needs to finish (instances of SQLite are separate processes, one writer).
   */
  concurrentWriters: boolean;
  /**
   * A fresh database; `open()` gives a storage on it, each call a new one (another instance); `exec` (where the
   * database is shared) runs a raw statement on it from outside the storage.
   */
  create(): { open(): Storage; exec?(sql: string): Promise<void> };
}

const dir = mkdtempSync(join(tmpdir(), 'servicespec-conformance-'));
let files = 0;
const pgSkip = await getPostgresSkipReason();

const DIALECTS: Dialect[] = [
  {
    name: 'SQLite file',
    shared: true,
    concurrentWriters: false,
    create() {
      const path = join(dir, `db${files++}.db`);
      return {
        open: () => createSqliteStorage({ path, synchronous: 'normal' }),
        exec: async (sql) => {
          const raw = new Database(path);
          try {
            raw.exec(sql);
          } finally {
            raw.close();
          }
        },
      };
    },
  },
  {
    name: 'SQLite :memory:',
    shared: false,
    concurrentWriters: false,
    create() {
      let one: Storage | undefined;
      return {
        open: () => {
          if (one) throw new Error('an in-memory database has one connection');
          one = createSqliteStorage({ path: ':memory:' });
          return one;
        },
      };
    },
  },
  {
    name: 'PostgreSQL',
    ...(pgSkip !== undefined ? { skip: pgSkip } : {}),
    shared: true,
    concurrentWriters: true,
    create() {
      const url = getTestSchemaUrl();
      return {
        open: () => createPostgresStorage({ url, poolSize: 4 }),
        exec: async (sql) => {
          const raw = new pg.Client({ connectionString: POSTGRES_URL });
          await raw.connect();
          try {
            await raw.query(`SET search_path TO "${new URL(url).searchParams.get('schema')!}"`);
            await raw.query(sql);
          } finally {
            await raw.end();
          }
        },
      };
    },
  },
];

/** Closed when the test ends, so a run holds few PostgreSQL connections at a time. */
function track<T extends Storage>(s: T): T {
  onTestFinished(() => s.close());
  return s;
}
afterAll(async () => {
  await dropTestSchemas();
  rmSync(dir, { recursive: true, force: true });
});

function col(name: string, type: ColumnPlan['type'], more: Partial<ColumnPlan> = {}): ColumnPlan {
  return { name, type, notNull: false, unique: false, primaryKey: false, autoIncrement: false, check: {}, ...more };
}

const PROJECTS: TablePlan = {
  name: 'projects',
  primaryKey: 'id',
  columns: [
    col('id', 'text', { primaryKey: true, notNull: true }),
    col('slug', 'text', { notNull: true, unique: true, check: { minLength: 2, maxLength: 20 } }),
    col('state', 'text', { notNull: true, check: { values: ['open', 'closed'] } }),
    col('rank', 'integer', { check: { minimum: 0 } }),
    col('score', 'real'),
    col('active', 'boolean'),
    col('tags', 'json'),
  ],
};
const TICKETS: TablePlan = {
  name: 'tickets',
  primaryKey: 'id',
  columns: [
    col('id', 'integer', { primaryKey: true, notNull: true, autoIncrement: true }),
    col('project', 'text', { notNull: true, references: { table: 'projects', column: 'id' } }),
    col('title', 'text', { notNull: true }),
  ],
};
const PLAN: StoragePlan = { tables: [PROJECTS, TICKETS] };

function event(id: string, type = 'project.created'): StoredEvent {
  return { id, type, timestamp: '2026-11-23T12:00:00.000Z', data: { id } };
}

async function constraintOf(p: Promise<unknown>): Promise<{ kind: string; column: string | undefined }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof StorageConstraintError) return { kind: err.kind, column: err.column };
    throw err;
  }
  throw new Error('no constraint error');
}

function project(id: string, more: Record<string, unknown> = {}) {
  return { id, slug: `s-${id}`, state: 'open', ...more };
}

for (const d of DIALECTS) {
  describe.skipIf(d.skip !== undefined)(`storage conformance: ${d.name}`, () => {
    /** A migrated storage on a fresh database, and a way to open another instance on it. */
    async function fresh(plan: StoragePlan = PLAN): Promise<{ s: Storage; other(): Promise<Storage> }> {
      const db = d.create();
      const s = track(db.open());
      const m = await s.migrate(plan);
      expect(m.ok).toBe(true);
      return {
        s,
        other: async () => {
          const o = track(db.open());
          expect((await o.migrate(plan)).ok).toBe(true);
          return o;
        },
      };
    }
    const shared = it.skipIf(!d.shared);
    /** The instances that write concurrently in one test: two where the engine allows it in one process. */
    const writers = async (db: { s: Storage; other(): Promise<Storage> }, n = 2): Promise<Storage[]> => {
      if (!d.concurrentWriters) return [db.s];
      const out = [db.s];
      while (out.length < n) out.push(await db.other());
      return out;
    };

    it('inserts, reads, updates and deletes rows, every column back as stored', async () => {
      const { s } = await fresh();
      const row = await s.transaction((tx) => tx.insert('projects', project('p1', { rank: 3, score: 1.5, active: true, tags: { b: 1, a: [1, 'x', null] } })));
      expect(row).toEqual({ id: 'p1', slug: 's-p1', state: 'open', rank: 3, score: 1.5, active: true, tags: { b: 1, a: [1, 'x', null] } });
      expect(Object.keys(row.tags as object)).toEqual(['b', 'a']);
      const bare = await s.transaction((tx) => tx.insert('projects', project('p2')));
      expect(bare).toEqual({ id: 'p2', slug: 's-p2', state: 'open', rank: null, score: null, active: null, tags: null });
      expect(await s.read((tx) => tx.get('projects', 'p1'))).toEqual(row);
      expect(await s.read((tx) => tx.get('projects', 'nope'))).toBeUndefined();
      const t1 = await s.transaction((tx) => tx.insert('tickets', { project: 'p1', title: 'one' }));
      const t2 = await s.transaction((tx) => tx.insert('tickets', { project: 'p1', title: 'two' }));
      expect(typeof t1.id).toBe('number');
      expect(t2.id as number).toBeGreaterThan(t1.id as number);
      const updated = await s.transaction((tx) => tx.update('projects', 'p1', { active: false, tags: null, score: -2 }));
      expect(updated).toMatchObject({ active: false, tags: null, score: -2, rank: 3 });
      expect(await s.transaction((tx) => tx.update('projects', 'nope', { rank: 1 }))).toBeUndefined();
      // An id of the wrong type names no row, and the transaction goes on.
      const after = await s.transaction(async (tx) => {
        expect(await tx.get('tickets', 'not-a-number')).toBeUndefined();
        expect(await tx.get('tickets', String(t1.id))).toMatchObject({ title: 'one' });
        return tx.insert('projects', project('p3'));
      });
      expect(after.id).toBe('p3');
      expect(await s.transaction((tx) => tx.delete('tickets', t2.id))).toBe(true);
      expect(await s.transaction((tx) => tx.delete('tickets', t2.id))).toBe(false);
      expect(await s.read((tx) => tx.get('tickets', t2.id))).toBeUndefined();
    });

    it('rolls a failed or aborted transaction back entirely, events included', async () => {
      const { s } = await fresh();
      await expect(
        s.transaction(async (tx) => {
          await tx.insert('projects', project('p1'));
          await tx.appendEvent(event('e1'));
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      const abort = new AbortController();
      await expect(
        s.transaction(async (tx) => {
          await tx.insert('projects', project('p2'));
          await tx.appendEvent(event('e2'));
          abort.abort(new Error('timed out'));
        }, abort.signal),
      ).rejects.toThrow('timed out');
      expect(await s.read((tx) => tx.list('projects', { equals: {}, limit: 10 }))).toEqual([]);
      expect(await s.readOutbox(0, 10)).toEqual([]);
      expect(await s.lastOutboxSeq()).toBe(0);
    });

    it('refuses unique, reference and check violations with their kind and column', async () => {
      const { s } = await fresh();
      await s.transaction((tx) => tx.insert('projects', project('p1')));
      expect(await constraintOf(s.transaction((tx) => tx.insert('projects', project('p2', { slug: 's-p1' }))))).toEqual({
        kind: 'unique_conflict',
        column: 'slug',
      });
      expect((await constraintOf(s.transaction((tx) => tx.insert('projects', project('p1', { slug: 'other' }))))).kind).toBe('unique_conflict');
      expect(await constraintOf(s.transaction((tx) => tx.insert('tickets', { project: 'ghost', title: 'x' })))).toMatchObject({ kind: 'reference_not_found' });
      await s.transaction((tx) => tx.insert('tickets', { project: 'p1', title: 'x' }));
      expect((await constraintOf(s.transaction((tx) => tx.delete('projects', 'p1')))).kind).toBe('reference_not_found');
      expect((await constraintOf(s.transaction((tx) => tx.insert('projects', project('p3', { state: 'lost' }))))).kind).toBe('check_failed');
      expect((await constraintOf(s.transaction((tx) => tx.insert('projects', project('p4', { rank: -1 }))))).kind).toBe('check_failed');
      expect((await constraintOf(s.transaction((tx) => tx.insert('projects', project('p5', { slug: 'x' }))))).kind).toBe('check_failed');
      expect((await constraintOf(s.transaction((tx) => tx.update('projects', 'p1', { slug: 'y'.repeat(21) })))).kind).toBe('check_failed');
      // Nothing of the refused writes is left behind.
      expect((await s.read((tx) => tx.list('projects', { equals: {}, limit: 10 }))).map((r) => r.id)).toEqual(['p1']);
    });

    it('a transaction after a refused or abandoned one (on the same connection, where pooled) sees none of it and commits', async () => {
      const { s } = await fresh();
      for (let i = 0; i < 6; i++) {
        // Refused on its first statement, and on a later one after a statement that succeeded.
        expect((await constraintOf(s.transaction((tx) => tx.insert('projects', project(`x${i}`, { state: 'lost' }))))).kind).toBe('check_failed');
        const refused = s.transaction(async (tx) => {
          await tx.insert('projects', project(`a${i}`));
          await tx.appendEvent(event(`ea${i}`));
          await tx.insert('projects', project(`b${i}`, { slug: `s-a${i}` }));
        });
        expect((await constraintOf(refused)).kind).toBe('unique_conflict');
        await expect(
          s.transaction(async (tx) => {
            await tx.insert('projects', project(`c${i}`));
            await tx.appendEvent(event(`ec${i}`));
            throw new Error('abandoned');
          }),
        ).rejects.toThrow('abandoned');
        // Statements asked for together in one transaction, then one with events and no statement.
        const both = await s.transaction((tx) => Promise.all([tx.insert('projects', project(`d${i}`)), tx.get('projects', `d${i}`)]));
        expect(both[0].id).toBe(`d${i}`);
        await s.transaction((tx) => tx.appendEvent(event(`only${i}`)));
        expect(await s.transaction(async () => 'nothing')).toBe('nothing');
      }
      const rows = await s.read((tx) => tx.list('projects', { equals: {}, limit: 100 }));
      expect(rows.map((r) => r.id)).toEqual(['d0', 'd1', 'd2', 'd3', 'd4', 'd5']);
      expect((await s.readOutbox(0, 100)).map((e) => e.id)).toEqual(['only0', 'only1', 'only2', 'only3', 'only4', 'only5']);
    });

    it('compare-and-set: of many concurrent transitions from one state, exactly one wins', async () => {
      const db = await fresh();
      const s = db.s;
      const instances = await writers(db);
      await s.transaction((tx) => tx.insert('projects', project('p1')));
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          instances[i % instances.length]!.transaction(async (tx) => {
            const before = await tx.get('projects', 'p1');
            if (before?.state !== 'open') return 'lost';
            const out = await tx.update('projects', 'p1', { state: 'closed', rank: i }, { column: 'state', value: 'open' });
            if (!out) return 'lost';
            await tx.appendEvent(event(`won-${i}`, 'project.closed'));
            return 'won';
          }),
        ),
      );
      expect(results.filter((r) => r === 'won')).toHaveLength(1);
      expect((await s.readOutbox(0, 100)).filter((e) => e.type === 'project.closed')).toHaveLength(1);
    });

    it('pages by keyset with filters and sort: nulls last both ways, ties broken by identifier', async () => {
      const { s } = await fresh();
      // Ties and nulls in an integer and in a real column; filters on text, on boolean, and on null.
      const ranks: (number | null)[] = [5, null, 2, 5, null, 1, 5, 2, null, 0, 7];
      const scores: (number | null)[] = [1.5, 1.5, null, -0.25, 1.5, null, 2, -0.25, 1e-9, null, 1e9];
      const rows = ranks.map((rank, i) => ({
        id: `p${i}`,
        rank,
        score: scores[i]!,
        state: i % 3 === 0 ? 'closed' : 'open',
        active: i % 4 === 1 ? null : i % 2 === 0,
      }));
      // Inserted out of identifier order, so a tie broken by insertion order would show.
      for (const r of [...rows].reverse())
        await s.transaction((tx) => tx.insert('projects', project(r.id, { rank: r.rank, score: r.score, state: r.state, active: r.active })));
      type Key = 'rank' | 'score';
      const expected = (column: Key, descending: boolean, equals: Record<string, unknown>) =>
        rows
          .filter((r) => Object.entries(equals).every(([k, v]) => r[k as keyof typeof r] === v))
          .sort((a, b) => {
            const x = a[column];
            const y = b[column];
            if ((x === null) !== (y === null)) return x === null ? 1 : -1;
            const by = x === y ? (a.id < b.id ? -1 : 1) : x! < y! ? -1 : 1;
            return descending ? -by : by;
          })
          .map((r) => r.id);
      for (const column of ['rank', 'score'] as const) {
        for (const descending of [false, true]) {
          for (const equals of [{}, { state: 'open' }, { active: true }, { active: null }, { state: 'closed', active: false }]) {
            for (const limit of [1, 2, 4]) {
              const seen: string[] = [];
              let after: { value: unknown; id: unknown } | undefined;
              for (let guard = 0; guard < 20; guard++) {
                const page = await s.read((tx) => tx.list('projects', { equals, sort: { column, descending }, ...(after ? { after } : {}), limit }));
                seen.push(...page.map((r) => r.id as string));
                if (page.length < limit) break;
                const last = page[page.length - 1]!;
                after = { value: last[column], id: last.id };
              }
              expect(seen, `${column} descending=${descending} ${JSON.stringify(equals)} limit=${limit}`).toEqual(expected(column, descending, equals));
            }
          }
        }
      }
      // A page that starts in the nulls, both ways.
      for (const descending of [false, true]) {
        const page = await s.read((tx) =>
          tx.list('projects', { equals: {}, sort: { column: 'rank', descending }, after: { value: null, id: 'p1' }, limit: 10 }),
        );
        expect(page.map((r) => r.id)).toEqual(descending ? [] : ['p4', 'p8']);
      }
      // By identifier, and filtered on null.
      const byId = await s.read((tx) => tx.list('projects', { equals: {}, sort: { column: 'id', descending: true }, after: { id: 'p5' }, limit: 3 }));
      expect(byId.map((r) => r.id)).toEqual(['p4', 'p3', 'p2']);
      const nulls = await s.read((tx) => tx.list('projects', { equals: { rank: null }, limit: 10 }));
      expect(nulls.map((r) => r.id)).toEqual(['p1', 'p4', 'p8']);
      // Text compares byte-wise on every engine: 's-p10' before 's-p2'.
      const text = await s.read((tx) => tx.list('projects', { equals: {}, sort: { column: 'slug', descending: false }, limit: 4 }));
      expect(text.map((r) => r.slug)).toEqual(['s-p0', 's-p1', 's-p10', 's-p2']);
    });

    it('datetimes: kept as written, ordered and matched by the instant they name (any offset, any fraction), keyset pages included', async () => {
      const READINGS: TablePlan = {
        name: 'readings',
        primaryKey: 'id',
        columns: [col('id', 'text', { primaryKey: true, notNull: true }), col('at', 'text', { instant: true })],
      };
      const { s } = await fresh({ tables: [READINGS] });
      // In instant order; ties (one instant, several spellings) broken by identifier.
      const values: [string, string | null][] = [
        ['r7', '0001-01-01T00:30:00+01:00'],
        ['r3', '2030-01-01T08:00:00Z'],
        ['r1', '2030-01-01T10:30:00+02:00'],
        ['r5', '2030-01-01t08:30:00.000z'],
        ['r2', '2030-01-01T08:30:00.0000001Z'],
        ['r4', '2030-01-01T08:30:00.00001Z'],
        ['r0', '2030-01-01T09:00:00Z'],
        ['r6', '2029-12-31T23:30:00-10:00'],
        ['r6a', '2030-01-02T09:59:60Z'], // a leap second: the next minute's first (SQLite's own date functions read none)
        ['r8', '9999-12-31T23:59:59.999999999Z'],
        ['r9', null],
      ];
      for (const [id, at] of [...values].reverse()) await s.transaction((tx) => tx.insert('readings', { id, at }));
      const order = ['r7', 'r3', 'r1', 'r5', 'r2', 'r4', 'r0', 'r6', 'r6a', 'r8', 'r9'];
      for (const descending of [false, true]) {
        for (const limit of [1, 2, 3, 20]) {
          const seen: string[] = [];
          let after: { value: unknown; id: unknown } | undefined;
          for (let guard = 0; guard < 20; guard++) {
            const page = await s.read((tx) => tx.list('readings', { equals: {}, sort: { column: 'at', descending }, ...(after ? { after } : {}), limit }));
            seen.push(...page.map((r) => r.id as string));
            if (page.length < limit) break;
            after = { value: page[page.length - 1]!.at, id: page[page.length - 1]!.id };
          }
          // Nulls last both ways; r1 and r5 name one instant, so the identifier orders them (descending too).
          const want = descending ? ['r8', 'r6a', 'r6', 'r0', 'r4', 'r2', 'r5', 'r1', 'r3', 'r7', 'r9'] : order;
          expect(seen, `descending=${descending} limit=${limit}`).toEqual(want);
        }
      }
      const got = await s.read((tx) => tx.list('readings', { equals: { at: '2030-01-01T09:30:00.00+01:00' }, limit: 10 }));
      expect(got.map((r) => [r.id, r.at])).toEqual([
        ['r1', '2030-01-01T10:30:00+02:00'],
        ['r5', '2030-01-01t08:30:00.000z'],
      ]);
      const leap = await s.read((tx) => tx.list('readings', { equals: { at: '2030-01-02T11:00:00+01:00' }, limit: 10 }));
      expect(leap.map((r) => [r.id, r.at])).toEqual([['r6a', '2030-01-02T09:59:60Z']]);
    });

    it('datetimes only the server writes (canonical): ordered by the column itself, keyset pages and instant filters as for any datetime', async () => {
      const STAMPED: TablePlan = {
        name: 'stamped',
        primaryKey: 'id',
        columns: [col('id', 'text', { primaryKey: true, notNull: true }), col('at', 'text', { instant: true, canonical: true })],
      };
      const { s } = await fresh({ tables: [STAMPED] });
      const values: [string, string | null][] = [
        ['a', '2030-01-01T08:00:00.000Z'],
        ['c', '2030-01-01T08:00:00.000Z'],
        ['b', '2030-01-01T09:00:00.001Z'],
        ['d', '2031-06-01T00:00:00.000Z'],
        ['e', null],
      ];
      for (const [id, at] of [...values].reverse()) await s.transaction((tx) => tx.insert('stamped', { id, at }));
      for (const descending of [false, true]) {
        const seen: string[] = [];
        let after: { value: unknown; id: unknown } | undefined;
        for (let guard = 0; guard < 10; guard++) {
          const page = await s.read((tx) => tx.list('stamped', { equals: {}, sort: { column: 'at', descending }, ...(after ? { after } : {}), limit: 2 }));
          seen.push(...page.map((r) => r.id as string));
          if (page.length < 2) break;
          after = { value: page[page.length - 1]!.at, id: page[page.length - 1]!.id };
        }
        expect(seen).toEqual(descending ? ['d', 'b', 'c', 'a', 'e'] : ['a', 'c', 'b', 'd', 'e']);
      }
      const got = await s.read((tx) => tx.list('stamped', { equals: { at: '2030-01-01T10:00:00.001+01:00' }, limit: 10 }));
      expect(got.map((r) => r.id)).toEqual(['b']);
    });

    it('absence column: a field never given reads back undefined, a null given reads null; migrations add and keep the column', async () => {
      const bare: TablePlan = {
        name: 'notes',
        primaryKey: 'id',
        columns: [col('id', 'text', { primaryKey: true, notNull: true }), col('label', 'text', { check: { minLength: 1 } })],
      };
      const db = d.create();
      const s = track(db.open());
      expect((await s.migrate({ tables: [bare] })).ok).toBe(true);
      // A row written before the column existed keeps reading null, as it always did.
      await s.transaction((tx) => tx.insert('notes', { id: 'old', label: null }));
      const withAbsence: TablePlan = { ...bare, columns: [...bare.columns, absentColumn('label')] };
      const m = await s.migrate({ tables: [withAbsence] });
      expect(m).toEqual({
        ok: true,
        steps: [{ kind: 'add_column', table: 'notes', column: 'label$absent', description: 'record whether notes.label was left out (absent) or null' }],
      });
      await s.transaction(async (tx) => {
        await tx.insert('notes', { id: 'a' });
        await tx.insert('notes', { id: 'n', label: null });
        await tx.insert('notes', { id: 'v', label: 'x' });
      });
      const read = async (id: string) => s.read((tx) => tx.get('notes', id));
      expect(Object.entries((await read('a'))!)).toEqual([
        ['id', 'a'],
        ['label', undefined],
      ]);
      expect(await read('n')).toEqual({ id: 'n', label: null });
      expect((await read('n'))!.label).toBeNull();
      expect((await read('old'))!.label).toBeNull();
      expect(await read('v')).toEqual({ id: 'v', label: 'x' });
      const nulls = await s.read((tx) => tx.list('notes', { equals: { label: null }, limit: 10 }));
      expect(nulls.map((r) => r.id)).toEqual(['n', 'old']);
      // Updated to a value, to null, and cleared (undefined).
      await s.transaction(async (tx) => {
        expect((await tx.update('notes', 'a', { label: 'y' }))!.label).toBe('y');
        expect((await tx.update('notes', 'v', { label: undefined }))!.label).toBeUndefined();
        expect((await tx.update('notes', 'n', { label: null }))!.label).toBeNull();
      });
      expect((await read('v'))!.label).toBeUndefined();
      // The field no longer nullable: the column is kept (no refusal); nullable again: nothing to add twice.
      expect((await s.migrate({ tables: [bare] })).ok).toBe(true);
      expect((await s.migrate({ tables: [withAbsence] })).ok).toBe(true);
      expect((await read('v'))!.label).toBeUndefined();
      expect((await read('n'))!.label).toBeNull();
      if (!d.shared) return;
      // Another instance reads the same.
      const again = track(db.open());
      expect((await again.migrate({ tables: [withAbsence] })).ok).toBe(true);
      expect((await again.read((tx) => tx.get('notes', 'v')))!.label).toBeUndefined();
    });

    it('migrates: additive changes applied, destructive ones refused by name with nothing changed', async () => {
      const { s } = await fresh();
      await s.transaction((tx) => tx.insert('projects', project('p1', { score: 2 })));
      const added: StoragePlan = {
        tables: [
          { ...PROJECTS, columns: [...PROJECTS.columns, col('note', 'text')] },
          TICKETS,
          { name: 'labels', primaryKey: 'id', columns: [col('id', 'text', { primaryKey: true, notNull: true })] },
        ],
      };
      const m = await s.migrate(added);
      expect(m.ok && m.steps.map((x) => `${x.kind}:${x.table}${x.column ? `.${x.column}` : ''}`).sort()).toEqual([
        'add_column:projects.note',
        'create_table:labels',
      ]);
      expect(await s.read((tx) => tx.get('projects', 'p1'))).toMatchObject({ score: 2, note: null });
      await s.transaction((tx) => tx.update('projects', 'p1', { note: 'kept' }));
      expect((await s.migrate(added)).ok).toBe(true);

      const removed: StoragePlan = { tables: [{ ...added.tables[0]!, columns: added.tables[0]!.columns.filter((c) => c.name !== 'score') }, TICKETS] };
      const r = await s.migrate(removed);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.refusals.map((x) => `${x.table}${x.column ? `.${x.column}` : ''}`).sort()).toEqual(['labels', 'projects.score']);
      }
      const retyped: StoragePlan = {
        tables: [
          { ...added.tables[0]!, columns: added.tables[0]!.columns.map((c) => (c.name === 'rank' ? { ...c, type: 'text' as const } : c)) },
          TICKETS,
          added.tables[2]!,
        ],
      };
      const t = await s.migrate(retyped);
      expect(!t.ok && t.refusals.map((x) => x.column)).toEqual(['rank']);
      // A tightened check the stored rows break is refused too, and the old check still holds.
      const tightened: StoragePlan = {
        tables: [
          { ...added.tables[0]!, columns: added.tables[0]!.columns.map((c) => (c.name === 'slug' ? { ...c, check: { maxLength: 3 } } : c)) },
          TICKETS,
          added.tables[2]!,
        ],
      };
      const k = await s.migrate(tightened);
      expect(!k.ok && k.refusals.map((x) => x.table)).toEqual(['projects']);
      expect(await s.read((tx) => tx.get('projects', 'p1'))).toMatchObject({ score: 2, note: 'kept', slug: 's-p1' });
      expect((await constraintOf(s.transaction((tx) => tx.insert('projects', project('p9', { rank: -5 }))))).kind).toBe('check_failed');
      // A loosened one is applied in place.
      const loosened: StoragePlan = {
        tables: [
          { ...added.tables[0]!, columns: added.tables[0]!.columns.map((c) => (c.name === 'rank' ? { ...c, check: {} } : c)) },
          TICKETS,
          added.tables[2]!,
        ],
      };
      expect((await s.migrate(loosened)).ok).toBe(true);
      expect(await s.transaction((tx) => tx.insert('projects', project('p9', { rank: -5 })))).toMatchObject({ rank: -5 });
      expect((await constraintOf(s.transaction((tx) => tx.insert('projects', project('p10', { slug: 's-p9' }))))).kind).toBe('unique_conflict');

      // A plan that adds as well as drops is refused whole: its additive part is not applied either.
      const [lp, lt, ll] = loosened.tables as [TablePlan, TablePlan, TablePlan];
      const more: TablePlan = { name: 'more', primaryKey: 'id', columns: [col('id', 'text', { primaryKey: true, notNull: true })] };
      const mixed: StoragePlan = { tables: [{ ...lp, columns: [...lp.columns.filter((c) => c.name !== 'score'), col('extra', 'text')] }, lt, ll, more] };
      const x = await s.migrate(mixed);
      expect(!x.ok && x.refusals.map((y) => `${y.table}${y.column ? `.${y.column}` : ''}`)).toEqual(['projects.score']);
      const later = await s.migrate({ tables: [{ ...lp, columns: [...lp.columns, col('extra', 'text')] }, lt, ll, more] });
      expect(later.ok && later.steps.map((y) => `${y.kind}:${y.table}${y.column ? `.${y.column}` : ''}`).sort()).toEqual([
        'add_column:projects.extra',
        'create_table:more',
      ]);
    });

    it.skipIf(!d.concurrentWriters)('migrates once when instances start together on one database', async () => {
      const db = d.create();
      const all = [track(db.open()), track(db.open()), track(db.open())];
      const results = await Promise.all(all.map((x) => x.migrate(PLAN)));
      expect(results.every((r) => r.ok)).toBe(true);
      expect(results.filter((r) => r.ok && r.steps.length > 0)).toHaveLength(1);
      await all[2]!.transaction((tx) => tx.insert('projects', project('p1')));
      expect(await all[0]!.read((tx) => tx.get('projects', 'p1'))).toMatchObject({ id: 'p1' });
    });

    it('outbox: readers see commit order and never skip a transaction that commits late', async () => {
      const db = await fresh();
      const s = db.s;
      const b = (await writers(db))[1] ?? s;
      let startedA!: () => void;
      const aStarted = new Promise<void>((r) => (startedA = r));
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      // A writes first (and appends first), then waits; B appends and commits meanwhile.
      const a = s.transaction(async (tx) => {
        await tx.insert('projects', project('pa'));
        await tx.appendEvent(event('a'));
        startedA();
        await gate;
      });
      await aStarted;
      const bDone = b.transaction(async (tx) => {
        await tx.insert('projects', project('pb'));
        await tx.appendEvent(event('b'));
      });
      // With concurrent writers (PostgreSQL) B commits now, before A; with one writer (SQLite) it waits for A.
      if (d.concurrentWriters) await bDone;
      const seen: string[] = [];
      let cursor = 0;
      const drain = async () => {
        for (;;) {
          const batch = await s.readOutbox(cursor, 1);
          if (batch.length === 0) return;
          seen.push(batch[0]!.id);
          cursor = batch[0]!.seq;
        }
      };
      // With concurrent writers the reader gets B's event now, while A is still open; with one writer, once A ends.
      const first = drain();
      if (d.concurrentWriters) {
        await first;
        expect(seen).toEqual(['b']);
      }
      release();
      await a;
      await bDone;
      await first;
      await drain();
      expect(seen.sort()).toEqual(['a', 'b']);
      expect((await s.readOutbox(0, 10)).map((e) => e.seq)).toEqual([...(await s.readOutbox(0, 10)).map((e) => e.seq)].sort((x, y) => x - y));
      expect(await s.lastOutboxSeq()).toBe(cursor);
    });

    it('outbox: many concurrent writers, a reader tailing with small batches sees each event once', async () => {
      const db = await fresh();
      const s = db.s;
      const all = await writers(db);
      const seen: string[] = [];
      let cursor = 0;
      let writing = true;
      const deadline = Date.now() + 20_000;
      const tail = (async () => {
        // Until every event is seen: a position may come a little after its commit (PostgreSQL gives them in order).
        while ((writing || seen.length < 40) && Date.now() < deadline) {
          const batch = await s.readOutbox(cursor, 2);
          for (const e of batch) {
            seen.push(e.id);
            cursor = e.seq;
          }
          if (batch.length === 0) await new Promise((r) => setTimeout(r, 2));
        }
      })();
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          all[i % all.length]!.transaction(async (tx) => {
            await tx.insert('projects', project(`p${i}`));
            if (i % 3 === 0) await new Promise((r) => setTimeout(r, 5));
            await tx.appendEvent(event(`e${i}`));
          }),
        ),
      );
      writing = false;
      await tail;
      expect(seen.length).toBe(40);
      expect(new Set(seen).size).toBe(40);
      const types = await s.readOutbox(0, 100, ['project.created']);
      expect(types).toHaveLength(40);
      expect(await s.readOutbox(0, 100, ['nothing.else'])).toEqual([]);
      expect((await s.readEvents(0, 5)).map((e) => e.id)).toEqual(types.slice(0, 5).map((e) => e.id));
    });

    it('deliveries: fan-out queues each event once per endpoint; leases keep two workers apart', async () => {
      const db = await fresh();
      const s = db.s;
      const w2 = (await writers(db))[1] ?? s;
      await s.transaction((tx) => tx.appendEvent(event('before')));
      const endpoint = await s.insertWebhookEndpoint({
        id: 'we1',
        url: 'https://example.com/hook',
        kinds: null,
        secrets: [{ secret: 'whsec_x', createdAt: 't' }],
        createdAt: '2026-11-23T12:00:00.000Z',
      });
      expect(endpoint.afterSeq).toBe(await s.lastOutboxSeq());
      await s.insertWebhookEndpoint({
        id: 'we2',
        url: 'https://example.com/other',
        kinds: ['project.closed'],
        secrets: [],
        createdAt: '2026-11-23T12:00:01.000Z',
      });
      for (let i = 0; i < 10; i++) await s.transaction((tx) => tx.appendEvent(event(`e${i}`, i < 3 ? 'project.closed' : 'project.created')));
      const now = 1_000_000;
      // Both instances fan out at once, repeatedly: nothing is queued twice.
      await Promise.all([s.fanOutEvents(now, 4), w2.fanOutEvents(now, 4), s.fanOutEvents(now, 100), w2.fanOutEvents(now, 100)]);
      while ((await s.fanOutEvents(now, 100)) > 0);
      const queued = await s.listDeliveries({ limit: 100 });
      expect(queued.filter((x) => x.endpointId === 'we1')).toHaveLength(10);
      expect(queued.filter((x) => x.endpointId === 'we2')).toHaveLength(3);
      expect(queued.some((x) => x.eventId === 'before')).toBe(false);
      expect(await s.nextDeliveryAt()).toBe(now);

      const [c1, c2] = await Promise.all([s.claimDeliveries(now, 60_000, 8), w2.claimDeliveries(now, 60_000, 8)]);
      const keys = [...c1, ...c2].map((c) => `${c.delivery.seq}/${c.delivery.endpointId}`);
      expect(keys).toHaveLength(13);
      expect(new Set(keys).size).toBe(13);
      expect(c1[0]!.event.data).toEqual({ id: c1[0]!.event.id });
      expect(await s.claimDeliveries(now + 1, 60_000, 100)).toEqual([]);
      // Finished deliveries are never claimed again; the others fall due again when the lease ends.
      const done = c1.map((c) => ({
        seq: c.delivery.seq,
        endpointId: c.delivery.endpointId,
        outcome: { status: 'delivered' as const, attempts: 1, nextAttemptAt: now, lastStatus: 200, at: '2026-11-23T12:01:00.000Z' },
      }));
      await s.finishDeliveries(done);
      const again = await w2.claimDeliveries(now + 60_001, 60_000, 100);
      expect(again.map((c) => `${c.delivery.seq}/${c.delivery.endpointId}`).sort()).toEqual(c2.map((c) => `${c.delivery.seq}/${c.delivery.endpointId}`).sort());
      const delivered = await s.listDeliveries({ status: 'delivered', limit: 100 });
      expect(delivered).toHaveLength(c1.length);
      expect(delivered[0]).toMatchObject({ attempts: 1, lastStatus: 200, deliveredAt: '2026-11-23T12:01:00.000Z' });

      // Dead ones replay; a disabled endpoint's pending deliveries die; a deleted endpoint takes its queue along.
      const first = again[0]!;
      await s.finishDelivery(first.delivery.seq, first.delivery.endpointId, { status: 'dead', attempts: 5, nextAttemptAt: now, lastError: 'gone', at: 't' });
      expect(await s.replayDeliveries({ eventId: first.event.id }, now + 70_000, 't2')).toBe(1);
      expect(await s.setWebhookDisabled('we2', { at: 't3', reason: 'failing' })).toBe(true);
      expect((await s.getWebhookEndpoint('we2'))?.disabledReason).toBe('failing');
      expect((await s.listDeliveries({ endpointId: 'we2', status: 'pending' })).length).toBe(0);
      expect(await s.setWebhookSecrets('we1', [{ secret: 'whsec_y', createdAt: 't4' }])).toBe(true);
      expect((await w2.getWebhookEndpoint('we1'))?.secrets.map((x) => x.secret)).toEqual(['whsec_y']);
      expect((await s.listWebhookEndpoints()).map((e) => e.id)).toEqual(['we1', 'we2']);
      expect(await s.deleteWebhookEndpoint('we1')).toBe(true);
      expect(await s.deleteWebhookEndpoint('we1')).toBe(false);
      expect(await s.listDeliveries({ endpointId: 'we1' })).toEqual([]);
    });

    it("deliveries: an endpoint with access gets only the events `visible` allows; the operator's gets every one", async () => {
      const { s } = await fresh();
      const access: WebhookAccess = { subject: 'alice', scopes: ['projects:read'], scheme: 'apiKey', credential: { kind: 'api_key', lookup: 'k1' } };
      await s.insertWebhookEndpoint({ id: 'op', url: 'https://example.com/op', kinds: null, secrets: [], createdAt: '2026-11-23T12:00:00.000Z' });
      await s.insertWebhookEndpoint({
        id: 'api',
        url: 'https://example.com/api',
        kinds: null,
        subject: 'alice',
        access,
        secrets: [],
        createdAt: '2026-11-23T12:00:01.000Z',
      });
      // Registered through the API before access was stored: its subject, holding no scopes.
      await s.insertWebhookEndpoint({
        id: 'old',
        url: 'https://example.com/old',
        kinds: ['project.closed'],
        subject: 'bob',
        secrets: [],
        createdAt: '2026-11-23T12:00:02.000Z',
      });
      expect((await s.getWebhookEndpoint('api'))?.access).toEqual(access);
      expect((await s.getWebhookEndpoint('old'))?.access).toEqual({ subject: 'bob', scopes: [] });
      expect((await s.getWebhookEndpoint('op'))?.access).toBeUndefined();
      expect((await s.listWebhookEndpoints()).map((e) => e.access)).toEqual([undefined, access, { subject: 'bob', scopes: [] }]);

      const owners = ['alice', 'bob', 'alice', 'carol', 'bob'];
      for (const [i, owner] of owners.entries()) {
        await s.transaction((tx) =>
          tx.appendEvent({
            id: `v${i}`,
            type: i % 2 === 0 ? 'project.created' : 'project.closed',
            timestamp: '2026-11-23T12:00:00.000Z',
            data: { id: `v${i}`, owner },
          }),
        );
      }
      const asked: string[] = [];
      const visible = (a: WebhookAccess, type: string, data: unknown): boolean => {
        asked.push(`${a.subject}:${type}:${(data as { id: string }).id}`);
        return (data as { owner: string }).owner === a.subject;
      };
      const now = 1_000_000;
      while ((await s.fanOutEvents(now, 2, visible)) > 0);
      const queued = async (endpointId: string) => (await s.listDeliveries({ endpointId, limit: 100 })).map((x) => x.eventId).sort();
      expect(await queued('op')).toEqual(['v0', 'v1', 'v2', 'v3', 'v4']);
      expect(await queued('api')).toEqual(['v0', 'v2']);
      expect(await queued('old')).toEqual(['v1']);
      // Asked about each event once per endpoint with access whose kinds take it, with the type and the stored data.
      expect(asked.sort()).toEqual([
        'alice:project.closed:v1',
        'alice:project.closed:v3',
        'alice:project.created:v0',
        'alice:project.created:v2',
        'alice:project.created:v4',
        'bob:project.closed:v1',
        'bob:project.closed:v3',
      ]);

      // Without `visible`, an endpoint with access gets nothing; the operator's still gets every event.
      await s.transaction((tx) =>
        tx.appendEvent({ id: 'w0', type: 'project.closed', timestamp: '2026-11-23T12:00:00.000Z', data: { id: 'w0', owner: 'alice' } }),
      );
      while ((await s.fanOutEvents(now, 100)) > 0);
      expect(await queued('op')).toContain('w0');
      expect(await queued('api')).not.toContain('w0');
      expect(await queued('old')).not.toContain('w0');

      // The claimed delivery carries the endpoint's access.
      const claimed = await s.claimDeliveries(now, 60_000, 100);
      expect(claimed.filter((c) => c.endpoint.id === 'api').map((c) => c.endpoint.access)).toEqual([access, access]);
      expect(claimed.filter((c) => c.endpoint.id === 'op').every((c) => c.endpoint.access === undefined)).toBe(true);
    });

    shared('deliveries: an endpoint table made before access was stored gains the column', async () => {
      const db = d.create();
      const first = db.open();
      expect((await first.migrate(PLAN)).ok).toBe(true);
      await first.insertWebhookEndpoint({
        id: 'old',
        url: 'https://example.com/old',
        kinds: null,
        subject: 'bob',
        secrets: [],
        createdAt: '2026-11-23T12:00:00.000Z',
      });
      await first.insertWebhookEndpoint({ id: 'op', url: 'https://example.com/op', kinds: null, secrets: [], createdAt: '2026-11-23T12:00:01.000Z' });
      await first.close();
      await db.exec!('ALTER TABLE _servicespec_webhooks DROP COLUMN access');
      const s = track(db.open());
      expect((await s.migrate(PLAN)).ok).toBe(true);
      expect((await s.listWebhookEndpoints()).map((e) => [e.id, e.access])).toEqual([
        ['old', { subject: 'bob', scopes: [] }],
        ['op', undefined],
      ]);
      const access: WebhookAccess = { subject: 'alice', scopes: [] };
      await s.insertWebhookEndpoint({
        id: 'new',
        url: 'https://example.com/new',
        kinds: null,
        subject: 'alice',
        access,
        secrets: [],
        createdAt: '2026-11-23T12:00:02.000Z',
      });
      expect((await s.getWebhookEndpoint('new'))?.access).toEqual(access);
    });

    it('idempotency: of racing claims of one key, exactly one is created; an expired record can be claimed again', async () => {
      const db = await fresh();
      const s = db.s;
      const instances = await writers(db);
      const now = '2026-11-23T12:00:00.000Z';
      const claims = await Promise.all(
        Array.from({ length: 16 }, (_, i) => instances[i % instances.length]!.claimRecord('idem', 'k1', `v${i}`, '2026-11-23T13:00:00.000Z', now)),
      );
      const winners = claims.filter((c) => c.created);
      expect(winners).toHaveLength(1);
      expect(new Set(claims.map((c) => c.value))).toEqual(new Set([winners[0]!.value]));
      // Racing claims of a key whose record has expired: exactly one replaces it.
      const again = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          instances[i % instances.length]!.claimRecord('idem', 'k1', `w${i}`, '2026-11-23T13:30:00.000Z', '2026-11-23T13:00:00.000Z'),
        ),
      );
      expect(again.filter((c) => c.created)).toHaveLength(1);
      expect(new Set(again.map((c) => c.value))).toEqual(new Set([again.find((c) => c.created)!.value]));
      expect(await s.claimRecord('idem', 'k1', 'late', '2026-11-23T15:00:00.000Z', '2026-11-23T14:00:00.000Z')).toEqual({ created: true, value: 'late' });
      await s.putRecord('idem', 'k1', 'put', '2026-11-23T15:00:00.000Z');
      expect(await s.claimRecord('idem', 'k1', 'x', '2026-11-23T15:00:00.000Z', '2026-11-23T14:00:00.000Z')).toEqual({ created: false, value: 'put' });
      await s.deleteRecord('idem', 'k1');
      expect((await s.claimRecord('idem', 'k1', 'y', '2026-11-23T15:00:00.000Z', '2026-11-23T14:00:00.000Z')).created).toBe(true);
    });

    it('idempotency: expired records are removed in bounded batches; unexpired ones stay', async () => {
      const { s } = await fresh();
      const now = '2026-11-23T12:00:00.000Z';
      for (let i = 0; i < 7; i++) await s.putRecord('idem', `old${i}`, `o${i}`, '2026-11-23T11:00:00.000Z');
      for (let i = 0; i < 3; i++) await s.putRecord('idem', `new${i}`, `n${i}`, '2026-11-23T13:00:00.000Z');
      expect(await s.deleteExpiredRecords(now, 0)).toBe(0);
      const batches: number[] = [];
      for (let i = 0; i < 12; i++) batches.push(await s.deleteExpiredRecords(now, 2));
      expect(batches.every((n) => n <= 2)).toBe(true);
      expect(batches.reduce((a, b) => a + b, 0)).toBe(7);
      for (let i = 0; i < 7; i++) expect((await s.claimRecord('idem', `old${i}`, 'again', '2026-11-23T13:00:00.000Z', now)).created).toBe(true);
      for (let i = 0; i < 3; i++)
        expect(await s.claimRecord('idem', `new${i}`, 'x', '2026-11-23T13:00:00.000Z', now)).toEqual({ created: false, value: `n${i}` });
      expect(await s.deleteExpiredRecords(now, 100)).toBe(0);
    });

    it('settings: instances claiming one setting together all end up with one value', async () => {
      const db = await fresh();
      const s = db.s;
      const instances = await writers(db, 3);
      const values = await Promise.all(instances.flatMap((x, i) => [x.claimSetting('secret', `a${i}`), x.claimSetting('secret', `b${i}`)]));
      expect(new Set(values).size).toBe(1);
      expect(await s.getSetting('secret')).toBe(values[0]);
      await s.setSetting('other', '1');
      await s.setSetting('other', '2');
      expect(await instances[instances.length - 1]!.getSetting('other')).toBe('2');
      expect(await s.getSetting('missing')).toBeUndefined();
    });

    it('credentials: stored, found, listed; a duplicate lookup is refused', async () => {
      const { s } = await fresh();
      const rec = {
        id: 'k1',
        kind: 'api_key' as const,
        lookup: 'look1',
        hash: 'h',
        subject: 'ann',
        scopes: ['read', 'write'],
        createdAt: '2026-11-23T12:00:00.000Z',
      };
      await s.insertCredential(rec);
      await expect(s.insertCredential({ ...rec, id: 'k2' })).rejects.toThrow();
      expect(await s.findCredential('api_key', 'look1')).toEqual(rec);
      expect(await s.findCredential('client', 'look1')).toBeUndefined();
      expect(await s.listCredentials('api_key')).toEqual([rec]);
      expect(await s.revokeCredential('api_key', 'k1', '2026-11-23T12:05:00.000Z')).toBe(true);
      expect(await s.revokeCredential('api_key', 'k1', '2026-11-23T12:09:00.000Z')).toBe(true);
      expect((await s.findCredential('api_key', 'look1'))?.revokedAt).toBe('2026-11-23T12:05:00.000Z');
      expect(await s.revokeCredential('api_key', 'nope', 't')).toBe(false);
    });

    shared('credentials: a revocation through one instance is seen by the other', async () => {
      const { s, other } = await fresh();
      const o = await other();
      const rec = { id: 'k1', kind: 'api_key' as const, lookup: 'look1', hash: 'h', subject: 'ann', scopes: [], createdAt: '2026-11-23T12:00:00.000Z' };
      // The other instance has looked the key up (and cached what it found) before it exists, and after.
      expect(await o.findCredential('api_key', 'look1')).toBeUndefined();
      await s.insertCredential(rec);
      const find = (x: Storage) => (x.findCredentialNow ? Promise.resolve(x.findCredentialNow('api_key', 'look1')) : x.findCredential('api_key', 'look1'));
      // Nothing drops a cached record on a timer: only the change's NOTIFY (PostgreSQL) or data_version (SQLite), so
      // without them this waits out its bound (a generous one, not a latency figure).
      const seen = (ok: (r: Awaited<ReturnType<typeof find>>) => boolean, what: string) => until(async () => ok(await find(o)), 10_000, what);
      await seen((r) => r !== undefined && r.revokedAt === undefined, 'the insert');
      for (let i = 0; i < 50; i++) await find(o);
      await s.revokeCredential('api_key', 'k1', '2026-11-23T12:05:00.000Z');
      await seen((r) => r?.revokedAt !== undefined, 'the revocation');
    });

    shared("outbox: another instance's outbox appends ring this one's watch (where the storage has one: PostgreSQL's NOTIFY)", async () => {
      const { s, other } = await fresh();
      const o = await other();
      if (o.watch === undefined) return;
      const heard: string[] = [];
      const unwatch = o.watch((change) => heard.push(change));
      try {
        // Its LISTEN connection came up in migrate, before the watcher was added: nothing is heard yet.
        expect(heard).toEqual([]);
        await s.transaction((tx) => tx.appendEvent(event('rung')));
        // Its sequencer gives the append a position (and notifies) before this returns.
        expect(await s.lastOutboxSeq()).toBe(1);
        // No poll here: only the NOTIFY calls the watcher, so without it this waits out its (generous) bound.
        await until(() => heard.includes('outbox'), 10_000, 'the NOTIFY');
      } finally {
        unwatch();
      }
    });

    shared('deliveries: an endpoint registered, disabled or deleted through one instance changes what another fans out to', async () => {
      const { s, other } = await fresh();
      const o = await other();
      const now = 1_000_000;
      // The other instance has found no endpoint (and may remember that) before one is registered.
      await s.transaction((tx) => tx.appendEvent(event('before')));
      expect(await o.fanOutEvents(now, 100)).toBe(0);
      await s.insertWebhookEndpoint({ id: 'we1', url: 'https://example.com/hook', kinds: null, secrets: [], createdAt: '2026-11-23T12:00:00.000Z' });
      // What the other instance remembers is dropped by the change's NOTIFY (PostgreSQL), never on a timer: without it
      // this waits out its bound (a generous one, not a latency figure).
      const within = (ok: () => Promise<boolean>) => until(ok, 10_000, 'the change');
      let n = 0;
      await within(async () => {
        await s.transaction((tx) => tx.appendEvent(event(`e${n++}`)));
        return (await o.fanOutEvents(now, 100)) > 0;
      });
      expect((await s.listDeliveries({ limit: 100 })).map((d) => d.eventId)).not.toContain('before');
      await s.setWebhookDisabled('we1', { at: '2026-11-23T12:01:00.000Z', reason: 'test' });
      await within(async () => {
        await s.transaction((tx) => tx.appendEvent(event(`e${n++}`)));
        return (await o.fanOutEvents(now, 100)) === 0;
      });
      await s.setWebhookDisabled('we1', undefined);
      await within(async () => {
        await s.transaction((tx) => tx.appendEvent(event(`e${n++}`)));
        return (await o.fanOutEvents(now, 100)) > 0;
      });
      expect(await s.deleteWebhookEndpoint('we1')).toBe(true);
      await within(async () => {
        await s.transaction((tx) => tx.appendEvent(event(`e${n++}`)));
        return (await o.fanOutEvents(now, 100)) === 0;
      });
    });
  });
}

describe.skipIf(pgSkip !== undefined)('PostgreSQL: a write transaction left open', () => {
  it('is ended after openTransactionMs: its row locks freed, its writes rolled back', async () => {
    const s = track(createPostgresStorage({ url: getTestSchemaUrl(), poolSize: 2, openTransactionMs: 300 }));
    expect((await s.migrate(PLAN)).ok).toBe(true);
    await s.transaction((tx) => tx.insert('projects', project('p1')));
    let resume!: () => void;
    let locked!: () => void;
    const holding = new Promise<void>((r) => (locked = r));
    const stuck = s.transaction(async (tx) => {
      await tx.update('projects', 'p1', { rank: 1 });
      locked();
      await new Promise<void>((r) => (resume = r));
      await tx.insert('projects', project('p2'));
    });
    stuck.catch(() => undefined);
    await holding;
    // Waits for the stuck transaction's row lock, which only its end (the server's 300 ms time-out) frees: without
    // it, this would wait as long as the test let it (the bound is the test's, far above the time-out).
    let bound: NodeJS.Timeout | undefined;
    await Promise.race([
      s.transaction((tx) => tx.update('projects', 'p1', { rank: 2 })),
      new Promise((_, fail) => (bound = setTimeout(() => fail(new Error('the row lock was not freed')), 10_000))),
    ]).finally(() => clearTimeout(bound));
    resume();
    await expect(stuck).rejects.toThrow();
    expect((await s.read((tx) => tx.list('projects', { equals: {}, limit: 10 }))).map((r) => [r.id, r.rank])).toEqual([['p1', 2]]);
    // The pool replaced the closed connection.
    await s.transaction((tx) => tx.insert('projects', project('p3')));
  });
});

describe.skipIf(pgSkip !== undefined)('PostgreSQL: the outbox sequencer', () => {
  /** Runs statements on the schema of `url`, outside any storage. */
  async function exec<T = unknown>(url: string, sql: string): Promise<T[]> {
    const raw = new pg.Client({ connectionString: POSTGRES_URL });
    await raw.connect();
    try {
      await raw.query(`SET search_path TO "${new URL(url).searchParams.get('schema')!}"`);
      return (await raw.query(sql)).rows as T[];
    } finally {
      await raw.end();
    }
  }

  it('never scans the whole outbox, even with plans cached while it was empty', async () => {
    const url = getTestSchemaUrl();
    const stats = async () =>
      (
        await exec<{ seq_scan: string; n_tup_ins: string }>(
          url,
          `SELECT seq_scan, n_tup_ins FROM pg_stat_user_tables WHERE schemaname = current_schema() AND relname = '_servicespec_outbox'`,
        )
      )[0]!;
    // The tables made (building an index scans its table), and those scans counted before the test starts.
    const made = createPostgresStorage({ url, poolSize: 1 });
    expect((await made.migrate(PLAN)).ok).toBe(true);
    await made.close();
    for (let waited = 0; Number((await stats()).seq_scan) === 0 && waited < 5_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    const before = Number((await stats()).seq_scan);
    const s = createPostgresStorage({ url, poolSize: 1, sequencerIntervalMs: 0 });
    expect((await s.migrate(PLAN)).ok).toBe(true);
    // The connection plans the sequencer's statements on an empty outbox, and keeps those plans.
    for (let i = 0; i < 8; i++) {
      await s.transaction((tx) => tx.appendEvent(event(`a${i}`)));
      expect(await s.lastOutboxSeq()).toBe(i + 1);
    }
    // The outbox grows without a statistics update (as between two autovacuum runs).
    await exec(
      url,
      `INSERT INTO _servicespec_outbox (seq, id, type, timestamp, data) SELECT 8 + g, 'b' || g, 'project.created', 't', '{}' FROM generate_series(1, 20000) g`,
    );
    for (let i = 0; i < 8; i++) {
      await s.transaction((tx) => tx.appendEvent(event(`c${i}`)));
      expect(await s.lastOutboxSeq()).toBe(20_008 + i + 1);
    }
    // A backend's table statistics are written at the latest when it exits: wait until every insert is counted.
    await s.close();
    for (let waited = 0; Number((await stats()).n_tup_ins) < 20_016 && waited < 5_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    expect(Number((await stats()).n_tup_ins)).toBe(20_016);
    expect(Number((await stats()).seq_scan) - before).toBe(0);
  });

  it('drops the partial index of unsequenced appends an older version made', async () => {
    const url = getTestSchemaUrl();
    const first = createPostgresStorage({ url, poolSize: 1 });
    expect((await first.migrate(PLAN)).ok).toBe(true);
    await first.close();
    await exec(url, 'CREATE INDEX _servicespec_outbox_unsequenced ON _servicespec_outbox (pos) WHERE seq IS NULL');
    const s = track(createPostgresStorage({ url, poolSize: 1 }));
    expect((await s.migrate(PLAN)).ok).toBe(true);
    expect(await exec(url, `SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND indexname = '_servicespec_outbox_unsequenced'`)).toEqual(
      [],
    );
    await s.transaction((tx) => tx.appendEvent(event('e1')));
    expect(await s.lastOutboxSeq()).toBe(1);
  });

  it('under load, starts a run no sooner than sequencerIntervalMs after the last; a caller still sees every commit before its call', async () => {
    // On the injected clock: the interval is timed by it, and the test moves it.
    const clock = manualClock(0);
    const s = track(createPostgresStorage({ url: getTestSchemaUrl(), poolSize: 2, sequencerIntervalMs: 300, clock }));
    expect((await s.migrate(PLAN)).ok).toBe(true);
    await s.transaction((tx) => tx.appendEvent(event('e1')));
    // The first run starts at once (the clock not moved, no timer armed).
    expect(await s.lastOutboxSeq()).toBe(1);
    expect(clock.pending()).toBe(0);
    // The next waits for its turn, 300 ms after the first started, and gives the position of what committed meanwhile.
    clock.advance(100);
    await s.transaction((tx) => tx.appendEvent(event('e2')));
    let settled = false;
    const both = Promise.all([s.lastOutboxSeq(), s.readOutbox(0, 10)]).finally(() => (settled = true));
    await until(() => clock.pending() === 1, 5000, 'the run to wait for its turn');
    clock.advance(199);
    expect(clock.pending()).toBe(1);
    clock.advance(1);
    // Both callers share that run: the read came while it waited for its turn, so the run sees what the read has
    // seen committed, and the read does not wait another turn.
    await until(() => settled || clock.pending() > 0, 5000, 'the run to end');
    expect(clock.pending()).toBe(0);
    const [a, b] = await both;
    expect(a).toBe(2);
    expect(b.map((e) => [e.seq, e.id])).toEqual([
      [1, 'e1'],
      [2, 'e2'],
    ]);
    // Once runs are further apart than the interval, a run starts at once.
    clock.advance(350);
    await s.transaction((tx) => tx.appendEvent(event('e3')));
    expect(await s.lastOutboxSeq()).toBe(3);
    expect(clock.pending()).toBe(0);
  });
});

describe('the storage plan: which datetimes are canonical', () => {
  it('a read-only generated time and a read-only transition stamp are; a datetime clients write is not', () => {
    const c = compileSpecText(
      `
servicespec: 1
resources:
  Job:
    fields:
      id: { type: uuid, readOnly: true }
      status: { type: state }
      created_at: { type: datetime, readOnly: true, generated: create_time }
      done_at: { type: datetime, readOnly: true, optional: true }
      due: { type: datetime }
states:
  Job:
    initial: open
    transitions:
      finish: { from: [open], to: done, stamp: done_at }
`,
      'jobs.yaml',
    );
    const table = getStoragePlan(c.model!).tables.find((t) => t.name === 'Job')!;
    const flags = Object.fromEntries(table.columns.filter((x) => x.instant).map((x) => [x.name, x.canonical === true]));
    expect(flags).toEqual({ created_at: true, done_at: true, due: false });
  });
});
