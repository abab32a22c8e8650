// PostgreSQL storage: many stateless instances on one database. The guarantees are those of storage-types.ts;
// how each is kept here: outbox positions given after commit by one sequencer at a time (an advisory lock held to
// its COMMIT), fan-out under an advisory lock, deliveries claimed with FOR UPDATE SKIP LOCKED, migrations under
// pg_advisory_xact_lock, and LISTEN/NOTIFY as the doorbell for other instances' outbox and credential changes.
import { createHash, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type pg from 'pg';
import { MONOTONIC_CLOCK, type Clock } from '../../util/util-clock.js';
import { getStorageFault, StorageUnavailableError } from './storage-faults.js';
import { getInstantKeySql } from './storage-instant.js';
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
  type ClaimedDelivery,
  type ColumnPlan,
  type CopyColumn,
  type CopyReader,
  type CopyRow,
  type CopyTable,
  type CopyWriter,
  type CredentialRecord,
  type DeliveryFilter,
  type DeliveryOutcome,
  type DeliveryRecord,
  type ListQuery,
  type MigrationRefusal,
  type MigrateOptions,
  type MigrationResult,
  type MigrationSession,
  type PreparedMigration,
  type ReadOptions,
  type OutboxEntry,
  type Row,
  type Storage,
  type StorageChange,
  type StoragePlan,
  type StorageTx,
  type StoredEvent,
  type TablePlan,
  type WebhookAccess,
  type WebhookEndpointRecord,
  type WebhookSecret,
} from './storage-types.js';

export interface PostgresOptions {
  /** postgres://user@host:port/db; `?schema=NAME` keeps every table in that schema (created when missing). */
  url: string;
  /** Connections in the pool (pg's default, 10, when not given). */
  poolSize?: number;
  /** How long a statement waits for a pooled connection before it is answered `unavailable` (pg's default, no limit, when not given). */
  connectTimeoutMs?: number;
  /** How long a transaction may stay open before the server or the storage ends it (default one minute). */
  openTransactionMs?: number;
  /**
   * The outbox sequencer starts a run no sooner than this long after the previous run started (default 10 ms): under
   * load, events are given their positions in batches that many milliseconds apart; when runs are further apart than
   * this, a run starts at once. 0: every run starts as soon as the previous one ends.
   */
  sequencerIntervalMs?: number;
  /** Times the sequencer's interval (monotonic system time by default; tests move their own by hand). */
  clock?: Clock;
}

/**
 * Connections of the delivery worker's own, besides the pool's: one each for its claims, its outcomes (written one
 * batch at a time) and its fan-out, so a due claim never waits for the other two (measured under load: with two, a
 * retry's lag p50 was 0.8 s; with more, 0.2 s; bench/RESULTS.md).
 */
const BACKGROUND_CONNECTIONS = 3;
const SEQUENCE = '_servicespec_sequence_outbox';
/** How long a transaction may stay open before it is ended (the server's idle_in_transaction_session_timeout too). */
const OPEN_TRANSACTION_MS = 60_000;
const SEQUENCER_INTERVAL_MS = 10;

/** A text column compares byte-wise, as SQLite's BINARY does, so keyset pages agree with ORDER BY on both engines. */
const PG_TYPES: Record<ColumnPlan['type'], string> = {
  text: 'TEXT COLLATE "C"',
  integer: 'BIGINT',
  real: 'DOUBLE PRECISION',
  boolean: 'BOOLEAN',
  json: 'JSON',
};

/**
 * A key holding U+0000 names no row: PostgreSQL's text cannot hold it, so none was stored, and sending it would fail
 * the statement (and the transaction) where SQLite answers "no such row" (a path's `%00`, a malformed id).
 */
function holdsNul(id: unknown): boolean {
  return typeof id === 'string' && id.includes('\u0000');
}

/** A filter value holding U+0000 (a string, or within an array's or object's strings) matches no stored row, as a key. */
function filtersNul(equals: Readonly<Record<string, unknown>>): boolean {
  for (const name in equals) {
    const v = equals[name];
    if (holdsNul(v) || (typeof v === 'object' && v !== null && JSON.stringify(v).includes('\\u0000'))) return true;
  }
  return false;
}

function columnChecks(c: ColumnPlan): string[] {
  return pushValueChecks([], c, 'char_length');
}

/** Constraint names carry the column, so a violation names it: `<table>__<column>__<kind>`. */
function constraintName(t: string, c: string, kind: string): string {
  const name = `${t}__${c}__${kind}`;
  return name.length <= 63 ? name : `${createHash('sha256').update(name).digest('hex').slice(0, 20)}__${kind}`;
}

function columnSql(c: ColumnPlan): string {
  const parts = [quoteIdent(c.name), PG_TYPES[c.type]];
  if (c.primaryKey) parts.push(c.autoIncrement ? 'GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY' : 'NOT NULL PRIMARY KEY');
  else if (c.notNull) parts.push('NOT NULL');
  return parts.join(' ');
}

/**
 * Renames in place each of the table's unique, check and foreign key constraints to the name `constraintName` gives
 * it now (after `ALTER TABLE … RENAME` of the table or a column, which keep the old names): the name is read back
 * from the constraint's own columns (`conkey`, in its key's order), so nothing is dropped and no row is read.
 */
async function nameConstraints(db: pg.PoolClient, table: string): Promise<void> {
  const KINDS: Readonly<Record<string, string>> = { u: 'key', c: 'check', f: 'fkey' };
  const own = (
    await db.query(
      `SELECT c.conname AS name, c.contype AS type, array_agg(a.attname::text ORDER BY k.n) AS columns
         FROM pg_constraint c
         CROSS JOIN LATERAL unnest(c.conkey) WITH ORDINALITY AS k(attnum, n)
         JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
        WHERE c.conrelid = $1::regclass AND c.contype IN ('u', 'c', 'f')
        GROUP BY c.conname, c.contype`,
      [quoteIdent(table)],
    )
  ).rows as { name: string; type: string; columns: string[] }[];
  for (const c of own) {
    const wanted = constraintName(table, c.columns.join('+'), KINDS[c.type]!);
    if (c.name !== wanted) await db.query(`ALTER TABLE ${quoteIdent(table)} RENAME CONSTRAINT ${quoteIdent(c.name)} TO ${quoteIdent(wanted)}`);
  }
}

/** The table's constraints other than the primary key and NOT NULL, each named (see `constraintName`). */
function constraintsSql(t: TablePlan): string[] {
  const out: string[] = [];
  for (const c of t.columns) {
    if (c.unique) out.push(`CONSTRAINT ${quoteIdent(constraintName(t.name, c.name, 'key'))} UNIQUE (${quoteIdent(c.name)})`);
    const checks = columnChecks(c);
    if (checks.length > 0) out.push(`CONSTRAINT ${quoteIdent(constraintName(t.name, c.name, 'check'))} CHECK (${checks.join(' AND ')})`);
    if (c.references) {
      out.push(
        `CONSTRAINT ${quoteIdent(constraintName(t.name, c.name, 'fkey'))} FOREIGN KEY (${quoteIdent(c.name)}) REFERENCES ${quoteIdent(c.references.table)} (${quoteIdent(c.references.column)})`,
      );
    }
  }
  for (const k of t.uniqueKeys ?? []) out.push(`CONSTRAINT ${quoteIdent(constraintName(t.name, k.join('+'), 'key'))} UNIQUE (${k.map(quoteIdent).join(', ')})`);
  return out;
}

function createTableSql(t: TablePlan): string {
  return `CREATE TABLE ${quoteIdent(t.name)} (\n  ${[...t.columns.map(columnSql), ...constraintsSql(t)].join(',\n  ')}\n)`;
}

/** PostgreSQL's SQLSTATE as the runtime's kinds: 23505 unique, 23503 reference, other integrity or data errors a failed check. */
function mapConstraintError(err: unknown, t?: TablePlan): unknown {
  const e = err as { code?: string; constraint?: string; column?: string; detail?: string };
  if (typeof e?.code !== 'string' || !(e.code.startsWith('23') || e.code.startsWith('22'))) return err;
  let column = e.column ?? /^Key \((?:"?)([^)",]+)/.exec(e.detail ?? '')?.[1];
  if (column === undefined && e.constraint !== undefined && t) column = t.columns.find((c) => e.constraint!.startsWith(`${t.name}__${c.name}__`))?.name;
  if (e.code === '23505') return new StorageConstraintError('unique_conflict', column);
  if (e.code === '23503') return new StorageConstraintError('reference_not_found', column);
  return new StorageConstraintError('check_failed', column);
}

