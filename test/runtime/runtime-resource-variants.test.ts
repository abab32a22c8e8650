// A resource of several shapes served (docs/format.md, "Resources of several shapes"; docs/runtime.md): a create's
// body is one variant, told by its tag; every answer holds the shared fields, the tag and that variant's fields only;
// an update or replace is validated against the stored object's variant and cannot change the tag; a list filters on
// the tag. Over real HTTP, on SQLite and on PostgreSQL, the fast paths and the plain ones answering alike.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { createPostgresStorage } from '../../src/runtime/storage/storage-postgres.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import type { Storage } from '../../src/runtime/storage/storage-types.js';
import { callJson } from '../support/http.js';
import { startService, type Running } from './helpers.js';
import { dropTestSchema, getPostgresSkipReason, getTestSchemaUrl } from '../support/postgres.js';
import { PET_VARIANTS_SPEC } from '../support/resource-variants.js';

const model = compileSpecText(PET_VARIANTS_SPEC).checked!;
const pgSkip = await getPostgresSkipReason();

const cases = [
  { db: 'sqlite', fastPaths: true },
  { db: 'sqlite', fastPaths: false },
  { db: 'postgres', fastPaths: true },
] as const;

for (const { db, fastPaths } of cases) {
  describe.skipIf(db === 'postgres' && pgSkip !== undefined)(`a resource of several shapes served on ${db} (fast paths ${fastPaths ? 'on' : 'off'})`, () => {
    let url = '';
    let close: () => Promise<void> = async () => undefined;
    const call = (method: string, path: string, body?: unknown) => callJson(url, method, path, body);

    beforeAll(async () => {
      const dir = mkdtempSync(join(tmpdir(), 'servicespec-pets-'));
      const dbUrl = db === 'postgres' ? getTestSchemaUrl() : join(dir, 'service.db');
      const storage: Storage = db === 'postgres' ? createPostgresStorage({ url: dbUrl, poolSize: 2 }) : createSqliteStorage({ path: dbUrl, fastPaths });
      const app = await createService(model, { storage, fastPaths, allowGaps: true });
      url = await app.listen({ port: 0, host: '127.0.0.1' });
      close = async () => {
        await app.close();
        rmSync(dir, { recursive: true, force: true });
        if (db === 'postgres') await dropTestSchema(dbUrl);
      };
    });
    afterAll(() => close());

    it("creates each variant and answers only its members, in the create, the read and the list's items", async () => {
      const cat = await call('POST', '/pets', { kind: 'cat', name: 'Tom', indoor: true });
      expect(cat.status).toBe(201);
      expect(Object.keys(cat.body)).toEqual(['id', 'name', 'kind', 'indoor']);
      expect(cat.body).toMatchObject({ kind: 'cat', name: 'Tom', indoor: true });
      const dog = await call('POST', '/pets', { kind: 'Dog', name: 'Rex', breed: 'collie' });
      expect(dog.status).toBe(201);
      expect(dog.body).toEqual({ id: dog.body.id, name: 'Rex', kind: 'Dog', breed: 'collie' });
      const read = await call('GET', `/pets/${cat.body.id as string}`);
      expect(read.body).toEqual(cat.body);
      const list = await call('GET', '/pets');
      expect(list.body.items).toEqual([cat.body, dog.body]);
      const dogs = await call('GET', '/pets?kind=Dog');
      expect(dogs.body.items).toEqual([dog.body]);
      await call('DELETE', `/pets/${cat.body.id as string}`);
      await call('DELETE', `/pets/${dog.body.id as string}`);
    });

    it("refuses a create without a variant's required field, with another variant's field, with a tag no variant has", async () => {
      const noBreed = await call('POST', '/pets', { kind: 'Dog', name: 'Rex' });
      expect(noBreed.body.errors).toEqual([{ pointer: '/breed', message: 'is required' }]);
      const mixed = await call('POST', '/pets', { kind: 'cat', name: 'Tom', breed: 'collie' });
      expect(mixed.body.errors).toEqual([{ pointer: '/breed', message: 'breed is a field of variant Dog only' }]);
      const bird = await call('POST', '/pets', { kind: 'bird', name: 'Tweety' });
      expect(bird.body.errors).toEqual([{ pointer: '/kind', message: '"bird" names none of the variants' }]);
      const untagged = await call('POST', '/pets', { name: 'Tom' });
      expect(untagged.body.errors).toEqual([{ pointer: '/kind', message: 'is required and must be a string (it says which variant the object is)' }]);
      for (const r of [noBreed, mixed, bird, untagged]) expect([r.status, r.body.code]).toEqual([500, 'any_error']); // the spec's one catch-all code
      expect((await call('GET', '/pets')).body.items).toEqual([]);
    });

    it("validates an update or replace against the stored object's variant; the tag cannot change", async () => {
      const dog = await call('POST', '/pets', { kind: 'Dog', name: 'Rex', breed: 'collie', good_boy: true });
      const at = `/pets/${dog.body.id as string}`;
      const patched = await call('PATCH', at, { breed: 'beagle' });
      expect([patched.status, patched.body]).toEqual([200, { ...dog.body, breed: 'beagle' }]);
      const other = await call('PATCH', at, { indoor: true });
      expect(other.body.errors).toEqual([{ pointer: '/indoor', message: 'indoor is a field of variant Cat only' }]);
      const retag = await call('PATCH', at, { kind: 'cat' });
      expect(retag.body.errors).toEqual([{ pointer: '/kind', message: 'kind can be set only when the object is created' }]);
      const replaced = await call('PUT', at, { name: 'Max', breed: 'pug' });
      expect([replaced.status, replaced.body]).toEqual([200, { id: dog.body.id, name: 'Max', kind: 'Dog', breed: 'pug' }]);
      const noBreed = await call('PUT', at, { name: 'Max' });
      expect(noBreed.body.errors).toEqual([{ pointer: '/breed', message: 'is required' }]);
      expect((await call('GET', at)).body).toEqual(replaced.body);
      expect((await call('DELETE', at)).status).toBe(204);
    });
  });
}

