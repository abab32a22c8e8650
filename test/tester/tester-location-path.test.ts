// endpoints.location holds a create's Location to the made object's read path (RFC 9110 §10.2.2: a URI reference,
// resolved against the request's), not to a text that merely holds its identifier: `/ticket/7` (no such path) and
// `/tickets/17` (another ticket) passed, with integer identifiers, because each holds "7" (an outside sweep's
// helpdesk location-prefix).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { isObject, readJson, startHandServer, type HandServer } from '../support/hand-server.js';
import { checkedModel } from '../support/specs.js';

const SPEC = `servicespec: 1
resources:
  Ticket:
    fields:
      id: { type: integer, readOnly: true }
      subject: { type: string, maxLength: 20 }
endpoints:
  operations:
    createTicket: { method: POST, path: /tickets, action: create, resource: Ticket }
    getTicket: { method: GET, path: '/tickets/{id}', action: read, resource: Ticket }
authentication:
  default: none
errors:
  codes:
    invalid: { status: 422, when: [validation, malformed_request, unsupported_media_type] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
`;

type Where = (id: number, origin: string) => string;

function start(where: Where): Promise<HandServer> {
  const tickets = new Map<number, { id: number; subject: string }>();
  let next = 7;
  let origin = '';
  const server = startHandServer((req, reply) => {
    const one = /^\/tickets\/([0-9]+)$/.exec(req.url);
    if (req.method === 'GET' && one) {
      const t = tickets.get(Number(one[1]));
      return t ? reply.json(200, t) : reply.problem(404, 'not_found');
    }
    if (req.method !== 'POST' || req.url !== '/tickets') return reply.problem(404, 'not_found');
    const b = readJson(req);
    if (!isObject(b) || typeof b.subject !== 'string') return reply.problem(422, 'invalid');
    const t = { id: next, subject: b.subject };
    next += 10;
    tickets.set(t.id, t);
    reply.json(201, t, 'application/json', { location: where(t.id, origin) });
  });
  return server.then((s) => ((origin = s.url), s));
}

const CASES: [string, Where, 'passed' | 'failed'][] = [
  ['its path', (id) => `/tickets/${id}`, 'passed'],
  ['its absolute URL', (id, origin) => `${origin}/tickets/${id}`, 'passed'],
  ['its path under a gateway prefix', (id) => `/api/v2/tickets/${id}`, 'passed'],
  ['a relative reference (RFC 3986 §5.2)', (id) => `tickets/${id}`, 'passed'],
  ['a path that does not exist', (id) => `/ticket/${id}`, 'failed'],
  ['another ticket, its number holding this one', (id) => `/tickets/1${id}`, 'failed'],
  ['the collection, with the id in the query', (id) => `/tickets?id=${id}`, 'failed'],
];

describe('a Location header', () => {
  const servers: HandServer[] = [];
  beforeAll(async () => {
    for (const [, where] of CASES) servers.push(await start(where));
  });
  afterAll(() => {
    for (const s of servers) s.close();
  });

  it.each(CASES.map(([label, , outcome], i) => [label, outcome, i] as const))('naming %s: %s', async (_label, outcome, i) => {
    const run = await testService(checkedModel(SPEC), { baseUrl: servers[i]!.url, seed: 1, only: ['endpoints.valid-requests', 'endpoints.location'] });
    expect(run.results.filter((r) => r.check === 'endpoints.location').map((r) => r.outcome)).toEqual([outcome]);
  });
});
