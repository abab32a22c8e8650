// A fault of the database is answered `unavailable` (503 with Retry-After), never `internal` (500): backends
// terminated under load (PostgreSQL), a pool with no connection to give, a serialization failure, and SQLite's write
// lock held past its busy_timeout. Real HTTP to a real server on a real database; the faults are made from outside the service.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { createPostgresStorage } from '../../src/runtime/storage/storage-postgres.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { loadSqliteDriver } from '../../src/runtime/storage/storage-sqlite-driver.js';
import type { Storage } from '../../src/runtime/storage/storage-types.js';
import { getRoutes, getUndeclaredConditions } from '../../src/model/model-routes.js';
import { compileSpecText } from '../../src/program.js';
import { callJson } from '../support/http.js';
import { dropTestSchema, getPostgresSkipReason, getTestSchemaUrl, POSTGRES_URL } from '../support/postgres.js';
import { loadModel, TICKETS } from './helpers.js';

const pgSkip = await getPostgresSkipReason();
const dir = mkdtempSync(join(tmpdir(), 'servicespec-unavailable-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const model = loadModel(TICKETS);

/** The tickets spec with a code declared for `unavailable`: the declared code and status answer it. */
const declaredModel = (() => {
  const c = compileSpecText(
    `servicespec: 1
purpose: { name: Notes, summary: Keeps notes. }
resources:
  Note:
    fields:
      id: { type: uuid, readOnly: true }
      text: { type: string, maxLength: 100 }
endpoints:
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note, auth: none }
    getNote: { method: GET, path: "/notes/{id}", action: read, resource: Note, auth: none }
errors:
  body: problem
  codes:
    try_later: { status: 503, title: Try again later, when: [unavailable] }
    broken: { status: 500, when: [internal] }
`,
    'notes.yaml',
  );
  if (!c.model) throw new Error(c.diagnostics.map((d) => d.message).join('; '));
  return c.checked!;
})();

async function serve(storage: Storage, m = model, logged?: string[]) {
  const logger = logged ? { level: 'error', stream: { write: (line: string) => void logged.push(line) } } : undefined;
  const app = await createService(m, { storage, allowGaps: true, ...(logger ? { logger } : {}) });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, call: (method: string, path: string, body?: unknown) => callJson(url, method, path, body, {}) };
}

/** Runs `sql` on a connection of its own (not the service's). */
async function admin<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: POSTGRES_URL });
  await c.connect();
  try {
    return (await c.query(sql, params)).rows as T[];
  } finally {
    await c.end();
  }
}

