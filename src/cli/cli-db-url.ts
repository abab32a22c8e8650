import { resolve } from 'node:path';
import { createPostgresStorage } from '../runtime/storage/storage-postgres.js';
import { createSqliteStorage } from '../runtime/storage/storage-sqlite.js';
import type { Storage } from '../runtime/storage/storage-types.js';

/** The database a `--db` option names, or why it cannot be used. */
export type StorageTarget = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string } | { kind: 'error'; message: string };

/** `sqlite:PATH`, `sqlite::memory:`, a bare path ending in .db / .sqlite, or `postgres://user@host:port/db` (`postgresql://` too). */
export function parseStorageUrl(url: string): StorageTarget {
  if (url === 'sqlite::memory:') return { kind: 'sqlite', path: ':memory:' };
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    return path === '' ? { kind: 'error', message: 'sqlite: needs a file path, e.g. sqlite:./data/service.db' } : { kind: 'sqlite', path: resolve(path) };
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    try {
      const u = new URL(url);
      if (u.hostname === '' && !u.searchParams.has('host'))
        return { kind: 'error', message: 'a postgres:// URL needs a host, e.g. postgres://user@localhost:5432/service' };
      const schema = u.searchParams.get('schema');
      if (schema !== null && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
        return { kind: 'error', message: `schema ${JSON.stringify(schema)} must be a lower-case SQL name (letters, digits and _, not starting with a digit)` };
      }
      return { kind: 'postgres', url };
    } catch {
      return { kind: 'error', message: `${JSON.stringify(url)} is not a valid URL; use postgres://user@host:port/database` };
    }
  }
  if (/\.(db|sqlite3?)$/.test(url)) return { kind: 'sqlite', path: resolve(url) };
  return { kind: 'error', message: `unsupported database URL ${JSON.stringify(url)}; use sqlite:PATH, sqlite::memory: or postgres://user@host:port/database` };
}

/** The URL as it may be printed: a postgres:// password is replaced by `***`. */
export function redactStorageUrl(url: string): string {
  if (!/^postgres(ql)?:\/\//.test(url)) return url;
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}

export interface OpenStorageOptions {
  /** SQLite only: see SqliteOptions.synchronous. */
  synchronous?: 'full' | 'normal';
}

export function openStorage(url: string, options: OpenStorageOptions = {}): Storage {
  const target = parseStorageUrl(url);
  if (target.kind === 'error') throw new Error(target.message);
  if (target.kind === 'postgres') return createPostgresStorage({ url: target.url });
  return createSqliteStorage({ path: target.path, ...(options.synchronous !== undefined ? { synchronous: options.synchronous } : {}) });
}
