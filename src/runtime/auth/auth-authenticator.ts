// The runtime's Authenticator: checks the credential a request carries against an operation's requirement,
// exactly as the spec's schemes declare them, and answers failures with the condition vocabulary.
//
//   - any one of the requirement's schemes is enough; every listed scope is required;
//   - no credential for any of them → missing_credential; a credential that fails → invalid_credential (or
//     expired_credential for a token past its `exp`); scopes short → missing_scope;
//   - 401s carry `WWW-Authenticate` with one challenge per acceptable scheme (see docs/auth.md).

import type { FastifyRequest } from 'fastify';
import type { JWK } from 'jose';
import type { DiagnosticCode } from '../../diagnostics/diagnostics-catalogue.js';
import type { AuthRequirement, CheckedModel, SchemeModel, ServiceModel } from '../../model/model-types.js';
import { getUncheckedProblem } from '../../model/model-checked.js';
import type { Authenticator, Principal } from '../runtime-context.js';
import { holdsScopes } from '../runtime-access.js';
import { ServiceError } from '../runtime-errors.js';
import { andThen, isPending } from '../runtime-steps.js';
import type { RuntimeGap } from '../runtime-built-in.js';
import type { CredentialRecord, Storage } from '../storage/storage-types.js';
import { createFailureBoundFor, failedAuthRefusal, type FailureBound } from './auth-attempts.js';
import { checkApiKey, checkBasicUser, parseApiKey } from './auth-credentials.js';
import { ownValue } from '../../util/util-own.js';
import { getFastPaths } from '../../util/util-fast-paths.js';
import {
  algorithmsForJwk,
  ASYMMETRIC_ALGORITHMS,
  createJwtVerifier,
  isHmac,
  KeyConfigError,
  loadKeyMaterial,
  loadRemoteKeys,
  loadSigningKey,
  signAccessToken,
  SUPPORTED_ALGORITHMS,
  type IssuedToken,
  type JwtKeyOptions,
  type JwtResult,
  type SigningKey,
} from './auth-jwt.js';

export interface AuthOptions {
  /** Key material for verifying bearer JWTs (and the HMAC secret, when the spec's algorithms are HS*). */
  jwt?: JwtKeyOptions;
  /** The clock; tests pass a controllable one. */
  now?: () => Date;
  /** Serve even where the spec leaves out something authentication needs; each gap is reported in `gaps`. */
  allowGaps?: boolean;
  /** How many verified JWTs to remember (least recently used evicted first, approximately: see docs/auth.md); 0 verifies every token every time. Default 10 000. */
  tokenCacheSize?: number;
  /** False: every JWT is verified by jose alone, the plain counterpart of the node:crypto fast path. Default: SERVICESPEC_FAST_PATHS (on unless `off`). */
  fastPaths?: boolean;
}

/** What the runtime uses where the spec is silent (only with allowGaps; each use is reported as a gap). */
export const AUTH_BUILT_IN = {
  tokenLifetimeSeconds: 3600,
  signingAlgorithm: 'EdDSA',
  tokenCacheSize: 10_000,
} as const;

