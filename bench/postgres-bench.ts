// examples/orders.yaml served on PostgreSQL against a hand-written Fastify + pg service of the same endpoints
// (bench/baseline/orders-baseline-pg.ts), in the same run; one served instance against two on one database; and
// the outbox and the delivery queue on PostgreSQL, through the storage directly.
//
//   npx tsx bench/postgres-bench.ts     # print, and replace the postgres section of bench/RESULTS.md
// PostgreSQL: SERVICESPEC_BENCH_POSTGRES (default postgres://postgres@127.0.0.1:5432/test); every table is in a
// schema of its own, dropped at the end.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createPostgresStorage } from '../src/runtime/storage/storage-postgres.js';
import { load, median, pairedRatios, processCpuMicros, startServer, type Figures, type LoadOptions, type Started } from './lib/bench-load.js';
import { writeResultsSection } from './lib/bench-results.js';

const BASE = process.env.SERVICESPEC_BENCH_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/test';
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = 16;
/** BENCH_ONLY=create,read: only those scenarios against the baseline, nothing else, and RESULTS.md left alone. */
const ONLY = process.env.BENCH_ONLY?.split(',') as ('read' | 'list' | 'create')[] | undefined;
const schemas: string[] = [];

/** What the create figure is made of (counted with a wrapped storage.query on this spec). */
const NOTE =
  "Where a served create goes: two round trips and four statements in one transaction, on node-postgres's public API with its pipeline option — BEGIN with the INSERT, then the outbox append with the COMMIT; no NOTIFY in the write transaction (a notifying transaction holds a server-wide lock through its commit, which had made every create wait for the one before it). After the answer, the outbox sequencer: one run at a time, no sooner than 10 ms after the last started (sequencerIntervalMs), the writes that answer meanwhile sharing the next run; it gives positions to what committed, in a transaction of its own, and rings the other instances. Its plans are fixed to index paths (a plan cached while the outbox was nearly empty had scanned the whole table on each run as it grew), and appends without a position are found through the position's own index. Whether any webhook endpoint is enabled is remembered while the LISTEN connection is up (endpoint changes ring it), so the delivery worker does not ask once per run. What the event costs through the storage alone, without HTTP: bench/pg-outbox.ts.";

function schemaUrl(name: string): string {
  const schema = `bench_${name}_${randomBytes(3).toString('hex')}`;
  schemas.push(schema);
  const u = new URL(BASE);
  u.searchParams.set('schema', schema);
  // Names the server's connections, so the PostgreSQL backends serving it can be found (see backendCpu).
  u.searchParams.set('application_name', schema);
  return u.toString();
}

/** CPU time (µs) of each PostgreSQL backend serving `url`'s connections (the server runs on this machine). */
async function backendCpu(url: string): Promise<Map<number, number>> {
  const c = new pg.Client({ connectionString: BASE });
  await c.connect();
  try {
    const rows = (await c.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [new URL(url).searchParams.get('application_name')])).rows as {
      pid: number;
    }[];
    const out = new Map<number, number>();
    for (const { pid } of rows) {
      const cpu = processCpuMicros(pid);
      if (cpu !== undefined) out.set(pid, cpu);
    }
    return out;
  } finally {
    await c.end();
  }
}

/** Figures of one load, with the PostgreSQL backends' CPU per request (a backend that appeared during the run counts whole). */
async function measure(s: Started & { db: string }, scenario: 'read' | 'list' | 'create', o: LoadOptions): Promise<Figures & { dbCpuPerRequest: number }> {
  const before = await backendCpu(s.db);
  const f = await load(s, scenario, o);
  const after = await backendCpu(s.db);
  let used = 0;
  for (const [pid, cpu] of after) used += cpu - (before.get(pid) ?? 0);
  return { ...f, dbCpuPerRequest: used / Math.max(1, f.requests) };
}

async function dropSchemas(): Promise<void> {
  const c = new pg.Client({ connectionString: BASE });
  await c.connect();
  for (const s of schemas) await c.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
  await c.end();
}

