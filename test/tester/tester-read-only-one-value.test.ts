// endpoints.invalid-requests sends a read-only field and fails an answer holding the value sent (stored, not
// ignored). A field of one value (Box's read-only `type: enum [web_link]`, an APIs.guru document of the third sweep)
// holds that value whatever the service does: serve answered it, and five of Box's operations (taking request_fields,
// ignoring the rest) failed.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { PLAIN_ERRORS } from '../support/specs.js';
import { startSpecText, type OrdersServer } from './helpers.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText(
    'links.yaml',
    `servicespec: 1
resources:
  WebLink:
    fields:
      id: { type: uuid, readOnly: true }
      type: { type: enum, values: [web_link], readOnly: true, default: web_link }
      url: { type: string, maxLength: 200 }
endpoints:
  operations:
    createWebLink: { method: POST, path: /web_links, action: create, resource: WebLink, request_fields: [url], unknown_fields: ignore }
    getWebLink: { method: GET, path: "/web_links/{id}", action: read, resource: WebLink }
authentication:
  default: none
${PLAIN_ERRORS}`,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

it("passes serve answering a read-only field of one value as sent (box.com's web link type)", async () => {
  const report = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 1, only: ['endpoints.invalid-requests'] });
  const sent = report.results.filter((x) => x.target.includes('type (read-only) sent'));
  expect(sent.length).toBeGreaterThan(0);
  expect(sent.map((x) => [x.target, x.outcome])).toEqual(sent.map((x) => [x.target, 'passed']));
});
