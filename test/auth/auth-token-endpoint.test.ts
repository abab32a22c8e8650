// The token endpoint of an oauth2_client_credentials scheme, exercised by a client written only from RFC 6749:
// §4.4.2 form-encoded request, §2.3.1 HTTP Basic client authentication, §5.1 / §5.2 responses.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { createClient, revokeClient } from '../../src/runtime/auth/auth-credentials.js';
import { bearer, HS_SECRET, NOTES, startAuthService, type AuthServer } from './helpers.js';

// ---- an RFC 6749 client ----------------------------------------------------------------------------------------

/** Appendix B: application/x-www-form-urlencoded encoding of one value. */
const formEncode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');

interface TokenResponse {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** §4.4.2 Access Token Request, authenticating per §2.3.1 (Basic, id and secret form-encoded first). */
async function requestToken(
  tokenUrl: string,
  client: { id: string; secret: string } | undefined,
  params: Record<string, string> = { grant_type: 'client_credentials' },
  options: { contentType?: string; rawBody?: string; secretInBody?: boolean } = {},
): Promise<TokenResponse> {
  const headers: Record<string, string> = { 'content-type': options.contentType ?? 'application/x-www-form-urlencoded', accept: 'application/json' };
  const form = { ...params };
  if (client && options.secretInBody) Object.assign(form, { client_id: client.id, client_secret: client.secret });
  else if (client) headers.authorization = `Basic ${Buffer.from(`${formEncode(client.id)}:${formEncode(client.secret)}`).toString('base64')}`;
  const body =
    options.rawBody ??
    Object.entries(form)
      .map(([k, v]) => `${formEncode(k)}=${formEncode(v)}`)
      .join('&');
  const res = await fetch(tokenUrl, { method: 'POST', headers, body });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

// ---- the tests ---------------------------------------------------------------------------------------------------

let s: AuthServer;
let tokenUrl: string;
let client: { id: string; secret: string };

beforeAll(async () => {
  s = await startAuthService({ auth: { jwt: { secret: HS_SECRET } } });
  tokenUrl = `${s.url}/oauth/token`;
  const c = await createClient(s.storage, s.model, { subject: 'payments-provider', scopes: ['notes:read', 'notes:write'] });
  client = { id: c.clientId, secret: c.clientSecret };
});
afterAll(() => s.close());

function oauthError(r: TokenResponse, status: number, error: string): void {
  expect({ status: r.status, error: r.body.error }).toEqual({ status, error });
  expect(r.body.access_token).toBeUndefined();
  expect(r.headers.get('cache-control')).toBe('no-store');
  expect(r.headers.get('x-request-id')).toBeTruthy();
}

describe('§5.1 successful response', () => {
  it('issues a JWT with the declared lifetime, issuer and audience, and only the scopes asked for', async () => {
    const r = await requestToken(tokenUrl, client, { grant_type: 'client_credentials', scope: 'notes:read' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('pragma')).toBe('no-cache');
    expect(r.headers.get('x-request-id')).toBeTruthy();
    expect(r.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 900, scope: 'notes:read' });
    const header = decodeProtectedHeader(r.body.access_token);
    expect(header).toMatchObject({ alg: 'ES256', typ: 'at+jwt', kid: expect.any(String) });
    const c = decodeJwt(r.body.access_token);
    expect(c).toMatchObject({ iss: 'https://notes.test/', aud: 'notes', sub: 'payments-provider', client_id: client.id, scope: 'notes:read' });
    expect(c.exp! - c.iat!).toBe(900);
    expect(c.iat).toBe(s.clock.seconds());
  });

  it('without a scope parameter, grants every scope the client holds', async () => {
    const r = await requestToken(tokenUrl, client);
    expect(r.status).toBe(200);
    expect(r.body.scope).toBe('notes:read notes:write');
  });

  it('the token authenticates on the oauth2 scheme and on a bearer scheme with the same issuer and audience', async () => {
    const token = (await requestToken(tokenUrl, client, { grant_type: 'client_credentials', scope: 'notes:read' })).body.access_token as string;
    expect((await s.call('GET', '/whoami/machine', { headers: bearer(token) })).body).toEqual({
      subject: 'payments-provider',
      scheme: 'machine',
      scopes: ['notes:read'],
    });
    expect((await s.call('GET', '/whoami/svc', { headers: bearer(token) })).body).toMatchObject({ subject: 'payments-provider', scheme: 'svc' });
    // Not on schemes with another issuer or algorithm.
    expect((await s.call('GET', '/whoami/hs', { headers: bearer(token) })).body.code).toBe('invalid_credential');
    // Only the scopes granted: notes:write was not asked for.
    expect((await s.call('POST', '/notes', { body: { title: 't' }, headers: bearer(token) })).body.code).toBe('missing_scope');
  });

  it('client_secret_post (id and secret in the body) is accepted too', async () => {
    const r = await requestToken(tokenUrl, client, { grant_type: 'client_credentials' }, { secretInBody: true });
    expect(r.status).toBe(200);
  });

  it('tokens expire after the declared lifetime (15 min)', async () => {
    const token = (await requestToken(tokenUrl, client)).body.access_token as string;
    expect((await s.call('GET', '/whoami/machine', { headers: bearer(token) })).status).toBe(200);
    // Forward only: the failed-credential bound counts on this clock too, and a clock set back would hold it spent.
    s.clock.advance(15 * 60 * 1000);
    const r = await s.call('GET', '/whoami/machine', { headers: bearer(token) });
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 401, code: 'expired_credential' });
  });
});

