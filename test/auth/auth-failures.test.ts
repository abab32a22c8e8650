// Failed credentials are bounded per client address and per credential id (limits.failed_auth), and password
// hashing never holds up the service: a verified password is remembered, and few hashes run at once.

import type * as NodeCrypto from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiKey, createBasicUser, revokeBasicUser } from '../../src/runtime/auth/auth-credentials.js';
import type { Authenticator } from '../../src/runtime/runtime-context.js';
import { ServiceError } from '../../src/runtime/runtime-errors.js';
import { getRuntimeGaps } from '../../src/runtime/service/runtime-gaps.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { compileSpecText } from '../../src/program.js';
import { until } from '../events/helpers.js';
import { basic, loadModel, NOTES, startAuthService, type AuthServer } from './helpers.js';

// Every scrypt the service runs is counted, with how many run at once (the real scrypt does the work).
const scrypts = vi.hoisted(() => ({ total: 0, running: 0, maxRunning: 0, finished: 0, passwords: new Set<string>() }));
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof NodeCrypto>();
  const scrypt = (...args: unknown[]) => {
    const done = args.pop() as (err: Error | null, key: Buffer) => void;
    scrypts.total++;
    scrypts.passwords.add(String(args[0]));
    scrypts.maxRunning = Math.max(scrypts.maxRunning, ++scrypts.running);
    (actual.scrypt as (...a: unknown[]) => void)(...args, (err: Error | null, key: Buffer) => {
      scrypts.running--;
      scrypts.finished++;
      done(err, key);
    });
  };
  return { ...actual, default: { ...actual, scrypt }, scrypt };
});

