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
import { json, startProxy } from './mutant-proxy.js';

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
    ['createVisit', 'deletePet', 'deleteVisit', 'getPet', 'getVisit', 'listPetVisits', 'listPets', 'listVisits', 'updateVisit'].map((t) => [t, 'passed']),
  );
  expect(outcomes('errors.missing-parent')).toEqual(['createPet', 'createVisit', 'listPetVisits', 'listPets', 'listVisits'].map((t) => [t, 'passed']));
}, 120_000);

// A service that checks a pet is its owner's on the pet's own paths but finds a pet's visits by the pet alone, never
// checking the owner the path names (the proxy puts the pet's own owner in place of any other): a visit is reached
// under an owner its pet does not belong to. The other scope of the visits' own operations (a second pet of the same
// owner) never shows it; naming the run's pet under a second owner does.
it('parent-chain: a service ignoring the owner of a visit path fails errors.other-scope on every visit operation under the owner', async () => {
  const ownerOf = new Map<string, string>();
  const proxy = await startProxy(s.url, {
    request: (req) => {
      const m = /^\/owners\/([^/?]+)\/pets\/([^/?]+)(\/visits.*)$/.exec(req.path);
      const owner = m ? ownerOf.get(m[2]!) : undefined;
      return m && owner !== undefined && owner !== m[1] ? { ...req, path: `/owners/${owner}/pets/${m[2]!}${m[3]!}` } : req;
    },
    response: (res, req) => {
      const m = /^\/owners\/([^/?]+)\/pets$/.exec(req.path);
      if (m && req.method === 'POST' && res.status === 201) ownerOf.set(String(json(res).id), m[1]!);
      return res;
    },
  });
  try {
    const report = await testService(s.model, { baseUrl: proxy.url, ...s.options, seed: 5, runs: 5, only: ['errors.other-scope'] });
    const failed = report.results.filter((r) => r.outcome === 'failed').map((r) => [r.check, r.target]);
    expect(failed.sort()).toEqual(['createVisit', 'deleteVisit', 'getVisit', 'listVisits', 'updateVisit'].map((t) => ['errors.other-scope', t]));
  } finally {
    await proxy.close();
  }
}, 120_000);
