// A replace answering 204 with no body (spring-petclinic-rest's `PUT /owners/{ownerId}/pets/{petId}`, imported as a
// replace since 2026-11-29) beside a delete answering the deleted object: the tester changes the object once before
// deleting it, and must then expect the object as changed. Before, a change with no answer body left the tester's
// copy as made, and the delete's correct answer failed `endpoints.valid-requests` ("the deleted Pet as it was").
import { describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startService } from '../runtime/helpers.js';
import { checkedModel } from '../support/specs.js';

const SPEC = `
servicespec: 1
resources:
  Pet:
    fields:
      id: { type: integer }
      name: { type: string, minLength: 1, maxLength: 30 }
endpoints:
  operations:
    createPet: { method: POST, path: /pets, action: create, resource: Pet }
    getPet: { method: GET, path: '/pets/{id}', action: read, resource: Pet }
    replacePet: { method: PUT, path: '/pets/{id}', action: replace, resource: Pet, status: 204 }
    deletePet: { method: DELETE, path: '/pets/{id}', action: delete, resource: Pet, response: { resource: Pet } }
authentication:
  default: none
`;

describe('a change answering no body before a delete answering the object', () => {
  it('expects the deleted object as changed: the served service passes', async () => {
    const model = checkedModel(SPEC);
    const s = await startService(model);
    try {
      const report = await testService(model, { baseUrl: s.url, seed: 7, maxRequests: 400, timeLimitMs: 30_000 });
      expect(report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}: ${r.failure?.expected} / ${r.failure?.actual}`)).toEqual(
        [],
      );
      expect(report.results.some((r) => r.check === 'endpoints.valid-requests' && r.target === 'deletePet' && r.outcome === 'passed')).toBe(true);
    } finally {
      await s.close();
    }
  }, 60_000);
});
