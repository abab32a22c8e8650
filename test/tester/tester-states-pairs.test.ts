// States by construction: every transition tried in every reachable state, so a transition allowed out of a
// terminal state or an illegal one from the initial state is caught on every seed, and the summary says how many
// state pairs were tried.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { formatReportText } from '../../src/tester/tester-report.js';
import { testService } from '../../src/tester/tester-run.js';
import { startOrders, type OrdersServer } from './helpers.js';
import { startProxy, type Mutant } from './mutant-proxy.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startOrders();
});
afterAll(async () => {
  await s?.close();
});

const TRANSITION = /^\/orders\/([^/?]+)\/(pay|ship|cancel)(\?.*)?$/;

type Send = Parameters<NonNullable<Mutant['response']>>[2];
type Sent = Parameters<Send>[0];

/**
 * The proxy's own requests spend the tester's rate budget too (orders.yaml: 100 a minute, refilled in 3 s here):
 * a refused one is sent again after its Retry-After, so the planted fault never depends on the budget's state.
 */
async function sendPaced(send: Send, req: Sent): Promise<Awaited<ReturnType<Send>>> {
  for (let i = 0; ; i++) {
    const res = await send(req);
    if (res.status !== 429 || i >= 20) return res;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Answers one transition of orders in `from` as if it had been allowed (the object read back, 200), without doing it. */
function allowIn(name: string, from: (status: string) => boolean): Mutant {
  return {
    name: `${name} allowed`,
    caughtBy: 'states.pairs',
    only: [],
    async response(r, req, send) {
      const m = TRANSITION.exec(req.path);
      if (r.status !== 409 || !m || m[2] !== name) return r;
      const read = await sendPaced(send, { ...req, method: 'GET', path: `/orders/${m[1]}${m[3] ?? ''}`, body: Buffer.alloc(0) });
      const body = JSON.parse(read.body.toString('utf8')) as { status: string };
      if (!from(body.status)) return r;
      return { ...read, status: 200 };
    },
  };
}

it('serve passes: every transition in every reachable state, 12/12 pairs of the Order machine', async () => {
  const r = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 5, runs: 2, only: ['states.pairs'] });
  expect(r.results.filter((x) => x.outcome === 'failed')).toEqual([]);
  expect(r.results.map((x) => x.target).sort()).toEqual(['Order in cancelled (terminal)', 'Order in paid', 'Order in pending', 'Order in shipped (terminal)']);
  expect(r.statePairs).toEqual({ tried: 12, total: 12 });
  expect(r.verdict).toBe('passed');
  expect(formatReportText(r)).toMatch(/^state pairs tried 12\/12 \(100 %\)$/m);
}, 60_000);

it.each([1, 2, 3])(
  'a transition allowed out of a terminal state is caught (seed %i)',
  async (seed) => {
    const proxy = await startProxy(
      s.url,
      allowIn('cancel', (st) => st === 'shipped'),
    );
    try {
      const r = await testService(s.model, { baseUrl: proxy.url, ...s.options, seed, runs: 2, only: ['states.pairs'] });
      const failed = r.results.filter((x) => x.outcome === 'failed');
      expect(failed.map((x) => x.target)).toEqual(['Order in shipped (terminal)']);
      expect(failed[0]!.failure!.expected).toMatch(
        /^invalid_transition \(409\): cancel is not allowed from shipped, a terminal state \(only from pending, paid\)/,
      );
      // The reproduction walks a new order to shipped by the shortest path, then tries cancel.
      expect(failed[0]!.failure!.curl).toMatch(/# then \(pay\):[\s\S]*# then \(ship\):[\s\S]*# then:\ncurl -i -X POST .*\/cancel'$/);
      expect(r.verdict).toBe('failed');
    } finally {
      await proxy.close();
    }
  },
  60_000,
);

it.each([1, 2, 3])(
  'an illegal transition from the initial state is caught (seed %i)',
  async (seed) => {
    const proxy = await startProxy(
      s.url,
      allowIn('ship', (st) => st === 'pending'),
    );
    try {
      const r = await testService(s.model, { baseUrl: proxy.url, ...s.options, seed, runs: 2, only: ['states.pairs'] });
      const failed = r.results.filter((x) => x.outcome === 'failed');
      expect(failed.map((x) => x.target)).toEqual(['Order in pending']);
      expect(failed[0]!.failure!.operation).toBe('shipOrder');
    } finally {
      await proxy.close();
    }
  },
  60_000,
);

it('a refused transition that still changes the object is caught by the read back', async () => {
  // The proxy answers 409 for ship from pending, but first cancels the order behind the tester's back.
  const proxy = await startProxy(s.url, {
    name: 'refused but changed',
    caughtBy: 'states.pairs',
    only: [],
    async response(r, req, send) {
      const m = TRANSITION.exec(req.path);
      if (r.status !== 409 || !m || m[2] !== 'ship') return r;
      await sendPaced(send, { ...req, path: `/orders/${m[1]}/cancel${m[3] ?? ''}`, body: Buffer.from('{}') });
      return r;
    },
  });
  try {
    const r = await testService(s.model, { baseUrl: proxy.url, ...s.options, seed: 1, runs: 2, only: ['states.pairs'] });
    const failed = r.results.filter((x) => x.outcome === 'failed');
    expect(failed.map((x) => x.failure!.expected)).toContain('the Order unchanged after the refused ship');
  } finally {
    await proxy.close();
  }
}, 60_000);
