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

/** What a transaction needs of an AbortSignal (an AbortSignal is one). */
export interface AbortLike {
  readonly aborted: boolean;
  throwIfAborted(): void;
  /** Where given, a running transaction rolls back as soon as the signal aborts, not only at its commit. */
  addEventListener?(type: 'abort', listener: () => void): void;
  removeEventListener?(type: 'abort', listener: () => void): void;
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

/** The reads of `StorageTx`, answered synchronously. */
export interface SyncReader {
  get(table: string, id: unknown): Row | undefined;
  list(table: string, query: ListQuery): Row[];
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

export interface Storage extends EventStorage {
  readonly dialect: 'sqlite' | 'postgres';
  /** Brings the tables in line with the plan: additive changes are applied, destructive ones refused. */
  migrate(plan: StoragePlan): Promise<MigrationResult>;
  /**
   * Runs `work` in one transaction; when `signal` is aborted before the commit, everything is rolled back (at
   * once, where the signal can be listened to), and the transaction refuses any later statement.
   */
  transaction<T>(work: (tx: StorageTx) => Promise<T>, signal?: AbortLike): Promise<T>;
  /** Runs read-only `work` (one statement) without opening a write transaction; it never waits for one either, where the engine allows. */
  read<T>(work: (tx: StorageTx) => Promise<T>): Promise<T>;
  /**
   * A reader that answers at once, for a storage whose driver runs in-process (SQLite), reading only what is
   * committed: on a file, always (a second, read-only connection); in memory, only while nothing is queued or
   * in a transaction. Undefined otherwise, and always for a storage over the network; callers then use `read`.
   */
  readNow?(): SyncReader | undefined;
  /** `findCredential` answered at once, where the storage can (see `readNow`). */
  findCredentialNow?(kind: CredentialRecord['kind'], lookup: string): CredentialRecord | undefined;
  /** Outbox entries after `seq`, oldest first. */
  readEvents(afterSeq: number, limit: number): Promise<OutboxEntry[]>;
  insertCredential(record: CredentialRecord): Promise<void>;
  findCredential(kind: CredentialRecord['kind'], lookup: string): Promise<CredentialRecord | undefined>;
  listCredentials(kind: CredentialRecord['kind']): Promise<CredentialRecord[]>;
  /** Marks the credential revoked; false when there is no such credential. */
  revokeCredential(kind: CredentialRecord['kind'], id: string, at: string): Promise<boolean>;
  /**
   * A record in a keyed namespace the runtime keeps for itself (idempotency keys, say): inserted only
   * when the key is absent or its previous record has expired. Returns the record now stored.
   */
  claimRecord(namespace: string, key: string, value: string, expiresAt: string, now: string): Promise<{ created: boolean; value: string }>;
  putRecord(namespace: string, key: string, value: string, expiresAt: string): Promise<void>;
  deleteRecord(namespace: string, key: string): Promise<void>;
  /** A value kept across restarts (secrets the runtime generates for itself). */
  getSetting(key: string): Promise<string | undefined>;
  setSetting(key: string, value: string): Promise<void>;
  /**
   * Stores `value` unless the key already holds one, and returns what the key holds now: of several instances
   * starting together on one database, every one ends up with the same value.
   */
  claimSetting(key: string, value: string): Promise<string>;
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

export interface WebhookEndpointRecord {
  id: string;
  url: string;
  /** The event kinds delivered to it; null for every kind. */
  kinds: readonly string[] | null;
  description?: string;
  /** The subject that registered it through the API; absent when the operator did (CLI). */
  subject?: string;
  /** Newest first. */
  secrets: readonly WebhookSecret[];
  createdAt: string;
  disabledAt?: string;
  disabledReason?: string;
  /** The outbox position when it was registered: only later events are delivered to it. */
  afterSeq: number;
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

export interface EventStorage {
  /** Committed outbox entries after `afterSeq` (of these types only, when given), oldest first. Never an entry of a transaction still open. */
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
   * and advances the cursor, in one transaction. Returns how many outbox entries it consumed.
   */
  fanOutEvents(now: number, limit: number): Promise<number>;
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
