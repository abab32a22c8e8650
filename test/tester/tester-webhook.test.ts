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
    response: (r, req) =>
      req.path === '/webhooks' && r.status === 201 ? withJson(r, { ...json(r), secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}` }) : r,
  });
  try {
    const report = await testService(s.model, { baseUrl: proxy.url, ...s.options, webhookListen: 0, only: ['events.webhook'] });
    expect(report.results).toMatchObject([
      { check: 'events.webhook', outcome: 'failed', failure: { expected: 'a v1 signature that verifies with the endpoint secret' } },
    ]);
  } finally {
    await proxy.close();
  }
}, 30_000);

it("an endpoint the second subject registers gets none of the main subject's events (create and transition)", async () => {
  const report = await testService(s.model, {
    baseUrl: s.url,
    ...s.options,
    webhookListen: 0,
    only: ['events.ownership'],
    skip: ['events.emitted'],
  });
  const webhooks = report.results.filter((r) => r.target === 'webhooks registered by another subject');
  expect(webhooks).toMatchObject([{ check: 'events.ownership', outcome: 'passed' }]);
}, 60_000);

it("mutant: the second subject's registration is recorded as the main subject's, so its endpoint gets the main subject's events", async () => {
  const proxy = await startProxy(s.url, {
    name: 'webhook registration as another subject',
    caughtBy: 'events.ownership',
    only: [],
    request: (r) =>
      r.path.startsWith('/webhooks') && r.headers['x-api-key'] === s.keys.bob ? { ...r, headers: { ...r.headers, 'x-api-key': s.keys.alice } } : r,
  });
  try {
    const report = await testService(s.model, { baseUrl: proxy.url, ...s.options, webhookListen: 0, only: ['events.ownership'] });
    const caught = report.results.find((r) => r.target === 'webhooks registered by another subject');
    expect(caught).toMatchObject({ outcome: 'failed', failure: { operation: 'webhook delivery' } });
    expect(caught!.failure!.actual).toMatch(/^order\.created(, order\.paid)? for \S+ delivered to the other subject's endpoint$/);
  } finally {
    await proxy.close();
  }
}, 60_000);

it("a webhook that never arrives is waited for on the run's clock (issue 25 item 4): the fake clock passes the 10 s, the wall clock does not", async () => {
  // The registration is answered by the proxy and never reaches the service, so nothing is ever delivered (the
  // tester's registration of an ftp URL first goes through, to be refused).
  const proxy = await startProxy(s.url, {
    name: 'registration dropped',
    caughtBy: 'events.webhook',
    only: [],
    request: (r) =>
      r.method === 'POST' && r.path === '/webhooks' && !r.body.toString().includes('"url":"ftp:')
        ? {
            status: 201,
            headers: { 'content-type': 'application/json' },
            body: Buffer.from(
              JSON.stringify({
                id: 'whk_dropped',
                url: 'http://127.0.0.1:9/',
                events: ['order.created'],
                secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
              }),
            ),
          }
        : r,
  });
  let now = 0;
  let slept = 0;
  const clock = {
    now: () => now,
    sleep: async (ms: number) => {
      now += ms;
      slept += ms;
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
  try {
    const report = await testService(s.model, { baseUrl: proxy.url, ...s.options, webhookListen: 0, only: ['events.webhook'], clock });
    expect(report.results).toMatchObject([
      {
        check: 'events.webhook',
        target: 'order.created',
        outcome: 'failed',
        failure: { expected: 'a order.created webhook to the registered endpoint within 10 s' },
      },
    ]);
    expect(slept).toBeGreaterThanOrEqual(10_000);
  } finally {
    await proxy.close();
  }
}, 30_000);
