// A change's body may not move its object off the path that names it (docs/format.md, "Path parameters bound to
// fields"): an update, replace or transition whose body gives a bound field another value than the path's is refused
// as a create's is (validation, at the field) and changes nothing; the same value, or none, is accepted. An
// identifier in the path is no body field of an update or replace at all. Served over real HTTP on the test database
// (SQLite, or PostgreSQL with SERVICESPEC_TEST_DB=postgres), with the fast paths and without.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel, startService, type Running } from './helpers.js';

const SPEC = new URL('../fixtures/bound-body.yaml', import.meta.url).pathname;

type Answer = { status: number; body: { code?: string; errors?: { pointer: string; message: string }[] } };

/** The validation answer, its one error at `pointer` saying the body must equal path parameter {param}. */
function expectRefused(r: Answer, pointer: string, param: string): void {
  expect(r.status).toBe(400);
  expect(r.body.code).toBe('invalid');
  expect(r.body.errors).toEqual([{ pointer, message: expect.stringContaining(`must equal the path parameter {${param}}`) }]);
}

for (const fastPaths of [true, false]) {
  describe(`a change's body keeps its object's bound fields (fast paths ${fastPaths ? 'on' : 'off'})`, () => {
    let s: Running;
    beforeAll(async () => {
      s = await startService(loadModel(SPEC), { fastPaths });
    });
    afterAll(async () => s?.close());

    it('nested bound fields: a replace or update naming another name or namespace is refused and moves nothing', async () => {
      expect((await s.call('POST', '/namespaces/core/leases', { metadata: { name: 'leader' }, holder: 'a' })).status).toBe(201);
      const before = [{ metadata: { name: 'leader', namespace: 'core' }, holder: 'a' }];
      expectRefused(
        await s.call('PUT', '/namespaces/core/leases/leader', { metadata: { name: 'moved', namespace: 'core' }, holder: 'b' }),
        '/metadata/name',
        'name',
      );
      expectRefused(
        await s.call('PUT', '/namespaces/core/leases/leader', { metadata: { name: 'leader', namespace: 'web' } }),
        '/metadata/namespace',
        'namespace',
      );
      expectRefused(await s.call('PATCH', '/namespaces/core/leases/leader', { metadata: { name: 'moved' } }), '/metadata/name', 'name');
      expectRefused(
        await s.call('PATCH', '/namespaces/core/leases/leader', { metadata: { namespace: 'web', labels: {} } }),
        '/metadata/namespace',
        'namespace',
      );
      // A null on the way would clear both: refused too, at the object.
      const cleared = await s.call('PATCH', '/namespaces/core/leases/leader', { metadata: null });
      expect(cleared.status).toBe(400);
      expect(cleared.body.errors).toEqual([{ pointer: '/metadata', message: expect.stringContaining('must be an object holding the path parameter') }]);
      expect((await s.call('GET', '/leases')).body.items).toEqual(before);
      // The same values, or none: accepted, and the object stays where its path finds it.
      const same = await s.call('PUT', '/namespaces/core/leases/leader', { metadata: { name: 'leader', namespace: 'core' }, holder: 'b' });
      expect(same.status).toBe(200);
      expect(same.body).toEqual({ metadata: { name: 'leader', namespace: 'core' }, holder: 'b' });
      const none = await s.call('PUT', '/namespaces/core/leases/leader', { holder: 'c' });
      expect(none.status).toBe(200);
      expect(none.body).toEqual({ metadata: { name: 'leader', namespace: 'core' }, holder: 'c' });
      const labels = await s.call('PATCH', '/namespaces/core/leases/leader', { metadata: { labels: { tier: 1 } } });
      expect(labels.status).toBe(200);
      expect(labels.body).toEqual({ metadata: { name: 'leader', namespace: 'core', labels: { tier: 1 } }, holder: 'c' });
      expect((await s.call('PATCH', '/namespaces/core/leases/leader', { holder: 'd' })).body.holder).toBe('d');
      expect((await s.call('GET', '/namespaces/core/leases/leader')).body).toEqual({
        metadata: { name: 'leader', namespace: 'core', labels: { tier: 1 } },
        holder: 'd',
      });
      expect((await s.call('GET', '/leases')).body.items).toHaveLength(1);
    });

    it('a unique bound field: a replace or update renaming the object is refused and changes nothing', async () => {
      expect((await s.call('POST', '/tags', { name: 'red', color: 'f00' })).status).toBe(201);
      expectRefused(await s.call('PUT', '/tags/red', { name: 'blue', color: '00f' }), '/name', 'name');
      expectRefused(await s.call('PATCH', '/tags/red', { name: 'blue' }), '/name', 'name');
      expect((await s.call('GET', '/tags')).body.items).toEqual([{ name: 'red', color: 'f00' }]);
      expect((await s.call('PUT', '/tags/red', { name: 'red', color: '0f0' })).body).toEqual({ name: 'red', color: '0f0' });
      // A replace that leaves the bound field out keeps the path's value (it is no longer required in the body).
      expect((await s.call('PUT', '/tags/red', { color: '00f' })).body).toEqual({ name: 'red', color: '00f' });
      expect((await s.call('PATCH', '/tags/red', { name: 'red', color: 'fff' })).body).toEqual({ name: 'red', color: 'fff' });
    });

    it('a scope field: a replace, update or transition handing the object to another owner is refused', async () => {
      const c = await s.call('POST', '/users/ada/repos', { slug: 'engine' });
      expect(c.status).toBe(201);
      const path = `/users/ada/repos/${c.body.id}`;
      expectRefused(await s.call('PUT', path, { owner: 'bob', slug: 'stolen' }), '/owner', 'username');
      expectRefused(await s.call('PATCH', path, { owner: 'bob' }), '/owner', 'username');
      expectRefused(await s.call('POST', `${path}/move`, { owner: 'bob' }), '/owner', 'username');
      expect((await s.call('GET', path)).body).toEqual({ id: c.body.id, owner: 'ada', slug: 'engine', status: 'open' });
      expect((await s.call('GET', `/users/bob/repos/${c.body.id}`)).status).toBe(404);
      expect((await s.call('PUT', path, { owner: 'ada', slug: 'motor' })).body).toMatchObject({ owner: 'ada', slug: 'motor' });
      expect((await s.call('PUT', path, { slug: 'gear' })).body).toMatchObject({ owner: 'ada', slug: 'gear' });
      expect((await s.call('PATCH', path, { owner: 'ada', project: 'p' })).body).toMatchObject({ owner: 'ada', project: 'p' });
      expect((await s.call('POST', `${path}/move`, { owner: 'ada' })).body).toMatchObject({ owner: 'ada', status: 'open' });
    });

    it('the identifier in the path is no field of an update or replace body: refused whatever its value', async () => {
      expect((await s.call('POST', '/orders', { id: 'o-1', note: 'a' })).status).toBe(201);
      for (const [method, id] of [
        ['PUT', 'o-2'],
        ['PUT', 'o-1'],
        ['PATCH', 'o-2'],
        ['PATCH', 'o-1'],
      ] as const) {
        const r = await s.call(method, '/orders/o-1', { id, note: 'b' });
        expect(r.status).toBe(400);
        expect(r.body.errors).toEqual([{ pointer: '/id', message: 'id is given by the create' }]);
      }
      expect((await s.call('GET', '/orders/o-1')).body).toEqual({ id: 'o-1', note: 'a' });
      expect((await s.call('GET', '/orders/o-2')).status).toBe(404);
    });
  });
}
