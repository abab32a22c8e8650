// `has_more` on a last page that is exactly full. endpoints.list-paging pages through 5 objects 2 at a time, so a
// service answering `has_more: items.length >= limit` was never seen saying true on a full last page, and passed on
// every seed (an outside sweep's orders API, has-more-gte). The page size set to every object listed, the page must
// say false, or the page after it must hold some.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { isObject, readJson, startHandServer, type HandServer } from '../support/hand-server.js';
import { checkedModel } from '../support/specs.js';

const SPEC = `servicespec: 1
resources:
  Order:
    fields:
      id: { type: uuid, readOnly: true }
      note: { type: string, maxLength: 20 }
endpoints:
  operations:
    createOrder: { method: POST, path: /orders, action: create, resource: Order }
    listOrders: { method: GET, path: /orders, action: list, resource: Order, paging: { style: after, items: data, has_more: has_more } }
authentication:
  default: none
limits:
  page_size: { default: 10, max: 100 }
errors:
  codes:
    invalid: { status: 422, when: [validation, malformed_request, unsupported_media_type] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
`;

function start(fullMeansMore: boolean, limitFirstOnly = false): Promise<HandServer> {
  const orders: { id: string; note: string }[] = [];
  return startHandServer((req, reply) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/orders') {
      // limitFirstOnly: the page size honoured on the first page alone (a next page answers the default, 10).
      const after = url.searchParams.get('starting_after');
      const limit = limitFirstOnly && after !== null ? 10 : Number(url.searchParams.get('limit') ?? '10');
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) return reply.problem(422, 'invalid');
      const sorted = [...orders].sort((a, b) => (a.id < b.id ? -1 : 1));
      const from = after === null ? 0 : sorted.findIndex((o) => o.id > after);
      const rest = from < 0 ? [] : sorted.slice(from);
      const data = rest.slice(0, limit);
      return reply.json(200, { data, has_more: fullMeansMore ? data.length >= limit : rest.length > limit });
    }
    if (req.method !== 'POST' || url.pathname !== '/orders') return reply.problem(404, 'not_found');
    const b = readJson(req);
    if (!isObject(b) || typeof b.note !== 'string' || [...b.note].length > 20 || Object.keys(b).length !== 1) return reply.problem(422, 'invalid');
    const o = { id: crypto.randomUUID(), note: b.note };
    orders.push(o);
    reply.json(201, o, 'application/json', { location: `/orders/${o.id}` });
  });
}

describe('has_more on an exactly full last page', () => {
  let faithful: HandServer;
  let full: HandServer;
  beforeAll(async () => {
    faithful = await start(false);
    full = await start(true);
  });
  afterAll(() => {
    faithful?.close();
    full?.close();
  });
  const paging = async (url: string, seed: number) =>
    (await testService(checkedModel(SPEC), { baseUrl: url, seed, only: ['endpoints.list-paging'] })).results.map((r) => [r.outcome, r.failure?.actual ?? '']);

  it.each([1, 2])('seed %i: a service saying true only while objects follow passes; one saying true on every full page fails', async (seed) => {
    expect(await paging(faithful.url, seed)).toEqual([['passed', '']]);
    // The servers keep what each seed's run made: 5 objects (pages of 2 end short: only the full page shows it), then 10.
    const [outcome, actual] = (await paging(full.url, seed))[0] ?? [];
    expect([outcome, actual]).toEqual([
      'failed',
      seed === 1 ? 'true on a page of all 5 objects, and the page after it holds none' : expect.stringMatching(/the page after it holds none/),
    ]);
  });

  it('a service honouring the page size on the first page alone fails: every page holds at most the size asked', async () => {
    const firstOnly = await start(false, true);
    try {
      expect(await paging(firstOnly.url, 1)).toEqual([['failed', '3 items on page 2']]);
    } finally {
      firstOnly.close();
    }
  });
});
