// Read-by-id throughput with no authentication (the baseline), an API key and a JWT, in the same run, over real
// HTTP against a real server on SQLite. The load comes from a child process (plain node:http, keep-alive), so
// client and server each have their own core.
//
//   node --import tsx bench/auth-bench.ts            # print the results
//   node --import tsx bench/auth-bench.ts --write    # and replace the auth-bench section of bench/RESULTS.md
//
// Options (environment): AUTH_BENCH_ROUNDS (16), AUTH_BENCH_SECONDS (2), AUTH_BENCH_CONNECTIONS (32), AUTH_BENCH_ALGS
// (RS256,PS256,ES256,EdDSA,HS256: the uncached modes), AUTH_BENCH_PROFILE (a folder: one server CPU profile per mode).

import { fork } from 'node:child_process';
import { constants, createHmac, createPublicKey, timingSafeEqual, verify as verifySignature, type JsonWebKey } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { Session } from 'node:inspector/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { compileSpecText } from '../src/program.js';
import { createAuthenticator } from '../src/runtime/auth/auth-authenticator.js';
import { createApiKey } from '../src/runtime/auth/auth-credentials.js';
import { createJwtVerifier } from '../src/runtime/auth/auth-jwt.js';
import { createService } from '../src/runtime/service/runtime-service.js';
import { isPending } from '../src/runtime/runtime-steps.js';
import { createSqliteStorage } from '../src/runtime/storage/storage-sqlite.js';
import { writeResultsSection } from './lib/bench-results.js';

const SPEC = `
servicespec: 1
purpose: { name: Auth bench }
resources:
  Item:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string, maxLength: 100 }
      amount: { type: integer, minimum: 0 }
      created_at: { type: datetime, readOnly: true, generated: create_time }
endpoints:
  operations:
    createItem: { method: POST, path: /items, action: create, resource: Item, auth: none }
    getOpen: { method: GET, path: "/open/items/{id}", action: read, resource: Item, auth: none }
    getKey: { method: GET, path: "/key/items/{id}", action: read, resource: Item, auth: { schemes: [key], scopes: ["items:read"] } }
    getJwt: { method: GET, path: "/jwt/items/{id}", action: read, resource: Item, auth: { schemes: [jwt], scopes: ["items:read"] } }
    getJwtPs: { method: GET, path: "/ps256/items/{id}", action: read, resource: Item, auth: { schemes: [jwt_ps256], scopes: ["items:read"] } }
    getJwtEs: { method: GET, path: "/es256/items/{id}", action: read, resource: Item, auth: { schemes: [jwt_es256], scopes: ["items:read"] } }
    getJwtEd: { method: GET, path: "/eddsa/items/{id}", action: read, resource: Item, auth: { schemes: [jwt_eddsa], scopes: ["items:read"] } }
    getJwtHs: { method: GET, path: "/hs256/items/{id}", action: read, resource: Item, auth: { schemes: [jwt_hs256], scopes: ["items:read"] } }
authentication:
  schemes:
    key: { type: api_key, in: header, name: X-API-Key, prefix: sk_ }
    jwt: { type: bearer, token: jwt, algorithms: [RS256], issuer: "https://id.example.com/", audience: bench, lifetime: 1h, clock_tolerance: 30s }
    jwt_ps256: { type: bearer, token: jwt, algorithms: [PS256], issuer: "https://id.example.com/", audience: bench, lifetime: 1h, clock_tolerance: 30s }
    jwt_es256: { type: bearer, token: jwt, algorithms: [ES256], issuer: "https://id.example.com/", audience: bench, lifetime: 1h, clock_tolerance: 30s }
    jwt_eddsa: { type: bearer, token: jwt, algorithms: [EdDSA], issuer: "https://id.example.com/", audience: bench, lifetime: 1h, clock_tolerance: 30s }
    jwt_hs256: { type: bearer, token: jwt, algorithms: [HS256], issuer: "https://id.example.com/", audience: bench, lifetime: 1h, clock_tolerance: 30s }
  scopes: { "items:read": Read items. }
errors:
  body: problem
  codes:
    not_found: { status: 404, when: [missing_resource, route_not_found] }
    unauthenticated: { status: 401, when: [missing_credential, invalid_credential, expired_credential] }
    forbidden: { status: 403, when: [missing_scope] }
limits: { body_size: 16KiB }
`;