describe('§5.2 error responses', () => {
  it('a wrong client secret: 401 invalid_client with a Basic challenge; an unknown client answers the same', async () => {
    const wrong = await requestToken(tokenUrl, { id: client.id, secret: `${client.secret.slice(0, -1)}${client.secret.endsWith('x') ? 'y' : 'x'}` });
    oauthError(wrong, 401, 'invalid_client');
    expect(wrong.headers.get('www-authenticate')).toBe('Basic realm="Notes", charset="UTF-8"');
    const unknown = await requestToken(tokenUrl, { id: 'nobody', secret: client.secret });
    expect(unknown.body).toEqual(wrong.body);
    oauthError(await requestToken(tokenUrl, undefined), 401, 'invalid_client');
    oauthError(
      await requestToken(tokenUrl, { id: client.id, secret: 'short' }, { grant_type: 'client_credentials' }, { secretInBody: true }),
      401,
      'invalid_client',
    );
  });

  it('a scope the client does not hold: 400 invalid_scope', async () => {
    oauthError(await requestToken(tokenUrl, client, { grant_type: 'client_credentials', scope: 'admin' }), 400, 'invalid_scope');
    oauthError(await requestToken(tokenUrl, client, { grant_type: 'client_credentials', scope: 'notes:read admin' }), 400, 'invalid_scope');
    oauthError(await requestToken(tokenUrl, client, { grant_type: 'client_credentials', scope: 'undeclared' }), 400, 'invalid_scope');
  });

  it('missing or unsupported grant_type: invalid_request / unsupported_grant_type', async () => {
    oauthError(await requestToken(tokenUrl, client, {}), 400, 'invalid_request');
    oauthError(await requestToken(tokenUrl, client, { grant_type: 'password' }), 400, 'unsupported_grant_type');
  });

  it('a body that is not form-encoded, or a repeated parameter: 400 invalid_request', async () => {
    oauthError(
      await requestToken(tokenUrl, client, {}, { contentType: 'application/json', rawBody: '{"grant_type":"client_credentials"}' }),
      400,
      'invalid_request',
    );
    oauthError(await requestToken(tokenUrl, client, {}, { contentType: 'text/plain', rawBody: 'grant_type=client_credentials' }), 400, 'invalid_request');
    oauthError(await requestToken(tokenUrl, client, {}, { rawBody: 'grant_type=client_credentials&grant_type=client_credentials' }), 400, 'invalid_request');
    oauthError(await requestToken(tokenUrl, client, {}, { rawBody: 'x'.repeat(20_000) }), 400, 'invalid_request');
  });

  it('two client authentication methods at once: 400 invalid_request', async () => {
    const headers = {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
    };
    const res = await fetch(tokenUrl, { method: 'POST', headers, body: `grant_type=client_credentials&client_id=${client.id}&client_secret=${client.secret}` });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('invalid_request');
  });

  it('a revoked client gets no token: 401 invalid_client', async () => {
    const c = await createClient(s.storage, s.model, { scopes: ['notes:read'] });
    expect((await requestToken(tokenUrl, { id: c.clientId, secret: c.clientSecret })).status).toBe(200);
    await revokeClient(s.storage, c.clientId, s.clock.now);
    oauthError(await requestToken(tokenUrl, { id: c.clientId, secret: c.clientSecret }), 401, 'invalid_client');
  });

  it('other methods on the token path: 405 with Allow: POST', async () => {
    const r = await s.call('GET', '/oauth/token');
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
  });
});

