// The PostgreSQL storage tries a statement or a transaction once more after a fault only where that cannot apply a
// change twice: a read, an idempotent write, a transaction whose COMMIT was not sent. A transaction whose COMMIT's
// answer was lost, and a claim (not idempotent: its retry would find its own claim), are not tried again. Faults are
// made at the edge by a loopback relay in front of the real server; each case uses a fresh storage, so the statement
// named is parsed (its text sent) on the connection the relay watches.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { StorageUnavailableError } from '../../src/runtime/storage/storage-faults.js';
import { getStoragePlan } from '../../src/runtime/storage/storage-plan.js';
import { createPostgresStorage } from '../../src/runtime/storage/storage-postgres.js';
import type { Storage } from '../../src/runtime/storage/storage-types.js';
import { getRelayedUrl, startPgRelay, type PgRelay } from '../support/pg-relay.js';
import { dropTestSchema, getPostgresSkipReason, getTestSchemaUrl, POSTGRES_URL } from '../support/postgres.js';

const pgSkip = await getPostgresSkipReason();

const compiled = compileSpecText(
  `servicespec: 1
purpose: { name: Notes, summary: Keeps notes. }
resources:
  Note:
    fields:
      id: { type: integer, readOnly: true }
      text: { type: string, maxLength: 100 }
endpoints:
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note, auth: none }
`,
  'notes.yaml',
);
const plan = getStoragePlan(compiled.model!);

describe.skipIf(pgSkip !== undefined)('PostgreSQL: what is tried again after a fault', () => {
  const url = getTestSchemaUrl();
  const schema = new URL(url).searchParams.get('schema')!;
  const open: { relay: PgRelay; storage: Storage }[] = [];
  afterAll(async () => {
    for (const o of open) {
      await o.storage.close().catch(() => undefined);
      await o.relay.close();
    }
    await dropTestSchema(url);
  });
  /** A fresh storage through a fresh relay, the tables made. */
  const fresh = async () => {
    const relay = await startPgRelay(new URL(POSTGRES_URL));
    const storage = createPostgresStorage({ url: getRelayedUrl(url, relay), poolSize: 2 });
    open.push({ relay, storage });
    expect((await storage.migrate(plan)).ok).toBe(true);
    return { relay, storage };
  };
  const rows = async (sql: string): Promise<number> => {
    const c = new pg.Client({ connectionString: POSTGRES_URL });
    await c.connect();
    try {
      return Number((await c.query(sql)).rows[0].n);
    } finally {
      await c.end();
    }
  };
  const notes = (text: string) => rows(`SELECT count(*) AS n FROM "${schema}"."Note" WHERE text = '${text}'`);

  it('a transaction whose connection drops before its COMMIT is sent runs again, and is applied once', async () => {
    const { relay, storage } = await fresh();
    relay.dropNext(`INSERT INTO "Note"`);
    let runs = 0;
    await storage.transaction(async (tx) => (runs++, tx.insert('Note', { text: 'dropped-before' })));
    expect([runs, await notes('dropped-before')]).toEqual([2, 1]);
  });

  it('a transaction whose COMMIT answer is lost is not run again: unavailable, outcome unknown, applied once', async () => {
    const { relay, storage } = await fresh();
    relay.loseNextCommit();
    let runs = 0;
    const err = await storage.transaction(async (tx) => (runs++, tx.insert('Note', { text: 'commit-lost' }))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageUnavailableError);
    expect((err as StorageUnavailableError).outcomeUnknown).toBe(true);
    expect([runs, await notes('commit-lost')]).toEqual([1, 1]);
  });

  it('a claim whose answer is lost is not sent again (its retry would find its own claim)', async () => {
    const { relay, storage } = await fresh();
    relay.loseAnswerTo('INSERT INTO _servicespec_records AS r');
    const err = await storage.claimRecord('t', 'claim-1', 'v1', '2999-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageUnavailableError);
    expect(relay.dropped()).toBe(1);
    // It was applied once: the key holds its value, a second claim is not created.
    expect(await storage.claimRecord('t', 'claim-1', 'v2', '2999-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')).toEqual({ created: false, value: 'v1' });
  });

  it('an idempotent write and a read whose answers are lost are sent again and succeed', async () => {
    const { relay, storage } = await fresh();
    relay.loseAnswerTo('INSERT INTO _servicespec_records (namespace');
    await storage.putRecord('t', 'put-1', 'p1', '2999-01-01T00:00:00.000Z');
    expect(relay.dropped()).toBe(1);
    relay.loseAnswerTo('SELECT value FROM _servicespec_records WHERE namespace = $1 AND key = $2 AND expires_at');
    expect(await storage.findRecord!('t', 'put-1', '2026-01-01T00:00:00.000Z')).toBe('p1');
    expect(relay.dropped()).toBe(2);
    expect(await rows(`SELECT count(*) AS n FROM "${schema}"._servicespec_records WHERE key = 'put-1'`)).toBe(1);
  });
});
