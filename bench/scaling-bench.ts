// The scaling curve (issue 19 item 6): read-by-id and create throughput and p99 of the served examples/orders.yaml
// and of the hand-written baseline at 1, 16, 50 and 200 connections, alternating within one run, with each
// server's CPU per request (read from /proc) to show where each saturates.
//
//   npx tsx bench/scaling-bench.ts        # print, and replace the scaling-bench section of bench/RESULTS.md
//   env: BENCH_SECONDS (2), BENCH_ROUNDS (3), BENCH_SYNC (normal), BENCH_CONNECTIONS (1,16,50,200)
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, median, startServer, type Figures } from './lib/bench-load.js';
import { writeResultsSection } from './lib/bench-results.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SYNC = process.env.BENCH_SYNC === 'full' ? 'full' : 'normal';
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '1,16,50,200').split(',').map(Number);

const dir = mkdtempSync(join(tmpdir(), 'ss-scaling-'));
const loadStart = loadavg()[0]!;
const served = await startServer('served', dir, 'none', undefined, { synchronous: SYNC });
const baseline = await startServer('baseline', dir, 'none', undefined, { synchronous: SYNC });
const rows: string[] = [];
try {
  for (const s of [served, baseline]) await load(s, 'read', { connections: 16, seconds: 1 });
  for (const scenario of ['read', 'create'] as const) {
    for (const connections of CONNECTIONS) {
      const a: Figures[] = [];
      const b: Figures[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        for (const s of round % 2 === 0 ? [served, baseline] : [baseline, served])
          (s === served ? a : b).push(await load(s, scenario, { connections, seconds: SECONDS }));
      }
      const m = (f: Figures[], k: 'rps' | 'p99') => median(f.map((x) => x[k]));
      const cpu = (f: Figures[]) => (f.every((x) => x.cpuPerRequest !== undefined) ? median(f.map((x) => x.cpuPerRequest!)).toFixed(0) : 'n/a');
      const ratio = median(a.map((x, i) => x.rps / b[i]!.rps));
      rows.push(
        `| ${scenario} | ${connections} | ${m(a, 'rps').toFixed(0)} | ${m(a, 'p99')} | ${cpu(a)} | ${m(b, 'rps').toFixed(0)} | ${m(b, 'p99')} | ${cpu(b)} | ${ratio.toFixed(2)} | ${[...a, ...b].reduce((n, x) => n + x.errors, 0)} |`,
      );
      console.log(rows.at(-1));
    }
  }
} finally {
  served.child.kill('SIGTERM');
  baseline.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
writeResultsSection(
  'scaling-bench',
  [
    '## scaling-bench: throughput and p99 against connections, servicespec and the hand-written baseline',
    '',
    `- Command: \`${process.env.BENCH_ROUNDS ? `BENCH_ROUNDS=${ROUNDS} ` : ''}${process.env.BENCH_SECONDS ? `BENCH_SECONDS=${SECONDS} ` : ''}${SYNC === 'full' ? 'BENCH_SYNC=full ' : ''}npx tsx bench/scaling-bench.ts\``,
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${cpus().length} CPUs, Node ${process.version}, **shared** (8 people on 2 cores): 1-minute load average ${loadStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end.`,
    `- Each server in its own process on 127.0.0.1 (bench/lib/bench-server.ts: examples/orders.yaml without rate limits and events, API key on every request; the baseline bench/baseline/orders-baseline.ts), SQLite WAL + synchronous=${SYNC}; autocannon in this process, ${SECONDS} s per run, ${ROUNDS} rounds per cell, the two servers alternating; medians.`,
    '',
    '| scenario | connections | served req/s | served p99 ms | served CPU µs/req | baseline req/s | baseline p99 ms | baseline CPU µs/req | ratio | non-2xx + errors |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n'),
);
