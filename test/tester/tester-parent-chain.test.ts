// The tester on resources under a chain of parents (docs/format.md "Resources under a parent"): visits under a pet
// under an owner. It makes an owner, a pet under it and addresses every visit under both, naming the owner the pet is
// under (not a value of the pet's), so each operation is reached with a success answer and every check passes against
// the runtime. The owners here are named by uuids, so an owner's value is never a pet's by chance.
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startSpec, type OrdersServer } from './helpers.js';

const SPEC = join(mkdtempSync(join(tmpdir(), 'chain-')), 'parent-chain.yaml');
writeFileSync(
  SPEC,
  readFileSync(new URL('../fixtures/parent-chain.yaml', import.meta.url), 'utf8').replace(
    '  Owner:\n    fields:\n      id: { type: integer, readOnly: true }',
    '  Owner:\n    fields:\n      id: { type: uuid, readOnly: true }',
  ),
);

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpec(SPEC);
});
afterAll(async () => {
  await s?.close();
});

it('parent-chain: every check passes, every operation reached with a success answer, each checked under another parent', async () => {
  const report = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 5, runs: 5 });
  const failed = report.results.filter((r) => r.outcome === 'failed');
  expect(failed.map((r) => [r.check, r.target, r.failure?.expected, r.failure?.actual])).toEqual([]);
  const outcomes = (check: string) =>
    report.results
      .filter((r) => r.check === check)
      .map((r) => [r.target, r.outcome])
      .sort();
  expect(outcomes('endpoints.valid-requests')).toEqual(
    [
      'createOwner',
      'createPet',
      'createVisit',
      'deleteOwner',
      'deletePet',
      'deleteVisit',
      'getOwner',
      'getPet',
      'getVisit',
      'listPetVisits',
      'listPets',
      'listVisits',
      'updateVisit',
    ].map((t) => [t, 'passed']),
  );
  expect(outcomes('errors.other-scope')).toEqual(
    ['deletePet', 'deleteVisit', 'getPet', 'getVisit', 'listPetVisits', 'listPets', 'listVisits', 'updateVisit'].map((t) => [t, 'passed']),
  );
  expect(outcomes('errors.missing-parent')).toEqual(['createPet', 'createVisit', 'listPetVisits', 'listPets', 'listVisits'].map((t) => [t, 'passed']));
}, 120_000);
