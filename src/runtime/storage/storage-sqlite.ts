import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import { getFastPaths } from '../../util/util-fast-paths.js';
import { MONOTONIC_CLOCK, type Clock } from '../../util/util-clock.js';
import { loadSqliteDriver } from './storage-sqlite-driver.js';
import { getInstantKey, getInstantKeySqlite } from './storage-instant.js';
import { byName, diffStoragePlans, withKeptColumns } from './storage-plan.js';
import {
  credentialValues,
  CREDENTIAL_COLUMNS,
  toClaimedDelivery,
  toCredential,
  toDelivery,
  toEndpoint,
  toFanOutEndpoint,
  toOutboxEntry,
  webhookValues,
  WEBHOOK_COLUMNS,
  type ClaimRow,
  type CredentialRow,
  type DeliveryRow,
  type OutboxRow,
  type WebhookRow,
} from './storage-rows.js';
import {
  CLAIM_JOIN,
  CREDENTIALS,
  deliveryWhere,
  DELIVERIES,
  FANOUT_KEY,
  getFanOutColumns,
  getFanOutCursor,
  getFanOutTargets,
  listSql,
  META,
  OUTBOX,
  PLAN_KEY,
  pushValueChecks,
  quoteIdent,
  RECORDS,
  updateSql,
  WEBHOOKS,
  type SqlDialect,
} from './storage-shared.js';
import {
  StorageConstraintError,
  type AbortLike,
  type ColumnPlan,
  type CopyReader,
  type CopyRow,
  type CopyTable,
  type CopyWriter,
  type CredentialRecord,
  type ListQuery,
  type MigrationRefusal,
  type MigrateOptions,
  type MigrationResult,
  type MigrationSession,
  type PreparedMigration,
  type OutboxEntry,
  type Row,
  type Storage,
  type StoragePlan,
  type StorageTx,
  type StoredEvent,
  StoredJson,
  type SyncReader,
  type SyncWriter,
  type TablePlan,
  // events (issue 5)
  type ClaimedDelivery,
  type DeliveryFilter,
  type DeliveryOutcome,
  type DeliveryRecord,
  type WebhookEndpointRecord,
  type WebhookAccess,
  type WebhookSecret,
} from './storage-types.js';

export interface SqliteOptions {
  /** A file path, or ':memory:'. */
  path: string;
  /** `full` (the default) makes an acknowledged commit survive power loss; `normal` trades that for speed. */
  synchronous?: 'full' | 'normal';
  /** How long a write waits for another connection's write lock before it is answered `unavailable` (default 5 s). */
  busyTimeoutMs?: number;
  /** False: rows are encoded and decoded by plain loops, not by code generated per table (SERVICESPEC_FAST_PATHS). */
  fastPaths?: boolean;
  /** When the credential cache last asked whether another connection wrote (monotonic by default; tests move it). */
  clock?: Pick<Clock, 'now'>;
}

/** The datetime sort key (storage-instant.ts), a function on each connection. */
const INSTANT = 'servicespec_instant';

const SQLITE_TYPES: Record<ColumnPlan['type'], string> = { text: 'TEXT', integer: 'INTEGER', real: 'REAL', boolean: 'INTEGER', json: 'TEXT' };

function columnSql(c: ColumnPlan): string {
  const q = quoteIdent(c.name);
  const parts = [q, SQLITE_TYPES[c.type]];
  if (c.primaryKey) parts.push(c.autoIncrement ? 'PRIMARY KEY AUTOINCREMENT' : 'NOT NULL PRIMARY KEY');
  else if (c.notNull) parts.push('NOT NULL');
  if (c.unique) parts.push('UNIQUE');
  const checks: string[] = [];
  if (c.type === 'boolean') checks.push(`${q} IN (0, 1)`);
  if (c.type === 'json') checks.push(`json_valid(${q})`);
  pushValueChecks(checks, c, 'length');
  for (const ch of checks) parts.push(`CHECK (${ch})`);
  return parts.join(' ');
}

function createTableSql(t: TablePlan, name = t.name): string {
  const cols = t.columns.map(columnSql);
  for (const c of t.columns) {
    if (c.references) cols.push(`FOREIGN KEY (${quoteIdent(c.name)}) REFERENCES ${quoteIdent(c.references.table)} (${quoteIdent(c.references.column)})`);
  }
  for (const k of t.uniqueKeys ?? []) cols.push(`UNIQUE (${k.map(quoteIdent).join(', ')})`);
  return `CREATE TABLE ${quoteIdent(name)} (\n  ${cols.join(',\n  ')}\n) STRICT`;
}

