// Credentials the service issues and stores in its own database: API keys, OAuth2 clients and Basic users.
// The library API behind `servicespec keys|clients|users`. Secrets are shown once, when created, and stored
// only as hashes: SHA-256 for generated (high-entropy) secrets, scrypt for passwords people choose.

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SchemeModel, ServiceModel } from '../../model/model-types.js';
import type { CredentialRecord, Storage } from '../storage/storage-types.js';
import { createSemaphore, PASSWORD_HASHING } from './auth-attempts.js';
import { getDummyPasswordHash, hashPassword, randomId, randomSecret, secretMatches, sha256Hex, verifyPassword } from './auth-secrets.js';

/** A request to create a credential that cannot be met (unknown scope, no such scheme, bad name). */
export class CredentialError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CredentialError';
  }
}

/** A stored credential as it may be shown: never the hash. */
export interface CredentialSummary {
  id: string;
  kind: CredentialRecord['kind'];
  /** The key id, client id or user name. */
  lookup: string;
  subject: string;
  scopes: readonly string[];
  createdAt: string;
  revokedAt?: string;
}

export interface IssuedApiKey extends CredentialSummary {
  /** The whole key, `<prefix><key id>_<secret>`: shown once, never stored. */
  key: string;
  scheme: string;
}

export interface IssuedClient extends CredentialSummary {
  clientId: string;
  /** Shown once, never stored. */
  clientSecret: string;
}

export interface IssuedUser extends CredentialSummary {
  username: string;
  /** The password, when the service generated it (shown once); absent when the caller chose it. */
  generatedPassword?: string;
}

const KEY_ID_LENGTH = 12;
const CLIENT_ID_LENGTH = 16;
const KEY_ID_RE = /^[0-9A-Za-z]{12}$/;
const SECRET_RE = /^[A-Za-z0-9_-]{43}$/;
// Printable, no control characters; a subject or user name is written into tokens, logs and owner fields.
const NAME_RE = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]{1,256}$/u;

function summarize(r: CredentialRecord): CredentialSummary {
  const out: CredentialSummary = { id: r.id, kind: r.kind, lookup: r.lookup, subject: r.subject, scopes: [...r.scopes], createdAt: r.createdAt };
  if (r.revokedAt !== undefined) out.revokedAt = r.revokedAt;
  return out;
}

function checkSubject(subject: string): void {
  if (!NAME_RE.test(subject) || subject.trim() !== subject)
    throw new CredentialError('the subject must be 1 to 256 printable characters with no leading or trailing space');
}

/** The scopes, each one the spec declares; duplicates are dropped. */
export function checkScopes(model: ServiceModel, scopes: readonly string[]): string[] {
  const declared = new Set((model.authentication?.scopes ?? []).map((s) => s.name));
  const unknown = scopes.filter((s) => !declared.has(s));
  if (unknown.length > 0) {
    const known = declared.size > 0 ? `; the spec declares ${[...declared].join(', ')}` : '; the spec declares no scopes';
    throw new CredentialError(`unknown scope${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}${known}`);
  }
  return [...new Set(scopes)];
}

function schemesOf(model: ServiceModel, type: SchemeModel['type']): SchemeModel[] {
  return (model.authentication?.schemes ?? []).filter((s) => s.type === type);
}

/** The scheme of this type that a credential is for: the named one, or the only one. */
export function pickScheme(model: ServiceModel, type: SchemeModel['type'], name?: string): SchemeModel {
  const candidates = schemesOf(model, type);
  if (name !== undefined) {
    const s = candidates.find((c) => c.name === name);
    if (!s)
      throw new CredentialError(
        `the spec declares no ${type} scheme named ${name}${candidates.length > 0 ? `; it declares ${candidates.map((c) => c.name).join(', ')}` : ''}`,
      );
    return s;
  }
  if (candidates.length === 0) throw new CredentialError(`the spec declares no ${type} scheme`);
  if (candidates.length > 1) throw new CredentialError(`the spec declares several ${type} schemes (${candidates.map((c) => c.name).join(', ')}); name one`);
  return candidates[0]!;
}

function requireSchemeType(model: ServiceModel, type: SchemeModel['type']): void {
  if (schemesOf(model, type).length === 0) throw new CredentialError(`the spec declares no ${type} scheme`);
}

const nowIso = (now?: () => Date) => (now ?? (() => new Date()))().toISOString();

// ---- API keys ------------------------------------------------------------------------------------------------

