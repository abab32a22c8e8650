import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { diffStoragePlans } from './storage-plan.js';
import {
  StorageConstraintError,
  type ColumnPlan,
  type CredentialRecord,
  type ListQuery,
  type MigrationRefusal,
  type MigrationResult,
  type OutboxEntry,
  type Row,
  type Storage,
  type StoragePlan,
  type StorageTx,
  type StoredEvent,
  type TablePlan,
} from './storage-types.js';

export interface SqliteOptions {
  /** A file path, or ':memory:'. */
  path: string;
  /** `full` (the default) makes an acknowledged commit survive power loss; `normal` trades that for speed. */
  synchronous?: 'full' | 'normal';
}

const META = '_servicespec_meta';
const OUTBOX = '_servicespec_outbox';
const CREDENTIALS = '_servicespec_credentials';
const PLAN_KEY = 'storage_plan';

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function literal(v: string | number): string {
  return typeof v === 'number' ? String(v) : `'${v.replace(/'/g, "''")}'`;
}

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
  const k = c.check;
  if (k.values) checks.push(`${q} IN (${k.values.map(literal).join(', ')})`);
  if (k.minimum !== undefined) checks.push(`${q} >= ${k.minimum}`);
  if (k.maximum !== undefined) checks.push(`${q} <= ${k.maximum}`);
  if (k.exclusiveMinimum !== undefined) checks.push(`${q} > ${k.exclusiveMinimum}`);
  if (k.exclusiveMaximum !== undefined) checks.push(`${q} < ${k.exclusiveMaximum}`);
  if (k.minLength !== undefined) checks.push(`length(${q}) >= ${k.minLength}`);
  if (k.maxLength !== undefined) checks.push(`length(${q}) <= ${k.maxLength}`);
  for (const ch of checks) parts.push(`CHECK (${ch})`);
  return parts.join(' ');
}

function createTableSql(t: TablePlan, name = t.name): string {
  const cols = t.columns.map(columnSql);
  for (const c of t.columns) {
    if (c.references) cols.push(`FOREIGN KEY (${quoteIdent(c.name)}) REFERENCES ${quoteIdent(c.references.table)} (${quoteIdent(c.references.column)})`);
  }
  return `CREATE TABLE ${quoteIdent(name)} (\n  ${cols.join(',\n  ')}\n) STRICT`;
}

