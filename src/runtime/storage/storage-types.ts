// The storage contract the runtime talks to, as role interfaces (resources, credentials, outbox and deliveries,
// idempotency records, settings) composed into `Storage`. SQLite (one file, one writer) is the embedded default;
// PostgreSQL (many stateless instances on one database) keeps the same guarantees, each stated where it is
// declared together with how each engine keeps it. Nothing above this folder knows which engine it talks to.
// test/storage/storage-conformance.test.ts runs one set of tests against every storage.

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
  /**
   * This column records that the field named was never given (true) where the field's column is NULL: an optional,
   * nullable field reads back absent (undefined), not null (docs/format.md keeps the two apart). Named
   * `<field>$absent` (no field name has a `$`); the field's own column keeps its value unaltered. NULL here (rows
   * written before the column was added) reads as null, as those rows always did.
   */
  absentOf?: string;
  /** A datetime: stored as written, ordered and matched by the instant it names (storage-instant.ts). */
  instant?: boolean;
  /**
   * A datetime only the server writes (a generated time, a transition's stamp), always as toISOString() does: its
   * text orders as its instants, so sorting and keyset pages read the column itself (and its index), not the key.
   */
  canonical?: boolean;
  /** The nested field whose value this column keeps (getNestedColumn), written by the runtime with its top-level field's. */
  nested?: string;
  /** A foreign key: the table and column referred to. */
  references?: { table: string; column: string };
  /**
   * The value's JSON Schema (as answers hold it), where it says what `check` cannot: a JSON column's structure (an
   * object's members, an array's items, a map's values, a union's variants), a text's pattern or format, a number's
   * multipleOf. A change to it is checked against the stored rows in JavaScript (storage-migrate.ts' checkShapes).
   */
  shape?: unknown;
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
  /** Columns unique together (a resource's `unique_keys`), each key one constraint. */
  uniqueKeys?: readonly (readonly string[])[];
}

/** What a transaction needs of an AbortSignal (an AbortSignal is one). */
export interface AbortLike {
  readonly aborted: boolean;
  throwIfAborted(): void;
  /** Where given, a running transaction rolls back as soon as the signal aborts, not only at its commit. */
  addEventListener?(type: 'abort', listener: () => void): void;
  removeEventListener?(type: 'abort', listener: () => void): void;
}

export interface ReadOptions {
  /** The statements of the read see one snapshot of the database. */
  snapshot?: boolean;
}