/** Splits `<prefix><key id>_<secret>`; undefined when the text does not have that form. */
export function parseApiKey(text: string, prefix: string | undefined): { keyId: string; secret: string } | undefined {
  const p = prefix ?? '';
  if (!text.startsWith(p)) return undefined;
  const rest = text.slice(p.length);
  const keyId = rest.slice(0, KEY_ID_LENGTH);
  const secret = rest.slice(KEY_ID_LENGTH + 1);
  if (rest[KEY_ID_LENGTH] !== '_' || !KEY_ID_RE.test(keyId) || !SECRET_RE.test(secret)) return undefined;
  return { keyId, secret };
}

export async function createApiKey(
  storage: Storage,
  model: ServiceModel,
  options: { subject: string; scopes: readonly string[]; scheme?: string; now?: () => Date },
): Promise<IssuedApiKey> {
  const scheme = pickScheme(model, 'api_key', options.scheme);
  checkSubject(options.subject);
  const scopes = checkScopes(model, options.scopes);
  const keyId = randomId(KEY_ID_LENGTH);
  const secret = randomSecret();
  const record: CredentialRecord = {
    id: keyId,
    kind: 'api_key',
    lookup: keyId,
    hash: sha256Hex(secret),
    subject: options.subject,
    scopes,
    createdAt: nowIso(options.now),
  };
  await storage.insertCredential(record);
  return { ...summarize(record), key: `${scheme.prefix ?? ''}${keyId}_${secret}`, scheme: scheme.name };
}

/**
 * The key's record when the key is valid and not revoked. Whether the key id is unknown, the secret wrong, the
 * text garbled or the key revoked, the same work is done (one lookup, one hash, one constant-time comparison)
 * and the same answer given.
 */
export async function verifyApiKey(storage: Storage, text: string, prefix: string | undefined): Promise<CredentialRecord | undefined> {
  return checkApiKey(storage, text, prefix);
}

/** The secret each cached key record was last verified with: a key presented again skips the SHA-256. */
const verifiedSecrets = new WeakMap<CredentialRecord, Buffer>();
const NO_SECRET = Buffer.alloc(43);

/**
 * `verifyApiKey`, answered at once where the storage can look the key up synchronously (the runtime's hot
 * path); a promise otherwise. A secret that matches the one this record was last verified with (compared in
 * constant time) needs no hash; any other is hashed and compared with the stored digest. Every well-formed
 * key takes the first comparison, against a dummy when its id is unknown, so the time taken tells nothing
 * about which key ids exist.
 */
export function checkApiKey(storage: Storage, text: string, prefix: string | undefined): CredentialRecord | undefined | Promise<CredentialRecord | undefined> {
  const parsed = parseApiKey(text, prefix);
  const lookup = parsed?.keyId ?? '-';
  if (storage.findCredentialNow) return settleApiKey(text, parsed, storage.findCredentialNow('api_key', lookup));
  return Promise.resolve(storage.findCredential('api_key', lookup)).then((record) => settleApiKey(text, parsed, record));
}

function settleApiKey(text: string, parsed: { keyId: string; secret: string } | undefined, record: CredentialRecord | undefined): CredentialRecord | undefined {
  if (parsed) {
    const given = Buffer.from(parsed.secret, 'latin1');
    const known = record ? verifiedSecrets.get(record) : undefined;
    if (timingSafeEqual(given, known ?? NO_SECRET) && known) return record!.revokedAt === undefined ? record : undefined;
  }
  const matches = secretMatches(parsed?.secret ?? text, record?.hash);
  if (!parsed || !record || !matches) return undefined;
  const kept = Buffer.alloc(parsed.secret.length); // not a slice of the shared pool, which it would keep alive
  kept.write(parsed.secret, 'latin1');
  verifiedSecrets.set(record, kept);
  return record.revokedAt === undefined ? record : undefined;
}

export async function listApiKeys(storage: Storage): Promise<CredentialSummary[]> {
  return (await storage.listCredentials('api_key')).map(summarize);
}

/** Revokes the key with this id; the next request that presents it is refused. False when there is no such key. */
export async function revokeApiKey(storage: Storage, id: string, now?: () => Date): Promise<boolean> {
  return storage.revokeCredential('api_key', id, nowIso(now));
}

// ---- OAuth2 clients ------------------------------------------------------------------------------------------

export async function createClient(
  storage: Storage,
  model: ServiceModel,
  options: { subject?: string; scopes: readonly string[]; now?: () => Date },
): Promise<IssuedClient> {
  requireSchemeType(model, 'oauth2_client_credentials');
  const clientId = randomId(CLIENT_ID_LENGTH);
  const subject = options.subject ?? clientId;
  checkSubject(subject);
  const scopes = checkScopes(model, options.scopes);
  const secret = randomSecret();
  const record: CredentialRecord = { id: clientId, kind: 'client', lookup: clientId, hash: sha256Hex(secret), subject, scopes, createdAt: nowIso(options.now) };
  await storage.insertCredential(record);
  return { ...summarize(record), clientId, clientSecret: secret };
}

