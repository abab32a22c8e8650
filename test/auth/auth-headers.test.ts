// Every answer carries `X-Content-Type-Options: nosniff`; every answer of an operation that takes a credential
// (and the token endpoint's) carries `Cache-Control: no-store`. A JWKS with an RSA key under 2048 bits is refused.

import { generateKeyPairSync } from 'node:crypto';
import { connect } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthConfigError, createAuthenticator } from '../../src/runtime/auth/auth-authenticator.js';
import { createApiKey, createClient } from '../../src/runtime/auth/auth-credentials.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { loadModel, NOTES, startAuthService, type AuthServer } from './helpers.js';

const GUARDED = new URL('./fixtures/guarded.yaml', import.meta.url).pathname;
const ORDERS_PLAIN = new URL('../runtime/fixtures/orders-plain.yaml', import.meta.url).pathname;

let s: AuthServer;
let key: string;
let client: { clientId: string; clientSecret: string };

beforeAll(async () => {
  s = await startAuthService({ spec: GUARDED });
  key = (await createApiKey(s.storage, s.model, { subject: 'alice', scopes: ['notes:read', 'notes:write'], scheme: 'key' })).key;
  client = await createClient(s.storage, s.model, { subject: 'alice', scopes: ['notes:read'] });
});
afterAll(async () => s.close());

/** A raw request the HTTP parser refuses, answered outside Fastify. */
function rawAnswer(url: string, text: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(text));
    let out = '';
    socket.on('data', (d: Buffer) => (out += d.toString('latin1')));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
}