export interface StoragePlan {
  tables: readonly TablePlan[];
  /** Each column records its `shape` (a column without one has none to meet); absent in plans made before shapes. */
  shapes?: true;
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

export type MigrationResult = { ok: true; steps: readonly MigrationStep[] } | { ok: false; refusals: readonly MigrationRefusal[] };

/**
 * Raw statements inside a migration's transaction (and, on PostgreSQL, under its advisory lock), for the steps
 * `servicespec migrate` runs before the additive ones (storage-migrate.ts): renames, drops, backfills, conversions.
 */
export interface MigrationSession {
  readonly dialect: 'sqlite' | 'postgres';
  /** One statement; parameters as `?` (SQLite) or `$1` (PostgreSQL). Returns the rows it reads. */
  query(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** The column as ALTER TABLE ... ADD COLUMN takes it. */
  columnSql(c: ColumnPlan): string;
  /** A value as this engine stores it in the column. */
  encode(c: ColumnPlan, v: unknown): unknown;
  /**
   * PostgreSQL: names the table's own constraints after the table and the columns they are on now, renaming in
   * place those a table or column rename left under the old names (a violation's constraint name tells its column).
   */
  nameConstraints?(table: string): Promise<void>;
}

/** What the steps run by `MigrateOptions.prepare` left: the plan the database now holds, and what diffing it needs. */
export type PreparedMigration =
  | {
      ok: true;
      stored: StoragePlan;
      /** Tables to rebuild even where their plans agree (SQLite drops a column by rebuilding its table). */
      rebuild?: ReadonlySet<string>;
      /** `table.column`s that became required and whose rows were checked to all hold a value (rebuilt, not refused). */
      filled?: ReadonlySet<string>;
    }
  /** Roll everything back and return these refusals (none: a plan that was only looked at). */
  | { ok: false; refusals: readonly MigrationRefusal[] };

export interface MigrateOptions {
  /** Runs first in the migration's transaction, with the plan the database records. */
  prepare?: (session: MigrationSession, stored: StoragePlan) => Promise<PreparedMigration>;
  /**
   * db copy (issue 28): runs last in the migration's transaction, after its steps and the plan recorded, writing raw
   * rows through `writer`; a throw rolls everything back, steps included. Foreign keys are checked once, after it.
   */
  load?: (writer: CopyWriter) => Promise<void>;
}

// ---- db copy (issue 28): every table's rows, read on one snapshot and written into an empty database ----------

/** A column as copied: its name and the portable type of its values. */
export interface CopyColumn {
  name: string;
  type: ColumnType;
}

/** A table as the database's own catalogue lists it (never a list kept by hand, so a new table cannot be missed). */
export interface CopyTable {
  name: string;
  /** The columns copied: every column but an engine's own ordering column (PostgreSQL's outbox `pos`). */
  columns: readonly CopyColumn[];
}

/**
 * A row as copied: one value per column of its CopyTable, in order, portable between the engines: text and numbers
 * as they are, a boolean as true or false, JSON as its stored text (so it reads back unaltered), absent as null.
 */
export type CopyRow = unknown[];

export interface CopyReader {
  /** Every table in the database: servicespec's own and the resources'. */
  tables(): Promise<CopyTable[]>;
  count(table: string): Promise<number>;
  /** The table's rows in batches of at most `size`, in the order they were written (key or append order). */
  rows(table: CopyTable, size: number): AsyncIterable<CopyRow[]>;
  /** Per table with a server-assigned key, the last key issued (more than the largest held when rows were deleted). */
  lastKeys(): Promise<Map<string, number>>;
}

export interface CopyWriter {
  readonly dialect: 'sqlite' | 'postgres';
  tables(): Promise<CopyTable[]>;
  count(table: string): Promise<number>;
  /** Removes every row of the table (the migration record the load replaces with the source's). */
  clear(table: string): Promise<void>;
  /** Inserts the rows (values in `table.columns` order), many per statement. */
  insert(table: CopyTable, rows: readonly CopyRow[]): Promise<void>;
  /** The table's server-assigned key continues after `last` (and after every key it holds): no deleted key comes back. */
  continueKeys(table: string, last: number): Promise<void>;
}

/** db copy (issue 28): what `servicespec db copy` needs of a storage (both engines have it). */
export interface CopyStorage {
  /** Runs `work` on one read-only snapshot of the whole database (SQLite: one read transaction; PostgreSQL: REPEATABLE READ). */
  readForCopy<T>(work: (reader: CopyReader) => Promise<T>): Promise<T>;
}

export type Row = Record<string, unknown>;

/**
 * A JSON value as stored: its text, not parsed (`SyncReader.getStored`). The runtime writes every JSON value as
 * `JSON.stringify` of it, so the text is what `JSON.stringify` would make of the parsed value.
 */
export class StoredJson {
  // Assigned, not a class field: a field is defined through a slow path on every construction (ES2022 semantics).
  declare readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

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
  /** Rows skipped before the first one answered (offset and page paging). */
  offset?: number;
  /** Count only: the answer is one row `{ count }`, the number of rows matching `equals` (sort, after, limit, offset ignored). */
  count?: boolean;
}

export interface StoredEvent {
  id: string;
  type: string;
  timestamp: string;
  version?: string;
  data: unknown;
}

export interface OutboxEntry extends StoredEvent {
  /**
   * Position in the outbox: strictly increasing in commit order, so a reader that has seen `seq` n has seen
   * every entry that will ever have a lower one, and an integer cursor (SSE id, fan-out cursor) never skips.
   * SQLite: one writer, so rowid order is commit order. PostgreSQL: a position taken while appending is not (a
   * transaction that took 7 can commit after one that took 8, and a reader that saw 8 skips 7 forever), so events
   * are appended without one and given positions after they commit, by one sequencer at a time (a transaction-scoped
   * advisory lock held to its COMMIT), continuing from the highest: a late commit gets a later position. Writers do
   * not wait for each other; readers give positions to what has committed before they read (`seq > n`).
   */
  seq: number;
}

/** Work done inside one transaction. */
export interface StorageTx {
  insert(table: string, row: Row): Promise<Row>;
  /** Inside `transaction`, the row stays as read until the commit (SQLite: one writer; PostgreSQL: FOR NO KEY UPDATE). */
  get(table: string, id: unknown): Promise<Row | undefined>;
  list(table: string, query: ListQuery): Promise<Row[]>;
  /**
   * Writes `changes` to the row with this id. With `expect`, only if the column still holds that value
   * (compare-and-set: of concurrent updates expecting one value, across connections and instances, exactly one
   * matches); returns the updated row, or undefined when no row matched.
   */
  update(table: string, id: unknown, changes: Row, expect?: { column: string; value: unknown }): Promise<Row | undefined>;
  delete(table: string, id: unknown): Promise<boolean>;
  /** Appends to the outbox inside the same transaction as the change that caused it (visible when it commits, lost when it rolls back). */
  appendEvent(event: StoredEvent): Promise<void>;
  /**
   * Optional: the storage's `claimRecord` inside this transaction, so a keyed change claims its key with its
   * answer in the change's own commit (SQLite). Same semantics as the storage's method.
   */
  claimRecord?(namespace: string, key: string, value: string, expiresAt: string, now: string): Promise<{ created: boolean; value: string }>;
  /** Optional: replaces the value of a record this transaction claimed (PostgreSQL: a key claimed first, answered last). */
  putRecord?(namespace: string, key: string, value: string, expiresAt: string): Promise<void>;
  /**
   * Removes, with their queues, the callback subscriptions about one object (webhook endpoints whose
   * `access.object` names it), in this transaction: the object's delete takes them with it. Returns how many.
   */
  deleteObjectSubscriptions(resource: string, id: unknown): Promise<number>;
}

/** The reads of `StorageTx`, answered synchronously. */
export interface SyncReader {
  get(table: string, id: unknown): Row | undefined;
  list(table: string, query: ListQuery): Row[];
  /** Optional: as `get`, with each JSON value as its stored text (a `StoredJson`), for an answer written from the text. */
  getStored?(table: string, id: unknown): Row | undefined;
  /** Optional: as `list`, with each JSON value as its stored text (see `getStored`). */
  listStored?(table: string, query: ListQuery): Row[];
}

/**
 * Changes committed at once (see `writeNow`): a statement outside `transaction` commits by itself; constraint
 * failures throw `StorageConstraintError`.
 */
export interface SyncWriter {
  insert(table: string, row: Row): Row;
  /** Optional: as `insert`, the row returned with each JSON value as its stored text (see `SyncReader.getStored`). */
  insertStored?(table: string, row: Row): Row;
  /** As `RecordStorage.claimRecord`; inside `transaction`, it commits with the rest. */
  claimRecord(namespace: string, key: string, value: string, expiresAt: string, now: string): { created: boolean; value: string };
  /** Runs `work` in one transaction begun and committed in this turn; rolls it back when `work` throws. */
  transaction<T>(work: () => T): T;
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

/** Change notifications a storage can give about writes made through other connections or instances. */
export type StorageChange = 'outbox' | 'credentials';

/**
 * Resources: the model's tables. Constraint failures come back as `StorageConstraintError` (unique, reference,
 * check), never as driver errors.
 */
export interface ResourceStorage {
  readonly dialect: 'sqlite' | 'postgres';
  /**
   * Brings the tables in line with the plan: additive changes are applied, destructive ones refused, each by
   * table and column name, with nothing changed. Several instances may migrate one database at once: one applies,
   * the others then find the plan applied (SQLite: one writer; PostgreSQL: under `pg_advisory_xact_lock`).
   */
  migrate(plan: StoragePlan, options?: MigrateOptions): Promise<MigrationResult>;
  /**
   * Runs `work` in one transaction; when `signal` is aborted before the commit, everything is rolled back (at
   * once, where the signal can be listened to), and the transaction refuses any later statement.
   * Isolation: read committed plus the row locks of `get`, and compare-and-set in `update`.
   */
  transaction<T>(work: (tx: StorageTx) => Promise<T>, signal?: AbortLike): Promise<T>;
  /**
   * Runs read-only `work` (one statement) without opening a write transaction; it sees only committed rows and never
   * waits for a writer, where the engine allows. With `snapshot`, `work` may read several statements that must
   * agree (a page and its total): they see one snapshot (PostgreSQL: a REPEATABLE READ READ ONLY transaction;
   * SQLite: its statements run on one connection with nothing written between them in this process).
   */
  read<T>(work: (tx: StorageTx) => Promise<T>, options?: ReadOptions): Promise<T>;
  /**
   * Optional fast path. A reader that answers at once, for a storage whose driver runs in-process (SQLite),
   * reading only what is committed: on a file, always (a second, read-only connection); in memory, only while
   * nothing is queued or in a transaction. Undefined otherwise, and always for a storage over the network
   * (PostgreSQL); callers then use `read`.
   */
  readNow?(): SyncReader | undefined;
  /**
   * Optional fast path. A writer that commits one statement at once (its own transaction), for a storage whose
   * driver runs in-process (SQLite), while nothing is queued or in a transaction; undefined otherwise, and always
   * for a storage over the network. For a change made of statements with no await between them (a create that
   * emits no event, with its Idempotency-Key's claim): callers otherwise use `transaction`. The driver is
   * synchronous, so a transaction run in one turn needs no queue: nothing else runs on the connection meanwhile.
   */
  writeNow?(): SyncWriter | undefined;
}

/**
 * Credentials. A revocation or a new credential written through any instance is seen by every instance within
 * a second: SQLite reads `PRAGMA data_version` (moves on another connection's commit) at most once a
 * millisecond; PostgreSQL caches only while its LISTEN connection is up, and drops the cache on each
 * NOTIFY (sent in the revoking transaction, so heard after its commit) and on every reconnect.
 */
export interface CredentialStorage {
  /** Optional fast path: `findCredential` answered at once, where the storage can (see `readNow`). */
  findCredentialNow?(kind: CredentialRecord['kind'], lookup: string): CredentialRecord | undefined;
  /** Rejects when the kind already has a credential with this lookup (or this id). */
  insertCredential(record: CredentialRecord): Promise<void>;
  findCredential(kind: CredentialRecord['kind'], lookup: string): Promise<CredentialRecord | undefined>;
  listCredentials(kind: CredentialRecord['kind']): Promise<CredentialRecord[]>;
  /** Marks the credential revoked (the first revocation time is kept); false when there is no such credential. */
  revokeCredential(kind: CredentialRecord['kind'], id: string, at: string): Promise<boolean>;
}

/** Idempotency (and other keyed records the runtime keeps for itself). */
export interface RecordStorage {
  /**
   * A record in a keyed namespace: inserted only when the key is absent or its previous record has expired.
   * Returns the record now stored. Of concurrent claims of one key, on any instance, exactly one is `created`;
   * the others get its value (SQLite: one writer; PostgreSQL: INSERT … ON CONFLICT, which waits for the other).
   */
  claimRecord(namespace: string, key: string, value: string, expiresAt: string, now: string): Promise<{ created: boolean; value: string }>;
  putRecord(namespace: string, key: string, value: string, expiresAt: string): Promise<void>;
  deleteRecord(namespace: string, key: string): Promise<void>;
  /**
   * Removes expired records, a bounded amount of work per call (callers repeat it): at most `limit` records are
   * deleted, and on SQLite at most `limit` are examined — a walk over the table that resumes where the last call
   * stopped, so a call costs the same whatever the table's size. Returns how many it deleted.
   */
  deleteExpiredRecords(now: string, limit: number): Promise<number>;
  /** Optional: the committed record's value, unexpired; undefined when there is none. */
  findRecord?(namespace: string, key: string, now: string): Promise<string | undefined>;
  /** Optional fast path (see `readNow`): the committed record's value, unexpired, read at once; undefined when there is none or the storage cannot. */
  findRecordNow?(namespace: string, key: string, now: string): string | undefined;
}

/** Settings: values kept across restarts (secrets the runtime generates for itself). */
export interface SettingStorage {
  getSetting(key: string): Promise<string | undefined>;
  setSetting(key: string, value: string): Promise<void>;
  /**
   * Stores `value` unless the key already holds one, and returns what the key holds now: of several instances
   * starting together on one database, every one ends up with the same value (INSERT … ON CONFLICT DO NOTHING).
   */
  claimSetting(key: string, value: string): Promise<string>;
}

/** Every role, over one database. */
export interface Storage extends ResourceStorage, CredentialStorage, EventStorage, RecordStorage, SettingStorage, Partial<CopyStorage> {
  /**
   * Optional: calls `listener` when another connection or instance changed the outbox (gave committed events their
   * positions, which is when readers see them) or the credentials (and once after each reconnect, since changes
   * made meanwhile were not heard). A doorbell only: the change is read from the tables. PostgreSQL: LISTEN/NOTIFY.
   * Absent for SQLite, whose readers poll.
   */
  watch?(listener: (change: StorageChange) => void): () => void;
  close(): Promise<void>;
}

// ---- events (issue 5): webhook endpoints and their delivery queue ----------------------------------------------
// The queue is the database: an event committed to the outbox is fanned out to the endpoints that want it by a
// stored cursor, and every attempt's outcome is written back, so delivery survives restarts and SIGKILL.

/** One signing secret of an endpoint; during rotation the previous one is kept until it expires. */
export interface WebhookSecret {
  /** `whsec_` + base64 of the key bytes (Standard Webhooks). */
  secret: string;
  createdAt: string;
  /** From this time on, deliveries are no longer signed with it. */
  expiresAt?: string;
}

/**
 * Who registered an endpoint through the API, as they were then: the endpoint receives only events this principal
 * may read. `credential` names the stored credential, whose revocation stops the endpoint.
 */
export interface WebhookAccess {
  subject?: string;
  scopes: readonly string[];
  scheme?: string;
  credential?: { kind: CredentialRecord['kind']; lookup: string };
  /** A callback's subscription: only events about this object (its identifier, as the events carry it). */
  object?: { resource: string; id: unknown };
}

export interface WebhookEndpointRecord {
  id: string;
  url: string;
  /** The event kinds delivered to it; null for every kind. */
  kinds: readonly string[] | null;
  description?: string;
  /** The subject that registered it through the API; absent when the operator did (CLI). */
  subject?: string;
  /** Set when registered through the API (an older registration with a subject: that subject, no scopes); absent: the operator's, every event. */
  access?: WebhookAccess;
  /** Newest first. */
  secrets: readonly WebhookSecret[];
  createdAt: string;
  disabledAt?: string;
  disabledReason?: string;
  /** The outbox position when it was registered: only later events are delivered to it. */
  afterSeq: number;
}

/**
 * What an endpoint may receive: its stored `access`; for one registered through the API before that was stored (a
 * subject, no access), that subject holding no scopes; undefined for the operator's (every event).
 */
export function getEndpointAccess(r: { subject?: string | null; access?: WebhookAccess | null }): WebhookAccess | undefined {
  if (r.access !== undefined && r.access !== null) return r.access;
  return r.subject !== undefined && r.subject !== null ? { subject: r.subject, scopes: [] } : undefined;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'dead';

/** One event on its way to one endpoint. */
export interface DeliveryRecord {
  seq: number;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  /** When the next attempt is due (ms since the epoch); while an attempt runs, the end of its lease. */
  nextAttemptAt: number;
  lastStatus?: number;
  lastError?: string;
  updatedAt: string;
  deliveredAt?: string;
}

export interface ClaimedDelivery {
  delivery: DeliveryRecord;
  event: OutboxEntry;
  endpoint: WebhookEndpointRecord;
  /** When the attempt was due (the delivery's next attempt time before the claim leased it): the scheduler's lag. */
  dueAt?: number;
}

/** What an attempt ended in. */
export interface DeliveryOutcome {
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number;
  lastStatus?: number;
  lastError?: string;
  /** ISO time of the outcome. */
  at: string;
}

export interface DeliveryFilter {
  endpointId?: string;
  /** The event's id (the `webhook-id`). */
  eventId?: string;
  status?: DeliveryStatus;
  limit?: number;
}

/**
 * The outbox and the webhook delivery queue. Outbox order is commit order (see `OutboxEntry.seq`). Delivery is
 * at-least-once per endpoint: a claimed delivery is leased (`nextAttemptAt` moves to the lease's end) so no other
 * worker or instance claims it while the lease runs (PostgreSQL: FOR UPDATE SKIP LOCKED, then the lease written
 * in the same transaction); when a worker dies, its deliveries fall due again at the lease's end. Fan-out is done
 * by one worker at a time (PostgreSQL: an advisory lock), so each event is queued once per endpoint.
 */
export interface EventStorage {
  /** Outbox entries after `afterSeq`, oldest first (every type). */
  readEvents(afterSeq: number, limit: number): Promise<OutboxEntry[]>;
  /** Committed outbox entries after `afterSeq` (of these types only, when given), oldest first. Never an entry of a transaction still open, never one skipped by a later commit. */
  readOutbox(afterSeq: number, limit: number, types?: readonly string[]): Promise<OutboxEntry[]>;
  /** The newest committed outbox position; 0 when the outbox is empty. */
  lastOutboxSeq(): Promise<number>;
  /** Stores the endpoint, registered after every event committed so far. */
  insertWebhookEndpoint(record: Omit<WebhookEndpointRecord, 'afterSeq'>): Promise<WebhookEndpointRecord>;
  getWebhookEndpoint(id: string): Promise<WebhookEndpointRecord | undefined>;
  listWebhookEndpoints(): Promise<WebhookEndpointRecord[]>;
  /** Replaces the endpoint's secrets; false when there is no such endpoint. */
  setWebhookSecrets(id: string, secrets: readonly WebhookSecret[]): Promise<boolean>;
  /** Disables the endpoint (its pending deliveries become dead, with the reason) or, with undefined, enables it again. */
  setWebhookDisabled(id: string, disabled: { at: string; reason: string } | undefined): Promise<boolean>;
  /** Removes the endpoint and its queue; false when there is no such endpoint. */
  deleteWebhookEndpoint(id: string): Promise<boolean>;
  /**
   * Queues one delivery per enabled endpoint that wants it for each outbox entry past the stored fan-out cursor,
   * and advances the cursor, in one transaction. Returns how many outbox entries it consumed. An endpoint with
   * `access` gets only the entries `visible` allows (none without `visible`).
   */
  fanOutEvents(now: number, limit: number, visible?: (access: WebhookAccess, type: string, data: unknown) => boolean): Promise<number>;
  /** Pending deliveries of enabled endpoints due at `now`, oldest first; each is leased until `now + leaseMs`. */
  claimDeliveries(now: number, leaseMs: number, limit: number): Promise<ClaimedDelivery[]>;
  /** Records an attempt's outcome; nothing when the delivery no longer exists or is no longer pending. */
  finishDelivery(seq: number, endpointId: string, outcome: DeliveryOutcome): Promise<void>;
  /** Records several outcomes in one transaction (as finishDelivery does each). */
  finishDeliveries(list: readonly { seq: number; endpointId: string; outcome: DeliveryOutcome }[]): Promise<void>;
  /** When the earliest pending delivery of an enabled endpoint is due; undefined when none is. */
  nextDeliveryAt(): Promise<number | undefined>;
  /** Deliveries matching the filter, newest event first. */
  listDeliveries(filter: DeliveryFilter): Promise<DeliveryRecord[]>;
  /** Dead deliveries matching the filter start again (pending, no attempts, due at `now`); returns how many. */
  replayDeliveries(filter: Omit<DeliveryFilter, 'status' | 'limit'>, now: number, at: string): Promise<number>;
}
