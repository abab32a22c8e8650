// Every bad credential of issue 4, over real HTTP to a real server: each refused with its exact status and code.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, createBasicUser, revokeApiKey } from '../../src/runtime/auth/auth-credentials.js';
import {
  basic,
  bearer,
  claims,
  hmacJwt,
  HS_SECRET,
  makeRsaKey,
  noneJwt,
  signHs,
  signRs,
  startAuthService,
  writeJwks,
  type AuthServer,
  type RsaKey,
} from './helpers.js';

let s: AuthServer;
let rs1: RsaKey;
let rs2: RsaKey;
let rs3: RsaKey;
let jwks: { path: string; remove: () => void };
let aliceKey: string;

beforeAll(async () => {
  [rs1, rs2, rs3] = await Promise.all([makeRsaKey('rs-1'), makeRsaKey('rs-2'), makeRsaKey('rs-3')]);
  jwks = writeJwks([rs1, rs2]);
  s = await startAuthService({ auth: { jwt: { secret: HS_SECRET, jwksFile: jwks.path } } });
  aliceKey = (await createApiKey(s.storage, s.model, { subject: 'alice', scopes: ['notes:read', 'notes:write'], scheme: 'key' })).key;
  await createBasicUser(s.storage, s.model, { username: 'carol', password: 'correct horse battery', scopes: ['notes:read'] });
});
afterAll(async () => {
  await s.close();
  jwks.remove();
});

/** Asserts a refusal: status, declared code, and (for 401) a WWW-Authenticate challenge. */
function refused(r: { status: number; body: { code?: string }; headers: Headers }, status: number, code: string): void {
  expect({ status: r.status, code: r.body?.code }).toEqual({ status, code });
  if (status === 401) expect(r.headers.get('www-authenticate')).toBeTruthy();
}

const hsClaims = (extra: Record<string, unknown> = {}) => claims(s.clock, { iss: 'https://issuer.test/', aud: 'notes', ...extra });
const rsClaims = (extra: Record<string, unknown> = {}) => claims(s.clock, { iss: 'https://rs.test/', aud: 'notes', ...extra });

describe('valid credentials are accepted (the baseline for every refusal below)', () => {
  it('an API key in the declared header, an HS256 token, an RS256 token by kid, a Basic user', async () => {
    expect((await s.call('GET', '/whoami/key', { headers: { 'x-notes-key': aliceKey } })).body).toEqual({
      subject: 'alice',
      scheme: 'key',
      scopes: ['notes:read', 'notes:write'],
    });
    expect((await s.call('GET', '/whoami/hs', { headers: bearer(await signHs(hsClaims())) })).body).toMatchObject({ subject: 'alice', scheme: 'hs' });
    expect((await s.call('GET', '/whoami/rs', { headers: bearer(await signRs(rs2, rsClaims())) })).body).toMatchObject({ subject: 'alice', scheme: 'rs' });
    expect((await s.call('GET', '/whoami/basic', { headers: basic('carol', 'correct horse battery') })).body).toEqual({
      subject: 'carol',
      scheme: 'staff',
      scopes: ['notes:read'],
    });
  });

  it('an API key in the query, where declared; the key is not taken for an operation parameter', async () => {
    expect((await s.call('GET', `/whoami/query?api_key=${encodeURIComponent(aliceKey)}`)).body).toMatchObject({ subject: 'alice', scheme: 'qkey' });
    const list = await s.call('GET', `/notes?api_key=${encodeURIComponent(aliceKey)}`);
    expect(list.status).toBe(200);
    // In the query, but that scheme only takes it in the header.
    refused(await s.call('GET', `/whoami/key?api_key=${encodeURIComponent(aliceKey)}`), 401, 'missing_credential');
  });

  it('a token within the declared clock tolerance (30 s) is accepted', async () => {
    expect((await s.call('GET', '/whoami/hs', { headers: bearer(await signHs(hsClaims({ exp: s.clock.seconds() - 29 }))) })).status).toBe(200);
    expect((await s.call('GET', '/whoami/hs', { headers: bearer(await signHs(hsClaims({ nbf: s.clock.seconds() + 29 }))) })).status).toBe(200);
  });
});

