// Bearer JWTs verified with keys from a JWKS URL or an OIDC issuer's discovery document (issue 29 item 6): a key
// server on 127.0.0.1 that rotates its keys; jose's createRemoteJWKSet caches the set and fetches it again on an
// unknown kid, at most once per cooldown; an unreachable key server answers unavailable (503), never 500.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../events/helpers.js';
import { bearer, claims, createClock, makeRsaKey, signRs, startAuthService, type AuthServer, type RsaKey } from './helpers.js';

interface KeyServer {
  url: string;
  keys: RsaKey[];
  /** Fetches of the JWKS so far. */
  fetches: number;
  close(): Promise<void>;
}

async function startKeyServer(keys: RsaKey[]): Promise<KeyServer> {
  const ks: KeyServer = { url: '', keys, fetches: 0, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    if (req.url === '/jwks.json') {
      ks.fetches++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: ks.keys.map((k) => k.publicJwk) }));
    } else if (req.url === '/.well-known/openid-configuration') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ issuer: ks.url, jwks_uri: `${ks.url}/jwks.json` }));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  ks.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ks.close = () => new Promise((done) => server.close(() => done()));
  return ks;
}

const RS = { iss: 'https://rs.test/', aud: 'notes' };

describe('keys from a JWKS URL', { timeout: 60_000 }, () => {
  let ks: KeyServer;
  let a: RsaKey;
  let b: RsaKey;
  let s: AuthServer;
  const clock = createClock();
  beforeAll(async () => {
    a = await makeRsaKey('key-a');
    b = await makeRsaKey('key-b');
    ks = await startKeyServer([a]);
    // A short cache and cooldown so rotation is seen within the test; the verified-token cache off.
    s = await startAuthService({ clock, auth: { jwt: { jwksUrl: `${ks.url}/jwks.json`, jwksCacheMaxAgeMs: 300, jwksCooldownMs: 100 }, tokenCacheSize: 0 } });
  });
  afterAll(async () => {
    await s.close();
    await ks.close();
  });

  it('verifies with the fetched key, picks up a new kid after rotation, and refuses the old key once the cache has passed', async () => {
    const oldToken = await signRs(a, claims(clock, RS));
    const ok = await s.call('GET', '/whoami/rs', { headers: bearer(oldToken) });
    expect([ok.status, ok.body.subject]).toEqual([200, 'alice']);
    ks.keys = [b];
    const newToken = await signRs(b, claims(clock, { ...RS, sub: 'bob' }));
    // An unknown kid makes it fetch again (once the cooldown has passed).
    const picked = await until(async () => {
      const r = await s.call('GET', '/whoami/rs', { headers: bearer(newToken) });
      return r.status === 200 ? r : undefined;
    });
    expect(picked.body.subject).toBe('bob');
    // The old key is gone from the set: refused once the cached set has been replaced.
    const refused = await until(async () => {
      const r = await s.call('GET', '/whoami/rs', { headers: bearer(oldToken) });
      return r.status === 401 ? r : undefined;
    });
    expect(refused.body.code).toBe('invalid_credential');
  });
});

describe('unknown kids fetch at most once per cooldown', { timeout: 60_000 }, () => {
  it('many tokens with unknown kids cause one fetch, not one each', async () => {
    const a = await makeRsaKey('known');
    const ks = await startKeyServer([a]);
    const clock = createClock();
    const s = await startAuthService({ clock, auth: { jwt: { jwksUrl: `${ks.url}/jwks.json`, jwksCooldownMs: 60_000 }, tokenCacheSize: 0 } });
    try {
      expect((await s.call('GET', '/whoami/rs', { headers: bearer(await signRs(a, claims(clock, RS))) })).status).toBe(200);
      const before = ks.fetches;
      const stranger = await makeRsaKey('stranger');
      for (let i = 0; i < 5; i++) {
        const r = await s.call('GET', '/whoami/rs', { headers: bearer(await signRs(stranger, claims(clock, RS), { kid: `unknown-${i}` })) });
        expect(r.body.code).toBe('invalid_credential');
      }
      expect(ks.fetches - before).toBeLessThanOrEqual(1);
    } finally {
      await s.close();
      await ks.close();
    }
  });
});

describe('keys from an OIDC issuer, and a key server that cannot be reached', { timeout: 60_000 }, () => {
  it("reads the discovery document's jwks_uri", async () => {
    const a = await makeRsaKey('oidc');
    const ks = await startKeyServer([a]);
    const clock = createClock();
    const s = await startAuthService({ clock, auth: { jwt: { oidcIssuer: ks.url }, tokenCacheSize: 0 } });
    try {
      const r = await s.call('GET', '/whoami/rs', { headers: bearer(await signRs(a, claims(clock, RS))) });
      expect([r.status, r.body.subject]).toEqual([200, 'alice']);
    } finally {
      await s.close();
      await ks.close();
    }
  });

  it('answers unavailable (503, Retry-After) when the JWKS cannot be fetched, not 500 or invalid_credential', async () => {
    const ks = await startKeyServer([]);
    const dead = `${ks.url}/jwks.json`;
    await ks.close();
    const clock = createClock();
    const a = await makeRsaKey('any');
    const s = await startAuthService({ clock, auth: { jwt: { jwksUrl: dead }, tokenCacheSize: 0 } });
    try {
      const r = await s.call('GET', '/whoami/rs', { headers: bearer(await signRs(a, claims(clock, RS))) });
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('1');
    } finally {
      await s.close();
    }
  });

  it('refuses to start when the discovery document cannot be read', async () => {
    const ks = await startKeyServer([]);
    const issuer = ks.url;
    await ks.close();
    const err = await startAuthService({ auth: { jwt: { oidcIssuer: issuer } } }).catch((e: unknown) => e);
    expect((err as Error).message).toContain(`cannot read the OIDC discovery document ${issuer}/.well-known/openid-configuration`);
  });
});
