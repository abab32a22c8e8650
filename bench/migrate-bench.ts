// `servicespec migrate --apply` of ROWS rows adding a required field with a default (issue 28, target < 30 s on
// SQLite and PostgreSQL): the rows are written straight into the table the spec's first version made, then the
// built CLI (dist/) runs the migration as a user would, timed from spawn to exit. One run per engine (the machine
// is shared: the figure is an upper bound).
//
//   npm run build && npx tsx bench/migrate-bench.ts            # 1,000,000 rows; rewrites the "migrate" section of bench/RESULTS.md
//   MIGRATE_BENCH_ROWS=100000 npx tsx bench/migrate-bench.ts    # fewer rows; prints only
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { compileSpecText } from '../src/program.js';
import { getStoragePlan } from '../src/runtime/storage/storage-plan.js';
import { createPostgresStorage } from '../src/runtime/storage/storage-postgres.js';
import { createSqliteStorage } from '../src/runtime/storage/storage-sqlite.js';
import { loadSqliteDriver } from '../src/runtime/storage/storage-sqlite-driver.js';
import { writeResultsSection } from './lib/bench-results.js';

// The runtime's driver for this Node (better-sqlite3 12 aborts at exit on Node 24).
const Database = loadSqliteDriver();

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli', 'cli-main.js');
const ROWS = Number(process.env.MIGRATE_BENCH_ROWS ?? 1_000_000);
const PG_URL = process.env.SERVICESPEC_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/test';

const V1 = `servicespec: 1
resources:
  Task:
    fields:
      id: { type: string, readOnly: true }
      title: { type: string }
`;
const V2 = `${V1}      priority: { type: integer, default: 3 }\n`;

const dir = mkdtempSync(join(tmpdir(), 'servicespec-migrate-bench-'));
const v2File = join(dir, 'v2.yaml');
writeFileSync(v2File, V2);
const model = compileSpecText(V1).model!;

function runMigrate(url: string): { ms: number; out: string } {
  const start = performance.now();
  const r = spawnSync(process.execPath, [CLI, 'migrate', v2File, '--db', url, '--apply'], { encoding: 'utf8' });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`migrate exited ${r.status}: ${r.stderr}`);
  return { ms, out: r.stdout };
}

async function sqlite(): Promise<number> {
  const path = join(dir, 'bench.db');
  const s = createSqliteStorage({ path });
  await s.migrate(getStoragePlan(model));
  await s.close();
  const db = new Database(path);
  db.exec(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS}) INSERT INTO "Task" (id, title) SELECT 'task-' || i, 'title ' || i FROM n`,
  );
  db.close();
  const { ms, out } = runMigrate(`sqlite:${path}`);
  process.stdout.write(out);
  return ms;
}

async function postgres(): Promise<number> {
  const schema = `servicespec_bench_${process.pid}`;
  const url = `${PG_URL}?schema=${schema}`;
  const s = createPostgresStorage({ url });
  await s.migrate(getStoragePlan(model));
  await s.close();
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`INSERT INTO "${schema}"."Task" (id, title) SELECT 'task-' || i, 'title ' || i FROM generate_series(1, ${ROWS}) i`);
    const { ms, out } = runMigrate(url);
    process.stdout.write(out);
    return ms;
  } finally {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
}

try {
  const load = loadavg()[0]!.toFixed(1);
  const lite = await sqlite();
  const post = await postgres();
  const line = (name: string, ms: number) => `| ${name} | ${ROWS.toLocaleString('en')} | ${(ms / 1000).toFixed(1)} s | ${ms < 30_000 ? 'met' : 'missed'} |`;
  const md = `## migrate: \`migrate --apply\` adding a required field with a default (issue 28)

\`npm run build && npx tsx bench/migrate-bench.ts\`, ${new Date().toISOString().slice(0, 16)} UTC, 1-minute load average ${load} at the start (a shared 2-core machine: an upper bound). Spawn of the built CLI to its exit: plan (row counts), add the column, fill it, rebuild/re-check it as NOT NULL, in one transaction; SQLite writes its backup copy first (included).

| engine | rows | time | target < 30 s |
|---|---|---|---|
${line('SQLite', lite)}
${line('PostgreSQL', post)}
`;
  process.stdout.write(`${md}\n`);
  if (ROWS === 1_000_000) writeResultsSection('migrate', md);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
