// Events: what the outbox costs the write path, and how fast webhooks go out.
//
//   1. Create throughput of the same spec with its events (every create appends to the outbox in its transaction)
//      and without them (no `events` part: the baseline), alternating runs, same run; plus, for information, with
//      a webhook endpoint receiving every create while the load runs.
//   2. 1,000 transitions → the time until every webhook has been delivered (signed, to a receiver on 127.0.0.1),
//      and the delivery latency (receiver's arrival time − the event's timestamp, which is taken inside the
//      change's transaction) at p50 and p99. The same 1,000 transitions with no endpoint are the baseline for
//      the write side.
//
// Each server runs in its own process (this file with `serve`), WAL + synchronous=FULL as `serve` uses; autocannon
// and the receiver run in this process, over loopback only.
//
//   npx tsx bench/events-bench.ts       # print, and replace the events section of bench/RESULTS.md
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { loadSqliteDriver } from '../src/runtime/storage/storage-sqlite-driver.js';
import { v7 as uuidv7 } from 'uuid';
import { compileSpecText } from '../src/program.js';
import { createService } from '../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../src/runtime/storage/storage-sqlite.js';
import { writeResultsSection } from './lib/bench-results.js';

const Database = loadSqliteDriver();

const SELF = fileURLToPath(import.meta.url);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const CONNECTIONS = 16;
const TRANSITIONS = 1000;
const TARGET_COST = 0.15;

const SPEC = (withEvents: boolean) => `
servicespec: 1
purpose: { name: Events bench, summary: Tickets that tell subscribers what changed. }
resources:
  Ticket:
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string, minLength: 1, maxLength: 120 }
      points: { type: integer, minimum: 0, maximum: 100, optional: true }
      status: { type: state }
      created_at: { type: datetime, readOnly: true, generated: create_time }
states:
  Ticket:
    field: status
    initial: open
    transitions:
      start: { from: open, to: in_progress${withEvents ? ', emits: ticket.started' : ''} }
      finish: { from: in_progress, to: done }
    terminal: [done]
endpoints:
  operations:
    createTicket: { method: POST, path: /tickets, action: create, resource: Ticket, auth: none }
    startTicket: { method: POST, path: "/tickets/{id}/start", action: transition, resource: Ticket, transition: start, auth: none }
${
  withEvents
    ? `events:
  delivery:
    webhook: { signing: standard-webhooks, retries: [1s, 5s, 30s], timeout: 5s, path: /webhooks }
    stream: { path: /events, heartbeat: 15s }
  kinds:
    ticket.created: { payload: { resource: Ticket }, on: [create] }
    ticket.started: { payload: { resource: Ticket } }
`
    : ''
}authentication: { default: none }
limits: { body_size: 16KiB }
`;

// ---- the server process -------------------------------------------------------------------------------------------

async function serve(variant: string, dbPath: string): Promise<void> {
  const model = compileSpecText(SPEC(variant === 'outbox')).checked!;
  const app = await createService(model, { storage: createSqliteStorage({ path: dbPath }), allowGaps: true, webhooks: { allowTargets: ['127.0.0.0/8'] } });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  console.log(JSON.stringify({ url }));
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

// ---- the measuring process ----------------------------------------------------------------------------------------

interface Started {
  url: string;
  child: ChildProcess;
}

async function startServer(variant: 'outbox' | 'none', dbPath: string): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', SELF, 'serve', variant, dbPath], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    child.on('exit', (code) => reject(new Error(`${variant} server exited with ${code}`)));
  });
  return { ...(JSON.parse(line) as { url: string }), child };
}

interface Receiver {
  url: string;
  arrivals: Map<string, { at: number; timestamp: number }>;
  server: Server;
}

async function startReceiver(): Promise<Receiver> {
  const arrivals = new Map<string, { at: number; timestamp: number }>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; timestamp: string };
      if (!arrivals.has(body.id)) arrivals.set(body.id, { at, timestamp: Date.parse(body.timestamp) });
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, arrivals, server };
}

async function post(url: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: text === '' ? undefined : JSON.parse(text) };
}

async function createThroughput(s: Started): Promise<{ rps: number; p99: number; errors: number }> {
  const r = await autocannon({
    url: `${s.url}/tickets`,
    method: 'POST',
    connections: CONNECTIONS,
    duration: DURATION_S,
    body: JSON.stringify({ title: 'bench', points: 3 }),
    headers: { 'content-type': 'application/json' },
  });
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.non2xx + r.errors };
}

/** Runs `n` jobs with `width` in flight. */
async function pool(n: number, width: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await job(next++);
    }),
  );
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const quantile = (xs: readonly number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
};

