// JWTs, with jose: verifying bearer tokens (algorithms pinned, `exp` required, `nbf`/`iat` honoured within the
// declared clock tolerance, `iss`/`aud` checked whenever declared, keys from an operator secret or a local JWKS with
// `kid` selection) and signing the tokens the service's own token endpoint issues.

import { constants, createHmac, createPublicKey, timingSafeEqual, verify as verifySignature, type JsonWebKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  calculateJwkThumbprint,
  createLocalJWKSet,
  createRemoteJWKSet,
  errors,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { createDiagnostic, type DiagnosticCode } from '../../diagnostics/diagnostics-catalogue.js';
import type { Storage } from '../storage/storage-types.js';
import { randomId } from './auth-secrets.js';
import { getFastPaths } from '../../util/util-fast-paths.js';

/** Key material for verifying bearer tokens: a deployment setting, never part of the spec. */
export interface JwtKeyOptions {
  /** The HMAC secret for HS256/384/512 (at least 32 bytes). Never a PEM: a public key is not a secret. */
  secret?: string | Uint8Array;
  /** A local JWKS file (`{"keys": [...]}`) of public keys: RSA, EC or OKP; chosen by the token's `kid`. */
  jwksFile?: string;
  /** The same key set, already parsed. */
  jwks?: { keys: JWK[] };
  /** A JWKS URL (http or https), fetched and cached with jose's createRemoteJWKSet; refetched on an unknown `kid`. */
  jwksUrl?: string;
  /** An OpenID Connect issuer: its discovery document (`/.well-known/openid-configuration`) names the JWKS URL. */
  oidcIssuer?: string;
  /** How long a fetched key set is used before it is fetched again (jose's cacheMaxAge; default 10 minutes). */
  jwksCacheMaxAgeMs?: number;
  /** The least time between two fetches, so unknown `kid`s cannot make it fetch on every request (jose's cooldownDuration; default 30 s). */
  jwksCooldownMs?: number;
}

/** A remote key set: jose's RemoteJWKSet, and the URL it reads. */
export interface RemoteKeys {
  url: string;
  getKey: JWTVerifyGetKey;
}

/** How long the discovery document may take to arrive at start. */
const DISCOVERY_TIMEOUT_MS = 5_000;

/**
 * The remote key set the options name (a JWKS URL, or the one an OIDC issuer's discovery document names), or
 * undefined; throws KeyConfigError with a one-line reason (a bad URL, discovery unreachable or malformed).
 */
export async function loadRemoteKeys(options: JwtKeyOptions | undefined): Promise<RemoteKeys | undefined> {
  if (options?.jwksUrl === undefined && options?.oidcIssuer === undefined) return undefined;
  if (options.jwksUrl !== undefined && options.oidcIssuer !== undefined) throw new KeyConfigError('give a JWKS URL or an OIDC issuer, not both');
  const httpUrl = (text: string, what: string): URL => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new KeyConfigError(`the ${what} ${JSON.stringify(text.slice(0, 200))} is not a URL`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new KeyConfigError(`the ${what} ${url.href} is not an http or https URL`);
    return url;
  };
  let jwksUrl: URL;
  if (options.jwksUrl !== undefined) jwksUrl = httpUrl(options.jwksUrl, 'JWKS URL');
  else {
    const issuer = httpUrl(options.oidcIssuer!, 'OIDC issuer');
    // OpenID Connect Discovery 1.0 §4: the issuer with /.well-known/openid-configuration appended.
    const discovery = new URL(`${issuer.href.replace(/\/$/, '')}/.well-known/openid-configuration`);
    let doc: { issuer?: unknown; jwks_uri?: unknown };
    try {
      const r = await fetch(discovery, { signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS), redirect: 'error' });
      if (r.status !== 200) throw new Error(`it answered ${r.status}`);
      doc = (await r.json()) as typeof doc;
    } catch (err) {
      throw new KeyConfigError(`cannot read the OIDC discovery document ${discovery.href}: ${(err as Error).message}`);
    }
    // §4.3: the issuer it names must be the one asked for.
    if (doc === null || typeof doc !== 'object' || doc.issuer !== options.oidcIssuer)
      throw new KeyConfigError(`the OIDC discovery document ${discovery.href} names another issuer (${JSON.stringify(doc?.issuer)})`);
    if (typeof doc.jwks_uri !== 'string') throw new KeyConfigError(`the OIDC discovery document ${discovery.href} has no jwks_uri`);
    jwksUrl = httpUrl(doc.jwks_uri, 'jwks_uri');
  }
  const getKey = createRemoteJWKSet(jwksUrl, {
    ...(options.jwksCacheMaxAgeMs !== undefined ? { cacheMaxAge: options.jwksCacheMaxAgeMs } : {}),
    ...(options.jwksCooldownMs !== undefined ? { cooldownDuration: options.jwksCooldownMs } : {}),
  });
  return { url: jwksUrl.href, getKey };
}

