// A unique field is kept apart in a run by a prefix on its drawn text. A unique uuid (the Redocly Museum's optional
// eventId, a document of the fourth sweep) took it too, "5x6do02d00000000-0000-…", which is no uuid: serve refused
// the body 400, and endpoints.valid-requests and endpoints.input-space failed a faithful service.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { PLAIN_ERRORS } from '../support/specs.js';
import { startSpecText, type OrdersServer } from './helpers.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText(
    'events.yaml',
    `servicespec: 1
resources:
  SpecialEvent:
    fields:
      id: { type: uuid, readOnly: true }
      eventId: { type: uuid, optional: true, unique: true }
      homepage: { type: uri, optional: true, unique: true }
      name: { type: string, maxLength: 40 }
endpoints:
  operations:
    createSpecialEvent: { method: POST, path: /special-events, action: create, resource: SpecialEvent }
    getSpecialEvent: { method: GET, path: "/special-events/{id}", action: read, resource: SpecialEvent }
authentication:
  default: none
${PLAIN_ERRORS}`,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

it('sends a unique uuid and a unique URI as values of their formats, and serve takes them', async () => {
  const report = await testService(s.model, {
    baseUrl: s.url,
    ...s.options,
    seed: 1,
    only: ['endpoints.valid-requests', 'endpoints.input-space', 'endpoints.unique'],
  });
  const ran = report.results.filter((x) => x.outcome !== 'skipped');
  expect(ran.length).toBeGreaterThan(0);
  expect(ran.filter((x) => x.outcome === 'failed').map((x) => [x.check, x.target, x.reason])).toEqual([]);
});