function encode(c: ColumnPlan, v: unknown): unknown {
  if (v === undefined || v === null) return null;
  if (c.type === 'json') return JSON.stringify(v);
  return v;
}

/** PostgreSQL's side of the statements built in storage-shared.ts: `$n` placeholders, JSON compared as jsonb. */
const POSTGRES: SqlDialect = {
  param(params, v) {
    params.push(v);
    return `$${params.length}`;
  },
  encode,
  absent: true,
  instantKey: getInstantKeySql,
  equals: (c, col, ph) => (c.type === 'json' ? `${col}::jsonb = ${ph}::jsonb` : `${col} = ${ph}`),
};

const selectLists = new WeakMap<TablePlan, string>();

/** The plan's columns, named: never `*`, so a column another instance added does not change a prepared statement's result. */
function columnList(t: TablePlan): string {
  let list = selectLists.get(t);
  if (list === undefined) {
    list = t.columns.map((c) => quoteIdent(c.name)).join(', ');
    selectLists.set(t, list);
  }
  return list;
}

const insertStatements = new WeakMap<TablePlan, Map<string, string>>();

/** The INSERT of the columns `key` marks ('1' for each column of the plan that is given), built once per table and key. */
function insertSql(t: TablePlan, key: string): string {
  let byKey = insertStatements.get(t);
  if (byKey === undefined) insertStatements.set(t, (byKey = new Map()));
  let sql = byKey.get(key);
  if (sql === undefined) {
    const cols = t.columns.filter((_, i) => key[i] === '1');
    sql = cols.length
      ? `INSERT INTO ${quoteIdent(t.name)} (${cols.map((c) => quoteIdent(c.name)).join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING ${columnList(t)}`
      : `INSERT INTO ${quoteIdent(t.name)} DEFAULT VALUES RETURNING ${columnList(t)}`;
    byKey.set(key, sql);
  }
  return sql;
}

function decodeRow(t: TablePlan, raw: Row): Row {
  const out: Row = {};
  for (const c of t.columns) {
    if (c.absentOf !== undefined) {
      // NULL with its absence column set: never given (undefined), not null.
      if (raw[c.name] === true && (raw[c.absentOf] === null || raw[c.absentOf] === undefined)) out[c.absentOf] = undefined;
      continue;
    }
    const v = raw[c.name];
    out[c.name] = v === undefined ? null : v;
  }
  return out;
}

const require = createRequire(import.meta.url);
let driver: typeof pg | undefined;

/** node-postgres, loaded when a PostgreSQL storage is first opened, so commands that never open one do not pay for it. */
function loadPg(): typeof pg {
  driver ??= require('pg') as typeof pg;
  return driver;
}

/** int8 (counts, identity keys, ms timestamps) as a number; the ids the runtime stores fit in 2^53. */
function getTypes(): pg.CustomTypesConfig {
  const types = loadPg().types;
  return {
    getTypeParser: ((oid: number, format?: string) =>
      oid === 20 ? (v: string) => Number(v) : types.getTypeParser(oid, format as 'text')) as typeof types.getTypeParser,
  };
}

/** Where a statement runs: a checked-out connection (a transaction), or the pool (see `PostgresStorage.pooled`). */
interface Queryable {
  query(config: pg.QueryConfig): Promise<pg.QueryResult>;
}

/** The outbox append of a transaction's events, its last statement before COMMIT. */
function outboxInsert(ev: readonly StoredEvent[]): { sql: string; params: unknown[] } {
  if (ev.length === 1) {
    const one = ev[0]!;
    return {
      sql: `INSERT INTO ${OUTBOX} (id, type, timestamp, version, data) VALUES ($1, $2, $3, $4, $5)`,
      params: [one.id, one.type, one.timestamp, one.version ?? null, JSON.stringify(one.data)],
    };
  }
  return {
    sql: `INSERT INTO ${OUTBOX} (id, type, timestamp, version, data) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])`,
    params: [ev.map((e) => e.id), ev.map((e) => e.type), ev.map((e) => e.timestamp), ev.map((e) => e.version ?? null), ev.map((e) => JSON.stringify(e.data))],
  };
}

/** idle_in_transaction_session_timeout ended the session. */
const IDLE_IN_TRANSACTION_TIMEOUT = '25P03';

class PgTx implements StorageTx {
  readonly events: StoredEvent[] = [];

  constructor(
    private readonly s: PostgresStorage,
    private readonly db: Queryable,
    private readonly tables: ReadonlyMap<string, TablePlan>,
    /** Inside a write transaction: rows read are locked until the commit. */
    private readonly writing: boolean,
  ) {}

  private table(name: string): TablePlan {
    const t = this.tables.get(name);
    if (!t) throw new Error(`no table for resource ${name}`);
    return t;
  }

  async insert(table: string, row: Row): Promise<Row> {
    const t = this.table(table);
    // The statement for this set of given columns is built once (see insertSql).
    let key = '';
    const params: unknown[] = [];
    for (const c of t.columns) {
      // Own properties only: a field may be named after a member of Object.prototype (`constructor`).
      const v = Object.hasOwn(row, c.absentOf ?? c.name) ? row[c.absentOf ?? c.name] : undefined;
      if (c.absentOf !== undefined) {
        // The absence column is set where its field is not given.
        if (v === undefined) {
          key += '1';
          params.push(true);
        } else key += '0';
      } else if (v === undefined) key += '0';
      else {
        key += '1';
        params.push(encode(c, v));
      }
    }
    const sql = insertSql(t, key);
    try {
      const out = await this.s.query(this.db, sql, params);
      return decodeRow(t, out.rows[0] as Row);
    } catch (err) {
      throw mapConstraintError(err, t);
    }
  }

  async get(table: string, id: unknown): Promise<Row | undefined> {
    const t = this.table(table);
    // An id that is not an integer names no row of an integer-keyed table (as on SQLite), and is not sent: the
    // server's refusal would abort the transaction.
    if (t.columns.find((c) => c.primaryKey)?.type === 'integer' && !(Number.isSafeInteger(id) || (typeof id === 'string' && /^-?\d{1,15}$/.test(id))))
      return undefined;
    if (holdsNul(id)) return undefined;
    const out = await this.s.query(
      this.db,
      `SELECT ${columnList(t)} FROM ${quoteIdent(table)} WHERE ${quoteIdent(t.primaryKey)} = $1${this.writing ? ' FOR NO KEY UPDATE' : ''}`,
      [id],
    );
    return out.rows[0] ? decodeRow(t, out.rows[0] as Row) : undefined;
  }

  async list(table: string, q: ListQuery): Promise<Row[]> {
    const t = this.table(table);
    if (filtersNul(q.equals)) return q.count ? [{ count: 0 }] : [];
    const params: unknown[] = [];
    const sql = listSql(t, table, q, POSTGRES, `SELECT ${columnList(t)}`, params);
    if (q.count) return [{ count: Number((await this.s.query(this.db, sql, params)).rows[0]!.n) }];
    return (await this.s.query(this.db, sql, params)).rows.map((r) => decodeRow(t, r as Row));
  }

  async update(table: string, id: unknown, changes: Row, expect?: { column: string; value: unknown }): Promise<Row | undefined> {
    const t = this.table(table);
    const params: unknown[] = [];
    if (holdsNul(id)) return undefined;
    const sql = updateSql(t, table, id, changes, expect, POSTGRES, params);
    if (sql === undefined) return this.get(table, id);
    try {
      const out = await this.s.query(this.db, `${sql} RETURNING ${columnList(t)}`, params);
      return out.rows[0] ? decodeRow(t, out.rows[0] as Row) : undefined;
    } catch (err) {
      throw mapConstraintError(err, t);
    }
  }

  async delete(table: string, id: unknown): Promise<boolean> {
    const t = this.table(table);
    if (holdsNul(id)) return false;
    try {
      return ((await this.s.query(this.db, `DELETE FROM ${quoteIdent(table)} WHERE ${quoteIdent(t.primaryKey)} = $1`, [id])).rowCount ?? 0) > 0;
    } catch (err) {
      throw mapConstraintError(err, t);
    }
  }

  async appendEvent(e: StoredEvent): Promise<void> {
    // Written at the commit, under the outbox lock (see PostgresStorage.transaction).
    this.events.push(e);
  }