const cpuOf = (f: Figures[]) => (f.every((x) => x.cpuPerRequest !== undefined) ? median(f.map((x) => x.cpuPerRequest!)).toFixed(0) : 'n/a');

type Server = Started & { db: string };

async function startOn(mode: 'served' | 'baseline', name: string, dir: string, env: Record<string, string> = {}): Promise<Server> {
  const db = schemaUrl(name);
  return { ...(await startServer(mode, dir, 'none', db, { env })), db };
}

/**
 * Each comparison: the served service against a baseline, alternating in each round. The target rows (the issue's
 * "the same work"): read and list, and create with both sides appending the created order's event in the create's
 * transaction, the baseline to an outbox its readers can follow without skipping a late commit (xid8-stamped rows).
 * Two more create rows are information: the served create with its event against the baseline writing none, and
 * neither side writing one.
 */
async function againstBaseline(dir: string): Promise<{ rows: string[]; ratios: Record<string, number> }> {
  const served = await startOn('served', 'served', dir, { BENCH_EVENTS: 'keep' });
  const baseline = await startOn('baseline', 'baseline', dir);
  const servedPlain = await startOn('served', 'served_noevents', dir);
  const baselineOutbox = await startOn('baseline', 'baseline_outbox', dir, { BENCH_BASELINE_OUTBOX: '1' });
  const comparisons = [
    { label: 'read', key: 'read', scenario: 'read', a: served, b: baseline },
    { label: 'list', key: 'list', scenario: 'list', a: served, b: baseline },
    { label: 'create (both append the event in the transaction)', key: 'create', scenario: 'create', a: served, b: baselineOutbox },
    { label: 'information: create, served with its event, baseline writing none', key: 'create-vs-no-event', scenario: 'create', a: served, b: baseline },
    { label: 'information: create, neither side writing an event', key: 'create-no-events', scenario: 'create', a: servedPlain, b: baseline },
  ] as const;
  const rows: string[] = [];
  const ratios: Record<string, number> = {};
  try {
    // Every server runs each path it is measured on before the rounds (the create path is the slowest to warm up:
    // a cold one costs about twice the CPU per request of a warm one for the first seconds).
    for (const scenario of ['read', 'list'] as const) for (const s of [served, baseline]) await load(s, scenario, { connections: CONNECTIONS, seconds: 1 });
    for (const s of [served, baseline, servedPlain, baselineOutbox]) await load(s, 'create', { connections: CONNECTIONS, seconds: 3 });
    for (const c of comparisons) {
      if (ONLY && !ONLY.includes(c.scenario)) continue;
      const a: (Figures & { dbCpuPerRequest: number })[] = [];
      const b: (Figures & { dbCpuPerRequest: number })[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        for (const s of round % 2 === 0 ? [c.a, c.b] : [c.b, c.a])
          (s === c.a ? a : b).push(await measure(s, c.scenario, { connections: CONNECTIONS, seconds: DURATION_S }));
      }
      const r = pairedRatios(a, b);
      ratios[c.key] = r.rps;
      // All the CPU a request costs on this machine: the Node process and the PostgreSQL backends serving it.
      const total = median(a.map((x, i) => (b[i]!.cpuPerRequest! + b[i]!.dbCpuPerRequest) / (x.cpuPerRequest! + x.dbCpuPerRequest)));
      const db = (f: { dbCpuPerRequest: number }[]) => median(f.map((x) => x.dbCpuPerRequest)).toFixed(0);
      rows.push(
        `| ${c.label} | ${median(a.map((x) => x.rps)).toFixed(0)} | ${median(a.map((x) => x.p99))} | ${cpuOf(a)} + ${db(a)} | ${median(b.map((x) => x.rps)).toFixed(0)} | ${median(b.map((x) => x.p99))} | ${cpuOf(b)} + ${db(b)} | **${r.rps.toFixed(2)}** (${r.perRound.map((x) => x.toFixed(2)).join(', ')}) | ${r.cpu?.toFixed(2) ?? 'n/a'} | ${total.toFixed(2)} | ${[...a, ...b].reduce((n, x) => n + x.errors, 0)} |`,
      );
      console.log(rows.at(-1));
    }
  } finally {
    for (const s of [served, baseline, servedPlain, baselineOutbox]) s.child.kill('SIGTERM');
  }
  return { rows, ratios };
}

