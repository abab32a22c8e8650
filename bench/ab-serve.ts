// Whole processes, as a user runs them: `servicespec serve` of this checkout (HEAD), of another built checkout
// (AB_OLD, e.g. the last landed main) and the hand-written Fastify + better-sqlite3 server of ../shared/bench
// (as it is), each in its own process on its own SQLite file (WAL, synchronous=NORMAL); autocannon in its own
// process against each in turn, the order rotating round by round; medians of the rounds and their ratios.
//
//   AB_OLD=/work/main npx tsx bench/ab-serve.ts [read,list,create]
//   AB_OLD=. AB_OLD_FAST_PATHS=off npx tsx bench/ab-serve.ts     # what the fast paths pay: HEAD on against HEAD off
//   env: BENCH_SECONDS (5), BENCH_ROUNDS (5), BENCH_CONNECTIONS (50), BENCH_SHARED (../shared/bench),
//        BENCH_SYNCHRONOUS (normal; full also makes the hand-written server commit at FULL, by a preload),
//        AB_OLD_FAST_PATHS (SERVICESPEC_FAST_PATHS of the old process only),
//        AB_OLD_NODE_OPTIONS (NODE_OPTIONS of the old process only, e.g. a preload),
//        AB_RAW=1 (also node:http + better-sqlite3 with nothing else, bench/baseline/raw-orders.cjs: the floor)
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HEAD = fileURLToPath(new URL('..', import.meta.url));
const OLD = process.env.AB_OLD;
// ../shared/bench beside the checkout (or beside its parent, for a worktree under /work/wt).
const SHARED = resolve(
  process.env.BENCH_SHARED ?? [join(HEAD, '..', 'shared', 'bench'), join(HEAD, '..', '..', 'shared', 'bench')].find((d) => existsSync(d)) ?? '../shared/bench',
);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SYNCHRONOUS = process.env.BENCH_SYNCHRONOUS ?? 'normal';
const scenarios = (process.argv[2] ?? 'read,list,create').split(',');
const AUTOCANNON = join(HEAD, 'node_modules', '.bin', 'autocannon');
const MODULES = join(HEAD, 'node_modules');
const SEEDED = '00000000-0000-4000-8000-000000000001';

interface Server {
  name: string;
  port: number;
  child: ChildProcess;
  /** An id to read. */
  id: string;
}

function freePort(): Promise<number> {
  return new Promise((done) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });
}

function call(port: number, method: string, path: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((done, fail) => {
    const r = request({ host: '127.0.0.1', port, method, path, headers: body === undefined ? {} : { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => done({ status: res.statusCode ?? 0, text }));
    });
    r.on('error', fail);
    r.end(body);
  });
}

async function up(port: number, path: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      await call(port, 'GET', path);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`nothing answers on ${port}`);
}

const ORDER = JSON.stringify({ status: 'paid', amount: 1250, currency: 'EUR' });

async function startServed(name: string, root: string, dir: string, env: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      join(root, 'dist', 'cli', 'cli-main.js'),
      'serve',
      join(SHARED, 'orders-plain.yaml'),
      '--db',
      `sqlite:${join(dir, `${name}.db`)}`,
      '--synchronous',
      SYNCHRONOUS,
      '--log',
      'silent',
      '--port',
      String(port),
    ],
    { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ...env } },
  );
  await up(port, '/_servicespec/health');
  // 2,000 orders, as the hand-written server's seed has; the first is read.
  let id = '';
  for (let i = 0; i < 2000; i++) {
    const r = await call(port, 'POST', '/orders', ORDER);
    if (i === 0) id = (JSON.parse(r.text) as { id: string }).id;
  }
  return { name, port, child, id };
}

/**
 * A server of the orders table the hand-written seed makes (2,000 orders, the first SEEDED), in its own process:
 * `script` with the node arguments `nodeArgs` before it.
 */
async function startSeeded(name: string, dir: string, script: string, nodeArgs: readonly string[] = []): Promise<Server> {
  const port = await freePort();
  const env = { ...process.env, NODE_PATH: MODULES, DB_PATH: join(dir, `${name}.db`), SEED_ROWS: '2000', PORT: String(port) };
  await new Promise<void>((done, fail) =>
    spawn(process.execPath, [join(SHARED, 'hand-written-seed.js')], { env, stdio: 'ignore' }).on('exit', (code) =>
      code === 0 ? done() : fail(new Error(`seed exited ${code}`)),
    ),
  );
  const child = spawn(process.execPath, [...nodeArgs, script], { env, stdio: 'ignore' });
  await up(port, `/orders/${SEEDED}`);
  return { name, port, child, id: SEEDED };
}

/** The hand-written server as it is; at FULL committing as servicespec does (bench/baseline/hand-written-full.cjs: its file fixes NORMAL). */
function startHandWritten(dir: string): Promise<Server> {
  const full = SYNCHRONOUS === 'full' ? ['-r', join(HEAD, 'bench', 'baseline', 'hand-written-full.cjs')] : [];
  return startSeeded('hand-written', dir, join(SHARED, 'hand-written-orders.js'), full);
}

