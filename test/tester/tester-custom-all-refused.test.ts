// endpoints.valid-requests of a custom operation takes a refusal with one of its declared codes (a handler may refuse
// for its own reasons: an order not in the state the action needs). But a check whose every request was so refused
// saw no answer to judge: it is reported not run, saying why, and the run is INCOMPLETE. Before, it passed, and an
// action refusing everything (or answering wrongly when it did succeed, never seen) passed with it (an outside
// sweep's orders API: cancelOrder passed on one request answered 409).
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
    getOrder: { method: GET, path: '/orders/{id}', action: read, resource: Order }
    cancelOrder: { method: POST, path: '/orders/{id}/cancel', action: custom, handler: cancel, response: { resource: Order }, errors: [conflict, not_found] }
authentication:
  default: none
errors:
  codes:
    invalid: { status: 422, when: [validation, malformed_request, unsupported_media_type] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
    conflict: { status: 409 }
`;

function start(cancels: boolean): Promise<HandServer> {
  const orders = new Map<string, { id: string; note: string }>();
  return startHandServer((req, reply) => {
    const one = /^\/orders\/([^/?]+)(\/cancel)?$/.exec(req.url);
    if (one) {
      const o = orders.get(decodeURIComponent(one[1]!));
      if (!o) return reply.problem(404, 'not_found');
      if (req.method === 'GET' && !one[2]) return reply.json(200, o);
      if (req.method === 'POST' && one[2]) return cancels ? reply.json(200, o) : reply.problem(409, 'conflict');
      return reply.problem(404, 'not_found');
    }
    if (req.method !== 'POST' || req.url !== '/orders') return reply.problem(404, 'not_found');
    const b = readJson(req);
    if (!isObject(b) || typeof b.note !== 'string' || [...b.note].length > 20 || Object.keys(b).length !== 1) return reply.problem(422, 'invalid');
    const o = { id: crypto.randomUUID(), note: b.note };
    orders.set(o.id, o);
    reply.json(201, o, 'application/json', { location: `/orders/${o.id}` });
  });
}

describe('a custom operation every valid request of which is refused with a declared code', () => {
  let cancels: HandServer;
  let refuses: HandServer;
  beforeAll(async () => {
    cancels = await start(true);
    refuses = await start(false);
  });
  afterAll(() => {
    cancels?.close();
    refuses?.close();
  });
  const run = (url: string) => testService(checkedModel(SPEC), { baseUrl: url, seed: 1, only: ['endpoints.valid-requests'] });

  it('is not run, saying why, and the run is INCOMPLETE', async () => {
    const r = await run(refuses.url);
    const cancel = r.results.find((x) => x.target === 'cancelOrder')!;
    expect([cancel.outcome, cancel.notRun]).toEqual(['skipped', true]);
    expect(cancel.reason).toMatch(/^every valid request sent to cancelOrder was refused with a declared code \(409\)/);
    expect(r.verdict).toBe('incomplete');
  });

  it('one answered with success is judged, and passes', async () => {
    const r = await run(cancels.url);
    expect(r.results.find((x) => x.target === 'cancelOrder')!.outcome).toBe('passed');
    expect(r.verdict).toBe('passed');
  });
});
