// A cursor the service never issued, on a list of a spec stating no error answer (an OpenAPI document declaring
// successes only): like the paging values' edges, the format's rule is not the document's, so a service answering
// such a cursor with a page (here the objects after it, none) is not held to a refusal. Before, endpoints.list-edges
// failed it "for a cursor the service never issued" while it let the page size's edges pass.
import { afterAll, beforeAll, expect, it } from 'vitest';
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
    listOrders: { method: GET, path: /orders, action: list, resource: Order, paging: { style: cursor } }
authentication:
  default: none
limits:
  page_size: { default: 10, max: 100 }
`;

let server: HandServer;
beforeAll(async () => {
  const orders: { id: string; note: string }[] = [];
  server = await startHandServer((req, reply) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/orders') {
      // Any cursor is a position: the objects whose identifiers sort after it (none after one no identifier precedes).
      const after = url.searchParams.get('cursor') ?? '';
      const limit = Number(url.searchParams.get('limit') ?? '10');
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) return reply.json(400, { error: 'limit' });
      const rest = [...orders].sort((a, b) => (a.id < b.id ? -1 : 1)).filter((o) => o.id > after);
      const items = rest.slice(0, limit);
      return reply.json(200, { items, next_cursor: rest.length > limit ? items.at(-1)!.id : null });
    }
    if (req.method !== 'POST' || url.pathname !== '/orders') return reply.json(404, { error: 'no route' });
    const b = readJson(req);
    if (!isObject(b) || typeof b.note !== 'string' || [...b.note].length > 20 || Object.keys(b).length !== 1) return reply.json(400, { error: 'note' });
    const o = { id: crypto.randomUUID(), note: b.note };
    orders.push(o);
    reply.json(201, o, 'application/json', { location: `/orders/${o.id}` });
  });
});
afterAll(() => server?.close());

it('a list answering a forged cursor with a page passes endpoints.list-edges where the spec states no error answer', async () => {
  const report = await testService(checkedModel(SPEC), { baseUrl: server.url, seed: 1, only: ['endpoints.list-edges'] });
  expect(report.results.map((r) => [r.check, r.target, r.outcome, r.failure?.expected ?? ''])).toEqual([['endpoints.list-edges', 'listOrders', 'passed', '']]);
}, 60_000);
