// A parent named by a `ref` the path binds (docs/format.md "Path parameters bound to fields"): a task's
// project_id: { type: ref, to: Project } under /projects/{projectId}/tasks. A create or a list under a project that
// does not exist answers missing_resource (404), not reference_not_found (409) and not an empty page; another ref of
// the body naming nothing stays reference_not_found. Served on the test database (SQLite, which names no column in
// its reference error, or PostgreSQL with SERVICESPEC_TEST_DB=postgres), fast paths on and off.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { loadModel, startService, type Running } from './helpers.js';

const SPEC = new URL('../fixtures/bound-parent-ref.yaml', import.meta.url).pathname;
const NONE = '0190a0b0-0000-7000-8000-0000000000ff';
// The same with idempotency keys: a keyed create takes its own paths (claim, change and answer in one transaction).
const KEYED = compileSpecText(
  readFileSync(SPEC, 'utf8').replace('endpoints:\n  operations:', 'endpoints:\n  idempotency: { header: Idempotency-Key, retention: 1h }\n  operations:'),
).checked!;

for (const fastPaths of [true, false]) {
  describe(`a parent the path names by a ref (runtime, fast paths ${fastPaths ? 'on' : 'off'})`, () => {
    let s: Running;
    let project: string;
    let user: number;
    beforeAll(async () => {
      s = await startService(loadModel(SPEC), { fastPaths });
      project = (await s.call('POST', '/projects', { name: 'p' })).body.id as string;
      user = (await s.call('POST', '/users', { name: 'u' })).body.id as number;
    });
    afterAll(async () => s?.close());

    it('a create under a project that does not exist is missing_resource, with or without another ref', async () => {
      for (const body of [{ title: 't' }, { title: 't', assignee_id: user }]) {
        const r = await s.call('POST', `/projects/${NONE}/tasks`, body);
        expect(r.status, JSON.stringify(body)).toBe(404);
        expect(r.body.code).toBe('not_found');
      }
      expect((await s.call('POST', `/users/2000000000/notes`, { text: 'n' })).status).toBe(404);
      // Nothing was stored under it.
      const tasks = await s.storage.read((tx) => tx.list('Task', { equals: {}, limit: 100 }));
      expect(tasks.filter((t) => t['project_id'] === NONE)).toEqual([]);
    });

    it('under a project that exists: created; another ref naming nothing stays reference_not_found', async () => {
      const ok = await s.call('POST', `/projects/${project}/tasks`, { title: 't', assignee_id: user });
      expect(ok.status).toBe(201);
      expect(ok.body).toMatchObject({ project_id: project, assignee_id: user });
      const bad = await s.call('POST', `/projects/${project}/tasks`, { title: 't', assignee_id: 2_000_000_000 });
      expect(bad.status).toBe(409);
      expect(bad.body.code).toBe('conflict');
      expect((await s.call('POST', `/users/${user}/notes`, { text: 'n' })).status).toBe(201);
    });

    it('a list under a project that does not exist is missing_resource; an empty project lists nothing', async () => {
      const missing = await s.call('GET', `/projects/${NONE}/tasks`);
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe('not_found');
      expect((await s.call('GET', `/users/2000000000/notes`)).status).toBe(404);
      const empty = (await s.call('POST', '/projects', { name: 'empty' })).body.id as string;
      const none = await s.call('GET', `/projects/${empty}/tasks`);
      expect(none.status).toBe(200);
      expect(none.body.items).toEqual([]);
      const some = await s.call('GET', `/projects/${project}/tasks`);
      expect(some.status).toBe(200);
      expect(some.body.items.length).toBeGreaterThan(0);
      // A value the field cannot hold stays the request's mistake (validation), as for a filter.
      expect((await s.call('GET', `/users/abc/notes`)).status).toBe(400);
    });

    it('a keyed create (Idempotency-Key) under a project that does not exist is missing_resource too', async () => {
      const k = await startService(KEYED, { fastPaths });
      try {
        const p = (await k.call('POST', '/projects', { name: 'p' }, { 'idempotency-key': 'p1' })).body.id as string;
        const u = (await k.call('POST', '/users', { name: 'u' }, { 'idempotency-key': 'u1' })).body.id as number;
        for (const [key, body] of [
          ['t1', { title: 't' }],
          ['t2', { title: 't', assignee_id: u }],
        ] as const) {
          const r = await k.call('POST', `/projects/${NONE}/tasks`, body, { 'idempotency-key': key });
          expect(r.status, key).toBe(404);
          expect(r.body.code).toBe('not_found');
        }
        expect((await k.call('POST', `/projects/${p}/tasks`, { title: 't', assignee_id: 2_000_000_000 }, { 'idempotency-key': 't3' })).status).toBe(409);
        expect((await k.call('POST', `/projects/${p}/tasks`, { title: 't', assignee_id: u }, { 'idempotency-key': 't4' })).status).toBe(201);
      } finally {
        await k.close();
      }
    });

    it('a project deleted: a create and a list under it are missing_resource', async () => {
      const gone = (await s.call('POST', '/projects', { name: 'gone' })).body.id as string;
      expect((await s.call('DELETE', `/projects/${gone}`)).status).toBe(204);
      expect((await s.call('POST', `/projects/${gone}/tasks`, { title: 't' })).status).toBe(404);
      expect((await s.call('GET', `/projects/${gone}/tasks`)).status).toBe(404);
    });
  });
}

describe('a parent the path names by a ref (export)', () => {
  it('the create and the list declare the 404', () => {
    const doc = exportOpenApi(loadModel(SPEC)).document as unknown as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    const tasks = doc.paths['/projects/{projectId}/tasks']!;
    expect(Object.keys(tasks['post']!.responses)).toContain('404');
    expect(Object.keys(tasks['get']!.responses)).toContain('404');
  });
});

// Two parents in one path, both refs (a task of a user in a project): the message names the one that is missing,
// where SQLite's reference error names no column.
describe('two parents the path names by refs', () => {
  const TWO = readFileSync(SPEC, 'utf8').replace(
    '    createTask: {',
    "    createUserTask: { method: POST, path: '/projects/{projectId}/users/{userId}/tasks', action: create, resource: Task, bind: { projectId: project_id, userId: assignee_id } }\n    createTask: {",
  );
  it('a create under an existing project and a missing user names the user', async () => {
    const c = compileSpecText(TWO);
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const s = await startService(c.checked!);
    try {
      const project = (await s.call('POST', '/projects', { name: 'p' })).body.id as string;
      const r = await s.call('POST', `/projects/${project}/users/2000000000/tasks`, { title: 't' });
      expect(r.status).toBe(404);
      expect(r.body.detail).toContain('no User');
      const user = (await s.call('POST', '/users', { name: 'u' })).body.id as number;
      const p = await s.call('POST', `/projects/${NONE}/users/${user}/tasks`, { title: 't' });
      expect(p.status).toBe(404);
      expect(p.body.detail).toContain('no Project');
    } finally {
      await s.close();
    }
  });
});
