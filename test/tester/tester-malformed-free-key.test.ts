// errors.malformed-id on a path bound to a free text field (a label's `name`: a string with no format or pattern):
// most of the "malformed" texts the tester sends (a space, a quote, NUL) are names the field takes, so the request
// names a label that does not exist, and any client error answers it (a service's own rule on which names it keeps,
// answered 400, as well as the 404). Only a server error fails. A text the field refuses (longer than its maxLength)
// is still held to the declared answers.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { isObject, readJson, startHandServer, type HandServer } from '../support/hand-server.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';

const SPEC = `servicespec: 1
resources:
  Label:
    unique_keys: [[name]]
    fields:
      name: { type: string, minLength: 1, maxLength: 40 }
      color: { type: string, maxLength: 20 }
endpoints:
  operations:
    createLabel: { method: POST, path: /labels, action: create, resource: Label }
    getLabel: { method: GET, path: '/labels/{name}', action: read, resource: Label, bind: { name: name } }
authentication:
  default: none
${PLAIN_ERRORS}`;

type Fault = 'none' | 'quote-500' | 'long-400';

/** The labels service; it keeps no name with a space, a quote or a control character (400, a rule of its own). */
function start(fault: Fault): Promise<HandServer> {
  const labels = new Map<string, Record<string, unknown>>();
  return startHandServer((req, reply) => {
    const one = /^\/labels\/([^/?]+)$/.exec(req.url);
    if (req.method === 'GET' && one) {
      const name = decodeURIComponent(one[1]!);
      if (fault === 'quote-500' && name.includes("'")) return reply.json(500, { oops: true });
      if ([...name].length > 40) return reply.problem(fault === 'long-400' ? 400 : 422, fault === 'long-400' ? 'bad_body' : 'invalid');
      // eslint-disable-next-line no-control-regex
      if (/[\s'\u0000-\u001f]/.test(name)) return reply.problem(400, 'bad_body');
      const l = labels.get(name);
      return l ? reply.json(200, l) : reply.problem(404, 'not_found');
    }
    if (req.method === 'POST' && req.url === '/labels') {
      const b = readJson(req);
      if (!isObject(b) || typeof b.name !== 'string' || typeof b.color !== 'string') return reply.problem(422, 'invalid');
      labels.set(b.name, { name: b.name, color: b.color });
      return reply.json(201, labels.get(b.name));
    }
    reply.problem(404, 'not_found');
  });
}

describe('errors.malformed-id on a path bound to a free text field', () => {
  const servers: Partial<Record<Fault, HandServer>> = {};
  beforeAll(async () => {
    for (const f of ['none', 'quote-500', 'long-400'] as const) servers[f] = await start(f);
  });
  afterAll(() => {
    for (const s of Object.values(servers)) s.close();
  });
  const malformed = async (fault: Fault) =>
    (await testService(checkedModel(SPEC), { baseUrl: servers[fault]!.url, seed: 1, only: ['errors.malformed-id'] })).results.find(
      (r) => r.check === 'errors.malformed-id' && r.target === 'getLabel',
    );

  it('passes a service answering a name it does not keep (a space, a quote) with a client error of its own', async () => {
    const r = await malformed('none');
    expect(r?.failure).toBeUndefined();
    expect(r?.outcome).toBe('passed');
  });

  it('fails a service answering a name the field takes with a server error', async () => {
    const r = await malformed('quote-500');
    expect(r?.outcome).toBe('failed');
    expect(r?.failure?.actual).toMatch(/^status 500/);
  });

  it('holds a name the field refuses (past maxLength) to the declared answers', async () => {
    const r = await malformed('long-400');
    expect(r?.outcome).toBe('failed');
    expect(r?.failure?.expected).toMatch(/xxxxxxxx/);
    expect(r?.failure?.actual).toMatch(/^status 400, not/);
  });
});