/** Why authentication cannot be set up for this spec and deployment. */
export class AuthConfigError extends Error {
  constructor(
    readonly problems: readonly string[],
    /** The diagnostic codes of the problems that have one (docs/diagnostics.md), such as `weak-rsa-key`. */
    readonly codes: readonly DiagnosticCode[] = [],
  ) {
    super(`authentication cannot be set up:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'AuthConfigError';
  }
}

/** Issues tokens for one oauth2_client_credentials scheme (used by the token endpoint). */
export interface TokenIssuer {
  readonly scheme: SchemeModel;
  readonly algorithm: string;
  readonly lifetimeSeconds: number;
  /** The realm named in challenges. */
  readonly realm: string;
  readonly storage: Storage;
  readonly model: ServiceModel;
  readonly now: () => Date;
  /** The service's failed-credential bound, which failed client authentications count against (per client id, then address). */
  readonly failures: FailureBound;
  issue(client: CredentialRecord, scopes: readonly string[]): Promise<IssuedToken>;
}

export interface ServiceAuthenticator extends Authenticator {
  /** What the spec left out that authentication filled with a built-in behaviour (only with allowGaps). */
  readonly gaps: readonly RuntimeGap[];
  /** Deployment settings that leave a scheme unable to accept anything (e.g. a bearer scheme with no keys). */
  readonly warnings: readonly string[];
  /** The public keys of the service's own signing keys, as a JWKS (for other services that verify its tokens). */
  readonly publicKeys: { keys: JWK[] };
  /** The `WWW-Authenticate` value for a requirement. */
  challenge(requirement: AuthRequirement & { kind: 'required' }): string;
  tokenIssuer(scheme: string): TokenIssuer | undefined;
}

export function isServiceAuthenticator(a: Authenticator | undefined): a is ServiceAuthenticator {
  return a !== undefined && typeof (a as Partial<ServiceAuthenticator>).tokenIssuer === 'function';
}

type Verify = (value: string) => JwtResult | Promise<JwtResult>;

interface Presented {
  scheme: SchemeModel;
  kind: 'api_key' | 'basic' | 'token';
  value: string;
  /** The credential id failures are counted against: `u:<user name>` or `k:<key id>`. */
  id?: string;
  /** Basic: the decoded pair. */
  pair?: { user: string; password: string };
}

/** One request's authentication: what it presented, the failure counters it touches, and whether they are spent. */
interface Attempt {
  presented: Presented[];
  requirement: AuthRequirement & { kind: 'required' };
  /** The client address and the presented credential ids, whose failures are counted. */
  keys: () => string[];
  /** The client address's counter key (`a:` and the address). */
  address: string;
  /** Set when a token could not be checked because the remote key set could not be fetched. */
  unreachable?: boolean;
  /** Milliseconds until the address or a presented id may fail again; 0 when none is spent. */
  blockedMs: number;
}

const quote = (s: string) => `"${s.replace(/[\p{Cc}]/gu, '').replace(/["\\]/g, '\\$&')}"`;

/** One challenge per scheme: RFC 7617 Basic, RFC 6750 Bearer, and `ApiKey` naming where the key goes. */
function challengeFor(scheme: SchemeModel, realm: string, error?: string): string {
  switch (scheme.type) {
    case 'api_key':
      return `ApiKey realm=${quote(realm)}, ${scheme.in === 'query' ? 'query' : 'header'}=${quote(scheme.credentialName ?? '')}`;
    case 'basic':
      return `Basic realm=${quote(realm)}, charset="UTF-8"`;
    default:
      return `Bearer realm=${quote(realm)}${error !== undefined ? `, error=${quote(error)}` : ''}`;
  }
}

function joinChallenges(list: string[]): string {
  return [...new Set(list)].join(', ');
}

/** RFC 9110 `tchar`, by character code. */
const TCHAR = new Uint8Array(128);
for (const c of "!#$%&'*+.^_`|~-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") TCHAR[c.charCodeAt(0)] = 1;

/** `Authorization: <scheme> <credentials>`, scheme compared case-insensitively (RFC 9110 §11.1). No regex: it runs per request. */
export function readAuthorization(request: Pick<FastifyRequest, 'headers'>): { scheme: string; credentials: string } | undefined {
  const h = request.headers.authorization;
  if (typeof h !== 'string') return undefined;
  const t = h.trim();
  let i = 0;
  while (i < t.length && TCHAR[t.charCodeAt(i)] === 1) i++;
  if (i === 0) return undefined;
  // The scheme ends the value, or is followed by spaces or tabs and then the credentials.
  if (i < t.length && t.charCodeAt(i) !== 32 && t.charCodeAt(i) !== 9) return undefined;
  return { scheme: t.slice(0, i).toLowerCase(), credentials: i < t.length ? t.slice(i + 1).trim() : '' };
}

