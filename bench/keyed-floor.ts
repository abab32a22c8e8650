// The floor of a keyed create on SQLite, without the runtime: better-sqlite3 alone, the Order table and the
// records table as servicespec creates them, WAL at synchronous=normal (or full), one connection. CPU time per
// create (process.cpuUsage, median of rounds), for:
//   plain      one INSERT … RETURNING in autocommit (an unkeyed create)
//   tx         the same INSERT between BEGIN IMMEDIATE and COMMIT
//   keyed      BEGIN IMMEDIATE, the INSERT, the key's claim with the stored answer (~0.6 KB), COMMIT
//   keyed-min  the same with a 100-byte stored answer
//   no-rowid   keyed, the records table WITHOUT ROWID (one B-tree instead of table + primary-key index)
//   insert     keyed, the claim a plain INSERT (no upsert of an expired record)
//   no-index   keyed, the record in a rowid table with no key index (what the second B-tree costs)
//   npx tsx bench/keyed-floor.ts [normal|full]
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSqliteDriver } from '../src/runtime/storage/storage-sqlite-driver.js';
import { median } from './lib/bench-load.js';
import { ORDER_BODY } from './lib/orders-body.js';

const sync = process.argv[2] === 'full' ? 'FULL' : 'NORMAL';
const Database = loadSqliteDriver();
const dir = mkdtempSync(join(tmpdir(), 'ss-keyed-floor-'));
const order = ORDER_BODY(randomUUID());
const items = JSON.stringify(order.items);
const address = JSON.stringify(order.shipping_address);

function variant(kind: string): () => void {
  const db = new Database(join(dir, `${kind}.db`));
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${sync}`);
  db.exec(`CREATE TABLE "Order" ("id" TEXT NOT NULL PRIMARY KEY, "customer" TEXT NOT NULL, "items" TEXT NOT NULL CHECK (json_valid("items")), "amount" INTEGER NOT NULL CHECK ("amount" >= 1),
    "currency" TEXT NOT NULL, "shipping_address" TEXT NOT NULL CHECK (json_valid("shipping_address")), "status" TEXT NOT NULL, "owner" TEXT NOT NULL, "created_at" TEXT NOT NULL, "updated_at" TEXT NOT NULL) STRICT`);
  db.exec(
    `CREATE TABLE _servicespec_records (namespace TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, expires_at TEXT NOT NULL, PRIMARY KEY (namespace, key)) STRICT${kind === 'no-rowid' ? ', WITHOUT ROWID' : ''}`,
  );
  const insert = db.prepare('INSERT INTO "Order" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *');
  if (kind === 'no-index')
    db.exec('CREATE TABLE plain_records (namespace TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, expires_at TEXT NOT NULL) STRICT');
  const claim =
    kind === 'no-index'
      ? db.prepare('INSERT INTO plain_records VALUES (?, ?, ?, ?)')
      : kind === 'insert'
        ? db.prepare('INSERT INTO _servicespec_records VALUES (?, ?, ?, ?)')
        : db.prepare(
            'INSERT INTO _servicespec_records (namespace, key, value, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at WHERE _servicespec_records.expires_at <= ?',
          );
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  return () => {
    const now = new Date().toISOString();
    const keyed = kind !== 'plain' && kind !== 'tx';
    if (kind !== 'plain') begin.run();
    const row = (
      insert.all(randomUUID(), order.customer, items, order.amount, order.currency, address, 'pending', 'bench', now, now) as Record<string, unknown>[]
    )[0]!;
    if (keyed) {
      const body = JSON.stringify(row);
      const stored = JSON.stringify({
        state: 'done',
        fingerprint: 'f'.repeat(43),
        status: 201,
        headers: { 'content-type': 'application/json; charset=utf-8', location: `/orders/${row.id as string}` },
        body,
      });
      const args = ['idempotency', `key:bench|${randomUUID()}`, kind === 'keyed-min' ? stored.slice(0, 100) : stored, now];
      if (kind === 'no-index' || kind === 'insert') claim.run(...args);
      else claim.run(...args, now);
    }
    if (kind !== 'plain') commit.run();
  };
}

const kinds = ['plain', 'tx', 'keyed', 'keyed-min', 'no-rowid', 'insert', 'no-index'];
const runs = new Map(kinds.map((k) => [k, variant(k)]));
const cpu = new Map<string, number[]>(kinds.map((k) => [k, []]));
const N = 3000;
for (let round = 0; round < 8; round++) {
  for (const k of round % 2 ? [...kinds].reverse() : kinds) {
    const t0 = process.cpuUsage();
    for (let i = 0; i < N; i++) runs.get(k)!();
    const t = process.cpuUsage(t0);
    if (round > 0) cpu.get(k)!.push((t.user + t.system) / N);
  }
}
const plain = median(cpu.get('plain')!);
console.log(`synchronous=${sync}, ${N} creates a round, 7 rounds after a warm-up; CPU µs per create (median), and plain ÷ it`);
for (const k of kinds) console.log(`${k.padEnd(10)} ${median(cpu.get(k)!).toFixed(1).padStart(6)} µs  ${(plain / median(cpu.get(k)!)).toFixed(2)}`);
rmSync(dir, { recursive: true, force: true });
