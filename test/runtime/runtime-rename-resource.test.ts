// A resource renamed (`renamedFrom` on the resource) between two served versions of a spec, over real HTTP on the
// test database (SQLite, or PostgreSQL with SERVICESPEC_TEST_DB=postgres): objects created through the old spec are
// read back through the new one after `servicespec migrate --apply`, under the same identifiers; new objects get
// fresh ones; references another resource holds to them still resolve. Until migrated, serve names the rename.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileSpecFile } from '../../src/program.js';
import type { CheckedModel } from '../../src/model/model-types.js';
import { createService, ServiceStartError } from '../../src/runtime/service/runtime-service.js';
import { createPostgresStorage } from '../../src/runtime/storage/storage-postgres.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import type { Storage } from '../../src/runtime/storage/storage-types.js';
import { runCli } from '../cli/cli-helpers.js';
import { callJson } from '../support/http.js';
import { dropTestSchema, getPostgresSkipReason, getTestSchemaUrl } from '../support/postgres.js';

const dir = mkdtempSync(join(tmpdir(), 'servicespec-rename-http-'));
const onPostgres = process.env.SERVICESPEC_TEST_DB === 'postgres';
const pgUrl = onPostgres ? getTestSchemaUrl() : undefined;
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  if (pgUrl !== undefined) await dropTestSchema(pgUrl);
});

const errors = `errors:
  codes:
    validation_failed: { status: 422, when: [validation] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
    duplicate: { status: 409, when: [unique_conflict] }
    bad_reference: { status: 422, when: [reference_not_found] }
`;

const V1 = `servicespec: 1
purpose: { name: Tasks, summary: Tasks and comments on them. }
resources:
  Task:
    fields:
      id: { type: integer, readOnly: true }
      title: { type: string, unique: true }
      note: { type: string, optional: true }
  Comment:
    fields:
      id: { type: integer, readOnly: true }
      task: { type: ref, to: Task }
      body: { type: string }
endpoints:
  operations:
    createTask: { method: POST, path: /tasks, action: create, resource: Task, errors: [validation_failed, duplicate] }
    getTask: { method: GET, path: "/tasks/{id}", action: read, resource: Task, errors: [not_found] }
    listTasks: { method: GET, path: /tasks, action: list, resource: Task }
    createComment: { method: POST, path: /comments, action: create, resource: Comment, errors: [validation_failed, bad_reference] }
    getComment: { method: GET, path: "/comments/{id}", action: read, resource: Comment, errors: [not_found] }
${errors}`;

/** Task is Todo now, served under /todos; its note is a remark; a field is added; comments refer to Todos. */
const V2 = `servicespec: 1
purpose: { name: Tasks, summary: Tasks and comments on them. }
resources:
  Todo:
    renamedFrom: Task
    fields:
      id: { type: integer, readOnly: true }
      title: { type: string, unique: true }
      remark: { type: string, optional: true, renamedFrom: note }
      done: { type: boolean, optional: true }
  Comment:
    fields:
      id: { type: integer, readOnly: true }
      task: { type: ref, to: Todo }
      body: { type: string }
endpoints:
  operations:
    createTodo: { method: POST, path: /todos, action: create, resource: Todo, errors: [validation_failed, duplicate] }
    getTodo: { method: GET, path: "/todos/{id}", action: read, resource: Todo, errors: [not_found] }
    listTodos: { method: GET, path: /todos, action: list, resource: Todo }
    createComment: { method: POST, path: /comments, action: create, resource: Comment, errors: [validation_failed, bad_reference] }
    getComment: { method: GET, path: "/comments/{id}", action: read, resource: Comment, errors: [not_found] }
${errors}`;

function load(name: string, text: string): { file: string; model: CheckedModel } {
  const file = join(dir, name);
  writeFileSync(file, text);
  const c = compileSpecFile(file);
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return { file, model: c.checked! };
}

const dbPath = join(dir, 'service.db');
const dbUrl = pgUrl ?? `sqlite:${dbPath}`;
const openStorage = (): Storage => (pgUrl !== undefined ? createPostgresStorage({ url: pgUrl }) : createSqliteStorage({ path: dbPath }));