interface LoadJob {
  url: string;
  headers: Record<string, string>;
  connections: number;
  durationMs: number;
}

interface LoadResult {
  completed: number;
  failed: number;
  seconds: number;
}

// ---- the load generator (child process) ------------------------------------------------------------------------

async function runLoad(job: LoadJob): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: job.connections });
  const deadline = Date.now() + job.durationMs;
  let completed = 0;
  let failed = 0;
  const one = () =>
    new Promise<void>((done) => {
      const req = request(job.url, { agent, headers: job.headers }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) completed++;
          else failed++;
          done();
        });
      });
      req.on('error', () => {
        failed++;
        done();
      });
      req.end();
    });
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: job.connections }, async () => {
      while (Date.now() < deadline) await one();
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  agent.destroy();
  return { completed, failed, seconds };
}

// ---- the benchmark ---------------------------------------------------------------------------------------------

interface Mode {
  name: string;
  path: string;
  headers: Record<string, string>;
  rates: number[];
  /** Server CPU time (user + system, µs) per completed request, per round. */
  cpu: number[];
  /** The algorithm of an uncached JWT mode (its floor is looked up by it). */
  alg?: string;
}

/** The algorithms a bearer scheme can declare that the bench measures uncached, with their spec scheme and path. */
const ALGORITHMS: readonly { alg: string; prefix: string }[] = [
  { alg: 'RS256', prefix: 'jwt' },
  { alg: 'PS256', prefix: 'ps256' },
  { alg: 'ES256', prefix: 'es256' },
  { alg: 'EdDSA', prefix: 'eddsa' },
  { alg: 'HS256', prefix: 'hs256' },
];

const SECRET = new TextEncoder().encode('auth-bench HMAC secret: 32 bytes or more, random enough for a bench');

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** CPU µs per call of f: the median of `batches` batches after a warm-up. */
function cpuPerCall(f: () => unknown, calls: number, batches = 7): number {
  for (let i = 0; i < calls; i++) f();
  const out: number[] = [];
  for (let b = 0; b < batches; b++) {
    const before = process.cpuUsage();
    for (let i = 0; i < calls; i++) f();
    const used = process.cpuUsage(before);
    out.push((used.user + used.system) / calls);
  }
  return median(out);
}

/**
 * The floor of one algorithm: node:crypto's check of the token's signature alone (a KeyObject made once, the signing
 * input and signature already bytes), and the runtime's whole verifier (cache off) in the same process, per token.
 */
function measureFloor(alg: string, token: string, jwk: JsonWebKey | undefined): { verify: number; verifier: number } {
  const dot = token.lastIndexOf('.');
  const data = Buffer.from(token.slice(0, dot));
  const signature = Buffer.from(token.slice(dot + 1), 'base64url');
  let check: () => boolean;
  if (alg === 'HS256') {
    check = () => timingSafeEqual(createHmac('sha256', SECRET).update(data).digest(), signature);
  } else {
    const key = createPublicKey({ key: jwk!, format: 'jwk' });
    const hash = alg === 'EdDSA' ? null : 'sha256';
    const options = alg.startsWith('PS')
      ? { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }
      : alg.startsWith('ES')
        ? { key, dsaEncoding: 'ieee-p1363' as const }
        : key;
    check = () => verifySignature(hash, data, options, signature);
  }
  if (!check()) throw new Error(`${alg}: the floor's check refused the token`);
  const verifier = createJwtVerifier({
    algorithms: [alg],
    issuer: 'https://id.example.com/',
    audience: 'bench',
    lifetimeSeconds: 3600,
    toleranceSeconds: 30,
    ...(alg === 'HS256' ? { secret: SECRET } : {}),
    keys: jwk ? [jwk as JWK] : [],
    now: () => new Date(),
    cacheSize: 0,
  });
  const r = verifier(token);
  if (isPending(r) || !r.ok) throw new Error(`${alg}: the verifier did not accept the token at once`);
  const calls = alg === 'HS256' ? 20_000 : 2_000;
  return { verify: cpuPerCall(check, calls), verifier: cpuPerCall(() => verifier(token), calls) };
}

