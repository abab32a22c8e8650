// A create nested under a parent the run has none of (Discord's POST /guilds/{guild_id}/channels, discord-api-spec
// specs/openapi.json, fifth sweep: the guild's create is a custom operation, not served) was sent under a guild id the
// tester drew, and endpoints.valid-requests and endpoints.input-space failed on the missing_resource answer serve
// gives a parent that does not exist (docs/format.md), as the list there did before (tester-unmade-parent.test.ts).

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { PLAIN_ERRORS } from '../support/specs.js';
import { startSpecText, type OrdersServer } from './helpers.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText(
    'guild-channels.yaml',
    `servicespec: 1
resources:
  Guild:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string, maxLength: 40 }
  Channel:
    fields:
      id: { type: uuid, readOnly: true }
      guild_id: { type: ref, to: Guild }
      name: { type: string, minLength: 1, maxLength: 40 }
endpoints:
  operations:
    create_guild: { method: POST, path: /guilds, action: custom, handler: create_guild, status: 201 }
    get_guild: { method: GET, path: '/guilds/{guild_id}', action: read, resource: Guild, bind: { guild_id: id } }
    create_guild_channel: { method: POST, path: '/guilds/{guild_id}/channels', action: create, resource: Channel, bind: { guild_id: guild_id }, location: false }
    get_channel: { method: GET, path: '/channels/{id}', action: read, resource: Channel }
authentication:
  default: none
${PLAIN_ERRORS}`,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

it('skips a create under a parent it could not make, saying so, rather than failing on the 404', async () => {
  const report = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 1, only: ['endpoints.valid-requests', 'endpoints.input-space'] });
  const got = report.results.filter((r) => r.target === 'create_guild_channel').map((r) => [r.check, r.outcome, r.reason ?? r.failure?.actual]);
  expect(got.map(([c, o]) => [c, o])).toEqual([
    ['endpoints.valid-requests', 'skipped'],
    ['endpoints.input-space', 'skipped'],
  ]);
  for (const [, , reason] of got) expect(reason).toMatch(/^no Guild to name by \{guild_id\}: the run could not make one/);
}, 60_000);
