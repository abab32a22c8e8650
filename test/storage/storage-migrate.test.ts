// `servicespec migrate` (issue 28) on SQLite and PostgreSQL: the plan with its row counts, --apply with and without
// consent, backfills, declared renames, drops, conversions, and each refusal by its code, with nothing changed.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { createServePrepare } from '../../src/runtime/storage/storage-migrate.js';
import { getStoragePlan } from '../../src/runtime/storage/storage-plan.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import type { Row } from '../../src/runtime/storage/storage-types.js';
import { getMigrateEngines, withStorage, type MigrateDb } from './migrate-engines.js';
import { runCli, STACK_LINE } from '../cli/cli-helpers.js';
import { dropTestSchemas, getPostgresSkipReason } from '../support/postgres.js';

const dir = mkdtempSync(join(tmpdir(), 'servicespec-migrate-'));
const pgSkip = await getPostgresSkipReason();
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  if (!pgSkip) await dropTestSchemas();
});

/** A spec with one resource `Task` (and whatever else is given), its fields as YAML flow maps. */
function spec(fields: Record<string, string>, extra = ''): string {
  return `servicespec: 1
resources:
  Task:
    fields:
      id: { type: string, readOnly: true }
${Object.entries(fields)
  .map(([k, v]) => `      ${k}: ${v}`)
  .join('\n')}
${extra}`;
}

let n = 0;
function specFile(text: string): string {
  const path = join(dir, `spec-${n++}.yaml`);
  writeFileSync(path, text);
  return path;
}

const engines = getMigrateEngines(dir, pgSkip);

/** A database migrated to `text`, holding `rows`. */
async function seedOn(make: () => MigrateDb, text: string, rows: Row[], table = 'Task'): Promise<MigrateDb> {
  const db = make();
  const model = compileSpecText(text).model!;
  await withStorage(db, async (s) => {
    const m = await s.migrate(getStoragePlan(model));
    expect(m.ok).toBe(true);
    await s.transaction(async (tx) => {
      for (const r of rows) await tx.insert(table, r);
    });
  });
  return db;
}

/** The rows the new spec's service reads (after `serve`'s start-up step, which must now have nothing to refuse). */
async function readAll(db: MigrateDb, text: string, table = 'Task'): Promise<Row[]> {
  const model = compileSpecText(text).model!;
  return withStorage(db, async (s) => {
    const m = await s.migrate(getStoragePlan(model));
    expect(m).toMatchObject({ ok: true });
    return s.read(async (tx) => tx.list(table, { equals: {}, sort: { column: 'id', descending: false }, limit: 1000 }));
  });
}

const V1 = spec({ title: '{ type: string }', note: '{ type: string, optional: true }' });

