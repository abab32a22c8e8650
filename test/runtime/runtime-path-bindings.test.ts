// Path parameters bound to fields (`bind`, docs/format.md "Path parameters bound to fields"), served over real HTTP
// on the test database (SQLite, or PostgreSQL with SERVICESPEC_TEST_DB=postgres), with the fast paths and without.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { startService, loadModel, type Running } from './helpers.js';

const SPEC = new URL('../fixtures/path-bindings.yaml', import.meta.url).pathname;

for (const fastPaths of [true, false]) {
  describe(`path bindings (fast paths ${fastPaths ? 'on' : 'off'})`, () => {
    let s: Running;
    beforeAll(async () => {
      s = await startService(loadModel(SPEC), { fastPaths });
      for (const username of ['ada', 'bob']) expect((await s.call('POST', '/users', { username, name: username.toUpperCase() })).status).toBe(201);
    });
    afterAll(async () => s?.close());

    it('reads, updates and deletes a user by its unique username; 404 when none holds it', async () => {
      const r = await s.call('GET', '/users/ada');
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ username: 'ada', name: 'ADA' });
      expect((await s.call('GET', '/users/nobody')).status).toBe(404);
      // A value the field cannot hold (its pattern) names no object, as a malformed identifier.
      expect((await s.call('GET', '/users/NOT%20VALID')).status).toBe(404);
      const u = await s.call('PATCH', '/users/bob', { name: 'Robert' });
      expect(u.status).toBe(200);
      expect(u.body).toMatchObject({ username: 'bob', name: 'Robert' });
      expect((await s.call('PATCH', '/users/nobody', { name: 'x' })).status).toBe(404);
      expect((await s.call('POST', '/users', { username: 'gone' })).status).toBe(201);
      expect((await s.call('DELETE', '/users/gone')).status).toBe(204);
      expect((await s.call('GET', '/users/gone')).status).toBe(404);
      expect((await s.call('DELETE', '/users/gone')).status).toBe(404);
    });

    it('an integer the path binds is decimal text only: 0x10, 1e1, +1, 01 name no repository', async () => {
      const made = await s.call('POST', '/users/dora/repos', { slug: 'numbers' });
      const id = made.body.id as number;
      expect((await s.call('GET', `/users/dora/repos/${id}`)).status).toBe(200);
      // Number() reads each of these as a number; a found object would answer another's path.
      for (const text of [`0x${id.toString(16)}`, `${id}e0`, `+${id}`, `0${id}`, `${id}.0`, `%20${id}`])
        expect((await s.call('GET', `/users/dora/repos/${text}`)).status, text).toBe(404);
    });

    it('a create sets the bound field from the path; a body that disagrees is refused with validation', async () => {
      const c = await s.call('POST', '/users/ada/repos', { slug: 'engine' });
      expect(c.status).toBe(201);
      expect(c.body).toMatchObject({ owner: 'ada', slug: 'engine', stars: 0 });
      // Location: the read's path, each parameter filled from the field it binds.
      expect(c.headers.get('location')).toBe(`/users/ada/repos/${c.body.id}`);
      const same = await s.call('POST', '/users/ada/repos', { slug: 'notes', owner: 'ada' });
      expect(same.status).toBe(201);
      const other = await s.call('POST', '/users/ada/repos', { slug: 'x', owner: 'bob' });
      expect(other.status).toBe(400);
      expect(JSON.stringify(other.body)).toContain('must equal the path parameter {username}');
      const bad = await s.call('POST', '/users/NOT%20VALID/repos', { slug: 'x' });
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toContain('username');
      expect((await s.call('POST', '/users/bob/repos', { slug: 'engine' })).status).toBe(201);
    });

    it('a list filters by the bound field', async () => {
      const ada = await s.call('GET', '/users/ada/repos');
      expect(ada.status).toBe(200);
      expect(ada.body.items.map((r: { slug: string }) => r.slug).sort()).toEqual(['engine', 'notes']);
      expect(ada.body.items.every((r: { owner: string }) => r.owner === 'ada')).toBe(true);
      const bob = await s.call('GET', '/users/bob/repos');
      expect(bob.body.items.map((r: { slug: string }) => r.slug)).toEqual(['engine']);
      expect((await s.call('GET', '/users/carol/repos')).body.items).toEqual([]);
    });

    it('reads, replaces and deletes a repository by owner and identifier: another owner’s path finds nothing', async () => {
      const bobs = (await s.call('GET', '/users/bob/repos')).body.items[0] as { id: number };
      const r = await s.call('GET', `/users/bob/repos/${bobs.id}`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: bobs.id, owner: 'bob', slug: 'engine' });
      expect((await s.call('GET', `/users/ada/repos/${bobs.id}`)).status).toBe(404);
      expect((await s.call('GET', '/users/bob/repos/not-a-number')).status).toBe(404);
      const put = await s.call('PUT', `/users/bob/repos/${bobs.id}`, { owner: 'bob', slug: 'motor', stars: 3 });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ id: bobs.id, owner: 'bob', slug: 'motor', stars: 3 });
      expect((await s.call('PUT', `/users/ada/repos/${bobs.id}`, { owner: 'ada', slug: 'stolen' })).status).toBe(404);
      expect((await s.call('DELETE', `/users/ada/repos/${bobs.id}`)).status).toBe(404);
      expect((await s.call('DELETE', `/users/bob/repos/${bobs.id}`)).status).toBe(204);
      expect((await s.call('GET', `/users/bob/repos/${bobs.id}`)).status).toBe(404);
    });
  });
}

