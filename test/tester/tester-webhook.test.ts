// --webhook-listen: the tester registers an endpoint on this machine, makes an order, and verifies the signed
// delivery; a registration that hands out the wrong secret (so nothing verifies) fails.

import { createServer } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startOrders, type OrdersServer } from './helpers.js';
import { json, startProxy, withJson } from './mutant-proxy.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startOrders();
});
afterAll(async () => {
  await s?.close();
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

it('a signed webhook arrives for the event kind and verifies with the endpoint secret', async () => {
  const report = await testService(s.model, { baseUrl: s.url, ...s.options, webhookListen: await freePort(), only: ['events.webhook'] });
  expect(report.results).toMatchObject([{ check: 'events.webhook', target: 'order.created', outcome: 'passed' }]);
}, 30_000);

it('mutant: the registration answers another secret, so the signature does not verify', async () => {
  const proxy = await startProxy(s.url, {
    name: 'wrong secret',
    caughtBy: 'events.webhook',
    only: [],
    response: (r, req) => (req.path === '/webhooks' && r.status === 201 ? withJson(r, { ...json(r), secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}` }) : r),
  });
  try {
    const report = await testService(s.model, { baseUrl: proxy.url, ...s.options, webhookListen: await freePort(), only: ['events.webhook'] });
    expect(report.results).toMatchObject([{ check: 'events.webhook', outcome: 'failed', failure: { expected: 'a v1 signature that verifies with the endpoint secret' } }]);
  } finally {
    await proxy.close();
  }
}, 30_000);
