// A merge-patch update (RFC 7396) merges a map member by member: `{ "labels": { "key": null } }` removes the member
// `key` (docs/format.md, "Maps"). endpoints.invalid-requests sent that body as an invalid one (`labels.key null (not
// nullable)`) and failed a faithful service — `serve` itself — for taking it (an outside sweep's catalog server).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { PLAIN_ERRORS } from '../support/specs.js';
import { startSpecText, type OrdersServer } from './helpers.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText(
    'boxes.yaml',
    `servicespec: 1
resources:
  Box:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string, minLength: 1, maxLength: 20 }
      labels: { type: map, items: { type: string, maxLength: 10 }, optional: true }
endpoints:
  operations:
    createBox: { method: POST, path: /boxes, action: create, resource: Box }
    getBox: { method: GET, path: "/boxes/{id}", action: read, resource: Box }
    patchBox: { method: PATCH, path: "/boxes/{id}", action: update, resource: Box, request_media_type: application/merge-patch+json }
authentication:
  default: none
${PLAIN_ERRORS}`,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

it("sends no null map member as an invalid merge patch, and passes serve's", async () => {
  const run = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 1, only: ['endpoints.invalid-requests'] });
  const patch = run.results.filter((r) => r.check === 'endpoints.invalid-requests' && r.target.startsWith('patchBox: '));
  expect(patch.map((r) => r.target)).not.toContain('patchBox: labels.key null (not nullable)');
  // Still sent: a member of the wrong type, or past its maxLength, and a null name.
  expect(patch.map((r) => r.target)).toEqual(expect.arrayContaining(['patchBox: labels.key of the wrong type', 'patchBox: name null (not nullable)']));
  expect(patch.filter((r) => r.outcome === 'failed')).toEqual([]);
});
