// Shared by the HTTP benchmarks: start a server from bench/lib/bench-server.ts in its own process, and drive
// it with autocannon from this one (loopback only, bounded duration).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { ORDER_BODY } from './orders-body.js';

const SERVER = fileURLToPath(new URL('./bench-server.ts', import.meta.url));

export interface Started {
  url: string;
  key: string;
  customerId: string;
  orderId: string;
  child: ChildProcess;
}

export type RateMode = 'none' | 'memory' | 'redis';

export interface ServerVariant {
  /** SQLite's synchronous setting (default full). */
  synchronous?: 'full' | 'normal';
  /** `open`: no operation needs a credential (default `key`: an API key on every request). */
  auth?: 'key' | 'open';
  /** Extra Node flags for the server process (`--cpu-prof`, say). */
  nodeArgs?: string[];
  /** More environment for the server (bench-server.ts reads BENCH_EVENTS and BENCH_BASELINE_OUTBOX). */
  env?: Record<string, string>;
}

/** `db`: a postgres:// URL to serve from instead of a SQLite file in `dir`. */
export async function startServer(
  mode: 'served' | 'baseline',
  dir: string,
  rate: RateMode = 'none',
  db?: string,
  variant: ServerVariant = {},
): Promise<Started> {
  const sync = variant.synchronous ?? 'full';
  const auth = variant.auth ?? 'key';
  const file = join(dir, `${mode}-${rate}-${sync}-${auth}-${Math.random().toString(36).slice(2, 8)}.db`);
  const child = spawn(process.execPath, [...(variant.nodeArgs ?? []), '--import', 'tsx', SERVER, mode, db ?? file, rate, sync, auth], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...variant.env },
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    child.on('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
  return { ...(JSON.parse(line) as Omit<Started, 'child'>), child };
}

export interface Figures {
  rps: number;
  /** Requests answered in the run. */
  requests: number;
  p99: number;
  errors: number;
  /** The server process's CPU time (user + system) per request answered, in µs; undefined where /proc is not. */
  cpuPerRequest?: number;
}

/** A process's CPU time so far (user + system, µs), from /proc on Linux; undefined elsewhere. */
export function processCpuMicros(pid: number | undefined): number | undefined {
  if (pid === undefined || !existsSync(`/proc/${pid}/stat`)) return undefined;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime, in clock ticks (USER_HZ, 100 on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

export interface LoadOptions {
  connections: number;
  seconds: number;
  /** Send a fresh Idempotency-Key with every create. */
  idempotencyKeys?: boolean;
}

// Idempotency keys are unique across every load of this run: a key sent again would be answered by replay.
const RUN = randomUUID();
let keyCount = 0;

export async function load(s: Started, scenario: 'read' | 'list' | 'create', o: LoadOptions): Promise<Figures> {
  const headers: Record<string, string> = { 'x-api-key': s.key };
  const base = { connections: o.connections, duration: o.seconds };
  const opts: autocannon.Options =
    scenario === 'create'
      ? {
          ...base,
          url: `${s.url}/orders`,
          method: 'POST',
          body: JSON.stringify(ORDER_BODY(s.customerId)),
          headers: { ...headers, 'content-type': 'application/json' },
          ...(o.idempotencyKeys
            ? {
                setupClient: (client: autocannon.Client) =>
                  client.on('response', () =>
                    client.setHeaders({ ...headers, 'content-type': 'application/json', 'idempotency-key': `k-${RUN}-${keyCount++}` }),
                  ),
              }
            : {}),
        }
      : { ...base, url: scenario === 'read' ? `${s.url}/orders/${s.orderId}` : `${s.url}/orders?limit=20`, headers };
  const before = processCpuMicros(s.child.pid);
  const r = await autocannon(opts);
  const after = processCpuMicros(s.child.pid);
  const answered = r.requests.total;
  return {
    rps: r.requests.average,
    requests: answered,
    p99: r.latency.p99,
    errors: r.non2xx + r.errors,
    ...(before !== undefined && after !== undefined && answered > 0 ? { cpuPerRequest: (after - before) / answered } : {}),
  };
}

/**
 * Ratios of `measured` to `baseline`, paired round by round (both ran in the same round, so drift in the
 * machine's load hits them alike), and their median: req/s over req/s, and baseline CPU per request over
 * measured CPU per request (the throughput the server itself allows; steadier than req/s on a shared machine).
 */
export function pairedRatios(measured: Figures[], baseline: Figures[]): { rps: number; cpu?: number; perRound: number[] } {
  const perRound = measured.map((m, i) => m.rps / baseline[i]!.rps);
  const cpu = measured.every((m, i) => m.cpuPerRequest !== undefined && baseline[i]!.cpuPerRequest !== undefined)
    ? median(measured.map((m, i) => baseline[i]!.cpuPerRequest! / m.cpuPerRequest!))
    : undefined;
  return { rps: median(perRound), ...(cpu !== undefined ? { cpu } : {}), perRound };
}

/** The middle value; for an even count, the mean of the two middle ones. */
export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