async function transitions(
  s: Started,
  receiver: Receiver | undefined,
): Promise<{ ackMs: number; deliveredMs?: number; p50?: number; p99?: number; max?: number }> {
  const ids: string[] = [];
  await pool(TRANSITIONS, CONNECTIONS, async () => {
    const r = await post(`${s.url}/tickets`, { title: 'to start' });
    ids.push((r.json as { id: string }).id);
  });
  if (receiver) {
    const reg = await post(`${s.url}/webhooks`, { url: receiver.url, kinds: ['ticket.started'] });
    if (reg.status !== 201) throw new Error(`registering the endpoint failed: ${reg.status} ${JSON.stringify(reg.json)}`);
    receiver.arrivals.clear();
  }
  const t0 = Date.now();
  let failed = 0;
  await pool(TRANSITIONS, CONNECTIONS, async (i) => {
    if ((await post(`${s.url}/tickets/${ids[i]}/start`)).status !== 200) failed++;
  });
  const ackMs = Date.now() - t0;
  if (failed > 0) throw new Error(`${failed} transitions failed`);
  if (!receiver) return { ackMs };
  while (receiver.arrivals.size < TRANSITIONS) {
    if (Date.now() - t0 > 120_000) throw new Error(`only ${receiver.arrivals.size} of ${TRANSITIONS} webhooks arrived in 120 s`);
    await new Promise((r) => setTimeout(r, 5));
  }
  const arrivals = [...receiver.arrivals.values()];
  const deliveredMs = Math.max(...arrivals.map((a) => a.at)) - t0;
  const latencies = arrivals.map((a) => a.at - a.timestamp);
  return { ackMs, deliveredMs, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), max: Math.max(...latencies) };
}

/**
 * The outbox row's share of a commit, in raw SQLite (WAL, synchronous=FULL), for the outbox table as the runtime
 * creates it and for two leaner forms: AUTOINCREMENT writes sqlite_sequence on every insert, UNIQUE(id) an index.
 */
