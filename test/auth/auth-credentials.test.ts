// The credentials library: random, prefixed keys shown once and stored only as hashes; clients; Basic users.

import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createApiKey,
  createBasicUser,
  createClient,
  CredentialError,
  listApiKeys,
  listBasicUsers,
  listClients,
  parseApiKey,
  revokeApiKey,
  revokeBasicUser,
  verifyApiKey,
  verifyBasicUser,
  verifyClientSecret,
} from '../../src/runtime/auth/auth-credentials.js';
import { createSqliteStorage, type SqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { manualClock } from '../events/helpers.js';
import { EXAMPLES, loadModel, NOTES } from './helpers.js';

const model = loadModel(NOTES);
let dir: string;
let storage: SqliteStorage;
/** The storage's clock: it moves only when a test moves it. */
const clock = manualClock(0);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'servicespec-creds-'));
  storage = createSqliteStorage({ path: join(dir, 'service.db'), clock });
});
afterAll(async () => {
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every byte the database has written (main file and WAL). */
function databaseBytes(): string {
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f)).toString('latin1'))
    .join('');
}

describe('API keys', () => {
  it('are random and prefixed; the database holds the SHA-256 of the secret, never the secret', async () => {
    const a = await createApiKey(storage, model, { subject: 'alice', scopes: ['notes:read'], scheme: 'key' });
    const b = await createApiKey(storage, model, { subject: 'alice', scopes: ['notes:read'], scheme: 'key' });
    expect(a.key).toMatch(/^nk_[0-9A-Za-z]{12}_[A-Za-z0-9_-]{43}$/);
    expect(a.key).not.toBe(b.key);
    const { keyId, secret } = parseApiKey(a.key, 'nk_')!;
    expect(keyId).toBe(a.id);
    const stored = await storage.findCredential('api_key', keyId);
    expect(stored?.hash).toBe(createHash('sha256').update(secret).digest('hex'));
    const bytes = databaseBytes();
    expect(bytes).not.toContain(secret);
    expect(bytes).toContain(keyId);
    const listed = await listApiKeys(storage);
    expect(listed.find((k) => k.id === a.id)).toEqual({
      id: a.id,
      kind: 'api_key',
      lookup: a.id,
      subject: 'alice',
      scopes: ['notes:read'],
      createdAt: a.createdAt,
    });
    expect(JSON.stringify(listed)).not.toContain(stored!.hash);
  });

  it('verify only with the whole key, under the declared prefix, until revoked', async () => {
    const k = await createApiKey(storage, model, { subject: 'bob', scopes: [], scheme: 'key' });
    expect((await verifyApiKey(storage, k.key, 'nk_'))?.subject).toBe('bob');
    expect(await verifyApiKey(storage, k.key, 'other_')).toBeUndefined();
    expect(await verifyApiKey(storage, k.key.slice(0, -1), 'nk_')).toBeUndefined();
    // Once verified, the key is recognised without hashing; another well-formed secret for the same id is not.
    const otherSecret = `${k.key.slice(0, -43)}${k.key.slice(-43).startsWith('A') ? 'B' : 'A'}${k.key.slice(-42)}`;
    expect(await verifyApiKey(storage, otherSecret, 'nk_')).toBeUndefined();
    expect((await verifyApiKey(storage, k.key, 'nk_'))?.subject).toBe('bob');
    expect(await revokeApiKey(storage, k.id)).toBe(true);
    expect(await verifyApiKey(storage, k.key, 'nk_')).toBeUndefined();
    expect((await listApiKeys(storage)).find((x) => x.id === k.id)?.revokedAt).toBeDefined();
    expect(await revokeApiKey(storage, 'NoSuchKey000')).toBe(false);
  });

  it('a revocation through another connection (another process) holds a millisecond after it commits, though the key is cached', async () => {
    const k = await createApiKey(storage, model, { subject: 'carol', scopes: [], scheme: 'key' });
    expect((await verifyApiKey(storage, k.key, 'nk_'))?.subject).toBe('carol');
    expect((await verifyApiKey(storage, k.key, 'nk_'))?.subject).toBe('carol'); // now from the cache
    const other = createSqliteStorage({ path: join(dir, 'service.db') });
    try {
      expect(await revokeApiKey(other, k.id)).toBe(true);
    } finally {
      await other.close();
    }
    // The cache asks whether another connection wrote at most once a millisecond, on the storage's clock.
    clock.advance(1);
    expect(await verifyApiKey(storage, k.key, 'nk_')).toBeUndefined();
  });

  it('refuse undeclared scopes, a missing or ambiguous scheme, and unprintable subjects', async () => {
    await expect(createApiKey(storage, model, { subject: 'a', scopes: ['nope'], scheme: 'key' })).rejects.toThrow(
      /unknown scope nope; the spec declares notes:read, notes:write, admin/,
    );
    await expect(createApiKey(storage, model, { subject: 'a', scopes: [] })).rejects.toThrow(/several api_key schemes \(key, qkey\)/);
    await expect(createApiKey(storage, model, { subject: 'a', scopes: [], scheme: 'hs' })).rejects.toThrow(/no api_key scheme named hs/);
    await expect(createApiKey(storage, model, { subject: '', scopes: [], scheme: 'key' })).rejects.toBeInstanceOf(CredentialError);
    await expect(createApiKey(storage, model, { subject: 'a\nb', scopes: [], scheme: 'key' })).rejects.toBeInstanceOf(CredentialError);
    await expect(createApiKey(storage, model, { subject: ' a', scopes: [], scheme: 'key' })).rejects.toBeInstanceOf(CredentialError);
  });

  it('parseApiKey accepts only <prefix><12 chars>_<43 chars>', () => {
    const key = `nk_${'a'.repeat(12)}_${'b'.repeat(43)}`;
    expect(parseApiKey(key, 'nk_')).toEqual({ keyId: 'a'.repeat(12), secret: 'b'.repeat(43) });
    expect(parseApiKey(key.slice(3), undefined)).toEqual({ keyId: 'a'.repeat(12), secret: 'b'.repeat(43) });
    for (const bad of [
      '',
      'nk_',
      `nk_${'a'.repeat(11)}_${'b'.repeat(44)}`,
      `nk_${'a'.repeat(12)}-${'b'.repeat(43)}`,
      `nk_${'a'.repeat(12)}_${'b'.repeat(42)}`,
      `${key}=`,
    ]) {
      expect(parseApiKey(bad, 'nk_')).toBeUndefined();
    }
  });
});

