// A valid create answered with a declared client error other than 409 (a 422 for a title the service keeps unique
// without the spec saying so: a rule of its own, answered with a declared code) is sent once more with its text drawn
// afresh before it is judged. A second run on the same seed draws the first run's titles again, which such a service
// refuses: endpoints.valid-requests failed it, a false report. A service refusing the fresh body too still fails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { isObject, readJson, startHandServer, type HandServer } from '../support/hand-server.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';

const SPEC = `servicespec: 1
resources:
  Note:
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string, minLength: 1, maxLength: 30 }
endpoints:
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note }
    getNote: { method: GET, path: '/notes/{id}', action: read, resource: Note }
authentication:
  default: none
${PLAIN_ERRORS}`;

/** Notes whose titles are unique (a rule the spec does not state); `always`: every create refused. */
function start(always: boolean): Promise<HandServer> {
  const notes = new Map<string, { id: string; title: string }>();
  const titles = new Set<string>();
  return startHandServer((req, reply) => {
    const one = /^\/notes\/([^/?]+)$/.exec(req.url);
    if (req.method === 'GET' && one) {
      const n = notes.get(decodeURIComponent(one[1]!));
      return n ? reply.json(200, n) : reply.problem(404, 'not_found');
    }
    if (req.method !== 'POST' || req.url !== '/notes') return reply.problem(404, 'not_found');
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return reply.problem(415, 'not_json');
    const b = readJson(req);
    if (!isObject(b)) return reply.problem(400, 'bad_body');
    const t = b.title;
    if (typeof t !== 'string' || [...t].length < 1 || [...t].length > 30 || Object.keys(b).some((k) => k !== 'title')) return reply.problem(422, 'invalid');
    if (always || titles.has(t)) return reply.problem(422, 'invalid');
    titles.add(t);
    const n = { id: crypto.randomUUID(), title: t };
    notes.set(n.id, n);
    reply.json(201, n, 'application/json', { location: `/notes/${n.id}` });
  });
}

describe('a valid create refused with a declared non-409 client error', () => {
  let unique: HandServer;
  let always: HandServer;
  beforeAll(async () => {
    unique = await start(false);
    always = await start(true);
  });
  afterAll(() => {
    unique?.close();
    always?.close();
  });
  const valid = async (url: string) =>
    (await testService(checkedModel(SPEC), { baseUrl: url, seed: 1, only: ['endpoints.valid-requests'], runs: 5 })).results.find(
      (r) => r.check === 'endpoints.valid-requests' && r.target === 'createNote',
    );

  it('passes a second run on the same seed: the titles it draws again are taken, and fresh ones are not', async () => {
    expect((await valid(unique.url))?.outcome).toBe('passed');
    const again = await valid(unique.url);
    expect(again?.failure).toBeUndefined();
    expect(again?.outcome).toBe('passed');
  });

  it('fails a service refusing the fresh body too, as before', async () => {
    const r = await valid(always.url);
    expect(r?.outcome).toBe('failed');
    expect(r?.failure?.expected).toBe('status 201 for a valid request');
    expect(r?.failure?.actual).toMatch(/^422 /);
  });
});