// A transition on an object found by its bound fields, and an update of a scoped object (the compare-and-set on the
// state runs on the row the bound fields found).
const MACHINE = `servicespec: 1
resources:
  Issue:
    fields:
      id: { type: integer, readOnly: true }
      project: { type: string, maxLength: 20 }
      title: { type: string }
      status: { type: state }
states:
  Issue:
    initial: open
    transitions:
      close: { from: open, to: closed }
endpoints:
  operations:
    createIssue: { method: POST, path: '/projects/{project}/issues', action: create, resource: Issue, bind: { project: project } }
    updateIssue: { method: PATCH, path: '/projects/{project}/issues/{number}', action: update, resource: Issue, bind: { project: project, number: id } }
    closeIssue: { method: POST, path: '/projects/{project}/issues/{number}/close', action: transition, resource: Issue, transition: close, bind: { project: project, number: id } }
authentication:
  default: none
errors:
  codes:
    not_found: { status: 404, when: [missing_resource, route_not_found] }
    invalid: { status: 400, when: [validation, malformed_request, unsupported_media_type, headers_too_large, body_too_large] }
    conflict: { status: 409, when: [illegal_transition, method_not_allowed] }
    failed: { status: 500, when: [internal] }
`;

describe('path bindings: update and transition', () => {
  let s: Running;
  beforeAll(async () => {
    const c = compileSpecText(MACHINE);
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    s = await startService(c.model!);
  });
  afterAll(async () => s?.close());

  it('finds the issue by project and number; another project’s path finds nothing', async () => {
    const c = await s.call('POST', '/projects/core/issues', { title: 'crash' });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ project: 'core', status: 'open' });
    expect((await s.call('PATCH', `/projects/web/issues/${c.body.id}`, { title: 'x' })).status).toBe(404);
    expect((await s.call('PATCH', `/projects/core/issues/${c.body.id}`, { title: 'crash on start' })).body).toMatchObject({ title: 'crash on start' });
    expect((await s.call('POST', `/projects/web/issues/${c.body.id}/close`)).status).toBe(404);
    const closed = await s.call('POST', `/projects/core/issues/${c.body.id}/close`);
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: 'closed' });
    expect((await s.call('POST', `/projects/core/issues/${c.body.id}/close`)).status).toBe(409);
  });
});

// With the version in a path prefix (/v{version}): the prefix's parameter is the version's, the operation's own are
// bound; the create's Location keeps the prefix.
describe('path bindings under a version prefix', () => {
  let s: Running;
  beforeAll(async () => {
    const text = `${readFileSync(SPEC, 'utf8')}versioning:\n  scheme: integer\n  current: 2\n  placement: { path: "/v{version}" }\n  supported:\n    - version: 1\n`;
    const c = compileSpecText(
      text.replace('    failed: { status: 500, when: [internal] }', '    failed: { status: 500, when: [internal, unsupported_version] }'),
    );
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    s = await startService(c.model!);
  });
  afterAll(async () => s?.close());

  it('creates, reads and lists under the owner, in both versions', async () => {
    const c = await s.call('POST', '/v2/users/ada/repos', { slug: 'engine' });
    expect(c.status).toBe(201);
    expect(c.headers.get('location')).toBe(`/v2/users/ada/repos/${c.body.id}`);
    expect((await s.call('GET', `/v1/users/ada/repos/${c.body.id}`)).body).toMatchObject({ owner: 'ada', slug: 'engine' });
    expect((await s.call('GET', `/v2/users/bob/repos/${c.body.id}`)).status).toBe(404);
    expect((await s.call('GET', '/v1/users/ada/repos')).body.items).toHaveLength(1);
  });
});