  async deleteObjectSubscriptions(resource: string, id: unknown): Promise<number> {
    // access is JSON text; the identifier compared as text (->>), which is exact for a uuid string and an integer alike.
    const gone = await this.s.query(
      this.db,
      `DELETE FROM ${WEBHOOKS} WHERE access IS NOT NULL AND (access::jsonb -> 'object' ->> 'resource') = $1 AND (access::jsonb -> 'object' ->> 'id') = $2 RETURNING id`,
      [resource, String(id)],
    );
    // Their queues go by ON DELETE CASCADE (the deliveries' foreign key).
    const n = gone.rowCount ?? 0;
    if (n > 0) await this.s.endpointsChanged(this.db);
    return n;
  }

  async claimRecord(namespace: string, key: string, value: string, expiresAt: string, now: string): Promise<{ created: boolean; value: string }> {
    // As PostgresStorage.claimRecord, in this transaction: a concurrent claim of the key waits for this one's end.
    for (;;) {
      const inserted = await this.s.query(
        this.db,
        `INSERT INTO ${RECORDS} AS r (namespace, key, value, expires_at) VALUES ($1, $2, $3, $4) ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at WHERE r.expires_at <= $5 RETURNING value`,
        [namespace, key, value, expiresAt, now],
      );
      if ((inserted.rowCount ?? 0) > 0) return { created: true, value };
      const row = (await this.s.query(this.db, `SELECT value FROM ${RECORDS} WHERE namespace = $1 AND key = $2`, [namespace, key])).rows[0] as
        { value: string } | undefined;
      if (row) return { created: false, value: row.value };
    }
  }

  async putRecord(namespace: string, key: string, value: string, expiresAt: string): Promise<void> {
    await this.s.query(this.db, `UPDATE ${RECORDS} SET value = $3, expires_at = $4 WHERE namespace = $1 AND key = $2`, [namespace, key, value, expiresAt]);
  }
}

/** A 64-bit advisory lock key for `name` in this schema (locks are per database, schemas share them). */
function lockKey(schema: string, name: string): string {
  return createHash('sha256').update(`servicespec:${schema}:${name}`).digest().readBigInt64BE(0).toString();
}

/** Splits `?schema=` off the URL; pg takes the rest. */
export function parsePostgresUrl(url: string): { connectionString: string; schema: string | undefined } {
  const u = new URL(url);
  const schema = u.searchParams.get('schema') ?? undefined;
  u.searchParams.delete('schema');
  return { connectionString: u.toString(), schema };
}

export class PostgresStorage implements Storage {
  readonly dialect = 'postgres' as const;
  private readonly pool: pg.Pool;
  /**
   * The webhook delivery worker's own connections (at most BACKGROUND_CONNECTIONS): its claims and outcomes do not
   * wait behind the requests for a pooled connection, so a retry is attempted when it is due whatever the load.
   */
  private readonly background: pg.Pool;
  private readonly backgroundPooled: Queryable = { query: (config) => this.onPool(config, true, this.background) };
  private readonly schema: string;
  private readonly clientConfig: pg.ClientConfig;
  private readonly openTransactionMs: number;
  private readonly sequencerIntervalMs: number;
  private readonly clock: Clock;
  private tables = new Map<string, TablePlan>();
  private readonly statementNames = new Map<string, string>();
  /** Statements on the pool, each on a connection checked out for it: retried once on a fault (reads and idempotent writes). */
  private readonly pooled: Queryable = { query: (config) => this.onPool(config, true) };
  /** As `pooled`, never retried: a write whose effect a lost answer leaves unknown. */
  private readonly once: Queryable = { query: (config) => this.onPool(config, false) };
  /** Connections lost (their 'error' or 'end' seen), with the error: a statement that failed on one met a fault, not a bug. */
  private readonly lost = new WeakMap<pg.PoolClient, unknown>();
  private ready: Promise<void>;
  private readonly keys: { outbox: string; fanout: string; migrate: string };
  private readonly channel: string;
  /** The NOTIFY payload of this storage's outbox appends (its listener ignores them). */
  private readonly outboxPayload = `outbox:${randomBytes(8).toString('hex')}`;
  private listener: pg.Client | undefined;
  private listening = false;
  private closed = false;
  private reconnect: NodeJS.Timeout | undefined;
  private readonly watchers = new Set<(change: StorageChange) => void>();
  /** Per kind and lookup; used only while the LISTEN connection is up (so an invalidation cannot be missed). */
  private readonly credentialCache = new Map<string, CredentialRecord | null>();
  /** Moves on every clearing of the cache: a lookup that started before one must not fill the cache after it. */
  private credentialGeneration = 0;

