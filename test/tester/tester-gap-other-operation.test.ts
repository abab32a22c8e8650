// serve's answer to a condition no code declares, where the declared error body has no code field, is told by its
// status: the condition's built-in one (422 for validation) that no declared code has. Ory Kratos' document
// (ory/kratos spec/api.json, fifth sweep) declares a 422 for its browser flows only; its createIdentity lists 400
// and 409, and serve's gap 422 to an invalid identity was judged as the service's own: 84 endpoints.invalid-requests
// failures against serve. serve now answers such a body with the operation's own 400 (its one code of the status HTTP
// gives the condition: runtime-operation-refusal.test.ts), which the tester takes. createBrowserFlow, listing its 422
// alone, gets serve's gap 400 for malformed JSON, which the tester could not tell from a service's own answer where
// the error body has no code field and another operation lists a 400, and failed; serve now marks it
// (Servicespec-Undeclared-Condition: malformed_request) and it passes (tester-undeclared-condition.test.ts).

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startSpecText, type OrdersServer } from './helpers.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText(
    'kratos.yaml',
    `servicespec: 1
resources:
  identity:
    fields:
      id: { type: uuid, readOnly: true }
      schema_id: { type: string, maxLength: 40 }
      state: { type: enum, values: [active, inactive], optional: true }
  flow:
    fields:
      id: { type: uuid, readOnly: true }
      return_to: { type: string, maxLength: 40, optional: true }
endpoints:
  operations:
    createIdentity: { method: POST, path: /admin/identities, action: create, resource: identity, errors: [bad_request, conflict] }
    getIdentity: { method: GET, path: '/admin/identities/{id}', action: read, resource: identity, errors: [not_found] }
    createBrowserFlow: { method: POST, path: /self-service/flows, action: create, resource: flow, errors: [unprocessable_entity] }
authentication:
  default: none
errors:
  body:
    fields:
      error: { type: json, optional: true }
      redirect_browser_to: { type: string, optional: true }
    answer_members: open
  codes:
    bad_request: { status: 400 }
    conflict: { status: 409, when: [unique_conflict] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
    unprocessable_entity: { status: 422 }
`,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

it("passes serve's answer to an invalid body where the operation lists no 422, though another operation does", async () => {
  const report = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 1, only: ['endpoints.invalid-requests'] });
  const ran = report.results.filter((r) => r.target.startsWith('createIdentity'));
  expect(ran.length).toBeGreaterThan(0);
  expect(ran.filter((r) => r.outcome === 'failed').map((r) => `${r.target}: ${r.failure?.actual}`)).toEqual([]);
  expect(report.results).toContainEqual(expect.objectContaining({ target: 'createBrowserFlow: malformed JSON', outcome: 'passed' }));
  expect(report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.target}: ${r.failure?.actual}`)).toEqual([]);
}, 60_000);
