// endpoints.input-space's edge bodies can be large (every text of a list of objects at 1000 characters): where the
// spec shows no body_size, a 413 to one is a limit the spec does not state, not a fault. Keycloak's realm create (an
// APIs.guru document of the third sweep: three clients of 1000-character strings, 1.04 MB) failed against serve,
// whose built-in limit is 1 MiB.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { PLAIN_ERRORS } from '../support/specs.js';
import { startSpecText, type OrdersServer } from './helpers.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText(
    'sheets.yaml',
    `servicespec: 1
resources:
  Sheet:
    fields:
      id: { type: uuid, readOnly: true }
      rows: { type: array, minItems: 1100, maxItems: 1100, items: { type: string } }
endpoints:
  operations:
    createSheet: { method: POST, path: /sheets, action: create, resource: Sheet }
    getSheet: { method: GET, path: "/sheets/{id}", action: read, resource: Sheet }
authentication:
  default: none
${PLAIN_ERRORS}`,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

it("passes serve refusing an edge body over its built-in 1 MiB when the spec shows no body_size (keycloak.local's realm create)", async () => {
  const report = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 1, only: ['endpoints.input-space'] });
  const r = report.results.find((x) => x.check === 'endpoints.input-space' && x.target === 'createSheet');
  expect(r?.outcome, JSON.stringify(r)).toBe('passed');
});