/** The floor: node:http and better-sqlite3 alone, on a database seeded as the hand-written server's. */
function startRaw(dir: string): Promise<Server> {
  return startSeeded('raw', dir, join(HEAD, 'bench', 'baseline', 'raw-orders.cjs'));
}

/** The server process's CPU time so far, in µs (utime + stime from /proc: what the machine's other work does not inflate much). */
function cpuOf(server: Server): number {
  const fields = readFileSync(`/proc/${server.child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
}

function load(server: Server, scenario: string): Promise<{ rate: number; total: number }> {
  const url = `http://127.0.0.1:${server.port}${scenario === 'read' ? `/orders/${server.id}` : scenario === 'list' ? '/orders?limit=20' : '/orders'}`;
  const args = [
    '-c',
    String(CONNECTIONS),
    '-d',
    String(SECONDS),
    '--json',
    ...(scenario === 'create' ? ['-m', 'POST', '-H', 'content-type=application/json', '-b', ORDER] : []),
    url,
  ];
  return new Promise((done, fail) => {
    const child = spawn(AUTOCANNON, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('exit', () => {
      try {
        const r = JSON.parse(out) as { requests: { average: number; total: number }; non2xx: number; errors: number };
        if (r.non2xx + r.errors > 0) throw new Error(`${server.name} ${scenario}: ${r.non2xx} non-2xx, ${r.errors} errors`);
        done({ rate: r.requests.average, total: r.requests.total });
      } catch (err) {
        fail(err as Error);
      }
    });
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dir = mkdtempSync(join(tmpdir(), 'ab-serve-'));
const servers: Server[] = [];
try {
  servers.push(await startServed('HEAD', HEAD, dir));
  const oldEnv: Record<string, string> = {
    ...(process.env.AB_OLD_FAST_PATHS ? { SERVICESPEC_FAST_PATHS: process.env.AB_OLD_FAST_PATHS } : {}),
    ...(process.env.AB_OLD_NODE_OPTIONS ? { NODE_OPTIONS: process.env.AB_OLD_NODE_OPTIONS } : {}),
  };
  if (OLD) servers.push(await startServed('old', OLD, dir, oldEnv));
  servers.push(await startHandWritten(dir));
  if (process.env.AB_RAW === '1') servers.push(await startRaw(dir));
  console.log(
    `load average at the start ${loadavg()[0]!.toFixed(1)}; ${ROUNDS} rounds of ${SECONDS} s, ${CONNECTIONS} connections, synchronous=${SYNCHRONOUS}`,
  );
  for (const scenario of scenarios) {
    const figures = new Map<string, number[]>(servers.map((s) => [s.name, []]));
    const cpu = new Map<string, number[]>(servers.map((s) => [s.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      // Each round starts with the next server: none always runs first (or right after the same one).
      for (let i = 0; i < servers.length; i++) {
        const s = servers[(round + i) % servers.length]!;
        const before = cpuOf(s);
        const r = await load(s, scenario);
        figures.get(s.name)!.push(r.rate);
        cpu.get(s.name)!.push((cpuOf(s) - before) / r.total);
      }
    }
    const m = new Map([...figures].map(([name, xs]) => [name, median(xs)]));
    const hand = m.get('hand-written')!;
    const parts = [...m].map(
      ([name, v]) =>
        `${name} ${Math.round(v)} req/s (${figures
          .get(name)!
          .map((x) => Math.round(x))
          .join(', ')})`,
    );
    const ratios = [
      `HEAD/hand-written ${(m.get('HEAD')! / hand).toFixed(2)}`,
      ...(OLD ? [`old/hand-written ${(m.get('old')! / hand).toFixed(2)}`, `HEAD/old ${(m.get('HEAD')! / m.get('old')!).toFixed(2)}`] : []),
      ...(m.has('raw') ? [`HEAD/raw ${(m.get('HEAD')! / m.get('raw')!).toFixed(2)}`, `hand-written/raw ${(hand / m.get('raw')!).toFixed(2)}`] : []),
    ];
    const c = new Map([...cpu].map(([name, xs]) => [name, median(xs)]));
    const cpuParts = [...c].map(([name, v]) => `${name} ${v.toFixed(0)}`);
    const cpuRatios = [
      `hand-written/HEAD ${(c.get('hand-written')! / c.get('HEAD')!).toFixed(2)}`,
      ...(OLD ? [`old/HEAD ${(c.get('old')! / c.get('HEAD')!).toFixed(2)}`] : []),
    ];
    console.log(
      `${scenario}: ${parts.join('; ')}\n  medians: ${ratios.join(', ')}\n  server CPU µs/request (medians): ${cpuParts.join(', ')}; as speed ratios: ${cpuRatios.join(', ')}`,
    );
  }
  console.log(`load average at the end ${loadavg()[0]!.toFixed(1)}`);
} finally {
  for (const s of servers) s.child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  rmSync(dir, { recursive: true, force: true });
}
