import { randomFillSync } from 'node:crypto';

// UUIDv7 (RFC 9562) for created objects and events: 48 bits of Unix milliseconds, then a 32-bit counter seeded
// at random each millisecond and incremented within it (as the uuid package's v7: identifiers made by one
// process sort in the order they were made), then 30 random bits. The random bytes come from a pool filled 256
// identifiers at a time, where the uuid package asks the system for 16 bytes per identifier.

const POOL = new Uint8Array(16 * 256);
let at = POOL.length;
let lastMs = -Infinity;
let seq = 0;
const HEX = Array.from({ length: 256 }, (_, i) => (i + 0x100).toString(16).slice(1));

export function newUuidV7(now = Date.now()): string {
  if (at === POOL.length) {
    randomFillSync(POOL);
    at = 0;
  }
  const r = at;
  at += 16;
  if (now > lastMs) {
    seq = ((POOL[r + 6]! & 0x7f) << 24) | (POOL[r + 7]! << 16) | (POOL[r + 8]! << 8) | POOL[r + 9]!;
    lastMs = now;
  } else {
    seq = (seq + 1) | 0;
    // The counter ran over within one millisecond: borrow the next one.
    if (seq === 0) lastMs++;
  }
  const ms = lastMs;
  return (
    HEX[(ms / 0x10000000000) & 0xff]! +
    HEX[(ms / 0x100000000) & 0xff]! +
    HEX[(ms / 0x1000000) & 0xff]! +
    HEX[(ms / 0x10000) & 0xff]! +
    '-' +
    HEX[(ms / 0x100) & 0xff]! +
    HEX[ms & 0xff]! +
    '-' +
    HEX[0x70 | ((seq >>> 28) & 0x0f)]! +
    HEX[(seq >>> 20) & 0xff]! +
    '-' +
    HEX[0x80 | ((seq >>> 14) & 0x3f)]! +
    HEX[(seq >>> 6) & 0xff]! +
    '-' +
    HEX[((seq << 2) & 0xff) | (POOL[r + 10]! & 0x03)]! +
    HEX[POOL[r + 11]!]! +
    HEX[POOL[r + 12]!]! +
    HEX[POOL[r + 13]!]! +
    HEX[POOL[r + 14]!]! +
    HEX[POOL[r + 15]!]!
  );
}