describe('missing credentials', () => {
  it('no credential: 401 missing_credential, WWW-Authenticate naming every acceptable scheme', async () => {
    const r = await s.call('GET', '/whoami');
    refused(r, 401, 'missing_credential');
    const challenge = r.headers.get('www-authenticate')!;
    expect(challenge).toContain('ApiKey realm="Notes", header="X-Notes-Key"');
    expect(challenge).toContain('ApiKey realm="Notes", query="api_key"');
    expect(challenge).toContain('Bearer realm="Notes"');
    expect(challenge).toContain('Basic realm="Notes", charset="UTF-8"');
  });

  it('the key under the wrong header name: 401 missing_credential', async () => {
    refused(await s.call('GET', '/whoami/key', { headers: { 'x-api-key': aliceKey } }), 401, 'missing_credential');
    const r = await s.call('GET', '/whoami/key', { headers: { 'x-api-key': aliceKey } });
    expect(r.headers.get('www-authenticate')).toBe('ApiKey realm="Notes", header="X-Notes-Key"');
  });

  it('a credential of a scheme the operation does not accept: 401 missing_credential', async () => {
    refused(await s.call('GET', '/whoami/key', { headers: bearer(await signHs(hsClaims())) }), 401, 'missing_credential');
    refused(await s.call('GET', '/whoami/hs', { headers: { 'x-notes-key': aliceKey } }), 401, 'missing_credential');
    refused(await s.call('GET', '/whoami/hs', { headers: { authorization: `Token ${await signHs(hsClaims())}` } }), 401, 'missing_credential');
  });
});

