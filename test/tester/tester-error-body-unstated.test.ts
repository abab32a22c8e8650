// A spec that declares error codes but no error body: what an OpenAPI document whose error responses have a
// description and no content imports as (`'404': { description: Not found }`), the commonest kind. The format gives
// the error body no default (docs/format.md, "What the format never defaults"): problem details are serve's answer
// to that gap, not the spec's. The tester holds a service to the declared statuses only; before, a hand-written
// service answering `{"message": "nope"}` as application/json failed 16 checks (every error answer's media type and
// body held to RFC 9457).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { isObject, MALFORMED, readJson, startHandServer, type HandServer } from '../support/hand-server.js';
import { checkedModel } from '../support/specs.js';

const SPEC = `servicespec: 1
resources:
  Item:
    answer_members: open
    fields:
      id: { type: integer, readOnly: true }
      name: { type: string }
endpoints:
  operations:
    createItem: { method: POST, path: /items, action: create, resource: Item, location: false, errors: [bad_request] }
    getItem: { method: GET, path: '/items/{id}', action: read, resource: Item, errors: [not_found] }
authentication:
  default: none
errors:
  codes:
    bad_request: { status: 400, when: [validation, malformed_request, unsupported_media_type] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
`;

/** A hand-written service with error bodies of its own; `fault` plants a wrong status. */
function start(fault?: 'missing-200' | 'invalid-422'): Promise<HandServer> {
  const items = new Map<number, { id: number; name: string }>();
  let next = 1;
  return startHandServer((req, reply) => {
    const one = /^\/items\/([^/?]+)$/.exec(req.url);
    if (req.method === 'GET' && one) {
      if (!/^\d+$/.test(one[1]!)) return reply.json(400, { error: 'bad id' });
      const it = items.get(Number(one[1]));
      if (it) return reply.json(200, it);
      return fault === 'missing-200' ? reply.json(200, { id: Number(one[1]), name: 'ghost' }) : reply.json(404, { message: 'nope' });
    }
    if (req.method !== 'POST' || req.url !== '/items') return reply.json(404, { message: 'no route' });
    const bad = fault === 'invalid-422' ? 422 : 400;
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return reply.json(bad, { error: 'send JSON' });
    const b = readJson(req);
    if (b === MALFORMED) return reply.json(bad, { error: 'bad JSON' });
    if (!isObject(b) || typeof b.name !== 'string' || Object.keys(b).length !== 1) return reply.json(bad, { error: 'name, and only name' });
    const it = { id: next++, name: b.name };
    items.set(it.id, it);
    reply.json(201, it);
  });
}

describe('error codes declared, no error body', () => {
  const servers: HandServer[] = [];
  let faithful: HandServer;
  beforeAll(async () => {
    faithful = await start();
    servers.push(faithful);
  });
  afterAll(() => servers.forEach((s) => s.close()));
  const failed = async (url: string) =>
    (await testService(checkedModel(SPEC), { baseUrl: url, seed: 1 })).results
      .filter((x) => x.outcome === 'failed')
      .map((x) => `${x.check}: ${x.failure?.actual ?? ''}`);

  it('a service answering its own JSON error bodies with the declared statuses passes', async () => {
    expect(await failed(faithful.url)).toEqual([]);
  }, 60_000);

  it('a wrong status is still caught: a missing object answered 200, a refusal 422 where 400 is declared', async () => {
    const missing = await start('missing-200');
    const invalid = await start('invalid-422');
    servers.push(missing, invalid);
    expect(await failed(missing.url)).toContainEqual(expect.stringMatching(/^errors\.missing-object: /));
    expect(await failed(invalid.url)).toContainEqual(expect.stringMatching(/^endpoints\.invalid-requests: status 422/));
  }, 60_000);
});
