// Faults of the database, or of the way to it, that a later try may not meet: the runtime answers them with the
// `unavailable` condition and Retry-After (docs/runtime.md, "When the database is unavailable"), never as `internal`.

/** A database fault worth trying again: a lost connection, no connection to be had, a conflict the database resolved by rolling back. */
export class StorageUnavailableError extends Error {
  /**
   * The change's COMMIT was sent and its answer lost (the connection dropped meanwhile): it may have been applied.
   * An Idempotency-Key is then kept, not freed, so a retry cannot apply the change a second time.
   */
  readonly outcomeUnknown: boolean;
  constructor(message: string, options?: { cause?: unknown; outcomeUnknown?: boolean }) {
    super(message, options);
    this.name = 'StorageUnavailableError';
    this.outcomeUnknown = options?.outcomeUnknown === true;
  }
}

/**
 * PostgreSQL's SQLSTATEs that say "not now" (the PostgreSQL manual, Appendix A): class 08 (connection exception),
 * 40001 serialization failure, 40P01 deadlock detected, 53300 too many connections, 57P01 admin shutdown (a
 * backend terminated), 57P02 crash shutdown, 57P03 cannot connect now. Each ends the transaction without applying it.
 */
const RETRYABLE_SQLSTATES = new Set(['40001', '40P01', '53300', '57P01', '57P02', '57P03']);

/** SQLite's "the database is locked" past busy_timeout (the extended codes included: SQLITE_BUSY_SNAPSHOT, …). */
function isSqliteBusy(code: string): boolean {
  return code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_') || code === 'SQLITE_LOCKED' || code.startsWith('SQLITE_LOCKED_');
}

/** Whether a driver's error code names a fault worth trying again (a SQLSTATE of PostgreSQL, or SQLite's busy). */
export function isRetryableCode(code: unknown): boolean {
  if (typeof code !== 'string') return false;
  if (code.length === 5 && (code.startsWith('08') || RETRYABLE_SQLSTATES.has(code))) return true;
  return isSqliteBusy(code);
}

/** The fault an engine's error is, if it is one: a StorageUnavailableError as it is, a driver's error by its code. */
export function getStorageFault(err: unknown): StorageUnavailableError | undefined {
  if (err instanceof StorageUnavailableError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  if (!isRetryableCode(code)) return undefined;
  return new StorageUnavailableError(
    typeof code === 'string' && code.startsWith('SQLITE') ? 'the database is locked by another writer' : 'the database could not complete the request',
    { cause: err },
  );
}