describe('bad bearer tokens', () => {
  const invalid = async (path: string, token: string) => {
    const r = await s.call('GET', path, { headers: { authorization: `Bearer ${token}` } });
    refused(r, 401, 'invalid_credential');
    expect(r.headers.get('www-authenticate')).toContain('error="invalid_token"');
  };

  it('empty, garbled or truncated: 401 invalid_credential', async () => {
    await invalid('/whoami/hs', '');
    await invalid('/whoami/hs', 'not-a-jwt');
    await invalid('/whoami/hs', 'a.b.c');
    await invalid('/whoami/hs', '%%%.###.!!!');
    const good = await signHs(hsClaims());
    await invalid('/whoami/hs', good.slice(0, -10));
    await invalid('/whoami/hs', good.slice(0, good.lastIndexOf('.')));
    await invalid('/whoami/rs', (await signRs(rs1, rsClaims())).slice(0, -1));
  });

  it('alg none: 401 invalid_credential on every bearer scheme', async () => {
    for (const path of ['/whoami/hs', '/whoami/rs', '/whoami/mixed', '/whoami/svc', '/whoami/machine']) {
      await invalid(path, noneJwt(hsClaims()));
      await invalid(path, noneJwt(rsClaims({ iss: 'https://mixed.test/' })));
    }
  });

  it('HS256 signed with the RSA public key as the secret: 401 invalid_credential', async () => {
    for (const pem of [rs1.publicPem, JSON.stringify(rs1.publicJwk)]) {
      // Where only RS256 is pinned, and where HS256 is allowed too (the secret is the operator's, never a key).
      await invalid('/whoami/rs', hmacJwt({ alg: 'HS256', kid: 'rs-1' }, rsClaims(), pem));
      await invalid('/whoami/mixed', hmacJwt({ alg: 'HS256', kid: 'rs-1' }, rsClaims({ iss: 'https://mixed.test/' }), pem));
      await invalid('/whoami/mixed', hmacJwt({ alg: 'HS256' }, rsClaims({ iss: 'https://mixed.test/' }), pem));
    }
    // The same scheme does accept a properly signed RS256 token and an HS256 token with the operator's secret.
    expect((await s.call('GET', '/whoami/mixed', { headers: bearer(await signRs(rs1, rsClaims({ iss: 'https://mixed.test/' }))) })).status).toBe(200);
    expect((await s.call('GET', '/whoami/mixed', { headers: bearer(await signHs(rsClaims({ iss: 'https://mixed.test/' }))) })).status).toBe(200);
  });

  it('an algorithm the scheme does not pin: 401 invalid_credential', async () => {
    await invalid('/whoami/hs', await signRs(rs1, hsClaims()));
    await invalid('/whoami/rs', await signHs(rsClaims()));
  });

  it('expired by 1 s: 401 expired_credential (no tolerance declared, and past the declared 30 s)', async () => {
    const rs = await s.call('GET', '/whoami/rs', {
      headers: bearer(await signRs(rs1, rsClaims({ iat: s.clock.seconds() - 600, exp: s.clock.seconds() - 1 }))),
    });
    refused(rs, 401, 'expired_credential');
    expect(rs.headers.get('www-authenticate')).toContain('error="invalid_token"');
    refused(
      await s.call('GET', '/whoami/hs', { headers: bearer(await signHs(hsClaims({ iat: s.clock.seconds() - 600, exp: s.clock.seconds() - 31 }))) }),
      401,
      'expired_credential',
    );
  });

  it('a token accepted once is refused the second it expires (the verified-token cache re-checks time)', async () => {
    const token = await signRs(rs1, rsClaims({ exp: s.clock.seconds() + 5 }));
    expect((await s.call('GET', '/whoami/rs', { headers: bearer(token) })).status).toBe(200);
    s.clock.advance(5_000);
    try {
      refused(await s.call('GET', '/whoami/rs', { headers: bearer(token) }), 401, 'expired_credential');
    } finally {
      s.clock.advance(-5_000);
    }
  });

  it('nbf 60 s ahead (tolerance 30 s): 401 invalid_credential; iat in the future likewise', async () => {
    await invalid('/whoami/hs', await signHs(hsClaims({ nbf: s.clock.seconds() + 60 })));
    await invalid('/whoami/hs', await signHs(hsClaims({ iat: s.clock.seconds() + 60 })));
    await invalid('/whoami/rs', await signRs(rs1, rsClaims({ nbf: s.clock.seconds() + 1 })));
  });

  it('wrong aud, wrong iss, no aud, no iss: 401 invalid_credential', async () => {
    await invalid('/whoami/hs', await signHs(hsClaims({ aud: 'other' })));
    await invalid('/whoami/hs', await signHs(hsClaims({ iss: 'https://evil.test/' })));
    await invalid('/whoami/rs', await signRs(rs1, rsClaims({ aud: 'other' })));
    await invalid('/whoami/rs', await signRs(rs1, rsClaims({ iss: 'https://issuer.test/' })));
    const { aud: _a, ...noAud } = hsClaims();
    const { iss: _i, ...noIss } = hsClaims();
    await invalid('/whoami/hs', await signHs(noAud));
    await invalid('/whoami/hs', await signHs(noIss));
  });

  it('no exp, a string exp, a string nbf: 401 invalid_credential', async () => {
    const { exp: _e, ...noExp } = hsClaims();
    await invalid('/whoami/hs', await signHs(noExp));
    await invalid('/whoami/hs', hmacJwt({ alg: 'HS256', typ: 'JWT' }, hsClaims({ exp: String(s.clock.seconds() + 600) }), HS_SECRET));
    await invalid('/whoami/hs', hmacJwt({ alg: 'HS256', typ: 'JWT' }, hsClaims({ nbf: String(s.clock.seconds()) }), HS_SECRET));
    // The hand-signing itself is right: the same token with a numeric exp is accepted.
    expect((await s.call('GET', '/whoami/hs', { headers: bearer(hmacJwt({ alg: 'HS256', typ: 'JWT' }, hsClaims(), HS_SECRET)) })).status).toBe(200);
  });

  it('a token that lives longer than the declared lifetime (1 h): 401 invalid_credential', async () => {
    await invalid('/whoami/hs', await signHs(hsClaims({ exp: s.clock.seconds() + 2 * 3600 })));
  });

  it('no subject, or a malformed scope claim: 401 invalid_credential', async () => {
    const { sub: _s, ...noSub } = hsClaims();
    await invalid('/whoami/hs', await signHs(noSub));
    await invalid('/whoami/hs', await signHs(hsClaims({ scope: ['notes:read'] })));
  });

  it('unknown kid: 401 invalid_credential', async () => {
    await invalid('/whoami/rs', await signRs(rs3, rsClaims()));
    await invalid('/whoami/rs', await signRs(rs1, rsClaims(), { kid: 'rs-9' }));
    // The right key under the other key's kid does not verify either.
    await invalid('/whoami/rs', await signRs(rs1, rsClaims(), { kid: 'rs-2' }));
  });

  it('no kid while the key set holds two keys: 401 invalid_credential', async () => {
    await invalid('/whoami/rs', await signRs(rs1, rsClaims(), { kid: null }));
    expect((await s.call('GET', '/whoami/rs', { headers: bearer(await signRs(rs1, rsClaims())) })).status).toBe(200);
  });

  it('a token from another service signed with a key it made up: 401 invalid_credential', async () => {
    await invalid('/whoami/svc', await signRs(rs1, claims(s.clock, { iss: 'https://notes.test/', aud: 'notes' })));
    await invalid('/whoami/machine', await signHs(claims(s.clock, { iss: 'https://notes.test/', aud: 'notes' })));
  });
});

