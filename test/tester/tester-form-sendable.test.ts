// A form (request.media_type: application/x-www-form-urlencoded) carries text only: a list is its name repeated, so
// an empty one is the field left out, and null has no text (String(null) is `null`). The tester drew both for
// Twilio's messaging forms (twilio-oai spec/json/twilio_messaging_v1.json, fifth sweep): `MessageSamples: []`, a
// required list with no minItems, and `UseCaseCategories: null`, a nullable list of an enum; serve refused them
// (`is required`, `must be one of`), and endpoints.valid-requests and input-space failed against serve itself.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { PLAIN_ERRORS } from '../support/specs.js';
import { startSpecText, type OrdersServer } from './helpers.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText(
    'usa2p.yaml',
    `servicespec: 1
endpoints:
  operations:
    CreateUsAppToPerson:
      method: POST
      path: /v1/Services/{MessagingServiceSid}/Compliance/Usa2p
      action: custom
      request:
        media_type: application/x-www-form-urlencoded
        fields:
          Description: { type: string, maxLength: 40 }
          MessageSamples: { type: array, items: { type: string, maxLength: 20 } }
          UseCaseCategories: { type: array, nullable: true, optional: true, items: { type: enum, values: [TWO_FACTOR_AUTHENTICATION, EVENTS] } }
          HasEmbeddedLinks: { type: boolean, nullable: true, optional: true }
      response: { fields: { sid: { type: string } } }
      handler: CreateUsAppToPerson
authentication:
  default: none
${PLAIN_ERRORS}`,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

it('sends a form no empty required list and no null: serve takes every valid request (501, no handler)', async () => {
  for (const seed of [1, 2, 3]) {
    const report = await testService(s.model, { baseUrl: s.url, ...s.options, seed, only: ['endpoints.valid-requests', 'endpoints.input-space'] });
    expect(report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}: ${r.failure?.actual}`)).toEqual([]);
  }
}, 60_000);
