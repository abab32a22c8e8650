import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);

/**
 * The SQLite driver for this Node: better-sqlite3 13 (N-API, prebuilt, installed as the optional
 * `better-sqlite3-napi`) from Node 22 on, because 12's statement finalizer aborts the process at exit on
 * Node 24; better-sqlite3 12 on Node 20 and 21, where 13 is not supported. Same API either way.
 */
export function loadSqliteDriver(): typeof BetterSqlite3 {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= 22) {
    try {
      return require('better-sqlite3-napi') as typeof BetterSqlite3;
    } catch {
      // Not installed (an install that skipped optional dependencies): the compiled 12 still works.
    }
  }
  return require('better-sqlite3') as typeof BetterSqlite3;
}
