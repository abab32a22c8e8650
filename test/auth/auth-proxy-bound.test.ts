// The failed-credential bound behind a reverse proxy (issue 29): the client address comes from X-Forwarded-For
// only when the peer is a trusted proxy (`trustProxy`), the bound counts per presented identity first and then per
// address (a guesser behind a shared address cannot lock out those already signed in from it), and the OAuth2
// token endpoint's failed client authentications are bounded too. Real HTTP from chosen loopback addresses.
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthenticator } from '../../src/runtime/auth/auth-authenticator.js';
import { createBasicUser, createClient } from '../../src/runtime/auth/auth-credentials.js';
import { createService, ServiceStartError } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import type { CheckedModel } from '../../src/model/model-types.js';
import { basic, HANDLERS, loadModel } from './helpers.js';

const GUARDED = new URL('./fixtures/guarded.yaml', import.meta.url).pathname;
const ATTEMPTS = 5; // limits.failed_auth.attempts in guarded.yaml

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** A request from a chosen loopback address (every 127.x.y.z is this machine), so a test can be many peers. */
function send(url: string, method: string, path: string, from: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { method, headers, localAddress: from, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode!, headers: res.headers, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

function expectRateLimited(a: Answer): void {
  expect(a.status).toBe(429);
  expect(a.body.code).toBe('slow_down');
  expect(Number(a.headers['retry-after'])).toBeGreaterThanOrEqual(1);
}

interface Server {
  url: string;
  app: FastifyInstance;
  model: CheckedModel;
  client: { id: string; secret: string };
  close(): Promise<void>;
}

async function start(trustProxy?: string[]): Promise<Server> {
  const model = loadModel(GUARDED);
  const dir = mkdtempSync(join(tmpdir(), 'servicespec-proxy-'));
  const storage = createSqliteStorage({ path: join(dir, 'service.db'), synchronous: 'normal' });
  const authenticator = await createAuthenticator(model, storage, { allowGaps: true });
  const app = await createService(model, { storage, authenticator, allowGaps: true, handlers: HANDLERS, ...(trustProxy ? { trustProxy } : {}) });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  for (const username of ['alice', 'bob', 'carol'])
    await createBasicUser(storage, model, { username, password: `${username}-correct-horse`, scopes: ['notes:read'] });
  const c = await createClient(storage, model, { subject: 'robot', scopes: ['notes:read'] });
  return {
    url,
    app,
    model,
    client: { id: c.clientId, secret: c.clientSecret },
    async close() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('a trusted proxy: the client address from X-Forwarded-For', { timeout: 60_000 }, () => {
  let s: Server;
  beforeAll(async () => {
    s = await start(['127.0.0.1']);
  });
  afterAll(async () => s.close());

  it('counts the address the trusted proxy forwards: a guesser behind it does not lock out another client', async () => {
    const attacker = { 'x-forwarded-for': '203.0.113.5' };
    for (let i = 0; i < ATTEMPTS; i++)
      expect((await send(s.url, 'GET', '/whoami/basic', '127.0.0.1', { ...attacker, ...basic(`guess${i}`, 'wrong') })).body.code).toBe('invalid_credential');
    expectRateLimited(await send(s.url, 'GET', '/whoami/basic', '127.0.0.1', { ...attacker, ...basic('guess', 'wrong') }));
    // Another client through the same proxy, never signed in before, is not held back.
    const other = await send(s.url, 'GET', '/whoami/basic', '127.0.0.1', { 'x-forwarded-for': '198.51.100.7', ...basic('carol', 'carol-correct-horse') });
    expect(other.status).toBe(200);
    expect(other.body.subject).toBe('carol');
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy: a guesser cannot rotate it to escape', async () => {
    for (let i = 0; i < ATTEMPTS; i++) {
      const a = await send(s.url, 'GET', '/whoami/basic', '127.0.0.2', { 'x-forwarded-for': `192.0.2.${i + 1}`, ...basic(`spray${i}`, 'wrong') });
      expect(a.body.code).toBe('invalid_credential');
    }
    expectRateLimited(await send(s.url, 'GET', '/whoami/basic', '127.0.0.2', { 'x-forwarded-for': '192.0.2.99', ...basic('spray', 'wrong') }));
  });

  it('refuses a trust-proxy entry that is not an address or a CIDR range at start', async () => {
    const model = loadModel(GUARDED);
    const storage = createSqliteStorage({ path: ':memory:' });
    const err = await createService(model, { storage, allowGaps: true, trustProxy: ['10.0.0.0/33'] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceStartError);
    expect((err as ServiceStartError).problems).toEqual(['trust proxy: "10.0.0.0/33" is not an IP address or a CIDR range (such as 10.0.0.0/8)']);
    await storage.close();
  });
});

describe('per identity first, then per address (one shared address, no proxy setting)', { timeout: 60_000 }, () => {
  let s: Server;
  beforeAll(async () => {
    s = await start();
  });
  afterAll(async () => s.close());

  it('keeps a user who signed in from the address working there after a guesser spends its bound; each name keeps its own', async () => {
    const proxy = '127.0.6.1';
    expect((await send(s.url, 'GET', '/whoami/basic', proxy, basic('bob', 'bob-correct-horse'))).status).toBe(200);
    for (let i = 0; i < ATTEMPTS; i++)
      expect((await send(s.url, 'GET', '/whoami/basic', proxy, basic(`nobody${i}`, 'wrong'))).body.code).toBe('invalid_credential');
    expectRateLimited(await send(s.url, 'GET', '/whoami/basic', proxy, basic('nobody', 'wrong')));
    // bob signed in from here before: his own bound decides, and it has room.
    const bob = await send(s.url, 'GET', '/whoami/basic', proxy, basic('bob', 'bob-correct-horse'));
    expect(bob.status).toBe(200);
    // A name never signed in from here is refused while the address's bound is spent (no password is checked).
    expectRateLimited(await send(s.url, 'GET', '/whoami/basic', proxy, basic('alice', 'alice-correct-horse')));
    // bob's wrong password still counts against bob: past his own bound he is refused, even with the right one.
    for (let i = 0; i < ATTEMPTS; i++) await send(s.url, 'GET', '/whoami/basic', proxy, basic('bob', `guess ${i}`));
    expectRateLimited(await send(s.url, 'GET', '/whoami/basic', proxy, basic('bob', 'bob-correct-horse')));
  });
});

describe('the OAuth2 token endpoint bounded against guessing', { timeout: 60_000 }, () => {
  let s: Server;
  beforeAll(async () => {
    s = await start();
  });
  afterAll(async () => s.close());
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const token = (from: string, id: string, secret: string) =>
    send(s.url, 'POST', '/oauth/token', from, form, new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: secret }).toString());

  it(`answers 429 with Retry-After after ${ATTEMPTS} failed client authentications; a valid secret is still accepted`, async () => {
    for (let i = 0; i < ATTEMPTS; i++) {
      const a = await token('127.0.7.1', s.client.id, `wrong-${i}`);
      expect([a.status, a.body.error]).toEqual([401, 'invalid_client']);
    }
    expectRateLimited(await token('127.0.7.1', s.client.id, 'wrong-again'));
    // Per client id, across addresses.
    expectRateLimited(await token('127.0.7.2', s.client.id, 'wrong-elsewhere'));
    // The secret has 256 bits: the right one tells a guesser nothing, and the client is not locked out.
    const ok = await token('127.0.7.3', s.client.id, s.client.secret);
    expect(ok.status).toBe(200);
    expect(ok.body.token_type).toBe('Bearer');
  });

  it('counts guessed client ids per address; a request presenting nothing is not counted', async () => {
    for (let i = 0; i < ATTEMPTS + 2; i++)
      expect((await send(s.url, 'POST', '/oauth/token', '127.0.8.1', form, 'grant_type=client_credentials')).body.error).toBe('invalid_client');
    for (let i = 0; i < ATTEMPTS; i++) expect((await token('127.0.8.1', `client-${i}`, 'guess')).body.error).toBe('invalid_client');
    expectRateLimited(await token('127.0.8.1', 'client-x', 'guess'));
    expectRateLimited(await send(s.url, 'POST', '/oauth/token', '127.0.8.1', { ...form, authorization: 'Basic !!!' }, 'grant_type=client_credentials'));
  });
});
