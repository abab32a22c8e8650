// A list nested under a parent the run has no object of (the appwrite client document's team memberships: the
// team's create is a custom operation, not served, so no team is made) was sent under a parent identifier the tester
// drew, and endpoints.valid-requests and endpoints.list-edges failed on the missing_resource answer serve gives a
// parent that does not exist (docs/format.md). With no real parent, they skip, saying why; with one, a service
// answering its list 404 is still caught.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { isObject, readJson, startHandServer, type HandServer } from '../support/hand-server.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';
import { startSpecText, type OrdersServer } from './helpers.js';

const spec = (teamCreate: string) => `servicespec: 1
resources:
  Team:
    identifier: id
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string, maxLength: 40 }
  Membership:
    identifier: id
    fields:
      id: { type: uuid, readOnly: true }
      teamId: { type: string, maxLength: 40 }
      role: { type: string, maxLength: 20 }
endpoints:
  operations:
    createTeam: ${teamCreate}
    getTeam: { method: GET, path: '/teams/{teamId}', action: read, resource: Team }
    listMemberships: { method: GET, path: '/teams/{teamId}/memberships', action: list, resource: Membership, bind: { teamId: teamId } }
authentication:
  default: none
${PLAIN_ERRORS}`;
const CUSTOM = '{ method: POST, path: /teams, action: custom, handler: createTeam, status: 201 }';
const SERVED = '{ method: POST, path: /teams, action: create, resource: Team }';

const listResults = (report: Awaited<ReturnType<typeof testService>>) =>
  report.results
    .filter((r) => r.target === 'listMemberships' && (r.check === 'endpoints.valid-requests' || r.check === 'endpoints.list-edges'))
    .map((r) => [r.check, r.outcome, r.reason ?? r.failure?.actual] as const);

describe('a list under a parent the run has none of', () => {
  let served: OrdersServer;
  let hand: HandServer;
  beforeAll(async () => {
    served = await startSpecText('unmade-parent.yaml', spec(CUSTOM));
    // Teams made as asked; every membership list answered 404 (the planted fault).
    const teams = new Set<string>();
    hand = await startHandServer((req, reply) => {
      if (req.method === 'POST' && req.url === '/teams') {
        const b = readJson(req);
        if (!isObject(b)) return reply.problem(422, 'invalid');
        const id = crypto.randomUUID();
        teams.add(id);
        return reply.json(201, { id, name: b.name ?? '' });
      }
      reply.problem(404, 'not_found');
    });
  });
  afterAll(async () => {
    await served?.close();
    hand?.close();
  });

  it('serve of the spec: skipped, saying there is no Team to name, not failed on the 404', async () => {
    const report = await testService(served.model, {
      baseUrl: served.url,
      ...served.options,
      seed: 1,
      only: ['endpoints.valid-requests', 'endpoints.list-edges'],
    });
    const got = listResults(report);
    expect(got.map(([c, o]) => [c, o])).toEqual([
      ['endpoints.valid-requests', 'skipped'],
      ['endpoints.list-edges', 'skipped'],
    ]);
    for (const [, , reason] of got) expect(reason).toMatch(/^no Team to name by \{teamId\}: the run could not make one/);
  });

  it('a service answering the list 404 under a team it made is still failed', async () => {
    const report = await testService(checkedModel(spec(SERVED)), { baseUrl: hand.url, seed: 1, only: ['endpoints.valid-requests'] });
    const got = listResults(report);
    expect(got.map(([c, o]) => [c, o])).toEqual([['endpoints.valid-requests', 'failed']]);
    expect(String(got[0]![2])).toMatch(/^404/);
  });
});