/** Whether a verification failed because the remote key set could not be fetched (not because the token is bad). */
export function isKeySetUnreachable(err: unknown): boolean {
  if (err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid) return true;
  // fetch's own failures (refused, reset, DNS) are not jose errors; a non-200 answer is jose's generic error.
  if (!(err instanceof errors.JOSEError)) return true;
  return err.code === 'ERR_JOSE_GENERIC';
}

export const HMAC_ALGORITHMS = ['HS256', 'HS384', 'HS512'] as const;
/** The asymmetric algorithms the runtime verifies and can sign its own tokens with. */
export const ASYMMETRIC_ALGORITHMS = ['EdDSA', 'Ed25519', 'ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'] as const;
export const SUPPORTED_ALGORITHMS: readonly string[] = [...ASYMMETRIC_ALGORITHMS, ...HMAC_ALGORITHMS];

export const isHmac = (alg: string): boolean => (HMAC_ALGORITHMS as readonly string[]).includes(alg);

/** A configuration problem with key material (the service refuses to start on it). */
export class KeyConfigError extends Error {
  constructor(
    message: string,
    /** The diagnostic code, where the problem has one. */
    readonly code?: DiagnosticCode,
  ) {
    super(message);
    this.name = 'KeyConfigError';
  }
}

/** RFC 7518 §3.3: RSA keys of 2048 bits or more. */
export const MIN_RSA_BITS = 2048;

/** The size in bits of an RSA JWK's modulus `n` (base64url, big-endian); 0 when it is missing or unreadable. */
function rsaModulusBits(jwk: JWK): number {
  if (typeof jwk.n !== 'string' || !/^[A-Za-z0-9_-]+$/.test(jwk.n)) return 0;
  const bytes = Buffer.from(jwk.n, 'base64url');
  let i = 0;
  while (i < bytes.length && bytes[i] === 0) i++;
  if (i === bytes.length) return 0;
  return (bytes.length - i - 1) * 8 + (32 - Math.clz32(bytes[i]!));
}

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k', 'priv'];

/** The public part of a JWK (private members dropped). */
export function publicJwk(jwk: JWK): JWK {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(jwk)) if (!PRIVATE_MEMBERS.includes(k)) out[k] = v;
  return out as JWK;
}

