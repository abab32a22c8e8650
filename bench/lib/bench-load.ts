// Shared by the HTTP benchmarks: start a server from bench/lib/bench-server.ts in its own process, and drive
// it with autocannon from this one (loopback only, bounded duration).
import { spawn, type ChildProcess } from 'node:child_process';
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

export async function startServer(mode: 'served' | 'baseline', dir: string, rate: RateMode = 'none'): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER, mode, join(dir, `${mode}-${rate}.db`), rate], { stdio: ['ignore', 'pipe', 'inherit'] });
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
  p99: number;
  errors: number;
}

export interface LoadOptions {
  connections: number;
  seconds: number;
  /** Send a fresh Idempotency-Key with every create. */
  idempotencyKeys?: boolean;
}

export async function load(s: Started, scenario: 'read' | 'list' | 'create', o: LoadOptions): Promise<Figures> {
  const headers: Record<string, string> = { 'x-api-key': s.key };
  const base = { connections: o.connections, duration: o.seconds };
  let n = 0;
  const opts: autocannon.Options =
    scenario === 'create'
      ? {
          ...base,
          url: `${s.url}/orders`,
          method: 'POST',
          body: JSON.stringify(ORDER_BODY(s.customerId)),
          headers: { ...headers, 'content-type': 'application/json' },
          ...(o.idempotencyKeys ? { setupClient: (client: autocannon.Client) => client.on('response', () => client.setHeaders({ ...headers, 'content-type': 'application/json', 'idempotency-key': `k-${process.pid}-${n++}` })) } : {}),
        }
      : { ...base, url: scenario === 'read' ? `${s.url}/orders/${s.orderId}` : `${s.url}/orders?limit=20`, headers };
  const r = await autocannon(opts);
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.non2xx + r.errors };
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