/** better-sqlite3 reports constraint failures as codes and messages; turn them into the runtime's kinds. */
function mapConstraintError(err: unknown): unknown {
  const e = err as { code?: string; message?: string };
  if (typeof e?.code !== 'string' || !e.code.startsWith('SQLITE_CONSTRAINT')) return err;
  const column = /failed: [^.]+\.(\w+)/.exec(e.message ?? '')?.[1];
  if (e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return new StorageConstraintError('unique_conflict', column);
  if (e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return new StorageConstraintError('reference_not_found', column);
  return new StorageConstraintError('check_failed', column);
}

class SqliteTx implements StorageTx {
  constructor(
    private readonly s: SqliteStorage,
    private readonly tables: ReadonlyMap<string, TablePlan>,
  ) {}

  private table(name: string): TablePlan {
    const t = this.tables.get(name);
    if (!t) throw new Error(`no table for resource ${name}`);
    return t;
  }

  async insert(table: string, row: Row): Promise<Row> {
    const t = this.table(table);
    const cols = t.columns.filter((c) => row[c.name] !== undefined);
    const sql = cols.length
      ? `INSERT INTO ${quoteIdent(table)} (${cols.map((c) => quoteIdent(c.name)).join(', ')}) VALUES (${cols.map(() => '?').join(', ')}) RETURNING *`
      : `INSERT INTO ${quoteIdent(table)} DEFAULT VALUES RETURNING *`;
    try {
      const out = this.s.stmt(sql).get(...cols.map((c) => encode(c, row[c.name]))) as Row;
      return decodeRow(t, out);
    } catch (err) {
      throw mapConstraintError(err);
    }
  }

  async get(table: string, id: unknown): Promise<Row | undefined> {
    const t = this.table(table);
    const out = this.s.stmt(`SELECT * FROM ${quoteIdent(table)} WHERE ${quoteIdent(t.primaryKey)} = ?`).get(id) as Row | undefined;
    return out && decodeRow(t, out);
  }

  async list(table: string, q: ListQuery): Promise<Row[]> {
    const t = this.table(table);
    const pk = quoteIdent(t.primaryKey);
    const where: string[] = [];
    const params: unknown[] = [];
    for (const [name, value] of Object.entries(q.equals)) {
      const c = t.columns.find((x) => x.name === name);
      if (!c) throw new Error(`no column ${name}`);
      if (value === null) where.push(`${quoteIdent(name)} IS NULL`);
      else {
        where.push(`${quoteIdent(name)} = ?`);
        params.push(encode(c, value));
      }
    }
    let order = `${pk} ASC`;
    if (q.sort && q.sort.column !== t.primaryKey) {
      const c = t.columns.find((x) => x.name === q.sort!.column);
      if (!c) throw new Error(`no column ${q.sort.column}`);
      const col = quoteIdent(c.name);
      const dir = q.sort.descending ? 'DESC' : 'ASC';
      const cmp = q.sort.descending ? '<' : '>';
      // Nulls sort last in either direction; the identifier breaks ties.
      order = `(${col} IS NULL) ASC, ${col} ${dir}, ${pk} ${dir}`;
      if (q.after) {
        if (q.after.value === null || q.after.value === undefined) {
          where.push(`(${col} IS NULL AND ${pk} ${cmp} ?)`);
          params.push(q.after.id);
        } else {
          where.push(`((${col} IS NOT NULL AND (${col} ${cmp} ? OR (${col} = ? AND ${pk} ${cmp} ?))) OR ${col} IS NULL)`);
          const v = encode(c, q.after.value);
          params.push(v, v, q.after.id);
        }
      }
    } else {
      const descending = q.sort?.descending ?? false;
      order = `${pk} ${descending ? 'DESC' : 'ASC'}`;
      if (q.after) {
        where.push(`${pk} ${descending ? '<' : '>'} ?`);
        params.push(q.after.id);
      }
    }
    const sql = `SELECT * FROM ${quoteIdent(table)}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} LIMIT ?`;
    params.push(q.limit);
    return (this.s.stmt(sql).all(...params) as Row[]).map((r) => decodeRow(t, r));
  }

  async update(table: string, id: unknown, changes: Row, expect?: { column: string; value: unknown }): Promise<Row | undefined> {
    const t = this.table(table);
    const cols = t.columns.filter((c) => c.name in changes && !c.primaryKey);
    if (cols.length === 0) return this.get(table, id);
    let sql = `UPDATE ${quoteIdent(table)} SET ${cols.map((c) => `${quoteIdent(c.name)} = ?`).join(', ')} WHERE ${quoteIdent(t.primaryKey)} = ?`;
    const params = [...cols.map((c) => encode(c, changes[c.name])), id];
    if (expect) {
      const c = t.columns.find((x) => x.name === expect.column)!;
      sql += ` AND ${quoteIdent(expect.column)} = ?`;
      params.push(encode(c, expect.value));
    }
    try {
      const out = this.s.stmt(`${sql} RETURNING *`).get(...params) as Row | undefined;
      return out && decodeRow(t, out);
    } catch (err) {
      throw mapConstraintError(err);
    }
  }

  async delete(table: string, id: unknown): Promise<boolean> {
    const t = this.table(table);
    try {
      return this.s.stmt(`DELETE FROM ${quoteIdent(table)} WHERE ${quoteIdent(t.primaryKey)} = ?`).run(id).changes > 0;
    } catch (err) {
      throw mapConstraintError(err);
    }
  }

  async appendEvent(e: StoredEvent): Promise<void> {
    this.s
      .stmt(`INSERT INTO ${OUTBOX} (id, type, timestamp, version, data) VALUES (?, ?, ?, ?, ?)`)
      .run(e.id, e.type, e.timestamp, e.version ?? null, JSON.stringify(e.data));
  }
}

function encode(c: ColumnPlan, v: unknown): unknown {
  if (v === undefined || v === null) return null;
  if (c.type === 'boolean') return v ? 1 : 0;
  if (c.type === 'json') return JSON.stringify(v);
  return v;
}

function decodeRow(t: TablePlan, raw: Row): Row {
  const out: Row = {};
  for (const c of t.columns) {
    const v = raw[c.name];
    if (v === null || v === undefined) out[c.name] = null;
    else if (c.type === 'boolean') out[c.name] = v === 1;
    else if (c.type === 'json') out[c.name] = JSON.parse(v as string);
    else out[c.name] = v;
  }
  return out;
}

interface CredentialRow {
  id: string;
  kind: CredentialRecord['kind'];
  lookup: string;
  hash: string;
  subject: string;
  scopes: string;
  created_at: string;
  revoked_at: string | null;
}

function toCredential(r: CredentialRow): CredentialRecord {
  const out: CredentialRecord = { id: r.id, kind: r.kind, lookup: r.lookup, hash: r.hash, subject: r.subject, scopes: JSON.parse(r.scopes) as string[], createdAt: r.created_at };
  if (r.revoked_at !== null) out.revokedAt = r.revoked_at;
  return out;
}

export class SqliteStorage implements Storage {
  readonly dialect = 'sqlite' as const;
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  private tables = new Map<string, TablePlan>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(options: SqliteOptions) {
    if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
    this.db = new Database(options.path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(`CREATE TABLE IF NOT EXISTS ${META} (key TEXT NOT NULL PRIMARY KEY, value TEXT NOT NULL) STRICT`);
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS ${OUTBOX} (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, timestamp TEXT NOT NULL, version TEXT, data TEXT NOT NULL) STRICT`,
    );
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS ${CREDENTIALS} (id TEXT NOT NULL PRIMARY KEY, kind TEXT NOT NULL, lookup TEXT NOT NULL, hash TEXT NOT NULL, subject TEXT NOT NULL, scopes TEXT NOT NULL, created_at TEXT NOT NULL, revoked_at TEXT, UNIQUE (kind, lookup)) STRICT`,
    );
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
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const p = this.queue.then(fn, fn);
    this.queue = p.catch(() => undefined);
    return p;
  }

  async migrate(plan: StoragePlan): Promise<MigrationResult> {
    return this.serial(async () => {
      const row = this.stmt(`SELECT value FROM ${META} WHERE key = ?`).get(PLAN_KEY) as { value: string } | undefined;
      const stored: StoragePlan = row ? (JSON.parse(row.value) as StoragePlan) : { tables: [] };
      const { steps, refusals } = diffStoragePlans(stored, plan);
      if (refusals.length > 0) return { ok: false, refusals };
      const rebuilt = new Set(steps.filter((s) => s.kind === 'rebuild_table').map((s) => s.table));
      const failed: MigrationRefusal[] = [];
      this.db.pragma('foreign_keys = OFF');
      try {
        this.db.transaction(() => {
          for (const step of steps) {
            const t = plan.tables.find((x) => x.name === step.table)!;
            if (step.kind === 'create_table') this.db.exec(createTableSql(t));
            else if (step.kind === 'add_column' && !rebuilt.has(t.name)) {
              this.db.exec(`ALTER TABLE ${quoteIdent(t.name)} ADD COLUMN ${columnSql(t.columns.find((c) => c.name === step.column)!)}`);
            } else if (step.kind === 'rebuild_table') {
              const old = stored.tables.find((x) => x.name === t.name)!;
              const shared = old.columns.filter((c) => t.columns.some((n) => n.name === c.name)).map((c) => quoteIdent(c.name)).join(', ');
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
          this.stmt(`INSERT INTO ${META} (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`).run(PLAN_KEY, JSON.stringify(plan));
        })();
      } catch (err) {
        if (failed.length > 0) return { ok: false, refusals: failed };
        throw err;
      } finally {
        this.db.pragma('foreign_keys = ON');
        this.statements.clear();
      }
      this.tables = new Map(plan.tables.map((t) => [t.name, t]));
      return { ok: true, steps };
    });
  }

  transaction<T>(work: (tx: StorageTx) => Promise<T>): Promise<T> {
    return this.serial(async () => {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const result = await work(new SqliteTx(this, this.tables));
        this.db.exec('COMMIT');
        return result;
      } catch (err) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw err;
      }
    });
  }

  async readEvents(afterSeq: number, limit: number): Promise<OutboxEntry[]> {
    const rows = this.stmt(`SELECT seq, id, type, timestamp, version, data FROM ${OUTBOX} WHERE seq > ? ORDER BY seq LIMIT ?`).all(afterSeq, limit) as (Omit<OutboxEntry, 'data' | 'version'> & { data: string; version: string | null })[];
    return rows.map((r) => {
      const e: OutboxEntry = { seq: r.seq, id: r.id, type: r.type, timestamp: r.timestamp, data: JSON.parse(r.data) };
      if (r.version !== null) e.version = r.version;
      return e;
    });
  }

  async insertCredential(r: CredentialRecord): Promise<void> {
    await this.serial(async () => {
      this.stmt(`INSERT INTO ${CREDENTIALS} (id, kind, lookup, hash, subject, scopes, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`).run(
        r.id,
        r.kind,
        r.lookup,
        r.hash,
        r.subject,
        JSON.stringify(r.scopes),
        r.createdAt,
        r.revokedAt ?? null,
      );
    });
  }

  async findCredential(kind: CredentialRecord['kind'], lookup: string): Promise<CredentialRecord | undefined> {
    const row = this.stmt(`SELECT * FROM ${CREDENTIALS} WHERE kind = ? AND lookup = ?`).get(kind, lookup) as CredentialRow | undefined;
    return row && toCredential(row);
  }

  async listCredentials(kind: CredentialRecord['kind']): Promise<CredentialRecord[]> {
    return (this.stmt(`SELECT * FROM ${CREDENTIALS} WHERE kind = ? ORDER BY created_at, id`).all(kind) as CredentialRow[]).map(toCredential);
  }

  async revokeCredential(kind: CredentialRecord['kind'], id: string, at: string): Promise<boolean> {
    return this.serial(async () => this.stmt(`UPDATE ${CREDENTIALS} SET revoked_at = COALESCE(revoked_at, ?) WHERE kind = ? AND id = ?`).run(at, kind, id).changes > 0);
  }

  async getSetting(key: string): Promise<string | undefined> {
    return (this.stmt(`SELECT value FROM ${META} WHERE key = ?`).get(`setting:${key}`) as { value: string } | undefined)?.value;
  }

  async setSetting(key: string, value: string): Promise<void> {
    this.stmt(`INSERT INTO ${META} (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`).run(`setting:${key}`, value);
  }

  /** The engine's own integrity check; "ok" when the file is sound. */
  integrityCheck(): string {
    return String(this.db.pragma('integrity_check', { simple: true }));
  }

  async close(): Promise<void> {
    await this.queue;
    if (this.db.open) this.db.close();
  }
}

export function createSqliteStorage(options: SqliteOptions): SqliteStorage {
  return new SqliteStorage(options);
}