/** The same total load on one instance, then split over two instances on one database. */
async function oneAgainstTwo(dir: string): Promise<string[]> {
  const url = schemaUrl('instances');
  const one = await startServer('served', dir, 'none', url, { env: { BENCH_EVENTS: 'keep' } });
  const two = await startServer('served', dir, 'none', url, { env: { BENCH_EVENTS: 'keep' } });
  const rows: string[] = [];
  try {
    for (const scenario of ['read', 'create'] as const) {
      const single: number[] = [];
      const pair: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        single.push((await load(one, scenario, { connections: CONNECTIONS, seconds: DURATION_S })).rps);
        const both = await Promise.all([one, two].map((s: Started) => load(s, scenario, { connections: CONNECTIONS / 2, seconds: DURATION_S })));
        pair.push(both[0]!.rps + both[1]!.rps);
      }
      rows.push(`| ${scenario} | ${median(single).toFixed(0)} | ${median(pair).toFixed(0)} | ${median(pair.map((p, i) => p / single[i]!)).toFixed(2)} |`);
      console.log(rows.at(-1));
    }
  } finally {
    one.child.kill('SIGTERM');
    two.child.kill('SIGTERM');
  }
  return rows;
}

/** Outbox appends (one event per transaction, 16 at a time) and the delivery queue (fan-out, claim, finish). */
async function outboxAndDelivery(): Promise<string[]> {
  const storage = createPostgresStorage({ url: schemaUrl('outbox'), poolSize: 16 });
  const rows: string[] = [];
  try {
    await storage.migrate({ tables: [] });
    await storage.insertWebhookEndpoint({ id: 'w1', url: 'https://example.com/hook', kinds: null, secrets: [], createdAt: new Date().toISOString() });
    let n = 0;
    const end = Date.now() + DURATION_S * 1000;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (Date.now() < end) {
          const i = n++;
          await storage.transaction((tx) => tx.appendEvent({ id: `e${i}`, type: 'order.created', timestamp: new Date().toISOString(), data: { i } }));
        }
      }),
    );
    const appendSeconds = (performance.now() - t0) / 1000;
    rows.push(`| outbox: transactions appending one event, 16 concurrent | ${(n / appendSeconds).toFixed(0)} /s | ${n} events |`);
    const t1 = performance.now();
    let queued = 0;
    for (let got = 1; got > 0;) queued += got = await storage.fanOutEvents(Date.now(), 500);
    const fanSeconds = (performance.now() - t1) / 1000;
    rows.push(`| fan-out to one endpoint (500 a batch) | ${(queued / fanSeconds).toFixed(0)} /s | ${queued} deliveries |`);
    const t2 = performance.now();
    let finished = 0;
    await Promise.all(
      [0, 1].map(async () => {
        for (;;) {
          const claimed = await storage.claimDeliveries(Date.now(), 60_000, 100);
          if (claimed.length === 0) return;
          await storage.finishDeliveries(
            claimed.map((c) => ({
              seq: c.delivery.seq,
              endpointId: c.delivery.endpointId,
              outcome: { status: 'delivered' as const, attempts: 1, nextAttemptAt: Date.now(), lastStatus: 200, at: new Date().toISOString() },
            })),
          );
          finished += claimed.length;
        }
      }),
    );
    const claimSeconds = (performance.now() - t2) / 1000;
    rows.push(`| claim (SKIP LOCKED, 100 a batch) + finish, two workers, no HTTP | ${(finished / claimSeconds).toFixed(0)} /s | ${finished} deliveries |`);
    for (const r of rows) console.log(r);
  } finally {
    await storage.close();
  }
  return rows;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'ss-pg-bench-'));
  try {
    const { rows, ratios } = await againstBaseline(dir);
    if (ONLY) return;
    const instances = await oneAgainstTwo(dir);
    const queue = await outboxAndDelivery();
    // The target rows; the information rows are not part of it.
    const met = ['read', 'list', 'create'].every((k) => (ratios[k] ?? 0) >= 0.9);
    const version = await (async () => {
      const c = new pg.Client({ connectionString: BASE });
      await c.connect();
      const v = ((await c.query('SHOW server_version')).rows[0] as { server_version: string }).server_version;
      await c.end();
      return v;
    })();
    const section = [
      '## postgres-bench: examples/orders.yaml served on PostgreSQL against a hand-written Fastify + pg service',
      '',
      `- Command: \`${process.env.BENCH_ROUNDS ? `BENCH_ROUNDS=${ROUNDS} ` : ''}npx tsx bench/postgres-bench.ts\``,
      `- Date: ${new Date().toISOString()}`,
      `- Machine: ${cpus().length} CPUs shared with the PostgreSQL ${version} server (same machine, default settings, synchronous_commit on), Node ${process.version}; 1-minute load average at the end ${loadavg()[0]!.toFixed(1)} (the machine is shared with other work: per-round ratios spread widely, and every figure is a lower bound)`,
      `- Load: autocannon in the benchmark's process, ${CONNECTIONS} connections, ${DURATION_S} s per run, ${ROUNDS} rounds after a warm-up, the two servers alternating (which goes first swaps each round); each server in its own process on 127.0.0.1, each in its own schema. Both check an API key on every request and validate the create body. The baseline looks the key up in PostgreSQL and hashes it each time; servicespec caches key records while its LISTEN connection is up (docs/scaling.md). Every served create of examples/orders.yaml appends its event (order.created) to the outbox in the create's transaction, given its position after the commit by the sequencer. The same work for the baseline, in the target row: it appends the event (the created order) to an outbox table in the create's transaction (BEGIN, INSERT, INSERT, COMMIT), each row carrying its transaction's xid8, indexed with an identity, so a reader can follow the table below the snapshot's xmin without skipping a late commit (it rings no doorbell: its readers would poll). The two rows marked information compare the served create with its event against the baseline writing none, and both sides writing none. The rounds start after every server has run each measured path (3 s of creates each).`,
      "- Ratio: the median over rounds of served req/s ÷ baseline req/s in the same round. Node CPU ratio: baseline ÷ served CPU per request of the server process; total CPU ratio: the same with the CPU of the PostgreSQL backends serving each side added (read from /proc, the backends found by application_name). CPU per request rises with the machine's load, so compare the two sides of a row, not rows with each other.",
      '',
      '| scenario | served req/s | served p99 ms | served CPU µs/req (Node + PostgreSQL) | baseline req/s | baseline p99 ms | baseline CPU µs/req (Node + PostgreSQL) | ratio (per round) | Node CPU ratio | total CPU ratio | non-2xx + errors |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      ...rows,
      '',
      `Target: at least 0.9 of the baseline doing the same work, on read, list and create (the create row with the event on both sides; the information rows are not part of it) — **${met ? 'met' : 'missed'}**.`,
      '',
      NOTE,
      '',
      `One instance against two on one database (same total: ${CONNECTIONS} connections on one, ${CONNECTIONS / 2} on each of two; median of ${ROUNDS} rounds). On a 2-CPU machine that also runs PostgreSQL and the load generator, a second instance cannot add CPU; this shows what it costs or gains, not how far it scales:`,
      '',
      '| scenario | one instance req/s | two instances req/s (sum) | ratio (median per round) |',
      '|---|---|---|---|',
      ...instances,
      '',
      'The outbox and the delivery queue on PostgreSQL (the storage called directly, no HTTP):',
      '',
      '| measured | throughput | count |',
      '|---|---|---|',
      ...queue,
    ].join('\n');
    writeResultsSection('postgres-bench', section);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await dropSchemas();
  }
}

await main();
