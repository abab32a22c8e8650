// A list that answers a total reads its page and its total from one snapshot on PostgreSQL: a write committed
// between the two statements does not make the total disagree with the page. The write is made at the edge: a
// loopback relay holds the count statement until the test has committed a row through a connection of its own.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { createPostgresStorage } from '../../src/runtime/storage/storage-postgres.js';
import { callJson } from '../support/http.js';
import { getRelayedUrl, startPgRelay, type PgRelay } from '../support/pg-relay.js';
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
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note, auth: none }
    listNotes: { method: GET, path: /notes, action: list, resource: Note, auth: none, paging: { style: offset, items: data, total: total } }
errors:
  body: problem
  codes:
    invalid: { status: 422, when: [validation] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
`;

describe.skipIf(pgSkip !== undefined)('PostgreSQL: a page and its total', () => {
  const url = getTestSchemaUrl();
  const schema = new URL(url).searchParams.get('schema')!;
  let relay: PgRelay;
  let call: (method: string, path: string, body?: unknown) => ReturnType<typeof callJson>;
  let close: () => Promise<void>;
  beforeAll(async () => {
    relay = await startPgRelay(new URL(POSTGRES_URL));
    const compiled = compileSpecText(SPEC, 'notes.yaml');
    const storage = createPostgresStorage({ url: getRelayedUrl(url, relay), poolSize: 4 });
    const app = await createService(compiled.checked!, { storage, allowGaps: true });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    call = (method, path, body) => callJson(base, method, path, body, {});
    close = async () => {
      await app.close();
      await relay.close();
      await dropTestSchema(url);
    };
  });
  afterAll(async () => close?.());

  it('agree though a row is committed between the two statements', async () => {
    for (const text of ['a', 'b', 'c']) expect((await call('POST', '/notes', { text })).status).toBe(201);
    relay.holdNext('count(*)', async () => {
      const c = new pg.Client({ connectionString: POSTGRES_URL });
      await c.connect();
      try {
        await c.query(`INSERT INTO "${schema}"."Note" (text) VALUES ('meanwhile')`);
      } finally {
        await c.end();
      }
    });
    const page = await call('GET', '/notes?limit=50');
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(page.body.data.length);
    // The row committed meanwhile is there for the next read.
    const next = await call('GET', '/notes?limit=50');
    expect([next.body.data.length, next.body.total]).toEqual([4, 4]);
  });
});
