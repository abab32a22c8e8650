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
});
