// The serve flags of issue 29 items 5 and 6 as a user runs them: the built bin (dist/, `npm run build` first) in a
// child process, real HTTP to it. --tracing with an SDK loaded by `node --import`, --metrics, --jwks-url and
// --oidc-issuer against a key server on loopback, --trust-proxy; each bad input with its exact message and exit code.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claims, createClock, makeRsaKey, signRs, type RsaKey } from '../auth/helpers.js';
import { until } from '../events/helpers.js';
import { BUILT_CLI, freePort, ROOT, spawnCli, startCli, type ServeProcess } from './cli-helpers.js';

const FIXTURES = join(ROOT, 'test', 'cli', 'fixtures');
const TICKETS = join(ROOT, 'test', 'runtime', 'fixtures', 'tickets.yaml');
const GUARDED = join(ROOT, 'test', 'auth', 'fixtures', 'guarded.yaml');
const BEARER = join(FIXTURES, 'bearer.yaml');
const WHOAMI = join(FIXTURES, 'whoami-handlers.mjs');
const OTEL_SETUP = join(FIXTURES, 'otel-setup.mjs');

interface Serving {
  url: string;
  p: ServeProcess;
}

/** `servicespec serve FILE …` from dist/ on a free port and an in-memory database, once it says it is serving. */
async function serve(file: string, args: readonly string[], env: Record<string, string> = {}): Promise<Serving> {
  const port = await freePort();
  const p = startCli(['serve', file, '--db', 'sqlite::memory:', '--allow-gaps', '--port', String(port), '--log', 'warn', ...args], { built: true, env });
  await p.waitFor(/serving .* at http:/);
  return { url: `http://127.0.0.1:${port}`, p };
}

/** `servicespec serve …` expected to refuse to start: its exit code and what it printed. */
const refuse = (args: readonly string[]) => spawnCli(['serve', ...args, '--db', 'sqlite::memory:', '--port', '0'], { built: true });

it('is run from dist/', () => expect(existsSync(BUILT_CLI), 'npm run build first').toBe(true));

describe('serve --tracing', { timeout: 120_000 }, () => {
  interface Exported {
    name: string;
    kind: number;
    traceId: string;
    spanId: string;
    parentSpanId?: string;
    status: number;
    attributes: Record<string, unknown>;
  }
  const dir = mkdtempSync(join(tmpdir(), 'servicespec-otel-'));
  const spansFile = join(dir, 'spans.jsonl');
  const spans = (): Exported[] =>
    existsSync(spansFile)
      ? readFileSync(spansFile, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Exported)
      : [];
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('makes a span per request and per storage call with the SDK the host loaded (node --import)', async () => {
    const s = await serve(TICKETS, ['--tracing'], { NODE_OPTIONS: `--import=${OTEL_SETUP}`, SPANS_FILE: spansFile });
    try {
      const traceId = '0af7651916cd43dd8448eb211c80319c';
      const r = await fetch(`${s.url}/tickets`, { headers: { traceparent: `00-${traceId}-b7ad6b7169203331-01` } });
      expect(r.status).toBe(200);
      await r.text();
      const server = await until(() => spans().find((x) => x.traceId === traceId && x.name === 'GET /tickets'));
      expect(server.kind).toBe(1); // SERVER
      expect(server.parentSpanId).toBe('b7ad6b7169203331');
      expect(server.attributes).toMatchObject({
        'http.request.method': 'GET',
        'http.route': '/tickets',
        'http.response.status_code': 200,
        'servicespec.operation': 'listTickets',
      });
      const storage = spans().filter((x) => x.parentSpanId === server.spanId);
      expect(storage.map((x) => [x.name, x.kind, x.attributes['db.system']])).toEqual([['list Ticket', 2, 'sqlite']]); // CLIENT
      expect(s.p.stdout() + s.p.stderr()).not.toContain('no OpenTelemetry SDK');
    } finally {
      await s.p.stop();
    }
  });

  it('says at start that spans are dropped when no SDK is loaded, and serves as usual', async () => {
    const s = await serve(TICKETS, ['--tracing']);
    try {
      expect((await fetch(`${s.url}/tickets`)).status).toBe(200);
      expect(s.p.stdout() + s.p.stderr()).toContain('tracing is on, but no OpenTelemetry SDK is registered: spans are dropped');
    } finally {
      await s.p.stop();
    }
  });
});

