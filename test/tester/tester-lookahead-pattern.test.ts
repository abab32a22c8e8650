// fast-check builds no generator for a pattern with a lookahead (linode's user name,
// `^[a-zA-Z]((?!--|__|..)[a-zA-Z0-9-_.])+$`, a document of the third sweep): the tester's request could not be made,
// and every check drawing a body for it failed with "Assertions of kind Lookahead not implemented yet!" against a
// faithful service. The lookaround is left out of the pattern drawn from; draws are kept where the whole pattern matches.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { withoutLookarounds } from '../../src/tester/tester-arbitraries.js';
import { testService } from '../../src/tester/tester-run.js';
import { PLAIN_ERRORS } from '../support/specs.js';
import { startSpecText, type OrdersServer } from './helpers.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText(
    'users.yaml',
    `servicespec: 1
resources:
  User:
    fields:
      id: { type: uuid, readOnly: true }
      username: { type: string, pattern: "^[a-zA-Z]((?!--|__)[a-zA-Z0-9-_.])+$", minLength: 3, maxLength: 32 }
      slug: { type: string, pattern: "^(?=[a-z])[a-z0-9-]{2,10}(?<!-)$" }
endpoints:
  operations:
    createUser: { method: POST, path: /users, action: create, resource: User }
    getUser: { method: GET, path: "/users/{id}", action: read, resource: User }
authentication:
  default: none
${PLAIN_ERRORS}`,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

it('takes lookaheads and lookbehinds out of a pattern, leaving classes, escapes and groups', () => {
  expect(withoutLookarounds('^[a-zA-Z]((?!--|__|..)[a-zA-Z0-9-_.])+$')).toBe('^[a-zA-Z]([a-zA-Z0-9-_.])+$');
  expect(withoutLookarounds('^(?=[a-z])[a-z0-9-]{2,10}(?<!-)$')).toBe('^[a-z0-9-]{2,10}$');
  expect(withoutLookarounds('^[(?!]\\(?!x(?<name>y)$')).toBe('^[(?!]\\(?!x(?<name>y)$');
  expect(withoutLookarounds('^a(?!b')).toBeUndefined();
});

it('draws values for patterns with lookarounds and passes a faithful service (linode.com: createUser)', async () => {
  const report = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 1, only: ['endpoints.valid-requests', 'endpoints.invalid-requests'] });
  const ran = report.results.filter((x) => x.target === 'createUser');
  expect(ran.length).toBeGreaterThan(0);
  for (const r of ran) expect(r.outcome, JSON.stringify(r).slice(0, 600)).toBe('passed');
});
