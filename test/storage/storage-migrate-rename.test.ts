// A resource renamed (`renamedFrom` on the resource) on SQLite and PostgreSQL: `servicespec migrate` renames its
// table (rename_table), never a drop and a create: the rows, their identifiers and the next one made, the unique and
// checked columns, the references another resource holds to them and the callback subscriptions about them all
// move with it, with field renames and additions in the same plan; `serve` says the rename is migrate's.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { createServePrepare } from '../../src/runtime/storage/storage-migrate.js';
import { getStoragePlan } from '../../src/runtime/storage/storage-plan.js';
import { StorageConstraintError } from '../../src/runtime/storage/storage-types.js';
import { getMigrateEngines, withStorage, type MigrateDb } from './migrate-engines.js';
import { runCli } from '../cli/cli-helpers.js';
import { dropTestSchemas, getPostgresSkipReason, POSTGRES_URL } from '../support/postgres.js';

const dir = mkdtempSync(join(tmpdir(), 'servicespec-rename-'));
const pgSkip = await getPostgresSkipReason();
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  if (!pgSkip) await dropTestSchemas();
});

let n = 0;
function specFile(text: string): string {
  const path = join(dir, `spec-${n++}.yaml`);
  writeFileSync(path, text);
  return path;
}

const V1 = `servicespec: 1
resources:
  Task:
    fields:
      id: { type: integer, readOnly: true }
      title: { type: string, unique: true, maxLength: 20 }
      note: { type: string, optional: true }
  Comment:
    fields:
      id: { type: string, readOnly: true }
      task: { type: ref, to: Task }
      body: { type: string }
`;

/** Task renamed Todo, its note renamed remark, a field added; Comment's references now name Todo. */
const V2 = `servicespec: 1
resources:
  Todo:
    renamedFrom: Task
    fields:
      id: { type: integer, readOnly: true }
      title: { type: string, unique: true, maxLength: 20 }
      remark: { type: string, optional: true, renamedFrom: note }
      done: { type: boolean, optional: true }
  Comment:
    fields:
      id: { type: string, readOnly: true }
      task: { type: ref, to: Todo }
      body: { type: string }
`;

const engines = getMigrateEngines(dir, pgSkip);

const model = (text: string) => compileSpecText(text).model!;

/** V1's database: three tasks (ids 1, 2, 3 made by the storage), two comments on them, one callback subscription. */
async function seed(make: () => MigrateDb): Promise<MigrateDb> {
  const db = make();
  await withStorage(db, async (s) => {
    expect((await s.migrate(getStoragePlan(model(V1)))).ok).toBe(true);
    await s.transaction(async (tx) => {
      for (const [title, note] of [
        ['one', 'n1'],
        ['two', undefined],
        ['three', 'n3'],
      ] as const)
        await tx.insert('Task', { title, ...(note !== undefined ? { note } : {}) });
      await tx.insert('Comment', { id: 'c1', task: 1, body: 'on one' });
      await tx.insert('Comment', { id: 'c3', task: 3, body: 'on three' });
    });
    await s.insertWebhookEndpoint({
      id: 'ep_1',
      url: 'https://example.test/hook',
      kinds: null,
      secrets: [],
      createdAt: new Date(0).toISOString(),
      access: { scopes: [], object: { resource: 'Task', id: 2 } },
    });
  });
  return db;
}

const byId = { equals: {}, sort: { column: 'id', descending: false }, limit: 100 };

/** PostgreSQL: the names of a table's own unique, check and foreign key constraints, in order. */
async function constraintNames(url: string, table: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`SET search_path TO "${new URL(url).searchParams.get('schema')!}"`);
    const r = await client.query(`SELECT conname FROM pg_constraint WHERE conrelid = $1::regclass AND contype IN ('u', 'c', 'f') ORDER BY conname`, [
      `"${table}"`,
    ]);
    return r.rows.map((x: { conname: string }) => x.conname);
  } finally {
    await client.end();
  }
}

