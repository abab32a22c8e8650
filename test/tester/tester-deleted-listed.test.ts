// endpoints.valid-requests of a delete reads the object afterwards (not found) and pages the resource's list: a
// deleted object still listed fails. Before, only the read was asked, and an IoT sweep's deleted-listed fault escaped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { codePoints, startHandServer, takeObject, type HandServer } from '../support/hand-server.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';
import { startService } from '../runtime/helpers.js';

const SPEC = `servicespec: 1
resources:
  Fleet:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string, minLength: 1, maxLength: 30 }
endpoints:
  operations:
    createFleet: { method: POST, path: /fleets, action: create, resource: Fleet }
    listFleets: { method: GET, path: /fleets, action: list, resource: Fleet, paging: { style: offset, items: data } }
    getFleet: { method: GET, path: '/fleets/{id}', action: read, resource: Fleet }
    deleteFleet: { method: DELETE, path: '/fleets/{id}', action: delete, resource: Fleet }
authentication:
  default: none
limits:
  page_size: { default: 20, max: 100 }
${PLAIN_ERRORS}`;

function start(keepListed: boolean): Promise<HandServer> {
  const fleets = new Map<string, { id: string; name: string; gone?: true }>();
  return startHandServer((req, reply) => {
    const url = new URL(req.url, 'http://x');
    const one = /^\/fleets\/([^/]+)$/.exec(url.pathname);
    if (one) {
      const f = fleets.get(decodeURIComponent(one[1]!));
      if (!f || f.gone) return reply.problem(404, 'not_found');
      if (req.method === 'GET') return reply.json(200, { id: f.id, name: f.name });
      if (req.method === 'DELETE') {
        if (keepListed) f.gone = true;
        else fleets.delete(f.id);
        return reply.json(204, undefined);
      }
      return reply.notAllowed('GET, DELETE');
    }
    if (url.pathname !== '/fleets') return reply.problem(404, 'not_found');
    if (req.method === 'GET') {
      for (const k of url.searchParams.keys()) if (k !== 'limit' && k !== 'offset') return reply.problem(422, 'invalid');
      const limit = url.searchParams.get('limit') ?? '20';
      const offset = url.searchParams.get('offset') ?? '0';
      if (!/^[0-9]+$/.test(limit) || !/^[0-9]+$/.test(offset) || Number(limit) < 1 || Number(limit) > 100) return reply.problem(422, 'invalid');
      const all = [...fleets.values()].map(({ id, name }) => ({ id, name }));
      return reply.json(200, { data: all.slice(Number(offset), Number(offset) + Number(limit)) });
    }
    if (req.method !== 'POST') return reply.notAllowed('GET, POST');
    const b = takeObject(req, reply);
    if (!b) return;
    const { name, ...rest } = b;
    if (Object.keys(rest).length > 0 || codePoints(name) < 1 || codePoints(name) > 30) return reply.problem(422, 'invalid');
    const f = { id: crypto.randomUUID(), name: name as string };
    fleets.set(f.id, f);
    reply.json(201, f, 'application/json', { location: `/fleets/${f.id}` });
  });
}

describe('a deleted object, listed', () => {
  let faithful: HandServer;
  let listed: HandServer;
  beforeAll(async () => {
    faithful = await start(false);
    listed = await start(true);
  });
  afterAll(() => {
    faithful?.close();
    listed?.close();
  });
  const failed = async (url: string) =>
    (await testService(checkedModel(SPEC), { baseUrl: url, seed: 6, only: ['endpoints.valid-requests'] })).results
      .filter((x) => x.outcome === 'failed')
      .map((x) => x.failure?.expected ?? '');

  it('a faithful service passes; one still listing it fails', async () => {
    expect(await failed(faithful.url)).toEqual([]);
    expect(await failed(listed.url)).toEqual(['a deleted object is not listed']);
  }, 60_000);

  it('servicespec serve passes', async () => {
    const s = await startService(checkedModel(SPEC));
    try {
      expect(await failed(s.url)).toEqual([]);
    } finally {
      await s.close();
    }
  }, 60_000);
});
