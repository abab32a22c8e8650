// The SQLite writer the runtime uses in a request's own turn (writeNow): its write-ahead log, and its transactions.
// SQLite in WAL mode checkpoints once the log passes 1,000 pages, from the WAL hook that runs when a statement
// that commits finishes. An INSERT … RETURNING read with get() is reset before it finishes: its autocommit
// never ran the hook, the log was never checkpointed, and it grew by every create (300 MB after 30,000), making
// every read slower as it grew. Creates committed at once (writeNow) and in transactions keep it bounded.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import type { ColumnPlan, TablePlan } from '../../src/runtime/storage/storage-types.js';

const dir = mkdtempSync(join(tmpdir(), 'servicespec-wal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function col(name: string, type: ColumnPlan['type'], more: Partial<ColumnPlan> = {}): ColumnPlan {
  return { name, type, notNull: false, unique: false, primaryKey: false, autoIncrement: false, check: {}, ...more };
}
const NOTES: TablePlan = {
  name: 'notes',
  primaryKey: 'id',
  columns: [col('id', 'text', { primaryKey: true, notNull: true }), col('body', 'text', { notNull: true }), col('tags', 'json')],
};

describe('the SQLite write-ahead log under creates', () => {
  it('stays bounded: creates committed at once and in transactions are checkpointed', async () => {
    const path = join(dir, 'notes.db');
    const s = createSqliteStorage({ path, synchronous: 'normal' });
    expect((await s.migrate({ tables: [NOTES] })).ok).toBe(true);
    const body = 'x'.repeat(1500);
    // ~3,000 pages logged in all: three times the checkpoint threshold.
    for (let i = 0; i < 1500; i++) {
      const row = { id: `n-${String(i).padStart(6, '0')}`, body, tags: ['a', i] };
      const writer = s.writeNow();
      expect(writer).toBeDefined();
      expect(writer!.insert('notes', row)).toEqual(row);
    }
    for (let i = 0; i < 300; i++) await s.transaction(async (tx) => tx.insert('notes', { id: `t-${i}`, body }));
    // 1,000 pages of 4 KiB, and what one more commit appends past them.
    expect(statSync(`${path}-wal`).size).toBeLessThan(5 * 1024 * 1024);
    expect(await s.read(async (tx) => (await tx.list('notes', { equals: {}, limit: 2000 })).length)).toBe(1800);
    await s.close();
  });
});

describe('SyncWriter.transaction: statements begun and committed in one turn', () => {
  it('commits the change with the claim, or rolls both back when the key is held (by another instance, say)', async () => {
    const path = join(dir, 'claims.db');
    const a = createSqliteStorage({ path, synchronous: 'normal' });
    const b = createSqliteStorage({ path, synchronous: 'normal' });
    for (const s of [a, b]) expect((await s.migrate({ tables: [NOTES] })).ok).toBe(true);
    const later = '2999-01-01T00:00:00.000Z';
    const now = new Date().toISOString();
    const w = a.writeNow()!;
    const claimed = w.transaction(() => {
      w.insert('notes', { id: 'first', body: 'one' });
      return w.claimRecord('idempotency', 'key:1', 'answer one', later, now);
    });
    expect(claimed).toEqual({ created: true, value: 'answer one' });
    expect(await b.read((tx) => tx.get('notes', 'first'))).toMatchObject({ id: 'first' });
    // Another instance holds key:2: the change made before the claim is rolled back with it.
    expect((await b.claimRecord('idempotency', 'key:2', 'theirs', later, now)).created).toBe(true);
    expect(() =>
      w.transaction(() => {
        w.insert('notes', { id: 'second', body: 'two' });
        const got = w.claimRecord('idempotency', 'key:2', 'mine', later, now);
        if (!got.created) throw new Error(`held: ${got.value}`);
      }),
    ).toThrow('held: theirs');
    expect(await a.read((tx) => tx.get('notes', 'second'))).toBeUndefined();
    // The connection is usable at once: no transaction was left open.
    expect(a.writeNow()).toBeDefined();
    expect(a.writeNow()!.insert('notes', { id: 'third', body: 'three' })).toMatchObject({ id: 'third' });
    await a.close();
    await b.close();
  });
});