async function main(): Promise<void> {
  const rounds = Number(process.env.AUTH_BENCH_ROUNDS ?? 16);
  const seconds = Number(process.env.AUTH_BENCH_SECONDS ?? 2);
  const connections = Number(process.env.AUTH_BENCH_CONNECTIONS ?? 32);
  const only = process.env.AUTH_BENCH_ALGS?.split(',');
  const profileDir = process.env.AUTH_BENCH_PROFILE;
  const write = process.argv.includes('--write');
  const loadBefore = loadavg()[0]!;

  const compiled = compileSpecText(SPEC, 'auth-bench.yaml');
  if (!compiled.model) throw new Error(compiled.diagnostics.map((d) => d.message).join('; '));
  const model = compiled.checked!;

  // One key per asymmetric algorithm (kid bench-<alg>), the HMAC secret, and one token each.
  const algorithms = ALGORITHMS.filter((a) => !only || only.includes(a.alg));
  const jwks: { keys: JWK[] } = { keys: [] };
  const now = Math.floor(Date.now() / 1000);
  const tokens = new Map<string, { token: string; jwk?: JsonWebKey }>();
  for (const { alg } of ALGORITHMS) {
    let signingKey: Parameters<SignJWT['sign']>[0] = SECRET;
    let jwk: JWK | undefined;
    if (alg !== 'HS256') {
      const pair = await generateKeyPair(alg, { extractable: true });
      jwk = { ...(await exportJWK(pair.publicKey)), kid: `bench-${alg}`, alg };
      jwks.keys.push(jwk);
      signingKey = pair.privateKey;
    }
    const token = await new SignJWT({ scope: 'items:read' })
      .setProtectedHeader({ alg, ...(jwk ? { kid: jwk.kid } : {}) })
      .setSubject('bench')
      .setIssuer('https://id.example.com/')
      .setAudience('bench')
      .setIssuedAt(now)
      .setExpirationTime(now + 3000)
      .sign(signingKey);
    tokens.set(alg, { token, ...(jwk ? { jwk: jwk as JsonWebKey } : {}) });
  }

  // The floors first, on a quiet process (no server running yet).
  const floors = new Map(algorithms.map(({ alg }) => [alg, measureFloor(alg, tokens.get(alg)!.token, tokens.get(alg)!.jwk)]));

  const dir = mkdtempSync(join(tmpdir(), 'servicespec-auth-bench-'));
  const servers: FastifyInstance[] = [];
  const start = async (name: string, tokenCacheSize?: number) => {
    const storage = createSqliteStorage({ path: join(dir, `${name}.db`) });
    const authenticator = await createAuthenticator(model, storage, {
      jwt: { jwks, secret: SECRET },
      ...(tokenCacheSize !== undefined ? { tokenCacheSize } : {}),
    });
    const app = await createService(model, { storage, authenticator, allowGaps: true });
    servers.push(app);
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const key = (await createApiKey(storage, model, { subject: 'bench', scopes: ['items:read'] })).key;
    const res = await fetch(`${url}/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench item', amount: 42 }),
    });
    const id = ((await res.json()) as { id: string }).id;
    return { url, key, id };
  };
  const a = await start('cached');
  const b = await start('uncached', 0);

  const bearer = (alg: string) => ({ authorization: `Bearer ${tokens.get(alg)!.token}` });
  const modes: Mode[] = [
    { name: 'no auth (baseline)', path: `${a.url}/open/items/${a.id}`, headers: {}, rates: [], cpu: [] },
    { name: 'API key (X-API-Key)', path: `${a.url}/key/items/${a.id}`, headers: { 'x-api-key': a.key }, rates: [], cpu: [] },
    { name: 'JWT RS256, verified-token cache on (the default)', path: `${a.url}/jwt/items/${a.id}`, headers: bearer('RS256'), rates: [], cpu: [] },
    ...algorithms.map(({ alg, prefix }) => ({
      name: `JWT ${alg}, cache off (every request verifies)`,
      path: `${b.url}/${prefix}/items/${b.id}`,
      headers: bearer(alg),
      rates: [],
      cpu: [],
      alg,
    })),
  ];

  for (const m of modes) {
    const r = await fetch(m.path, { headers: m.headers });
    if (r.status !== 200) throw new Error(`${m.name}: ${r.status} ${await r.text()}`);
  }

  const child = fork(fileURLToPath(import.meta.url), ['--load-child'], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const load = (job: LoadJob) =>
    new Promise<LoadResult>((done) => {
      child.once('message', (m) => done(m as LoadResult));
      child.send(job);
    });

  // Warm-up: JIT, SQLite page cache, key imports.
  for (const m of modes) await load({ url: m.path, headers: m.headers, connections, durationMs: 1500 });

  // AUTH_BENCH_PROFILE=DIR: one profiled run per mode (the server's CPU, from the inspector), before the rounds.
  if (profileDir !== undefined) {
    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    for (const m of modes) {
      await session.post('Profiler.start');
      const r = await load({ url: m.path, headers: m.headers, connections, durationMs: seconds * 1000 });
      const { profile } = await session.post('Profiler.stop');
      const file = join(profileDir, `${m.name.replace(/[^A-Za-z0-9]+/g, '-').replace(/-$/, '')}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      process.stderr.write(`profile: ${file} (${r.completed} requests: npx tsx bench/lib/profile-summary.ts --per ${r.completed} FILE)\n`);
    }
    session.disconnect();
  }

  // Rounds interleave the modes, so drift (thermal, other load) spreads over all of them alike.
  // The order rotates each round, so no mode always runs right after another.
  for (let round = 0; round < rounds; round++) {
    for (const m of [...modes.slice(round % modes.length), ...modes.slice(0, round % modes.length)]) {
      const before = process.cpuUsage();
      const r = await load({ url: m.path, headers: m.headers, connections, durationMs: seconds * 1000 });
      const used = process.cpuUsage(before);
      if (r.failed > 0) throw new Error(`${m.name}: ${r.failed} requests failed`);
      m.rates.push(r.completed / r.seconds);
      m.cpu.push((used.user + used.system) / r.completed);
    }
    process.stderr.write(`round ${round + 1}/${rounds}: ${modes.map((m) => Math.round(m.rates.at(-1)!)).join(' / ')} req/s\n`);
  }
  child.kill();
  for (const app of servers) await app.close();
  rmSync(dir, { recursive: true, force: true });

  // Ratios are taken within each round (against that round's baseline), then the median over rounds: the machine's
  // load drifts between rounds, far less within one.
  const ratio = (i: number) => median(modes[i]!.rates.map((r, round) => r / modes[0]!.rates[round]!));
  // The server's CPU time per request is what bounds its throughput on one core, and it is much less disturbed by
  // other work on the machine than req/s: its ratio is the throughput ratio the server itself allows.
  const cpuRatio = (i: number) => median(modes[i]!.cpu.map((c, round) => modes[0]!.cpu[round]! / c));
  const baseCpu = median(modes[0]!.cpu);
  const target = (i: number) => (i === 0 ? undefined : i === 1 ? 0.85 : i === 2 ? 0.95 : 0.8);
  const verdict = (i: number) => {
    const t = target(i);
    if (t === undefined) return '';
    return ratio(i) >= t && cpuRatio(i) >= t ? 'met' : cpuRatio(i) >= t ? 'met on CPU' : 'missed';
  };
  const rows = modes.map((m, i) => {
    const f = m.alg !== undefined ? floors.get(m.alg) : undefined;
    const cells = [
      m.name,
      `${Math.round(median(m.rates))}`,
      `${Math.round(Math.min(...m.rates))}–${Math.round(Math.max(...m.rates))}`,
      ratio(i).toFixed(2),
      median(m.cpu).toFixed(0),
      cpuRatio(i).toFixed(2),
      f ? f.verify.toFixed(1) : '',
      f ? f.verifier.toFixed(1) : '',
      f ? (baseCpu / (baseCpu + f.verify)).toFixed(2) : '',
      i === 0 ? '' : `${target(i)!.toFixed(2)}: ${verdict(i)}`,
    ];
    return `| ${cells.join(' | ')} |`;
  });
  const uncached = modes.flatMap((m, i) => (m.alg !== undefined ? [{ m, i }] : []));
  const canMeet = uncached.filter(({ m }) => baseCpu / (baseCpu + floors.get(m.alg!)!.verify) >= 0.8).map(({ m }) => m.alg!);
  const section = [
    '## auth-bench: read-by-id with no authentication, an API key and a JWT (each algorithm)',
    '',
    `Read-by-id (\`GET /…/items/{id}\`, SQLite, one row) over real HTTP, ${connections} keep-alive connections from a separate`,
    `load process, ${rounds} rounds of ${seconds} s per mode (order rotating) after a warm-up. req/s: medians over rounds;`,
    `ratio: the median over rounds of each mode's rate over that round's no-auth rate. Run: \`node --import tsx bench/auth-bench.ts --write\``,
    '(`AUTH_BENCH_ROUNDS`, `AUTH_BENCH_SECONDS`, `AUTH_BENCH_ALGS=RS256,HS256` to measure fewer algorithms, `AUTH_BENCH_PROFILE=DIR` for one',
    'server CPU profile per mode).',
    `Machine: ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}, OpenSSL ${process.versions.openssl}, ${new Date().toISOString().slice(0, 10)};`,
    `1-minute load average ${loadBefore.toFixed(1)} before the run and ${loadavg()[0]!.toFixed(1)} after (other work shared the machine when above the core count).`,
    '',
    '| mode | req/s (median) | range | ratio to no auth | server CPU µs / request | CPU-bound ratio | floor: signature check alone, µs | whole verifier in process, µs | best ratio the floor allows | target: verdict |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
    '',
    "The CPU-bound ratio is the no-auth CPU time per request over the mode's (median over rounds): the throughput ratio the server",
    'itself allows, much less disturbed than req/s by other work on the machine. Each uncached token is signed with the',
    "algorithm's own key (RSA 2048, P-256, Ed25519, a 68-byte HMAC secret) and carries iss, aud, sub, scope, iat and exp.",
    '"Floor" is the signature check alone with node:crypto (`crypto.verify` with a KeyObject made once, or HMAC-SHA256 and',
    '`timingSafeEqual`) per token, measured in this process before the servers start; "whole verifier" is the runtime\'s',
    'verifier with its cache off (parse, key selection, signature, every claim check) in the same process; the best ratio the floor',
    `allows is the no-auth CPU (${baseCpu.toFixed(0)} µs) over that plus the floor: no implementation that checks the signature can do better.`,
    '',
    "Where an uncached token's time goes in the server (`AUTH_BENCH_PROFILE`, RS256, one 5 s run at load ~4 on 2026-11-23, wall µs per",
    "request from the profile, against the cached mode): the signature check (OpenSSL's `run` and `SignJob`) +42, the verifier's",
    'JavaScript (decoding the payload and signature, claims, scopes) +6, and `writev` +58 (68 against 10). Our reading: when the server is the',
    "bottleneck each answer's send wakes a waiting client (the kernel's loopback work is charged to the sender), so the server's",
    "CPU per request of a slow mode includes more than its own code, and its CPU-bound ratio is below the floor's bound.",
    '',
    'Targets (issue 19 item 3): a JWT at least 0.95 of no auth with the cache, 0.8 without (an API key: 0.85).',
    `Without the cache, the algorithms whose floor allows 0.8 here: ${canMeet.length > 0 ? canMeet.join(', ') : 'none'}; the others cannot meet it by any`,
    'implementation, since the public-key operation alone costs more than a quarter of a read. The verified-token cache',
    '(the default, 10 000 tokens) is what serves a client that presents the same token again: it is not re-verified, only its',
    'time claims (exp, nbf, iat) are checked again on every request.',
    '',
  ].join('\n');
  process.stdout.write(`${section}\n`);

  if (write) {
    writeResultsSection('auth-bench', section);
    process.stderr.write('wrote the auth-bench section of bench/RESULTS.md\n');
  }
}

if (process.argv.includes('--load-child')) {
  process.on('message', (job: LoadJob) => {
    void runLoad(job).then((r) => process.send!(r));
  });
} else {
  await main();
}