/** The constraint a write is refused by: its kind and column. */
async function refusal(work: Promise<unknown>): Promise<[string, string | undefined]> {
  try {
    await work;
  } catch (err) {
    if (err instanceof StorageConstraintError) return [err.kind, err.column];
    throw err;
  }
  throw new Error('the write was not refused');
}

for (const engine of engines) {
  describe.skipIf(engine.skip !== undefined)(`a resource renamed (renamedFrom), migrated on ${engine.name}`, () => {
    it('the plan renames the table (never a drop and a create), with the field rename and addition; nothing changed', async () => {
      const db = await seed(engine.make);
      const r = await runCli(['migrate', specFile(V2), '--db', db.url]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('1. [keeps] rename resource Task to Todo: 3 rows move with it, and 1 callback subscription follows it');
      expect(r.stdout).toContain('[keeps] rename field Todo.note to remark (declared renamedFrom): the values of 2 rows move with it');
      expect(r.stdout).toContain('add optional field Todo.done');
      expect(r.stdout).not.toMatch(/drop|loses|create table/);
      expect(r.stdout).toContain(' --apply\n');
      const j = JSON.parse((await runCli(['migrate', specFile(V2), '--db', db.url, '--format', 'json'])).stdout) as {
        losesData: boolean;
        steps: { kind: string; table: string; to?: string; data: string; rows: number }[];
      };
      expect(j.losesData).toBe(false);
      expect(j.steps[0]).toEqual({
        kind: 'rename_table',
        table: 'Task',
        to: 'Todo',
        data: 'keeps',
        rows: 3,
        description: 'rename resource Task to Todo: 3 rows move with it, and 1 callback subscription follows it',
      });
      // Only looked at: the old spec still starts on the database, and its subscription still names Task.
      await withStorage(db, async (s) => {
        expect(await s.migrate(getStoragePlan(model(V1)))).toEqual({ ok: true, steps: [] });
        expect(await s.read((tx) => tx.list('Task', byId))).toHaveLength(3);
        expect((await s.getWebhookEndpoint('ep_1'))?.access?.object).toEqual({ resource: 'Task', id: 2 });
      });
    });

    it('serve does not run it at start: it names the rename, not a removed resource, with nothing changed', async () => {
      const db = await seed(engine.make);
      const plan = getStoragePlan(model(V2));
      await withStorage(db, async (s) => {
        const m = await s.migrate(plan, { prepare: createServePrepare(plan, model(V2)) });
        expect(m).toEqual({
          ok: false,
          refusals: [{ table: 'Task', reason: 'resource Task is renamed to Todo (renamedFrom); its table is renamed, keeping its objects' }],
        });
        expect(await s.migrate(getStoragePlan(model(V1)))).toEqual({ ok: true, steps: [] });
      });
    });

    it('--apply keeps the rows and their identifiers, the next identifier, unique and checked columns, references and subscriptions', async () => {
      const db = await seed(engine.make);
      const r = await runCli(['migrate', specFile(V2), '--db', db.url, '--apply']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Applied to');
      expect(r.stdout).toContain('[keeps] rename resource Task to Todo: 3 rows move with it');
      await withStorage(db, async (s) => {
        // The recorded plan is the new spec's: serve's start-up step has nothing to do.
        expect(await s.migrate(getStoragePlan(model(V2)), { prepare: createServePrepare(getStoragePlan(model(V2)), model(V2)) })).toEqual({
          ok: true,
          steps: [],
        });
        expect(await s.read((tx) => tx.list('Todo', byId))).toEqual([
          { id: 1, title: 'one', remark: 'n1', done: null },
          { id: 2, title: 'two', remark: null, done: null },
          { id: 3, title: 'three', remark: 'n3', done: null },
        ]);
        // The identifier sequence continues where Task's stopped.
        const made = await s.transaction((tx) => tx.insert('Todo', { title: 'four' }));
        expect(made.id).toBe(4);
        // Unique and checked columns are still enforced, and a refusal still names its column.
        expect(await refusal(s.transaction((tx) => tx.insert('Todo', { title: 'one' })))).toEqual(['unique_conflict', 'title']);
        // (SQLite's CHECK and foreign key failures name no column, on any table; PostgreSQL's constraints, renamed, still do.)
        expect(await refusal(s.transaction((tx) => tx.insert('Todo', { title: 'x'.repeat(21) })))).toEqual([
          'check_failed',
          engine.name === 'postgres' ? 'title' : undefined,
        ]);
        // Comments still refer to their tasks, now Todos; a reference to no Todo is refused.
        expect(await s.read((tx) => tx.list('Comment', byId))).toEqual([
          { id: 'c1', task: 1, body: 'on one' },
          { id: 'c3', task: 3, body: 'on three' },
        ]);
        await s.transaction((tx) => tx.insert('Comment', { id: 'c4', task: 4, body: 'on four' }));
        expect(await refusal(s.transaction((tx) => tx.insert('Comment', { id: 'c9', task: 99, body: 'on nothing' })))).toEqual([
          'reference_not_found',
          engine.name === 'postgres' ? 'task' : undefined,
        ]);
        // The callback subscription follows the object it was about.
        expect((await s.getWebhookEndpoint('ep_1'))?.access?.object).toEqual({ resource: 'Todo', id: 2 });
      });
      const again = await runCli(['migrate', specFile(V2), '--db', db.url]);
      expect(again.stdout).toContain('nothing to do');
    });

    it('a rename alone: one step, and a refused write still names its column', async () => {
      const db = await seed(engine.make);
      // The newest task deleted: the next identifier is still 4, never one a deleted object held (the sequence, not
      // the highest key, moves with the table).
      await withStorage(db, async (s) => {
        expect((await s.migrate(getStoragePlan(model(V1)))).ok).toBe(true);
        await s.transaction(async (tx) => {
          expect(await tx.delete('Comment', 'c3')).toBe(true);
          expect(await tx.delete('Task', 3)).toBe(true);
        });
      });
      const only = V1.replace('  Task:\n', '  Todo:\n    renamedFrom: Task\n').replace('to: Task', 'to: Todo');
      const r = await runCli(['migrate', specFile(only), '--db', db.url, '--apply']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('1. [keeps] rename resource Task to Todo: 2 rows move with it');
      // PostgreSQL's constraints carry the table's name (a violation is told by it): renamed in place, with no step
      // of their own (before, a rebuild_table dropped and added them, reading every row).
      expect(r.stdout).not.toContain('2. ');
      if (engine.name === 'postgres') expect(await constraintNames(db.url, 'Todo')).toEqual(['Todo__title__check', 'Todo__title__key']);
      await withStorage(db, async (s) => {
        expect(await s.migrate(getStoragePlan(model(only)))).toEqual({ ok: true, steps: [] });
        // (Before the refused writes: PostgreSQL's sequence gives a number to a write that is then refused.)
        expect((await s.transaction((tx) => tx.insert('Todo', { title: 'four' }))).id).toBe(4);
        expect(await refusal(s.transaction((tx) => tx.insert('Todo', { title: 'x'.repeat(21) })))).toEqual([
          'check_failed',
          engine.name === 'postgres' ? 'title' : undefined,
        ]);
        expect(await refusal(s.transaction((tx) => tx.insert('Todo', { title: 'two' })))).toEqual(['unique_conflict', 'title']);
      });
    });

    it('two resources renamed at once, one referring to the other and to itself', async () => {
      const before = `servicespec: 1
resources:
  Task:
    fields:
      id: { type: integer, readOnly: true }
      parent: { type: ref, to: Task, optional: true }
  Comment:
    fields:
      id: { type: integer, readOnly: true }
      task: { type: ref, to: Task }
`;
      const after = `servicespec: 1
resources:
  Note:
    renamedFrom: Comment
    fields:
      id: { type: integer, readOnly: true }
      task: { type: ref, to: Todo }
  Todo:
    renamedFrom: Task
    fields:
      id: { type: integer, readOnly: true }
      parent: { type: ref, to: Todo, optional: true }
`;
      const db = engine.make();
      await withStorage(db, async (s) => {
        expect((await s.migrate(getStoragePlan(model(before)))).ok).toBe(true);
        await s.transaction(async (tx) => {
          await tx.insert('Task', {});
          await tx.insert('Task', { parent: 1 });
          await tx.insert('Comment', { task: 2 });
        });
      });
      const r = await runCli(['migrate', specFile(after), '--db', db.url, '--apply']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('[keeps] rename resource Comment to Note: 1 row moves with it');
      expect(r.stdout).toContain('[keeps] rename resource Task to Todo: 2 rows move with it');
      expect(r.stdout).not.toMatch(/drop|create table/);
      await withStorage(db, async (s) => {
        expect(await s.migrate(getStoragePlan(model(after)))).toEqual({ ok: true, steps: [] });
        expect(await s.read((tx) => tx.list('Todo', byId))).toEqual([
          { id: 1, parent: null },
          { id: 2, parent: 1 },
        ]);
        expect(await s.read((tx) => tx.list('Note', byId))).toEqual([{ id: 1, task: 2 }]);
        expect((await s.transaction((tx) => tx.insert('Todo', { parent: 2 }))).id).toBe(3);
        expect((await s.transaction((tx) => tx.insert('Note', { task: 3 }))).id).toBe(2);
        expect((await refusal(s.transaction((tx) => tx.insert('Todo', { parent: 9 }))))[0]).toBe('reference_not_found');
        expect((await refusal(s.transaction((tx) => tx.insert('Note', { task: 9 }))))[0]).toBe('reference_not_found');
      });
    });

    it('a change of case alone (SQLite names are case-insensitive)', async () => {
      const db = await seed(engine.make);
      const lower = V1.replace('  Task:\n', '  task:\n    renamedFrom: Task\n').replace('to: Task', 'to: task');
      const r = await runCli(['migrate', specFile(lower), '--db', db.url, '--apply']);
      expect(r.stderr).not.toContain('internal error');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('[keeps] rename resource Task to task: 3 rows move with it');
      await withStorage(db, async (s) => {
        expect(await s.migrate(getStoragePlan(model(lower)))).toEqual({ ok: true, steps: [] });
        expect((await s.read((tx) => tx.list('task', byId))).map((t) => t.id)).toEqual([1, 2, 3]);
        expect((await s.transaction((tx) => tx.insert('task', { title: 'four' }))).id).toBe(4);
      });
    });

    it('rows the renamed resource would refuse are named under its new name, with nothing changed', async () => {
      const before = `servicespec: 1
resources:
  Task:
    fields:
      id: { type: string, readOnly: true }
      title: { type: string }
      meta: { type: object, optional: true, fields: { a: { type: integer, optional: true } } }
`;
      const after = before
        .replace('  Task:\n', '  Todo:\n    renamedFrom: Task\n')
        .replace('title: { type: string }', 'title: { type: string, unique: true }')
        .replace('a: { type: integer, optional: true }', 'a: { type: string, optional: true }');
      const db = engine.make();
      await withStorage(db, async (s) => {
        expect((await s.migrate(getStoragePlan(model(before)))).ok).toBe(true);
        await s.transaction(async (tx) => {
          await tx.insert('Task', { id: 'a', title: 'same', meta: { a: 1 } });
          await tx.insert('Task', { id: 'b', title: 'same' });
          await tx.insert('Task', { id: 'c', title: 'other', meta: {} });
        });
      });
      const look = await runCli(['migrate', specFile(after), '--db', db.url]);
      expect(look.code).toBe(0);
      expect(look.stdout).toContain('[keeps] rename resource Task to Todo: 3 rows move with it');
      expect(look.stdout).toContain(
        'refused: migrate-rows-invalid: field Todo.title: 2 rows would not be valid for the new spec (a value another row also holds, and the field is now unique): a, b',
      );
      expect(look.stdout).toContain('refused: migrate-rows-invalid: field Todo.meta: 1 row would not be valid for the new spec (a value the new shape refuses');
      const r = await runCli(['migrate', specFile(after), '--db', db.url, '--apply']);
      expect(r.code).toBe(1);
      await withStorage(db, async (s) => {
        expect(await s.migrate(getStoragePlan(model(before)))).toEqual({ ok: true, steps: [] });
        expect(await s.read((tx) => tx.list('Task', byId))).toHaveLength(3);
      });
    });

    it("a renamed column's unique and check constraints follow it, in place, and a refusal names it", async () => {
      const db = await seed(engine.make);
      const named = V2.replace(
        'title: { type: string, unique: true, maxLength: 20 }',
        'name: { type: string, unique: true, maxLength: 20, renamedFrom: title }',
      );
      const r = await runCli(['migrate', specFile(named), '--db', db.url, '--apply']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('[keeps] rename field Todo.title to name (declared renamedFrom): the values of 3 rows move with it');
      expect(r.stdout).not.toContain('rebuild');
      if (engine.name === 'postgres') expect(await constraintNames(db.url, 'Todo')).toEqual(['Todo__name__check', 'Todo__name__key']);
      await withStorage(db, async (s) => {
        expect(await s.migrate(getStoragePlan(model(named)))).toEqual({ ok: true, steps: [] });
        expect(await refusal(s.transaction((tx) => tx.insert('Todo', { name: 'one' })))).toEqual(['unique_conflict', 'name']);
        expect(await refusal(s.transaction((tx) => tx.insert('Todo', { name: 'x'.repeat(21) })))).toEqual([
          'check_failed',
          engine.name === 'postgres' ? 'name' : undefined,
        ]);
      });
    });

    it('renamedFrom lists earlier names: a database still holding the oldest is renamed too (a chain of versions)', async () => {
      // Task was renamed Item in a version this database never migrated to, and Item is now Todo.
      const chain = V2.replace('renamedFrom: Task', 'renamedFrom: [Task, Item]').replace('renamedFrom: note', 'renamedFrom: [note, memo]');
      const db = await seed(engine.make);
      const r = await runCli(['migrate', specFile(chain), '--db', db.url, '--apply']);
      expect(r.stderr).not.toContain('error');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('[keeps] rename resource Task to Todo: 3 rows move with it, and 1 callback subscription follows it');
      expect(r.stdout).toContain('[keeps] rename field Todo.note to remark (declared renamedFrom): the values of 2 rows move with it');
      expect(r.stdout).not.toMatch(/drop|loses|create table/);
      await withStorage(db, async (s) => {
        expect(await s.migrate(getStoragePlan(model(chain)))).toEqual({ ok: true, steps: [] });
        expect(await s.read((tx) => tx.list('Todo', byId))).toEqual([
          { id: 1, title: 'one', remark: 'n1', done: null },
          { id: 2, title: 'two', remark: null, done: null },
          { id: 3, title: 'three', remark: 'n3', done: null },
        ]);
      });
      // Migrated, the list names tables the database no longer holds: nothing more to do.
      expect((await runCli(['migrate', specFile(chain), '--db', db.url])).stdout).toContain('nothing to do');
    });

    it('a renamedFrom naming no table the database holds is said beside the table the plan drops', async () => {
      const db = await seed(engine.make);
      const skipped = V2.replace('renamedFrom: Task', 'renamedFrom: Item');
      const r = await runCli(['migrate', specFile(skipped), '--db', db.url]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(
        "[loses] drop table Task (resource Task was removed): 3 rows; resource Todo is renamedFrom Item, which this database does not hold: if Task is an earlier name of Todo, add it to Todo's renamedFrom",
      );
      expect(r.stdout).toContain('--allow-data-loss');
    });

    it('two earlier names of one resource both held: refused (migrate-renamed-from-many), with nothing changed', async () => {
      const both = `servicespec: 1
resources:
  Task:
    fields:
      id: { type: integer, readOnly: true }
      memo: { type: string, optional: true }
      note: { type: string, optional: true }
  Item:
    fields:
      id: { type: integer, readOnly: true }
`;
      const merged = `servicespec: 1
resources:
  Todo:
    renamedFrom: [Task, Item]
    fields:
      id: { type: integer, readOnly: true }
      remark: { type: string, optional: true, renamedFrom: [memo, note] }
`;
      const db = engine.make();
      await withStorage(db, async (s) => {
        expect((await s.migrate(getStoragePlan(model(both)))).ok).toBe(true);
        await s.transaction(async (tx) => {
          await tx.insert('Task', { memo: 'm', note: 'n' });
          await tx.insert('Item', {});
        });
      });
      const look = await runCli(['migrate', specFile(merged), '--db', db.url, '--format', 'json']);
      const j = JSON.parse(look.stdout) as { refusals: { code: string; message: string }[] };
      expect(j.refusals).toContainEqual({
        code: 'migrate-renamed-from-many',
        message: 'resource Todo is renamedFrom Task, Item, and the database holds each of them: only one can become resource Todo',
        table: 'Todo',
      });
      const oneTable = merged.replace('renamedFrom: [Task, Item]', 'renamedFrom: Task');
      const cols = JSON.parse((await runCli(['migrate', specFile(oneTable), '--db', db.url, '--format', 'json'])).stdout) as typeof j;
      expect(cols.refusals.map((x) => [x.code, x.message])).toContainEqual([
        'migrate-renamed-from-many',
        'field Todo.remark is renamedFrom memo, note, and the database holds each of them: only one can become field Todo.remark',
      ]);
      const r = await runCli(['migrate', specFile(merged), '--db', db.url, '--apply', '--allow-data-loss']);
      expect(r.code).toBe(1);
      await withStorage(db, async (s) => {
        expect(await s.migrate(getStoragePlan(model(both)))).toEqual({ ok: true, steps: [] });
      });
    });

    it('a later resource of the old name is a new table beside the renamed one', async () => {
      const db = await seed(engine.make);
      expect((await runCli(['migrate', specFile(V2), '--db', db.url, '--apply'])).code).toBe(0);
      const v3 = `${V2}  Task:\n    fields:\n      id: { type: integer, readOnly: true }\n      label: { type: string }\n`;
      await withStorage(db, async (s) => {
        expect((await s.migrate(getStoragePlan(model(v3)))).ok).toBe(true);
        expect((await s.transaction((tx) => tx.insert('Task', { label: 'fresh' }))).id).toBe(1);
        expect(await s.read((tx) => tx.list('Todo', byId))).toHaveLength(3);
      });
    });
  });
}

describe.skipIf(pgSkip !== undefined)('a rename only looked at, on PostgreSQL', () => {
  it('takes no lock the rename would: the plan is made while another transaction reads the table', async () => {
    const db = await seed(engines[1]!.make);
    const reader = new pg.Client({ connectionString: POSTGRES_URL });
    await reader.connect();
    try {
      await reader.query(`SET search_path TO "${new URL(db.url).searchParams.get('schema')!}"`);
      // An open transaction that has read Task holds its ACCESS SHARE lock, which ALTER TABLE … RENAME waits for.
      await reader.query('BEGIN');
      await reader.query('SELECT count(*) FROM "Task"');
      const look = runCli(['migrate', specFile(V2), '--db', db.url]);
      const late = new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 10_000).unref());
      const r = await Promise.race([look, late]);
      expect(r).not.toBe('waited');
      expect((r as Awaited<typeof look>).stdout).toContain('[keeps] rename resource Task to Todo: 3 rows move with it');
    } finally {
      await reader.query('ROLLBACK').catch(() => undefined);
      await reader.end();
    }
  }, 20_000);
});

describe('which resource renames a stored plan waits for', () => {
  it('none when the spec still has the old name (ignored, as a field renamedFrom naming a field it has is)', async () => {
    const both = V2.replace('  Comment:', '  Task:\n    fields:\n      id: { type: integer, readOnly: true }\n  Comment:');
    const db = await seed(engines[0]!.make);
    const r = await runCli(['migrate', specFile(both), '--db', db.url]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('rename resource');
    expect(r.stdout).toContain('create table for new resource Todo');
  });
});
