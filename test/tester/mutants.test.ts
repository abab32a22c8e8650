// The tester is proven on mutants: the real runtime on examples/orders.yaml passes it; each deliberately
// broken server (a mutating proxy in front of the same runtime, rewriting one promise of the spec) fails it
// with the check that should catch it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import type { TestReport } from '../../src/tester/tester-types.js';
import { startOrders, type OrdersServer } from './helpers.js';
import { json, startProxy, withJson, type Mutant } from './mutant-proxy.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startOrders();
});
afterAll(async () => {
  await s?.close();
});

const run = (baseUrl: string, only?: string[]): Promise<TestReport> =>
  testService(s.model, { baseUrl, ...s.options, seed: 7, runs: 4, maxRequests: 1500, timeLimitMs: 50_000, ...(only ? { only } : {}) });

describe('the real runtime on examples/orders.yaml', () => {
  // Issue 12 items 1 (the event stream showed other subjects' objects) and 12 (older versions answered without a
  // Content-Type) were failures here until their fixes were merged.
  it('passes every check with 0 failures, and reports each of the nine parts', async () => {
    const report = await run(s.url);
    const failed = report.results.filter((r) => r.outcome === 'failed');
    expect(failed.map((r) => ({ check: r.check, target: r.target, ...r.failure }))).toEqual([]);
    expect(report.parts.map((p) => p.part)).toEqual([
      'purpose',
      'resources',
      'states',
      'endpoints',
      'authentication',
      'events',
      'errors',
      'limits',
      'versioning',
    ]);
    for (const p of report.parts.filter((x) => x.part !== 'purpose')) expect(p.passed, p.part).toBeGreaterThan(0);
    expect(report.stoppedBy).toBeUndefined();
  }, 90_000);
});

const ISO = /^\/orders\/[^/?]+\/(pay|ship|cancel)$/;