/** `user:password` from Basic credentials; undefined when they are not base64 of text with a colon. */
function decodeBasic(credentials: string): { user: string; password: string } | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(credentials) || credentials.length % 4 !== 0) return undefined;
  const text = Buffer.from(credentials, 'base64').toString('utf8');
  const i = text.indexOf(':');
  if (i < 0 || text.includes('\uFFFD')) return undefined;
  return { user: text.slice(0, i), password: text.slice(i + 1) };
}

/**
 * Builds the authenticator for a model. Loads (or, the first time, generates and stores) the signing keys of
 * the service's own token endpoints. Throws AuthConfigError when the spec and deployment cannot be served as
 * declared (without `allowGaps`, also for each gap it would have to fill).
 */
export async function createAuthenticator(model: CheckedModel, storage: Storage, options: AuthOptions = {}): Promise<ServiceAuthenticator> {
  const now = options.now ?? (() => new Date());
  const cacheSize = options.tokenCacheSize ?? AUTH_BUILT_IN.tokenCacheSize;
  const nodeCrypto = getFastPaths(options.fastPaths);
  // Failed credentials, per credential id and per client address (docs/auth.md, "Failed attempts"); the token
  // endpoint's client authentications count here too. On the authenticator's clock, as token lifetimes are.
  const failures = createFailureBoundFor(model, () => now().getTime());
  const schemes = model.authentication?.schemes ?? [];
  const byName = new Map(schemes.map((s) => [s.name, s]));
  const realm = model.purpose?.name ?? 'service';
  const problems: string[] = [];
  const codes: DiagnosticCode[] = [];
  const gaps: RuntimeGap[] = [];
  const warnings: string[] = [];

  // The checker's rules (unknown-scheme, scheme-incomplete) hold for a checked model: not restated here.
  const unchecked = getUncheckedProblem(model, 'createAuthenticator');
  if (unchecked) throw new AuthConfigError([unchecked.message], [unchecked.code]);
  for (const o of model.endpoints?.operations ?? []) {
    if (o.auth?.kind === 'required' && o.auth.schemes.length === 0) problems.push(`operation ${o.id} requires a credential but names no scheme`);
  }

  let material: { secret?: Uint8Array; keys: JWK[] } = { keys: [] };
  try {
    material = loadKeyMaterial(options.jwt);
  } catch (err) {
    if (!(err instanceof KeyConfigError)) throw err;
    problems.push(err.message);
    if (err.code !== undefined) codes.push(err.code);
  }
  const { secret } = material;
  // A JWKS URL or an OIDC issuer (discovery read once, here); its keys are fetched when a token needs them.
  let remote: Awaited<ReturnType<typeof loadRemoteKeys>>;
  try {
    remote = await loadRemoteKeys(options.jwt);
  } catch (err) {
    if (!(err instanceof KeyConfigError)) throw err;
    problems.push(err.message);
  }

  for (const s of schemes) {
    for (const alg of s.algorithms ?? []) {
      if (alg.toLowerCase() === 'none') problems.push(`scheme ${s.name}: alg "none" is never accepted`);
      else if (!SUPPORTED_ALGORITHMS.includes(alg))
        problems.push(`scheme ${s.name}: unsupported algorithm ${alg} (supported: ${SUPPORTED_ALGORITHMS.join(', ')})`);
    }
  }

  // The service's own token endpoints: one signing key per algorithm, kept in the storage's settings.
  const bearerAlgorithms = schemes.filter((s) => s.type === 'bearer').flatMap((s) => s.algorithms ?? []);
  const signable = (alg: string) => (ASYMMETRIC_ALGORITHMS as readonly string[]).includes(alg) || (isHmac(alg) && secret !== undefined);
  const issuers = new Map<string, TokenIssuer>();
  const verifiers = new Map<string, Verify>();
  const signingKeys = new Map<string, SigningKey>();
  for (const s of schemes.filter((x) => x.type === 'oauth2_client_credentials')) {
    let alg: string | undefined;
    if (s.algorithms !== undefined) {
      alg = s.algorithms.find(signable);
      if (alg === undefined) {
        const hmacOnly = s.algorithms.length > 0 && s.algorithms.every(isHmac);
        problems.push(
          `scheme ${s.name}: cannot sign tokens with any of ${s.algorithms.join(', ') || '(none listed)'}${hmacOnly ? ' without an HMAC secret (--jwt-secret-env)' : ''}`,
        );
        continue;
      }
    } else {
      alg = bearerAlgorithms.find((a) => (ASYMMETRIC_ALGORITHMS as readonly string[]).includes(a)) ?? AUTH_BUILT_IN.signingAlgorithm;
      gaps.push({ part: 'authentication', item: `token algorithms (scheme ${s.name}): not shown`, builtIn: `sign the tokens it issues with ${alg}` });
    }
    let lifetimeSeconds = s.lifetime !== undefined ? Math.floor(s.lifetime.ms / 1000) : undefined;
    if (lifetimeSeconds === undefined) {
      lifetimeSeconds = AUTH_BUILT_IN.tokenLifetimeSeconds;
      gaps.push({ part: 'authentication', item: `token lifetimes (scheme ${s.name}): not shown`, builtIn: `issue tokens valid for ${lifetimeSeconds} s` });
    }
    if (lifetimeSeconds < 1) problems.push(`scheme ${s.name}: a token lifetime under one second cannot be issued`);
    let key = signingKeys.get(alg);
    if (!key) {
      key = await loadSigningKey(storage, alg, secret);
      signingKeys.set(alg, key);
    }
    const signingKey = key;
    const lifetime = lifetimeSeconds;
    issuers.set(s.name, {
      scheme: s,
      algorithm: alg,
      lifetimeSeconds: lifetime,
      realm,
      storage,
      model,
      now,
      failures,
      issue: (client, scopes) =>
        signAccessToken(signingKey, {
          subject: client.subject,
          clientId: client.lookup,
          scopes,
          lifetimeSeconds: lifetime,
          now: now(),
          ...(s.issuer !== undefined ? { issuer: s.issuer } : {}),
          ...(s.audience !== undefined ? { audience: s.audience } : {}),
        }),
    });
    // Its own tokens only: an oauth2 scheme never accepts a token signed by someone else.
    verifiers.set(
      s.name,
      createJwtVerifier({
        algorithms: [alg],
        ...(s.issuer !== undefined ? { issuer: s.issuer } : {}),
        ...(s.audience !== undefined ? { audience: s.audience } : {}),
        lifetimeSeconds: lifetime,
        toleranceSeconds: (s.clockTolerance?.ms ?? 0) / 1000,
        ...(isHmac(alg) && secret ? { secret } : {}),
        keys: signingKey.publicJwk ? [signingKey.publicJwk] : [],
        now,
        cacheSize,
        nodeCrypto,
      }),
    );
  }
  const serviceKeys = [...signingKeys.values()].flatMap((k) => (k.publicJwk ? [k.publicJwk] : []));

  // Bearer schemes: the operator's keys plus the service's own (so tokens from its token endpoint verify too).
  for (const s of schemes.filter((x) => x.type === 'bearer')) {
    const keys = [...material.keys, ...serviceKeys];
    let algorithms = (s.algorithms ?? []).filter((a) => SUPPORTED_ALGORITHMS.includes(a));
    if (s.algorithms === undefined) {
      algorithms = [...new Set([...(secret ? ['HS256'] : []), ...keys.flatMap(algorithmsForJwk)])];
      gaps.push({
        part: 'authentication',
        item: `token algorithms (scheme ${s.name}): not shown`,
        builtIn: `accept ${algorithms.join(', ') || 'no algorithm (no keys are configured)'}, as the configured keys allow`,
      });
    }
    const usable = algorithms.some((a) => (isHmac(a) ? secret !== undefined : remote !== undefined || keys.some((k) => algorithmsForJwk(k).includes(a))));
    // Not a gap in the spec but a deployment without keys: serve, refuse every such token, and say so.
    if (!usable) {
      warnings.push(
        `scheme ${s.name} has no key to verify ${algorithms.join(', ') || 'tokens'} with, so every bearer token presented for it is refused (pass --jwks FILE${algorithms.some(isHmac) ? ' or --jwt-secret-env VAR' : ''})`,
      );
    }
    verifiers.set(
      s.name,
      createJwtVerifier({
        algorithms,
        ...(s.issuer !== undefined ? { issuer: s.issuer } : {}),
        ...(s.audience !== undefined ? { audience: s.audience } : {}),
        ...(s.lifetime !== undefined ? { lifetimeSeconds: s.lifetime.ms / 1000 } : {}),
        toleranceSeconds: (s.clockTolerance?.ms ?? 0) / 1000,
        ...(secret ? { secret } : {}),
        keys,
        now,
        cacheSize,
        nodeCrypto,
        ...(remote ? { remote: remote.getKey } : {}),
      }),
    );
  }

  if (!options.allowGaps) problems.push(...gaps.map((g) => `${g.item} (with --allow-gaps the runtime would ${g.builtIn})`));
  if (problems.length > 0) throw new AuthConfigError(problems, codes);

  // Per requirement, worked out on first use: its schemes, the header each API key scheme reads, whether any
  // scheme reads the Authorization header, and the challenges for a 401.
  interface RequirementPlan {
    schemes: SchemeModel[];
    headers: string[];
    readsAuthorization: boolean;
    challenges: { missing: string; failed: string };
  }
  const plans = new WeakMap<object, RequirementPlan>();
  const planOf = (requirement: AuthRequirement & { kind: 'required' }): RequirementPlan => {
    let plan = plans.get(requirement);
    if (!plan) {
      const list = requirement.schemes.flatMap((n) => (byName.has(n) ? [byName.get(n)!] : []));
      plan = {
        schemes: list,
        headers: list.map((x) => (x.credentialName ?? '').toLowerCase()),
        readsAuthorization: list.some((x) => x.type !== 'api_key'),
        challenges: {
          missing: joinChallenges(list.map((x) => challengeFor(x, realm))),
          failed: joinChallenges(list.map((x) => challengeFor(x, realm, 'invalid_token'))),
        },
      };
      plans.set(requirement, plan);
    }
    return plan;
  };
  const challengesOf = (requirement: AuthRequirement & { kind: 'required' }) => planOf(requirement).challenges;

  const collect = (request: FastifyRequest, requirement: AuthRequirement & { kind: 'required' }): Presented[] => {
    const out: Presented[] = [];
    const { schemes: list, readsAuthorization, headers } = planOf(requirement);
    const authz = readsAuthorization ? readAuthorization(request) : undefined;
    for (let i = 0; i < list.length; i++) {
      const scheme = list[i]!;
      if (scheme.type === 'api_key') {
        const param = scheme.credentialName!;
        if (scheme.in === 'query') {
          const query = request.query as Record<string, unknown> | undefined;
          const v = query === undefined ? undefined : ownValue(query, param);
          if (v === undefined) continue;
          // The key is not a parameter of the operation: take it out before the operation reads its query.
          delete query![param];
          out.push(apiKeyPresented(scheme, typeof v === 'string' ? v : ''));
        } else {
          const v = ownValue(request.headers, headers[i]!);
          if (v === undefined) continue;
          out.push(apiKeyPresented(scheme, typeof v === 'string' ? v.trim() : ''));
        }
      } else if (scheme.type === 'basic') {
        if (authz?.scheme !== 'basic') continue;
        const pair = decodeBasic(authz.credentials);
        out.push({ scheme, kind: 'basic', value: authz.credentials, ...(pair ? { pair, ...(pair.user.length <= 256 ? { id: `u:${pair.user}` } : {}) } : {}) });
      } else if (authz?.scheme === 'bearer') {
        out.push({ scheme, kind: 'token', value: authz.credentials });
      }
    }
    return out;
  };

  const apiKeyPresented = (scheme: SchemeModel, value: string): Presented => {
    const keyId = parseApiKey(value, scheme.prefix)?.keyId;
    return { scheme, kind: 'api_key', value, ...(keyId !== undefined ? { id: `k:${keyId}` } : {}) };
  };

  type Outcome = Principal | 'invalid' | 'expired' | 'busy' | 'unreachable';
  // One Principal per cached record and scheme, so what is keyed on the caller (rate-limit buckets) is built once.
  const principals = new WeakMap<CredentialRecord, Principal>();
  const principalOf = (p: Presented, r: CredentialRecord | undefined): Outcome => {
    if (!r) return 'invalid';
    let principal = principals.get(r);
    if (principal?.scheme !== p.scheme.name) {
      principal = Object.freeze({ subject: r.subject, scopes: r.scopes, scheme: p.scheme.name, credential: Object.freeze({ kind: r.kind, lookup: r.lookup }) });
      principals.set(r, principal);
    }
    return principal;
  };
  // An API key is answered synchronously where the storage can look it up at once; the rest need a promise.
  const check = (p: Presented, blocked: boolean): Outcome | Promise<Outcome> => {
    // A password is guessable: once the bound is spent it is not even checked. Keys and tokens are not, so a
    // valid one is still accepted.
    if (p.kind === 'basic' && blocked) return 'invalid';
    if (p.kind === 'api_key') {
      const r = checkApiKey(storage, p.value, p.scheme.prefix);
      return andThen(r, (record) => principalOf(p, record));
    }
    // A token in the verifier's cache, or one verified with node:crypto, is answered at once too.
    if (p.kind === 'token' && p.value !== '') return andThen(verifiers.get(p.scheme.name)!(p.value), (result) => tokenOutcome(p, result));
    return checkAsync(p);
  };
  const checkAsync = async (p: Presented): Promise<Outcome> => {
    if (p.kind === 'basic') {
      const r = await checkBasicUser(storage, p.pair?.user ?? '', p.pair?.password ?? '');
      if (r === 'busy') return 'busy';
      return p.pair ? principalOf(p, r) : 'invalid';
    }
    if (p.value === '') return 'invalid';
    return tokenOutcome(p, await verifiers.get(p.scheme.name)!(p.value));
  };
  // A remembered token's result is one object (auth-jwt.ts), so its Principal is built once too.
  const tokenPrincipals = new WeakMap<JwtResult, Principal>();
  const tokenOutcome = (p: Presented, result: JwtResult): Outcome => {
    if (!result.ok) return result.condition === 'expired_credential' ? 'expired' : result.condition === 'unavailable' ? 'unreachable' : 'invalid';
    if (cacheSize === 0) return { subject: result.subject, scopes: result.scopes, scheme: p.scheme.name };
    let principal = tokenPrincipals.get(result);
    if (principal === undefined) {
      principal = Object.freeze({ subject: result.subject, scopes: result.scopes, scheme: p.scheme.name });
      tokenPrincipals.set(result, principal);
    }
    return principal;
  };

  const failed = (v: Outcome): v is 'invalid' | 'expired' | 'busy' | 'unreachable' => typeof v === 'string';
  /** Any one presented credential is enough; they are tried in order from `from`. */
  const settle = (a: Attempt, from: number, expiredBefore: boolean, busyBefore: boolean): Principal | Promise<Principal> => {
    let expired = expiredBefore;
    let busy = busyBefore;
    const { presented, requirement } = a;
    for (let i = from; i < presented.length; i++) {
      const p = presented[i]!;
      const r = check(p, a.blockedMs > 0);
      if (isPending(r)) {
        return r.then((v) => {
          if (!failed(v)) return signedIn(a, p, v);
          if (v === 'unreachable') a.unreachable = true;
          return settle(a, i + 1, expired || v === 'expired', busy || v === 'busy');
        });
      }
      if (r === 'expired') expired = true;
      else if (r === 'busy') busy = true;
      else if (r === 'unreachable') a.unreachable = true;
      else if (r !== 'invalid') return signedIn(a, p, r);
    }
    if (a.blockedMs > 0) throw failedAuthRefusal(a.blockedMs);
    // Not a failure of the credential: no hashing slot was free for the password.
    if (busy) throw new ServiceError('rate_limited', 'too many passwords are being checked right now; retry shortly', undefined, { 'retry-after': '1' });
    // Nor when the remote key set could not be fetched: the token may well be good.
    if (a.unreachable)
      throw new ServiceError('unavailable', 'the keys that verify this token cannot be fetched right now; retry shortly', undefined, { 'retry-after': '1' });
    failures.fail(a.keys());
    // RFC 6750 §3.1: `error="invalid_token"` only when what failed was a token.
    const c = challengesOf(requirement);
    const headers = { 'www-authenticate': presented.some((p) => p.kind === 'token') ? c.failed : c.missing };
    if (expired) throw new ServiceError('expired_credential', 'the token has expired', undefined, headers);
    throw new ServiceError('invalid_credential', 'the credential is not valid', undefined, headers);
  };

  // A password that signed in from an address keeps working there while that address's bound is spent by someone
  // else (a guesser behind the same proxy); keys and tokens are checked even then, so need no such memory.
  const signedIn = (a: Attempt, p: Presented, principal: Principal): Principal => {
    if (p.kind === 'basic' && p.id !== undefined) failures.succeeded(a.address, [p.id]);
    return authorize(principal, a.requirement);
  };

  const authorize = (principal: Principal, requirement: AuthRequirement & { kind: 'required' }): Principal => {
    if (!holdsScopes(principal.scopes, requirement.scopes)) {
      const scheme = byName.get(principal.scheme)!;
      const headers: Record<string, string> = {};
      if (scheme.type === 'bearer' || scheme.type === 'oauth2_client_credentials') {
        headers['www-authenticate'] = `Bearer realm=${quote(realm)}, error="insufficient_scope", scope=${quote(requirement.scopes.join(' '))}`;
      }
      throw new ServiceError(
        'missing_scope',
        `this operation needs the scope${requirement.scopes.length > 1 ? 's' : ''} ${requirement.scopes.join(', ')}`,
        undefined,
        headers,
      );
    }
    return principal;
  };

  return {
    gaps,
    warnings,
    publicKeys: { keys: serviceKeys },
    challenge: (requirement) => challengesOf(requirement).missing,
    tokenIssuer: (name) => issuers.get(name),
    authenticate(request, requirement) {
      const presented = collect(request, requirement);
      if (presented.length === 0) {
        throw new ServiceError('missing_credential', 'this operation needs a credential', undefined, { 'www-authenticate': challengesOf(requirement).missing });
      }
      // Made only when a failure is counted or is to be: most requests need neither.
      const ids = () => {
        const out: string[] = [];
        for (const p of presented) if (p.id !== undefined && !out.includes(p.id)) out.push(p.id);
        return out;
      };
      const keys = () => [`a:${request.ip}`, ...ids()];
      // Per presented id first, then per address (auth-attempts.ts, blockedForAttempt).
      return settle(
        { presented, requirement, keys, address: `a:${request.ip}`, blockedMs: failures.counting() ? failures.blockedForAttempt(`a:${request.ip}`, ids()) : 0 },
        0,
        false,
        false,
      );
    },
  };
}