/** The spec served on the test database until `work` is done (the storage closed with the server). */
async function serving<T>(
  model: CheckedModel,
  work: (call: (method: string, path: string, body?: unknown) => ReturnType<typeof callJson>) => Promise<T>,
): Promise<T> {
  const app = await createService(model, { storage: openStorage(), allowGaps: true });
  try {
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    return await work((method, path, body) => callJson(url, method, path, body));
  } finally {
    await app.close();
  }
}

describe.skipIf(onPostgres && (await getPostgresSkipReason()) !== undefined)(
  `a resource renamed between two served specs (${onPostgres ? 'PostgreSQL' : 'SQLite'})`,
  () => {
    it('keeps every object, its identifier and the references to it through migrate; new objects get fresh identifiers', async () => {
      const v1 = load('v1.yaml', V1);
      const v2 = load('v2.yaml', V2);
      await serving(v1.model, async (call) => {
        for (const [title, note] of [
          ['one', 'n1'],
          ['two', undefined],
          ['three', 'n3'],
        ])
          expect((await call('POST', '/tasks', { title, ...(note !== undefined ? { note } : {}) })).status).toBe(201);
        expect((await call('POST', '/comments', { task: 1, body: 'on one' })).body).toEqual({ id: 1, task: 1, body: 'on one' });
        expect((await call('POST', '/comments', { task: 3, body: 'on three' })).status).toBe(201);
        expect((await call('GET', '/tasks/2')).body).toEqual({ id: 2, title: 'two' });
      });

      // Before the migration the new spec is not served: serve names the rename and the command that runs it.
      const early = openStorage();
      const refused = await createService(v2.model, { storage: early, allowGaps: true }).then(
        () => undefined,
        (err: unknown) => err,
      );
      await early.close().catch(() => undefined);
      expect(refused).toBeInstanceOf(ServiceStartError);
      expect((refused as ServiceStartError).problems).toEqual([
        'storage: resource Task is renamed to Todo (renamedFrom); its table is renamed, keeping its objects; serve runs only additive steps at start: plan this change with servicespec migrate',
      ]);

      const m = await runCli(['migrate', v2.file, '--db', dbUrl, '--apply']);
      expect(m.code).toBe(0);
      expect(m.stdout).toContain('[keeps] rename resource Task to Todo: 3 rows move with it');
      expect(m.stdout).toContain('[keeps] rename field Todo.note to remark (declared renamedFrom): the values of 2 rows move with it');
      expect(m.stdout).not.toMatch(/drop|loses/);

      await serving(v2.model, async (call) => {
        // The same objects under the same identifiers, read through the new paths.
        expect((await call('GET', '/todos/1')).body).toEqual({ id: 1, title: 'one', remark: 'n1' });
        expect((await call('GET', '/todos')).body.items).toEqual([
          { id: 1, title: 'one', remark: 'n1' },
          { id: 2, title: 'two' },
          { id: 3, title: 'three', remark: 'n3' },
        ]);
        expect((await call('GET', '/tasks/1')).status).toBe(404);
        // A new object gets the next identifier, not one an old object holds.
        const made = await call('POST', '/todos', { title: 'four', done: false });
        expect(made.status).toBe(201);
        expect(made.body).toEqual({ id: 4, title: 'four', done: false });
        // Unique values are still unique across old and new objects.
        expect((await call('POST', '/todos', { title: 'two' })).status).toBe(409);
        // References held before the rename still resolve, new ones to old objects too; one to no Todo is refused.
        expect((await call('GET', '/comments/1')).body).toEqual({ id: 1, task: 1, body: 'on one' });
        expect((await call('POST', '/comments', { task: 2, body: 'on two' })).body).toEqual({ id: 3, task: 2, body: 'on two' });
        expect((await call('POST', '/comments', { task: 4, body: 'on four' })).status).toBe(201);
        expect((await call('POST', '/comments', { task: 99, body: 'on nothing' })).status).toBe(422);
      });

      // Served again (a restart): nothing left to migrate, the objects still there.
      await serving(v2.model, async (call) => {
        expect((await call('GET', '/todos')).body.items.map((t: { id: number }) => t.id)).toEqual([1, 2, 3, 4]);
      });
      expect((await runCli(['migrate', v2.file, '--db', dbUrl])).stdout).toContain('nothing to do');
    });
  },
);
