// A write whose COMMIT reached PostgreSQL and was applied, but whose answer never came back (the connection dropped
// between): the runtime answers `unavailable` (503 + Retry-After). Every keyed write (create, update, delete,
// transition) claims its Idempotency-Key in its own transaction, so a retry with the key replays the stored answer
// when the change committed, and runs anew when it did not; never applied twice, never refused for the retention.
// The fault is made at the edge: a TCP relay on loopback between the service and the real server, which passes the
// COMMIT on, waits for the server's "COMMIT" completion (the change is applied) and drops both sides instead of
// passing it back; or drops the COMMIT before it reaches the server (nothing is applied).
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
      slug: { type: string, maxLength: 20, unique: true, optional: true }
      status: { type: state }
states:
  Note:
    field: status
    initial: draft
    states:
      draft: {}
      published: { terminal: true }
    transitions:
      publish: { from: draft, to: published }
endpoints:
  idempotency: { header: Idempotency-Key, retention: 1h }
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note, auth: none }
    getNote: { method: GET, path: "/notes/{id}", action: read, resource: Note, auth: none }
    updateNote: { method: PATCH, path: "/notes/{id}", action: update, resource: Note, auth: none }
    deleteNote: { method: DELETE, path: "/notes/{id}", action: delete, resource: Note, auth: none }
    publishNote: { method: POST, path: "/notes/{id}/publish", action: transition, resource: Note, transition: publish, auth: none }
errors:
  body: problem
  codes:
    invalid: { status: 422, when: [validation] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
    idempotency_conflict: { status: 422, when: [idempotency_conflict] }
    idempotency_in_progress: { status: 409, when: [idempotency_in_progress] }
    illegal: { status: 409, when: [illegal_transition] }
    taken: { status: 409, when: [unique_conflict] }
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
    const app = await createService(compiled.checked!, { storage, allowGaps: true });
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

  it('a keyed update whose COMMIT answer is lost: 503, applied once, and the retry replays its answer', async () => {
    const created = await call('POST', '/notes', { text: 'a' });
    expect(created.status).toBe(201);
    const drops = relay.dropped();
    relay.loseNextCommit();
    const first = await call('PATCH', `/notes/${created.body.id}`, { text: 'b' }, { 'idempotency-key': 'update-1' });
    expect(relay.dropped()).toBe(drops + 1);
    expect([first.status, first.headers.get('retry-after')]).toEqual([503, '1']);
    expect((await call('GET', `/notes/${created.body.id}`)).body.text).toBe('b');
    // Changed meanwhile: a retry that ran again would overwrite this; a replay leaves it.
    expect((await call('PATCH', `/notes/${created.body.id}`, { text: 'c' })).status).toBe(200);
    const retry = await call('PATCH', `/notes/${created.body.id}`, { text: 'b' }, { 'idempotency-key': 'update-1' });
    expect([retry.status, retry.headers.get('idempotent-replayed'), retry.body.text]).toEqual([200, 'true', 'b']);
    expect((await call('GET', `/notes/${created.body.id}`)).body.text).toBe('c');
    expect((await call('PATCH', `/notes/${created.body.id}`, { text: 'd' }, { 'idempotency-key': 'update-1' })).status).toBe(422);
  });

  it('a keyed update whose COMMIT never reached the server: 503, nothing applied, and the retry runs', async () => {
    const created = await call('POST', '/notes', { text: 'a' });
    relay.dropNext('COMMIT');
    const first = await call('PATCH', `/notes/${created.body.id}`, { text: 'b' }, { 'idempotency-key': 'update-2' });
    expect([first.status, first.headers.get('retry-after')]).toEqual([503, '1']);
    expect((await call('GET', `/notes/${created.body.id}`)).body.text).toBe('a');
    const retry = await call('PATCH', `/notes/${created.body.id}`, { text: 'b' }, { 'idempotency-key': 'update-2' });
    expect([retry.status, retry.headers.get('idempotent-replayed'), retry.body.text]).toEqual([200, null, 'b']);
    const again = await call('PATCH', `/notes/${created.body.id}`, { text: 'b' }, { 'idempotency-key': 'update-2' });
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
  });

  it('a keyed delete whose COMMIT answer is lost: 503, deleted, and the retry replays 204 (not 404)', async () => {
    const created = await call('POST', '/notes', { text: 'gone' });
    const drops = relay.dropped();
    relay.loseNextCommit();
    const first = await call('DELETE', `/notes/${created.body.id}`, undefined, { 'idempotency-key': 'delete-1' });
    expect(relay.dropped()).toBe(drops + 1);
    expect(first.status).toBe(503);
    expect((await call('GET', `/notes/${created.body.id}`)).status).toBe(404);
    const retry = await call('DELETE', `/notes/${created.body.id}`, undefined, { 'idempotency-key': 'delete-1' });
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([204, 'true']);
  });

  it('a keyed transition whose COMMIT answer is lost: 503, applied once, and the retry replays it (not illegal_transition)', async () => {
    const created = await call('POST', '/notes', { text: 'news' });
    const drops = relay.dropped();
    relay.loseNextCommit();
    const first = await call('POST', `/notes/${created.body.id}/publish`, undefined, { 'idempotency-key': 'publish-1' });
    expect(relay.dropped()).toBe(drops + 1);
    expect(first.status).toBe(503);
    const retry = await call('POST', `/notes/${created.body.id}/publish`, undefined, { 'idempotency-key': 'publish-1' });
    expect([retry.status, retry.headers.get('idempotent-replayed'), retry.body.status]).toEqual([200, 'true', 'published']);
    // Without the key, publishing again is refused: the transition was applied once.
    expect((await call('POST', `/notes/${created.body.id}/publish`)).status).toBe(409);
  });

  it('a keyed write refused inside its transaction keeps its error answer for the key', async () => {
    const missing = await call('PATCH', '/notes/999999', { text: 'x' }, { 'idempotency-key': 'update-missing' });
    expect(missing.status).toBe(404);
    const retry = await call('PATCH', '/notes/999999', { text: 'x' }, { 'idempotency-key': 'update-missing' });
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([404, 'true']);
    // A create the database refused (the key claimed first in its transaction, rolled back with it): kept too.
    expect((await call('POST', '/notes', { text: 'a', slug: 'taken' })).status).toBe(201);
    const dup = await call('POST', '/notes', { text: 'b', slug: 'taken' }, { 'idempotency-key': 'create-taken' });
    expect([dup.status, dup.body.code]).toEqual([409, 'taken']);
    const dupRetry = await call('POST', '/notes', { text: 'b', slug: 'taken' }, { 'idempotency-key': 'create-taken' });
    expect([dupRetry.status, dupRetry.headers.get('idempotent-replayed'), dupRetry.body.code]).toEqual([409, 'true', 'taken']);
  });
});
