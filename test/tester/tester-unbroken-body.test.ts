// endpoints.invalid-requests sends the body unbroken first: a refusal of a broken body shows the service judged what
// was broken only where the unbroken one is taken. Two hand-written services from outside sweeps: one refusing every
// payment whose customer it does not hold (a rule the document states in prose only), where each probe passed
// unjudged and masked five planted faults; one answering 404 to an action on a lock path naming no object the run
// could make, where each probe failed a faithful service (13 false failures). Both are now not run, saying why.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';

const SPEC = `servicespec: 1
resources:
  Payment:
    fields:
      id: { type: uuid, readOnly: true }
      amount: { type: integer, minimum: 1 }
      customer: { type: string, maxLength: 20 }
endpoints:
  operations:
    createPayment: { method: POST, path: /payments, action: create, resource: Payment }
    lockThing:
      method: POST
      path: '/things/{thing}/lock'
      action: custom
      handler: lock
      request: { fields: { thing: { type: string, optional: true }, reason: { type: string, maxLength: 10 } } }
      response: { fields: { locked: { type: boolean } } }
      errors: [invalid, not_found]
authentication:
  default: none
${PLAIN_ERRORS}`;

/** 422 to every payment (its customer is not one it holds); 404 to a lock of any thing (it holds none). */
function start(): Promise<{ url: string; server: Server }> {
  const problem = (res: ServerResponse, status: number, code: string) => {
    res.writeHead(status, { 'content-type': 'application/problem+json' });
    res.end(JSON.stringify({ type: 'about:blank', title: code, status, code }));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (req.method === 'POST' && url.pathname === '/payments') return problem(res, 422, 'invalid');
      if (req.method === 'POST' && /^\/things\/[^/]+\/lock$/.test(url.pathname)) return problem(res, 404, 'not_found');
      return problem(res, 404, 'not_found');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

describe('the unbroken body first', () => {
  let s: { url: string; server: Server };
  beforeAll(async () => {
    s = await start();
  });
  afterAll(() => s?.server.close());

  it('a refused unbroken body: the probes are not run (neither passed nor failed), saying why', async () => {
    const r = await testService(checkedModel(SPEC), { baseUrl: s.url, seed: 1, only: ['endpoints.invalid-requests'] });
    const of = (op: string) => r.results.filter((x) => x.target.startsWith(`${op}:`));
    for (const op of ['createPayment', 'lockThing']) {
      expect(
        of(op).map((x) => x.outcome),
        op,
      ).toEqual(['skipped']);
      expect(of(op)[0]!.reason).toMatch(/^the valid body to break was refused \((422|404) /);
    }
  }, 60_000);

  it('the unbroken create takes fresh values: a key the service keeps unique unstated does not turn the probes into 409s', async () => {
    // Projects by hand: a key is unique (a rule the spec does not state: 409), and `name` is not required (the fault).
    // No code declares validation (an imported document's 422 names no condition): any client error is a refusal.
    const keys = new Set<string>();
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString('utf8')));
      req.on('end', () => {
        const answer = (status: number, body: unknown, type = 'application/problem+json') => {
          res.writeHead(status, { 'content-type': type });
          res.end(JSON.stringify(body));
        };
        const problem = (status: number, code: string) => answer(status, { type: 'about:blank', title: code, status, code });
        if (req.method !== 'POST' || req.url !== '/projects') return problem(404, 'not_found');
        let b: Record<string, unknown>;
        try {
          b = JSON.parse(text) as Record<string, unknown>;
        } catch {
          return problem(400, 'bad_body');
        }
        if (typeof b !== 'object' || b === null || Array.isArray(b)) return problem(422, 'invalid');
        const { key, name } = b;
        if (typeof key !== 'string' || !/^[A-Z]{2,6}$/.test(key) || (name !== undefined && (typeof name !== 'string' || name.length > 20)))
          return problem(422, 'invalid');
        if (Object.keys(b).some((k) => k !== 'key' && k !== 'name')) return problem(422, 'invalid');
        if (keys.has(key)) return problem(409, 'taken');
        keys.add(key);
        return answer(201, { id: crypto.randomUUID(), key, name: name ?? 'Untitled' }, 'application/json');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const spec = `servicespec: 1
resources:
  Project:
    fields:
      id: { type: uuid, readOnly: true }
      key: { type: string, pattern: '^[A-Z]{2,6}$' }
      name: { type: string, maxLength: 20 }
endpoints:
  operations:
    createProject: { method: POST, path: /projects, action: create, resource: Project, errors: [invalid, taken] }
authentication:
  default: none
errors:
  body: problem
  codes:
    bad_body: { status: 400, when: [malformed_request] }
    invalid: { status: 422 }
    not_json: { status: 415, when: [unsupported_media_type] }
    not_found: { status: 404, when: [route_not_found] }
    taken: { status: 409 }
`;
      const r = await testService(checkedModel(spec), {
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        seed: 1,
        only: ['endpoints.invalid-requests'],
      });
      expect(r.results.find((x) => x.target === 'createProject: name missing (required)')?.outcome).toBe('failed');
    } finally {
      server.close();
    }
  }, 60_000);
});
