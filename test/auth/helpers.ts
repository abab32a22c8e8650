// Helpers for the authentication tests: a real server on 127.0.0.1 over a real SQLite file, a controllable
// clock shared by the service and the authenticator, key material, and JWTs both honest and hand-crafted.

import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import type { CheckedModel } from '../../src/model/model-types.js';
import { compileSpecFile } from '../../src/program.js';
import { createAuthenticator, type AuthOptions, type ServiceAuthenticator } from '../../src/runtime/auth/auth-authenticator.js';
import type { CustomHandler } from '../../src/runtime/runtime-context.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage, type SqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { callJson } from '../support/http.js';

export const NOTES = fileURLToPath(new URL('./fixtures/notes.yaml', import.meta.url));
export const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));
export const HS_SECRET = 'test-only hmac secret, 32 bytes or more: 0123456789';

export function loadModel(path: string): CheckedModel {
  const c = compileSpecFile(path);
  const errors = c.diagnostics.filter((d) => d.severity === 'error');
  if (!c.model || errors.length > 0) throw new Error(`${path}: ${errors.map((d) => `${d.code} ${d.message}`).join('; ')}`);
  return c.checked!;
}

export interface Clock {
  now: () => Date;
  /** Seconds since the epoch, as JWT claims count them. */
  seconds: () => number;
  advance: (ms: number) => void;
}

export function createClock(start = Date.now()): Clock {
  let t = Math.floor(start / 1000) * 1000;
  return { now: () => new Date(t), seconds: () => Math.floor(t / 1000), advance: (ms) => void (t += ms) };
}

export interface RsaKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
  /** The public key as PEM text: what an attacker would try as an HMAC secret. */
  publicPem: string;
}

export async function makeRsaKey(kid: string): Promise<RsaKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }, publicPem: await exportSPKI(publicKey) };
}

/** A JWKS file holding the public halves of `keys`, in a fresh temporary folder. */
export function writeJwks(keys: readonly RsaKey[]): { path: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'servicespec-jwks-'));
  const path = join(dir, 'jwks.json');
  writeFileSync(path, JSON.stringify({ keys: keys.map((k) => k.publicJwk) }));
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export const WHOAMI: CustomHandler = ({ principal }) => ({
  subject: principal?.subject ?? '',
  scheme: principal?.scheme ?? '',
  scopes: [...(principal?.scopes ?? [])],
});
export const HANDLERS: Record<string, CustomHandler> = { whoami: WHOAMI, status: () => ({ ok: true }) };

export interface CallResult {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

export interface AuthServer {
  url: string;
  app: FastifyInstance;
  storage: SqliteStorage;
  model: CheckedModel;
  authenticator: ServiceAuthenticator;
  clock: Clock;
  dbPath: string;
  call(method: string, path: string, options?: { body?: unknown; headers?: Record<string, string> }): Promise<CallResult>;
  /** Closes the server; keeps the database unless `removeDb`. */
  close(removeDb?: boolean): Promise<void>;
}

export async function startAuthService(
  options: { spec?: string; dbPath?: string; clock?: Clock; auth?: Omit<AuthOptions, 'now'>; handlers?: Record<string, CustomHandler> } = {},
): Promise<AuthServer> {
  const model = loadModel(options.spec ?? NOTES);
  const dir = options.dbPath === undefined ? mkdtempSync(join(tmpdir(), 'servicespec-auth-')) : undefined;
  const dbPath = options.dbPath ?? join(dir!, 'service.db');
  const clock = options.clock ?? createClock();
  const storage = createSqliteStorage({ path: dbPath, synchronous: 'normal' });
  const authenticator = await createAuthenticator(model, storage, { allowGaps: true, ...options.auth, now: clock.now });
  const app = await createService(model, { storage, authenticator, allowGaps: true, now: clock.now, handlers: options.handlers ?? HANDLERS });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    app,
    storage,
    model,
    authenticator,
    clock,
    dbPath,
    call: (method, path, { body, headers = {} } = {}) => callJson(url, method, path, body, headers),
    async close(removeDb = true) {
      await app.close();
      if (removeDb && dir !== undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---- JWTs ------------------------------------------------------------------------------------------------------

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** A JWT signed by hand with HMAC-SHA256: for claims jose would refuse to produce (a string exp, say). */
export function hmacJwt(header: Record<string, unknown>, payload: Record<string, unknown>, secret: string | Buffer): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

/** An unsecured JWT (`alg: none`, empty signature). */
export function noneJwt(payload: Record<string, unknown>): string {
  return `${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.`;
}

/** Standard claims for a subject at the clock's time: iat now, exp in `ttl` seconds. */
export function claims(clock: Clock, extra: JWTPayload & Record<string, unknown> = {}, ttl = 600): JWTPayload & Record<string, unknown> {
  return { sub: 'alice', scope: 'notes:read notes:write', iat: clock.seconds(), exp: clock.seconds() + ttl, ...extra };
}

export async function signRs(key: RsaKey, payload: JWTPayload, header: { kid?: string | null } = {}): Promise<string> {
  const kid = header.kid === null ? undefined : (header.kid ?? key.kid);
  return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', ...(kid !== undefined ? { kid } : {}) }).sign(key.privateKey);
}

export async function signHs(payload: JWTPayload, secret: string = HS_SECRET): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(secret));
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
export const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });
