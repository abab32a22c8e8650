// Resources under a chain of parents (docs/format.md "Resources under a parent"): visits under a pet under an owner,
// as Spring PetClinic has them (/owners/{ownerId}/pets/{petId}/visits). The owner is found first, then the pet only
// among the owner's pets, then the visit only among the pet's: pet 7 of owner 2 is not found under owner 3
// (missing_resource, 404). A path naming only the pet (/pets/{petId}/visits) does not check the owner. A pet with
// visits and an owner with pets are not deleted (in_use). Served on the test database (SQLite, or PostgreSQL with
// SERVICESPEC_TEST_DB=postgres), fast paths on and off.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { getStoragePlan } from '../../src/runtime/storage/storage-plan.js';
import { loadModel, startService, type Running } from './helpers.js';

const SPEC = new URL('../fixtures/parent-chain.yaml', import.meta.url).pathname;
// With self addresses and idempotency keys.
const ADDRESSED = compileSpecText(
  readFileSync(SPEC, 'utf8')
    .replace('      description: { type: string }\n', '      description: { type: string }\n      url: { type: string, readOnly: true, generated: address }\n')
    .replace('endpoints:\n  operations:', 'endpoints:\n  idempotency: { header: Idempotency-Key, retention: 1h }\n  operations:'),
).checked!;

it("each level keeps its own parent's identifier: a visit its pet's, a pet its owner's", () => {
  const plan = getStoragePlan(loadModel(SPEC));
  const parentOf = (t: string) => plan.tables.find((x) => x.name === t)!.columns.find((c) => c.name === '$parent');
  expect(parentOf('Visit')).toMatchObject({ type: 'integer', notNull: true, references: { table: 'Pet', column: 'id' } });
  expect(parentOf('Pet')).toMatchObject({ type: 'integer', notNull: true, references: { table: 'Owner', column: 'id' } });
  expect(parentOf('Owner')).toBeUndefined();
});

