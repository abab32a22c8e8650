// authentication.bad-credential sends each operation's request as the route takes it, a form where the request is one
// (request.media_type). After a 429 of the failed-credential budget it sent the request again unprepared, as JSON: a
// form operation answered 415, and the check failed a faithful service (Okta's /oauth2/v1/oob-authenticate and
// /primary-authenticate, forms under HTTP Basic client authentication; a document of the fourth sweep).

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { PLAIN_ERRORS } from '../support/specs.js';
import { startSpecText, type OrdersServer } from './helpers.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText(
    'oob.yaml',
    `servicespec: 1
endpoints:
  operations:
    oobAuthenticate:
      method: POST
      path: /oauth2/v1/oob-authenticate
      action: custom
      request: { media_type: application/x-www-form-urlencoded, fields: { login_hint: { type: string, maxLength: 40 } } }
      response: { fields: { ok: { type: boolean } } }
      handler: oobAuthenticate
    primaryAuthenticate:
      method: POST
      path: /oauth2/v1/primary-authenticate
      action: custom
      request: { media_type: application/x-www-form-urlencoded, fields: { login_hint: { type: string, maxLength: 40 } } }
      response: { fields: { ok: { type: boolean } } }
      handler: primaryAuthenticate
authentication:
  schemes:
    client: { type: basic }
  default: { schemes: [client], scopes: [] }
limits:
  failed_auth: { attempts: 1, per: 2s }
${PLAIN_ERRORS}    unauthorized: { status: 401, when: [missing_credential, invalid_credential] }
    too_many: { status: 429, when: [rate_limited] }
`,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

it('sends a form again as a form after the failed-credential budget answers 429', async () => {
  const report = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 1, only: ['authentication.bad-credential'] });
  // The first operation also gets the main user's own with a wrong password, and a Bearer token (a scheme it does
  // not take): each spends the budget too, and each is sent again as a form.
  expect(report.results.map((r) => [r.target, r.outcome, r.reason])).toEqual([
    ['oobAuthenticate', 'passed', undefined],
    ["oobAuthenticate: its own user with the password's last character changed", 'passed', undefined],
    ['oobAuthenticate: a Bearer token (a scheme it does not take)', 'passed', undefined],
    ['primaryAuthenticate', 'passed', undefined],
  ]);
}, 60_000);
