// An operation's `request_fields`: its request takes only those writable fields of the resource. Served on the test
// database (SQLite, or PostgreSQL with SERVICESPEC_TEST_DB=postgres), with the fast paths and without: a field outside
// is refused like an unknown one (validation), required-ness inside follows the resource, a replace leaves the fields
// outside as they are, and a create leaving out a required field nothing fills is a gap answered not_implemented.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { createService, ServiceStartError } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { startService, type Running } from './helpers.js';
import { PLAIN_ERRORS } from '../support/specs.js';

const SPEC = `
servicespec: 1
resources:
  User:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string }
      email: { type: email }
      password: { type: string, writeOnly: true }
      nick: { type: string, optional: true }
      tier: { type: string, default: free }
endpoints:
  operations:
    addUser: { method: POST, path: /users, action: create, resource: User, request_fields: [name, email, password, nick] }
    getUser: { method: GET, path: "/users/{id}", action: read, resource: User }
    renameUser: { method: PATCH, path: "/users/{id}", action: update, resource: User, request_fields: [name, nick] }
    putUser: { method: PUT, path: "/users/{id}", action: replace, resource: User, request_fields: [name, nick] }
authentication:
  default: none
${PLAIN_ERRORS}`;

const TODOS = `
servicespec: 1
resources:
  Todo:
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string }
      status: { type: enum, values: [open, done] }
endpoints:
  operations:
    addTodo: { method: POST, path: /todos, action: create, resource: Todo, request_fields: [title] }
authentication:
  default: none
errors:
  body: problem
  codes:
    invalid: { status: 422, when: [validation] }
    not_json: { status: 415, when: [unsupported_media_type] }
    bad_body: { status: 400, when: [malformed_request] }
    too_large: { status: 413, when: [body_too_large] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
    not_allowed: { status: 405, when: [method_not_allowed] }
    headers: { status: 431, when: [headers_too_large] }
    internal: { status: 500, when: [internal] }
    unfinished: { status: 501, when: [not_implemented] }
`;

for (const fastPaths of [true, false]) {
  describe(`request_fields served (fast paths ${fastPaths ? 'on' : 'off'})`, () => {
    let s: Running;
    beforeAll(async () => {
      const c = compileSpecText(SPEC);
      expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      s = await startService(c.model!, { fastPaths });
    });
    afterAll(() => s.close());

    it('a create takes the fields it names, fills a default it leaves out, and refuses one outside as unknown', async () => {
      const made = await s.call('POST', '/users', { name: 'Ada', email: 'ada@example.com', password: 'pw' });
      expect(made.status).toBe(201);
      expect(made.body).toMatchObject({ name: 'Ada', email: 'ada@example.com', tier: 'free' });
      const outside = await s.call('POST', '/users', { name: 'Bo', email: 'bo@example.com', password: 'pw', tier: 'pro' });
      expect(outside.status).toBe(422);
      expect(JSON.stringify(outside.body)).toContain('tier');
      // Required inside the subset: still required.
      expect((await s.call('POST', '/users', { name: 'Cy', password: 'pw' })).status).toBe(422);
    });

    it('an update takes only its fields, none required; a replace requires its required ones and keeps the others', async () => {
      const made = await s.call('POST', '/users', { name: 'Ada', email: 'ada@example.com', password: 'pw', nick: 'a' });
      const id = (made.body as { id: string }).id;
      expect((await s.call('PATCH', `/users/${id}`, { email: 'x@example.com' })).status).toBe(422);
      const renamed = await s.call('PATCH', `/users/${id}`, { nick: 'ad' });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ name: 'Ada', nick: 'ad', email: 'ada@example.com' });
      expect((await s.call('PUT', `/users/${id}`, { nick: 'z' })).status).toBe(422);
      expect((await s.call('PUT', `/users/${id}`, { name: 'Ada', email: 'x@example.com' })).status).toBe(422);
      const replaced = await s.call('PUT', `/users/${id}`, { name: 'Ada L' });
      expect(replaced.status).toBe(200);
      // nick is the replace's: left out, it is cleared; email and tier are not, and keep their values.
      expect(replaced.body).toEqual({ id, name: 'Ada L', email: 'ada@example.com', tier: 'free' });
    });
  });
}

describe('a create leaving out a required field nothing fills', () => {
  it('is a gap: serve refuses it without allowGaps, naming the operation and the field', async () => {
    const c = compileSpecText(TODOS);
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const storage = createSqliteStorage({ path: ':memory:' });
    const err = await createService(c.checked!, { storage }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceStartError);
    expect((err as ServiceStartError).problems).toContainEqual(
      'value of Todo.status for operation addTodo (required, left out of its request_fields): not shown (with --allow-gaps the runtime would answer addTodo 501 with the declared code "unfinished" (not_implemented))',
    );
    await storage.close();
  });

  it('served with allowGaps, answers a valid request not_implemented naming the field, and refuses an invalid one first', async () => {
    const s = await startService(compileSpecText(TODOS).model!);
    try {
      const r = await s.call('POST', '/todos', { title: 'milk' });
      expect(r.status).toBe(501);
      expect((r.body as { detail: string }).detail).toContain('leave out `status`, which Todo requires');
      expect((await s.call('POST', '/todos', { title: 'milk', status: 'open' })).status).toBe(422);
    } finally {
      await s.close();
    }
  });
});

describe('request_fields of an older version', () => {
  it('names the fields as that version does (a renamed one by its old name), and refuses the others', async () => {
    const text = readFileSync(new URL('./fixtures/versioned.yaml', import.meta.url), 'utf8').replace(
      'updateBook: { method: PATCH, path: "/books/{id}", action: update, resource: Book, auth: none }',
      'updateBook: { method: PATCH, path: "/books/{id}", action: update, resource: Book, auth: none, request_fields: [title] }',
    );
    const c = compileSpecText(text);
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const s = await startService(c.model!);
    try {
      const made = await s.call('POST', '/v2/books', { title: 'Emma', pages: 474 });
      expect(made.status).toBe(201);
      const id = (made.body as { id: string }).id;
      const v1 = await s.call('PATCH', `/v1/books/${id}`, { name: 'Emma (2nd)' });
      expect(v1.status).toBe(200);
      expect(v1.body).toEqual({ id, name: 'Emma (2nd)', pages: 474 });
      const pages = await s.call('PATCH', `/v1/books/${id}`, { pages: 3 });
      expect(pages.status).toBe(422);
      expect(pages.body.errors).toEqual([{ pointer: '/pages', message: 'pages cannot be written here' }]);
      expect((await s.call('PATCH', `/v2/books/${id}`, { pages: 3 })).status).toBe(422);
      expect((await s.call('PATCH', `/v2/books/${id}`, { title: 'Emma (3rd)' })).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
