import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { compileSpecText } from '../../src/program.js';
import { startService, type Running } from '../runtime/helpers.js';
import { until } from '../events/helpers.js';
import { POSTGRES_URL } from '../support/postgres.js';

// Stored Idempotency-Key answers are removed once their retention (1h in the fixture) has passed, in the
// background; before, every key ever used stayed in the records table. The row is looked at through SQLite's
// read-at-once path, or, on PostgreSQL (SERVICESPEC_TEST_DB=postgres), in the test's schema directly.
const LIMITED = new URL('./fixtures/limited.yaml', import.meta.url).pathname;
let clock = Date.parse('2026-11-23T12:00:00.000Z');
let s: Running;
/** Sweeps finished so far (the sweep calls the storage's deleteExpiredRecords, counted here). */
let sweeps = 0;
beforeAll(async () => {
  // Not a test of time-outs: the fixture's 300 ms answered the first request 503 on a loaded machine.
  const text = readFileSync(LIMITED, 'utf8').replace('timeout: 300ms', 'timeout: 30s');
  expect(text).toContain('timeout: 30s');
  s = await startService(compileSpecText(text).model!, {
    allowGaps: false,
    handlers: { ping: () => ({}), slow: () => ({}) },
    now: () => new Date(clock),
    recordSweep: { everyMs: 20, limit: 1000 },
  });
  const sweep = s.storage.deleteExpiredRecords.bind(s.storage);
  s.storage.deleteExpiredRecords = async (now, limit) => {
    const n = await sweep(now, limit);
    sweeps++;
    return n;
  };
});
afterAll(async () => s.close());

describe('expired Idempotency-Key records', () => {
  it('are kept through their retention and removed after it', async () => {
    const first = await s.call('POST', '/items', { name: 'kept' }, { 'idempotency-key': 'sweep-1' });
    expect(first.status).toBe(201);
    // Several sweeps: the answer is not expired, so it stays.
    const seen = sweeps;
    await until(() => sweeps >= seen + 3, 10_000, 'three sweeps');
    const replay = await s.call('POST', '/items', { name: 'kept' }, { 'idempotency-key': 'sweep-1' });
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    // Whether the row is still there, whatever its expiry: read as of a time before it expires.
    const before = new Date(clock).toISOString();
    const held = async (): Promise<string | undefined> => {
      if (s.storage.findRecordNow) return s.storage.findRecordNow('idempotency', '-|sweep-1', before);
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      try {
        const schema = new URL(s.dbPath).searchParams.get('schema')!;
        const rows = await client.query(`SELECT value FROM "${schema}"._servicespec_records WHERE namespace = $1 AND key = $2`, ['idempotency', '-|sweep-1']);
        return (rows.rows[0] as { value: string } | undefined)?.value;
      } finally {
        await client.end();
      }
    };
    expect(await held()).toBeDefined();
    clock += 2 * 3_600_000;
    await until(async () => (await held()) === undefined, 10_000, 'the expired record to be removed');
    const again = await s.call('POST', '/items', { name: 'kept' }, { 'idempotency-key': 'sweep-1' });
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([201, null]);
  });
});