for (const fastPaths of [true, false]) {
  describe(`resources under a chain of parents (runtime, fast paths ${fastPaths ? 'on' : 'off'})`, () => {
    let s: Running;
    let alice: number;
    let bob: number;
    let rex: number;
    let tom: number;
    beforeAll(async () => {
      s = await startService(loadModel(SPEC), { fastPaths });
      alice = (await s.call('POST', '/owners', { name: 'alice' })).body.id;
      bob = (await s.call('POST', '/owners', { name: 'bob' })).body.id;
      rex = (await s.call('POST', `/owners/${alice}/pets`, { name: 'rex' })).body.id;
      tom = (await s.call('POST', `/owners/${bob}/pets`, { name: 'tom' })).body.id;
    });
    afterAll(async () => s?.close());

    it('a create under the owner and the pet stores it under the pet; its Location names both', async () => {
      const r = await s.call('POST', `/owners/${alice}/pets/${rex}/visits`, { description: 'checkup' });
      expect(r.status).toBe(201);
      expect(r.body).toEqual({ id: r.body.id, description: 'checkup' });
      expect(r.headers.get('location')).toBe(`/owners/${alice}/pets/${rex}/visits/${r.body.id}`);
      expect((await s.call('GET', `/owners/${alice}/pets/${rex}/visits/${r.body.id}`)).body).toEqual(r.body);
      const row = await s.storage.read((tx) => tx.get('Visit', r.body.id));
      expect(row?.['$parent']).toBe(rex);
    });

    it('a pet named under another owner is not found: create, list, read, update and delete answer missing_resource', async () => {
      const v = (await s.call('POST', `/owners/${alice}/pets/${rex}/visits`, { description: 'mine' })).body;
      const before = (await s.call('GET', `/pets/${rex}/visits`)).body.items.length;
      for (const [method, path, body] of [
        ['POST', `/owners/${bob}/pets/${rex}/visits`, { description: 'x' }],
        ['GET', `/owners/${bob}/pets/${rex}/visits`, undefined],
        ['GET', `/owners/${bob}/pets/${rex}/visits/${v.id}`, undefined],
        ['PATCH', `/owners/${bob}/pets/${rex}/visits/${v.id}`, { description: 'moved' }],
        ['DELETE', `/owners/${bob}/pets/${rex}/visits/${v.id}`, undefined],
        // The visit is rex's, not tom's, though tom is bob's.
        ['GET', `/owners/${bob}/pets/${tom}/visits/${v.id}`, undefined],
        // An owner or a pet that is not there, or a value no identifier can be.
        ['GET', `/owners/999999/pets/${rex}/visits`, undefined],
        ['GET', `/owners/${alice}/pets/999999/visits`, undefined],
        ['POST', `/owners/x/pets/${rex}/visits`, { description: 'x' }],
        ['POST', `/owners/${alice}/pets/x/visits`, { description: 'x' }],
      ] as const) {
        const r = await s.call(method, path, body);
        expect(r.status, `${method} ${path}`).toBe(404);
        expect(r.body.code).toBe('not_found');
      }
      const wrong = await s.call('GET', `/owners/${bob}/pets/${rex}/visits`);
      expect(wrong.body.detail).toBe('no Pet with that id under that Owner');
      expect((await s.call('GET', `/pets/${rex}/visits`)).body.items.length).toBe(before);
      expect((await s.call('GET', `/owners/${alice}/pets/${rex}/visits/${v.id}`)).body.description).toBe('mine');
    });

    it("a list answers only the pet's visits; naming the pet alone does not check its owner", async () => {
      await s.call('POST', `/owners/${bob}/pets/${tom}/visits`, { description: 'tom1' });
      const tomList = await s.call('GET', `/owners/${bob}/pets/${tom}/visits`);
      expect(tomList.status).toBe(200);
      expect(tomList.body.items.map((v: { description: string }) => v.description)).toEqual(['tom1']);
      const flat = await s.call('GET', `/pets/${tom}/visits`);
      expect(flat.body.items).toEqual(tomList.body.items);
      expect((await s.call('GET', '/pets/999999/visits')).status).toBe(404);
    });

    it('update and delete under the right owner and pet', async () => {
      const v = (await s.call('POST', `/owners/${bob}/pets/${tom}/visits`, { description: 'a' })).body;
      const p = await s.call('PATCH', `/owners/${bob}/pets/${tom}/visits/${v.id}`, { description: 'b' });
      expect(p.status).toBe(200);
      expect(p.body).toEqual({ id: v.id, description: 'b' });
      expect((await s.call('DELETE', `/owners/${bob}/pets/${tom}/visits/${v.id}`)).status).toBe(204);
      expect((await s.call('GET', `/owners/${bob}/pets/${tom}/visits/${v.id}`)).status).toBe(404);
    });

    it('a pet with visits and an owner with pets are not deleted (in_use); emptied, they are', async () => {
      const carol = (await s.call('POST', '/owners', { name: 'carol' })).body.id;
      const kit = (await s.call('POST', `/owners/${carol}/pets`, { name: 'kit' })).body.id;
      const v = (await s.call('POST', `/owners/${carol}/pets/${kit}/visits`, { description: 'v' })).body;
      expect((await s.call('DELETE', `/owners/${carol}/pets/${kit}`)).status).toBe(409);
      expect((await s.call('DELETE', `/owners/${carol}`)).status).toBe(409);
      expect((await s.call('DELETE', `/owners/${carol}/pets/${kit}/visits/${v.id}`)).status).toBe(204);
      expect((await s.call('DELETE', `/owners/${carol}/pets/${kit}`)).status).toBe(204);
      expect((await s.call('DELETE', `/owners/${carol}`)).status).toBe(204);
      expect((await s.call('POST', `/owners/${carol}/pets/${kit}/visits`, { description: 'v' })).status).toBe(404);
    });
  });

  describe(`addresses and keyed creates under a chain (runtime, fast paths ${fastPaths ? 'on' : 'off'})`, () => {
    let s: Running;
    beforeAll(async () => {
      s = await startService(ADDRESSED, { fastPaths });
    });
    afterAll(async () => s?.close());

    it('the address names the owner where the path gives it; a list naming the pet alone answers none', async () => {
      const o = (await s.call('POST', '/owners', { name: 'o' })).body.id;
      const p = (await s.call('POST', `/owners/${o}/pets`, { name: 'p' })).body.id;
      const v = await s.call('POST', `/owners/${o}/pets/${p}/visits`, { description: 'd' }, { 'idempotency-key': 'v1' });
      expect(v.status).toBe(201);
      expect(v.body.url).toBe(`/owners/${o}/pets/${p}/visits/${v.body.id}`);
      expect(v.headers.get('location')).toBe(v.body.url);
      const again = await s.call('POST', `/owners/${o}/pets/${p}/visits`, { description: 'd' }, { 'idempotency-key': 'v1' });
      expect(again.status).toBe(201);
      expect(again.body).toEqual(v.body);
      expect((await s.call('GET', `/owners/${o}/pets/${p}/visits`)).body.items).toEqual([v.body]);
      const flat = await s.call('GET', `/pets/${p}/visits`);
      expect(flat.body.items).toEqual([{ id: v.body.id, description: 'd' }]);
      // A keyed create under a pet of another owner: missing, nothing stored.
      const other = (await s.call('POST', '/owners', { name: 'other' })).body.id;
      const wrong = await s.call('POST', `/owners/${other}/pets/${p}/visits`, { description: 'd' }, { 'idempotency-key': 'v2' });
      expect(wrong.status).toBe(404);
      expect((await s.call('GET', `/pets/${p}/visits`)).body.items.length).toBe(1);
    });
  });
}
