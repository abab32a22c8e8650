// errors.malformed-id never sends a dot segment (`..`, `.`) as the malformed identifier: fetch (and any client or
// server normalising the URL, RFC 3986) resolves `/api/scores/..` to `/api/`, another route (the dnd5e document's
// `GET /api`, a custom action serve answers 501 without its handler), and the check failed on that route's answer.
// A service answering a malformed identifier with a server error is still caught.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startHandServer, type HandServer } from '../support/hand-server.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';

const SPEC = `servicespec: 1
resources:
  Score:
    identifier: index
    fields:
      index: { type: string, pattern: '^[a-z]+$', maxLength: 20 }
      name: { type: string }
endpoints:
  operations:
    getApi: { method: GET, path: /api, action: custom, handler: getApi }
    getScore: { method: GET, path: '/api/scores/{index}', action: read, resource: Score }
authentication:
  default: none
${PLAIN_ERRORS}`;

type Fault = 'none' | 'malformed-500';

function start(fault: Fault): Promise<HandServer> {
  return startHandServer((req, reply) => {
    // The route above, as serve answers a custom action it has no handler for.
    if (/^\/api\/?$/.test(req.url)) return reply.json(501, { error: 'not_implemented' });
    const one = /^\/api\/scores\/([^/?]*)$/.exec(req.url);
    if (req.method === 'GET' && one) {
      const index = decodeURIComponent(one[1]!);
      if (fault === 'malformed-500' && index.includes('.')) return reply.json(500, { oops: true });
      if (!/^[a-z]+$/.test(index) || index.length > 20) return reply.problem(422, 'invalid');
      return reply.problem(404, 'not_found');
    }
    reply.problem(404, 'not_found');
  });
}

describe('errors.malformed-id sends no dot segment', () => {
  const servers: Partial<Record<Fault, HandServer>> = {};
  beforeAll(async () => {
    for (const f of ['none', 'malformed-500'] as const) servers[f] = await start(f);
  });
  afterAll(() => {
    for (const s of Object.values(servers)) s.close();
  });
  const malformed = async (fault: Fault) =>
    (await testService(checkedModel(SPEC), { baseUrl: servers[fault]!.url, seed: 1, only: ['errors.malformed-id'] })).results.find(
      (r) => r.check === 'errors.malformed-id' && r.target === 'getScore',
    );

  it('passes a service whose route above the identifier answers something else (501)', async () => {
    const r = await malformed('none');
    expect(r?.failure).toBeUndefined();
    expect(r?.outcome).toBe('passed');
  });

  it('still fails a service answering a malformed identifier with a server error', async () => {
    const r = await malformed('malformed-500');
    expect(r?.outcome).toBe('failed');
    expect(r?.failure?.actual).toMatch(/^status 500/);
  });
});
