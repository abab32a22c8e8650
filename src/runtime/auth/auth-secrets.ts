// The primitives behind every stored credential: random identifiers and secrets, hashes, constant-time
// comparison. All from node:crypto.

import { hash, randomBytes, randomInt, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random identifier of `length` base62 characters (about 5.95 bits each; 12 chars ≈ 71 bits). */
export function randomId(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(BASE62.length)];
  return out;
}

/** 32 random bytes, base64url: a high-entropy secret (43 characters). */
export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256 in hex. Enough for generated, high-entropy secrets: nobody can guess them, so no slow hash is needed. */
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}

const DIGEST_RE = /^[0-9a-f]{64}$/;
/** Stands in for a stored digest when there is none: nothing hashes to it that anybody knows. */
const DUMMY_DIGEST = hash('sha256', 'servicespec: no such credential', 'buffer');

/**
 * Whether SHA-256 of `secret` is the stored hex digest, compared in constant time. With no stored digest (an
 * unknown credential) the same hash and comparison are done against a dummy, and the answer is no.
 */
export function secretMatches(secret: string, storedHex: string | undefined): boolean {
  const actual = hash('sha256', secret, 'buffer');
  const known = storedHex !== undefined && DIGEST_RE.test(storedHex);
  const same = timingSafeEqual(actual, known ? Buffer.from(storedHex, 'hex') : DUMMY_DIGEST);
  return known && same;
}

// Passwords chosen by people are low-entropy, so Basic users' passwords get a slow, memory-hard hash.
// N=2^14, r=8, p=1 is scrypt's interactive-login parameter set (16 MiB, tens of milliseconds).
const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 } as const;

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize('NFC'), salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** `scrypt$N$r$p$salt$hash` with base64url salt and hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p, maxmem: 64 * 1024 * 1024 });
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

let dummyPasswordHash: Promise<string> | undefined;

/** A password hash for no user: checked against when a user name is unknown, so both take the same time. */
export function getDummyPasswordHash(): Promise<string> {
  dummyPasswordHash ??= hashPassword(randomSecret());
  return dummyPasswordHash;
}

/** Checks a password against a `hashPassword` result in constant time; a malformed hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  const [kind, n, r, p, salt, hash] = parts;
  if (parts.length !== 6 || kind !== 'scrypt' || salt === undefined || hash === undefined) {
    await verifyPassword(password, await getDummyPasswordHash());
    return false;
  }
  const expected = Buffer.from(hash, 'base64url');
  const N = Number(n);
  const R = Number(r);
  const P = Number(p);
  if (!Number.isSafeInteger(N) || !Number.isSafeInteger(R) || !Number.isSafeInteger(P) || expected.length === 0 || expected.length > 128) return false;
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, { N, r: R, p: P, maxmem: 256 * N * R + 1024 * 1024 });
  return timingSafeEqual(actual, expected);
}
