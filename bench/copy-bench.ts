// `servicespec db copy` of ROWS rows (issue 28, target ≥ 50,000 rows/s): SQLite → PostgreSQL, then that database
// back into a new SQLite file. The rows are written straight into the table the spec's storage made; the built CLI
// (dist/) copies them as a user would, timed from spawn to exit (the rate is rows over that whole time: process
// start, both opens, the target's migration, the copy, the count check and the commit). One run per direction: the
// machine is shared, so the figures are indicative.
//
//   npm run build && npx tsx bench/copy-bench.ts                 # 1,000,000 rows; rewrites the "copy" section of bench/RESULTS.md
//   COPY_BENCH_ROWS=100000 npx tsx bench/copy-bench.ts            # fewer rows; prints only
//   COPY_BENCH_POSTGRES=postgres://postgres@127.0.0.1:5432/other  # another database (a fresh schema is made in it, and dropped)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { compileSpecText } from '../src/program.js';
import { getStoragePlan } from '../src/runtime/storage/storage-plan.js';
import { createSqliteStorage } from '../src/runtime/storage/storage-sqlite.js';
import { loadSqliteDriver } from '../src/runtime/storage/storage-sqlite-driver.js';
import { writeResultsSection } from './lib/bench-results.js';

// The runtime's driver for this Node (better-sqlite3 12 aborts at exit on Node 24).
const Database = loadSqliteDriver();

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli', 'cli-main.js');
const ROWS = Number(process.env.COPY_BENCH_ROWS ?? 1_000_000);
const PG_URL = process.env.COPY_BENCH_POSTGRES ?? process.env.SERVICESPEC_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/test';

const SPEC = `servicespec: 1
resources:
  Task:
    fields:
      id: { type: string, readOnly: true }
      title: { type: string }
      points: { type: integer, optional: true }
      weight: { type: number, optional: true }
      done: { type: boolean, optional: true }
      labels: { type: object, optional: true, fields: { a: { type: string } } }
      created_at: { type: datetime, readOnly: true, generated: create_time }
`;

const dir = mkdtempSync(join(tmpdir(), 'servicespec-copy-bench-'));
const specFile = join(dir, 'tasks.yaml');
writeFileSync(specFile, SPEC);
const model = compileSpecText(SPEC).model!;

/** GNU time, where there is one: the CLI's own CPU time (user + system), apart from the database server's. */
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

function runCopy(from: string, to: string): { ms: number; rows: number; cpu: number | undefined } {
  const args = [CLI, 'db', 'copy', specFile, '--from', from, '--to', to, '--format', 'json'];
  const start = performance.now();
  const r = TIME
    ? spawnSync(TIME, ['-f', 'cpu %U %S', process.execPath, ...args], { encoding: 'utf8' })
    : spawnSync(process.execPath, args, { encoding: 'utf8' });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`db copy exited ${r.status}: ${r.stderr}`);
  const out = JSON.parse(r.stdout) as { rows: number; tables: { name: string; rows: number }[] };
  if (out.tables.find((t) => t.name === 'Task')?.rows !== ROWS) throw new Error(`expected ${ROWS} Task rows: ${r.stdout}`);
  const cpu = /cpu ([\d.]+) ([\d.]+)/.exec(r.stderr);
  return { ms, rows: out.rows, cpu: cpu ? Number(cpu[1]) + Number(cpu[2]) : undefined };
}

const schema = `servicespec_copy_bench_${process.pid}`;
const pgTarget = `${PG_URL}?schema=${schema}`;
const client = new pg.Client({ connectionString: PG_URL });
await client.connect();
try {
  const source = join(dir, 'source.db');
  const s = createSqliteStorage({ path: source });
  await s.migrate(getStoragePlan(model));
  await s.close();
  const db = new Database(source);
  db.exec(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS})
     INSERT INTO "Task" (id, title, points, weight, done, labels, created_at)
     SELECT 'task-' || i, 'title ' || i, i % 1000, i / 7.0, i % 2, json_object('a', 'label ' || i), strftime('%Y-%m-%dT%H:%M:%fZ', 1700000000 + i, 'unixepoch') FROM n`,
  );
  db.close();
  const loadStart = loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');
  const toPg = runCopy(`sqlite:${source}`, pgTarget);
  const back = runCopy(pgTarget, `sqlite:${join(dir, 'back.db')}`);
  const loadEnd = loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');
  const rate = (ms: number) => Math.round(ROWS / (ms / 1000));
  const line = (name: string, r: { ms: number; rows: number; cpu: number | undefined }) =>
    `| ${name} | ${ROWS.toLocaleString('en')} | ${(r.ms / 1000).toFixed(1)} s | ${rate(r.ms).toLocaleString('en')} rows/s | ${r.cpu === undefined ? 'n/a' : `${r.cpu.toFixed(1)} s`} | ${rate(r.ms) >= 50_000 ? 'met' : 'missed'} |`;
  const md = `## copy: \`db copy\` of 1M rows, SQLite → PostgreSQL and back (issue 28)

\`npm run build && COPY_BENCH_POSTGRES=postgres://postgres@127.0.0.1:5432/h_dbcopy npx tsx bench/copy-bench.ts\`, ${new Date().toISOString().slice(0, 16)} UTC. Load average (1, 5, 15 min, \`uptime\`) ${loadStart} at the start and ${loadEnd} at the end: a shared 2-core machine with other work running, so the figures are indicative (an upper bound on the time). One resource of 7 columns (text, integer, real, boolean, JSON, datetime) plus servicespec's own tables; timed from the spawn of the built CLI to its exit: open both, migrate the target, copy in batches of 10,000 (PostgreSQL: one INSERT … SELECT FROM unnest of one array per column per 10,000 rows; SQLite: 500-row multi-row INSERTs), check the counts, commit.

| direction | rows | time | rate | CLI CPU (user + sys) | target ≥ 50,000 rows/s |
|---|---|---|---|---|---|
${line('SQLite → PostgreSQL', toPg)}
${line('PostgreSQL → SQLite', back)}
`;
  process.stdout.write(`${md}\n`);
  if (ROWS === 1_000_000) writeResultsSection('copy', md);
} finally {
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
  await client.end();
  rmSync(dir, { recursive: true, force: true });
}
