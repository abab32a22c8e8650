// What limits cost: read throughput of the served examples/orders.yaml with no rate limiter, the in-process
// limiter and the Redis limiter (a policy too large to refuse, so every request is checked and admitted), and
// create throughput with and without a fresh Idempotency-Key per request. Same run, alternating, loopback only.
//
//   npx tsx bench/limits-bench.ts            # print, and replace the limits section of bench/RESULTS.md
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, median, pairedRatios, startServer, type Figures, type RateMode, type Started } from './lib/bench-load.js';
import { writeResultsSection } from './lib/bench-results.js';
import { isListening } from '../test/support/services.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const CONNECTIONS = 16;
const SYNC = process.env.BENCH_SYNC === 'normal' ? 'normal' : 'full';

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'ss-limits-'));
  const redis = await isListening(6379);
  const modes: RateMode[] = redis ? ['none', 'memory', 'redis'] : ['none', 'memory'];
  const servers = new Map<RateMode, Started>();
  for (const m of modes) servers.set(m, await startServer('served', dir, m, undefined, { synchronous: SYNC }));
  const rows: string[] = [];
  let memory: { rps: number; cpu?: number } = { rps: Number.NaN };
  try {
    const reads = new Map<RateMode, Figures[]>(modes.map((m) => [m, []]));
    for (const m of modes) await load(servers.get(m)!, 'read', { connections: CONNECTIONS, seconds: 1 }); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      // The order rotates each round, so no variant always runs right after another.
      for (const m of [...modes.slice(round % modes.length), ...modes.slice(0, round % modes.length)])
        reads.get(m)!.push(await load(servers.get(m)!, 'read', { connections: CONNECTIONS, seconds: SECONDS }));
    }
    for (const m of modes) {
      const f = reads.get(m)!;
      const r = pairedRatios(f, reads.get('none')!);
      if (m === 'memory') memory = r;
      const cpu = f.every((x) => x.cpuPerRequest !== undefined) ? median(f.map((x) => x.cpuPerRequest!)).toFixed(0) : 'n/a';
      rows.push(
        `| read, ${m === 'none' ? 'no limiter' : `${m} limiter`} | ${median(f.map((x) => x.rps)).toFixed(0)} | ${median(f.map((x) => x.p99))} | ${cpu} | ${r.rps.toFixed(2)}${m === 'none' ? '' : ` (${r.perRound.map((x) => x.toFixed(2)).join(', ')})`} | ${r.cpu?.toFixed(2) ?? 'n/a'} | ${f.reduce((n, x) => n + x.errors, 0)} |`,
      );
      console.log(rows.at(-1));
    }
    const plain: Figures[] = [];
    const keyed: Figures[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Which goes first swaps each round.
      const runPlain = async () => plain.push(await load(servers.get('none')!, 'create', { connections: CONNECTIONS, seconds: SECONDS }));
      const runKeyed = async () =>
        keyed.push(await load(servers.get('none')!, 'create', { connections: CONNECTIONS, seconds: SECONDS, idempotencyKeys: true }));
      if (round % 2 === 0) await runPlain().then(runKeyed);
      else await runKeyed().then(runPlain);
    }
    const idem = pairedRatios(keyed, plain);
    const cpuOf = (f: Figures[]) => (f.every((x) => x.cpuPerRequest !== undefined) ? median(f.map((x) => x.cpuPerRequest!)).toFixed(0) : 'n/a');
    rows.push(
      `| create, no Idempotency-Key | ${median(plain.map((x) => x.rps)).toFixed(0)} | ${median(plain.map((x) => x.p99))} | ${cpuOf(plain)} | 1.00 | 1.00 | ${plain.reduce((n, x) => n + x.errors, 0)} |`,
    );
    rows.push(
      `| create, a fresh Idempotency-Key each | ${median(keyed.map((x) => x.rps)).toFixed(0)} | ${median(keyed.map((x) => x.p99))} | ${cpuOf(keyed)} | ${idem.rps.toFixed(2)} | ${idem.cpu?.toFixed(2) ?? 'n/a'} | ${keyed.reduce((n, x) => n + x.errors, 0)} |`,
    );
    console.log(rows.slice(-2).join('\n'));
    const met = memory.rps >= 0.9;
    writeResultsSection(
      'limits-bench',
      [
        '## limits-bench: the cost of rate limiting and of Idempotency-Key',
        '',
        `- Command: \`${SYNC === 'normal' ? 'BENCH_SYNC=normal ' : ''}${process.env.BENCH_ROUNDS ? `BENCH_ROUNDS=${ROUNDS} ` : ''}${process.env.BENCH_SECONDS ? `BENCH_SECONDS=${SECONDS} ` : ''}npx tsx bench/limits-bench.ts\``,
        `- Date: ${new Date().toISOString()}`,
        `- Machine: ${cpus().length} CPUs, Node ${process.version}; 1-minute load average at the end ${loadavg()[0]!.toFixed(1)} (the machine is shared: 8 people on 2 cores)`,
        `- Each variant is examples/orders.yaml served in its own process (bench/lib/bench-server.ts), its rate policies replaced by one of 10^9 a minute by credential, so every request is checked and none refused. autocannon here, ${CONNECTIONS} connections, ${SECONDS} s a run, ${ROUNDS} rounds after a warm-up, the variants alternating (order rotating each round).${redis ? '' : ' Redis was not answering on 127.0.0.1:6379, so the Redis variant did not run.'}`,
        "- Ratio: the median over rounds of req/s ÷ the same round's req/s without the feature. CPU ratio: server CPU time per request without ÷ with (median over rounds), read from /proc: the throughput the server itself allows, steadier than req/s on a shared machine.",
        '',
        '| measured | req/s | p99 ms | server CPU µs/req | ratio (per round) | CPU ratio | non-2xx + errors |',
        '|---|---|---|---|---|---|---|',
        ...rows,
        '',
        'Each variant is its own server process, and processes of the same build differ by several per cent in speed on this machine (JIT and memory layout): a ratio above 1.00 means the feature costs less than this benchmark resolves.',
        '',
        `SQLite at synchronous=${SYNC.toUpperCase()}, WAL. A create with an Idempotency-Key commits once, as one without: the key is claimed, the object inserted and the answer stored in one transaction (issue 19 item 2; before, three commits: 0.50). Without a key the create is one INSERT in autocommit; with one it is BEGIN IMMEDIATE, the INSERT, the claim with the stored answer, COMMIT, all in the request's turn (no queue, promise or timer). Every key in this run is fresh (a repeated key is answered by replay, without a transaction). The floor is SQLite's: the claim writes a second row (~0.6 KB) and its key index, which in raw better-sqlite3 doubles the storage's CPU per create (\`npx tsx bench/keyed-floor.ts normal\`: autocommit INSERT ≈ 30–40 µs, with the claim in one transaction ≈ 67–81 µs, ratio 0.46–0.50; WITHOUT ROWID is worse, 0.30).`,
        '',
        `Target (issue 19 item 2): a keyed create at least 0.9 of an unkeyed one — **${idem.rps >= 0.9 ? 'met' : 'missed'}** on req/s (${idem.rps.toFixed(2)}), **${(idem.cpu ?? 0) >= 0.9 ? 'met' : 'missed'}** on CPU (${idem.cpu?.toFixed(2) ?? 'n/a'}).`,
        '',
        `Target: the in-process limiter at least 0.9 of no limiter — **${met ? 'met' : 'missed'}** (${memory.rps.toFixed(2)}; CPU ratio ${memory.cpu?.toFixed(2) ?? 'n/a'}).`,
      ].join('\n'),
    );
  } finally {
    for (const s of servers.values()) s.child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
