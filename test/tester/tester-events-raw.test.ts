// Raw event payloads (events.kinds.<kind>.body: raw): the tester reads the payload where the spec says it is — the
// whole webhook body and stream data — so the orders example with raw kinds passes events.emitted, events.webhook
// and events.ownership, and a service sending the envelope to a raw kind's receiver is caught.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { ORDERS, startSpec, type OrdersServer } from './helpers.js';
import { startProxy } from './mutant-proxy.js';

let s: OrdersServer;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'servicespec-raw-'));
  const text = readFileSync(ORDERS, 'utf8').replace(/^( {4}order\.[a-z]+:\n)/gm, '$1      body: raw\n');
  expect(text.match(/body: raw/g)?.length).toBeGreaterThan(1);
  const file = join(dir, 'orders-raw.yaml');
  writeFileSync(file, text);
  s = await startSpec(file, new URL('../../examples/orders-handlers.js', import.meta.url).href);
});
afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('the events checks pass against raw deliveries on the stream and to a webhook', async () => {
  const report = await testService(s.model, {
    baseUrl: s.url,
    ...s.options,
    seed: 3,
    runs: 2,
    webhookListen: 0,
    only: ['events.emitted', 'events.webhook', 'events.ownership'],
  });
  expect(report.results.filter((r) => r.outcome === 'failed').map((r) => [r.target, r.failure?.expected, r.failure?.actual])).toEqual([]);
  expect(report.results.find((r) => r.check === 'events.webhook')?.outcome).toBe('passed');
  expect(report.results.find((r) => r.target.startsWith('order.created on create'))?.outcome).toBe('passed');
}, 90_000);

it('mutant: the stream wraps a raw kind in the envelope, so its payload is not where the spec says', async () => {
  const proxy = await startProxy(s.url, {
    name: 'raw kind enveloped',
    caughtBy: 'events.emitted',
    only: [],
    event: (block) =>
      block.replace(
        /^data: (.*)$/m,
        (_m, d: string) =>
          `data: ${JSON.stringify({ id: 'x', type: 'order.created', timestamp: new Date(0).toISOString(), data: { object: JSON.parse(d) as unknown } })}`,
      ),
  });
  try {
    const report = await testService(s.model, { baseUrl: proxy.url, ...s.options, seed: 3, runs: 2, only: ['events.emitted'] });
    expect(report.results.find((r) => r.target.startsWith('order.created on create'))?.outcome).toBe('failed');
  } finally {
    await proxy.close();
  }
}, 90_000);