const GUARDED = new URL('./fixtures/guarded.yaml', import.meta.url).pathname;
const ATTEMPTS = 5; // limits.failed_auth.attempts in guarded.yaml

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** A GET from a chosen loopback address (every 127.x.y.z is this machine), so tests can be many clients. */
function getFrom(url: string, path: string, from: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { method: 'GET', headers, localAddress: from, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode!, headers: res.headers, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

let s: AuthServer;
let aliceKey: string;
let otherKey: string;

beforeAll(async () => {
  s = await startAuthService({ spec: GUARDED });
  for (const username of ['alice', 'bob', 'carol', 'dave']) {
    await createBasicUser(s.storage, s.model, { username, password: `${username}-correct-horse`, scopes: ['notes:read'] });
  }
  aliceKey = (await createApiKey(s.storage, s.model, { subject: 'alice', scopes: ['notes:read'], scheme: 'key' })).key;
  otherKey = (await createApiKey(s.storage, s.model, { subject: 'erin', scopes: ['notes:read'], scheme: 'key' })).key;
});
afterAll(async () => s.close());

function expectRateLimited(a: Answer): void {
  expect(a.status).toBe(429);
  expect(a.body.code).toBe('slow_down');
  expect(Number(a.headers['retry-after'])).toBeGreaterThanOrEqual(1);
}

describe('failed credentials per client address', () => {
  it(`answers the declared rate_limited code after ${ATTEMPTS} wrong passwords, and then checks no password from there`, async () => {
    const from = '127.0.1.1';
    for (let i = 0; i < ATTEMPTS; i++) {
      const a = await getFrom(s.url, '/whoami/basic', from, basic(`nobody${i}`, 'wrong password'));
      expect(a.status).toBe(401);
      expect(a.body.code).toBe('invalid_credential');
    }
    expectRateLimited(await getFrom(s.url, '/whoami/basic', from, basic('nobody', 'wrong password')));
    // Even the right password is not checked from an address that has spent its bound: it would be a free oracle.
    expectRateLimited(await getFrom(s.url, '/whoami/basic', from, basic('alice', 'alice-correct-horse')));
    // Another address is not affected.
    expect((await getFrom(s.url, '/whoami/basic', '127.0.1.2', basic('alice', 'alice-correct-horse'))).status).toBe(200);
  });

  it('bounds bad API keys the same way; a valid key (unguessable) is still accepted from that address', async () => {
    const from = '127.0.2.1';
    const bad = `${otherKey.slice(0, -5)}AAAAA`; // a real key id, a wrong secret
    for (let i = 0; i < ATTEMPTS; i++) {
      const a = await getFrom(s.url, '/whoami/key', from, { 'x-guarded-key': i % 2 === 0 ? bad : 'gk_garbage' });
      expect(a.body.code).toBe('invalid_credential');
    }
    expectRateLimited(await getFrom(s.url, '/whoami/key', from, { 'x-guarded-key': 'gk_garbage' }));
    expectRateLimited(await getFrom(s.url, '/whoami/query?api_key=gk_garbage', from));
    const ok = await getFrom(s.url, '/whoami/key', from, { 'x-guarded-key': aliceKey });
    expect(ok.status).toBe(200);
    expect(ok.body.subject).toBe('alice');
  });

  it('a request with no credential is not a failed attempt', async () => {
    const from = '127.0.3.1';
    for (let i = 0; i < ATTEMPTS + 3; i++) expect((await getFrom(s.url, '/whoami/basic', from)).body.code).toBe('missing_credential');
    expect((await getFrom(s.url, '/whoami/basic', from, basic('carol', 'carol-correct-horse'))).status).toBe(200);
  });
});

describe('failed credentials per credential id, across addresses', () => {
  it(`a user name is refused after ${ATTEMPTS} wrong passwords from different addresses, even with the right one`, async () => {
    for (let i = 0; i < ATTEMPTS; i++) {
      const a = await getFrom(s.url, '/whoami/basic', `127.0.4.${i + 1}`, basic('bob', `guess ${i}`));
      expect(a.body.code).toBe('invalid_credential');
    }
    expectRateLimited(await getFrom(s.url, '/whoami/basic', '127.0.4.100', basic('bob', 'guess again')));
    expectRateLimited(await getFrom(s.url, '/whoami/basic', '127.0.4.101', basic('bob', 'bob-correct-horse')));
    // Other users are not affected.
    expect((await getFrom(s.url, '/whoami/basic', '127.0.4.102', basic('dave', 'dave-correct-horse'))).status).toBe(200);
  });

  it('a key id is counted across addresses; the key itself still works', async () => {
    const bad = `${aliceKey.slice(0, -5)}BBBBB`;
    for (let i = 0; i < ATTEMPTS; i++)
      expect((await getFrom(s.url, '/whoami/key', `127.0.5.${i + 1}`, { 'x-guarded-key': bad })).body.code).toBe('invalid_credential');
    expectRateLimited(await getFrom(s.url, '/whoami/key', '127.0.5.100', { 'x-guarded-key': bad }));
    expect((await getFrom(s.url, '/whoami/key', '127.0.5.101', { 'x-guarded-key': aliceKey })).status).toBe(200);
  });
});

describe('password hashing does not hold up the service', () => {
  it('under a flood of wrong passwords at most 2 hashes run at once, and a known user and a cheap request are answered', async () => {
    const user = basic('dave', 'dave-correct-horse');
    expect((await getFrom(s.url, '/whoami/basic', '127.0.6.1', user)).status).toBe(200); // verified once
    Object.assign(scrypts, { total: 0, maxRunning: 0, finished: 0, passwords: new Set<string>() });
    // 300 wrong passwords at once, from 100 addresses and 300 user names: under every failure bound.
    const flood = Array.from({ length: 300 }, (_, i) => getFrom(s.url, '/whoami/basic', `127.0.7.${(i % 100) + 1}`, basic(`intruder${i}`, 'wrong password')));
    // Once the flood's hashing has begun, a cheap request and the known user ask at once; each answer notes how
    // many hashes had finished by then (no wall-clock bound: the machine may be as loaded as it likes).
    await until(() => scrypts.running > 0, 60_000, 'the flood to start hashing');
    const answeredAfter = async (answer: Promise<Answer>) => Object.assign(await answer, { hashesDone: scrypts.finished });
    const t0 = performance.now();
    const [cheap, known] = await Promise.all([
      answeredAfter(getFrom(s.url, '/status', '127.0.6.2')),
      answeredAfter(getFrom(s.url, '/whoami/basic', '127.0.6.3', user)),
    ]);
    const bothMs = performance.now() - t0;
    const answers = await Promise.all(flood);
    expect(cheap.status).toBe(200);
    expect(known.status).toBe(200);
    // The known user's password is remembered: it is not hashed again.
    expect(scrypts.passwords.has('dave-correct-horse')).toBe(false);
    expect(scrypts.passwords.has('wrong password')).toBe(true);
    expect(scrypts.maxRunning).toBeLessThanOrEqual(2);
    // 2 running and 32 waiting at most: the rest are refused at once instead of queued.
    expect(scrypts.total).toBeLessThan(300);
    // Neither waited for the hashing to drain: hashes were still finishing after both were answered.
    expect(cheap.hashesDone).toBeLessThan(scrypts.finished);
    expect(known.hashesDone).toBeLessThan(scrypts.finished);
    // Each flood request is refused in a declared way: wrong (401) or, with every hashing slot taken, 429.
    for (const a of answers) expect(['invalid_credential', 'slow_down']).toContain(a.body.code);
    expect(answers.some((a) => a.body.code === 'slow_down')).toBe(true);
    console.log(
      `flood: cheap request and known user answered in ${bothMs.toFixed(0)} ms, after ${cheap.hashesDone} and ${known.hashesDone} of ${scrypts.finished} hashes; ${scrypts.total} hashes for 300 wrong passwords, at most ${scrypts.maxRunning} at once`,
    );
  }, 120_000);

  it('a remembered password stops working the moment the user is revoked', async () => {
    const user = basic('carol', 'carol-correct-horse');
    expect((await getFrom(s.url, '/whoami/basic', '127.0.8.1', user)).status).toBe(200);
    expect((await getFrom(s.url, '/whoami/basic', '127.0.8.1', user)).status).toBe(200);
    expect(await revokeBasicUser(s.storage, 'carol')).toBe(true);
    expect((await getFrom(s.url, '/whoami/basic', '127.0.8.1', user)).body.code).toBe('invalid_credential');
  });
});

describe('the bound where the spec shows none', () => {
  it('is a runtime gap naming the built-in', () => {
    const model = loadModel(NOTES);
    const withoutBound = { ...model, limits: { ...model.limits!, failedAuth: undefined } };
    const gap = getRuntimeGaps(withoutBound).find((g) => g.item.startsWith('failed authentication bound'));
    expect(gap?.builtIn).toBe('answer rate_limited after 10 failed credentials per 1m from one client address or for one user name or key id');
    expect(getRuntimeGaps(model).some((g) => g.item.startsWith('failed authentication bound'))).toBe(false);
  });
});

describe("an embedding application's own authenticator", () => {
  const SPEC = `
servicespec: 1
purpose: { name: Custom }
endpoints:
  operations:
    whoami: { method: GET, path: /whoami, action: custom, handler: whoami, auth: { schemes: [key] }, response: { fields: { subject: { type: string } } } }
authentication:
  schemes:
    key: { type: api_key, in: header, name: X-Who }
errors:
  body: problem
  codes:
    invalid_credential: { status: 401, when: [missing_credential, invalid_credential] }
    slow_down: { status: 429, when: [rate_limited] }
limits:
  failed_auth: { attempts: ${ATTEMPTS}, per: 1m }
`;
  it('is bounded per client address: past the bound its requests are refused without being checked', async () => {
    const model = compileSpecText(SPEC, 'custom.yaml').checked!;
    let checked = 0;
    const authenticator: Authenticator = {
      authenticate(request) {
        checked++;
        if (request.headers['x-who'] === 'good') return Promise.resolve({ subject: 'zoe', scopes: [], scheme: 'key' });
        throw new ServiceError('invalid_credential', 'no');
      },
    };
    const dir = mkdtempSync(join(tmpdir(), 'servicespec-custom-auth-'));
    const app = await createService(model, {
      storage: createSqliteStorage({ path: join(dir, 'c.db'), synchronous: 'normal' }),
      authenticator,
      allowGaps: true,
      handlers: { whoami: ({ principal }) => ({ subject: principal?.subject ?? '' }) },
    });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      for (let i = 0; i < ATTEMPTS; i++) expect((await getFrom(url, '/whoami', '127.0.9.1', { 'x-who': 'bad' })).body.code).toBe('invalid_credential');
      expect(checked).toBe(ATTEMPTS);
      expectRateLimited(await getFrom(url, '/whoami', '127.0.9.1', { 'x-who': 'good' }));
      expect(checked).toBe(ATTEMPTS);
      expect((await getFrom(url, '/whoami', '127.0.9.2', { 'x-who': 'good' })).body.subject).toBe('zoe');
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