  constructor(options: PostgresOptions) {
    const { connectionString, schema } = parsePostgresUrl(options.url);
    if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema))
      throw new Error(`schema ${JSON.stringify(schema)} must be a lower-case SQL name (letters, digits and _, not starting with a digit)`);
    this.schema = schema ?? 'public';
    // A transaction left open (a stuck client) keeps its row locks: the server ends it after a minute.
    this.openTransactionMs = options.openTransactionMs ?? OPEN_TRANSACTION_MS;
    this.sequencerIntervalMs = options.sequencerIntervalMs ?? SEQUENCER_INTERVAL_MS;
    this.clock = options.clock ?? MONOTONIC_CLOCK;
    const settings = [`-c idle_in_transaction_session_timeout=${this.openTransactionMs}`, ...(schema !== undefined ? [`-c search_path=${schema}`] : [])].join(
      ' ',
    );
    this.clientConfig = { connectionString, options: settings, types: getTypes() };
    // Pipelining (node-postgres' `pipeline` option, https://node-postgres.com/features/pipelining): queries queued on a
    // pooled client go out without waiting for the one before, so a transaction's BEGIN travels with its first
    // statement and its COMMIT with the outbox append (see `tx`). The LISTEN connection keeps the plain mode.
    this.pool = new (loadPg().Pool)({
      ...this.clientConfig,
      pipeline: true,
      ...(options.poolSize !== undefined ? { max: options.poolSize } : {}),
      ...(options.connectTimeoutMs !== undefined ? { connectionTimeoutMillis: options.connectTimeoutMs } : {}),
    });
    this.background = new (loadPg().Pool)({
      ...this.clientConfig,
      pipeline: true,
      max: BACKGROUND_CONNECTIONS,
      ...(options.connectTimeoutMs !== undefined ? { connectionTimeoutMillis: options.connectTimeoutMs } : {}),
    });
    // An idle connection's error (the server restarted) is answered by the next query; it must not crash the process.
    this.pool.on('error', () => undefined);
    this.background.on('error', () => undefined);
    // A checked-out client has no 'error' listener of the pool's, and the pool takes its own off a new client before
    // handing it over: an ErrorResponse read in the same chunk as the first ReadyForQuery (a backend terminated as it
    // starts) would be an unhandled 'error' event before the caller could listen. The pool's 'connect' event comes
    // first: every client is watched from then on, its loss recorded for `fault`.
    const watch = (client: pg.PoolClient) => {
      client.on('error', (err) => this.lost.set(client, err));
      client.on('end', () => {
        if (!this.lost.has(client)) this.lost.set(client, undefined);
      });
    };
    this.pool.on('connect', watch);
    this.background.on('connect', watch);
    this.keys = { outbox: lockKey(this.schema, 'outbox'), fanout: lockKey(this.schema, 'fanout'), migrate: lockKey(this.schema, 'migrate') };
    this.channel = `servicespec_${createHash('sha256').update(this.schema).digest('hex').slice(0, 16)}`;
    this.ready = this.setUp(schema);
    this.ready.catch(() => undefined);
  }

  /** Runs `sql` as a named prepared statement: parsed once per connection, parameters always separate. */
  query(db: Queryable, sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
    let name = this.statementNames.get(sql);
    if (name === undefined) {
      name = `ss${this.statementNames.size}`;
      this.statementNames.set(sql, name);
    }
    return db.query({ name, text: sql, values: params });
  }

  private async setUp(schema: string | undefined): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [this.keys.migrate]);
      try {
        if (schema !== undefined) await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
        await client.query(`CREATE TABLE IF NOT EXISTS ${META} (key TEXT COLLATE "C" NOT NULL PRIMARY KEY, value TEXT NOT NULL)`);
        // `pos` is the order of appends; `seq`, the position readers see, is given after the commit by `sequence`.
        await client.query(
          `CREATE TABLE IF NOT EXISTS ${OUTBOX} (pos BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, seq BIGINT UNIQUE, id TEXT NOT NULL, type TEXT NOT NULL, timestamp TEXT NOT NULL, version TEXT, data TEXT NOT NULL)`,
        );
        // Appends without a position are found through `seq`'s own index (NULLs sort last). A partial index of them,
        // as made before, kept an entry for every append until the next vacuum, each one stepped over by every run.
        await client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${OUTBOX}_unsequenced`);
        // The sequencer (see `sequence`) in one round trip. Each statement of a PL/pgSQL function takes a new snapshot
        // under read committed, so the update sees the positions the previous holder of the lock committed. Its plans
        // are cached per connection from the first call, when the outbox may be nearly empty: index paths only, so a
        // plan made then does not scan the whole table once it has grown.
        await client.query(
          `CREATE OR REPLACE FUNCTION ${SEQUENCE}(lock_key bigint, channel text, payload text) RETURNS bigint LANGUAGE plpgsql SET search_path FROM CURRENT SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off AS $$
DECLARE
  given bigint;
BEGIN
  IF EXISTS (SELECT 1 FROM ${OUTBOX} WHERE seq IS NULL) THEN
    PERFORM pg_advisory_xact_lock(lock_key);
    UPDATE ${OUTBOX} o SET seq = b.base + u.n
      FROM (SELECT COALESCE(MAX(seq), 0) AS base FROM ${OUTBOX}) b,
           (SELECT pos, row_number() OVER (ORDER BY pos) AS n FROM (SELECT pos FROM ${OUTBOX} WHERE seq IS NULL ORDER BY pos LIMIT 10000) d) u
      WHERE o.pos = u.pos;
    GET DIAGNOSTICS given = ROW_COUNT;
    IF given > 0 THEN PERFORM pg_notify(channel, payload); END IF;
  END IF;
  RETURN (SELECT COALESCE(MAX(seq), 0) FROM ${OUTBOX});
END $$`,
        );
        await client.query(
          `CREATE TABLE IF NOT EXISTS ${RECORDS} (namespace TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, expires_at TEXT NOT NULL, PRIMARY KEY (namespace, key))`,
        );
        await client.query(
          `CREATE TABLE IF NOT EXISTS ${CREDENTIALS} (id TEXT NOT NULL PRIMARY KEY, kind TEXT NOT NULL, lookup TEXT NOT NULL, hash TEXT NOT NULL, subject TEXT NOT NULL, scopes TEXT NOT NULL, created_at TEXT NOT NULL, revoked_at TEXT, UNIQUE (kind, lookup))`,
        );
        await client.query(
          `CREATE TABLE IF NOT EXISTS ${WEBHOOKS} (id TEXT NOT NULL PRIMARY KEY, url TEXT NOT NULL, kinds TEXT, description TEXT, subject TEXT, access TEXT, secrets TEXT NOT NULL, created_at TEXT NOT NULL, disabled_at TEXT, disabled_reason TEXT, after_seq BIGINT NOT NULL)`,
        );
        // Tables made before endpoints stored who registered them gain the column (null: see toAccess).
        await client.query(`ALTER TABLE ${WEBHOOKS} ADD COLUMN IF NOT EXISTS access TEXT`);
        await client.query(
          `CREATE TABLE IF NOT EXISTS ${DELIVERIES} (seq BIGINT NOT NULL, endpoint TEXT NOT NULL REFERENCES ${WEBHOOKS} (id) ON DELETE CASCADE, event_id TEXT NOT NULL, event_type TEXT NOT NULL, status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'dead')), attempts INTEGER NOT NULL, next_at BIGINT NOT NULL, last_status INTEGER, last_error TEXT, updated_at TEXT NOT NULL, delivered_at TEXT, PRIMARY KEY (seq, endpoint))`,
        );
        await client.query(`CREATE INDEX IF NOT EXISTS ${DELIVERIES}_due ON ${DELIVERIES} (status, next_at)`);
        await client.query(`CREATE INDEX IF NOT EXISTS ${DELIVERIES}_event ON ${DELIVERIES} (event_id)`);
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [this.keys.migrate]);
      }
    } finally {
      client.release();
    }
    await this.listen();
  }

  /** One dedicated connection LISTENs; on loss it reconnects, and the credential cache is off until it does. */
  private async listen(): Promise<void> {
    if (this.closed) return;
    const client = new (loadPg().Client)(this.clientConfig);
    client.on('notification', (n) => {
      if (n.payload === 'credentials') this.clearCredentials();
      else if (n.payload === 'webhooks') return this.clearEndpoints();
      // This storage's own appends: the runtime that made them has already been told.
      else if (n.payload === this.outboxPayload) return;
      const change: StorageChange = n.payload === 'credentials' ? 'credentials' : 'outbox';
      for (const w of [...this.watchers]) w(change);
    });
    const lost = () => {
      if (this.listener !== client) return;
      this.listener = undefined;
      this.listening = false;
      this.clearCredentials();
      void client.end().catch(() => undefined);
      if (!this.closed) {
        this.reconnect = setTimeout(() => void this.listen().catch(() => undefined), 500);
        this.reconnect.unref();
      }
    };
    client.on('error', lost);
    client.on('end', lost);
    this.listener = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch {
      lost();
      return;
    }
    this.clearCredentials();
    this.listening = true;
    // Changes made while not listening were not heard.
    for (const w of [...this.watchers]) {
      w('outbox');
      w('credentials');
    }
  }

  private clearCredentials(): void {
    this.credentialCache.clear();
    this.credentialGeneration++;
    this.clearEndpoints();
  }

  /** Whether any endpoint is enabled, known only while the LISTEN connection is up (changes ring 'webhooks'). */
  private anyEndpoint: boolean | undefined;
  private endpointGeneration = 0;

  private clearEndpoints(): void {
    this.anyEndpoint = undefined;
    this.endpointGeneration++;
  }

  /** Rings the other instances after an endpoint change (in the changing transaction), and forgets here. */
  async endpointsChanged(db: Queryable): Promise<void> {
    await this.query(db, 'SELECT pg_notify($1, $2)', [this.channel, 'webhooks']);
    this.clearEndpoints();
  }

  private async anyEnabledEndpoint(): Promise<boolean> {
    if (this.listening && this.anyEndpoint !== undefined) return this.anyEndpoint;
    const generation = this.endpointGeneration;
    const any = (await this.query(this.pooled, `SELECT 1 FROM ${WEBHOOKS} WHERE disabled_at IS NULL LIMIT 1`)).rows.length > 0;
    if (this.listening && generation === this.endpointGeneration) this.anyEndpoint = any;
    return any;
  }

  watch(listener: (change: StorageChange) => void): () => void {
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }

  /** A pooled connection; none to be had (the pool's time-out, a refused connection) is a fault. */
  private async connect(pool: pg.Pool = this.pool): Promise<pg.PoolClient> {
    await this.ready;
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (err) {
      throw new StorageUnavailableError('no connection to the database could be had', { cause: err });
    }
    // The statement in flight reports a loss; the client was marked lost (the pool's 'connect', in the constructor).
    return client;
  }

  /** The fault an error on `client` is, if any: a driver's code that says so, or a connection seen lost. */
  private fault(err: unknown, client: pg.PoolClient | undefined): StorageUnavailableError | undefined {
    const known = getStorageFault(err);
    if (known !== undefined) return known;
    // A lost connection's errors carry no SQLSTATE; the client's 'error' or 'end' event came first (see connect).
    if (client !== undefined && this.lost.has(client)) return new StorageUnavailableError('the connection to the database was lost', { cause: err });
    return undefined;
  }

  /** One statement on a pooled connection; on a fault, tried once more when `retry` (nothing else was applied). */
  private async onPool(config: pg.QueryConfig, retry: boolean, pool: pg.Pool = this.pool): Promise<pg.QueryResult> {
    for (let attempt = 1; ; attempt++) {
      const client = await this.connect(pool);
      let broken: Error | undefined;
      try {
        return await client.query(config);
      } catch (err) {
        const f = this.fault(err, client);
        if (f !== undefined) broken = f;
        if (f !== undefined && retry && attempt === 1) continue;
        throw f ?? err;
      } finally {
        // A lost connection is closed, not given back.
        client.release(broken ?? (this.lost.has(client) ? true : undefined));
      }
    }
  }

  /**
   * One transaction on one pooled connection (BEGIN … COMMIT), rolled back on any error. node-postgres queues a
   * client's queries and sends each once the one before is answered, so BEGIN is queued with the first statement
   * of `work`, and `last` (the outbox append) with the COMMIT: fewer turns of the event loop, the same round trips.
   * An append that fails turns the COMMIT queued behind it into a rollback (the server's answer to COMMIT in a
   * failed transaction), so nothing of it is applied.
   * On a fault before the COMMIT was sent, or one the server answered with its own error (it rolled back: a
   * serialization failure, a deadlock), `work` runs once more on a fresh connection: nothing of the first run was
   * applied. A connection lost while the COMMIT's answer is awaited leaves the outcome unknown: not retried.
   */
  private async tx<T>(
    work: (db: pg.PoolClient) => Promise<T>,
    signal?: AbortLike,
    last?: () => { sql: string; params: unknown[] } | undefined,
    beginSql = 'BEGIN',
    pool: pg.Pool = this.pool,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      signal?.throwIfAborted();
      const client = await this.connect(pool);
      let broken: Error | boolean | undefined;
      let committing = false;
      const began = performance.now();
      const begin = client.query(beginSql);
      // (Its failure, a lost connection, is also the failure of the statement queued behind it.)
      begin.catch(() => undefined);
      try {
        const out = await work(client);
        await begin;
        signal?.throwIfAborted();
        const final = last?.();
        const append = final && this.query(client, final.sql, final.params);
        append?.catch(() => undefined);
        committing = true;
        const commit = client.query('COMMIT');
        commit.catch(() => undefined);
        await append;
        await commit;
        return out;
      } catch (err) {
        const f = this.fault(err, client);
        if (this.lost.has(client)) broken = true;
        else await client.query('ROLLBACK').catch((e: Error) => (broken = e));
        // The server's own error (a SQLSTATE outside the connection classes, on a connection still up) says it did not commit.
        const code = (err as { code?: unknown } | null)?.code;
        const refused = typeof code === 'string' && code.length === 5 && !code.startsWith('08') && !code.startsWith('57') && !this.lost.has(client);
        const unknown = committing && !refused;
        // A transaction the server ended for staying open too long (25P03) would only stay open as long again.
        // (The server's own error is not always read before the connection closes: the time open is checked too.)
        const expired =
          (this.lost.get(client) as { code?: unknown } | undefined)?.code === IDLE_IN_TRANSACTION_TIMEOUT ||
          performance.now() - began >= this.openTransactionMs;
        if (f !== undefined && attempt === 1 && !unknown && !expired && signal?.aborted !== true) continue;
        // The COMMIT went out and no answer came back: the change may be applied; the caller must not act as if not.
        if (f !== undefined && unknown)
          throw new StorageUnavailableError('the connection to the database was lost while the change was committed', { cause: err, outcomeUnknown: true });
        throw f ?? err;
      } finally {
        client.release(broken);
      }
    }
  }

  async migrate(plan: StoragePlan, options: MigrateOptions = {}): Promise<MigrationResult> {
    const failed: MigrationRefusal[] = [];
    /** Thrown to roll back what `prepare` or the steps did when the migration is refused. */
    class Refused extends Error {}
    try {
      const result: MigrationResult = await this.tx(async (db): Promise<MigrationResult> => {
        // Instances starting together queue here; the later ones find the plan stored and nothing to do.
        await db.query('SELECT pg_advisory_xact_lock($1)', [this.keys.migrate]);
        const row = (await db.query(`SELECT value FROM ${META} WHERE key = $1`, [PLAN_KEY])).rows[0] as { value: string } | undefined;
        let stored: StoragePlan = row ? (JSON.parse(row.value) as StoragePlan) : { tables: [] };
        // migrate (issue 28): `prepare`'s statements run first, in this transaction, under the lock.
        let prepared: PreparedMigration = { ok: true, stored };
        if (options.prepare) {
          const session: MigrationSession = {
            dialect: 'postgres',
            query: async (sql, params = []) => (await db.query(sql, [...params])).rows as Row[],
            columnSql,
            encode,
            nameConstraints: (table) => nameConstraints(db, table),
          };
          prepared = await options.prepare(session, stored);
          if (!prepared.ok) {
            failed.push(...prepared.refusals);
            throw new Refused();
          }
          stored = prepared.stored;
        }
        plan = withKeptColumns(stored, plan);
        const { steps, refusals } = diffStoragePlans(stored, plan, prepared);
        if (refusals.length > 0) {
          failed.push(...refusals);
          throw new Refused();
        }
        // New tables first, in an order where a referred-to table exists before the table that refers to it.
        const created = new Set(steps.filter((s) => s.kind === 'create_table').map((s) => s.table));
        const tables = byName(plan.tables);
        const done = new Set<string>();
        const create = async (t: TablePlan): Promise<void> => {
          if (done.has(t.name)) return;
          done.add(t.name);
          for (const c of t.columns) {
            const target = c.references && tables.get(c.references.table);
            if (target && created.has(target.name) && target.name !== t.name) await create(target);
          }
          await db.query(createTableSql(t));
        };
        for (const name of created) await create(tables.get(name)!);
        for (const step of steps) {
          const t = tables.get(step.table)!;
          if (step.kind === 'add_column')
            await db.query(`ALTER TABLE ${quoteIdent(t.name)} ADD COLUMN ${columnSql(t.columns.find((c) => c.name === step.column)!)}`);
        }
        for (const step of steps) {
          if (step.kind !== 'rebuild_table') continue;
          const t = tables.get(step.table)!;
          // PostgreSQL alters constraints in place: drop the table's own, add the plan's; existing rows are checked.
          const own = (await db.query(`SELECT conname FROM pg_constraint WHERE conrelid = $1::regclass AND contype IN ('c', 'u', 'f')`, [quoteIdent(t.name)]))
            .rows as { conname: string }[];
          for (const c of own) await db.query(`ALTER TABLE ${quoteIdent(t.name)} DROP CONSTRAINT ${quoteIdent(c.conname)}`);
          for (const c of t.columns) {
            if (!c.primaryKey) await db.query(`ALTER TABLE ${quoteIdent(t.name)} ALTER COLUMN ${quoteIdent(c.name)} ${c.notNull ? 'SET' : 'DROP'} NOT NULL`);
          }
          for (const c of constraintsSql(t)) {
            try {
              await db.query(`ALTER TABLE ${quoteIdent(t.name)} ADD ${c}`);
            } catch (err) {
              failed.push({ table: t.name, reason: `existing rows do not satisfy the changed constraints of ${t.name} (${(err as Error).message})` });
              throw err;
            }
          }
        }
        await db.query(`INSERT INTO ${META} (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [
          PLAN_KEY,
          JSON.stringify(plan),
        ]);
        if (options.load) await loadForCopy(db, options.load);
        return { ok: true as const, steps };
      });
      if (result.ok) this.tables = new Map(plan.tables.map((t) => [t.name, t]));
      return result;
    } catch (err) {
      if (failed.length > 0 || err instanceof Refused) return { ok: false, refusals: failed };
      throw err;
    }
  }

  async read<T>(work: (tx: StorageTx) => Promise<T>, options?: ReadOptions): Promise<T> {
    await this.ready;
    // Several statements that must agree (a page and its total): one read-only transaction, one snapshot.
    if (options?.snapshot === true)
      return this.tx((client) => work(new PgTx(this, client, this.tables, false)), undefined, undefined, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    return work(new PgTx(this, this.pooled, this.tables, false));
  }

  async transaction<T>(work: (tx: StorageTx) => Promise<T>, signal?: AbortLike): Promise<T> {
    let tx: PgTx | undefined;
    return this.tx(
      (client) => work((tx = new PgTx(this, client, this.tables, true))),
      signal,
      // Appended without a position (readers do not see them yet), as the last statement, sent with the COMMIT. No
      // NOTIFY here: a transaction that notifies holds a lock global to the server through its commit, which would
      // make every write wait for the one before it; the sequencer run after the commit rings the other instances.
      () => (tx !== undefined && tx.events.length > 0 ? outboxInsert(tx.events) : undefined),
    );
  }

  async readEvents(afterSeq: number, limit: number): Promise<OutboxEntry[]> {
    return this.readOutbox(afterSeq, limit);
  }

  /** db copy (issue 28): one REPEATABLE READ READ ONLY transaction, so every table is read on one snapshot. */
  async readForCopy<T>(work: (reader: CopyReader) => Promise<T>): Promise<T> {
    await this.ready;
    return this.tx((db) => work(pgCopyReader(db)), undefined, undefined, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  }

  /**
   * Gives positions to committed appends that have none, in append order, continuing from the highest position.
   * Only committed rows are visible here, so a transaction that commits late gets a later position, never a lower
   * one; and one instance gives positions at a time (an advisory lock held to its COMMIT), so they become visible in
   * increasing order: a reader that has seen position n has seen every lower one. Writers never wait for each other.
   */
  /** Runs the sequencer; returns the highest position given so far. */
  private async sequence(): Promise<number> {
    await this.ready;
    // One run at a time: a caller that arrives while one runs waits for the next, which starts once that one ends
    // (and so sees every commit the caller has seen), and no sooner than sequencerIntervalMs after it started;
    // callers arriving meanwhile share it. Under load a run gives positions to every append of those milliseconds.
    // A run still waiting for its turn has not read anything yet: a caller arriving then shares it (not the next).
    if (this.sequencerWaiting) return this.sequencing!;
    if (this.sequencing) {
      this.nextSequencing ??= this.sequencing.then(
        () => this.runSequencer(),
        () => this.runSequencer(),
      );
      return this.nextSequencing;
    }
    return this.runSequencer();
  }

  private sequencing: Promise<number> | undefined;
  private nextSequencing: Promise<number> | undefined;
  private sequencerStarted = -Infinity;
  /** The current run waits for its turn (sequencerIntervalMs after the last started) and has not queried yet. */
  private sequencerWaiting = false;

  private runSequencer(): Promise<number> {
    const wait = this.closed ? 0 : this.sequencerStarted + this.sequencerIntervalMs - this.clock.now();
    const start = () => {
      this.sequencerWaiting = false;
      this.sequencerStarted = this.clock.now();
      return this.query(this.pooled, `SELECT ${SEQUENCE}($1, $2, $3) AS seq`, [this.keys.outbox, this.channel, this.outboxPayload]).then(
        (r) => (r.rows[0] as { seq: number }).seq,
      );
    };
    this.sequencerWaiting = wait > 0;
    const run = wait > 0 ? new Promise<void>((resolve) => this.clock.setTimer(resolve, wait)).then(start) : start();
    this.sequencing = run;
    this.nextSequencing = undefined;
    const clear = () => {
      if (this.sequencing === run) this.sequencing = undefined;
    };
    run.then(clear, clear);
    return run;
  }

  async readOutbox(afterSeq: number, limit: number, types?: readonly string[]): Promise<OutboxEntry[]> {
    await this.ready;
    await this.sequence();
    const filter = types && types.length > 0 ? ' AND type = ANY($3)' : '';
    const params: unknown[] = [afterSeq, limit, ...(types && types.length > 0 ? [types] : [])];
    const rows = (
      await this.query(this.pooled, `SELECT seq, id, type, timestamp, version, data FROM ${OUTBOX} WHERE seq > $1${filter} ORDER BY seq LIMIT $2`, params)
    ).rows as OutboxRow[];
    return rows.map(toOutboxEntry);
  }

  async lastOutboxSeq(): Promise<number> {
    return this.sequence();
  }

  // ---- credentials --------------------------------------------------------------------------------------------

  async insertCredential(r: CredentialRecord): Promise<void> {
    await this.tx(async (db) => {
      try {
        await this.query(db, `INSERT INTO ${CREDENTIALS} (${CREDENTIAL_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, credentialValues(r));
      } catch (err) {
        throw mapConstraintError(err);
      }
      await this.query(db, 'SELECT pg_notify($1, $2)', [this.channel, 'credentials']);
    });
    this.clearCredentials();
  }

  async findCredential(kind: CredentialRecord['kind'], lookup: string): Promise<CredentialRecord | undefined> {
    const key = `${kind}\u0000${lookup}`;
    const cached = this.listening ? this.credentialCache.get(key) : undefined;
    if (cached !== undefined) return cached ?? undefined;
    await this.ready;
    // Cached only if no change was heard (and the LISTEN connection stayed up) while the lookup ran.
    const generation = this.listening ? this.credentialGeneration : -1;
    const row = (await this.query(this.pooled, `SELECT * FROM ${CREDENTIALS} WHERE kind = $1 AND lookup = $2`, [kind, lookup])).rows[0] as
      CredentialRow | undefined;
    const record = row && toCredential(row);
    if (generation === this.credentialGeneration && this.listening) {
      if (this.credentialCache.size >= 10_000) this.clearCredentials();
      this.credentialCache.set(key, record ?? null);
    }
    return record;
  }

  async listCredentials(kind: CredentialRecord['kind']): Promise<CredentialRecord[]> {
    await this.ready;
    return ((await this.query(this.pooled, `SELECT * FROM ${CREDENTIALS} WHERE kind = $1 ORDER BY created_at, id`, [kind])).rows as CredentialRow[]).map(
      toCredential,
    );
  }

  async revokeCredential(kind: CredentialRecord['kind'], id: string, at: string): Promise<boolean> {
    const changed = await this.tx(async (db) => {
      const n =
        (await this.query(db, `UPDATE ${CREDENTIALS} SET revoked_at = COALESCE(revoked_at, $1) WHERE kind = $2 AND id = $3`, [at, kind, id])).rowCount ?? 0;
      if (n > 0) await this.query(db, 'SELECT pg_notify($1, $2)', [this.channel, 'credentials']);
      return n > 0;
    });
    this.clearCredentials();
    return changed;
  }

  // ---- records and settings ---------------------------------------------------------------------------------

  async claimRecord(namespace: string, key: string, value: string, expiresAt: string, now: string): Promise<{ created: boolean; value: string }> {
    await this.ready;
    // ON CONFLICT waits for a concurrent claim of the key to commit, then sees its row: one claim is created.
    for (;;) {
      const inserted = await this.query(
        this.once,
        `INSERT INTO ${RECORDS} AS r (namespace, key, value, expires_at) VALUES ($1, $2, $3, $4) ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at WHERE r.expires_at <= $5 RETURNING value`,
        [namespace, key, value, expiresAt, now],
      );
      if ((inserted.rowCount ?? 0) > 0) return { created: true, value };
      const row = (await this.query(this.pooled, `SELECT value FROM ${RECORDS} WHERE namespace = $1 AND key = $2`, [namespace, key])).rows[0] as
        { value: string } | undefined;
      if (row) return { created: false, value: row.value };
      // Deleted between the two statements: claim again.
    }
  }

  async findRecord(namespace: string, key: string, now: string): Promise<string | undefined> {
    await this.ready;
    const row = (await this.query(this.pooled, `SELECT value FROM ${RECORDS} WHERE namespace = $1 AND key = $2 AND expires_at > $3`, [namespace, key, now]))
      .rows[0] as { value: string } | undefined;
    return row?.value;
  }

  async putRecord(namespace: string, key: string, value: string, expiresAt: string): Promise<void> {
    await this.ready;
    await this.query(
      this.pooled,
      `INSERT INTO ${RECORDS} (namespace, key, value, expires_at) VALUES ($1, $2, $3, $4) ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
      [namespace, key, value, expiresAt],
    );
  }

  async deleteRecord(namespace: string, key: string): Promise<void> {
    await this.ready;
    await this.query(this.pooled, `DELETE FROM ${RECORDS} WHERE namespace = $1 AND key = $2`, [namespace, key]);
  }

  async deleteExpiredRecords(now: string, limit: number): Promise<number> {
    await this.ready;
    const sql = `DELETE FROM ${RECORDS} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${RECORDS} WHERE expires_at <= $1 LIMIT $2))`;
    return (await this.query(this.pooled, sql, [now, limit])).rowCount ?? 0;
  }

  async getSetting(key: string): Promise<string | undefined> {
    await this.ready;
    return ((await this.query(this.pooled, `SELECT value FROM ${META} WHERE key = $1`, [`setting:${key}`])).rows[0] as { value: string } | undefined)?.value;
  }

  async claimSetting(key: string, value: string): Promise<string> {
    await this.ready;
    await this.query(this.pooled, `INSERT INTO ${META} (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`, [`setting:${key}`, value]);
    return ((await this.query(this.pooled, `SELECT value FROM ${META} WHERE key = $1`, [`setting:${key}`])).rows[0] as { value: string }).value;
  }

  async setSetting(key: string, value: string): Promise<void> {
    await this.ready;
    await this.query(this.pooled, `INSERT INTO ${META} (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [
      `setting:${key}`,
      value,
    ]);
  }

  // ---- webhook endpoints and their delivery queue -----------------------------------------------------------

  async insertWebhookEndpoint(r: Omit<WebhookEndpointRecord, 'afterSeq'>): Promise<WebhookEndpointRecord> {
    await this.ready;
    await this.sequence();
    return this.tx(async (db) => {
      // Under the outbox lock no position is being given, so MAX(seq) is "every event given one so far".
      await this.query(db, 'SELECT pg_advisory_xact_lock($1)', [this.keys.outbox]);
      const afterSeq = ((await this.query(db, `SELECT COALESCE(MAX(seq), 0) AS seq FROM ${OUTBOX}`)).rows[0] as { seq: number }).seq;
      await this.query(db, `INSERT INTO ${WEBHOOKS} (${WEBHOOK_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`, webhookValues(r, afterSeq));
      await this.endpointsChanged(db);
      return { ...r, afterSeq };
    });
  }

  async getWebhookEndpoint(id: string): Promise<WebhookEndpointRecord | undefined> {
    await this.ready;
    const row = (await this.query(this.pooled, `SELECT * FROM ${WEBHOOKS} WHERE id = $1`, [id])).rows[0] as WebhookRow | undefined;
    return row && toEndpoint(row);
  }

  async listWebhookEndpoints(): Promise<WebhookEndpointRecord[]> {
    await this.ready;
    return ((await this.query(this.pooled, `SELECT * FROM ${WEBHOOKS} ORDER BY created_at, id`)).rows as WebhookRow[]).map(toEndpoint);
  }

  async setWebhookSecrets(id: string, secrets: readonly WebhookSecret[]): Promise<boolean> {
    await this.ready;
    return ((await this.query(this.pooled, `UPDATE ${WEBHOOKS} SET secrets = $1 WHERE id = $2`, [JSON.stringify(secrets), id])).rowCount ?? 0) > 0;
  }

  async setWebhookDisabled(id: string, disabled: { at: string; reason: string } | undefined): Promise<boolean> {
    return this.tx(async (db) => {
      const changed =
        ((
          await this.query(db, `UPDATE ${WEBHOOKS} SET disabled_at = $1, disabled_reason = $2 WHERE id = $3`, [
            disabled?.at ?? null,
            disabled?.reason ?? null,
            id,
          ])
        ).rowCount ?? 0) > 0;
      if (changed && disabled) {
        await this.query(db, `UPDATE ${DELIVERIES} SET status = 'dead', last_error = $1, updated_at = $2 WHERE endpoint = $3 AND status = 'pending'`, [
          `endpoint disabled: ${disabled.reason}`,
          disabled.at,
          id,
        ]);
      }
      if (changed) await this.endpointsChanged(db);
      return changed;
    });
  }

  async deleteWebhookEndpoint(id: string): Promise<boolean> {
    return this.tx(async (db) => {
      await this.query(db, `DELETE FROM ${DELIVERIES} WHERE endpoint = $1`, [id]);
      const deleted = ((await this.query(db, `DELETE FROM ${WEBHOOKS} WHERE id = $1`, [id])).rowCount ?? 0) > 0;
      if (deleted) await this.endpointsChanged(db);
      return deleted;
    });
  }

  async fanOutEvents(now: number, limit: number, visible?: (access: WebhookAccess, type: string, data: unknown) => boolean): Promise<number> {
    await this.ready;
    if (!(await this.anyEnabledEndpoint())) return 0;
    await this.sequence();
    return this.backgroundTx(async (db) => {
      // One fan-out at a time across instances; an instance that finds it taken leaves the work to the holder.
      const got = (await this.query(db, 'SELECT pg_try_advisory_xact_lock($1) AS got', [this.keys.fanout])).rows[0] as { got: boolean };
      if (!got.got) return 0;
      const endpoints = (
        (await this.query(db, `SELECT id, kinds, after_seq, subject, access FROM ${WEBHOOKS} WHERE disabled_at IS NULL`)).rows as Pick<
          WebhookRow,
          'id' | 'kinds' | 'after_seq' | 'subject' | 'access'
        >[]
      ).map(toFanOutEndpoint);
      if (endpoints.length === 0) return 0;
      const stored = (await this.query(db, `SELECT value FROM ${META} WHERE key = $1`, [FANOUT_KEY])).rows[0] as { value: string } | undefined;
      const cursor = getFanOutCursor(stored?.value, endpoints);
      const rows = (await this.query(db, `SELECT ${getFanOutColumns(endpoints, visible)} FROM ${OUTBOX} WHERE seq > $1 ORDER BY seq LIMIT $2`, [cursor, limit]))
        .rows as { seq: number; id: string; type: string; data?: string }[];
      if (rows.length === 0) return 0;
      const at = new Date(now).toISOString();
      const { seqs, endpoints: ids, eventIds, types } = getFanOutTargets(rows, endpoints, visible);
      if (seqs.length > 0) {
        await this.query(
          db,
          `INSERT INTO ${DELIVERIES} (seq, endpoint, event_id, event_type, status, attempts, next_at, updated_at) SELECT s, e, i, t, 'pending', 0, $5, $6 FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) AS u(s, e, i, t) ON CONFLICT DO NOTHING`,
          [seqs, ids, eventIds, types, now, at],
        );
      }
      await this.query(db, `INSERT INTO ${META} (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [
        FANOUT_KEY,
        String(rows[rows.length - 1]!.seq),
      ]);
      return rows.length;
    });
  }

  /** A transaction of the delivery worker's, on its own connections (see `background`). */
  private backgroundTx<T>(work: (db: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.tx(work, undefined, undefined, 'BEGIN', this.background);
  }

  async claimDeliveries(now: number, leaseMs: number, limit: number): Promise<ClaimedDelivery[]> {
    return this.backgroundTx(async (db) => {
      // Rows another worker is claiming are skipped, not waited for; a row it claimed is re-checked after its commit and is no longer due.
      const rows = (
        await this.query(
          db,
          `${CLAIM_JOIN}
           WHERE d.status = 'pending' AND d.next_at <= $1 AND w.disabled_at IS NULL ORDER BY d.next_at, d.seq LIMIT $2 FOR UPDATE OF d SKIP LOCKED`,
          [now, limit],
        )
      ).rows as ClaimRow[];
      if (rows.length === 0) return [];
      await this.query(db, `UPDATE ${DELIVERIES} d SET next_at = $1 FROM unnest($2::bigint[], $3::text[]) AS u(s, e) WHERE d.seq = u.s AND d.endpoint = u.e`, [
        now + leaseMs,
        rows.map((r) => r.seq),
        rows.map((r) => r.endpoint),
      ]);
      return rows.map((r): ClaimedDelivery => toClaimedDelivery(r, now + leaseMs));
    });
  }

  async finishDelivery(seq: number, endpointId: string, outcome: DeliveryOutcome): Promise<void> {
    await this.finishDeliveries([{ seq, endpointId, outcome }]);
  }

  async finishDeliveries(list: readonly { seq: number; endpointId: string; outcome: DeliveryOutcome }[]): Promise<void> {
    if (list.length === 0) return;
    // One statement for the whole batch (one round trip, atomic on its own): outcomes are written one batch at a
    // time, and a retry cannot be claimed before its outcome is written.
    await this.backgroundTx(async (db) => {
      await this.query(
        db,
        `UPDATE ${DELIVERIES} d SET status = u.status, attempts = u.attempts, next_at = u.next_at, last_status = u.last_status, last_error = u.last_error, updated_at = u.at, delivered_at = CASE WHEN u.status = 'delivered' THEN u.at ELSE d.delivered_at END
         FROM unnest($1::bigint[], $2::text[], $3::text[], $4::int[], $5::bigint[], $6::int[], $7::text[], $8::text[]) AS u(seq, endpoint, status, attempts, next_at, last_status, last_error, at)
         WHERE d.seq = u.seq AND d.endpoint = u.endpoint AND d.status = 'pending'`,
        [
          list.map((x) => x.seq),
          list.map((x) => x.endpointId),
          list.map((x) => x.outcome.status),
          list.map((x) => x.outcome.attempts),
          list.map((x) => x.outcome.nextAttemptAt),
          list.map((x) => x.outcome.lastStatus ?? null),
          list.map((x) => x.outcome.lastError ?? null),
          list.map((x) => x.outcome.at),
        ],
      );
    });
  }

  async nextDeliveryAt(): Promise<number | undefined> {
    await this.ready;
    const row = (
      await this.query(
        this.backgroundPooled,
        `SELECT MIN(d.next_at) AS next FROM ${DELIVERIES} d JOIN ${WEBHOOKS} w ON w.id = d.endpoint WHERE d.status = 'pending' AND w.disabled_at IS NULL`,
      )
    ).rows[0] as { next: number | null };
    return row.next ?? undefined;
  }

  async listDeliveries(f: DeliveryFilter): Promise<DeliveryRecord[]> {
    await this.ready;
    const params: unknown[] = [];
    const where = deliveryWhere(f, POSTGRES, params);
    return (
      (await this.query(this.pooled, `SELECT * FROM ${DELIVERIES}${where} ORDER BY seq DESC, endpoint LIMIT ${POSTGRES.param(params, f.limit ?? 100)}`, params))
        .rows as DeliveryRow[]
    ).map(toDelivery);
  }

  async replayDeliveries(f: Omit<DeliveryFilter, 'status' | 'limit'>, now: number, at: string): Promise<number> {
    await this.ready;
    const params: unknown[] = [now, at];
    const where = deliveryWhere({ ...f, status: 'dead' }, POSTGRES, params);
    return (
      (
        await this.query(
          this.once,
          `UPDATE ${DELIVERIES} SET status = 'pending', attempts = 0, next_at = $1, last_error = NULL, last_status = NULL, updated_at = $2${where}`,
          params,
        )
      ).rowCount ?? 0
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.reconnect) clearTimeout(this.reconnect);
    const l = this.listener;
    this.listener = undefined;
    this.listening = false;
    await this.ready.catch(() => undefined);
    // A run waiting for its turn still runs (its callers are answered), then the pool ends.
    await (this.nextSequencing ?? this.sequencing)?.catch(() => undefined);
    await l?.end().catch(() => undefined);
    await Promise.all([this.pool.end(), this.background.end()]);
  }
}

// ---- db copy (issue 28): the catalogue, the reader and the writer ---------------------------------------------

const PG_COPY_TYPES: Record<string, ColumnPlan['type']> = {
  text: 'text',
  'character varying': 'text',
  bigint: 'integer',
  integer: 'integer',
  smallint: 'integer',
  'double precision': 'real',
  real: 'real',
  numeric: 'real',
  boolean: 'boolean',
  json: 'json',
  jsonb: 'json',
};
/** The array type a column's values travel in to unnest (JSON as its text, cast back in the SELECT). */
const PG_COPY_ARRAYS: Record<ColumnPlan['type'], string> = { text: 'text[]', integer: 'int8[]', real: 'float8[]', boolean: 'bool[]', json: 'text[]' };

/**
 * Every table of the schema, from PostgreSQL's own catalogue (information_schema), with each column's type. A column
 * the engine fills itself (GENERATED ALWAYS: the outbox's append order `pos`) is not copied.
 */
async function getPgCopyTables(db: pg.PoolClient): Promise<CopyTable[]> {
  const { rows } = await db.query(
    `SELECT c.table_name AS t, c.column_name AS c, c.data_type AS type, c.is_identity AS ident, c.identity_generation AS gen
     FROM information_schema.columns c JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' ORDER BY c.table_name, c.ordinal_position`,
  );
  const tables = new Map<string, CopyColumn[]>();
  for (const r of rows as { t: string; c: string; type: string; ident: string; gen: string | null }[]) {
    let columns = tables.get(r.t);
    if (!columns) tables.set(r.t, (columns = []));
    if (r.ident === 'YES' && r.gen === 'ALWAYS') continue;
    columns.push({ name: r.c, type: PG_COPY_TYPES[r.type] ?? 'text' });
  }
  return [...tables].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, columns]) => ({ name, columns }));
}

async function countPgRows(db: pg.PoolClient, table: string): Promise<number> {
  return Number((await db.query(`SELECT count(*)::bigint AS n FROM ${quoteIdent(table)}`)).rows[0].n);
}

let copyCursors = 0;

/** Rows through a cursor (DECLARE … FETCH) in key order; the outbox in position order, unsequenced appends last. */
/** The identity columns a key is assigned to (GENERATED BY DEFAULT: a resource's integer key), per table. */
async function getPgIdentities(db: pg.PoolClient): Promise<{ t: string; c: string }[]> {
  return (
    await db.query(
      `SELECT table_name AS t, column_name AS c FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES' AND identity_generation = 'BY DEFAULT'`,
    )
  ).rows as { t: string; c: string }[];
}

function pgCopyReader(db: pg.PoolClient): CopyReader {
  return {
    tables: () => getPgCopyTables(db),
    count: (table) => countPgRows(db, table),
    lastKeys: async () => {
      const out = new Map<string, number>();
      for (const { t, c } of await getPgIdentities(db)) {
        const sequence = (await db.query('SELECT pg_get_serial_sequence($1, $2) AS s', [quoteIdent(t), c])).rows[0].s as string | null;
        if (sequence === null) continue;
        const row = (await db.query(`SELECT last_value, is_called FROM ${sequence}`)).rows[0] as { last_value: number; is_called: boolean };
        // Not called: nextval answers last_value itself (a fresh sequence, or one set by a copy), one more than the last issued.
        const last = Number(row.last_value) - (row.is_called ? 0 : 1);
        if (last > 0) out.set(t, last);
      }
      return out;
    },
    rows: async function* (t, size) {
      let order: string;
      if (t.name === OUTBOX) order = 'seq NULLS LAST, pos';
      else {
        const key = (
          await db.query(
            `SELECT a.attname AS name FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) WHERE i.indrelid = $1::regclass AND i.indisprimary ORDER BY array_position(i.indkey::int2[], a.attnum)`,
            [quoteIdent(t.name)],
          )
        ).rows as { name: string }[];
        order = key.length > 0 ? key.map((k) => quoteIdent(k.name)).join(', ') : 'ctid';
      }
      const cursor = `servicespec_copy_${++copyCursors}`;
      const cols = t.columns.map((c) => (c.type === 'json' ? `${quoteIdent(c.name)}::text` : quoteIdent(c.name))).join(', ');
      await db.query(`DECLARE ${cursor} NO SCROLL CURSOR FOR SELECT ${cols} FROM ${quoteIdent(t.name)} ORDER BY ${order}`);
      try {
        for (;;) {
          const batch = await db.query({ text: `FETCH ${Math.max(1, Math.floor(size))} FROM ${cursor}`, rowMode: 'array' });
          if (batch.rows.length === 0) return;
          yield batch.rows as CopyRow[];
          if (batch.rows.length < size) return;
        }
      } finally {
        await db.query(`CLOSE ${cursor}`).catch(() => undefined);
      }
    },
  };
}

/**
 * Runs `load` in the migration's transaction. The foreign keys are dropped first and added back after (each adding
 * checks every row, once), so tables load in any order; identity columns given explicit values continue after them.
 */
async function loadForCopy(db: pg.PoolClient, load: (writer: CopyWriter) => Promise<void>): Promise<void> {
  const keys = (
    await db.query(
      `SELECT conrelid::regclass::text AS tbl, conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE contype = 'f' AND connamespace = current_schema()::regnamespace ORDER BY conname`,
    )
  ).rows as { tbl: string; name: string; def: string }[];
  for (const k of keys) await db.query(`ALTER TABLE ${k.tbl} DROP CONSTRAINT ${quoteIdent(k.name)}`);
  const floors = new Map<string, number>();
  await load({
    dialect: 'postgres',
    continueKeys: async (table, last) => {
      floors.set(table, last);
    },
    tables: () => getPgCopyTables(db),
    count: (table) => countPgRows(db, table),
    clear: async (table) => {
      await db.query(`DELETE FROM ${quoteIdent(table)}`);
    },
    insert: async (t, rows) => {
      // One statement per 10,000 rows: one array per column, unnested (65,535 parameters would bound a VALUES list).
      const names = t.columns.map((c) => quoteIdent(c.name)).join(', ');
      const sql = `INSERT INTO ${quoteIdent(t.name)} (${names}) SELECT ${t.columns.map((c, i) => (c.type === 'json' ? `u${i}::json` : `u${i}`)).join(', ')} FROM unnest(${t.columns.map((c, i) => `$${i + 1}::${PG_COPY_ARRAYS[c.type]}`).join(', ')}) AS u(${t.columns.map((_, i) => `u${i}`).join(', ')})`;
      for (let at = 0; at < rows.length; at += 10_000) {
        const chunk = at === 0 && rows.length <= 10_000 ? rows : rows.slice(at, at + 10_000);
        try {
          await db.query(
            sql,
            t.columns.map((_, i) => chunk.map((r) => r[i] ?? null)),
          );
        } catch (err) {
          throw new Error(`${t.name}: ${(err as Error).message}`);
        }
      }
    },
  });
  for (const k of keys) {
    try {
      await db.query(`ALTER TABLE ${k.tbl} ADD CONSTRAINT ${quoteIdent(k.name)} ${k.def}`);
    } catch (err) {
      throw new Error(`rows of ${k.tbl} refer to rows that do not exist (${(err as Error).message})`);
    }
  }
  for (const { t, c } of await getPgIdentities(db)) {
    await db.query(
      `SELECT setval(pg_get_serial_sequence($1, $2), GREATEST(COALESCE((SELECT max(${quoteIdent(c)}) FROM ${quoteIdent(t)}), 0), $3::bigint) + 1, false)`,
      [quoteIdent(t), c, floors.get(t) ?? 0],
    );
  }
}

// ---- end of db copy -------------------------------------------------------------------------------------------------

export function createPostgresStorage(options: PostgresOptions): PostgresStorage {
  return new PostgresStorage(options);
}
