// endpoints.union-variants sends each variant of a union field and holds the answer to it kept as sent. A create
// answering 204 (Okta's global token revocation, sub_id a union of formats; a document of the fourth sweep) answers
// no object: serve's faithful 204 failed 'sub_id is undefined'.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { PLAIN_ERRORS } from '../support/specs.js';
import { startSpecText, type OrdersServer } from './helpers.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText(
    'revocations.yaml',
    `servicespec: 1
resources:
  Revocation:
    fields:
      id: { type: uuid, readOnly: true }
      sub_id:
        type: union
        discriminator: format
        variants:
          SubIdOpaque: { tag: opaque, fields: { id: { type: string, maxLength: 40 } } }
          SubIdEmail: { tag: email, fields: { email: { type: email } } }
endpoints:
  operations:
    revokeAll: { method: POST, path: /global-token-revocation, action: create, resource: Revocation, status: 204 }
authentication:
  default: none
${PLAIN_ERRORS}`,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

it('passes a create answering 204 to each variant of a union field', async () => {
  const report = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 1, only: ['endpoints.union-variants'] });
  const ran = report.results.filter((x) => x.check === 'endpoints.union-variants');
  expect(ran.map((x) => [x.target, x.outcome, x.reason])).toEqual([['revokeAll', 'passed', undefined]]);
});
