// An untagged union whose variants are told apart by an optional enum field alone (Discord's auto-moderation rule
// partials, discord-api-spec specs/openapi.json, fifth sweep: every field optional, each variant's `trigger_type` an
// enum of its own value). A value without that field fits every variant, which a oneOf refuses; the tester drew such
// values (`{}`) as valid, serve refused them ('must match exactly one of the variants'), and valid-requests failed.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { PLAIN_ERRORS } from '../support/specs.js';
import { startSpecText, type OrdersServer } from './helpers.js';

const variant = (trigger: number) => `
          Rule${trigger}:
            fields:
              name: { type: string, maxLength: 20, optional: true }
              enabled: { type: boolean, optional: true }
              trigger_type: { type: enum, values: [${trigger}], optional: true }`;

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText(
    'automod.yaml',
    `servicespec: 1
endpoints:
  operations:
    update_auto_moderation_rule:
      method: PATCH
      path: /guilds/{guild_id}/auto-moderation/rules/{rule_id}
      action: custom
      request:
        variants:${variant(1)}${variant(3)}${variant(4)}
      response: { fields: { id: { type: string } } }
      handler: update_auto_moderation_rule
authentication:
  default: none
${PLAIN_ERRORS}`,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

it('sends each variant with the enum that tells it: serve takes every valid request (501, no handler)', async () => {
  for (const seed of [1, 2]) {
    const report = await testService(s.model, { baseUrl: s.url, ...s.options, seed, only: ['endpoints.valid-requests', 'endpoints.input-space'] });
    expect(report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}: ${r.failure?.actual}`)).toEqual([]);
  }
}, 60_000);
