// PostgreSQL for tests: the server named by SERVICESPEC_TEST_POSTGRES (default: the machine's, database `test`).
// Each run works in its own schema, created here and dropped after; when the server cannot be reached the tests
// that need it are skipped with the reason printed, never silently.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const POSTGRES_URL = process.env.SERVICESPEC_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/test';

let probed: Promise<string | undefined> | undefined;

/** Why PostgreSQL tests cannot run here, or undefined when they can. Warns once with the reason. */
export function getPostgresSkipReason(): Promise<string | undefined> {
  probed ??= (async () => {
    const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      await dropDeadSchemas(client);
      return undefined;
    } catch (err) {
      const reason = `PostgreSQL at ${POSTGRES_URL} is unreachable (${(err as Error).message}); its tests are skipped (set SERVICESPEC_TEST_POSTGRES to run them)`;
      console.warn(reason);
      return reason;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return probed;
}

const created: string[] = [];

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Schemas left by test processes that were killed before they could drop them (their names carry the pid): dropped
 * when the server is on this machine, so that a process's pid means something.
 */
async function dropDeadSchemas(client: pg.Client): Promise<void> {
  const host = new URL(POSTGRES_URL).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '[::1]') return;
  const { rows } = await client.query<{ name: string }>("SELECT nspname AS name FROM pg_namespace WHERE nspname LIKE 'servicespec\\_test\\_%'");
  for (const { name } of rows) {
    const pid = Number(/^servicespec_test_(\d+)_/.exec(name)?.[1]);
    if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`).catch(() => undefined);
  }
}

/** A fresh schema for one test's database; the URL names it (`?schema=`), so every storage opened on it shares it. */
export function getTestSchemaUrl(): string {
  const schema = `servicespec_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  created.push(schema);
  const u = new URL(POSTGRES_URL);
  u.searchParams.set('schema', schema);
  return u.toString();
}

/** Drops the schema a URL from getTestSchemaUrl names. */
export async function dropTestSchema(url: string): Promise<void> {
  const schema = new URL(url).searchParams.get('schema');
  if (schema === null) return;
  const i = created.indexOf(schema);
  if (i >= 0) created.splice(i, 1);
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  try {
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Drops every schema this process created. */
export async function dropTestSchemas(): Promise<void> {
  if (created.length === 0) return;
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  try {
    await client.connect();
    for (const s of created.splice(0)) await client.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
  } finally {
    await client.end().catch(() => undefined);
  }
}
