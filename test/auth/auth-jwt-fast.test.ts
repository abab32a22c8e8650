import { createHash } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { createJwtVerifier, type JwtResult, type JwtVerifierConfig } from '../../src/runtime/auth/auth-jwt.js';

// Issue 19 item 3: the common case of a bearer JWT is verified synchronously with node:crypto; every token here
// gets the same answer from that path as from jose's (the cache off, so each token is verified).
const NOW = new Date('2026-11-23T12:00:00Z');
const t = Math.floor(NOW.getTime() / 1000);
const secret = new TextEncoder().encode('a-shared-secret-of-enough-length-for-hs256');

async function keyPair(alg: string, kid: string) {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg } as JWK;
  return { jwk, privateKey };
}

describe('bearer JWT verification with node:crypto', () => {
  it('answers as jose does, at once, for valid, forged, mis-claimed and unusual tokens', async () => {
    const rs = await keyPair('RS256', 'rs');
    const es = await keyPair('ES256', 'es');
    const ps = await keyPair('PS256', 'ps');
    const ed = await keyPair('EdDSA', 'ed');
    const other = await keyPair('RS256', 'rs');
    const base: Omit<JwtVerifierConfig, 'nodeCrypto'> = {
      algorithms: ['RS256', 'ES256', 'PS256', 'EdDSA', 'HS256'],
      issuer: 'https://id.example.com/',
      audience: 'api',
      lifetimeSeconds: 3600,
      toleranceSeconds: 30,
      secret,
      keys: [rs.jwk, es.jwk, ps.jwk, ed.jwk],
      now: () => NOW,
      cacheSize: 0,
    };
    const sign = (key: CryptoKey | Uint8Array, header: Record<string, unknown>, claims: Record<string, unknown>) =>
      new SignJWT(claims).setProtectedHeader(header as { alg: string }).sign(key);
    const good = { sub: 'user-1', scope: 'a b', iss: 'https://id.example.com/', aud: 'api', iat: t - 10, exp: t + 600 };
    const tokens: string[] = [
      await sign(rs.privateKey, { alg: 'RS256', kid: 'rs' }, good),
      await sign(es.privateKey, { alg: 'ES256', kid: 'es' }, good),
      await sign(ps.privateKey, { alg: 'PS256', kid: 'ps' }, good),
      await sign(ed.privateKey, { alg: 'EdDSA', kid: 'ed' }, good),
      await sign(secret, { alg: 'HS256' }, good),
      await sign(rs.privateKey, { alg: 'RS256' }, good), // no kid: the one RSA key with alg RS256 fits
      await sign(other.privateKey, { alg: 'RS256', kid: 'rs' }, good), // signed by another key with the same kid
      await sign(rs.privateKey, { alg: 'RS256', kid: 'nope' }, good), // no key with that kid
      await sign(rs.privateKey, { alg: 'RS256', kid: 'rs' }, { ...good, iss: 'https://evil.example.com/' }),
      await sign(rs.privateKey, { alg: 'RS256', kid: 'rs' }, { ...good, aud: ['x', 'api'] }),
      await sign(rs.privateKey, { alg: 'RS256', kid: 'rs' }, { ...good, aud: 'other' }),
      await sign(rs.privateKey, { alg: 'RS256', kid: 'rs' }, { ...good, exp: t - 31 }), // expired past the tolerance
      await sign(rs.privateKey, { alg: 'RS256', kid: 'rs' }, { ...good, exp: t - 29 }), // within it
      await sign(rs.privateKey, { alg: 'RS256', kid: 'rs' }, { ...good, nbf: t + 100 }),
      await sign(rs.privateKey, { alg: 'RS256', kid: 'rs' }, { ...good, exp: undefined }),
      await sign(rs.privateKey, { alg: 'RS256', kid: 'rs' }, { ...good, exp: String(t + 600) }),
      await sign(rs.privateKey, { alg: 'RS256', kid: 'rs' }, { ...good, exp: t + 7200 }), // longer than the lifetime
      await sign(rs.privateKey, { alg: 'RS256', kid: 'rs' }, { ...good, sub: '' }),
      await sign(rs.privateKey, { alg: 'RS256', kid: 'rs' }, { ...good, scope: 3 }),
      await sign(es.privateKey, { alg: 'ES256', kid: 'rs' }, good), // kid of a key of another type
    ];
    const signed = tokens[0]!;
    const [h, p] = signed.split('.');
    tokens.push(`${h}.${p}.${createHash('sha256').update('x').digest('base64url')}`); // forged signature
    tokens.push(`${h}.${Buffer.from(JSON.stringify({ ...good, sub: 'admin' })).toString('base64url')}.${signed.split('.')[2]}`); // payload swapped
    tokens.push(`${Buffer.from(JSON.stringify({ alg: 'HS256', kid: 'rs' })).toString('base64url')}.${p}.${signed.split('.')[2]}`); // alg confusion
    tokens.push(`${Buffer.from(JSON.stringify({ alg: 'RS256', kid: 'rs', crit: ['exp'] })).toString('base64url')}.${p}.${signed.split('.')[2]}`); // crit
    tokens.push('not-a-token', `${h}.${p}`, `${h}..${signed.split('.')[2]}`);
    const fast = createJwtVerifier(base);
    const viaJose = createJwtVerifier({ ...base, nodeCrypto: false });
    const summary = (r: JwtResult) => (r.ok ? `ok ${r.subject} ${r.scopes.join(' ')}` : r.condition);
    let atOnce = 0;
    for (const token of tokens) {
      const a = fast(token);
      if (!(a instanceof Promise)) atOnce++;
      expect([token.slice(0, 40), summary(await a)]).toEqual([token.slice(0, 40), summary(await viaJose(token))]);
    }
    // The valid tokens of every algorithm (and the forgeries) were answered without a promise.
    expect(atOnce).toBeGreaterThanOrEqual(15);
  });
});