/** better-sqlite3 reports constraint failures as codes and messages; turn them into the runtime's kinds. */
function mapConstraintError(err: unknown, t?: TablePlan): unknown {
  const e = err as { code?: string; message?: string };
  if (typeof e?.code !== 'string' || !e.code.startsWith('SQLITE_CONSTRAINT')) return err;
  // "UNIQUE constraint failed: <table>.<column>, …": the table's name may hold dots (an imported schema's), and so
  // may a column (a dotted field, a nested bound field's `$a.b`): the first column named is the one after the table.
  const failed = /failed: ([^,]*)/.exec(e.message ?? '')?.[1];
  const column =
    failed === undefined ? undefined : t !== undefined && failed.startsWith(`${t.name}.`) ? failed.slice(t.name.length + 1) : /\.(\w+)$/.exec(failed)?.[1];
  if (e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return new StorageConstraintError('unique_conflict', column);
  if (e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return new StorageConstraintError('reference_not_found', column);
  return new StorageConstraintError('check_failed', column);
}

class SqliteTx implements StorageTx {
  // Declared and assigned in the constructor, not class fields (one is made per transaction; ES2022 fields are
  // defined through a slower path than assignments).
  declare private syncReader: SyncReader | undefined;
  /** The synchronous reads, for `readNow` (made once, for the storage's one reader). */
  get now(): SyncReader {
    this.syncReader ??= {
      get: (table, id) => this.getNow(table, id),
      list: (table, q) => this.listNow(table, q),
      getStored: (table, id) => this.getNow(table, id, true),
      listStored: (table, q) => this.listNow(table, q, true),
    };
    return this.syncReader;
  }

  /** Set once the transaction has committed or rolled back: later statements are refused, never run outside it. */
  declare private ended: boolean;
  declare private readonly prepare: (sql: string) => Database.Statement;
  declare private readonly tables: ReadonlyMap<string, TablePlan>;
  /** Generated encoders and decoders (the fast path), or the plain loops. */
  declare private readonly fast: boolean;

  constructor(prepare: (sql: string) => Database.Statement, tables: ReadonlyMap<string, TablePlan>, fast: boolean) {
    this.syncReader = undefined;
    this.ended = false;
    this.prepare = prepare;
    this.tables = tables;
    this.fast = fast;
  }

  end(): void {
    this.ended = true;
  }

  private stmt(sql: string): Database.Statement {
    if (this.ended) throw new Error('this transaction has ended (committed, or rolled back at its time-out)');
    return this.prepare(sql);
  }

  private table(name: string): TablePlan {
    const t = this.tables.get(name);
    if (!t) throw new Error(`no table for resource ${name}`);
    return t;
  }

  async insert(table: string, row: Row): Promise<Row> {
    return this.insertNow(table, row);
  }

  /** `stored`: JSON values as their stored text (`SyncWriter.insertStored`). */
  insertNow(table: string, row: Row, stored = false): Row {
    const t = this.table(table);
    const { sql, values } = insertStatement(t, row, this.fast);
    try {
      // all(), not get(): get() resets a RETURNING statement before it is done, and an autocommit it ends so
      // never runs SQLite's WAL hook: no automatic checkpoint, and the WAL grows without bound (every read slower).
      const stmt = this.stmt(sql);
      return rowDecoder(stmt, t, stored, this.fast)((stmt.all(...values) as unknown[][])[0]!);
    } catch (err) {
      throw mapConstraintError(err, t);
    }
  }

  async get(table: string, id: unknown): Promise<Row | undefined> {
    return this.getNow(table, id);
  }

  /** `stored`: JSON values as their stored text (`SyncReader.getStored`). */
  getNow(table: string, id: unknown, stored = false): Row | undefined {
    const t = this.table(table);
    const stmt = this.stmt(selectByIdSql(t));
    const decode = rowDecoder(stmt, t, stored, this.fast);
    const out = stmt.get(id) as unknown[] | undefined;
    return out && decode(out);
  }

  async list(table: string, q: ListQuery): Promise<Row[]> {
    return this.listNow(table, q);
  }

  listNow(table: string, q: ListQuery, stored = false): Row[] {
    const t = this.table(table);
    const params: unknown[] = [];
    const sql = listSql(t, table, q, SQLITE, 'SELECT *', params);
    if (q.count) return [{ count: Number((this.stmt(sql).get(...params) as { n: number | bigint }).n) }];
    const stmt = this.stmt(sql);
    const decode = rowDecoder(stmt, t, stored, this.fast);
    const rows = stmt.all(...params) as unknown[][];
    const out = new Array<Row>(rows.length);
    for (let i = 0; i < rows.length; i++) out[i] = decode(rows[i]!);
    return out;
  }

  async update(table: string, id: unknown, changes: Row, expect?: { column: string; value: unknown }): Promise<Row | undefined> {
    const t = this.table(table);
    const params: unknown[] = [];
    const sql = updateSql(t, table, id, changes, expect, SQLITE, params);
    if (sql === undefined) return this.get(table, id);
    try {
      const stmt = this.stmt(`${sql} RETURNING *`);
      const decode = rowDecoder(stmt, t, false, this.fast);
      const out = stmt.get(...params) as unknown[] | undefined;
      return out && decode(out);
    } catch (err) {
      throw mapConstraintError(err, t);
    }
  }

  async delete(table: string, id: unknown): Promise<boolean> {
    const t = this.table(table);
    try {
      return this.stmt(`DELETE FROM ${quoteIdent(table)} WHERE ${quoteIdent(t.primaryKey)} = ?`).run(id).changes > 0;
    } catch (err) {
      throw mapConstraintError(err, t);
    }
  }

  async claimRecord(namespace: string, key: string, value: string, expiresAt: string, now: string): Promise<{ created: boolean; value: string }> {
    return claimRecordWith((sql) => this.stmt(sql), namespace, key, value, expiresAt, now);
  }

  async appendEvent(e: StoredEvent): Promise<void> {
    this.stmt(`INSERT INTO ${OUTBOX} (id, type, timestamp, version, data) VALUES (?, ?, ?, ?, ?)`).run(
      e.id,
      e.type,
      e.timestamp,
      e.version ?? null,
      JSON.stringify(e.data),
    );
  }
  async deleteObjectSubscriptions(resource: string, id: unknown): Promise<number> {
    const ids = (this.stmt(`SELECT id FROM ${WEBHOOKS} WHERE ${OBJECT_SUBSCRIPTION_SQLITE}`).all(resource, id) as { id: string }[]).map((r) => r.id);
    for (const endpoint of ids) {
      this.stmt(`DELETE FROM ${DELIVERIES} WHERE endpoint = ?`).run(endpoint);
      this.stmt(`DELETE FROM ${WEBHOOKS} WHERE id = ?`).run(endpoint);
    }
    return ids.length;
  }
}

/** A callback subscription's endpoint row about one object (resource name, identifier as the JSON holds it). */
const OBJECT_SUBSCRIPTION_SQLITE = `access IS NOT NULL AND json_extract(access, '$.object.resource') = ? AND json_extract(access, '$.object.id') = ?`;

/** Inserts the record unless one exists that has not expired; answers what the key holds now. */
function claimRecordWith(
  stmt: (sql: string) => Database.Statement,
  namespace: string,
  key: string,
  value: string,
  expiresAt: string,
  now: string,
): { created: boolean; value: string } {
  const changed = stmt(
    `INSERT INTO ${RECORDS} (namespace, key, value, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at WHERE ${RECORDS}.expires_at <= ?`,
  ).run(namespace, key, value, expiresAt, now).changes;
  if (changed > 0) return { created: true, value };
  const row = stmt(`SELECT value FROM ${RECORDS} WHERE namespace = ? AND key = ?`).get(namespace, key) as { value: string };
  return { created: false, value: row.value };
}

function putRecordWith(stmt: (sql: string) => Database.Statement, namespace: string, key: string, value: string, expiresAt: string): void {
  stmt(
    `INSERT INTO ${RECORDS} (namespace, key, value, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
  ).run(namespace, key, value, expiresAt);
}

interface InsertPlan {
  /** Pushes the row's set values, encoded, onto `values`; returns which columns it sets ('1' set, '0' not). */
  encode: (row: Row, values: unknown[]) => string;
  sql: Map<string, string>;
}
const insertPlans = new WeakMap<TablePlan, InsertPlan>();
const plainInsertPlans = new WeakMap<TablePlan, InsertPlan>();

/** The plain counterpart of the encoder insertStatement generates: the same values and column set, by a loop. */
function encodeRow(t: TablePlan, row: Row, values: unknown[]): string {
  let set = '';
  for (const c of t.columns) {
    const name = c.absentOf ?? c.name;
    const v = name in Object.prototype ? (Object.hasOwn(row, name) ? row[name] : undefined) : row[name];
    if (c.absentOf !== undefined) {
      if (v === undefined) {
        set += '1';
        values.push(1);
      } else set += '0';
    } else if (v === undefined) set += '0';
    else {
      set += '1';
      values.push(v === null ? null : c.type === 'boolean' ? (v ? 1 : 0) : c.type === 'json' ? JSON.stringify(v) : v);
    }
  }
  return set;
}

/**
 * The INSERT … RETURNING * for the columns the row sets, and their values; the SQL text is kept per column set.
 * The values are read by a function compiled per table, with constant property names (see rowDecoder).
 */
function insertStatement(t: TablePlan, row: Row, fast: boolean): { sql: string; values: unknown[] } {
  const plans = fast ? insertPlans : plainInsertPlans;
  let plan = plans.get(t);
  if (!plan && !fast) {
    plan = { encode: (r, values) => encodeRow(t, r, values), sql: new Map() };
    plans.set(t, plan);
  }
  if (!plan) {
    const lines = t.columns.map((c) => {
      const value = c.type === 'boolean' ? '(v ? 1 : 0)' : c.type === 'json' ? 'JSON.stringify(v)' : 'v';
      const name = JSON.stringify(c.absentOf ?? c.name);
      // A field named after a member of Object.prototype (`constructor`) is read only where the row has it.
      const read = (c.absentOf ?? c.name) in Object.prototype ? `Object.hasOwn(row, ${name}) ? row[${name}] : undefined` : `row[${name}]`;
      // The absence column is set (1) where its field is not given.
      if (c.absentOf !== undefined) return `v = ${read}; if (v === undefined) { set += '1'; values.push(1); } else set += '0';`;
      return `v = ${read}; if (v === undefined) set += '0'; else { set += '1'; values.push(v === null ? null : ${value}); }`;
    });
    plan = { encode: new Function('row', 'values', `let set = ''; let v;\n${lines.join('\n')}\nreturn set;`) as InsertPlan['encode'], sql: new Map() };
    insertPlans.set(t, plan);
  }
  const values: unknown[] = [];
  const set = plan.encode(row, values);
  let sql = plan.sql.get(set);
  if (sql === undefined) {
    const cols = t.columns.filter((_, i) => set[i] === '1');
    sql = cols.length
      ? `INSERT INTO ${quoteIdent(t.name)} (${cols.map((c) => quoteIdent(c.name)).join(', ')}) VALUES (${cols.map(() => '?').join(', ')}) RETURNING *`
      : `INSERT INTO ${quoteIdent(t.name)} DEFAULT VALUES RETURNING *`;
    plan.sql.set(set, sql);
  }
  return { sql, values };
}

const selectByIdCache = new WeakMap<TablePlan, string>();

function selectByIdSql(t: TablePlan): string {
  let sql = selectByIdCache.get(t);
  if (sql === undefined) {
    sql = `SELECT * FROM ${quoteIdent(t.name)} WHERE ${quoteIdent(t.primaryKey)} = ?`;
    selectByIdCache.set(t, sql);
  }
  return sql;
}

/** The absence column of a field (ColumnPlan.absentOf), if it has one. */
function encode(c: ColumnPlan, v: unknown): unknown {
  if (v === undefined || v === null) return null;
  if (c.type === 'boolean') return v ? 1 : 0;
  if (c.type === 'json') return JSON.stringify(v);
  return v;
}

/** SQLite's side of the statements built in storage-shared.ts: `?` placeholders, booleans as 0/1, JSON as text. */
const SQLITE: SqlDialect = {
  param(params, v) {
    params.push(v);
    return '?';
  },
  encode,
  absent: 1,
  instantKey: (col) => getInstantKeySqlite(col, INSTANT),
  equals: (_c, col, ph) => `${col} = ${ph}`,
};

type RowDecode = (raw: unknown[]) => Row;
const rowDecoders = new WeakMap<
  Database.Statement,
  { table: TablePlan; decoded?: RowDecode; stored?: RowDecode; plainDecoded?: RowDecode; plainStored?: RowDecode }
>();

/**
 * The decoder of a statement's rows into the runtime's Rows (booleans from 0/1, JSON parsed or, `stored`, kept as
 * its text, absent values null; the table's columns, in its order), the statement switched to rows as arrays
 * first: the driver makes an array far faster than an object with named properties. Compiled once per statement
 * and kind into one object literal: with constant property names V8 keeps each access on a fast path, where a
 * loop storing `out[c.name]` goes megamorphic and costs about a microsecond a row.
 */
function rowDecoder(stmt: Database.Statement, t: TablePlan, stored: boolean, fast: boolean): RowDecode {
  let entry = rowDecoders.get(stmt);
  if (!entry || entry.table !== t) {
    stmt.raw(true);
    entry = { table: t };
    rowDecoders.set(stmt, entry);
  }
  if (!fast) {
    const kind = stored ? 'plainStored' : 'plainDecoded';
    return (entry[kind] ??= createPlainDecoder(stmt, t, stored));
  }
  const kind = stored ? 'stored' : 'decoded';
  let decode = entry[kind];
  if (!decode) {
    const index = new Map(stmt.columns().map((c, i) => [c.name, i]));
    // Column names are field names (snake_case, never __proto__: the format's schema says so); quoted anyway.
    const absence = new Map(t.columns.filter((c) => c.absentOf !== undefined).map((c) => [c.absentOf!, index.get(c.name)]));
    const props = t.columns.flatMap((c) => {
      if (c.absentOf !== undefined) return [];
      const i = index.get(c.name);
      if (i === undefined) return [`${JSON.stringify(c.name)}: null`];
      const v = `r[${i}]`;
      const value = c.type === 'boolean' ? `${v} === 1` : c.type === 'json' ? (stored ? `new StoredJson(${v})` : `JSON.parse(${v})`) : v;
      // NULL with its absence column set: never given (undefined), not null.
      const a = absence.get(c.name);
      const empty = a === undefined ? 'null' : `r[${a}] === 1 ? undefined : null`;
      return [`${JSON.stringify(c.name)}: ${v} === null || ${v} === undefined ? ${empty} : ${value}`];
    });
    decode = (new Function('StoredJson', `return (r) => ({ ${props.join(', ')} });`) as (c: typeof StoredJson) => RowDecode)(StoredJson);
    entry[kind] = decode;
  }
  return decode;
}

/** The plain counterpart of rowDecoder's generated decoder: the same Row, property by property in a loop. */
function createPlainDecoder(stmt: Database.Statement, t: TablePlan, stored: boolean): RowDecode {
  const index = new Map(stmt.columns().map((c, i) => [c.name, i]));
  const absence = new Map(t.columns.filter((c) => c.absentOf !== undefined).map((c) => [c.absentOf!, index.get(c.name)]));
  const columns = t.columns.filter((c) => c.absentOf === undefined).map((c) => ({ column: c, at: index.get(c.name), absent: absence.get(c.name) }));
  return (r) => {
    const out: Row = {};
    for (const { column: c, at, absent } of columns) {
      if (at === undefined) {
        out[c.name] = null;
        continue;
      }
      const v = r[at];
      if (v === null || v === undefined) out[c.name] = absent !== undefined && r[absent] === 1 ? undefined : null;
      else out[c.name] = c.type === 'boolean' ? v === 1 : c.type === 'json' ? (stored ? new StoredJson(v as string) : JSON.parse(v as string)) : v;
    }
    return out;
  };
}

export class SqliteStorage implements Storage {
  readonly dialect = 'sqlite' as const;
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  private tables = new Map<string, TablePlan>();
  private queue: Promise<unknown> = Promise.resolve();
  /** Per kind, per lookup: the record, or null for none. */
  private readonly credentialCache = new Map<CredentialRecord['kind'], Map<string, CredentialRecord | null>>();
  private credentialCached = 0;
  private credentialVersion = -1;
  private credentialCheckedAt = -Infinity;
  /** Work queued or running through `serial`. */
  private queued = 0;
  /**
   * A second, read-only connection for reads outside a transaction (a file only: a second `:memory:` connection
   * would be another database). WAL lets it read the last commit while the writer holds a transaction, so a
   * read never waits for a write.
   */
  private readonly readDb: Database.Database | undefined;
  private readonly readStatements = new Map<string, Database.Statement>();
  private readonly prepareWrite = (sql: string) => this.stmt(sql);
  private readonly prepareRead = (sql: string) => {
    let s = this.readStatements.get(sql);
    if (!s) {
      s = this.readDb!.prepare(sql);
      this.readStatements.set(sql, s);
    }
    return s;
  };
  private readerTx: SqliteTx | undefined;
  private get reader(): SqliteTx {
    this.readerTx ??= new SqliteTx(this.readDb ? this.prepareRead : this.prepareWrite, this.tables, this.fast);
    return this.readerTx;
  }
  /** events (issue 5): whether queue bookkeeping must drop to synchronous=NORMAL (see `relaxed`). */
  private readonly eventsFullSync: boolean;
  /** The generated row encoders and decoders, or their plain loops (SqliteOptions.fastPaths). */
  private readonly fast: boolean;
  /** The configured busy_timeout, restored after a migration's own wait (beginImmediateAsync). */
  private readonly busyTimeoutMs: number;
  private readonly clock: Pick<Clock, 'now'>;

  constructor(options: SqliteOptions) {
    this.fast = getFastPaths(options.fastPaths);
    this.clock = options.clock ?? MONOTONIC_CLOCK;
    if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
    this.db = new (loadSqliteDriver())(options.path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
    this.db.pragma('foreign_keys = ON');
    const busyTimeoutMs = Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000));
    this.busyTimeoutMs = busyTimeoutMs;
    this.db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    this.db.function(INSTANT, { deterministic: true }, getInstantKey);
    this.db.exec(`CREATE TABLE IF NOT EXISTS ${META} (key TEXT NOT NULL PRIMARY KEY, value TEXT NOT NULL) STRICT`);
    this.db.exec(
      // Rows are never deleted, so a plain rowid key keeps seq strictly increasing without AUTOINCREMENT's extra write.
      `CREATE TABLE IF NOT EXISTS ${OUTBOX} (seq INTEGER PRIMARY KEY, id TEXT NOT NULL, type TEXT NOT NULL, timestamp TEXT NOT NULL, version TEXT, data TEXT NOT NULL) STRICT`,
    );
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS ${RECORDS} (namespace TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, expires_at TEXT NOT NULL, PRIMARY KEY (namespace, key)) STRICT`,
    );
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS ${CREDENTIALS} (id TEXT NOT NULL PRIMARY KEY, kind TEXT NOT NULL, lookup TEXT NOT NULL, hash TEXT NOT NULL, subject TEXT NOT NULL, scopes TEXT NOT NULL, created_at TEXT NOT NULL, revoked_at TEXT, UNIQUE (kind, lookup)) STRICT`,
    );
    createEventTables(this.db); // events (issue 5)
    this.eventsFullSync = options.synchronous !== 'normal'; // events (issue 5)
    if (options.path !== ':memory:') {
      this.readDb = new (loadSqliteDriver())(options.path, { readonly: true });
      this.readDb.pragma(`busy_timeout = ${busyTimeoutMs}`);
      this.readDb.function(INSTANT, { deterministic: true }, getInstantKey);
    }
  }

  stmt(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  /** Runs `fn` after every transaction queued before it: one connection, one writer at a time. */
  /** Where `deleteExpiredRecords` resumes its walk over the records' rowids. */
  private recordSweepAfter = 0;

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    this.queued++;
    const run = () => fn().finally(() => this.queued--);
    const p = this.queue.then(run, run);
    this.queue = p.catch(() => undefined);
    return p;
  }

  async migrate(plan: StoragePlan, options: MigrateOptions = {}): Promise<MigrationResult> {
    return this.serial(async () => {
      const row = this.stmt(`SELECT value FROM ${META} WHERE key = ?`).get(PLAN_KEY) as { value: string } | undefined;
      let stored: StoragePlan = row ? (JSON.parse(row.value) as StoragePlan) : { tables: [] };
      // migrate (issue 28): `prepare`'s statements, the steps below and `load` are one transaction (the one below nests as a savepoint).
      const prepare = options.prepare;
      const outer = prepare !== undefined || options.load !== undefined;
      let prepared: PreparedMigration = { ok: true, stored };
      if (outer) {
        this.db.pragma('foreign_keys = OFF');
        try {
          await this.beginImmediateAsync();
        } catch (err) {
          this.db.pragma('foreign_keys = ON');
          throw err;
        }
        try {
          // Read again under the lock: another connection may have migrated since.
          const now = this.stmt(`SELECT value FROM ${META} WHERE key = ?`).get(PLAN_KEY) as { value: string } | undefined;
          stored = now ? (JSON.parse(now.value) as StoragePlan) : { tables: [] };
          prepared = prepare ? await prepare(this.migrationSession(), stored) : { ok: true, stored };
        } catch (err) {
          this.db.exec('ROLLBACK');
          this.db.pragma('foreign_keys = ON');
          throw err;
        }
        if (!prepared.ok) {
          this.db.exec('ROLLBACK');
          this.db.pragma('foreign_keys = ON');
          return { ok: false, refusals: prepared.refusals };
        }
        stored = prepared.stored;
      }
      const finish = (commit: boolean) => {
        if (outer && this.db.inTransaction) this.db.exec(commit ? 'COMMIT' : 'ROLLBACK');
      };
      plan = withKeptColumns(stored, plan);
      const { steps, refusals } = diffStoragePlans(stored, plan, prepared);
      if (refusals.length > 0) {
        finish(false);
        this.db.pragma('foreign_keys = ON');
        return { ok: false, refusals };
      }
      const rebuilt = new Set(steps.filter((s) => s.kind === 'rebuild_table').map((s) => s.table));
      const failed: MigrationRefusal[] = [];
      this.db.pragma('foreign_keys = OFF');
      try {
        const tables = byName(plan.tables);
        this.db.transaction(() => {
          for (const step of steps) {
            const t = tables.get(step.table)!;
            if (step.kind === 'create_table') this.db.exec(createTableSql(t));
            else if (step.kind === 'add_column' && !rebuilt.has(t.name)) {
              this.db.exec(`ALTER TABLE ${quoteIdent(t.name)} ADD COLUMN ${columnSql(t.columns.find((c) => c.name === step.column)!)}`);
            } else if (step.kind === 'rebuild_table') {
              const old = stored.tables.find((x) => x.name === t.name)!;
              const shared = old.columns
                .filter((c) => t.columns.some((n) => n.name === c.name))
                .map((c) => quoteIdent(c.name))
                .join(', ');
              const tmp = `${t.name}__rebuild`;
              this.db.exec(createTableSql(t, tmp));
              try {
                this.db.exec(`INSERT INTO ${quoteIdent(tmp)} (${shared}) SELECT ${shared} FROM ${quoteIdent(t.name)}`);
              } catch (err) {
                failed.push({ table: t.name, reason: `existing rows do not satisfy the changed constraints of ${t.name} (${(err as Error).message})` });
                throw err;
              }
              this.db.exec(`DROP TABLE ${quoteIdent(t.name)}`);
              this.db.exec(`ALTER TABLE ${quoteIdent(tmp)} RENAME TO ${quoteIdent(t.name)}`);
            }
          }
          const broken = this.db.pragma('foreign_key_check') as unknown[];
          if (broken.length > 0) {
            failed.push({ table: '*', reason: `${broken.length} rows refer to objects that do not exist` });
            throw new Error('foreign key check failed');
          }
          this.stmt(`INSERT INTO ${META} (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`).run(
            PLAN_KEY,
            JSON.stringify(plan),
          );
        })();
        // db copy (issue 28): the rows, in the same transaction; foreign keys are off in it, so checked once after.
        if (options.load) {
          await options.load(this.copyWriter());
          const broken = this.db.pragma('foreign_key_check') as { table: string }[];
          if (broken.length > 0)
            throw new Error(`${broken.length} rows of ${[...new Set(broken.map((b) => b.table))].join(', ')} refer to rows that do not exist`);
        }
        finish(true);
      } catch (err) {
        finish(false);
        if (failed.length > 0) return { ok: false, refusals: failed };
        throw err;
      } finally {
        this.db.pragma('foreign_keys = ON');
        this.statements.clear();
        this.readStatements.clear();
      }
      this.tables = new Map(plan.tables.map((t) => [t.name, t]));
      this.readerTx = undefined;
      this.syncWriter = undefined;
      return { ok: true, steps };
    });
  }

  /**
   * migrate (issue 28): BEGIN IMMEDIATE without SQLite's busy wait. `prepare` holds the write lock across awaits; a
   * second connection in this process waiting synchronously for it (busy_timeout) would block the thread the
   * holder needs to commit. So a busy lock is retried after a timer, up to the usual 5 s.
   */
  private async beginImmediateAsync(): Promise<void> {
    this.db.pragma('busy_timeout = 0');
    try {
      for (let waited = 0; ; waited += 10) {
        try {
          this.db.exec('BEGIN IMMEDIATE');
          return;
        } catch (err) {
          if ((err as { code?: string }).code !== 'SQLITE_BUSY' || waited >= 5000) throw err;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }
    } finally {
      this.db.pragma(`busy_timeout = ${this.busyTimeoutMs}`);
    }
  }

  /** migrate (issue 28): raw statements on the writer's connection, for `MigrateOptions.prepare`. */
  private migrationSession(): MigrationSession {
    return {
      dialect: 'sqlite',
      query: async (sql, params = []) => {
        const s = this.db.prepare(sql);
        if (s.reader) return s.all(...params) as Row[];
        s.run(...params);
        return [];
      },
      columnSql,
      encode,
    };
  }

  // ---- db copy (issue 28) -------------------------------------------------------------------------------------

  /** One read transaction (WAL: one snapshot) on the read connection, or on the writer's for a database in memory. */
  async readForCopy<T>(work: (reader: CopyReader) => Promise<T>): Promise<T> {
    const db = this.readDb ?? this.db;
    const run = async (): Promise<T> => {
      db.exec('BEGIN');
      try {
        // The snapshot is taken by the first read, here, not by BEGIN.
        db.prepare(`SELECT count(*) FROM ${META}`).get();
        return await work(sqliteCopyReader(db));
      } finally {
        if (db.inTransaction) db.exec('ROLLBACK');
      }
    };
    return this.readDb ? run() : this.serial(run);
  }

  /** Raw rows on the writer's connection, inside `migrate`'s transaction: many rows per INSERT. */
  private copyWriter(): CopyWriter {
    const statements = new Map<string, Database.Statement>();
    const prepare = (sql: string) => {
      let s = statements.get(sql);
      if (!s) statements.set(sql, (s = this.db.prepare(sql)));
      return s;
    };
    return {
      dialect: 'sqlite',
      tables: async () => getSqliteCopyTables(this.db),
      count: async (table) => countSqliteRows(this.db, table),
      clear: async (table) => {
        this.db.prepare(`DELETE FROM ${quoteIdent(table)}`).run();
      },
      continueKeys: async (table, last) => {
        // sqlite_sequence holds AUTOINCREMENT's last key per table; it takes ordinary statements (sqlite.org/autoinc.html).
        const changed = this.db.prepare('UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?').run(last, table).changes;
        if (changed === 0) this.db.prepare('INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)').run(table, last);
      },
      insert: async (t, rows) => {
        const width = Math.max(1, t.columns.length);
        // Under SQLite's 32766 bound parameters a statement; 500 rows a statement is as fast as more.
        const per = Math.max(1, Math.min(500, Math.floor(32_000 / width)));
        const head = `INSERT INTO ${quoteIdent(t.name)} (${t.columns.map((c) => quoteIdent(c.name)).join(', ')}) VALUES `;
        const one = `(${t.columns.map(() => '?').join(', ')})`;
        const bools = t.columns.flatMap((c, i) => (c.type === 'boolean' ? [i] : []));
        for (let at = 0; at < rows.length; at += per) {
          const n = Math.min(per, rows.length - at);
          const values: unknown[] = [];
          for (let r = at; r < at + n; r++) {
            const row = rows[r]!;
            for (let i = 0; i < width; i++) values.push(row[i] ?? null);
            for (const i of bools) {
              const k = values.length - width + i;
              if (values[k] !== null) values[k] = values[k] ? 1 : 0;
            }
          }
          try {
            prepare(head + new Array<string>(n).fill(one).join(', ')).run(values);
          } catch (err) {
            throw new Error(`${t.name}: ${(err as Error).message}`);
          }
        }
      },
    };
  }

  // ---- end of db copy -----------------------------------------------------------------------------------------

  /** Whether a read on the writer's connection now would see only committed rows. */
  private get idle(): boolean {
    return this.readDb !== undefined || (this.queued === 0 && !this.db.inTransaction);
  }

  read<T>(work: (tx: StorageTx) => Promise<T>): Promise<T> {
    // On the read connection, or with nothing queued and no transaction open, a read runs at once; otherwise it
    // waits its turn, so it never sees another transaction's uncommitted rows on the one in-memory connection.
    if (this.idle) return work(this.reader);
    return this.serial(() => work(this.reader));
  }

  readNow(): SyncReader | undefined {
    return this.idle ? this.reader.now : undefined;
  }

  private syncWriter: SyncWriter | undefined;
  /**
   * Statements between the queued transactions (none is open), in autocommit or in one transaction run in this
   * turn: no other work can interleave on the connection, so neither needs the queue.
   */
  writeNow(): SyncWriter | undefined {
    if (this.queued !== 0 || this.db.inTransaction) return undefined;
    if (!this.syncWriter) {
      const tx = new SqliteTx(this.prepareWrite, this.tables, this.fast);
      const begin = this.stmt('BEGIN IMMEDIATE');
      const commit = this.stmt('COMMIT');
      const rollback = this.stmt('ROLLBACK');
      this.syncWriter = {
        insert: (table, row) => tx.insertNow(table, row),
        insertStored: (table, row) => tx.insertNow(table, row, true),
        claimRecord: (namespace, key, value, expiresAt, now) => claimRecordWith(this.prepareWrite, namespace, key, value, expiresAt, now),
        transaction: <T>(work: () => T): T => {
          begin.run();
          try {
            const out = work();
            commit.run();
            return out;
          } catch (err) {
            if (this.db.inTransaction) rollback.run();
            throw err;
          }
        },
      };
    }
    return this.syncWriter;
  }

  transaction<T>(work: (tx: StorageTx) => Promise<T>, signal?: AbortLike): Promise<T> {
    return this.serial(
      () =>
        new Promise<T>((resolve, reject) => {
          signal?.throwIfAborted();
          this.stmt('BEGIN IMMEDIATE').run();
          const tx = new SqliteTx(this.prepareWrite, this.tables, this.fast);
          let settled = false;
          const end = (): boolean => {
            if (settled) return false;
            settled = true;
            tx.end();
            signal?.removeEventListener?.('abort', onAbort);
            return true;
          };
          const fail = (err: unknown) => {
            if (this.db.inTransaction) this.stmt('ROLLBACK').run();
            reject(err);
          };
          // Rolled back the moment the signal aborts, so a transaction that awaits past its time-out holds the
          // writer no longer than that; the work's later statements are refused (tx.end).
          function onAbort(): void {
            if (!end()) return;
            try {
              signal!.throwIfAborted();
              fail(new Error('the transaction was aborted'));
            } catch (err) {
              fail(err);
            }
          }
          signal?.addEventListener?.('abort', onAbort);
          let running: Promise<T>;
          try {
            running = work(tx);
          } catch (err) {
            running = Promise.reject(err);
          }
          running.then(
            (result) => {
              if (!end()) return;
              try {
                signal?.throwIfAborted();
                this.stmt('COMMIT').run();
                resolve(result);
              } catch (err) {
                fail(err);
              }
            },
            (err: unknown) => {
              if (end()) fail(err);
            },
          );
        }),
    );
  }

  async readEvents(afterSeq: number, limit: number): Promise<OutboxEntry[]> {
    return this.readCommitted((stmt) => {
      const rows = stmt(`SELECT seq, id, type, timestamp, version, data FROM ${OUTBOX} WHERE seq > ? ORDER BY seq LIMIT ?`).all(afterSeq, limit) as (Omit<
        OutboxEntry,
        'data' | 'version'
      > & { data: string; version: string | null })[];
      return rows.map((r) => {
        const e: OutboxEntry = { seq: r.seq, id: r.id, type: r.type, timestamp: r.timestamp, data: JSON.parse(r.data) };
        if (r.version !== null) e.version = r.version;
        return e;
      });
    });
  }

  async insertCredential(r: CredentialRecord): Promise<void> {
    await this.serial(async () => {
      this.clearCredentialCache();
      this.stmt(`INSERT INTO ${CREDENTIALS} (${CREDENTIAL_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`).run(...credentialValues(r));
    });
  }

  async findCredential(kind: CredentialRecord['kind'], lookup: string): Promise<CredentialRecord | undefined> {
    return this.findCredentialNow(kind, lookup);
  }

  findCredentialNow(kind: CredentialRecord['kind'], lookup: string): CredentialRecord | undefined {
    // Credentials are read on every request. They are cached until the database changes under us:
    // PRAGMA data_version moves when another connection (`servicespec keys revoke`, another instance)
    // commits, and this connection's own changes clear the cache. The pragma costs as much as the lookup it
    // saves (it opens a read transaction), so it is read at most once a millisecond: a revocation made by
    // another process holds for every request that arrives a millisecond after it committed.
    const t = this.clock.now();
    if (t - this.credentialCheckedAt >= 1) {
      const version = this.stmt('PRAGMA data_version').pluck().get() as number;
      if (version !== this.credentialVersion) {
        this.clearCredentialCache();
        this.credentialVersion = version;
      }
      this.credentialCheckedAt = t;
    }
    let byLookup = this.credentialCache.get(kind);
    if (!byLookup) {
      byLookup = new Map();
      this.credentialCache.set(kind, byLookup);
    }
    const cached = byLookup.get(lookup);
    if (cached !== undefined) return cached ?? undefined;
    const row = this.stmt(`SELECT * FROM ${CREDENTIALS} WHERE kind = ? AND lookup = ?`).get(kind, lookup) as CredentialRow | undefined;
    const record = row && toCredential(row);
    if (++this.credentialCached > 10_000) this.clearCredentialCache();
    byLookup.set(lookup, record ?? null);
    return record;
  }

  private clearCredentialCache(): void {
    this.credentialCache.clear();
    this.credentialCached = 0;
  }

  async listCredentials(kind: CredentialRecord['kind']): Promise<CredentialRecord[]> {
    return (this.stmt(`SELECT * FROM ${CREDENTIALS} WHERE kind = ? ORDER BY created_at, id`).all(kind) as CredentialRow[]).map(toCredential);
  }

  async revokeCredential(kind: CredentialRecord['kind'], id: string, at: string): Promise<boolean> {
    return this.serial(async () => {
      const changed = this.stmt(`UPDATE ${CREDENTIALS} SET revoked_at = COALESCE(revoked_at, ?) WHERE kind = ? AND id = ?`).run(at, kind, id).changes > 0;
      this.clearCredentialCache();
      return changed;
    });
  }

  async claimRecord(namespace: string, key: string, value: string, expiresAt: string, now: string): Promise<{ created: boolean; value: string }> {
    return this.serial(async () => claimRecordWith((sql) => this.stmt(sql), namespace, key, value, expiresAt, now));
  }

  async putRecord(namespace: string, key: string, value: string, expiresAt: string): Promise<void> {
    await this.serial(async () => putRecordWith((sql) => this.stmt(sql), namespace, key, value, expiresAt));
  }

  findRecordNow(namespace: string, key: string, now: string): string | undefined {
    // On the writer's connection while it is free (it reads the last commit, as the reader does): its page cache
    // survives its own commits, where the read connection's is dropped by each (a keyed create commits the record
    // it then looks up: ~25 µs a lookup on the read connection under creates).
    const free = this.queued === 0 && !this.db.inTransaction;
    const prepare = free ? this.prepareWrite : this.readDb ? this.prepareRead : undefined;
    const row = prepare?.(`SELECT value FROM ${RECORDS} WHERE namespace = ? AND key = ? AND expires_at > ?`).get(namespace, key, now) as
      { value: string } | undefined;
    return row?.value;
  }

  async deleteRecord(namespace: string, key: string): Promise<void> {
    await this.serial(async () => {
      this.stmt(`DELETE FROM ${RECORDS} WHERE namespace = ? AND key = ?`).run(namespace, key);
    });
  }

  async deleteExpiredRecords(now: string, limit: number): Promise<number> {
    return this.serial(async () => {
      const from = this.recordSweepAfter;
      const deleted = this.stmt(`DELETE FROM ${RECORDS} WHERE rowid > ? AND rowid <= ? AND expires_at <= ?`).run(from, from + limit, now).changes;
      const last = (this.stmt(`SELECT max(rowid) AS last FROM ${RECORDS}`).get() as { last: number | null }).last ?? 0;
      this.recordSweepAfter = from + limit >= last ? 0 : from + limit;
      return deleted;
    });
  }

  async getSetting(key: string): Promise<string | undefined> {
    return (this.stmt(`SELECT value FROM ${META} WHERE key = ?`).get(`setting:${key}`) as { value: string } | undefined)?.value;
  }

  async claimSetting(key: string, value: string): Promise<string> {
    return this.serial(async () => {
      this.stmt(`INSERT INTO ${META} (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING`).run(`setting:${key}`, value);
      return (this.stmt(`SELECT value FROM ${META} WHERE key = ?`).get(`setting:${key}`) as { value: string }).value;
    });
  }

  async setSetting(key: string, value: string): Promise<void> {
    await this.serial(async () => {
      this.stmt(`INSERT INTO ${META} (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`).run(`setting:${key}`, value);
    });
  }

  // ---- events (issue 5): webhook endpoints and their delivery queue ---------------------------------------------
  // Reads on the writer's connection go through `serial` too: a read between another transaction's statements
  // would see its uncommitted outbox rows. Outbox reads use the read connection where there is one.

  /**
   * Runs queue bookkeeping (fan-out, leases, outcomes) with synchronous=NORMAL: losing it to a power cut only
   * repeats work (a delivery is attempted again, with the same webhook-id, which at-least-once allows), so it
   * need not wait for its own fsync; the next FULL commit makes it durable too. Called inside `serial` only.
   */
  private relaxed<T>(fn: () => T): T {
    if (!this.eventsFullSync) return fn();
    this.stmt('PRAGMA synchronous = NORMAL').run();
    try {
      return fn();
    } finally {
      this.stmt('PRAGMA synchronous = FULL').run();
    }
  }

  /** A read of committed rows: at once on the read connection, else in its turn on the one in-memory connection. */
  private readCommitted<T>(fn: (prepare: (sql: string) => Database.Statement) => T): Promise<T> {
    if (!this.readDb) return this.serial(async () => fn(this.prepareWrite));
    try {
      return Promise.resolve(fn(this.prepareRead));
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }

  async readOutbox(afterSeq: number, limit: number, types?: readonly string[]): Promise<OutboxEntry[]> {
    return this.readCommitted((stmt) => {
      const filter = types && types.length > 0 ? ` AND type IN (${types.map(() => '?').join(', ')})` : '';
      const rows = stmt(`SELECT seq, id, type, timestamp, version, data FROM ${OUTBOX} WHERE seq > ?${filter} ORDER BY seq LIMIT ?`).all(
        afterSeq,
        ...(types && types.length > 0 ? types : []),
        limit,
      ) as OutboxRow[];
      return rows.map(toOutboxEntry);
    });
  }

  async lastOutboxSeq(): Promise<number> {
    return this.readCommitted((stmt) => (stmt(`SELECT COALESCE(MAX(seq), 0) AS seq FROM ${OUTBOX}`).get() as { seq: number }).seq);
  }

  async insertWebhookEndpoint(r: Omit<WebhookEndpointRecord, 'afterSeq'>): Promise<WebhookEndpointRecord> {
    return this.serial(async () => {
      const afterSeq = (this.stmt(`SELECT COALESCE(MAX(seq), 0) AS seq FROM ${OUTBOX}`).get() as { seq: number }).seq;
      this.stmt(`INSERT INTO ${WEBHOOKS} (${WEBHOOK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(...webhookValues(r, afterSeq));
      return { ...r, afterSeq };
    });
  }

  async getWebhookEndpoint(id: string): Promise<WebhookEndpointRecord | undefined> {
    return this.serial(async () => {
      const row = this.stmt(`SELECT * FROM ${WEBHOOKS} WHERE id = ?`).get(id) as WebhookRow | undefined;
      return row && toEndpoint(row);
    });
  }

  async listWebhookEndpoints(): Promise<WebhookEndpointRecord[]> {
    return this.serial(async () => (this.stmt(`SELECT * FROM ${WEBHOOKS} ORDER BY created_at, id`).all() as WebhookRow[]).map(toEndpoint));
  }

  async setWebhookSecrets(id: string, secrets: readonly WebhookSecret[]): Promise<boolean> {
    return this.serial(async () => this.stmt(`UPDATE ${WEBHOOKS} SET secrets = ? WHERE id = ?`).run(JSON.stringify(secrets), id).changes > 0);
  }

  async setWebhookDisabled(id: string, disabled: { at: string; reason: string } | undefined): Promise<boolean> {
    return this.serial(async () =>
      this.db.transaction(() => {
        const changed =
          this.stmt(`UPDATE ${WEBHOOKS} SET disabled_at = ?, disabled_reason = ? WHERE id = ?`).run(disabled?.at ?? null, disabled?.reason ?? null, id)
            .changes > 0;
        if (changed && disabled) {
          this.stmt(`UPDATE ${DELIVERIES} SET status = 'dead', last_error = ?, updated_at = ? WHERE endpoint = ? AND status = 'pending'`).run(
            `endpoint disabled: ${disabled.reason}`,
            disabled.at,
            id,
          );
        }
        return changed;
      })(),
    );
  }

  async deleteWebhookEndpoint(id: string): Promise<boolean> {
    return this.serial(async () =>
      this.db.transaction(() => {
        this.stmt(`DELETE FROM ${DELIVERIES} WHERE endpoint = ?`).run(id);
        return this.stmt(`DELETE FROM ${WEBHOOKS} WHERE id = ?`).run(id).changes > 0;
      })(),
    );
  }

  async fanOutEvents(now: number, limit: number, visible?: (access: WebhookAccess, type: string, data: unknown) => boolean): Promise<number> {
    return this.serial(async () => {
      const endpoints = (
        this.stmt(`SELECT id, kinds, after_seq, subject, access FROM ${WEBHOOKS} WHERE disabled_at IS NULL`).all() as Pick<
          WebhookRow,
          'id' | 'kinds' | 'after_seq' | 'subject' | 'access'
        >[]
      ).map(toFanOutEndpoint);
      // No endpoint: nothing to queue, and nothing to write (an endpoint registered later starts after its afterSeq).
      if (endpoints.length === 0) return 0;
      return this.relaxed(() =>
        this.db.transaction(() => {
          const stored = this.stmt(`SELECT value FROM ${META} WHERE key = ?`).get(FANOUT_KEY) as { value: string } | undefined;
          const cursor = getFanOutCursor(stored?.value, endpoints);
          const rows = this.stmt(`SELECT ${getFanOutColumns(endpoints, visible)} FROM ${OUTBOX} WHERE seq > ? ORDER BY seq LIMIT ?`).all(cursor, limit) as {
            seq: number;
            id: string;
            type: string;
            data?: string;
          }[];
          if (rows.length === 0) return 0;
          const at = new Date(now).toISOString();
          const queue = this.stmt(
            `INSERT OR IGNORE INTO ${DELIVERIES} (seq, endpoint, event_id, event_type, status, attempts, next_at, updated_at) VALUES (?, ?, ?, ?, 'pending', 0, ?, ?)`,
          );
          const targets = getFanOutTargets(rows, endpoints, visible);
          for (let i = 0; i < targets.seqs.length; i++) queue.run(targets.seqs[i], targets.endpoints[i], targets.eventIds[i], targets.types[i], now, at);
          this.stmt(`INSERT INTO ${META} (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`).run(
            FANOUT_KEY,
            String(rows[rows.length - 1]!.seq),
          );
          return rows.length;
        })(),
      );
    });
  }

  async claimDeliveries(now: number, leaseMs: number, limit: number): Promise<ClaimedDelivery[]> {
    return this.serial(async () =>
      this.relaxed(() =>
        this.db.transaction(() => {
          const rows = this.stmt(
            `${CLAIM_JOIN}
           WHERE d.status = 'pending' AND d.next_at <= ? AND w.disabled_at IS NULL ORDER BY d.next_at, d.seq LIMIT ?`,
          ).all(now, limit) as ClaimRow[];
          const lease = this.stmt(`UPDATE ${DELIVERIES} SET next_at = ? WHERE seq = ? AND endpoint = ?`);
          for (const r of rows) lease.run(now + leaseMs, r.seq, r.endpoint);
          return rows.map((r): ClaimedDelivery => toClaimedDelivery(r, now + leaseMs));
        })(),
      ),
    );
  }

  async finishDelivery(seq: number, endpointId: string, outcome: DeliveryOutcome): Promise<void> {
    await this.finishDeliveries([{ seq, endpointId, outcome }]);
  }

  async finishDeliveries(list: readonly { seq: number; endpointId: string; outcome: DeliveryOutcome }[]): Promise<void> {
    if (list.length === 0) return;
    await this.serial(async () =>
      this.relaxed(() =>
        this.db.transaction(() => {
          const update = this.stmt(
            `UPDATE ${DELIVERIES} SET status = ?, attempts = ?, next_at = ?, last_status = ?, last_error = ?, updated_at = ?, delivered_at = CASE WHEN ? = 'delivered' THEN ? ELSE delivered_at END WHERE seq = ? AND endpoint = ? AND status = 'pending'`,
          );
          for (const { seq, endpointId, outcome: o } of list)
            update.run(o.status, o.attempts, o.nextAttemptAt, o.lastStatus ?? null, o.lastError ?? null, o.at, o.status, o.at, seq, endpointId);
        })(),
      ),
    );
  }

  async nextDeliveryAt(): Promise<number | undefined> {
    return this.serial(async () => {
      const row = this.stmt(
        `SELECT MIN(d.next_at) AS next FROM ${DELIVERIES} d JOIN ${WEBHOOKS} w ON w.id = d.endpoint WHERE d.status = 'pending' AND w.disabled_at IS NULL`,
      ).get() as { next: number | null };
      return row.next ?? undefined;
    });
  }

  async listDeliveries(f: DeliveryFilter): Promise<DeliveryRecord[]> {
    return this.serial(async () => {
      const params: unknown[] = [];
      const where = deliveryWhere(f, SQLITE, params);
      return (this.stmt(`SELECT * FROM ${DELIVERIES}${where} ORDER BY seq DESC, endpoint LIMIT ?`).all(...params, f.limit ?? 100) as DeliveryRow[]).map(
        toDelivery,
      );
    });
  }

  async replayDeliveries(f: Omit<DeliveryFilter, 'status' | 'limit'>, now: number, at: string): Promise<number> {
    return this.serial(async () => {
      const params: unknown[] = [now, at];
      const where = deliveryWhere({ ...f, status: 'dead' }, SQLITE, params);
      return this.stmt(
        `UPDATE ${DELIVERIES} SET status = 'pending', attempts = 0, next_at = ?, last_error = NULL, last_status = NULL, updated_at = ?${where}`,
      ).run(...params).changes;
    });
  }

  // ---- end of events ------------------------------------------------------------------------------------------

  /** The engine's own integrity check; "ok" when the file is sound. */
  integrityCheck(): string {
    return String(this.db.pragma('integrity_check', { simple: true }));
  }

  async close(): Promise<void> {
    await this.queue;
    if (this.readDb?.open) this.readDb.close();
    if (this.db.open) this.db.close();
  }
}

// ---- db copy (issue 28): the catalogue and the reader ----------------------------------------------------------

const SQLITE_COPY_TYPES: Record<string, ColumnPlan['type']> = { TEXT: 'text', INTEGER: 'integer', REAL: 'real' };

/**
 * Every table of the database, from SQLite's own catalogue; a resource's columns typed by the storage plan it
 * records (a boolean is an INTEGER here, JSON a TEXT), servicespec's own by their declared types.
 */
function getSqliteCopyTables(db: Database.Database): CopyTable[] {
  const row = db.prepare(`SELECT value FROM ${META} WHERE key = ?`).get(PLAN_KEY) as { value: string } | undefined;
  const planned = byName((row ? (JSON.parse(row.value) as StoragePlan) : { tables: [] }).tables);
  const names = db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name`)
    .pluck()
    .all() as string[];
  return names.map((name) => {
    const plan = planned.get(name);
    const columns = db.prepare(`PRAGMA table_info(${quoteIdent(name)})`).all() as { name: string; type: string }[];
    return {
      name,
      columns: columns.map((c) => ({
        name: c.name,
        type: plan?.columns.find((x) => x.name === c.name)?.type ?? SQLITE_COPY_TYPES[c.type.toUpperCase()] ?? 'text',
      })),
    };
  });
}

function countSqliteRows(db: Database.Database, table: string): number {
  return Number(
    db
      .prepare(`SELECT count(*) FROM ${quoteIdent(table)}`)
      .pluck()
      .get(),
  );
}

/** Rows in rowid order (an outbox's rowid is its position), a batch a statement resuming after the last rowid. */
function sqliteCopyReader(db: Database.Database): CopyReader {
  return {
    tables: async () => getSqliteCopyTables(db),
    count: async (table) => countSqliteRows(db, table),
    lastKeys: async () => {
      const has = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'`).get() !== undefined;
      const rows = has ? (db.prepare('SELECT name, seq FROM sqlite_sequence').all() as { name: string; seq: number }[]) : [];
      return new Map(rows.map((r) => [r.name, Number(r.seq)]));
    },
    rows: async function* (t, size) {
      const cols = t.columns.map((c) => quoteIdent(c.name)).join(', ');
      const from = `SELECT rowid, ${cols} FROM ${quoteIdent(t.name)}`;
      const first = db.prepare(`${from} ORDER BY rowid LIMIT ?`).raw(true);
      const next = db.prepare(`${from} WHERE rowid > ? ORDER BY rowid LIMIT ?`).raw(true);
      const bools = t.columns.flatMap((c, i) => (c.type === 'boolean' ? [i] : []));
      let after: unknown;
      for (let started = false; ; started = true) {
        // Read in a later turn: a writer's statement sent just before (PostgreSQL) runs while this batch is read.
        await new Promise<void>((done) => setImmediate(done));
        const raw = (started ? next.all(after, size) : first.all(size)) as unknown[][];
        if (raw.length === 0) return;
        after = raw[raw.length - 1]![0];
        const out = new Array<CopyRow>(raw.length);
        for (let r = 0; r < raw.length; r++) {
          const row = raw[r]!.slice(1);
          for (const i of bools) if (row[i] !== null) row[i] = row[i] === 1;
          out[r] = row;
        }
        yield out;
        if (raw.length < size) return;
      }
    },
  };
}

// ---- events (issue 5): tables and row mapping -------------------------------------------------------------------

function createEventTables(db: Database.Database): void {
  db.exec(
    `CREATE TABLE IF NOT EXISTS ${WEBHOOKS} (id TEXT NOT NULL PRIMARY KEY, url TEXT NOT NULL, kinds TEXT CHECK (kinds IS NULL OR json_valid(kinds)), description TEXT, subject TEXT, access TEXT CHECK (access IS NULL OR json_valid(access)), secrets TEXT NOT NULL CHECK (json_valid(secrets)), created_at TEXT NOT NULL, disabled_at TEXT, disabled_reason TEXT, after_seq INTEGER NOT NULL) STRICT`,
  );
  // Tables made before endpoints stored who registered them gain the column (null: see toAccess).
  const columns = db.prepare(`PRAGMA table_info(${WEBHOOKS})`).all() as { name: string }[];
  if (!columns.some((c) => c.name === 'access')) db.exec(`ALTER TABLE ${WEBHOOKS} ADD COLUMN access TEXT CHECK (access IS NULL OR json_valid(access))`);
  db.exec(
    `CREATE TABLE IF NOT EXISTS ${DELIVERIES} (seq INTEGER NOT NULL, endpoint TEXT NOT NULL REFERENCES ${WEBHOOKS} (id) ON DELETE CASCADE, event_id TEXT NOT NULL, event_type TEXT NOT NULL, status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'dead')), attempts INTEGER NOT NULL, next_at INTEGER NOT NULL, last_status INTEGER, last_error TEXT, updated_at TEXT NOT NULL, delivered_at TEXT, PRIMARY KEY (seq, endpoint)) STRICT`,
  );
  db.exec(`CREATE INDEX IF NOT EXISTS ${DELIVERIES}_due ON ${DELIVERIES} (status, next_at)`);
  db.exec(`CREATE INDEX IF NOT EXISTS ${DELIVERIES}_event ON ${DELIVERIES} (event_id)`);
}

// ---- end of events ------------------------------------------------------------------------------------------------

export function createSqliteStorage(options: SqliteOptions): SqliteStorage {
  return new SqliteStorage(options);
}
