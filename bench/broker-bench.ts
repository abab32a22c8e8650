// The broker relay, whole processes: `servicespec serve` as a child, creates over HTTP (N connections, T seconds).
//   1. write throughput with the relay off (no --broker) and on (--broker nats://127.0.0.1:4222), same spec;
//   2. events per second from commit to JetStream PubAck: the relay's rate while it drains what the writes made
//      (events published ÷ time from the first write until the stream holds them all).
// On SQLite (a fresh file) and PostgreSQL (a fresh schema of postgres://postgres@127.0.0.1:5432/test).
//   BENCH_SECONDS=5 BENCH_CONNECTIONS=32 npx tsx bench/broker-bench.ts [sqlite,postgres]
// Prints a Markdown table for bench/RESULTS.md.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect as natsConnect } from 'nats';
import pg from 'pg';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'src', 'cli', 'cli-main.ts');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const PG = process.env.SERVICESPEC_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/test';
const dir = mkdtempSync(join(tmpdir(), 'servicespec-broker-bench-'));
const base = readFileSync(join(ROOT, 'test', 'events', 'fixtures', 'events-public.yaml'), 'utf8');

function spec(tag: string): string {
  const file = join(dir, `${tag}.yaml`);
  writeFileSync(
    file,
    base.replace(
      '    stream: { path: /events, heartbeat: 200ms }\n',
      `    stream: { path: /events, heartbeat: 200ms }\n    broker:\n      nats: { subject: "${tag}.{kind}", stream: ${tag.toUpperCase()} }\n`,
    ),
  );
  return file;
}

async function serve(args: string[]): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', CLI, 'serve', ...args, '--allow-gaps', '--port', '0', '--log', 'error', '--synchronous', 'normal'],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /serving .* at (http:\/\/[^ ]+) /.exec(err);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
  return { url, stop: () => new Promise((r) => (child.once('exit', () => r()), child.kill('SIGTERM'))) };
}

async function load(url: string): Promise<{ writes: number; rate: number; started: number }> {
  const started = Date.now();
  const end = started + SECONDS * 1000;
  let writes = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < end) {
        const res = await fetch(`${url}/tickets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"bench"}' });
        if (res.status !== 201) throw new Error(`create answered ${res.status}`);
        await res.arrayBuffer();
        writes++;
      }
    }),
  );
  return { writes, rate: writes / ((Date.now() - started) / 1000), started };
}

async function pgSchema(): Promise<string> {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const c = new pg.Client(PG);
  await c.connect();
  await c.query(`CREATE SCHEMA ${schema}`);
  await c.end();
  return `${PG}?schema=${schema}`;
}

async function run(db: 'sqlite' | 'postgres'): Promise<string> {
  const dbUrl = async (name: string) => (db === 'sqlite' ? `sqlite:${join(dir, `${name}.db`)}` : await pgSchema());
  const tag = `b${randomBytes(3).toString('hex')}`;
  const file = spec(tag);
  const off = await serve([file, '--db', await dbUrl(`${tag}-off`)]);
  const offRun = await load(off.url);
  await off.stop();
  const nc = await natsConnect({ servers: '127.0.0.1:4222' });
  const jsm = await nc.jetstreamManager();
  const on = await serve([file, '--db', await dbUrl(`${tag}-on`), '--broker', 'nats://127.0.0.1:4222']);
  const onRun = await load(on.url);
  let stored = 0;
  while ((stored = (await jsm.streams.info(tag.toUpperCase())).state.messages) < onRun.writes) await new Promise((r) => setTimeout(r, 20));
  const drained = (Date.now() - onRun.started) / 1000;
  await on.stop();
  await jsm.streams.delete(tag.toUpperCase());
  await nc.close();
  const ratio = onRun.rate / offRun.rate;
  return `| ${db} | ${Math.round(offRun.rate)} | ${Math.round(onRun.rate)} | ${ratio.toFixed(2)} ${ratio >= 0.9 ? '(met)' : '(NOT met)'} | ${stored} | ${Math.round(stored / drained)} |`;
}

const which = (process.argv[2] ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[];
console.log(
  `load average at start: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}; ${SECONDS} s per run, ${CONNECTIONS} connections`,
);
console.log('| database | creates/s relay off | creates/s relay on | on ÷ off (target ≥ 0.9) | events in the stream | events/s commit → PubAck |');
console.log('|---|---|---|---|---|---|');
try {
  for (const db of which) console.log(await run(db));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  `load average at end: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