describe('serve --metrics', { timeout: 120_000 }, () => {
  it('serves GET /_servicespec/metrics in the Prometheus text format, counting the requests answered', async () => {
    const s = await serve(TICKETS, ['--metrics']);
    try {
      for (let i = 0; i < 3; i++) expect((await fetch(`${s.url}/tickets`)).status).toBe(200);
      const r = await fetch(`${s.url}/_servicespec/metrics`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      const text = await r.text();
      expect(text.split('\n')).toContain('servicespec_requests_total{operation="listTickets",method="GET",status="200"} 3');
      expect(text.split('\n')).toContain('servicespec_request_duration_seconds_count{operation="listTickets"} 3');
    } finally {
      await s.p.stop();
    }
  });

  it('serves no metrics without the flag', async () => {
    const s = await serve(TICKETS, []);
    try {
      expect((await fetch(`${s.url}/_servicespec/metrics`)).status).toBe(404);
    } finally {
      await s.p.stop();
    }
  });
});

interface KeyServer {
  url: string;
  close(): Promise<void>;
}

/** A JWKS and an OIDC discovery document on 127.0.0.1. */
async function startKeyServer(keys: readonly RsaKey[]): Promise<KeyServer> {
  let url = '';
  const server: Server = createServer((req, res) => {
    if (req.url === '/jwks.json') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: keys.map((k) => k.publicJwk) }));
    else if (req.url === '/.well-known/openid-configuration')
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ issuer: url, jwks_uri: `${url}/jwks.json` }));
    else res.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise((done) => server.close(() => done())) };
}

describe('serve --jwks-url and --oidc-issuer', { timeout: 120_000 }, () => {
  const RS = { iss: 'https://rs.test/', aud: 'notes' };
  const clock = createClock();
  let key: RsaKey;
  let stranger: RsaKey;
  let ks: KeyServer;
  beforeAll(async () => {
    key = await makeRsaKey('served');
    stranger = await makeRsaKey('stranger');
    ks = await startKeyServer([key]);
  });
  afterAll(async () => ks.close());

  const whoami = async (url: string, token: string) => {
    const r = await fetch(`${url}/whoami`, { headers: { authorization: `Bearer ${token}` } });
    return { status: r.status, body: (await r.json()) as { subject?: string; code?: string } };
  };

  for (const [flag, value] of [
    ['--jwks-url', () => `${ks.url}/jwks.json`],
    ['--oidc-issuer', () => ks.url],
  ] as const) {
    it(`${flag}: verifies a token signed with a served key, refuses one signed with another`, async () => {
      const s = await serve(BEARER, [flag, value(), '--handlers', WHOAMI]);
      try {
        expect(await whoami(s.url, await signRs(key, claims(clock, RS)))).toEqual({ status: 200, body: { subject: 'alice' } });
        const refused = await whoami(s.url, await signRs(stranger, claims(clock, RS)));
        expect([refused.status, refused.body.code]).toEqual([401, 'invalid_credential']);
      } finally {
        await s.p.stop();
      }
    });
  }

  it('refuses both at once (exit 2), a URL that is not http(s) and an issuer whose discovery cannot be read (exit 1)', async () => {
    const both = await refuse([BEARER, '--jwks-url', `${ks.url}/jwks.json`, '--oidc-issuer', ks.url]);
    expect([both.code, both.stderr]).toEqual([2, 'servicespec serve: give --jwks-url or --oidc-issuer, not both\n']);
    // The spec's gaps follow (without --allow-gaps), all at once.
    const ftp = await refuse([BEARER, '--jwks-url', 'ftp://keys.test/jwks.json']);
    expect(ftp.code).toBe(1);
    expect(ftp.stderr).toContain(
      `servicespec serve: authentication cannot be set up for ${BEARER}:\n  - the JWKS URL ftp://keys.test/jwks.json is not an http or https URL\nand ${BEARER} cannot be served as it is:\n  - error code for condition`,
    );
    const gone = await startKeyServer([]);
    await gone.close();
    const unreachable = await refuse([BEARER, '--oidc-issuer', gone.url, '--allow-gaps', '--handlers', WHOAMI]);
    expect(unreachable.code).toBe(1);
    expect(
      unreachable.stderr
        .split('\n')
        .filter((l) => !l.startsWith('servicespec: spec gap:'))
        .join('\n'),
    ).toBe(
      `servicespec serve: authentication cannot be set up for ${BEARER}:\n  - cannot read the OIDC discovery document ${gone.url}/.well-known/openid-configuration: fetch failed\n`,
    );
  });

  it('lists the spec gaps beside an authentication it cannot set up, at once (a token algorithm not shown among them)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'servicespec-gaps-'));
    const file = join(dir, 'bearer.yaml');
    // The token's algorithms not shown (an imported bearer scheme's), and the custom operation's handler not given.
    writeFileSync(file, readFileSync(BEARER, 'utf8').replace('algorithms: [RS256], ', ''));
    const r = await refuse([file]);
    rmSync(dir, { recursive: true, force: true });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^servicespec serve: authentication cannot be set up for .*\n( {2}- .*\n)+and .* cannot be served as it is:\n( {2}- .*\n)+Declare what is missing/,
    );
    expect(r.stderr).toContain('handler whoami of custom operation');
  });
});

