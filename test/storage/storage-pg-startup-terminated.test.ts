// A backend terminated as it starts (pg_terminate_backend under load, a server shutting down): the server's FATAL
// 57P01 can arrive in the same chunk as the connection's first ReadyForQuery. node-postgres' pool hands the new client
// over on the ReadyForQuery and reads the error at once, before the caller could listen: an 'error' event with no
// listener, an uncaught exception that ends the process (a flake of runtime-unavailable on Node 24). The fault is made
// at the edge, by the loopback relay in front of the real server; every request must still be answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { createPostgresStorage } from '../../src/runtime/storage/storage-postgres.js';
import { compileSpecText } from '../../src/program.js';
import { callJson } from '../support/http.js';
import { startPgRelay, getRelayedUrl, type PgRelay } from '../support/pg-relay.js';
import { dropTestSchema, getPostgresSkipReason, getTestSchemaUrl } from '../support/postgres.js';

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
    getNote: { method: GET, path: "/notes/{id}", action: read, resource: Note, auth: none }
errors:
  body: problem
  codes:
    unavailable: { status: 503, when: [unavailable] }
`;

describe.skipIf(pgSkip !== undefined)('PostgreSQL: a backend terminated as its connection starts', () => {
  const url = getTestSchemaUrl();
  let relay: PgRelay;
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => void uncaught.push(err);

  beforeAll(async () => {
    relay = await startPgRelay(new URL(url));
    process.on('uncaughtException', onUncaught);
  });
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await relay.close();
    await dropTestSchema(url);
  });

  it('is no uncaught exception: the statement on that connection is tried again on another, and answered', async () => {
    const compiled = compileSpecText(SPEC, 'notes.yaml');
    const storage = createPostgresStorage({ url: getRelayedUrl(url, relay), poolSize: 4 });
    const app = await createService(compiled.checked!, { storage, allowGaps: true });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const note = await callJson(base, 'POST', '/notes', { text: 'hello' }, {});
      expect(note.status).toBe(201);
      // The pool holds one idle connection; four reads at once need three new ones, the first of which is terminated.
      relay.terminateNextStartup();
      const reads = await Promise.all(Array.from({ length: 4 }, () => callJson(base, 'GET', `/notes/${note.body.id}`, undefined, {})));
      expect(reads.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      expect(uncaught).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