describe('the declared headers of every error answer (errors.headers) on the §5.2 answers', () => {
  // RFC 6749 fixes the body, not the other headers: the token endpoint's errors carry errors.headers with a default as
  // every other error answer does, and X-Request-Id; not a code's own (they answer none of the spec's codes), and the
  // protocol's Cache-Control wins over a declared default of the same name.
  let h: AuthServer;
  let dir: string;
  let c: { id: string; secret: string };
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'servicespec-token-headers-'));
    const spec = join(dir, 'notes.yaml');
    const text = readFileSync(NOTES, 'utf8');
    const declared = text.replace(
      'errors:\n  body: problem\n  codes:\n    missing_credential: { status: 401, when: [missing_credential] }\n',
      [
        'errors:',
        '  body: problem',
        '  headers:',
        '    X-Api-Family: { type: string, default: notes }',
        '    Cache-Control: { type: string, default: private }',
        '    X-Trace-Hint: { type: string, optional: true }',
        '  codes:',
        '    missing_credential: { status: 401, when: [missing_credential], headers: { X-Error-Kind: { type: string, default: missing } } }',
        '',
      ].join('\n'),
    );
    expect(declared).not.toBe(text);
    writeFileSync(spec, declared);
    h = await startAuthService({ spec, auth: { jwt: { secret: HS_SECRET } } });
    const made = await createClient(h.storage, h.model, { scopes: ['notes:read'] });
    c = { id: made.clientId, secret: made.clientSecret };
  });
  afterAll(async () => {
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function declaredHeaders(r: TokenResponse): void {
    expect(r.headers.get('x-api-family')).toBe('notes');
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('x-trace-hint')).toBeNull();
    expect(r.headers.get('x-error-kind')).toBeNull();
    expect(r.headers.get('x-request-id')).toBeTruthy();
  }

  it('the handler’s answers: invalid_client, invalid_scope, unsupported_grant_type', async () => {
    const url = `${h.url}/oauth/token`;
    const wrong = await requestToken(url, { id: c.id, secret: 'not the secret' });
    oauthError(wrong, 401, 'invalid_client');
    expect(wrong.headers.get('www-authenticate')).toBe('Basic realm="Notes", charset="UTF-8"');
    declaredHeaders(wrong);
    const scope = await requestToken(url, c, { grant_type: 'client_credentials', scope: 'admin' });
    oauthError(scope, 400, 'invalid_scope');
    declaredHeaders(scope);
    const grant = await requestToken(url, c, { grant_type: 'password' });
    oauthError(grant, 400, 'unsupported_grant_type');
    declaredHeaders(grant);
  });

  it('the answers before the handler: another media type, an oversized body', async () => {
    const url = `${h.url}/oauth/token`;
    const json = await requestToken(url, c, {}, { contentType: 'application/json', rawBody: '{"grant_type":"client_credentials"}' });
    oauthError(json, 400, 'invalid_request');
    declaredHeaders(json);
    const big = await requestToken(url, c, {}, { rawBody: 'x'.repeat(20_000) });
    oauthError(big, 400, 'invalid_request');
    declaredHeaders(big);
  });

  it('a success carries none of them', async () => {
    const r = await requestToken(`${h.url}/oauth/token`, c);
    expect(r.status).toBe(200);
    expect(r.headers.get('x-api-family')).toBeNull();
  });
});

describe('the signing key', () => {
  it('is kept in the database: tokens issued before a restart still verify after it', async () => {
    const first = await startAuthService({ auth: { jwt: { secret: HS_SECRET } } });
    const c = await createClient(first.storage, first.model, { scopes: ['notes:read'] });
    const token = (await requestToken(`${first.url}/oauth/token`, { id: c.clientId, secret: c.clientSecret })).body.access_token as string;
    await first.close(false);
    const second = await startAuthService({ dbPath: first.dbPath, clock: first.clock, auth: { jwt: { secret: HS_SECRET } } });
    try {
      expect((await second.call('GET', '/whoami/machine', { headers: bearer(token) })).status).toBe(200);
      expect(second.authenticator.publicKeys.keys).toHaveLength(1);
      expect(second.authenticator.publicKeys.keys[0]).not.toHaveProperty('d');
    } finally {
      await second.close();
      rmSync(dirname(first.dbPath), { recursive: true, force: true });
    }
  });
});
