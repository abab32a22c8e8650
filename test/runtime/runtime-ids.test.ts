// Object identifiers: UUIDv7 made from a pool of random bytes (src/runtime/runtime-ids.ts), in the format and
// order the uuid package's v7 gives: RFC 9562 version 7, variant 10, sorting in the order they were made.
import { describe, expect, it } from 'vitest';
import { validate, version } from 'uuid';
import { newUuidV7 } from '../../src/runtime/runtime-ids.js';

describe('newUuidV7', () => {
  it('is an RFC 9562 version 7 UUID carrying the time it was made', () => {
    // On an injected clock reading (the first id of this module: no earlier millisecond to go on from).
    const id = newUuidV7(1_800_000_000_123);
    expect(validate(id)).toBe(true);
    expect(version(id)).toBe(7);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const ms = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(ms).toBe(1_800_000_000_123);
  });

  it('sorts in the order made, within one millisecond and across the pool refills, and does not repeat', () => {
    const ids: string[] = [];
    for (let i = 0; i < 5000; i++) ids.push(newUuidV7(1_800_000_000_000 + Math.floor(i / 1000)));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    // A clock that steps back keeps the order: the counter goes on from the last millisecond used.
    const later = newUuidV7(1_700_000_000_000);
    expect(later > ids.at(-1)!).toBe(true);
  });
});
