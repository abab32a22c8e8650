// Path parameters bound to fields (`bind`, docs/format.md "Path parameters bound to fields"), served over real HTTP
// on the test database (SQLite, or PostgreSQL with SERVICESPEC_TEST_DB=postgres), with the fast paths and without.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
