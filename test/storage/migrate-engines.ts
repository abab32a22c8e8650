// The two engines `servicespec migrate` runs on, for the migrate test files: each database made fresh, a SQLite file
// under the file's own folder or a PostgreSQL schema of its own (skipped, saying why, without PostgreSQL).

import { join } from 'node:path';
import { createPostgresStorage } from '../../src/runtime/storage/storage-postgres.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import type { Storage } from '../../src/runtime/storage/storage-types.js';
import { getTestSchemaUrl } from '../support/postgres.js';

export interface MigrateDb {
  url: string;
  open: () => Storage;
}

export interface MigrateEngine {
  name: 'sqlite' | 'postgres';
  skip: string | undefined;
  make: () => MigrateDb;
}

/** SQLite (files under `dir`) and PostgreSQL (skipped with `pgSkip`, its reason, where it is not running). */
export function getMigrateEngines(dir: string, pgSkip: string | undefined): MigrateEngine[] {
  let n = 0;
  return [
    {
      name: 'sqlite',
      skip: undefined,
      make: () => {
        const path = join(dir, `db-${n++}.db`);
        return { url: `sqlite:${path}`, open: () => createSqliteStorage({ path }) };
      },
    },
    {
      name: 'postgres',
      skip: pgSkip,
      make: () => {
        const url = getTestSchemaUrl();
        return { url, open: () => createPostgresStorage({ url }) };
      },
    },
  ];
}

/** `fn` on the database opened, closed after. */
export async function withStorage<T>(db: MigrateDb, fn: (s: Storage) => Promise<T>): Promise<T> {
  const s = db.open();
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}
