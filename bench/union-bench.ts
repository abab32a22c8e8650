// Serving a union body vs a plain one (issue 26, Done when: ≥ 0.9×). Two specs equal but for one field of the
// resource: `method` is a tagged union (discriminator `kind`, variants card and bank) in one, a plain object with
// the same properties (`kind` an enum) in the other; the requests and answers are the same bytes. Whole processes, as
// ab-serve.ts runs them: `servicespec serve` of this checkout on its own SQLite file per spec, autocannon in its own
// process against each in turn, the order alternating round by round; medians of the rounds, and the server's CPU
// time per request (utime + stime from /proc), which the machine's other work inflates much less than throughput.
//
//   npx tsx bench/union-bench.ts [create,read]
//   env: BENCH_SECONDS (5), BENCH_ROUNDS (5), BENCH_CONNECTIONS (20), BENCH_SYNCHRONOUS (normal),
//        SERVICESPEC_FAST_PATHS (passed on to both servers)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HEAD = fileURLToPath(new URL('..', import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const SYNCHRONOUS = process.env.BENCH_SYNCHRONOUS ?? 'normal';
const scenarios = (process.argv[2] ?? 'create,read').split(',');
const AUTOCANNON = join(HEAD, 'node_modules', '.bin', 'autocannon');

const PLAIN_METHOD = `
      method:
        type: object
        fields:
          kind: { type: enum, values: [card, bank] }
          number: { type: string, optional: true, maxLength: 19 }
          iban: { type: string, optional: true, maxLength: 34 }`;
const UNION_METHOD = `
      method:
        type: union
        discriminator: kind
        variants:
          card: { fields: { number: { type: string, maxLength: 19 } } }
          bank: { fields: { iban: { type: string, maxLength: 34 } } }`;

function spec(method: string): string {
  return `servicespec: 1
purpose: { name: Payments (benchmark) }
resources:
  Payment:
    plural: payments
    fields:
      id: { type: uuid, readOnly: true }
      amount: { type: integer, minimum: 0 }
      currency: { type: string, pattern: "^[A-Z]{3}$" }${method}
      created_at: { type: datetime, readOnly: true, generated: create_time }
endpoints:
  base_url: "{base_url}"
  operations:
    createPayment: { method: POST, path: /payments, action: create, resource: Payment, auth: none }
    getPayment: { method: GET, path: "/payments/{id}", action: read, resource: Payment, auth: none }
errors:
  body: problem
  codes:
    invalid: { status: 400, when: [validation, malformed_request] }
    unsupported: { status: 415, when: [unsupported_media_type] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
    method: { status: 405, when: [method_not_allowed] }
    too_large: { status: 413, when: [body_too_large] }
    headers: { status: 431, when: [headers_too_large] }
    internal: { status: 500, when: [internal] }
limits:
  body_size: 1MiB
`;
}

// The same bytes to both: a valid card payment under either spec.
const PAYMENT = JSON.stringify({ amount: 1250, currency: 'EUR', method: { kind: 'card', number: '4111111111111111' } });

interface Server {
  name: string;
  port: number;
  child: ChildProcess;
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

async function up(port: number): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      await call(port, 'GET', '/_servicespec/health');
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`nothing answers on ${port}`);
}

async function start(name: string, method: string, dir: string): Promise<Server> {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, spec(method));
  const port = await freePort();
  const args = ['serve', file, '--db', `sqlite:${join(dir, `${name}.db`)}`, '--synchronous', SYNCHRONOUS, '--log', 'silent', '--port', String(port)];
  const child = spawn(process.execPath, [join(HEAD, 'dist', 'cli', 'cli-main.js'), ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
  await up(port);
  // 2,000 payments, as ab-serve.ts seeds its orders; the first is read.
  let id = '';
  for (let i = 0; i < 2000; i++) {
    const r = await call(port, 'POST', '/payments', PAYMENT);
    if (r.status !== 201) throw new Error(`${name}: the seed create answered ${r.status}: ${r.text}`);
    if (i === 0) id = (JSON.parse(r.text) as { id: string }).id;
  }
  const read = await call(port, 'GET', `/payments/${id}`);
  if (read.status !== 200 || !read.text.includes('"kind":"card"')) throw new Error(`${name}: the read answered ${read.status}: ${read.text}`);
  return { name, port, child, id };
}

/** The server process's CPU time so far, in µs. */
function cpuOf(server: Server): number {
  const fields = readFileSync(`/proc/${server.child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
}

function load(server: Server, scenario: string): Promise<{ rate: number; total: number }> {
  const url = `http://127.0.0.1:${server.port}${scenario === 'read' ? `/payments/${server.id}` : '/payments'}`;
  const args = [
    '-c',
    String(CONNECTIONS),
    '-d',
    String(SECONDS),
    '--json',
    ...(scenario === 'create' ? ['-m', 'POST', '-H', 'content-type=application/json', '-b', PAYMENT] : []),
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

const dir = mkdtempSync(join(tmpdir(), 'union-bench-'));
const servers: Server[] = [];
try {
  servers.push(await start('plain', PLAIN_METHOD, dir));
  servers.push(await start('union', UNION_METHOD, dir));
  console.log(
    `load average at the start ${loadavg()[0]!.toFixed(1)}; ${ROUNDS} rounds of ${SECONDS} s, ${CONNECTIONS} connections, synchronous=${SYNCHRONOUS}, fast paths ${process.env.SERVICESPEC_FAST_PATHS === 'off' ? 'off' : 'on'}`,
  );
  for (const scenario of scenarios) {
    const rates = new Map<string, number[]>(servers.map((s) => [s.name, []]));
    const cpu = new Map<string, number[]>(servers.map((s) => [s.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which server goes first, so neither always runs on a cooler (or hotter) machine.
      for (let i = 0; i < servers.length; i++) {
        const s = servers[(round + i) % servers.length]!;
        const before = cpuOf(s);
        const r = await load(s, scenario);
        rates.get(s.name)!.push(r.rate);
        cpu.get(s.name)!.push((cpuOf(s) - before) / r.total);
      }
    }
    const rate = (n: string) => median(rates.get(n)!);
    const us = (n: string) => median(cpu.get(n)!);
    const list = (xs: number[]) => xs.map((x) => Math.round(x)).join(', ');
    console.log(
      `${scenario}: plain ${Math.round(rate('plain'))} req/s (${list(rates.get('plain')!)}); union ${Math.round(rate('union'))} req/s (${list(rates.get('union')!)})\n` +
        `  server CPU µs/request (medians): plain ${us('plain').toFixed(0)} (${list(cpu.get('plain')!)}), union ${us('union').toFixed(0)} (${list(cpu.get('union')!)})\n` +
        `  union/plain as speed: by CPU per request ${(us('plain') / us('union')).toFixed(2)}×, by throughput ${(rate('union') / rate('plain')).toFixed(2)}× (target ≥ 0.9×)`,
    );
  }
  console.log(`load average at the end ${loadavg()[0]!.toFixed(1)}`);
} finally {
  for (const s of servers) s.child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  rmSync(dir, { recursive: true, force: true });
}
