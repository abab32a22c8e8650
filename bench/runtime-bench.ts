// The served examples/orders.yaml against a hand-written Fastify + better-sqlite3 service of the same
// endpoints (bench/baseline/orders-baseline.ts), same durability, same API-key check, in the same run.
// Both servers run in their own processes; autocannon drives them from this one, over loopback only.
// Also: start-up time of a 100-resource spec.
//
//   npx tsx bench/runtime-bench.ts            # print, and replace the runtime section of bench/RESULTS.md
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileSpecText } from '../src/program.js';
import { createService } from '../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../src/runtime/storage/storage-sqlite.js';
import { load, median, pairedRatios, startServer, type Figures } from './lib/bench-load.js';
import { writeResultsSection } from './lib/bench-results.js';
import { generateLargeSpec } from './lib/foundation-spec.js';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
// The matrix of issue 19 item 1: SQLite's synchronous setting, API key or none, connections. Each can be narrowed.
const SYNCS = (process.env.BENCH_SYNC ?? 'normal,full').split(',') as ('normal' | 'full')[];
const AUTHS = (process.env.BENCH_AUTH ?? 'key,open').split(',') as ('key' | 'open')[];
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '16,50').split(',').map(Number);
const SCENARIOS = (process.env.BENCH_SCENARIOS ?? 'read,list,create').split(',') as ('read' | 'list' | 'create')[];

