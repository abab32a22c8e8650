// A custom operation's declared query parameters broken one at a time (endpoints.invalid-requests): a required one
// left out, one of another type, one past its bounds, an enum given a value it does not list. Before, the tester
// sent only valid queries, and a service answering a search without its required parameter escaped (a shop sweep's
// fault).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startHandServer, type HandServer } from '../support/hand-server.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';
import { startService } from '../runtime/helpers.js';

const SPEC = `servicespec: 1
endpoints:
  operations:
    search:
      method: GET
      path: /search
      action: custom
      handler: search
      errors: [invalid]
      response: { fields: { count: { type: integer } } }
      query:
        limit: { type: integer, minimum: 1, maximum: 50 }
        order: { type: enum, values: [name, age], optional: true }
        since: { type: date, optional: true }
authentication:
  default: none
${PLAIN_ERRORS}`;

type Fault = 'none' | 'missing' | 'order' | 'bounds' | 'type';

function start(fault: Fault): Promise<HandServer> {
  return startHandServer((req, reply) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname !== '/search') return reply.problem(404, 'not_found');
    if (req.method !== 'GET') return reply.notAllowed('GET');
    const q = url.searchParams;
    const limit = q.get('limit');
    if (limit === null) return fault === 'missing' ? reply.json(200, { count: 10 }) : reply.problem(422, 'invalid');
    if (!/^-?[0-9]+$/.test(limit) && fault !== 'type') return reply.problem(422, 'invalid');
    const n = /^-?[0-9]+$/.test(limit) ? Number(limit) : 10;
    if ((n < 1 || n > 50) && fault !== 'bounds') return reply.problem(422, 'invalid');
    const order = q.get('order');
    if (order !== null && !['name', 'age'].includes(order) && fault !== 'order') return reply.problem(422, 'invalid');
    const since = q.get('since');
    if (since !== null && !/^\d{4}-\d{2}-\d{2}$/.test(since)) return reply.problem(422, 'invalid');
    reply.json(200, { count: n });
  });
}

describe("a custom operation's query parameters, broken", () => {
  const servers = new Map<Fault, HandServer>();
  beforeAll(async () => {
    for (const f of ['none', 'missing', 'order', 'bounds', 'type'] as const) servers.set(f, await start(f));
  });
  afterAll(() => {
    for (const s of servers.values()) s.close();
  });
  const failed = async (url: string) =>
    (await testService(checkedModel(SPEC), { baseUrl: url, seed: 3, only: ['endpoints'] })).results
      .filter((x) => x.outcome === 'failed')
      .map((x) => x.failure?.expected ?? '');

  it('a faithful service passes', async () => {
    expect(await failed(servers.get('none')!.url)).toEqual([]);
  }, 60_000);

  it.each([
    ['missing', 'query parameter limit missing (required)'],
    ['order', 'query parameter order=__no_such_value__ (none of its values)'],
    ['bounds', 'query parameter limit=51 (above its maximum 50)'],
    ['type', 'query parameter limit=not-a-number (no integer)'],
  ] as const)(
    'a service that takes %s fails, naming the parameter',
    async (fault, label) => {
      expect(await failed(servers.get(fault)!.url)).toContain(`invalid (422) for a request with ${label}`);
    },
    60_000,
  );

  it('servicespec serve refuses each as declared', async () => {
    const s = await startService(checkedModel(SPEC), { handlers: { search: (ctx) => ({ count: ctx.query.limit }) } });
    try {
      expect(await failed(s.url)).toEqual([]);
    } finally {
      await s.close();
    }
  }, 60_000);
});