describe.skipIf(pgSkip !== undefined)('PostgreSQL: backends terminated under load', () => {
  it('answers no 500: every refusal is 503 with Retry-After, every acknowledged write is readable afterwards', async () => {
    // The service's connections carry an application_name of their own, so the test terminates only them.
    const name = `ss_unavailable_${process.pid}`;
    const url = `${getTestSchemaUrl()}&application_name=${name}`;
    const storage = createPostgresStorage({ url, poolSize: 4 });
    // What the service logs and any rejection nobody handled: a 500 or an uncaught driver error names its cause.
    const logged: string[] = [];
    const unhandled: string[] = [];
    const onUnhandled = (err: unknown) => void unhandled.push(String((err as Error)?.stack ?? err));
    process.on('unhandledRejection', onUnhandled);
    const { app, call } = await serve(storage, model, logged);
    try {
      const project = await call('POST', '/projects', { slug: 'core', name: 'Core' });
      expect(project.status).toBe(201);
      const created: string[] = [];
      const statuses = new Map<number, number>();
      const refused: { status: number; retryAfter: string | null; code: unknown }[] = [];
      let done = 0;
      let terminated = 0;
      const TOTAL = 400;
      let next = 0;
      // A bounded loop: 8 clients share 400 requests, creates and reads of created tickets alternating.
      const client = async () => {
        while (next < TOTAL) {
          const i = next++;
          const read = i % 2 === 1 && created.length > 0;
          const r = read
            ? await call('GET', `/tickets/${created[i % created.length]}`)
            : await call('POST', '/tickets', { project: project.body.id, title: `T${i}`, reporter: 'ann@example.com' });
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          if (r.status === 201) created.push(r.body.id as string);
          else if (r.status !== 200) refused.push({ status: r.status, retryAfter: r.headers.get('retry-after'), code: r.body?.code });
          done++;
        }
      };
      // Every 25 answers, the service's backends are terminated (its pool and its LISTEN connection).
      const killer = async () => {
        let at = 0;
        while (done < TOTAL) {
          if (done >= at + 25) {
            at = done;
            const rows = await admin<{ ok: boolean }>('SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1', [name]);
            terminated += rows.filter((r) => r.ok).length;
          }
          await new Promise((r) => setImmediate(r));
        }
      };
      await Promise.all([...Array.from({ length: 8 }, client), killer()]);
      expect(terminated).toBeGreaterThan(0);
      console.log(`terminated ${terminated} backends; answers ${JSON.stringify([...statuses])}`);
      expect({ answered500: statuses.get(500) ?? 0, unhandled }, logged.join('\n')).toEqual({ answered500: 0, unhandled: [] });
      for (const r of refused) expect(r).toEqual({ status: 503, retryAfter: '1', code: 'unavailable' });
      expect(created.length).toBeGreaterThan(0);
      // Every acknowledged create is there, with its event in the outbox.
      // A read right after the last termination may meet a pooled connection that died with it: answered 503 with
      // Retry-After, as a client is told to retry (a Node 24 CI run met it once); the write must be there then.
      const readBack = async (id: string) => {
        let r = await call('GET', `/tickets/${id}`);
        for (let i = 0; i < 3 && r.status === 503; i++) r = await call('GET', `/tickets/${id}`);
        return r.status;
      };
      for (const id of created) expect(await readBack(id)).toBe(200);
      const events = await storage.readEvents(0, 10_000);
      const payloads = events.map((e) => JSON.stringify(e.data)).join('\n');
      for (const id of created) expect(payloads.includes(id)).toBe(true);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await app.close();
      await dropTestSchema(url.replace(/&application_name=.*/, ''));
    }
  });

  it('a pool with no connection to give within connectTimeoutMs: 503 with Retry-After, the declared code', async () => {
    const url = getTestSchemaUrl();
    const storage = createPostgresStorage({ url, poolSize: 1, connectTimeoutMs: 200 });
    const { app, call } = await serve(storage, declaredModel);
    try {
      const note = await call('POST', '/notes', { text: 'hello' });
      expect(note.status).toBe(201);
      // The only connection is held by a transaction that waits.
      let release!: () => void;
      let taken!: () => void;
      const connected = new Promise<void>((r) => (taken = r));
      // The work runs once the transaction has its connection.
      const held = storage.transaction(() => (taken(), new Promise<void>((r) => (release = r))));
      await connected;
      const read = await call('GET', `/notes/${note.body.id}`);
      const write = await call('POST', '/notes', { text: 'again' });
      release();
      await held;
      for (const r of [read, write]) {
        expect(r.status).toBe(503);
        expect(r.headers.get('retry-after')).toBe('1');
        expect(r.body).toMatchObject({ code: 'try_later', status: 503, title: 'Try again later' });
      }
      // The refused write was not applied; the pool serves again.
      expect((await call('GET', `/notes/${note.body.id}`)).status).toBe(200);
    } finally {
      await app.close();
      await dropTestSchema(url);
    }
  });

  it('a serialization failure (40001): retried once inside, then 503 with Retry-After and nothing applied', async () => {
    const url = getTestSchemaUrl();
    const schema = `"${new URL(url).searchParams.get('schema')!}"`;
    const storage = createPostgresStorage({ url, poolSize: 2 });
    const { app, call } = await serve(storage, declaredModel);
    try {
      expect((await call('POST', '/notes', { text: 'first' })).status).toBe(201);
      // The server refuses an INSERT with 40001 while a sequence (not rolled back with the transaction) is at or below
      // `upto`: a real SQLSTATE from the real server, made from outside the service.
      await admin(`CREATE SEQUENCE ${schema}.tries`);
      await admin(`CREATE TABLE ${schema}.plan (upto bigint NOT NULL)`);
      await admin(`INSERT INTO ${schema}.plan VALUES (1)`);
      await admin(`CREATE FUNCTION ${schema}.refuse() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF nextval('${schema}.tries') <= (SELECT upto FROM ${schema}.plan) THEN
            RAISE EXCEPTION 'could not serialize access (test)' USING ERRCODE = 'serialization_failure';
          END IF;
          RETURN NEW;
        END $$`);
      await admin(`CREATE TRIGGER refuse BEFORE INSERT ON ${schema}."Note" FOR EACH ROW EXECUTE FUNCTION ${schema}.refuse()`);
      const count = async () => Number((await admin<{ n: string }>(`SELECT count(*) AS n FROM ${schema}."Note"`))[0]!.n);
      const tries = async () => Number((await admin<{ n: string }>(`SELECT last_value AS n FROM ${schema}.tries`))[0]!.n);
      // Refused once: the transaction runs again (nothing of the first run was applied) and commits once.
      const once = await call('POST', '/notes', { text: 'retried' });
      expect(once.status).toBe(201);
      expect([await tries(), await count()]).toEqual([2, 2]);
      // Refused every time: answered with the declared `unavailable` code, never 500, and nothing applied.
      await admin(`UPDATE ${schema}.plan SET upto = 1000000`);
      const refused = await call('POST', '/notes', { text: 'refused' });
      expect([refused.status, refused.headers.get('retry-after')]).toEqual([503, '1']);
      expect(refused.body).toMatchObject({ code: 'try_later', status: 503 });
      // Tried twice (once more inside), not more.
      expect([await tries(), await count()]).toEqual([4, 2]);
      await admin(`UPDATE ${schema}.plan SET upto = 0`);
      expect((await call('POST', '/notes', { text: 'again' })).status).toBe(201);
    } finally {
      await app.close();
      await dropTestSchema(url);
    }
  });

  it('an idle pooled connection terminated: the next read and write are retried inside and succeed', async () => {
    const name = `ss_unavailable_idle_${process.pid}`;
    const url = `${getTestSchemaUrl()}&application_name=${name}`;
    const storage = createPostgresStorage({ url, poolSize: 1 });
    const { app, call } = await serve(storage);
    try {
      const project = await call('POST', '/projects', { slug: 'idle', name: 'Idle' });
      expect(project.status).toBe(201);
      await admin('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [name]);
      expect((await call('GET', `/projects/${project.body.id}`)).status).toBe(200);
      await admin('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [name]);
      expect((await call('POST', '/projects', { slug: 'idle-2', name: 'Idle 2' })).status).toBe(201);
    } finally {
      await app.close();
      await dropTestSchema(url.replace(/&application_name=.*/, ''));
    }
  });
});

describe('the unavailable condition in the model', () => {
  it('declared: every route lists it (so the exports document it); not declared: no route asks for it', () => {
    for (const r of getRoutes(declaredModel)) expect(r.conditions).toContain('unavailable');
    for (const r of getRoutes(model)) expect(r.conditions).not.toContain('unavailable');
    expect(getUndeclaredConditions(model)).not.toContain('unavailable');
  });
});

describe('SQLite: the write lock held by another connection past busy_timeout', () => {
  it('answers 503 with Retry-After (the built-in code), then serves once the lock is gone', async () => {
    const path = join(dir, 'busy.db');
    const storage = createSqliteStorage({ path, synchronous: 'normal', busyTimeoutMs: 50 });
    const { app, call } = await serve(storage);
    const other = new (loadSqliteDriver())(path);
    try {
      const project = await call('POST', '/projects', { slug: 'busy', name: 'Busy' });
      expect(project.status).toBe(201);
      other.exec('BEGIN IMMEDIATE');
      // A create with no event (committed at once) and one with an event (a transaction).
      const plain = await call('POST', '/projects', { slug: 'busy-2', name: 'Busy 2' });
      const evented = await call('POST', '/tickets', { project: project.body.id, title: 'T', reporter: 'ann@example.com' });
      for (const r of [plain, evented]) {
        expect(r.status).toBe(503);
        expect(r.headers.get('retry-after')).toBe('1');
        expect(r.body).toMatchObject({ code: 'unavailable', status: 503 });
      }
      // Reads are not blocked by a writer (WAL).
      expect((await call('GET', `/projects/${project.body.id}`)).status).toBe(200);
      other.exec('ROLLBACK');
      expect((await call('POST', '/projects', { slug: 'busy-2', name: 'Busy 2' })).status).toBe(201);
    } finally {
      other.close();
      await app.close();
    }
  });
});

/** Holds SQLite's write lock on `path` in another process until told (a line on its stdin); says 'locked', 'released'. */
const PROCESS_LOCK_HOLDER = `
const { createRequire } = require('node:module');
const req = createRequire(process.argv[2]);
let Driver;
if (Number(process.versions.node.split('.')[0]) >= 22) try { Driver = req('better-sqlite3-napi'); } catch {}
Driver ??= req('better-sqlite3');
const db = new Driver(process.argv[1]);
db.exec('BEGIN IMMEDIATE');
console.log('locked');
process.stdin.once('data', () => { db.exec('ROLLBACK'); db.close(); console.log('released'); process.exit(0); });
`;

describe('SQLite: the write lock held by another process past busy_timeout', () => {
  it('answers 503 with Retry-After to a create and a transaction, applies nothing, and serves once the lock is gone', async () => {
    const path = join(dir, 'busy-process.db');
    const storage = createSqliteStorage({ path, synchronous: 'normal', busyTimeoutMs: 50 });
    const { app, call } = await serve(storage);
    // Made before the holder starts: once it runs, it may take the lock at any moment.
    const project = await call('POST', '/projects', { slug: 'proc', name: 'Proc' });
    expect(project.status).toBe(201);
    const holder = spawn(process.execPath, ['-e', PROCESS_LOCK_HOLDER, path, import.meta.url], { stdio: ['pipe', 'pipe', 'inherit'] });
    const lines = createInterface({ input: holder.stdout! })[Symbol.asyncIterator]();
    try {
      expect((await lines.next()).value).toBe('locked');
      const plain = await call('POST', '/projects', { slug: 'proc-2', name: 'Proc 2' });
      const evented = await call('POST', '/tickets', { project: project.body.id, title: 'T', reporter: 'ann@example.com' });
      for (const r of [plain, evented]) expect([r.status, r.headers.get('retry-after'), r.body.code]).toEqual([503, '1', 'unavailable']);
      expect((await call('GET', `/projects/${project.body.id}`)).status).toBe(200);
      holder.stdin!.write('release\n');
      expect((await lines.next()).value).toBe('released');
      expect((await call('POST', '/projects', { slug: 'proc-2', name: 'Proc 2' })).status).toBe(201);
      expect((await call('GET', '/tickets')).body.items).toEqual([]);
    } finally {
      holder.kill();
      await app.close();
    }
  });
});

/**
 * Holds SQLite's write lock on `path` from another thread until told to let go, or for `holdMs` at most, then
 * releases it ('locked', then 'released').
 */
const LOCK_HOLDER = `
const { parentPort, workerData } = require('node:worker_threads');
const { createRequire } = require('node:module');
const req = createRequire(workerData.from);
let Driver;
if (Number(process.versions.node.split('.')[0]) >= 22) try { Driver = req('better-sqlite3-napi'); } catch {}
Driver ??= req('better-sqlite3');
const db = new Driver(workerData.path);
db.exec('BEGIN IMMEDIATE');
parentPort.postMessage('locked');
const release = () => { clearTimeout(timer); parentPort.off('message', release); db.exec('ROLLBACK'); db.close(); parentPort.postMessage('released'); };
const timer = setTimeout(release, workerData.holdMs);
parentPort.on('message', release);
`;

describe('SQLite: the declared busy_timeout', () => {
  it('still holds after the start-up migration: a lock held longer is refused at once, not waited out', async () => {
    const path = join(dir, 'busy-declared.db');
    const storage = createSqliteStorage({ path, synchronous: 'normal', busyTimeoutMs: 50 });
    const { app, call } = await serve(storage);
    // Held by another thread until the write is answered, or 3 s at most: a write waiting 50 ms is refused; one
    // waiting 5 s (the migration used to leave busy_timeout at 5 s whatever was declared) would outlast the hold and be
    // applied. SQLite's busy_timeout is real time, so the hold is too: 3 s, 60 times the declared wait.
    const holder = new Worker(LOCK_HOLDER, { eval: true, workerData: { path, holdMs: 3000, from: import.meta.url } });
    try {
      expect((await once(holder, 'message'))[0]).toBe('locked');
      const write = await call('POST', '/projects', { slug: 'declared', name: 'Declared' });
      holder.postMessage('release');
      expect([write.status, write.headers.get('retry-after')]).toEqual([503, '1']);
      expect((await once(holder, 'message'))[0]).toBe('released');
      expect((await call('POST', '/projects', { slug: 'declared', name: 'Declared' })).status).toBe(201);
    } finally {
      await holder.terminate();
      await app.close();
    }
  }, 15_000);
});

// SQLite commits in-process: a COMMIT either returns or fails with nothing applied, so a write's outcome is never
// unknown there. What a keyed write meets is the lock held past busy_timeout: refused with nothing applied, and its
// key left free, on the fast path (claimed in the change's transaction) and the plain one (claimed before it).
const keyedModel = (() => {
  const c = compileSpecText(
    `servicespec: 1
purpose: { name: Notes, summary: Keeps notes. }
resources:
  Note:
    fields:
      id: { type: integer, readOnly: true }
      text: { type: string, maxLength: 100 }
endpoints:
  idempotency: { header: Idempotency-Key, retention: 1h }
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note, auth: none }
    getNote: { method: GET, path: "/notes/{id}", action: read, resource: Note, auth: none }
    updateNote: { method: PATCH, path: "/notes/{id}", action: update, resource: Note, auth: none }
    deleteNote: { method: DELETE, path: "/notes/{id}", action: delete, resource: Note, auth: none }
errors:
  body: problem
  codes:
    not_found: { status: 404, when: [missing_resource, route_not_found] }
`,
    'notes.yaml',
  );
  if (!c.model) throw new Error(c.diagnostics.map((d) => d.message).join('; '));
  return c.checked!;
})();

describe.each([true, false])('SQLite (fast paths %s): a keyed update or delete refused for the write lock', (fastPaths) => {
  it('answers 503 with Retry-After, applies nothing, and leaves the key free: the retry runs, the next replays', async () => {
    const path = join(dir, `busy-keyed-${String(fastPaths)}.db`);
    const storage = createSqliteStorage({ path, synchronous: 'normal', busyTimeoutMs: 50 });
    const app = await createService(keyedModel, { storage, allowGaps: true, fastPaths });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const call = (method: string, p: string, body?: unknown, headers: Record<string, string> = {}) => callJson(base, method, p, body, headers);
    const other = new (loadSqliteDriver())(path);
    try {
      const note = await call('POST', '/notes', { text: 'a' });
      expect(note.status).toBe(201);
      other.exec('BEGIN IMMEDIATE');
      const update = await call('PATCH', `/notes/${note.body.id}`, { text: 'b' }, { 'idempotency-key': 'u1' });
      const remove = await call('DELETE', `/notes/${note.body.id}`, undefined, { 'idempotency-key': 'd1' });
      for (const r of [update, remove]) expect([r.status, r.headers.get('retry-after'), r.body.code]).toEqual([503, '1', 'unavailable']);
      other.exec('ROLLBACK');
      expect((await call('GET', `/notes/${note.body.id}`)).body.text).toBe('a');
      const retry = await call('PATCH', `/notes/${note.body.id}`, { text: 'b' }, { 'idempotency-key': 'u1' });
      expect([retry.status, retry.headers.get('idempotent-replayed'), retry.body.text]).toEqual([200, null, 'b']);
      const replay = await call('PATCH', `/notes/${note.body.id}`, { text: 'b' }, { 'idempotency-key': 'u1' });
      expect([replay.status, replay.headers.get('idempotent-replayed'), replay.body]).toEqual([200, 'true', retry.body]);
      expect((await call('DELETE', `/notes/${note.body.id}`, undefined, { 'idempotency-key': 'd1' })).status).toBe(204);
      const again = await call('DELETE', `/notes/${note.body.id}`, undefined, { 'idempotency-key': 'd1' });
      expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([204, 'true']);
    } finally {
      other.close();
      await app.close();
    }
  });
});
