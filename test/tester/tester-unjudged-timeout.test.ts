// endpoints.invalid-requests still sends a malformed body where the unbroken one is refused (unjudged), outside any
// check. A service that never answers it (Prism's validation proxy in front of serve, on the Swagger petstore of the
// fourth sweep) made the request time out there, and the whole run ended 'servicespec: internal error: no answer
// within 10 s (--request-timeout)'. It is the probe's failure now, and the run goes on.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';

const SPEC = `servicespec: 1
resources:
  Payment:
    fields:
      id: { type: uuid, readOnly: true }
      amount: { type: integer, minimum: 1 }
endpoints:
  operations:
    createPayment: { method: POST, path: /payments, action: create, resource: Payment }
authentication:
  default: none
${PLAIN_ERRORS}`;

/** 422 to every payment; no answer at all to a body that is not JSON. */
function start(): Promise<{ url: string; server: Server }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => {
      try {
        JSON.parse(text);
      } catch {
        return; // held open: the client's --request-timeout ends it
      }
      res.writeHead(422, { 'content-type': 'application/problem+json' });
      res.end(JSON.stringify({ type: 'about:blank', title: 'invalid', status: 422, code: 'invalid' }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

let s: { url: string; server: Server };
beforeAll(async () => {
  s = await start();
});
afterAll(() => {
  s?.server.closeAllConnections();
  s?.server.close();
});

it('a malformed body left unanswered fails its probe; the run is not ended', async () => {
  const r = await testService(checkedModel(SPEC), { baseUrl: s.url, seed: 1, only: ['endpoints.invalid-requests'], requestTimeoutMs: 300 });
  const timedOut = r.results.filter((x) => x.outcome === 'failed' && /no answer within/.test(JSON.stringify(x)));
  expect(timedOut.map((x) => x.target)).toEqual(expect.arrayContaining(['createPayment: malformed JSON']));
});
