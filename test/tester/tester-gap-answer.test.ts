// An answer the tester leaves unjudged as a gap's (serve's answer to a condition no code declares: the condition's
// name as its code, with its built-in status) is only that: the name AND the status. A service of its own answering
// an invalid body `409 {"error": "validation"}`, a status the spec declares nowhere, passed every check, because its
// code happened to be a condition's name (an outside sweep's helpdesk validation-409).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { codePoints, isObject, MALFORMED, readJson, startHandServer, type HandServer } from '../support/hand-server.js';
import { checkedModel } from '../support/specs.js';

const SPEC = `servicespec: 1
resources:
  Ticket:
    fields:
      id: { type: uuid, readOnly: true }
      subject: { type: string, maxLength: 20 }
endpoints:
  operations:
    createTicket: { method: POST, path: /tickets, action: create, resource: Ticket, errors: [bad_request, unprocessable] }
    getTicket: { method: GET, path: '/tickets/{id}', action: read, resource: Ticket, errors: [not_found] }
authentication:
  default: none
errors:
  body:
    fields:
      error: { type: string }
      description: { type: string }
    message: description
    code_values: unstated
    answer_members: open
  codes:
    bad_request: { status: 400, when: [malformed_request] }
    unprocessable: { status: 422 }
    unsupported: { status: 415, when: [unsupported_media_type] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
`;

function start(invalid: { status: number; error: string }): Promise<HandServer> {
  const tickets = new Map<string, { id: string; subject: string }>();
  return startHandServer((req, reply) => {
    const error = (status: number, error: string) => reply.json(status, { error, description: error });
    const one = /^\/tickets\/([^/?]+)$/.exec(req.url);
    if (req.method === 'GET' && one) {
      const t = tickets.get(decodeURIComponent(one[1]!));
      return t ? reply.json(200, t) : error(404, 'RecordNotFound');
    }
    if (req.method !== 'POST' || req.url !== '/tickets') return error(404, 'RecordNotFound');
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return error(415, 'UnsupportedMediaType');
    const b = readJson(req);
    if (b === MALFORMED) return error(400, 'InvalidJSON');
    const { subject, ...rest } = isObject(b) ? b : { x: 1 };
    if (Object.keys(rest).length > 0 || codePoints(subject) < 0 || codePoints(subject) > 20) return error(invalid.status, invalid.error);
    const t = { id: crypto.randomUUID(), subject: subject as string };
    tickets.set(t.id, t);
    reply.json(201, t, 'application/json', { location: `/tickets/${t.id}` });
  });
}

describe('an error answer whose code is a condition name', () => {
  let faithful: HandServer;
  let undeclared: HandServer;
  beforeAll(async () => {
    faithful = await start({ status: 422, error: 'validation' });
    undeclared = await start({ status: 409, error: 'validation' });
  });
  afterAll(() => {
    faithful?.close();
    undeclared?.close();
  });
  const failed = async (url: string) =>
    (await testService(checkedModel(SPEC), { baseUrl: url, seed: 1, only: ['endpoints.invalid-requests', 'errors.declared-codes'] })).results
      .filter((r) => r.outcome === 'failed')
      .map((r) => `${r.check} ${r.target.split(':')[0]}`);

  it('under its built-in status (422) is the declared code of that status: passes', async () => {
    expect(await failed(faithful.url)).toEqual([]);
  });

  it('under a status the spec declares nowhere (409) is judged, and fails', async () => {
    expect([...new Set(await failed(undeclared.url))].sort()).toEqual(['endpoints.invalid-requests createTicket', 'errors.declared-codes createTicket']);
  });
});