async function startupTime(): Promise<{ compileMs: number; startMs: number }> {
  const text = generateLargeSpec({ resources: 100, operationsPerResource: 5 });
  const dir = mkdtempSync(join(tmpdir(), 'ss-startup-'));
  const times: { compileMs: number; startMs: number }[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const model = compileSpecText(text).checked!;
    const t1 = performance.now();
    const app = await createService(model, {
      storage: createSqliteStorage({ path: join(dir, `s${i}.db`) }),
      allowGaps: true,
      authenticator: { authenticate: async () => ({ subject: 's', scopes: [], scheme: 'x' }) },
    });
    const t2 = performance.now();
    await app.close();
    times.push({ compileMs: t1 - t0, startMs: t2 - t1 });
  }
  rmSync(dir, { recursive: true, force: true });
  return { compileMs: median(times.map((t) => t.compileMs)), startMs: median(times.map((t) => t.startMs)) };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'ss-bench-'));
  const rows: string[] = [];
  const ratios: { rps: number; cpu?: number }[] = [];
  const loadStart = loadavg()[0]!;
  for (const synchronous of SYNCS) {
    for (const auth of AUTHS) {
      const served = await startServer('served', dir, 'none', undefined, { synchronous, auth });
      const baseline = await startServer('baseline', dir, 'none', undefined, { synchronous, auth });
      try {
        // Warm-up: JIT, SQLite page cache.
        for (const scenario of ['read', 'list'] as const) for (const s of [served, baseline]) await load(s, scenario, { connections: 16, seconds: 1 });
        for (const connections of CONNECTIONS) {
          for (const scenario of SCENARIOS) {
            const a: Figures[] = [];
            const b: Figures[] = [];
            // Alternate, and swap which goes first each round, so drift in the machine's load hits both alike.
            for (let round = 0; round < ROUNDS; round++) {
              for (const s of round % 2 === 0 ? [served, baseline] : [baseline, served])
                (s === served ? a : b).push(await load(s, scenario, { connections, seconds: DURATION_S }));
            }
            const r = pairedRatios(a, b);
            ratios.push(r);
            const cpuOf = (f: Figures[]) => (f.every((x) => x.cpuPerRequest !== undefined) ? median(f.map((x) => x.cpuPerRequest!)).toFixed(0) : 'n/a');
            rows.push(
              `| ${scenario} | ${synchronous} | ${auth === 'key' ? 'API key' : 'none'} | ${connections} | ${median(a.map((x) => x.rps)).toFixed(0)} | ${median(a.map((x) => x.p99))} | ${cpuOf(a)} | ${median(b.map((x) => x.rps)).toFixed(0)} | ${median(b.map((x) => x.p99))} | ${cpuOf(b)} | **${r.rps.toFixed(2)}** (${r.perRound.map((x) => x.toFixed(2)).join(', ')}) | ${r.cpu?.toFixed(2) ?? 'n/a'} | ${[...a, ...b].reduce((n, x) => n + x.errors, 0)} |`,
            );
            console.log(rows.at(-1));
          }
        }
      } finally {
        served.child.kill('SIGTERM');
        baseline.child.kill('SIGTERM');
      }
    }
  }
  rmSync(dir, { recursive: true, force: true });
  const startup = await startupTime();
  console.log('startup', startup);
  const met = ratios.filter((r) => r.rps >= 1).length;
  const cpuMet = ratios.filter((r) => r.cpu !== undefined && r.cpu >= 1).length;
  const section = [
    '## runtime-bench: the served examples/orders.yaml against a hand-written Fastify + better-sqlite3 service',
    '',
    `- Command: \`${[process.env.BENCH_SYNC && `BENCH_SYNC=${process.env.BENCH_SYNC}`, process.env.BENCH_AUTH && `BENCH_AUTH=${process.env.BENCH_AUTH}`, process.env.BENCH_CONNECTIONS && `BENCH_CONNECTIONS=${process.env.BENCH_CONNECTIONS}`, process.env.BENCH_SCENARIOS && `BENCH_SCENARIOS=${process.env.BENCH_SCENARIOS}`, process.env.BENCH_SECONDS && `BENCH_SECONDS=${DURATION_S}`, process.env.BENCH_ROUNDS && `BENCH_ROUNDS=${ROUNDS}`].filter(Boolean).join(' ')} npx tsx bench/runtime-bench.ts\`.trim()`,
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${cpus().length} CPUs, Node ${process.version}, **shared** with other work (8 people on 2 cores): 1-minute load average ${loadStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end. Absolute req/s are whatever the machine had left; the ratios (same round, alternating) and the CPU per request are the figures to read.`,
    `- Load: autocannon in the benchmark's process, ${DURATION_S} s per run, ${ROUNDS} rounds per cell after a warm-up, the two servers alternating (which goes first swaps each round); each server in its own process on 127.0.0.1, WAL at the synchronous setting of the row. "API key": both check an API key on every request (the baseline looks the key up in SQLite and compares SHA-256 digests each time; servicespec keeps key records cached, checking SQLite's data_version at most once a millisecond, and compares a secret it has verified before without hashing it again, docs/auth.md). "none": no credential; the Order then has no owner, and the baseline stores a constant owner it does not return. Both validate the create body with a JSON Schema and answer the same JSON. The served spec is examples/orders.yaml without its rate limits and without its events (the baseline has no outbox; bench/events-bench.ts measures the outbox's cost).`,
    '- Ratio: the median over rounds of served req/s ÷ baseline req/s in the same round (each round in brackets). CPU ratio: baseline ÷ served server CPU time per request (median over rounds), read from /proc: the throughput each server itself allows, much less disturbed by other work on the machine than req/s.',
    '',
    '| scenario | synchronous | credential | connections | served req/s | served p99 ms | served CPU µs/req | baseline req/s | baseline p99 ms | baseline CPU µs/req | ratio (per round) | CPU ratio | non-2xx + errors |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `Start-up of a 100-resource, 500-operation spec (median of 5): compile ${startup.compileMs.toFixed(0)} ms, createService ${startup.startMs.toFixed(0)} ms. Validators compile on first use or in idle time after start, so createService does not wait for Ajv.`,
    '',
    `Target (issue 19 item 1): at least 1.0 of the baseline in every cell — req/s ratio ≥ 1.0 in ${met} of ${ratios.length} cells, CPU ratio ≥ 1.0 in ${cpuMet} of ${ratios.length}.`,
  ].join('\n');
  writeResultsSection('runtime-bench', section);
}

await main();