describe('a resource of several shapes: members dropped by unknown_fields: ignore, and a replace that would create', () => {
  const spec = PET_VARIANTS_SPEC.replace(
    'createPet: { method: POST, path: /pets, action: create, resource: Pet }',
    'createPet: { method: POST, path: /pets, action: create, resource: Pet, unknown_fields: ignore }',
  )
    .replace(
      "updatePet: { method: PATCH, path: '/pets/{id}', action: update, resource: Pet }",
      "updatePet: { method: PATCH, path: '/pets/{id}', action: update, resource: Pet, unknown_fields: ignore }",
    )
    .replace(
      "replacePet: { method: PUT, path: '/pets/{id}', action: replace, resource: Pet }",
      "replacePet: { method: PUT, path: '/pets/{id}', action: replace, resource: Pet, upsert: true }",
    )
    .replace('    plural: pets\n', '    plural: pets\n    identifier_source: client\n')
    .replace('id: { type: uuid, readOnly: true }', 'id: { type: uuid }');
  const ID = '0190a000-0000-7000-8000-000000000001';
  let s: Running | undefined;
  beforeAll(async () => {
    const c = compileSpecText(spec);
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    s = await startService(c.checked!, { allowGaps: true });
  });
  afterAll(async () => s?.close());

  it('drops a member of another variant where the operation ignores unknown members: it is never stored', async () => {
    const cat = await s!.call('POST', '/pets', { id: ID, kind: 'cat', name: 'Tom', breed: 'collie', colour: 'red' });
    expect([cat.status, cat.body]).toEqual([201, { id: cat.body.id, name: 'Tom', kind: 'cat' }]);
    const patched = await s!.call('PATCH', `/pets/${cat.body.id as string}`, { breed: 'collie', indoor: false });
    expect([patched.status, patched.body]).toEqual([200, { id: cat.body.id, name: 'Tom', kind: 'cat', indoor: false }]);
  });

  it('refuses a replace that would create, as its body cannot say which variant to make', async () => {
    const made = await s!.call('PUT', '/pets/0190a000-0000-7000-8000-000000000000', { name: 'Rex', breed: 'pug' });
    expect([made.status, made.body.code]).toEqual([500, 'any_error']);
    expect(made.body.errors).toEqual([{ pointer: '/kind', message: 'is required and must be a string (it says which variant the object is)' }]);
  });
});