const MUTANTS: Mutant[] = [
  {
    name: 'an illegal transition allowed (409 answered as 200 with the object)',
    caughtBy: 'states.sequences',
    target: /Order/,
    reproduce:
      /^# Order \S+ made by:\ncurl -i -X POST .*'http:\/\/127\.0\.0\.1:\d+\/orders'\n(curl .*\n)*# then \([a-z →]+\):\ncurl -i -X POST .*\/orders\/\S+\/(pay|ship|cancel)'$/,
    only: ['states.sequences'],
    async response(r, req, send) {
      if (r.status !== 409 || !ISO.test(req.path)) return r;
      const read = await send({ ...req, method: 'GET', path: req.path.replace(ISO, (m) => m.slice(0, m.lastIndexOf('/'))), body: Buffer.alloc(0) });
      return { ...read, status: 200 };
    },
  },
  {
    name: 'the not_found code renamed',
    caughtBy: 'errors.missing-object',
    target: /getOrder|getCustomer/,
    only: ['errors.missing-object'],
    response: (r) => (r.status === 404 ? withJson(r, { ...json(r), code: 'no_such_thing' }) : r),
  },
  {
    name: 'a read-only field accepted (silently dropped before the runtime sees it)',
    caughtBy: 'endpoints.invalid-requests',
    target: /^createOrder: \w+ \(read-only\) sent$/,
    only: ['endpoints.invalid-requests'],
    request(r) {
      if (r.method !== 'POST' || r.path !== '/orders') return r;
      const body = JSON.parse(r.body.toString('utf8') || 'null') as Record<string, unknown> | null;
      if (!body || typeof body !== 'object') return r;
      for (const k of ['id', 'owner', 'created_at', 'updated_at', 'status']) delete body[k];
      return { ...r, body: Buffer.from(JSON.stringify(body)) };
    },
  },
  {
    name: 'a scope not enforced (the limited credential forwarded as the main one)',
    caughtBy: 'authentication.missing-scope',
    target: /createOrder/,
    only: ['authentication.missing-scope'],
    request: (r) => (r.headers['x-api-key'] === s.keys.carol ? { ...r, headers: { ...r.headers, 'x-api-key': s.keys.alice } } : r),
  },
  {
    name: "another subject's order visible (read with an owner override)",
    caughtBy: 'authentication.ownership',
    target: /^getOrder$/,
    only: ['authentication.ownership'],
    request: (r) =>
      r.method === 'GET' && /^\/orders\/[^/?]+$/.test(r.path) && r.headers['x-api-key'] === s.keys.bob
        ? { ...r, headers: { ...r.headers, 'x-api-key': s.keys.alice } }
        : r,
  },
  {
    name: 'the body limit off by one (a body of exactly 64 KiB refused)',
    caughtBy: 'limits.body-size',
    target: /at 64KiB/,
    only: ['limits.body-size'],
    request: (r) =>
      r.body.length >= 64 * 1024
        ? {
            status: 413,
            headers: { 'content-type': 'application/problem+json' },
            body: Buffer.from(JSON.stringify({ title: 'The request body is too large', status: 413, code: 'payload_too_large' })),
          }
        : r,
  },
  {
    name: 'the page maximum ignored (limit over 100 served)',
    caughtBy: 'limits.page-size',
    target: /max 100/,
    only: ['limits.page-size'],
    request: (r) => ({ ...r, path: r.path.replace(/([?&]limit=)(\d+)/, (m, p: string, n: string) => (Number(n) > 100 ? `${p}100` : m)) }),
  },
  {
    name: 'an event not emitted (order.paid dropped from the stream)',
    caughtBy: 'events.emitted',
    target: /^order\.paid /,
    only: ['events.emitted'],
    event: (block) => (block.includes('event: order.paid') ? undefined : block),
  },
  {
    name: 'a wrong event kind (order.cancelled sent as order.shipped)',
    caughtBy: 'events.emitted',
    target: /^order\.cancelled /,
    only: ['events.emitted'],
    event: (block) => block.replace(/order\.cancelled/g, 'order.shipped'),
  },
  {
    name: 'a response field of the wrong type (amount as a string)',
    caughtBy: 'resources.response-shape',
    target: /^Order$/,
    only: ['endpoints.valid-requests', 'resources'],
    response(r, req) {
      const body = json(r) as Record<string, unknown> | undefined;
      if (!req.path.startsWith('/orders') || !body || typeof body.amount !== 'number') return r;
      return withJson(r, { ...body, amount: String(body.amount) });
    },
  },
  {
    name: 'a missing RateLimit header',
    caughtBy: 'limits.rate-headers',
    target: /getOrder/,
    only: ['limits.rate-headers'],
    response(r) {
      const headers = { ...r.headers };
      delete headers.ratelimit;
      return { ...r, headers };
    },
  },
  {
    name: 'an old version answered in the new shape (the version header dropped)',
    caughtBy: 'versioning.served',
    target: /^2026-06-01/,
    only: ['versioning.served'],
    request(r) {
      if (r.headers['service-version'] !== '2026-06-01') return r;
      const headers = { ...r.headers };
      delete headers['service-version'];
      return { ...r, headers };
    },
  },
  {
    name: 'an unsupported version served as the current one',
    caughtBy: 'versioning.unsupported',
    target: /getOrder/,
    only: ['versioning.unsupported'],
    request: (r) =>
      r.headers['service-version'] !== undefined && !['2026-06-01', '2026-11-01'].includes(r.headers['service-version'])
        ? { ...r, headers: { ...r.headers, 'service-version': '2026-11-01' } }
        : r,
  },
  {
    name: 'problem.status disagreeing with the HTTP status on 422',
    caughtBy: 'endpoints.invalid-requests',
    target: /createCustomer/,
    only: ['endpoints.invalid-requests'],
    response: (r) => (r.status === 422 ? withJson(r, { ...json(r), status: 400 }) : r),
  },
  {
    name: 'a request without a credential served (a credential added)',
    caughtBy: 'authentication.no-credential',
    target: /getOrder/,
    only: ['authentication.no-credential'],
    request: (r) =>
      r.headers['x-api-key'] === undefined && r.headers.authorization === undefined ? { ...r, headers: { ...r.headers, 'x-api-key': s.keys.alice } } : r,
  },
  {
    name: 'pages that repeat an item across the cursor',
    caughtBy: 'endpoints.list-paging',
    target: /listOrders|listCustomers/,
    only: ['endpoints.list-paging'],
    response(r, req) {
      const body = json(r) as { items?: unknown[]; next_cursor?: string | null } | undefined;
      if (!req.path.includes('cursor=') || !body?.items || body.items.length === 0) return r;
      return withJson(r, { ...body, items: [body.items[0], ...body.items] });
    },
  },
  {
    name: 'Idempotency-Key ignored (the header dropped before the runtime sees it)',
    caughtBy: 'endpoints.idempotency',
    target: /^createOrder$/,
    only: ['endpoints.idempotency'],
    request(r) {
      const headers = { ...r.headers };
      delete headers['idempotency-key'];
      return { ...r, headers };
    },
  },
  {
    name: 'an invalid body accepted (validation answered as 201)',
    caughtBy: 'endpoints.invalid-requests',
    target: /^createCustomer: email/,
    only: ['endpoints.invalid-requests'],
    response: (r, req) => (r.status === 422 && req.method === 'POST' && req.path === '/customers' ? { ...r, status: 201 } : r),
  },
];

describe('mutants: each broken server fails with the expected check', () => {
  it('a proxy that changes nothing passes (the proxy itself is faithful)', async () => {
    const proxy = await startProxy(s.url, {});
    try {
      const report = await run(proxy.url, ['states', 'events', 'authentication', 'versioning', 'limits', 'endpoints.list-paging']);
      expect(report.results.filter((r) => r.outcome === 'failed').map((r) => [r.check, r.target, r.failure?.actual])).toEqual([]);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it.each(MUTANTS.map((m) => [m.name, m] as const))(
    '%s',
    async (_name, mutant) => {
      const proxy = await startProxy(s.url, mutant);
      try {
        const report = await run(proxy.url, mutant.only);
        const caught = report.results.filter(
          (r) => r.outcome === 'failed' && r.check === mutant.caughtBy && (mutant.target === undefined || mutant.target.test(r.target)),
        );
        expect(caught.length, `${mutant.name}: ${JSON.stringify(report.parts)}`).toBeGreaterThan(0);
        const f = caught[0]!.failure!;
        expect(f.expected.length).toBeGreaterThan(0);
        expect(f.actual.length).toBeGreaterThan(0);
        if (mutant.reproduce) expect(f.curl).toMatch(mutant.reproduce);
        expect(f.curl ?? '').not.toContain(s.keys.alice);
      } finally {
        await proxy.close();
      }
    },
    60_000,
  );

  it('has at least 12 mutants', () => {
    expect(MUTANTS.length).toBeGreaterThanOrEqual(12);
  });
});
