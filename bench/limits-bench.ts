// What limits cost: read throughput of the served examples/orders.yaml with no rate limiter, the in-process
// limiter and the Redis limiter (a policy too large to refuse, so every request is checked and admitted), and
// create throughput with and without a fresh Idempotency-Key per request. Same run, alternating, loopback only.
//
//   npx tsx bench/limits-bench.ts            # print, and replace the limits section of bench/RESULTS.md
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, median, startServer, type Figures, type RateMode, type Started } from './lib/bench-load.js';
import { writeResultsSection } from './lib/bench-results.js';
import { isListening } from '../test/support/services.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 16;

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'ss-limits-'));
  const redis = await isListening(6379);
  const modes: RateMode[] = redis ? ['none', 'memory', 'redis'] : ['none', 'memory'];
  const servers = new Map<RateMode, Started>();
  for (const m of modes) servers.set(m, await startServer('served', dir, m));
  const rows: string[] = [];
  try {
    const reads = new Map<RateMode, Figures[]>(modes.map((m) => [m, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const m of modes) reads.get(m)!.push(await load(servers.get(m)!, 'read', { connections: CONNECTIONS, seconds: SECONDS }));
    }
    const none = median(reads.get('none')!.map((f) => f.rps));
    for (const m of modes) {
      const f = reads.get(m)!;
      const rps = median(f.map((x) => x.rps));
      rows.push(`| read, ${m === 'none' ? 'no limiter' : `${m} limiter`} | ${rps.toFixed(0)} | ${median(f.map((x) => x.p99))} | ${(rps / none).toFixed(2)} | ${f.reduce((n, x) => n + x.errors, 0)} |`);
      console.log(rows.at(-1));
    }
    const plain: Figures[] = [];
    const keyed: Figures[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      plain.push(await load(servers.get('none')!, 'create', { connections: CONNECTIONS, seconds: SECONDS }));
      keyed.push(await load(servers.get('none')!, 'create', { connections: CONNECTIONS, seconds: SECONDS, idempotencyKeys: true }));
    }
    const p = median(plain.map((x) => x.rps));
    const k = median(keyed.map((x) => x.rps));
    rows.push(`| create, no Idempotency-Key | ${p.toFixed(0)} | ${median(plain.map((x) => x.p99))} | 1.00 | ${plain.reduce((n, x) => n + x.errors, 0)} |`);
    rows.push(`| create, a fresh Idempotency-Key each | ${k.toFixed(0)} | ${median(keyed.map((x) => x.p99))} | ${(k / p).toFixed(2)} | ${keyed.reduce((n, x) => n + x.errors, 0)} |`);
    console.log(rows.slice(-2).join('\n'));
    const memoryRatio = median(reads.get('memory')!.map((f) => f.rps)) / none;
    writeResultsSection(
      'limits-bench',
      [
        '## limits-bench: the cost of rate limiting and of Idempotency-Key',
        '',
        '- Command: `npx tsx bench/limits-bench.ts`',
        `- Date: ${new Date().toISOString()}`,
        `- Machine: ${cpus().length} CPUs, Node ${process.version}; 1-minute load average at the end ${loadavg()[0]!.toFixed(1)}`,
        `- Each variant is examples/orders.yaml served in its own process (bench/lib/bench-server.ts), its rate policies replaced by one of 10^9 a minute by credential, so every request is checked and none refused. autocannon here, ${CONNECTIONS} connections, ${SECONDS} s a run, median of ${ROUNDS} alternating runs.${redis ? '' : ' Redis was not answering on 127.0.0.1:6379, so the Redis variant did not run.'}`,
        '',
        '| measured | req/s | p99 ms | ratio | non-2xx + errors |',
        '|---|---|---|---|---|',
        ...rows,
        '',
        `Target: the in-process limiter at least 0.9 of no limiter — **${memoryRatio >= 0.9 ? 'met' : 'missed'}** (${memoryRatio.toFixed(2)}).`,
      ].join('\n'),
    );
  } finally {
    for (const s of servers.values()) s.child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