/** Reads and checks the operator's key material; throws KeyConfigError with a one-line reason. */
export function loadKeyMaterial(options: JwtKeyOptions | undefined): { secret?: Uint8Array; keys: JWK[] } {
  const out: { secret?: Uint8Array; keys: JWK[] } = { keys: [] };
  if (options?.secret !== undefined) {
    const bytes = typeof options.secret === 'string' ? new TextEncoder().encode(options.secret) : options.secret;
    const text = new TextDecoder().decode(bytes);
    if (/-----BEGIN [A-Z ]*KEY-----/.test(text) || /^\s*\{/.test(text)) {
      throw new KeyConfigError('the JWT secret looks like a key (PEM or JWK); an HMAC secret must be random bytes, and public keys belong in a JWKS file');
    }
    if (bytes.length < 32) throw new KeyConfigError(`the JWT secret has ${bytes.length} bytes; HMAC secrets need at least 32`);
    out.secret = bytes;
  }
  const sets: { source: string; value: unknown }[] = [];
  if (options?.jwks !== undefined) sets.push({ source: 'the JWKS option', value: options.jwks });
  if (options?.jwksFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(options.jwksFile, 'utf8');
    } catch (err) {
      throw new KeyConfigError(`cannot read the JWKS file ${options.jwksFile}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    try {
      sets.push({ source: options.jwksFile, value: JSON.parse(text) as unknown });
    } catch {
      throw new KeyConfigError(`the JWKS file ${options.jwksFile} is not JSON`);
    }
  }
  for (const { source, value } of sets) {
    const keys = (value as { keys?: unknown } | null)?.keys;
    if (!Array.isArray(keys)) throw new KeyConfigError(`${source} is not a JWKS: it needs a "keys" array`);
    keys.forEach((k: unknown, i) => {
      const jwk = k as JWK | null;
      if (jwk === null || typeof jwk !== 'object' || typeof jwk.kty !== 'string') throw new KeyConfigError(`${source}: key ${i} is not a JWK`);
      if (jwk.kty === 'oct') throw new KeyConfigError(`${source}: key ${i} is a symmetric (oct) key; give an HMAC secret with the secret option instead`);
      if (!['RSA', 'EC', 'OKP'].includes(jwk.kty)) throw new KeyConfigError(`${source}: key ${i} has unsupported kty ${jwk.kty}`);
      if (jwk.alg !== undefined && !(ASYMMETRIC_ALGORITHMS as readonly string[]).includes(jwk.alg))
        throw new KeyConfigError(`${source}: key ${i} has unsupported alg ${jwk.alg}`);
      if (jwk.kty === 'RSA') {
        const bits = rsaModulusBits(jwk);
        if (bits < MIN_RSA_BITS) {
          const key = `${i}${typeof jwk.kid === 'string' ? ` (kid ${jwk.kid})` : ''}`;
          const d = createDiagnostic('weak-rsa-key', { source, key, bits, minimum: MIN_RSA_BITS });
          throw new KeyConfigError(`${d.code}: ${d.message}`, d.code);
        }
      }
      out.keys.push(publicJwk(jwk));
    });
  }
  return out;
}

/** The algorithms a key can verify: its `alg`, else what its type and curve allow. */
export function algorithmsForJwk(jwk: JWK): string[] {
  if (jwk.alg !== undefined) return [jwk.alg];
  if (jwk.kty === 'RSA') return ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'];
  if (jwk.kty === 'EC') return jwk.crv === 'P-256' ? ['ES256'] : jwk.crv === 'P-384' ? ['ES384'] : jwk.crv === 'P-521' ? ['ES512'] : [];
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return ['EdDSA', 'Ed25519'];
  return [];
}

// ---- the service's own signing keys --------------------------------------------------------------------------

export interface SigningKey {
  alg: string;
  kid: string;
  key: CryptoKey | Uint8Array;
  /** The public JWK (with kid and alg) for the verification key set; absent for HMAC. */
  publicJwk?: JWK;
}

const SETTING = (alg: string) => `auth_signing_key_${alg}`;

/**
 * The key the service signs its own tokens with. Asymmetric keys are generated once and kept in the storage's
 * settings (so tokens survive restarts and every instance sharing the database signs alike); HMAC uses the
 * operator's secret.
 */
export async function loadSigningKey(storage: Storage, alg: string, secret?: Uint8Array): Promise<SigningKey> {
  if (isHmac(alg)) {
    if (!secret) throw new KeyConfigError(`signing with ${alg} needs an operator-provided secret`);
    const kid = await calculateJwkThumbprint({ kty: 'oct', k: Buffer.from(secret).toString('base64url') });
    return { alg, kid, key: secret };
  }
  let stored = await storage.getSetting(SETTING(alg));
  if (stored === undefined) {
    const pair = await generateKeyPair(alg, { extractable: true, ...(alg.startsWith('RS') || alg.startsWith('PS') ? { modulusLength: 2048 } : {}) });
    const jwk = await exportJWK(pair.privateKey);
    const kid = await calculateJwkThumbprint(publicJwk(jwk));
    // When instances start together on one database, the first key stored is the one they all use.
    stored = await storage.claimSetting(SETTING(alg), JSON.stringify({ ...jwk, kid, alg }));
  }
  const jwk = JSON.parse(stored) as JWK & { kid: string };
  const key = (await importJWK(jwk, alg)) as CryptoKey;
  return { alg, kid: jwk.kid, key, publicJwk: { ...publicJwk(jwk), use: 'sig' } };
}

export interface IssuedToken {
  token: string;
  expiresIn: number;
}

/** Signs an RFC 9068 access token (`typ: at+jwt`). */
export async function signAccessToken(
  key: SigningKey,
  claims: { subject: string; clientId: string; scopes: readonly string[]; issuer?: string; audience?: string; lifetimeSeconds: number; now: Date },
): Promise<IssuedToken> {
  const iat = Math.floor(claims.now.getTime() / 1000);
  const jwt = new SignJWT({ client_id: claims.clientId, scope: claims.scopes.join(' ') })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'at+jwt' })
    .setSubject(claims.subject)
    .setIssuedAt(iat)
    .setNotBefore(iat)
    .setExpirationTime(iat + claims.lifetimeSeconds)
    .setJti(randomId(22));
  if (claims.issuer !== undefined) jwt.setIssuer(claims.issuer);
  if (claims.audience !== undefined) jwt.setAudience(claims.audience);
  return { token: await jwt.sign(key.key), expiresIn: claims.lifetimeSeconds };
}

// ---- verification --------------------------------------------------------------------------------------------

export interface JwtVerifierConfig {
  algorithms: readonly string[];
  issuer?: string;
  audience?: string;
  /** The declared lifetime: a token may not live longer (from its iat, else nbf, else now). */
  lifetimeSeconds?: number;
  toleranceSeconds: number;
  secret?: Uint8Array;
  /** Public keys, chosen by `kid` (a token without `kid` is accepted only when exactly one key fits). */
  keys: readonly JWK[];
  now: () => Date;
  /** Verified tokens kept (least recently used evicted first, approximately) so a token presented again is not re-verified; 0 turns the cache off. */
  cacheSize: number;
  /** false: every token through jose (tests compare the two); by default the common case is verified with node:crypto. */
  nodeCrypto?: boolean;
  /** A remote key set (a JWKS URL, OIDC): asked for asymmetric keys the local ones do not have. */
  remote?: JWTVerifyGetKey;
}

export type JwtResult =
  { ok: true; subject: string; scopes: string[] } | { ok: false; condition: 'invalid_credential' | 'expired_credential' | 'unavailable'; reason: string };

interface Verified {
  subject: string;
  scopes: string[];
  exp: number;
  nbf?: number;
  iat?: number;
  /** The cache's clock (insertions and moves) when this entry was last put at the recent end. */
  touched: number;
  /** The answer given for it while its time claims hold (one object, so what is keyed on it is built once). */
  ok: JwtResult & { ok: true };
}

/** Longer tokens are refused without parsing (no real access token is this long). */
const MAX_TOKEN_LENGTH = 16 * 1024;

/** `scope` (a space-separated string) and `scp` (a string or an array of strings), each scope once; undefined when malformed. */
function readScopes(payload: JWTPayload): string[] | undefined {
  const { scope, scp } = payload as { scope?: unknown; scp?: unknown };
  const out: string[] = [];
  if (scope !== undefined) {
    if (typeof scope !== 'string') return undefined;
    splitScopes(out, scope);
  }
  if (scp !== undefined) {
    if (typeof scp === 'string') splitScopes(out, scp);
    else if (Array.isArray(scp) && scp.every((s) => typeof s === 'string')) out.push(...(scp as string[]));
    else return undefined;
  }
  if (out.length < 2) return out;
  // Each scope once, in first-seen order (a quadratic scan only for the usual few).
  if (out.length > 16) return [...new Set(out)];
  for (let i = 1; i < out.length; i++) if (out.lastIndexOf(out[i]!, i - 1) !== -1) return [...new Set(out)];
  return out;
}

/** The non-empty space-separated parts of text, appended to out. */
function splitScopes(out: string[], text: string): void {
  let from = 0;
  for (let i = text.indexOf(' '); i !== -1; i = text.indexOf(' ', from)) {
    if (i > from) out.push(text.slice(from, i));
    from = i + 1;
  }
  if (from < text.length) out.push(text.slice(from));
}

const HASH_OF: Readonly<Record<string, string>> = { '256': 'sha256', '384': 'sha384', '512': 'sha512' };
const KTY_OF = (alg: string): string | undefined =>
  alg.startsWith('RS') || alg.startsWith('PS') ? 'RSA' : alg.startsWith('ES') ? 'EC' : alg === 'EdDSA' || alg === 'Ed25519' ? 'OKP' : undefined;
const CRV_OF: Readonly<Record<string, string>> = { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521', EdDSA: 'Ed25519', Ed25519: 'Ed25519' };

/** How the tokens with one header are checked: the HMAC hash, or the key (with its options) and hash for crypto.verify. */
type HeaderPlan =
  | { hmac: string }
  | { hash: string | null; key: KeyObject | { key: KeyObject; padding: number; saltLength: number } | { key: KeyObject; dsaEncoding: 'ieee-p1363' } };

/** Headers remembered per verifier (their plans); an issuer signs every token with the same few headers. */
const HEADER_PLANS = 64;

/**
 * The common case verified synchronously with node:crypto (OpenSSL), as jose would: a compact JWS whose header names
 * an accepted algorithm and no `crit`, and exactly one key that fits it by jose's rules for a local key set (kty,
 * kid, alg, use, key_ops, crv). Undefined for anything else, which jose then verifies (and refuses as it does).
 * A header's plan depends on its text alone, so it is worked out once per header text: a token costs the decoding
 * of its payload and signature, the signature check and the claims.
 */
function createFastVerify(config: JwtVerifierConfig): (token: string) => { payload: JWTPayload } | { failed: string } | undefined {
  const keys = config.keys.map((jwk) => {
    try {
      return { jwk, key: createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' }) };
    } catch {
      return undefined;
    }
  });
  const fits = (jwk: JWK, alg: string, kid: unknown): boolean => {
    if (jwk.kty !== KTY_OF(alg)) return false;
    if (typeof kid === 'string' && kid !== jwk.kid) return false;
    if (typeof jwk.alg === 'string' && jwk.alg !== alg) return false;
    if (typeof jwk.use === 'string' && jwk.use !== 'sig') return false;
    if (Array.isArray(jwk.key_ops) && !jwk.key_ops.includes('verify')) return false;
    const crv = CRV_OF[alg];
    return crv === undefined || jwk.crv === crv;
  };
  const decode = (part: string): unknown => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  const planFor = (encodedHeader: string): HeaderPlan | undefined => {
    let header: { alg?: unknown; kid?: unknown; crit?: unknown; b64?: unknown };
    try {
      header = decode(encodedHeader) as typeof header;
    } catch {
      return undefined;
    }
    if (header === null || typeof header !== 'object') return undefined;
    const alg = header.alg;
    if (typeof alg !== 'string' || !config.algorithms.includes(alg) || header.crit !== undefined || header.b64 !== undefined) return undefined;
    const hash = HASH_OF[alg.slice(2)];
    if (isHmac(alg)) return config.secret && hash !== undefined ? { hmac: hash } : undefined;
    let key: KeyObject | undefined;
    for (const k of keys) {
      if (!k || !fits(k.jwk, alg, header.kid)) continue;
      if (key) return undefined; // more than one fits: jose's rules decide
      key = k.key;
    }
    if (!key) return undefined;
    if (alg.startsWith('RS')) return { hash: hash!, key };
    if (alg.startsWith('PS')) return { hash: hash!, key: { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST } };
    if (alg.startsWith('ES')) return { hash: hash!, key: { key, dsaEncoding: 'ieee-p1363' } };
    return { hash: null, key };
  };
  // Only headers that resolve to a plan are kept (at most HEADER_PLANS, the oldest dropped first).
  const plans = new Map<string, HeaderPlan>();
  return (token) => {
    const a = token.indexOf('.');
    const b = token.indexOf('.', a + 1);
    if (a <= 0 || b <= a + 1 || token.indexOf('.', b + 1) !== -1 || b === token.length - 1) return undefined;
    const encodedHeader = token.slice(0, a);
    let plan = plans.get(encodedHeader);
    if (plan === undefined) {
      plan = planFor(encodedHeader);
      if (plan === undefined) return undefined;
      if (plans.size >= HEADER_PLANS) plans.delete(plans.keys().next().value!);
      plans.set(encodedHeader, plan);
    }
    let payload: unknown;
    try {
      payload = decode(token.slice(a + 1, b));
    } catch {
      return undefined;
    }
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return undefined;
    const data = token.slice(0, b);
    const signature = Buffer.from(token.slice(b + 1), 'base64url');
    let ok: boolean;
    if ('hmac' in plan) {
      const expected = createHmac(plan.hmac, config.secret!).update(data).digest();
      ok = expected.length === signature.length && timingSafeEqual(expected, signature);
    } else ok = verifySignature(plan.hash, Buffer.from(data), plan.key, signature);
    if (!ok) return { failed: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' };
    // The claims jwtVerify checks with these options (the time claims and the lifetime are checked after).
    const p = payload as JWTPayload;
    if (typeof p.exp !== 'number' || (p.nbf !== undefined && typeof p.nbf !== 'number') || (p.iat !== undefined && typeof p.iat !== 'number'))
      return { failed: 'ERR_JWT_CLAIM_VALIDATION_FAILED' };
    if (config.issuer !== undefined && p.iss !== config.issuer) return { failed: 'ERR_JWT_CLAIM_VALIDATION_FAILED' };
    if (config.audience !== undefined && !(p.aud === config.audience || (Array.isArray(p.aud) && p.aud.includes(config.audience))))
      return { failed: 'ERR_JWT_CLAIM_VALIDATION_FAILED' };
    return { payload: p };
  };
}

/**
 * Checks a bearer JWT against one scheme's declared rules. Never throws. Answers at once for a token in its cache
 * or one node:crypto verifies (createFastVerify), else through jose's promise.
 */
export function createJwtVerifier(config: JwtVerifierConfig): (token: string) => JwtResult | Promise<JwtResult> {
  const jwks = config.keys.length > 0 ? createLocalJWKSet({ keys: [...config.keys] }) : undefined;
  const getKey: JWTVerifyGetKey = async (header, token) => {
    const alg = header.alg ?? '';
    // HMAC only ever with the operator's secret: a public key can never be used as an HMAC secret.
    if (isHmac(alg)) {
      if (!config.secret) throw new errors.JWKSNoMatchingKey();
      return config.secret;
    }
    if (!config.remote) {
      if (!jwks) throw new errors.JWKSNoMatchingKey();
      return jwks(header, token);
    }
    if (jwks) {
      try {
        return await jwks(header, token);
      } catch {
        // not a local key: the remote set's
      }
    }
    return config.remote(header, token);
  };
  const tol = config.toleranceSeconds;
  const cache = new Map<string, Verified>();
  let clock = 0;
  const nowSeconds = () => config.now().getTime() / 1000;

  const timeCheck = (v: Verified, now: number): JwtResult => {
    if (v.nbf !== undefined && v.nbf > now + tol) return { ok: false, condition: 'invalid_credential', reason: 'the token is not valid yet (nbf)' };
    if (v.iat !== undefined && v.iat > now + tol) return { ok: false, condition: 'invalid_credential', reason: 'the token was issued in the future (iat)' };
    if (v.exp <= now - tol) return { ok: false, condition: 'expired_credential', reason: 'the token has expired' };
    return v.ok;
  };

  // node:crypto's verify is a fast path; jose alone is its plain counterpart (SERVICESPEC_FAST_PATHS=off).
  const fast = (config.nodeCrypto ?? getFastPaths()) ? createFastVerify(config) : () => undefined;
  const accept = (token: string, payload: JWTPayload, now: number): JwtResult => {
    const subject = payload.sub;
    if (typeof subject !== 'string' || subject === '' || subject.length > 256)
      return { ok: false, condition: 'invalid_credential', reason: 'the token names no subject (sub)' };
    const scopes = readScopes(payload);
    if (!scopes) return { ok: false, condition: 'invalid_credential', reason: 'the token has a malformed scope claim' };
    const v: Verified = { subject, scopes, exp: payload.exp!, touched: 0, ok: Object.freeze({ ok: true as const, subject, scopes }) };
    if (payload.nbf !== undefined) v.nbf = payload.nbf;
    if (payload.iat !== undefined) v.iat = payload.iat;
    if (config.lifetimeSeconds !== undefined) {
      const start = v.iat ?? v.nbf ?? now;
      if (v.exp - start > config.lifetimeSeconds + tol)
        return { ok: false, condition: 'invalid_credential', reason: 'the token lives longer than the declared lifetime' };
    }
    const r = timeCheck(v, now);
    if (r.ok && config.cacheSize > 0) {
      if (cache.size >= config.cacheSize) cache.delete(cache.keys().next().value!);
      v.touched = ++clock;
      cache.set(token, v);
    }
    return r;
  };

  const slow = async (token: string): Promise<JwtResult> => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, getKey, {
        algorithms: [...config.algorithms],
        requiredClaims: ['exp'],
        clockTolerance: tol,
        currentDate: config.now(),
        ...(config.issuer !== undefined ? { issuer: config.issuer } : {}),
        ...(config.audience !== undefined ? { audience: config.audience } : {}),
      }));
    } catch (err) {
      if (err instanceof errors.JWTExpired) return { ok: false, condition: 'expired_credential', reason: 'the token has expired' };
      // The key server is down or answers nonsense: not the token's fault, so not a failed credential.
      if (config.remote && isKeySetUnreachable(err)) return { ok: false, condition: 'unavailable', reason: 'the key set cannot be fetched' };
      const code = (err as { code?: string }).code;
      return { ok: false, condition: 'invalid_credential', reason: typeof code === 'string' ? code : 'the token could not be verified' };
    }
    return accept(token, payload, nowSeconds());
  };

  return (token) => {
    if (token.length > MAX_TOKEN_LENGTH) return { ok: false, condition: 'invalid_credential', reason: 'the token is too long' };
    const cached = config.cacheSize > 0 ? cache.get(token) : undefined;
    if (cached) {
      const r = timeCheck(cached, nowSeconds());
      if (!r.ok) {
        cache.delete(token);
        return r;
      }
      // Recently used goes last; the oldest is evicted first, after cacheSize insertions. An entry moved within the
      // last quarter of that is not moved again, so most hits cost one lookup, and a token used at least once every
      // cacheSize / 2 new tokens is still never evicted (moved by the first use more than a quarter after its move).
      if (clock - cached.touched > config.cacheSize >> 2) {
        cache.delete(token);
        cached.touched = ++clock;
        cache.set(token, cached);
      }
      return cached.ok;
    }
    const quick = fast(token);
    if (quick === undefined) return slow(token);
    if ('failed' in quick) return { ok: false, condition: 'invalid_credential', reason: quick.failed };
    // exp is checked as jwtVerify checks it (expired past the tolerance); nbf and iat by timeCheck in accept.
    const now = nowSeconds();
    if (quick.payload.exp! <= now - tol) return { ok: false, condition: 'expired_credential', reason: 'the token has expired' };
    return accept(token, quick.payload, now);
  };
}
