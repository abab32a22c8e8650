// authentication.each-scheme: an operation that takes any of several schemes takes each. Every other check sends the
// first credential the run holds, so a service honouring the API key alone, where the spec says "an API key or a
// bearer token", passed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startHandServer, type HandServer } from '../support/hand-server.js';
import { checkedModel } from '../support/specs.js';

const SPEC = `servicespec: 1
resources:
  Note:
    fields:
      id: { type: uuid, readOnly: true }
      text: { type: string, maxLength: 10 }
endpoints:
  operations:
    listNotes: { method: GET, path: /notes, action: list, resource: Note }
    getNote: { method: GET, path: '/notes/{id}', action: read, resource: Note, auth: { schemes: [key] } }
authentication:
  schemes:
    key: { type: api_key, in: header, name: X-API-Key }
    token: { type: bearer }
  default: { schemes: [key, token] }
errors:
  body: problem
  codes:
    unauthenticated: { status: 401, when: [missing_credential, invalid_credential, expired_credential] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
`;

function start(takesBearer: boolean): Promise<HandServer> {
  return startHandServer((req, reply) => {
    const byKey = req.headers['x-api-key'] === 'key-main';
    const byToken = takesBearer && req.headers.authorization === 'Bearer token-main';
    if (!byKey && !byToken) return reply.problem(401, 'unauthenticated');
    if (req.method === 'GET' && req.url.split('?')[0] === '/notes') return reply.json(200, { items: [], next_cursor: null });
    reply.problem(404, 'not_found');
  });
}

describe('an operation taking an API key or a bearer token', () => {
  let faithful: HandServer;
  let keyOnly: HandServer;
  beforeAll(async () => {
    faithful = await start(true);
    keyOnly = await start(false);
  });
  afterAll(() => {
    faithful?.close();
    keyOnly?.close();
  });
  const run = (url: string, credentials: { headers?: Record<string, string>; bearer?: string }) =>
    testService(checkedModel(SPEC), { baseUrl: url, seed: 1, credentials, only: ['authentication.each-scheme'] });

  it('a service taking the bearer token too passes; one taking the key alone fails, naming the scheme', async () => {
    const both = { headers: { 'X-API-Key': 'key-main' }, bearer: 'token-main' };
    const good = await run(faithful.url, both);
    expect(good.results.map((r) => [r.check, r.target, r.outcome])).toEqual([['authentication.each-scheme', 'listNotes', 'passed']]);
    const bad = (await run(keyOnly.url, both)).results.filter((r) => r.outcome === 'failed');
    expect(bad.map((r) => [r.check, r.target])).toEqual([['authentication.each-scheme', 'listNotes']]);
    expect(bad[0]!.failure?.expected).toContain('taken with the token credential alone (listNotes takes key or token)');
    expect(bad[0]!.failure?.actual).toMatch(/^401 /);
  });

  it('is not run, and not listed, where the run holds a credential for one of the schemes', async () => {
    expect((await run(keyOnly.url, { headers: { 'X-API-Key': 'key-main' } })).results).toEqual([]);
  });
});