describe('API keys and Basic users', () => {
  it('a failed request never reveals whether a key exists: unknown, wrong secret, garbled, wrong prefix and revoked answer alike', async () => {
    const bob = await createApiKey(s.storage, s.model, { subject: 'bob', scopes: ['notes:read'], scheme: 'key' });
    const [, keyId, secret] = /^nk_([0-9A-Za-z]{12})_(.+)$/.exec(bob.key)!;
    expect((await s.call('GET', '/whoami/key', { headers: { 'x-notes-key': bob.key } })).status).toBe(200);
    await revokeApiKey(s.storage, bob.id, s.clock.now);
    s.clock.advance(1_000);
    const attempts = [
      bob.key, // revoked, 1 s after revocation
      `nk_${'A'.repeat(12)}_${secret}`, // unknown key id
      `nk_${keyId}_${'x'.repeat(43)}`, // known id, wrong secret
      aliceKey.slice(0, -1), // truncated
      `sk_${aliceKey.slice(3)}`, // wrong prefix
      'garbage',
      '',
    ];
    const answers = [];
    for (const key of attempts) {
      const r = await s.call('GET', '/whoami/key', { headers: { 'x-notes-key': key } });
      refused(r, 401, 'invalid_credential');
      answers.push({ status: r.status, body: r.text, challenge: r.headers.get('www-authenticate'), type: r.headers.get('content-type') });
    }
    for (const a of answers) expect(a).toEqual(answers[0]);
  });

  it('Basic: wrong password, unknown user, garbled credentials: 401 invalid_credential', async () => {
    refused(await s.call('GET', '/whoami/basic', { headers: basic('carol', 'wrong horse') }), 401, 'invalid_credential');
    refused(await s.call('GET', '/whoami/basic', { headers: basic('nobody', 'correct horse battery') }), 401, 'invalid_credential');
    refused(await s.call('GET', '/whoami/basic', { headers: { authorization: 'Basic ###' } }), 401, 'invalid_credential');
    refused(
      await s.call('GET', '/whoami/basic', { headers: { authorization: `Basic ${Buffer.from('no-colon').toString('base64')}` } }),
      401,
      'invalid_credential',
    );
    refused(await s.call('GET', '/whoami/basic', { headers: { authorization: 'Basic' } }), 401, 'invalid_credential');
  });
});

describe('scopes', () => {
  it('a credential without a listed scope: 403 missing_scope; every listed scope is required', async () => {
    const reader = (await createApiKey(s.storage, s.model, { subject: 'rita', scopes: ['notes:read'], scheme: 'key' })).key;
    refused(await s.call('POST', '/notes', { body: { title: 'x' }, headers: { 'x-notes-key': reader } }), 403, 'missing_scope');
    // admin and notes:read are both listed: holding one is not enough.
    const admin = (await createApiKey(s.storage, s.model, { subject: 'ada', scopes: ['admin'], scheme: 'key' })).key;
    refused(await s.call('GET', '/whoami/admin', { headers: { 'x-notes-key': admin } }), 403, 'missing_scope');
    refused(await s.call('GET', '/whoami/admin', { headers: { 'x-notes-key': aliceKey } }), 403, 'missing_scope');
    const both = (await createApiKey(s.storage, s.model, { subject: 'ada', scopes: ['admin', 'notes:read'], scheme: 'key' })).key;
    expect((await s.call('GET', '/whoami/admin', { headers: { 'x-notes-key': both } })).status).toBe(200);
  });

  it('a bearer token short of a scope: 403 with RFC 6750 insufficient_scope', async () => {
    const r = await s.call('GET', '/whoami/admin', { headers: bearer(await signHs(hsClaims({ scope: 'notes:read' }))) });
    refused(r, 403, 'missing_scope');
    expect(r.headers.get('www-authenticate')).toBe('Bearer realm="Notes", error="insufficient_scope", scope="admin notes:read"');
    // `scp` (an array) is read as well as `scope`.
    expect((await s.call('GET', '/whoami/admin', { headers: bearer(await signHs(hsClaims({ scope: undefined, scp: ['admin', 'notes:read'] }))) })).status).toBe(
      200,
    );
  });

  it('public operations need nothing', async () => {
    expect(await s.call('GET', '/status')).toMatchObject({ status: 200, body: { ok: true } });
  });
});
