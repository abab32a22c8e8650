// Path parameters bound to nested fields and a key unique together (docs/format.md, "Keys unique together"): a
// Kubernetes-style Lease with no identifier, named by metadata.name within metadata.namespace, served over real HTTP
// on the test database (SQLite, or PostgreSQL with SERVICESPEC_TEST_DB=postgres), with the fast paths and without.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffStoragePlans, getStoragePlan } from '../../src/runtime/storage/storage-plan.js';
import { startService, loadModel, type Running } from './helpers.js';

const SPEC = new URL('../fixtures/nested-bindings.yaml', import.meta.url).pathname;

it('the storage keeps a column per nested bound field, and one constraint over the key', () => {
  const t = getStoragePlan(loadModel(SPEC)).tables.find((x) => x.name === 'Lease')!;
  expect(t.columns.filter((c) => c.nested !== undefined).map((c) => [c.name, c.type])).toEqual([
    ['$metadata.namespace', 'text'],
    ['$metadata.name', 'text'],
  ]);
  expect(t.uniqueKeys).toEqual([['$metadata.namespace', '$metadata.name']]);
});

it('migrate refuses to add a nested column over stored objects (it does not fill them yet); the key over them is a rebuild', () => {
  const after = getStoragePlan(loadModel(SPEC));
  // The same table before the key and the bindings: no nested columns, no key.
  const older = {
    tables: after.tables.map((t) => ({ name: t.name, primaryKey: t.primaryKey, columns: t.columns.filter((c) => c.nested === undefined) })),
  };
  const { refusals, steps } = diffStoragePlans(older, after);
  expect(steps.filter((x) => x.table === 'Lease').map((x) => x.kind)).toEqual(['rebuild_table']);
  expect(refusals.map((r) => r.reason)).toEqual([
    'Lease.metadata.namespace is newly bound or keyed; migrate does not fill its column for stored objects yet',
    'Lease.metadata.name is newly bound or keyed; migrate does not fill its column for stored objects yet',
  ]);
});

for (const fastPaths of [true, false]) {
  describe(`nested bindings (fast paths ${fastPaths ? 'on' : 'off'})`, () => {
    let s: Running;
    beforeAll(async () => {
      s = await startService(loadModel(SPEC), { fastPaths });
    });
    afterAll(async () => s?.close());

    it('a create sets the namespace from the path; the same name twice in one namespace is a conflict, in another not', async () => {
      const c = await s.call('POST', '/namespaces/core/leases', { metadata: { name: 'leader' }, spec: { holder: 'a' } });
      expect(c.status).toBe(201);
      expect(c.body).toEqual({ metadata: { name: 'leader', namespace: 'core' }, spec: { holder: 'a' } });
      expect(c.headers.get('location')).toBe('/namespaces/core/leases/leader');
      const twice = await s.call('POST', '/namespaces/core/leases', { metadata: { name: 'leader' } });
      expect(twice.status).toBe(409);
      // The conflict points at the key's first field in the body, not at its storage column ("/namespace" before).
      expect((twice.body as { errors?: unknown }).errors).toEqual([{ pointer: '/metadata/namespace', message: 'must be unique' }]);
      expect((await s.call('POST', '/namespaces/web/leases', { metadata: { name: 'leader', namespace: 'web' } })).status).toBe(201);
      const other = await s.call('POST', '/namespaces/web/leases', { metadata: { name: 'x', namespace: 'core' } });
      expect(other.status).toBe(400);
      expect(JSON.stringify(other.body)).toContain('must equal the path parameter {namespace}');
      // A null on the way to the bound field is the body's own mistake, not an object to fill.
      expect((await s.call('POST', '/namespaces/web/leases', { metadata: null })).status).toBe(400);
      // No name: made, but no path names it (no Location).
      const unnamed = await s.call('POST', '/namespaces/web/leases', { spec: { holder: 'b' } });
      expect(unnamed.status).toBe(201);
      expect(unnamed.body).toEqual({ metadata: { namespace: 'web' }, spec: { holder: 'b' } });
      expect(unnamed.headers.get('location')).toBeNull();
    });

    it('reads, lists by namespace and across namespaces; no answer shows a storage column', async () => {
      const r = await s.call('GET', '/namespaces/core/leases/leader');
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ metadata: { name: 'leader', namespace: 'core' }, spec: { holder: 'a' } });
      expect((await s.call('GET', '/namespaces/other/leases/leader')).status).toBe(404);
      expect((await s.call('GET', '/namespaces/core/leases/NOT%20VALID')).status).toBe(404);
      const core = await s.call('GET', '/namespaces/core/leases');
      expect(core.body.items).toEqual([{ metadata: { name: 'leader', namespace: 'core' }, spec: { holder: 'a' } }]);
      const all = await s.call('GET', '/leases');
      expect(all.body.items.map((l: { metadata: { namespace: string; name?: string } }) => `${l.metadata.namespace}/${l.metadata.name ?? ''}`)).toEqual([
        'core/leader',
        'web/leader',
        'web/',
      ]);
    });

    it('replaces and deletes by namespace and name', async () => {
      const put = await s.call('PUT', '/namespaces/web/leases/leader', { metadata: { name: 'leader', namespace: 'web' }, spec: { holder: 'c' } });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({ metadata: { name: 'leader', namespace: 'web' }, spec: { holder: 'c' } });
      expect((await s.call('GET', '/namespaces/web/leases/leader')).body.spec).toEqual({ holder: 'c' });
      expect((await s.call('PUT', '/namespaces/nowhere/leases/leader', { metadata: { name: 'leader' } })).status).toBe(404);
      expect((await s.call('DELETE', '/namespaces/web/leases/leader')).status).toBe(204);
      expect((await s.call('GET', '/namespaces/web/leases/leader')).status).toBe(404);
      expect((await s.call('GET', '/namespaces/core/leases/leader')).status).toBe(200);
    });
  });
}
