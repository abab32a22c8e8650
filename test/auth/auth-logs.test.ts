// No credential reaches the log: requests carrying every kind of secret the service accepts (Basic passwords,
// API keys in a header and in the query, OAuth2 client secrets in Basic and in the body, access tokens) are
// logged at the most verbose level to a stream, and the log is searched for each secret.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthenticator } from '../../src/runtime/auth/auth-authenticator.js';
import { createApiKey, createBasicUser, createClient } from '../../src/runtime/auth/auth-credentials.js';
import { getLoggerOptions, redactUrl } from '../../src/runtime/runtime-logging.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { callJson } from '../support/http.js';
import { basic, HANDLERS, loadModel } from './helpers.js';

const GUARDED = new URL('./fixtures/guarded.yaml', import.meta.url).pathname;

const lines: string[] = [];
let app: FastifyInstance;
let url: string;
let dir: string;
const secrets: string[] = [];

const form = (params: Record<string, string>) =>
  Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'servicespec-logs-'));
  const model = loadModel(GUARDED);
  const storage = createSqliteStorage({ path: join(dir, 'service.db'), synchronous: 'normal' });
  const authenticator = await createAuthenticator(model, storage, { allowGaps: true });
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  app = await createService(model, { storage, authenticator, allowGaps: true, handlers: HANDLERS, logger: { level: 'trace', stream } });
  url = await app.listen({ port: 0, host: '127.0.0.1' });

  const password = 'a-very-secret-password-1';
  await createBasicUser(storage, model, { username: 'alice', password, scopes: ['notes:read', 'notes:write'] });
  const headerKey = (await createApiKey(storage, model, { subject: 'alice', scopes: ['notes:read'], scheme: 'key' })).key;
  const queryKey = (await createApiKey(storage, model, { subject: 'alice', scopes: ['notes:read'], scheme: 'qkey' })).key;
  const client = await createClient(storage, model, { subject: 'alice', scopes: ['notes:read'] });
  const wrongPassword = 'wrong-password-secret-2';
  const badKey = `${headerKey.slice(0, -6)}XXXXXX`;
  const basicHeader = basic('alice', password).authorization;
  const clientBasic = `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`;

  // Every way a secret travels, answered well and badly.
  expect((await callJson(url, 'GET', '/whoami/basic', undefined, { authorization: basicHeader })).status).toBe(200);
  expect((await callJson(url, 'GET', '/whoami/basic', undefined, basic('alice', wrongPassword))).status).toBe(401);
  expect((await callJson(url, 'GET', '/whoami/key', undefined, { 'x-guarded-key': headerKey })).status).toBe(200);
  expect((await callJson(url, 'GET', '/whoami/key', undefined, { 'x-guarded-key': badKey })).status).toBe(401);
  expect((await callJson(url, 'GET', `/whoami/query?api_key=${encodeURIComponent(queryKey)}`)).status).toBe(200);
  expect((await callJson(url, 'GET', `/whoami/query?x=1&api_key=${encodeURIComponent(badKey)}&y=2`)).status).toBe(401);
  // Query names are case-sensitive for the service (401 here), not for the log.
  expect((await callJson(url, 'GET', `/notes?API_KEY=${encodeURIComponent(queryKey)}`)).status).toBe(401);
  const issued = await callJson(url, 'POST', '/oauth/token', form({ grant_type: 'client_credentials' }), {
    'content-type': 'application/x-www-form-urlencoded',
    authorization: clientBasic,
  });
  expect(issued.status).toBe(200);
  const token = issued.body.access_token as string;
  const inBody = await callJson(
    url,
    'POST',
    '/oauth/token',
    form({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret }),
    { 'content-type': 'application/x-www-form-urlencoded' },
  );
  expect(inBody.status).toBe(200);
  // A JSON body and a broken one at the token endpoint, each carrying the secret.
  await callJson(url, 'POST', '/oauth/token', { grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret });
  await callJson(url, 'POST', '/oauth/token', `grant_type=client_credentials&client_secret=${client.clientSecret}&client_secret=${client.clientSecret}`, {
    'content-type': 'application/x-www-form-urlencoded',
  });
  expect((await callJson(url, 'GET', '/whoami/token', undefined, { authorization: `Bearer ${token}` })).status).toBe(200);
  expect((await callJson(url, 'GET', `/whoami/token?access_token=${token}`)).status).toBe(401);
  // A body the JSON parser refuses, carrying a password.
  await callJson(url, 'POST', '/notes', `{"title": "${password}"`, { authorization: basicHeader });
  secrets.push(password, wrongPassword, headerKey, queryKey, badKey, client.clientSecret, token, basicHeader.slice(6), clientBasic.slice(6));
  // The secret parts alone (the key's secret after the key id).
  secrets.push(headerKey.split('_').slice(2).join('_'), queryKey.split('_').slice(2).join('_'));
  secrets.push(encodeURIComponent(queryKey), encodeURIComponent(badKey));
});

afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('credentials in the log', () => {
  it('logs the requests (so the search below means something)', () => {
    const log = lines.join('');
    expect(lines.length).toBeGreaterThan(20);
    expect(log).toContain('/whoami/query?api_key=[redacted]');
    expect(log).toContain('/whoami/query?x=1&api_key=[redacted]&y=2');
    expect(log).toContain('/notes?API_KEY=[redacted]');
    expect(log).toContain('/whoami/token?access_token=[redacted]');
  });

  it('contains none of the secrets the requests carried', () => {
    const log = lines.join('');
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(8);
      expect(log.includes(secret), `a secret (${secret.slice(0, 4)}…) is in the log`).toBe(false);
    }
  });
});

describe('redactUrl', () => {
  const names = new Set(['api_key', 'access_token']);
  it('replaces only the values of secret parameters, and strips user:password@', () => {
    expect(redactUrl('/a?api_key=s3cret&b=1', names)).toBe('/a?api_key=[redacted]&b=1');
    expect(redactUrl('/a?b=1&Api%5FKey=s3cret#frag', names)).toBe('/a?b=1&Api%5FKey=[redacted]#frag');
    expect(redactUrl('/a?b=1', names)).toBe('/a?b=1');
    expect(redactUrl('https://user:pw@hooks.test/x?access_token=t', names)).toBe('https://hooks.test/x?access_token=[redacted]');
  });
});

describe('getLoggerOptions', () => {
  it('redacts credential headers and secret body fields wherever a request or body is logged', async () => {
    const out: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        out.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = Fastify({ logger: getLoggerOptions(loadModel(GUARDED), { level: 'info', stream }) as FastifyServerOptions['logger'] });
    const log = logger.log;
    log.info({ headers: { authorization: 'Basic c2VjcmV0LXZhbHVlLTE=', 'x-guarded-key': 'gk_secret-value-2', accept: 'text/plain' } }, 'headers');
    log.info({ body: { grant_type: 'client_credentials', client_secret: 'secret-value-3' } }, 'body');
    log.info({ req: { headers: { cookie: 'session=secret-value-4' }, body: { password: 'secret-value-5' } } }, 'request');
    log.info({ url: 'https://user:secret-value-6@hooks.test/in?token=secret-value-7&x=1' }, 'webhook');
    const text = out.join('');
    expect(text).toContain('text/plain');
    expect(text).toContain('client_credentials');
    expect(text).toContain('https://hooks.test/in?token=[redacted]&x=1');
    for (let i = 1; i <= 7; i++) expect(text).not.toContain(`secret-value-${i}`);
    expect(text).not.toContain('c2VjcmV0LXZhbHVlLTE=');
    await logger.close();
  });
});
