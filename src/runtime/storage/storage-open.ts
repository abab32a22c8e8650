import { resolve } from 'node:path';
import { createSqliteStorage } from './storage-sqlite.js';
import type { Storage } from './storage-types.js';

/** The database a `--db` option names, or why it cannot be used. */
export type StorageTarget = { kind: 'sqlite'; path: string } | { kind: 'error'; message: string };

/** `sqlite:PATH`, `sqlite::memory:`, or a bare path ending in .db / .sqlite. */
export function parseStorageUrl(url: string): StorageTarget {
  if (url === 'sqlite::memory:') return { kind: 'sqlite', path: ':memory:' };
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    return path === '' ? { kind: 'error', message: 'sqlite: needs a file path, e.g. sqlite:./data/service.db' } : { kind: 'sqlite', path: resolve(path) };
  }
  if (/\.(db|sqlite3?)$/.test(url)) return { kind: 'sqlite', path: resolve(url) };
  return { kind: 'error', message: `unsupported database URL ${JSON.stringify(url)}; use sqlite:PATH or sqlite::memory:` };
}

export function openStorage(url: string): Storage {
  const target = parseStorageUrl(url);
  if (target.kind === 'error') throw new Error(target.message);
  return createSqliteStorage({ path: target.path });
}