describe('serve --trust-proxy', { timeout: 120_000 }, () => {
  const ATTEMPTS = 5; // limits.failed_auth.attempts in guarded.yaml
  const basic = (user: string) => `Basic ${Buffer.from(`${user}:wrong`).toString('base64')}`;
  /** Failed Basic sign-ins from 127.0.0.1, each with another name and the X-Forwarded-For given. */
  const guess = async (url: string, i: number, forwarded: string) =>
    (await fetch(`${url}/whoami/basic`, { headers: { authorization: basic(`guess${i}`), 'x-forwarded-for': forwarded } })).status;

  it('refuses an entry that is not an address or a CIDR range, in one line, exit 2', async () => {
    const r = await refuse([GUARDED, '--trust-proxy', '127.0.0.1,10.0.0.0/99']);
    expect([r.code, r.stderr]).toEqual([2, 'servicespec serve: --trust-proxy: "10.0.0.0/99" is not an IP address or a CIDR range (such as 10.0.0.0/8)\n']);
  });

  it('without it, X-Forwarded-For is ignored: guesses from one peer are bounded together whatever they claim', async () => {
    const s = await serve(GUARDED, []);
    try {
      const statuses: number[] = [];
      for (let i = 0; i <= ATTEMPTS; i++) statuses.push(await guess(s.url, i, `192.0.2.${i + 1}`));
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    } finally {
      await s.p.stop();
    }
  });

  it('with the peer trusted, the forwarded address is the client: each is bounded on its own', async () => {
    const s = await serve(GUARDED, ['--trust-proxy', '127.0.0.1']);
    try {
      const rotating: number[] = [];
      for (let i = 0; i <= ATTEMPTS; i++) rotating.push(await guess(s.url, i, `192.0.2.${i + 1}`));
      expect(rotating).toEqual([401, 401, 401, 401, 401, 401]);
      // One forwarded address guessing again and again is bounded as that address.
      const one: number[] = [];
      for (let i = 0; i <= ATTEMPTS; i++) one.push(await guess(s.url, 100 + i, '203.0.113.5'));
      expect(one).toEqual([401, 401, 401, 401, 401, 429]);
    } finally {
      await s.p.stop();
    }
  });
});