/** The client's record when the id and secret match a client that is not revoked; the same work either way. */
export async function verifyClientSecret(storage: Storage, clientId: string, secret: string): Promise<CredentialRecord | undefined> {
  const record = clientId.length <= 256 ? await storage.findCredential('client', clientId) : undefined;
  const matches = secretMatches(secret, record?.hash);
  return record && matches && record.revokedAt === undefined ? record : undefined;
}

export async function listClients(storage: Storage): Promise<CredentialSummary[]> {
  return (await storage.listCredentials('client')).map(summarize);
}

/** Revokes a client: it gets no new tokens. Tokens already issued stay valid until they expire (they are JWTs). */
export async function revokeClient(storage: Storage, clientId: string, now?: () => Date): Promise<boolean> {
  return storage.revokeCredential('client', clientId, nowIso(now));
}

// ---- Basic users ---------------------------------------------------------------------------------------------

const USER_ID = (name: string) => `user:${name}`;

export async function createBasicUser(
  storage: Storage,
  model: ServiceModel,
  options: { username: string; password?: string; subject?: string; scopes: readonly string[]; now?: () => Date },
): Promise<IssuedUser> {
  requireSchemeType(model, 'basic');
  const { username } = options;
  // RFC 7617: the user-id cannot contain a colon.
  if (!NAME_RE.test(username) || username.includes(':')) throw new CredentialError('the user name must be 1 to 256 printable characters without a colon');
  const subject = options.subject ?? username;
  checkSubject(subject);
  const scopes = checkScopes(model, options.scopes);
  if (options.password !== undefined && (options.password.length < 8 || options.password.length > 1024)) {
    throw new CredentialError('the password must be 8 to 1024 characters');
  }
  if (await storage.findCredential('basic', username)) throw new CredentialError(`a user named ${username} already exists`);
  const password = options.password ?? randomSecret();
  const record: CredentialRecord = {
    id: USER_ID(username),
    kind: 'basic',
    lookup: username,
    hash: await hashPassword(password),
    subject,
    scopes,
    createdAt: nowIso(options.now),
  };
  await storage.insertCredential(record);
  const out: IssuedUser = { ...summarize(record), username };
  if (options.password === undefined) out.generatedPassword = password;
  return out;
}

/** The user's record when the name and password match a user who is not revoked; the same work either way. */
export async function verifyBasicUser(storage: Storage, username: string, password: string): Promise<CredentialRecord | undefined> {
  for (;;) {
    const r = await checkBasicUser(storage, username, password);
    if (r !== 'busy') return r;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Password hashes running at once, process-wide: scrypt takes a core and 16 MiB for tens of milliseconds. */
const hashing = createSemaphore(PASSWORD_HASHING.concurrent, PASSWORD_HASHING.waiting);
/** For each cached user record, a keyed digest of the password it was last verified with (never the password). */
const verifiedPasswords = new WeakMap<CredentialRecord, Buffer>();
const PASSWORD_CACHE_KEY = randomBytes(32);
const passwordDigest = (password: string) => createHmac('sha256', PASSWORD_CACHE_KEY).update(password.normalize('NFC')).digest();

/**
 * `verifyBasicUser` for the runtime. A password that matches the one this record was last verified with
 * (a keyed digest compared in constant time) needs no scrypt; any other waits for one of the few hashing slots,
 * and `'busy'` is the answer when too many are already waiting. The cache lives as long as the storage keeps the
 * record: a change or revocation gives a new record, which is verified afresh.
 */
export async function checkBasicUser(storage: Storage, username: string, password: string): Promise<CredentialRecord | undefined | 'busy'> {
  const record = username.length <= 256 && password.length <= 1024 ? await storage.findCredential('basic', username) : undefined;
  const known = record ? verifiedPasswords.get(record) : undefined;
  if (known && timingSafeEqual(passwordDigest(password), known)) return record!.revokedAt === undefined ? record : undefined;
  const release = await hashing.acquire();
  if (!release) return 'busy';
  let ok: boolean;
  try {
    ok = await verifyPassword(password.slice(0, 1024), record?.hash ?? (await getDummyPasswordHash()));
  } finally {
    release();
  }
  if (!record || !ok) return undefined;
  verifiedPasswords.set(record, passwordDigest(password));
  return record.revokedAt === undefined ? record : undefined;
}

export async function listBasicUsers(storage: Storage): Promise<CredentialSummary[]> {
  return (await storage.listCredentials('basic')).map(summarize);
}

export async function revokeBasicUser(storage: Storage, username: string, now?: () => Date): Promise<boolean> {
  return storage.revokeCredential('basic', USER_ID(username), nowIso(now));
}