describe('X-Content-Type-Options: nosniff on every answer', () => {
  it('success, refusal, unknown route, wrong method, token endpoint, and a request the parser refuses', async () => {
    const answers = [
      await s.call('GET', '/status'),
      await s.call('GET', '/whoami/key', { headers: { 'x-guarded-key': key } }),
      await s.call('GET', '/whoami/key'),
      await s.call('GET', '/no/such/route'),
      await s.call('DELETE', '/status'),
      await s.call('POST', '/notes', { body: '{"title": ', headers: { 'x-guarded-key': key, 'content-type': 'application/json' } }),
      await s.call('POST', '/oauth/token', { body: 'grant_type=client_credentials', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 401, 404, 405, 400, 401]);
    for (const a of answers) expect(a.headers.get('x-content-type-options')).toBe('nosniff');
    const raw = await rawAnswer(s.url, 'GET / HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n');
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(raw.toLowerCase()).toContain('\r\nx-content-type-options: nosniff\r\n');
  });

  // Set in writeHead, not by setHeader on arrival (runtime-service.ts, NosniffResponse): still the first header sent,
  // on Fastify's answers and on those the server factory writes itself (no Host, an unknown Expect).
  it('is the first header of each answer, whichever layer writes it', async () => {
    const firstHeader = (raw: string) => raw.split('\r\n')[1]!.toLowerCase();
    const answers = [
      await rawAnswer(s.url, 'GET /status HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      await rawAnswer(s.url, 'GET /no/such/route HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      await rawAnswer(s.url, 'GET /status HTTP/1.1\r\nConnection: close\r\n\r\n'),
      await rawAnswer(s.url, 'GET /status HTTP/1.1\r\nHost: x\r\nExpect: something\r\nConnection: close\r\n\r\n'),
    ];
    expect(answers.map((a) => a.slice(0, 12))).toEqual(['HTTP/1.1 200', 'HTTP/1.1 404', 'HTTP/1.1 400', 'HTTP/1.1 200']);
    for (const a of answers) expect(firstHeader(a)).toBe('x-content-type-options: nosniff');
  });
});

describe('nosniff first, and no Cache-Control, on a public read', () => {
  // The benchmark's read (issue 27): the same headers in the same order with the fast paths on and off, nosniff first,
  // no no-store (no credential).
  it('is the first header, and the same headers in the same order as with the fast paths off', async () => {
    const model = loadModel(ORDERS_PLAIN);
    const heads: string[][] = [];
    for (const fastPaths of [true, false]) {
      const app = await createService(model, { storage: createSqliteStorage({ path: ':memory:', fastPaths }), allowGaps: true, fastPaths });
      try {
        const url = await app.listen({ port: 0, host: '127.0.0.1' });
        const created = await fetch(`${url}/orders`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"status":"paid","amount":1,"currency":"EUR"}',
        });
        const { id } = (await created.json()) as { id: string };
        const raw = await rawAnswer(url, `GET /orders/${id} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
        expect(raw.slice(0, 12)).toBe('HTTP/1.1 200');
        heads.push(
          raw
            .split('\r\n\r\n')[0]!
            .split('\r\n')
            .slice(1)
            .map((line) => line.split(':')[0]!.toLowerCase()),
        );
      } finally {
        await app.close();
      }
    }
    expect(heads[0]![0]).toBe('x-content-type-options');
    expect(heads[0]).not.toContain('cache-control');
    expect(heads[0]).toEqual(heads[1]);
  });
});

describe('Cache-Control: no-store on answers that carry a credential', () => {
  it('on every answer of an operation that requires a credential, refusals included', async () => {
    const created = await s.call('POST', '/notes', { body: { title: 'mine' }, headers: { 'x-guarded-key': key } });
    expect(created.status).toBe(201);
    const answers = [
      created,
      await s.call('GET', `/notes/${created.body.id}`, { headers: { 'x-guarded-key': key } }),
      await s.call('GET', '/notes', { headers: { 'x-guarded-key': key } }),
      await s.call('GET', '/whoami/key', { headers: { 'x-guarded-key': key } }),
      await s.call('GET', '/whoami/key'),
      await s.call('GET', '/whoami/key', { headers: { 'x-guarded-key': 'gk_wrong' } }),
    ];
    expect(answers.map((a) => a.status)).toEqual([201, 200, 200, 200, 401, 401]);
    for (const a of answers) expect(a.headers.get('cache-control')).toBe('no-store');
  });

  it('on the token endpoint, and not on a public operation', async () => {
    const basic = `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`;
    const token = await s.call('POST', '/oauth/token', {
      body: 'grant_type=client_credentials',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
    });
    expect(token.status).toBe(200);
    expect(token.headers.get('cache-control')).toBe('no-store');
    const withToken = await s.call('GET', '/whoami/token', { headers: { authorization: `Bearer ${token.body.access_token}` } });
    expect(withToken.status).toBe(200);
    expect(withToken.headers.get('cache-control')).toBe('no-store');
    expect((await s.call('GET', '/status')).headers.get('cache-control')).toBeNull();
  });
});

describe('a JWKS with a weak RSA key', () => {
  const rsaJwk = (bits: number, kid: string): JWK => ({
    ...(generateKeyPairSync('rsa', { modulusLength: bits }).publicKey.export({ format: 'jwk' }) as JWK),
    kid,
    alg: 'RS256',
  });
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'servicespec-weak-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is refused at start with weak-rsa-key, from a file or given inline', async () => {
    const model = loadModel(NOTES);
    const storage = createSqliteStorage({ path: join(dir, 'a.db') });
    try {
      const file = join(dir, 'jwks.json');
      writeFileSync(file, JSON.stringify({ keys: [rsaJwk(2048, 'strong'), rsaJwk(1024, 'weak')] }));
      for (const jwt of [{ jwksFile: file }, { jwks: { keys: [rsaJwk(1024, 'weak')] } }]) {
        const err = await createAuthenticator(model, storage, { allowGaps: true, jwt }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(AuthConfigError);
        expect((err as AuthConfigError).codes).toEqual(['weak-rsa-key']);
        expect((err as AuthConfigError).problems.join('\n')).toMatch(
          /weak-rsa-key: .*key \d \(kid weak\) is a 1024-bit RSA key; RSA keys need at least 2048 bits/,
        );
      }
    } finally {
      await storage.close();
    }
  });

  it('2048 bits and more are accepted', async () => {
    const model = loadModel(NOTES);
    const storage = createSqliteStorage({ path: join(dir, 'b.db') });
    try {
      const a = await createAuthenticator(model, storage, { allowGaps: true, jwt: { jwks: { keys: [rsaJwk(2048, 'a'), rsaJwk(3072, 'b')] } } });
      expect(a.warnings.filter((w) => w.includes('scheme rs'))).toEqual([]);
    } finally {
      await storage.close();
    }
  });
});
