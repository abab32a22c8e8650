// The contract tester on a resource of several shapes (docs/testing.md): it creates objects of each variant (the
// variant's tag, the shared fields and the variant's own), changes each with a body of its stored variant (an update
// and a replace send no tag), breaks bodies only within their variant (another variant's required field missing is
// no broken body), and judges every answer by the variant it holds. Against the served runtime, every check passes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { objectArbitrary } from '../../src/tester/tester-arbitraries.js';
import { testService } from '../../src/tester/tester-run.js';
import { startService, type Running } from '../runtime/helpers.js';
import { startHandServer, takeObject } from '../support/hand-server.js';
import { PET_VARIANTS_SPEC } from '../support/resource-variants.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';

const model = checkedModel(PET_VARIANTS_SPEC.replace(/errors:[\s\S]*$/, PLAIN_ERRORS));
const pet = model.resources[0]!;

describe('the tester on a resource of several shapes', () => {
  let s: Running | undefined;
  beforeAll(async () => {
    s = await startService(model, { allowGaps: true });
  });
  afterAll(async () => s?.close());

  it('draws creates of every variant, each holding its tag and its own fields only; a change of one variant its fields', () => {
    const creates = fc.sample(objectArbitrary(model, pet.fields, pet, 'create', true), { seed: 7, numRuns: 40 });
    expect(new Set(creates.map((b) => b.kind))).toEqual(new Set(['cat', 'Dog']));
    for (const b of creates) expect(Object.keys(b).sort()).toEqual(b.kind === 'cat' ? ['indoor', 'kind', 'name'] : ['breed', 'good_boy', 'kind', 'name']);
    const replaces = fc.sample(objectArbitrary(model, pet.fields, pet, 'replace', true, 'Dog'), { seed: 7, numRuns: 5 });
    for (const b of replaces) expect(Object.keys(b).sort()).toEqual(['breed', 'good_boy', 'name']);
  });

  for (const seed of [1, 2])
    it(`passes against the served runtime (seed ${seed})`, async () => {
      const r = await testService(model, { baseUrl: s!.url, seed });
      expect(r.results.filter((x) => x.outcome === 'failed').map((x) => x.failure)).toEqual([]);
      expect(r.results.filter((x) => x.outcome === 'passed').length).toBeGreaterThan(100);
    });

  it('fails a service answering a cat with a member of the Dog variant: answers are judged by the variant they hold', async () => {
    const pets = new Map<string, Record<string, unknown>>();
    let next = 0;
    const server = await startHandServer((req, reply) => {
      if (req.method === 'POST' && req.url === '/pets') {
        const b = takeObject(req, reply);
        if (!b) return;
        const id = `00000000-0000-4000-8000-${String(++next).padStart(12, '0')}`;
        // The fault: a cat is answered holding a dog's breed.
        const pet = { id, ...b, ...(b.kind === 'cat' ? { breed: 'tabby' } : {}) };
        pets.set(id, pet);
        return reply.json(201, pet, 'application/json', { location: `/pets/${id}` });
      }
      // A read, as the tester reads each created object back.
      const held = req.method === 'GET' ? pets.get(req.url?.slice('/pets/'.length) ?? '') : undefined;
      if (held) return reply.json(200, held, 'application/json');
      return reply.problem(404, 'not_found');
    });
    try {
      const r = await testService(model, { baseUrl: server.url, seed: 1, only: ['createPet'] });
      const failed = r.results.filter((x) => x.outcome === 'failed');
      // The cat's answer breaks its variant's closed schema (the other failures are the hand server's missing routes;
      // it reads each object back, as the tester does after a create).
      const shape = failed.find((x) => x.check === 'endpoints.valid-requests' && x.target === 'createPet');
      expect(shape?.failure?.actual).toMatch(/^\(body\) must NOT have additional properties \(breed\); 201 /);
    } finally {
      server.close();
    }
  });
});