for (const engine of engines) {
  describe.skipIf(engine.skip !== undefined)(`migrate on ${engine.name}`, () => {
    const seedRows = [
      { id: 'a', title: 'one', note: 'kept?' },
      { id: 'b', title: 'two' },
      { id: 'c', title: 'three', note: 'x' },
    ];

    it('plans without changing anything: each step, what it does to data, how many rows; exit 0', async () => {
      const db = await seedOn(engine.make, V1, seedRows);
      const next = specFile(spec({ title: '{ type: string }', priority: '{ type: integer, default: 3 }' }));
      const r = await runCli(['migrate', next, '--db', db.url]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('[loses] drop field Task.note: its value is lost in 2 rows');
      expect(r.stdout).toContain('[converts] add required field Task.priority, with its default 3 in 3 rows');
      expect(r.stdout).toContain('--apply --allow-data-loss');
      const j = await runCli(['migrate', next, '--db', db.url, '--format', 'json']);
      const plan = JSON.parse(j.stdout) as { applied: boolean; losesData: boolean; steps: { kind: string; rows: number; data: string }[] };
      expect(plan.applied).toBe(false);
      expect(plan.losesData).toBe(true);
      expect(plan.steps.map((s) => [s.kind, s.data, s.rows])).toEqual(
        expect.arrayContaining([
          ['drop_column', 'loses', 2],
          ['fill_column', 'converts', 3],
        ]),
      );
      // Nothing changed: the old spec still starts on it, every value as it was.
      expect(await readAll(db, V1)).toEqual([
        { id: 'a', title: 'one', note: 'kept?' },
        { id: 'b', title: 'two', note: null },
        { id: 'c', title: 'three', note: 'x' },
      ]);
    });

    it('--apply refuses a plan that loses data without --allow-data-loss (migrate-data-loss), nothing changed', async () => {
      const db = await seedOn(engine.make, V1, seedRows);
      const next = specFile(spec({ title: '{ type: string }' }));
      const r = await runCli(['migrate', next, '--db', db.url, '--apply']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        'servicespec migrate: migrate-data-loss: the plan loses data (drop column Task.note); nothing was changed: run it again with --allow-data-loss to apply it',
      );
      expect(r.stderr).not.toContain('backup');
      expect(await readAll(db, V1)).toHaveLength(3);
      expect((await readAll(db, V1))[0]).toEqual({ id: 'a', title: 'one', note: 'kept?' });
    });

    it('--apply --allow-data-loss drops the field, backfills the default, and the new spec starts with no refusal', async () => {
      const db = await seedOn(engine.make, V1, seedRows);
      const v2 = spec({ title: '{ type: string }', priority: '{ type: integer, default: 3 }' });
      const r = await runCli(['migrate', specFile(v2), '--db', db.url, '--apply', '--allow-data-loss']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Applied to');
      if (engine.name === 'sqlite') {
        const backup = /backup of the database before migrating: (.+)\n/.exec(r.stderr)?.[1];
        expect(backup).toBeDefined();
        expect(existsSync(backup!)).toBe(true);
        // The backup is the database before: the old spec reads the note from it.
        expect(await readAll({ url: `sqlite:${backup!}`, open: () => createSqliteStorage({ path: backup! }) }, V1)).toContainEqual({
          id: 'a',
          title: 'one',
          note: 'kept?',
        });
      } else expect(r.stderr).toBe('');
      expect(await readAll(db, v2)).toEqual([
        { id: 'a', title: 'one', priority: 3 },
        { id: 'b', title: 'two', priority: 3 },
        { id: 'c', title: 'three', priority: 3 },
      ]);
      // Applied again: nothing to do.
      const again = await runCli(['migrate', specFile(v2), '--db', db.url]);
      expect(again.stdout).toContain('nothing to do');
    });

    it('--apply --format json reports what was applied (and, on SQLite, the backup)', async () => {
      const db = await seedOn(engine.make, V1, seedRows);
      const v2 = spec({ title: '{ type: string }', note: '{ type: string, optional: true }', priority: '{ type: integer, default: 3 }' });
      const r = await runCli(['migrate', specFile(v2), '--db', db.url, '--apply', '--format', 'json']);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      const out = JSON.parse(r.stdout) as { applied: boolean; backup?: string; refusals: unknown[]; steps: { kind: string; rows: number }[] };
      expect(out.applied).toBe(true);
      expect(out.refusals).toEqual([]);
      expect(out.steps[0]).toMatchObject({ kind: 'fill_column', rows: 3 });
      if (engine.name === 'sqlite') expect(existsSync(out.backup!)).toBe(true);
      else expect(out.backup).toBeUndefined();
    });

    it('dropping a field no row holds needs no consent', async () => {
      const db = await seedOn(engine.make, V1, [{ id: 'a', title: 'one' }]);
      const v2 = spec({ title: '{ type: string }' });
      const r = await runCli(['migrate', specFile(v2), '--db', db.url, '--apply']);
      expect(r.stdout).toContain('[keeps] drop field Task.note (no row holds a value)');
      expect(r.code).toBe(0);
      expect(await readAll(db, v2)).toEqual([{ id: 'a', title: 'one' }]);
    });

    it('a declared rename_field moves the data (never a drop and an add)', async () => {
      const db = await seedOn(engine.make, V1, seedRows);
      const v2 = spec(
        { name: '{ type: string }', note: '{ type: string, optional: true }' },
        `versioning:
  scheme: integer
  current: "2"
  placement: { header: Api-Version }
  supported:
    - version: "1"
      changes:
        - rename_field: { resource: Task, from: title, to: name }
`,
      );
      const r = await runCli(['migrate', specFile(v2), '--db', db.url, '--apply']);
      expect(r.stdout).toContain('[keeps] rename field Task.title to name (declared rename_field): the values of 3 rows move with it');
      expect(r.code).toBe(0);
      expect(await readAll(db, v2)).toEqual([
        { id: 'a', name: 'one', note: 'kept?' },
        { id: 'b', name: 'two', note: null },
        { id: 'c', name: 'three', note: 'x' },
      ]);
    });

    it("a field's renamedFrom moves the data too", async () => {
      const db = await seedOn(engine.make, V1, seedRows);
      const v2 = spec({ title: '{ type: string }', remark: '{ type: string, optional: true, renamedFrom: note }' });
      const r = await runCli(['migrate', specFile(v2), '--db', db.url, '--apply']);
      expect(r.stdout).toContain('[keeps] rename field Task.note to remark (declared renamedFrom): the values of 2 rows move with it');
      expect(r.stdout).not.toContain('drop');
      expect(r.code).toBe(0);
      expect(await readAll(db, v2)).toEqual([
        { id: 'a', title: 'one', remark: 'kept?' },
        { id: 'b', title: 'two', remark: null },
        { id: 'c', title: 'three', remark: 'x' },
      ]);
    });

    it('a field renamed and changed in the same plan is read under its old name until renamed', async () => {
      // Was an internal error ("no such column: remark"): the plan read the renamed column by its new name before the
      // rename ran. Made required with a default, unique, and bounded, all at once.
      const db = await seedOn(engine.make, V1, seedRows);
      const v2 = spec({ title: '{ type: string }', remark: '{ type: string, renamedFrom: note, default: none, unique: true, maxLength: 4 }' });
      const look = await runCli(['migrate', specFile(v2), '--db', db.url]);
      expect(look.stderr).toBe('');
      expect(look.stdout).toContain('[keeps] rename field Task.note to remark (declared renamedFrom): the values of 2 rows move with it');
      expect(look.stdout).toContain('[converts] fill Task.remark with its default "none" in 1 row without a value');
      expect(look.stdout).toContain('refused: migrate-rows-invalid: field Task.remark: 1 row would not be valid for the new spec (longer than 4): a');
      const fits = spec({ title: '{ type: string }', remark: '{ type: string, renamedFrom: note, default: none, unique: true, maxLength: 5 }' });
      const r = await runCli(['migrate', specFile(fits), '--db', db.url, '--apply']);
      expect(r.stderr).not.toContain('internal error');
      expect(r.code).toBe(0);
      expect(await readAll(db, fits)).toEqual([
        { id: 'a', title: 'one', remark: 'kept?' },
        { id: 'b', title: 'two', remark: 'none' },
        { id: 'c', title: 'three', remark: 'x' },
      ]);
    });

    it('a new required field without a default is refused on rows that lack it, naming them (migrate-no-value)', async () => {
      const db = await seedOn(engine.make, V1, seedRows);
      const v2 = spec({ title: '{ type: string }', note: '{ type: string, optional: true }', owner: '{ type: string }' });
      const look = await runCli(['migrate', specFile(v2), '--db', db.url]);
      expect(look.code).toBe(0);
      expect(look.stdout).toContain(
        'refused: migrate-no-value: field Task.owner is required but has no value in 3 rows (a, b, c): give it a `default` or keep it optional',
      );
      const r = await runCli(['migrate', specFile(v2), '--db', db.url, '--apply', '--allow-data-loss']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('servicespec migrate: migrate-no-value: field Task.owner is required but has no value in 3 rows (a, b, c)');
      expect(await readAll(db, V1)).toHaveLength(3);
    });

    it('a new required field on an empty table is added', async () => {
      const db = await seedOn(engine.make, V1, []);
      const v2 = spec({ title: '{ type: string }', note: '{ type: string, optional: true }', owner: '{ type: string }' });
      const r = await runCli(['migrate', specFile(v2), '--db', db.url, '--apply']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('add required field Task.owner (the table is empty)');
      await withStorage(db, async (s) => {
        expect((await s.migrate(getStoragePlan(compileSpecText(v2).model!))).ok).toBe(true);
        await s.transaction(async (tx) => void (await tx.insert('Task', { id: 'z', title: 't', owner: 'o' })));
        await expect(s.transaction(async (tx) => void (await tx.insert('Task', { id: 'y', title: 't' })))).rejects.toThrow();
      });
    });

    it('removing a state (narrowing an enum) with rows in it is refused even with --allow-data-loss, naming the rows (migrate-rows-invalid)', async () => {
      const v1 = spec({ status: '{ type: enum, values: [open, done, archived] }' });
      const db = await seedOn(engine.make, v1, [
        { id: 'a', status: 'open' },
        { id: 'b', status: 'archived' },
        { id: 'c', status: 'archived' },
      ]);
      const v2 = spec({ status: '{ type: enum, values: [open, done] }' });
      const r = await runCli(['migrate', specFile(v2), '--db', db.url, '--apply', '--allow-data-loss']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        'servicespec migrate: migrate-rows-invalid: field Task.status: 2 rows would not be valid for the new spec (a value not in "open", "done"): b, c',
      );
      expect(await readAll(db, v1)).toHaveLength(3);
      // With no row in the removed value, it applies.
      const db2 = await seedOn(engine.make, v1, [{ id: 'a', status: 'open' }]);
      expect((await runCli(['migrate', specFile(v2), '--db', db2.url, '--apply'])).code).toBe(0);
      expect(await readAll(db2, v2)).toEqual([{ id: 'a', status: 'open' }]);
    });

    it('a state removed from the machine names the rows in it, by state', async () => {
      const machine = (states: string[]) => `states:
  Task:
    field: status
    initial: open
    states:
${states.map((x) => `      ${x}: {}`).join('\n')}
    transitions:
${states
  .slice(1)
  .map((x) => `      to_${x}: { from: open, to: ${x} }`)
  .join('\n')}
`;
      const v1 = spec({ status: '{ type: state }' }, machine(['open', 'done', 'lost']));
      const db = await seedOn(engine.make, v1, [
        { id: 'a', status: 'lost' },
        { id: 'b', status: 'open' },
        { id: 'c', status: 'lost' },
      ]);
      const v2 = spec({ status: '{ type: state }' }, machine(['open', 'done']));
      const r = await runCli(['migrate', specFile(v2), '--db', db.url, '--apply', '--allow-data-loss']);
      expect(r.stderr).toBe(
        'servicespec migrate: migrate-rows-invalid: field Task.status: 2 rows would not be valid for the new spec (2 rows in state "lost", which the spec no longer has): a, c\n',
      );
      expect(r.code).toBe(1);
    });

    it('a removed state the spec maps (removed_states) moves its rows on --apply, with no consent needed', async () => {
      const machine = (states: string[], removed = '') => `states:
  Task:
    field: status
    initial: open
    states:
${states.map((x) => `      ${x}: {}`).join('\n')}
    transitions:
${states
  .slice(1)
  .map((x) => `      to_${x}: { from: open, to: ${x} }`)
  .join('\n')}
${removed}`;
      const v1 = spec({ status: '{ type: state }' }, machine(['open', 'done', 'lost']));
      const db = await seedOn(engine.make, v1, [
        { id: 'a', status: 'lost' },
        { id: 'b', status: 'open' },
        { id: 'c', status: 'lost' },
      ]);
      const v2 = spec({ status: '{ type: state }' }, machine(['open', 'done'], '    removed_states: { lost: done }\n'));
      const plan = await runCli(['migrate', specFile(v2), '--db', db.url]);
      expect([plan.code, plan.stdout]).toEqual([
        0,
        expect.stringContaining('move 2 rows of Task from removed state "lost" to "done" (declared in removed_states)'),
      ]);
      const r = await runCli(['migrate', specFile(v2), '--db', db.url, '--apply']);
      expect(r.code).toBe(0);
      expect(r.stderr).not.toContain('servicespec migrate:');
      expect(await readAll(db, v2)).toEqual([
        { id: 'a', status: 'done' },
        { id: 'b', status: 'open' },
        { id: 'c', status: 'done' },
      ]);
    });

    it('an optional field made required with a default fills only the rows without a value', async () => {
      const db = await seedOn(engine.make, V1, seedRows);
      const v2 = spec({ title: '{ type: string }', note: '{ type: string, default: "none" }' });
      const r = await runCli(['migrate', specFile(v2), '--db', db.url, '--apply']);
      expect(r.stdout).toContain('[converts] fill Task.note with its default "none" in 1 row without a value');
      expect(r.code).toBe(0);
      expect(await readAll(db, v2)).toEqual([
        { id: 'a', title: 'one', note: 'kept?' },
        { id: 'b', title: 'two', note: 'none' },
        { id: 'c', title: 'three', note: 'x' },
      ]);
    });

    it('a new bound and a new unique name the rows that break them', async () => {
      const v1 = spec({ code: '{ type: string }', size: '{ type: integer }' });
      const db = await seedOn(engine.make, v1, [
        { id: 'a', code: 'x', size: 1 },
        { id: 'b', code: 'x', size: 50 },
      ]);
      const v2 = spec({ code: '{ type: string, unique: true }', size: '{ type: integer, maximum: 10 }' });
      const r = await runCli(['migrate', specFile(v2), '--db', db.url]);
      expect(r.stdout).toContain(
        'refused: migrate-rows-invalid: field Task.code: 2 rows would not be valid for the new spec (a value another row also holds, and the field is now unique): a, b',
      );
      expect(r.stdout).toContain('refused: migrate-rows-invalid: field Task.size: 1 row would not be valid for the new spec (above the maximum 10): b');
    });

    it('a changed type converts the values that convert; the rest are lost only with consent', async () => {
      const v1 = spec({ code: '{ type: string, optional: true }', size: '{ type: integer }' });
      const db = await seedOn(engine.make, v1, [
        { id: 'a', code: '12', size: 1 },
        { id: 'b', code: 'x1', size: 2 },
      ]);
      const v2 = spec({ code: '{ type: integer, optional: true }', size: '{ type: string }' });
      const look = await runCli(['migrate', specFile(v2), '--db', db.url]);
      expect(look.stdout).toContain(
        '[loses] convert field Task.code from text to integer: the values of 1 row convert, those of 1 row are no integer and are lost (null)',
      );
      expect(look.stdout).toContain('[converts] convert field Task.size from integer to text: the values of 2 rows convert');
      const r = await runCli(['migrate', specFile(v2), '--db', db.url, '--apply', '--allow-data-loss']);
      expect(r.code).toBe(0);
      expect(await readAll(db, v2)).toEqual([
        { id: 'a', code: 12, size: '1' },
        { id: 'b', code: null, size: '2' },
      ]);
    });

    it('a type migrate cannot convert is refused (migrate-type-unsupported)', async () => {
      const db = await seedOn(engine.make, spec({ flag: '{ type: boolean }' }), [{ id: 'a', flag: true }]);
      const r = await runCli(['migrate', specFile(spec({ flag: '{ type: json }' })), '--db', db.url, '--apply']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        'servicespec migrate: migrate-type-unsupported: field Task.flag changed type from boolean to json; migrate converts only between integer, number and string',
      );
    });

    it('a removed resource is dropped with its rows counted', async () => {
      const v1 = `${V1}  Tag:\n    fields:\n      id: { type: string, readOnly: true }\n`;
      const db = await seedOn(engine.make, v1, [{ id: 't1' }, { id: 't2' }], 'Tag');
      const r = await runCli(['migrate', specFile(V1), '--db', db.url, '--apply', '--allow-data-loss']);
      expect(r.stdout).toContain('[loses] drop table Tag (resource Tag was removed): 2 rows');
      expect(r.code).toBe(0);
      expect(await readAll(db, V1)).toEqual([]);
    });

    it('a changed identifier is refused (migrate-identifier-changed)', async () => {
      const db = await seedOn(engine.make, V1, []);
      const v2 = `servicespec: 1\nresources:\n  Task:\n    identifier: title\n    fields:\n      id: { type: string, optional: true }\n      title: { type: string }\n      note: { type: string, optional: true }\n`;
      const r = await runCli(['migrate', specFile(v2), '--db', db.url, '--apply']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('migrate-identifier-changed: the identifier of Task changed from id to title; migrate cannot re-key a table');
    });

    it('a database migrated by a newer servicespec is refused by migrate and by serve (migrate-newer-database)', async () => {
      const db = await seedOn(engine.make, V1, seedRows);
      await withStorage(db, async (s) => {
        await s.migrate(getStoragePlan(compileSpecText(V1).model!), {
          prepare: async (session, stored) => {
            await session.query(`INSERT INTO _servicespec_meta (key, value) VALUES ('storage_format', '99')`);
            return { ok: true, stored };
          },
        });
      });
      const r = await runCli(['migrate', specFile(spec({ title: '{ type: string }' })), '--db', db.url, '--apply', '--allow-data-loss']);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        'servicespec migrate: migrate-newer-database: the database was migrated by a newer servicespec (storage format 99; this one knows 1): upgrade servicespec to migrate it\n',
      );
      const served = await withStorage(db, (s) =>
        s.migrate(getStoragePlan(compileSpecText(V1).model!), { prepare: createServePrepare(getStoragePlan(compileSpecText(V1).model!)) }),
      );
      expect(served).toEqual({
        ok: false,
        refusals: [
          { table: '*', reason: 'the database was migrated by a newer servicespec (storage format 99; this one knows 1): upgrade servicespec to migrate it' },
        ],
      });
      const serve = await runCli(['serve', specFile(V1), '--db', db.url, '--allow-gaps', '--port', '0']);
      expect(serve.code).toBe(1);
      expect(serve.stderr).toContain(
        '  - storage: the database was migrated by a newer servicespec (storage format 99; this one knows 1): upgrade servicespec to migrate it\n',
      );
      expect(serve.stderr).not.toContain('servicespec migrate ');
    });

    it('--apply and an instance starting at the same moment agree (one migration lock): no deadlock, one outcome', async () => {
      const db = await seedOn(engine.make, V1, seedRows);
      const v2 = spec({ title: '{ type: string }', note: '{ type: string, optional: true }', priority: '{ type: integer, default: 3 }' });
      const model = compileSpecText(v2).model!;
      const starting = db.open();
      try {
        const [applied, started] = await Promise.all([
          runCli(['migrate', specFile(v2), '--db', db.url, '--apply']),
          starting.migrate(getStoragePlan(model), { prepare: createServePrepare(getStoragePlan(model)) }),
        ]);
        expect(applied.code).toBe(0);
        // Before the migration it is refused (the change is not additive); after it, there is nothing left to do.
        if (!started.ok) expect(started.refusals.map((r) => r.reason)).toEqual(['new field Task.priority is required; existing rows have no value for it']);
        expect((await starting.migrate(getStoragePlan(model), { prepare: createServePrepare(getStoragePlan(model)) })).ok).toBe(true);
      } finally {
        await starting.close();
      }
      expect((await readAll(db, v2)).map((r) => r.priority)).toEqual([3, 3, 3]);
    });

    it('diff OLD NEW --db shows the data impact next to the verdict, changing nothing', async () => {
      const db = await seedOn(engine.make, V1, seedRows);
      const oldFile = specFile(V1);
      const newFile = specFile(spec({ title: '{ type: string }' }));
      const r = await runCli(['diff', oldFile, newFile, '--db', db.url]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Data impact on the database (servicespec migrate):\n  1. [loses] drop field Task.note: its value is lost in 2 rows\n');
      const j = JSON.parse((await runCli(['diff', oldFile, newFile, '--db', db.url, '--format', 'json'])).stdout) as {
        changes: unknown[];
        data: { losesData: boolean };
      };
      expect(j.changes.length).toBeGreaterThan(0);
      expect(j.data.losesData).toBe(true);
      expect(await readAll(db, V1)).toHaveLength(3);
    });

    describe("a changed shape no SQL check states: an object's members, an array's items, a pattern", () => {
      const shaped = (meta: string, item: string, code: string) =>
        spec({
          meta: `{ type: object, optional: true, fields: { color: { type: string }${meta} } }`,
          tags: `{ type: array, optional: true, items: { type: ${item} } }`,
          code: `{ type: string, optional: true${code} }`,
        });
      const v1 = shaped('', 'string', '');
      const rows = [{ id: 'a', meta: { color: 'red' }, tags: ['x'], code: 'AB-1' }, { id: 'b', tags: ['y', 'z'], code: 'zz' }, { id: 'c' }];
      const v2 = shaped(', size: { type: integer }', 'integer', ', pattern: "^[A-Z]{2}-[0-9]$"');

      it('migrate names the rows the new shape refuses (migrate-rows-invalid), and serve refuses to start on them', async () => {
        const db = await seedOn(engine.make, v1, rows);
        const file = specFile(v2);
        const r = await runCli(['migrate', file, '--db', db.url]);
        expect(r.stdout).toContain(
          "refused: migrate-rows-invalid: field Task.meta: 1 row would not be valid for the new spec (a value the new shape refuses: must have required property 'size'): a",
        );
        expect(r.stdout).toContain(
          'refused: migrate-rows-invalid: field Task.tags: 2 rows would not be valid for the new spec (a value the new shape refuses: at /0 must be integer): a, b',
        );
        expect(r.stdout).toContain(
          'refused: migrate-rows-invalid: field Task.code: 1 row would not be valid for the new spec (a value the new shape refuses: must match pattern "^[A-Z]{2}-[0-9]$"): b',
        );
        const applied = await runCli(['migrate', file, '--db', db.url, '--apply', '--allow-data-loss']);
        expect(applied.code).toBe(1);
        const serve = await runCli(['serve', file, '--db', db.url, '--allow-gaps', '--port', '0']);
        expect(serve.code).toBe(1);
        expect(serve.stderr).toContain(
          "  - storage: field Task.meta: 1 row would not be valid for the new spec (a value the new shape refuses: must have required property 'size'): a; serve runs only additive steps at start: plan this change with servicespec migrate\n",
        );
        expect(serve.stderr).toContain('  - storage: field Task.tags: 2 rows would not be valid');
        // Nothing changed: the old spec still starts on it, every value as it was.
        expect((await readAll(db, v1)).map((x) => x.meta)).toEqual([{ color: 'red' }, null, null]);
      });

      it('reads the rows in pages: the one past the first 1,000 is named', async () => {
        const many = Array.from({ length: 1002 }, (_, i) => ({ id: `r${String(i).padStart(4, '0')}`, code: i === 1001 ? 'zz' : 'AB-1' }));
        const db = await seedOn(engine.make, v1, many);
        const r = await runCli(['migrate', specFile(v2), '--db', db.url]);
        expect(r.stderr).toBe('');
        expect(r.stdout).toContain('refused: migrate-rows-invalid: field Task.code: 1 row would not be valid for the new spec');
        expect(r.stdout).toContain('): r1001');
      });

      it('a shape every stored value meets is taken by migrate and serve alike, and recorded', async () => {
        const db = await seedOn(engine.make, v1, rows);
        const wider = shaped(', size: { type: integer, optional: true }', 'string, maxLength: 5', ', pattern: "^[A-Za-z-0-9]+$"');
        const r = await runCli(['migrate', specFile(wider), '--db', db.url, '--format', 'json']);
        expect((JSON.parse(r.stdout) as { refusals: unknown[] }).refusals).toEqual([]);
        const model = compileSpecText(wider).model!;
        const started = await withStorage(db, (s) => s.migrate(getStoragePlan(model), { prepare: createServePrepare(getStoragePlan(model)) }));
        expect(started.ok).toBe(true);
      });

      it('rows the recorded shape refused too are not held against the change; a database recorded without shapes takes the new one', async () => {
        // Written past the old shape (storage takes what it is given), so the recorded shape refuses it as well.
        const db = await seedOn(engine.make, v1, [{ id: 'a', meta: { color: 1 } }]);
        const model = compileSpecText(v2).model!;
        const started = await withStorage(db, (s) => s.migrate(getStoragePlan(model), { prepare: createServePrepare(getStoragePlan(model)) }));
        expect(started.ok).toBe(true);
        // A database a servicespec before shapes migrated records none: nothing to compare with.
        const bare = (plan: ReturnType<typeof getStoragePlan>) => ({
          tables: plan.tables.map((t) => ({ ...t, columns: t.columns.map(({ shape: _, ...c }) => c) })),
        });
        const old = engine.make();
        await withStorage(old, async (s) => {
          expect((await s.migrate(bare(getStoragePlan(compileSpecText(v1).model!)))).ok).toBe(true);
          await s.transaction(async (tx) => void (await tx.insert('Task', rows[0]!)));
        });
        const legacy = await withStorage(old, (s) => s.migrate(getStoragePlan(model), { prepare: createServePrepare(getStoragePlan(model)) }));
        expect(legacy.ok).toBe(true);
      });
    });

    it('a key unique together added: rows sharing its values are named (migrate-rows-invalid); without them serve and migrate add it, and dropping it is taken', async () => {
      const v1 = spec({ project: '{ type: string }', name: '{ type: string }' });
      const v2 = `${v1}    unique_keys: [[project, name]]\n`;
      const clash = await seedOn(engine.make, v1, [
        { id: 'a', project: 'p1', name: 'x' },
        { id: 'b', project: 'p1', name: 'x' },
        { id: 'c', project: 'p2', name: 'x' },
      ]);
      const r = await runCli(['migrate', specFile(v2), '--db', clash.url]);
      expect(r.stdout).toContain(
        'refused: migrate-rows-invalid: field Task.project, name: 2 rows would not be valid for the new spec (values another row also holds, and project, name are now unique together): a, b',
      );
      const serve = await runCli(['serve', specFile(v2), '--db', clash.url, '--allow-gaps', '--port', '0']);
      expect(serve.code).toBe(1);
      expect(serve.stderr).toContain('  - storage: existing rows do not satisfy the changed constraints of Task');
      const db = await seedOn(engine.make, v1, [
        { id: 'a', project: 'p1', name: 'x' },
        { id: 'c', project: 'p2', name: 'x' },
      ]);
      const plan = await runCli(['migrate', specFile(v2), '--db', db.url]);
      expect(plan.stdout).toContain("[keeps] rebuild table Task with the new spec's constraints: 2 rows copied unaltered");
      expect(plan.stdout).not.toContain('refused');
      const model = compileSpecText(v2).model!;
      await withStorage(db, async (s) => {
        expect((await s.migrate(getStoragePlan(model), { prepare: createServePrepare(getStoragePlan(model)) })).ok).toBe(true);
        await expect(s.transaction(async (tx) => void (await tx.insert('Task', { id: 'd', project: 'p1', name: 'x' })))).rejects.toMatchObject({
          kind: 'unique_conflict',
        });
      });
      expect((await readAll(db, v1)).map((x) => x.id)).toEqual(['a', 'c']);
    });

    it('a new required field with a default and a bound is filled; nothing is read from a column before it is added', async () => {
      const db = await seedOn(engine.make, V1, seedRows);
      const v2 = spec({ title: '{ type: string }', note: '{ type: string, optional: true }', size: '{ type: integer, maximum: 10, default: 3 }' });
      const r = await runCli(['migrate', specFile(v2), '--db', db.url, '--apply']);
      expect(r.stderr).not.toContain('internal error');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('[converts] add required field Task.size, with its default 3 in 3 rows');
      expect((await readAll(db, v2)).map((x) => x.size)).toEqual([3, 3, 3]);
    });

    it("a new state field's rows start in the machine's initial state, as a new object does", async () => {
      const db = await seedOn(engine.make, V1, seedRows);
      const v2 = spec(
        { title: '{ type: string }', note: '{ type: string, optional: true }', status: '{ type: state }' },
        `states:
  Task:
    field: status
    initial: open
    states: { open: {}, done: { terminal: true } }
    transitions:
      finish: { from: open, to: done }
`,
      );
      const r = await runCli(['migrate', specFile(v2), '--db', db.url, '--apply']);
      expect(r.stderr).not.toContain('internal error');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('[converts] add required field Task.status, with the machine\'s initial state "open" in 3 rows');
      expect((await readAll(db, v2)).map((x) => x.status)).toEqual(['open', 'open', 'open']);
    });

    it('serve refuses a non-additive change naming the exact migrate command', async () => {
      const db = await seedOn(engine.make, V1, seedRows);
      const file = specFile(spec({ title: '{ type: string }', priority: '{ type: integer, default: 3 }' }));
      const r = await runCli(['serve', file, '--db', db.url, '--allow-gaps', '--port', '0']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        `storage: new field Task.priority is required; existing rows have no value for it; serve runs only additive steps at start: plan this change with servicespec migrate`,
      );
      expect(r.stderr).toContain(
        `See the plan (it changes nothing) with:\n  servicespec migrate ${file} --db ${db.url}\nthen run it with:\n  servicespec migrate ${file} --db ${db.url} --apply\n`,
      );
      expect(r.stderr).not.toContain('make it optional');
    });
  });
}

describe('migrate: bad input, one line, nothing changed', () => {
  it('a spec with errors (migrate-spec-invalid)', async () => {
    const file = specFile('servicespec: 1\nresources:\n  Task:\n    fields: 3\n');
    const r = await runCli(['migrate', file, '--db', `sqlite:${join(dir, 'none.db')}`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`servicespec migrate: migrate-spec-invalid: ${file} has errors; fix them first (servicespec check ${file})\n`);
  });

  it('an unreachable database (migrate-unreachable), the password hidden', async () => {
    const r = await runCli(['migrate', specFile(V1), '--db', 'postgres://ann:s3cret@127.0.0.1:1/service']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^servicespec migrate: migrate-unreachable: cannot open postgres:\/\/ann:\*\*\*@127\.0\.0\.1:1\/service: connect ECONNREFUSED[^\n]*\n$/,
    );
    expect(r.stderr).not.toMatch(STACK_LINE);
  });

  it('a SQLite file that does not exist is not created (migrate-unreachable)', async () => {
    const path = join(dir, 'missing.db');
    const r = await runCli(['migrate', specFile(V1), '--db', `sqlite:${path}`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`servicespec migrate: migrate-unreachable: cannot open sqlite:${path}: no such database file\n`);
    expect(existsSync(path)).toBe(false);
  });

  it('diff --db on an unreachable database is one line, exit 1', async () => {
    const r = await runCli(['diff', specFile(V1), specFile(V1), '--db', 'postgres://ann:s3cret@127.0.0.1:1/service']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^servicespec diff: migrate-unreachable: cannot open postgres:\/\/ann:\*\*\*@127\.0\.0\.1:1\/service: [^\n]*\n$/);
  });

  it('--allow-data-loss without --apply is a usage error', async () => {
    const path = join(dir, 'x.db');
    writeFileSync(path, '');
    const r = await runCli(['migrate', specFile(V1), '--db', `sqlite:${path}`, '--allow-data-loss']);
    expect(r.code).toBe(2);
  });
});
