import { createHash } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { readAuthorization } from '../../src/runtime/auth/auth-authenticator.js';
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
      // Scopes: repeated, empty parts, both claims, many (each scope once, in first-seen order, by either path).
      await sign(rs.privateKey, { alg: 'RS256', kid: 'rs' }, { ...good, scope: ' a  b a ' }),
      await sign(rs.privateKey, { alg: 'RS256', kid: 'rs' }, { ...good, scope: 'c a', scp: ['b', 'a', 'b', ''] }),
      await sign(rs.privateKey, { alg: 'RS256', kid: 'rs' }, { ...good, scope: undefined, scp: 'x y x' }),
      await sign(rs.privateKey, { alg: 'RS256', kid: 'rs' }, { ...good, scope: Array.from({ length: 40 }, (_, i) => `s${i % 25}`).join(' ') }),
      await sign(rs.privateKey, { alg: 'RS256', kid: 'rs' }, { ...good, scope: '', scp: [] }),
      await sign(rs.privateKey, { alg: 'RS256', kid: 'rs' }, { ...good, scp: ['a', 1] }),
    ];
    const signed = tokens[0]!;
    const [h, p] = signed.split('.');
    tokens.push(`${h}.${p}.${createHash('sha256').update('x').digest('base64url')}`); // forged signature
    tokens.push(`${h}.${Buffer.from(JSON.stringify({ ...good, sub: 'admin' })).toString('base64url')}.${signed.split('.')[2]}`); // payload swapped
    tokens.push(`${Buffer.from(JSON.stringify({ alg: 'HS256', kid: 'rs' })).toString('base64url')}.${p}.${signed.split('.')[2]}`); // alg confusion
    tokens.push(`${Buffer.from(JSON.stringify({ alg: 'RS256', kid: 'rs', crit: ['exp'] })).toString('base64url')}.${p}.${signed.split('.')[2]}`); // crit
    tokens.push('not-a-token', `${h}.${p}`, `${h}..${signed.split('.')[2]}`);
    // The fast path under test, whatever SERVICESPEC_FAST_PATHS says (off, jose alone verifies every token).
    const fast = createJwtVerifier({ ...base, nodeCrypto: true });
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

  it('works out a header once and still checks every token that carries it', async () => {
    const rs = await keyPair('RS256', 'rs');
    const config: JwtVerifierConfig = {
      algorithms: ['RS256', 'HS256'],
      toleranceSeconds: 0,
      secret,
      keys: [rs.jwk],
      now: () => NOW,
      cacheSize: 0,
      nodeCrypto: true,
    };
    const verify = createJwtVerifier(config);
    const claims = { sub: 'user-1', scope: 'a', exp: t + 600 };
    const valid = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'rs' }).sign(rs.privateKey);
    const [h, , sig] = valid.split('.');
    expect(verify(valid)).toEqual({ ok: true, subject: 'user-1', scopes: ['a'] });
    // Same header (its plan remembered): another payload under the old signature, a garbled signature, an expired token.
    const swapped = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'admin' })).toString('base64url')}.${sig}`;
    expect(verify(swapped)).toMatchObject({ ok: false, condition: 'invalid_credential' });
    expect(verify(`${valid.slice(0, -4)}AAAA`)).toMatchObject({ ok: false, condition: 'invalid_credential' });
    const expired = await new SignJWT({ ...claims, exp: t - 1 }).setProtectedHeader({ alg: 'RS256', kid: 'rs' }).sign(rs.privateKey);
    expect(verify(expired)).toMatchObject({ ok: false, condition: 'expired_credential' });
    // A header with no key is not remembered: it goes to jose, and is refused there, every time.
    const noKey = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'other' }).sign(rs.privateKey);
    for (let i = 0; i < 2; i++) expect(await verify(noKey)).toMatchObject({ ok: false, condition: 'invalid_credential' });
    // More headers than are remembered (64): each still verifies, before and after being dropped.
    const many = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        new SignJWT({ ...claims, sub: `u${i}` }).setProtectedHeader({ alg: 'HS256', n: i } as { alg: string }).sign(secret),
      ),
    );
    for (const round of [0, 1]) {
      many.forEach((token, i) => {
        const r = verify(token);
        expect(r instanceof Promise, `round ${round}, token ${i}`).toBe(false);
        expect(r).toEqual({ ok: true, subject: `u${i}`, scopes: ['a'] });
      });
    }
    expect(verify(valid)).toEqual({ ok: true, subject: 'user-1', scopes: ['a'] });
  });
});

describe('the verified-token cache', () => {
  const sign = (sub: string, exp = t + 600) => new SignJWT({ sub, scope: 'a', exp }).setProtectedHeader({ alg: 'HS256' }).sign(secret);

  it('answers a remembered token with the same result (one object) until it expires, and evicts the least recently used', async () => {
    let now = NOW;
    const verify = createJwtVerifier({ algorithms: ['HS256'], toleranceSeconds: 0, secret, keys: [], now: () => now, cacheSize: 8, nodeCrypto: true });
    const hot = await sign('hot');
    const cold = await sign('cold');
    const first = verify(hot);
    expect(first).toEqual({ ok: true, subject: 'hot', scopes: ['a'] });
    expect(verify(hot)).toBe(first);
    expect(verify(cold)).toEqual({ ok: true, subject: 'cold', scopes: ['a'] });
    const coldResult = verify(cold);
    // 40 new tokens, the hot one used after every fourth (cacheSize / 2): it stays; the cold one (unused) is evicted.
    for (let i = 0; i < 40; i++) {
      expect(verify(await sign(`n${i}`))).toMatchObject({ ok: true, subject: `n${i}` });
      if (i % 4 === 3) expect(verify(hot), `after ${i}`).toBe(first);
    }
    const again = verify(cold);
    expect(again).toEqual(coldResult);
    expect(again).not.toBe(coldResult); // verified afresh
    // Expired: refused at once, though remembered.
    now = new Date(NOW.getTime() + 601_000);
    expect(verify(hot)).toMatchObject({ ok: false, condition: 'expired_credential' });
  });
});

describe('the Authorization header', () => {
  // The regex it replaced (per request), kept here as the reference.
  const reference = (h: unknown) => {
    if (typeof h !== 'string') return undefined;
    const m = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?:[ \t]+(.*))?$/s.exec(h.trim());
    if (!m) return undefined;
    return { scheme: m[1]!.toLowerCase(), credentials: (m[2] ?? '').trim() };
  };

  it('reads scheme and credentials as the regex did, for any value', () => {
    const values: unknown[] = [
      undefined,
      ['Bearer x'],
      '',
      ' ',
      'Bearer',
      'bearer abc',
      'BEARER \t abc.def.ghi  ',
      ' Basic dXNlcjpwdw==',
      'Bearer\tx',
      'Bearer\nx',
      'Bearer,x',
      'Be(arer x',
      "!#$%&'*+.^_`|~-9Az x y",
      'Bearer x\ny',
      'Bearer \u00a0x\u00a0',
      'Bëarer x',
      '\u00a0Bearer x',
    ];
    const alphabet = ['B', 'e', 'a', 'r', ' ', '\t', '\n', '\r', ',', '=', '.', '-', '(', '\u00a0', 'é', '~', '"'];
    let seed = 19;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 3000; i++) values.push(Array.from({ length: next() % 12 }, () => alphabet[next() % alphabet.length]).join(''));
    for (const v of values) expect([v, readAuthorization({ headers: { authorization: v } } as never)]).toEqual([v, reference(v)]);
  });
});
