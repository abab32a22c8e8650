// The one storage interface the runtime talks to. SQLite is the embedded default; PostgreSQL slots in
// behind the same interface. Nothing above this folder knows which engine it is talking to.

export type ColumnType = 'text' | 'integer' | 'real' | 'boolean' | 'json';

/** One column of a resource table, derived from a field (storage-plan.ts). */
export interface ColumnPlan {
  name: string;
  type: ColumnType;
  notNull: boolean;
  unique: boolean;
  primaryKey: boolean;
  /** Server-assigned integer key. */
  autoIncrement: boolean;
  /** A foreign key: the table and column referred to. */
  references?: { table: string; column: string };
  /** Checks expressible in SQL on every engine. */
  check: {
    values?: readonly (string | number)[];
    minimum?: number;
    maximum?: number;
    exclusiveMinimum?: number;
    exclusiveMaximum?: number;
    minLength?: number;
    maxLength?: number;
  };
}

export interface TablePlan {
  /** The resource name, used as the table name. */
  name: string;
  columns: readonly ColumnPlan[];
  primaryKey: string;
}

export interface StoragePlan {
  tables: readonly TablePlan[];
}

export interface MigrationStep {
  kind: 'create_table' | 'add_column' | 'rebuild_table';
  table: string;
  column?: string;
  description: string;
}

export interface MigrationRefusal {
  table: string;
  column?: string;
  reason: string;
}

export type MigrationResult =
  | { ok: true; steps: readonly MigrationStep[] }
  | { ok: false; refusals: readonly MigrationRefusal[] };

export type Row = Record<string, unknown>;

export interface SortSpec {
  column: string;
  descending: boolean;
}

/** A keyset position: the last row of the previous page. */
export interface KeysetPosition {
  /** The sort column's value in the last row (null when it was null). */
  value?: unknown;
  id: unknown;
}

export interface ListQuery {
  equals: Readonly<Record<string, unknown>>;
  sort?: SortSpec;
  after?: KeysetPosition;
  limit: number;
}

export interface StoredEvent {
  id: string;
  type: string;
  timestamp: string;
  version?: string;
  data: unknown;
}

export interface OutboxEntry extends StoredEvent {
  /** Position in the outbox, strictly increasing in commit order. */
  seq: number;
}

/** Work done inside one transaction. */
export interface StorageTx {
  insert(table: string, row: Row): Promise<Row>;
  get(table: string, id: unknown): Promise<Row | undefined>;
  list(table: string, query: ListQuery): Promise<Row[]>;
  /**
   * Writes `changes` to the row with this id. With `expect`, only if the column still holds that value
   * (compare-and-set); returns the updated row, or undefined when no row matched.
   */
  update(table: string, id: unknown, changes: Row, expect?: { column: string; value: unknown }): Promise<Row | undefined>;
  delete(table: string, id: unknown): Promise<boolean>;
  /** Appends to the outbox inside the same transaction as the change that caused it. */
  appendEvent(event: StoredEvent): Promise<void>;
}

export type StorageErrorKind = 'unique_conflict' | 'reference_not_found' | 'check_failed';

/** A constraint the database refused; the runtime maps it to a declared error. */
export class StorageConstraintError extends Error {
  constructor(
    readonly kind: StorageErrorKind,
    readonly column: string | undefined,
  ) {
    super(kind);
    this.name = 'StorageConstraintError';
  }
}

/** A credential the service issued: an API key, an OAuth2 client, or a Basic user. Secrets only as hashes. */
export interface CredentialRecord {
  id: string;
  kind: 'api_key' | 'client' | 'basic';
  /** The public part used to find the record (a key id, client id or user name). */
  lookup: string;
  /** A hash of the secret; the secret itself is shown once and never stored. */
  hash: string;
  subject: string;
  scopes: readonly string[];
  createdAt: string;
  revokedAt?: string;
}

export interface Storage {
  readonly dialect: 'sqlite' | 'postgres';
  /** Brings the tables in line with the plan: additive changes are applied, destructive ones refused. */
  migrate(plan: StoragePlan): Promise<MigrationResult>;
  transaction<T>(work: (tx: StorageTx) => Promise<T>): Promise<T>;
  /** Outbox entries after `seq`, oldest first. */
  readEvents(afterSeq: number, limit: number): Promise<OutboxEntry[]>;
  insertCredential(record: CredentialRecord): Promise<void>;
  findCredential(kind: CredentialRecord['kind'], lookup: string): Promise<CredentialRecord | undefined>;
  listCredentials(kind: CredentialRecord['kind']): Promise<CredentialRecord[]>;
  /** Marks the credential revoked; false when there is no such credential. */
  revokeCredential(kind: CredentialRecord['kind'], id: string, at: string): Promise<boolean>;
  /** A value kept across restarts (secrets the runtime generates for itself). */
  getSetting(key: string): Promise<string | undefined>;
  setSetting(key: string, value: string): Promise<void>;
  close(): Promise<void>;
}
