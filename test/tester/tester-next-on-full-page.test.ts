// A next cursor (or a Link rel="next") on a last page that is exactly full. The format says the next cursor is null
// (the Link header absent) on the last page; a service answering one whenever a page comes back full (`items.length
// >= limit`, no look-ahead) leads its client to an empty page. endpoints.list-paging pages through 5 objects 2 at a
// time, so such a last page was seldom seen and the service passed: the page size set to every object listed, the
// page must say no next page, or the page after it must hold some. Lists that declare their paging only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { isObject, readJson, startHandServer, type HandServer } from '../support/hand-server.js';
import { checkedModel } from '../support/specs.js';

const spec = (paging: string) => `servicespec: 1
resources:
  Order:
    fields:
      id: { type: uuid, readOnly: true }
      note: { type: string, maxLength: 20 }
endpoints:
  operations:
    createOrder: { method: POST, path: /orders, action: create, resource: Order }
    listOrders: { method: GET, path: /orders, action: list, resource: Order, paging: ${paging} }
authentication:
  default: none
limits:
  page_size: { default: 10, max: 100 }
errors:
  codes:
    invalid: { status: 422, when: [validation, malformed_request, unsupported_media_type] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
`;

const ENVELOPE = spec('{ style: cursor, items: data, next: next_page }');
const LINKED = spec('{ style: cursor, body: array, link: true }');
/** The format's own page, declared: { items, next_cursor }. */
const OWN = spec('{ style: cursor }');

type Shape = 'envelope' | 'link' | 'own';

/** `fullMeansMore`: a next page said to exist whenever a page comes back full. `link`: a bare array, the Link header. */
function start(fullMeansMore: boolean, shape: Shape): Promise<HandServer> {
  const orders: { id: string; note: string }[] = [];
  return startHandServer((req, reply) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/orders') {
      const after = url.searchParams.get('cursor');
      const limit = Number(url.searchParams.get('limit') ?? '10');
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) return reply.problem(422, 'invalid');
      const sorted = [...orders].sort((a, b) => (a.id < b.id ? -1 : 1));
      const from = after === null ? 0 : sorted.findIndex((o) => o.id > after);
      const rest = from < 0 ? [] : sorted.slice(from);
      const data = rest.slice(0, limit);
      const more = fullMeansMore ? data.length >= limit : rest.length > limit;
      const next = more && data.length > 0 ? data.at(-1)!.id : null;
      if (shape === 'envelope') return reply.json(200, { data, next_page: next });
      if (shape === 'own') return reply.json(200, { items: data, next_cursor: next });
      return reply.json(200, data, 'application/json', next === null ? {} : { link: `</orders?limit=${limit}&cursor=${next}>; rel="next"` });
    }
    if (req.method !== 'POST' || url.pathname !== '/orders') return reply.problem(404, 'not_found');
    const b = readJson(req);
    if (!isObject(b) || typeof b.note !== 'string' || [...b.note].length > 20 || Object.keys(b).length !== 1) return reply.problem(422, 'invalid');
    const o = { id: crypto.randomUUID(), note: b.note };
    orders.push(o);
    reply.json(201, o, 'application/json', { location: `/orders/${o.id}` });
  });
}

describe.each([
  ['an envelope next cursor', ENVELOPE, 'envelope', /^a next cursor in `next_page` on a page of all 5 objects, and the page after it holds none$/],
  ['a Link header rel="next"', LINKED, 'link', /^a Link header rel="next" on a page of all 5 objects, and the page after it holds none$/],
  ["the format's own next_cursor, declared", OWN, 'own', /^a next cursor in `next_cursor` on a page of all 5 objects, and the page after it holds none$/],
] as const)('%s on an exactly full last page', (_name, text, shape, actual) => {
  let faithful: HandServer;
  let full: HandServer;
  beforeAll(async () => {
    faithful = await start(false, shape);
    full = await start(true, shape);
  });
  afterAll(() => {
    faithful?.close();
    full?.close();
  });
  const paging = async (url: string) =>
    (await testService(checkedModel(text), { baseUrl: url, seed: 1, only: ['endpoints.list-paging'] })).results.map((r) => [
      r.outcome,
      r.failure?.actual ?? '',
    ]);

  it('a service saying a next page exists only while objects follow passes; one saying so on every full page fails', async () => {
    expect(await paging(faithful.url)).toEqual([['passed', '']]);
    expect(await paging(full.url)).toEqual([['failed', expect.stringMatching(actual)]]);
  });
});