function rawCommitCost(dir: string): { name: string; us: number }[] {
  const data = JSON.stringify({ object: { id: uuidv7(), title: 'bench', points: 3, status: 'open', created_at: new Date().toISOString() } });
  const variants: [string, string | undefined][] = [
    ['resource row only', undefined],
    [
      '+ outbox row, table as created (AUTOINCREMENT, UNIQUE id)',
      'CREATE TABLE o (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, timestamp TEXT NOT NULL, version TEXT, data TEXT NOT NULL) STRICT',
    ],
    [
      '+ outbox row, no AUTOINCREMENT',
      'CREATE TABLE o (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, timestamp TEXT NOT NULL, version TEXT, data TEXT NOT NULL) STRICT',
    ],
    [
      '+ outbox row, no AUTOINCREMENT, no UNIQUE(id)',
      'CREATE TABLE o (seq INTEGER PRIMARY KEY, id TEXT NOT NULL, type TEXT NOT NULL, timestamp TEXT NOT NULL, version TEXT, data TEXT NOT NULL) STRICT',
    ],
  ];
  const runs = variants.map(([name, ddl], i) => {
    const db = new Database(join(dir, `raw-${i}.db`));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec('CREATE TABLE t (id TEXT NOT NULL PRIMARY KEY, title TEXT, points INTEGER, status TEXT, created_at TEXT) STRICT');
    if (ddl) db.exec(ddl);
    return {
      name,
      db,
      row: db.prepare('INSERT INTO t VALUES (?, ?, ?, ?, ?) RETURNING *'),
      event: ddl ? db.prepare('INSERT INTO o (id, type, timestamp, version, data) VALUES (?, ?, ?, ?, ?)') : undefined,
      times: [] as number[],
    };
  });
  for (let round = 0; round < 7; round++) {
    for (const r of round % 2 === 0 ? runs : [...runs].reverse()) {
      const n = 500;
      const t = performance.now();
      for (let i = 0; i < n; i++) {
        r.db.exec('BEGIN IMMEDIATE');
        r.row.get(uuidv7(), 'x', 3, 'open', new Date().toISOString());
        r.event?.run(uuidv7(), 'ticket.created', new Date().toISOString(), null, data);
        r.db.exec('COMMIT');
      }
      if (round > 0) r.times.push(((performance.now() - t) * 1000) / n);
    }
  }
  return runs.map((r) => {
    r.db.close();
    return { name: r.name, us: median(r.times) };
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ss-events-bench-'));
  const receiver = await startReceiver();
  const outbox = await startServer('outbox', join(dir, 'outbox.db'));
  const none = await startServer('none', join(dir, 'none.db'));
  const delivering = await startServer('outbox', join(dir, 'delivering.db'));
  const reg = await post(`${delivering.url}/webhooks`, { url: receiver.url, kinds: ['ticket.created'] });
  if (reg.status !== 201) throw new Error(`registering the endpoint failed: ${reg.status}`);
  const a: Awaited<ReturnType<typeof createThroughput>>[] = [];
  const b: typeof a = [];
  const c: typeof a = [];
  let flows: { with: Awaited<ReturnType<typeof transitions>>; without: Awaited<ReturnType<typeof transitions>> };
  try {
    // Alternate (and swap the order every round), so drift in the machine's load and its disk hits all alike;
    // the cost is the median of each round's paired ratio.
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2 === 0) {
        a.push(await createThroughput(outbox));
        b.push(await createThroughput(none));
        c.push(await createThroughput(delivering));
      } else {
        c.push(await createThroughput(delivering));
        b.push(await createThroughput(none));
        a.push(await createThroughput(outbox));
      }
      console.log(
        `round ${round + 1}: outbox ${a.at(-1)!.rps.toFixed(0)} req/s, none ${b.at(-1)!.rps.toFixed(0)} req/s, delivering ${c.at(-1)!.rps.toFixed(0)} req/s`,
      );
    }
    const flowDir = join(dir, 'flow');
    const f1 = await startServer('outbox', `${flowDir}-with.db`);
    const f2 = await startServer('outbox', `${flowDir}-without.db`);
    try {
      const without = await transitions(f2, undefined);
      const withDelivery = await transitions(f1, receiver);
      flows = { with: withDelivery, without };
      console.log('transitions', flows);
    } finally {
      f1.child.kill('SIGTERM');
      f2.child.kill('SIGTERM');
    }
  } finally {
    for (const s of [outbox, none, delivering]) s.child.kill('SIGTERM');
    receiver.server.closeAllConnections();
    receiver.server.close();
  }
  const raw = rawCommitCost(dir);
  console.log('raw commit', raw);
  rmSync(dir, { recursive: true, force: true });

  const rps = { outbox: median(a.map((x) => x.rps)), none: median(b.map((x) => x.rps)), delivering: median(c.map((x) => x.rps)) };
  const p99 = { outbox: median(a.map((x) => x.p99)), none: median(b.map((x) => x.p99)), delivering: median(c.map((x) => x.p99)) };
  const errors = [...a, ...b, ...c].reduce((n, x) => n + x.errors, 0);
  const ratios = a.map((x, i) => x.rps / b[i]!.rps);
  const deliveringRatios = c.map((x, i) => x.rps / b[i]!.rps);
  const cost = 1 - median(ratios);
  const met = cost <= TARGET_COST;
  const section = [
    '## Events: the outbox on the write path, and webhook delivery',
    '',
    '- Command: `npx tsx bench/events-bench.ts`',
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${cpus().length} CPUs, Node ${process.version}; 1-minute load average at the end ${loadavg()[0]!.toFixed(1)}`,
    `- Each server in its own process on 127.0.0.1, WAL + synchronous=FULL; autocannon and the webhook receiver in this process. Creates: ${CONNECTIONS} connections, ${DURATION_S} s per run, median of ${ROUNDS} alternating runs. The spec is in the bench file; "none" is the same spec without its \`events\` part.`,
    '',
    '| create throughput | req/s | p99 ms |',
    '|---|---|---|',
    `| without events (baseline) | ${rps.none.toFixed(0)} | ${p99.none} |`,
    `| with the outbox (every create appends its event in its transaction) | ${rps.outbox.toFixed(0)} | ${p99.outbox} |`,
    `| with the outbox and a webhook endpoint receiving every create | ${rps.delivering.toFixed(0)} | ${p99.delivering} |`,
    '',
    `Outbox cost: ${(cost * 100).toFixed(1)}% of create throughput (median of the rounds' paired ratios ${median(ratios).toFixed(2)}; per round: ${ratios.map((r) => r.toFixed(2)).join(', ')}); with delivery running alongside: ${((1 - median(deliveringRatios)) * 100).toFixed(1)}%. Non-2xx + errors: ${errors}.`,
    '',
    "Where the time goes (a CPU profile of the outbox server under this load): about half of it is SQLite's COMMIT (the fsync of synchronous=FULL), whose latency on a shared disk varies several-fold from run to run; emitting the event (payload check, UUIDv7, JSON, the outbox INSERT) is about 30 µs of CPU per create, and waking the stream and the delivery worker about 6 µs.",
    '',
    `${TRANSITIONS} transitions (each emits \`ticket.started\`), ${CONNECTIONS} in flight:`,
    '',
    '| | all acknowledged | all webhooks delivered | delivery latency p50 | p99 | max |',
    '|---|---|---|---|---|---|',
    `| no endpoint (baseline) | ${flows.without.ackMs} ms | | | | |`,
    `| one endpoint, every event signed and delivered | ${flows.with.ackMs} ms | ${flows.with.deliveredMs} ms | ${flows.with.p50} ms | ${flows.with.p99} ms | ${flows.with.max} ms |`,
    '',
    "Latency is the receiver's arrival time minus the event's timestamp (taken inside the change's transaction), on one clock.",
    '',
    "The outbox row's share of a commit in raw SQLite (WAL, synchronous=FULL, one connection, median µs per transaction; same run):",
    '',
    '| transaction | µs | vs resource row only |',
    '|---|---|---|',
    ...raw.map((r) => `| ${r.name} | ${r.us.toFixed(0)} | ${(r.us / raw[0]!.us).toFixed(2)}× |`),
    '',
    `Target: the outbox costs at most ${TARGET_COST * 100}% of create throughput — **${met ? 'met' : 'missed'}**.`,
  ].join('\n');
  console.log(section);
  writeResultsSection('events-bench', section);
}

if (process.argv[2] === 'serve') await serve(process.argv[3]!, process.argv[4]!);
else await main();