describe('clients', () => {
  it('store the secret hashed; verify id and secret; list without secrets', async () => {
    const c = await createClient(storage, model, { scopes: ['notes:read'] });
    expect(c.clientId).toMatch(/^[0-9A-Za-z]{16}$/);
    expect(c.subject).toBe(c.clientId);
    expect(databaseBytes()).not.toContain(c.clientSecret);
    expect((await verifyClientSecret(storage, c.clientId, c.clientSecret))?.subject).toBe(c.clientId);
    expect(await verifyClientSecret(storage, c.clientId, 'wrong')).toBeUndefined();
    expect(await verifyClientSecret(storage, 'unknown', c.clientSecret)).toBeUndefined();
    expect((await listClients(storage)).map((x) => x.lookup)).toContain(c.clientId);
  });
});

describe('Basic users', () => {
  it('store the password with scrypt, verify it, refuse after revocation', async () => {
    const u = await createBasicUser(storage, model, { username: 'dora', password: 'a long passphrase', scopes: ['notes:read'] });
    expect(u.generatedPassword).toBeUndefined();
    const stored = await storage.findCredential('basic', 'dora');
    expect(stored?.hash).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
    expect(databaseBytes()).not.toContain('a long passphrase');
    expect((await verifyBasicUser(storage, 'dora', 'a long passphrase'))?.subject).toBe('dora');
    expect(await verifyBasicUser(storage, 'dora', 'a long passphrasE')).toBeUndefined();
    expect(await verifyBasicUser(storage, 'nobody', 'a long passphrase')).toBeUndefined();
    expect(await revokeBasicUser(storage, 'dora')).toBe(true);
    expect(await verifyBasicUser(storage, 'dora', 'a long passphrase')).toBeUndefined();
    expect((await listBasicUsers(storage)).find((x) => x.lookup === 'dora')?.revokedAt).toBeDefined();
  });

  it('generate a password when none is given; refuse colons, duplicates and short passwords', async () => {
    const u = await createBasicUser(storage, model, { username: 'eve', scopes: [] });
    expect(u.generatedPassword).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await verifyBasicUser(storage, 'eve', u.generatedPassword!))?.subject).toBe('eve');
    await expect(createBasicUser(storage, model, { username: 'a:b', scopes: [] })).rejects.toThrow(/without a colon/);
    await expect(createBasicUser(storage, model, { username: 'eve', scopes: [] })).rejects.toThrow(/already exists/);
    await expect(createBasicUser(storage, model, { username: 'fay', password: 'short', scopes: [] })).rejects.toThrow(/8 to 1024/);
  });

  it('need a basic scheme in the spec', async () => {
    await expect(createBasicUser(storage, loadModel(join(EXAMPLES, 'orders.yaml')), { username: 'x', scopes: [] })).rejects.toThrow(/declares no basic scheme/);
  });
});
