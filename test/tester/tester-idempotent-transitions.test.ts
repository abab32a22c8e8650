// endpoints.idempotency held creates, updates and replaces: a transition retried with its Idempotency-Key and
// answered with a state error (409: the order is already cancelled) in place of the first answer passed.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startSpecText, type OrdersServer } from './helpers.js';
import { startProxy } from './mutant-proxy.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText(
    'orders.yaml',
    `servicespec: 1
resources:
  Order:
    fields:
      id: { type: uuid, readOnly: true }
      item: { type: string, minLength: 1, maxLength: 40 }
      status: { type: state }
states:
  Order:
    field: status
    initial: open
    terminal: [cancelled]
    transitions:
      ship: { from: open, to: shipped }
      cancel: { from: [open, shipped], to: cancelled }
endpoints:
  idempotency: { header: Idempotency-Key, retention: 24h }
  operations:
    createOrder: { method: POST, path: /orders, action: create, resource: Order }
    getOrder: { method: GET, path: "/orders/{id}", action: read, resource: Order }
    shipOrder: { method: POST, path: "/orders/{id}/ship", action: transition, resource: Order, transition: ship }
    cancelOrder: { method: POST, path: "/orders/{id}/cancel", action: transition, resource: Order, transition: cancel }
authentication:
  default: none
errors:
  body: problem
  codes:
    invalid: { status: 422, when: [validation] }
    unreadable: { status: 400, when: [malformed_request] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
    state: { status: 409, when: [illegal_transition] }
    key_reused: { status: 409, when: [idempotency_conflict] }
`,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const idempotency = async (baseUrl: string) =>
  (await testService(s.model, { baseUrl, ...s.options, seed: 1, only: ['endpoints.idempotency'] })).results
    .filter((r) => r.check === 'endpoints.idempotency')
    .map((r) => ({ target: r.target, outcome: r.outcome, actual: r.failure?.actual, reason: r.reason }));

it('passes the faithful service on each transition', async () => {
  const results = await idempotency(s.url);
  expect(results.map((r) => [r.target, r.outcome])).toEqual([
    ['createOrder', 'passed'],
    ['shipOrder', 'passed'],
    ['cancelOrder', 'passed'],
  ]);
});

it('fails a service that answers a retried transition with a state error', async () => {
  const seen = new Set<string>();
  const proxy = await startProxy(s.url, {
    request: (r) => {
      const key = r.headers['idempotency-key'];
      if (!/\/(ship|cancel)$/.test(r.path) || typeof key !== 'string') return r;
      if (!seen.has(key)) {
        seen.add(key);
        return r;
      }
      const body = { type: 'about:blank', title: 'illegal transition', status: 409, code: 'state' };
      return { status: 409, headers: { 'content-type': 'application/problem+json' }, body: Buffer.from(JSON.stringify(body)) };
    },
  });
  try {
    const results = await idempotency(proxy.url);
    expect(results.map((r) => [r.target, r.outcome])).toEqual([
      ['createOrder', 'passed'],
      ['shipOrder', 'failed'],
      ['cancelOrder', 'failed'],
    ]);
    expect(results[1]!.actual).toMatch(/^first 200 .*; then 409 /);
  } finally {
    await proxy.close();
  }
});
