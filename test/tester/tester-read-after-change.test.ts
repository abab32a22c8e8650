// After a replace, the object is read again to see what was kept. The tester took the resource's first read, and Ory
// Kratos' (ory/kratos spec/api.json, fifth sweep) is getIdentityByExternalID, which names the identity by a field the
// replace may clear: read so, the replaced identity was 404 and endpoints.valid-requests failed serve ('schema_id is
// undefined'). The read at the change's own path (GET /admin/identities/{id}) is the one to look with.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { PLAIN_ERRORS } from '../support/specs.js';
import { startSpecText, type OrdersServer } from './helpers.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText(
    'identities.yaml',
    `servicespec: 1
resources:
  identity:
    fields:
      id: { type: uuid, readOnly: true }
      external_id: { type: string, maxLength: 40, optional: true, unique: true }
      schema_id: { type: string, maxLength: 40 }
endpoints:
  operations:
    getIdentityByExternalID: { method: GET, path: '/admin/identities/by/external/{externalID}', action: read, resource: identity, bind: { externalID: external_id } }
    createIdentity: { method: POST, path: /admin/identities, action: create, resource: identity }
    getIdentity: { method: GET, path: '/admin/identities/{id}', action: read, resource: identity }
    updateIdentity: { method: PUT, path: '/admin/identities/{id}', action: replace, resource: identity }
authentication:
  default: none
${PLAIN_ERRORS}`,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

it('reads a replaced object at the path of the replace, not by a field the replace cleared', async () => {
  const report = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 1, only: ['endpoints.valid-requests'] });
  const got = report.results.filter((r) => r.target === 'updateIdentity').map((r) => [r.outcome, r.failure?.expected]);
  expect(got).toEqual([['passed', undefined]]);
}, 60_000);
