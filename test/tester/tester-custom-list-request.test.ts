// A custom operation whose request is a list (request: { list: true }: readme oas-examples' schema-types
// `POST /anything/arrays/top-level-payloads`, an array of objects) is sent arrays by endpoints.input-space: it sent
// each edge's object alone, which serve rightly refused ("must be array").
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startSpecText, type OrdersServer } from './helpers.js';

const SPEC = `
servicespec: 1
endpoints:
  operations:
    bulkNotes:
      method: POST
      path: /notes/bulk
      action: custom
      handler: bulkNotes
      request: { list: true, fields: { text: { type: string, minLength: 1, maxLength: 20 }, pinned: { type: boolean, optional: true } } }
      response: { fields: { count: { type: integer } } }
authentication:
  default: none
errors:
  codes:
    invalid: { status: 422, when: [validation] }
`;

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText('bulk.yaml', SPEC);
});
afterAll(async () => {
  await s?.close();
});

it('sends a list request its edges as arrays, so no check fails against serve', async () => {
  const report = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 2, runs: 5 });
  const failed = report.results.filter((r) => r.outcome === 'failed');
  expect(failed.map((r) => [r.check, r.target, r.failure?.expected, r.failure?.actual])).toEqual([]);
  // Served without its handler, every edge the spec accepts is answered 501: reached, not run.
  expect(report.results.find((r) => r.check === 'endpoints.input-space' && r.target === 'bulkNotes')?.reason).toMatch(/501 Not Implemented/);
}, 120_000);
