// A write whose COMMIT reached PostgreSQL and was applied, but whose answer never came back (the connection dropped
// between): the runtime answers `unavailable` (503 + Retry-After) and keeps the Idempotency-Key, so a retry with the
// key finds the outcome (a create: its stored answer) or is refused (an update: in progress), never applied twice.
// The fault is made at the edge: a TCP relay on loopback between the service and the real server, which passes the
// COMMIT on, waits for the server's "COMMIT" completion (the change is applied) and drops both sides instead of
// passing it back.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { createPostgresStorage } from '../../src/runtime/storage/storage-postgres.js';
import { compileSpecText } from '../../src/program.js';
import { callJson } from '../support/http.js';
import { startPgRelay, getRelayedUrl, type PgRelay } from '../support/pg-relay.js';
import { dropTestSchema, getPostgresSkipReason, getTestSchemaUrl, POSTGRES_URL } from '../support/postgres.js';

const pgSkip = await getPostgresSkipReason();

const SPEC = `servicespec: 1
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
errors:
  body: problem
  codes:
    invalid: { status: 422, when: [validation] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
    idempotency_conflict: { status: 422, when: [idempotency_conflict] }
    idempotency_in_progress: { status: 409, when: [idempotency_in_progress] }
    unavailable: { status: 503, when: [unavailable] }
`;

describe.skipIf(pgSkip !== undefined)('PostgreSQL: a COMMIT applied whose answer is lost', () => {
  const url = getTestSchemaUrl();
  let relay: PgRelay;
  let call: (method: string, path: string, body?: unknown, headers?: Record<string, string>) => ReturnType<typeof callJson>;
  let close: () => Promise<void>;
  const count = async () => {
    const c = new pg.Client({ connectionString: POSTGRES_URL });
    await c.connect();
    try {
      return Number((await c.query(`SELECT count(*) AS n FROM "${new URL(url).searchParams.get('schema')}"."Note"`)).rows[0].n);
    } finally {
      await c.end();
    }
  };
  beforeAll(async () => {
    relay = await startPgRelay(new URL(POSTGRES_URL));
    const compiled = compileSpecText(SPEC, 'notes.yaml');
    const storage = createPostgresStorage({ url: getRelayedUrl(url, relay), poolSize: 2 });
    const app = await createService(compiled.model!, { storage, allowGaps: true });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    call = (method, path, body, headers = {}) => callJson(base, method, path, body, headers);
    close = async () => {
      await app.close();
      await relay.close();
      await dropTestSchema(url);
    };
  });
  afterAll(async () => close?.());

  it('a keyed create: 503 with Retry-After, the row is there once, and the retry replays its answer', async () => {
    const before = await count();
    relay.loseNextCommit();
    const first = await call('POST', '/notes', { text: 'once' }, { 'idempotency-key': 'create-1' });
    expect(relay.dropped()).toBe(1);
    expect([first.status, first.headers.get('retry-after')]).toEqual([503, '1']);
    expect(await count()).toBe(before + 1);
    const retry = await call('POST', '/notes', { text: 'once' }, { 'idempotency-key': 'create-1' });
    expect([retry.status, retry.headers.get('idempotent-replayed'), retry.body.text]).toEqual([201, 'true', 'once']);
    expect(await count()).toBe(before + 1);
    // The key is the create's: another body with it is refused, a new key creates.
    expect((await call('POST', '/notes', { text: 'other' }, { 'idempotency-key': 'create-1' })).status).toBe(422);
    expect((await call('POST', '/notes', { text: 'two' }, { 'idempotency-key': 'create-2' })).status).toBe(201);
  });

  it('a keyed update: 503, the key stays held (a retry is refused as in progress, not applied again)', async () => {
    const created = await call('POST', '/notes', { text: 'a' });
    expect(created.status).toBe(201);
    relay.loseNextCommit();
    const first = await call('PATCH', `/notes/${created.body.id}`, { text: 'b' }, { 'idempotency-key': 'update-1' });
    expect(relay.dropped()).toBe(2);
    expect(first.status).toBe(503);
    expect((await call('GET', `/notes/${created.body.id}`)).body.text).toBe('b');
    const retry = await call('PATCH', `/notes/${created.body.id}`, { text: 'b' }, { 'idempotency-key': 'update-1' });
    expect(retry.status).toBe(409);
    // A write the server refused before its COMMIT (nothing applied) still frees the key: the retry runs.
    const missing = await call('PATCH', '/notes/999999', { text: 'x' }, { 'idempotency-key': 'update-2' });
    expect(missing.status).toBe(404);
  });
});
