// endpoints.location let a nested create's Location pass when it was the create's own path with the identifier put
// after it (`/queues/1/tickets/<id>`, where the ticket's read is `/tickets/{id}` and no route serves that path): any
// prefix before the read's path was taken as a gateway's mount. A prefix that is a way into the spec's own paths
// (`/queues/1`, under `/queues/{id}`) is no mount (an outside sweep's helpdesk ticket-location-wrong).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { testService } from '../../src/tester/tester-run.js';
import { isObject, readJson, startHandServer, type HandServer } from '../support/hand-server.js';
import { checkedModel } from '../support/specs.js';

const SPEC = `servicespec: 1
resources:
  Queue:
    fields:
      id: { type: integer, readOnly: true }
      name: { type: string, maxLength: 20 }
  Ticket:
    fields:
      id: { type: uuid, readOnly: true }
      queue_id: { type: ref, to: Queue, readOnly: true }
      subject: { type: string, maxLength: 20 }
endpoints:
  operations:
    createQueue: { method: POST, path: /queues, action: create, resource: Queue, location: false }
    getQueue: { method: GET, path: '/queues/{id}', action: read, resource: Queue }
    createTicket: { method: POST, path: '/queues/{queueId}/tickets', action: create, resource: Ticket, bind: { queueId: queue_id } }
    getTicket: { method: GET, path: '/tickets/{id}', action: read, resource: Ticket }
authentication:
  default: none
errors:
  codes:
    invalid: { status: 422, when: [validation, malformed_request, unsupported_media_type] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
`;

type Where = (queue: number, id: string) => string;

function start(where: Where): Promise<HandServer> {
  const queues = new Map<number, { id: number; name: string }>();
  const tickets = new Map<string, { id: string; queue_id: number; subject: string }>();
  return startHandServer((req, reply) => {
    const b = readJson(req);
    let m: RegExpExecArray | null;
    if (req.method === 'POST' && req.url === '/queues') {
      if (!isObject(b) || typeof b.name !== 'string' || Object.keys(b).length !== 1) return reply.problem(422, 'invalid');
      const q = { id: queues.size + 1, name: b.name };
      queues.set(q.id, q);
      return reply.json(201, q);
    }
    if (req.method === 'GET' && (m = /^\/queues\/([0-9]+)$/.exec(req.url))) {
      const q = queues.get(Number(m[1]));
      return q ? reply.json(200, q) : reply.problem(404, 'not_found');
    }
    if (req.method === 'POST' && (m = /^\/queues\/([0-9]+)\/tickets$/.exec(req.url))) {
      const q = queues.get(Number(m[1]));
      if (!q) return reply.problem(404, 'not_found');
      if (!isObject(b) || typeof b.subject !== 'string' || Object.keys(b).length !== 1) return reply.problem(422, 'invalid');
      const t = { id: randomUUID(), queue_id: q.id, subject: b.subject };
      tickets.set(t.id, t);
      return reply.json(201, t, 'application/json', { location: where(q.id, t.id) });
    }
    if (req.method === 'GET' && (m = /^\/tickets\/([^/]+)$/.exec(req.url))) {
      const t = tickets.get(m[1]!);
      return t ? reply.json(200, t) : reply.problem(404, 'not_found');
    }
    reply.problem(404, 'not_found');
  });
}

const CASES: [string, Where, 'passed' | 'failed'][] = [
  ['its read path', (_q, id) => `/tickets/${id}`, 'passed'],
  ['its read path under a gateway prefix', (_q, id) => `/api/v2/tickets/${id}`, 'passed'],
  ["the create's own path with the identifier after it", (q, id) => `/queues/${q}/tickets/${id}`, 'failed'],
];

describe('a nested create whose read is not nested', () => {
  const servers: HandServer[] = [];
  beforeAll(async () => {
    for (const [, where] of CASES) servers.push(await start(where));
  });
  afterAll(() => {
    for (const s of servers) s.close();
  });

  it.each(CASES.map(([label, , outcome], i) => [label, outcome, i] as const))('a Location naming %s: %s', async (_label, outcome, i) => {
    const run = await testService(checkedModel(SPEC), { baseUrl: servers[i]!.url, seed: 1, only: ['endpoints.valid-requests', 'endpoints.location'] });
    expect(run.results.filter((r) => r.check === 'endpoints.location' && r.target === 'createTicket').map((r) => r.outcome)).toEqual([outcome]);
  });
});
