// The tester and unions (issue 26 item 1): valid bodies of every variant of a union request body and of a union
// field (endpoints.union-variants), invalid ones — a tag no variant has, a variant without a required field —
// (endpoints.invalid-requests), and answers judged against the variant their tag names (endpoints.answer-shape).
// The real runtime, which validates unions, passes; a server that accepts an unknown tag, or answers a variant
// under another's tag, is caught.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import type { TestReport } from '../../src/tester/tester-types.js';
import { startSpec, type OrdersServer } from './helpers.js';
import { json, startProxy, withJson, type Mutant, type ProxyRequest } from './mutant-proxy.js';

const dir = mkdtempSync(join(tmpdir(), 'servicespec-tester-unions-'));
let s: OrdersServer;

beforeAll(async () => {
  const spec = join(dir, 'payments.yaml');
  writeFileSync(
    spec,
    `servicespec: 1
resources:
  Payment:
    fields:
      id: { type: uuid, readOnly: true }
      amount: { type: integer, minimum: 1, maximum: 1000 }
      method:
        type: union
        discriminator: kind
        variants:
          card: { fields: { number: { type: string, pattern: '^[0-9]{12,19}$' }, expiry: { type: string, maxLength: 5 } } }
          bank_transfer: { tag: bank, fields: { iban: { type: string, maxLength: 34 } } }
endpoints:
  operations:
    createPayment: { method: POST, path: /payments, action: create, resource: Payment }
    readPayment: { method: GET, path: '/payments/{id}', action: read, resource: Payment }
    quote:
      method: POST
      path: /quotes
      action: custom
      handler: quote
      request:
        variants:
          by_weight: { fields: { grams: { type: integer, minimum: 1, maximum: 100000 } } }
          by_volume: { fields: { litres: { type: integer, minimum: 1, maximum: 1000 }, exact: { type: boolean, optional: true } } }
      response:
        discriminator: kind
        variants:
          weighed: { fields: { price: { type: integer } } }
          measured: { fields: { price: { type: integer }, litres: { type: integer } } }
authentication:
  default: none
errors:
  body: problem
  codes:
    invalid: { status: 400, when: [validation, malformed_request, unsupported_media_type, body_too_large, headers_too_large] }
    missing: { status: 404, when: [missing_resource, route_not_found] }
    other: { status: 405, when: [method_not_allowed] }
`,
  );
  const handlers = join(dir, 'handlers.mjs');
  writeFileSync(
    handlers,
    "export const handlers = { quote: (ctx) => ('grams' in ctx.body ? { kind: 'weighed', price: ctx.body.grams } : { kind: 'measured', price: ctx.body.litres * 2, litres: ctx.body.litres }) };\n",
  );
  s = await startSpec(spec, pathToFileURL(handlers).href);
}, 60_000);
afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

const ONLY = ['endpoints.valid-requests', 'endpoints.invalid-requests', 'endpoints.union-variants', 'endpoints.answer-shape'];
const run = (baseUrl: string): Promise<TestReport> => testService(s.model, { baseUrl, ...s.options, seed: 11, runs: 4, only: ONLY });
const failed = (r: TestReport) => r.results.filter((x) => x.outcome === 'failed');

it('against the real runtime: every variant accepted and kept, every invalid union refused', async () => {
  const r = await run(s.url);
  expect(failed(r).map((x) => [x.check, x.target, x.failure?.actual.slice(0, 200)])).toEqual([]);
  const passed = (check: string) => r.results.filter((x) => x.check === check && x.outcome === 'passed').map((x) => x.target);
  expect(passed('endpoints.union-variants').sort()).toEqual(['createPayment', 'quote']);
  expect(passed('endpoints.invalid-requests')).toEqual(
    expect.arrayContaining([
      'createPayment: method with a kind no variant has',
      'createPayment: method as variant card without its required number',
      'createPayment: method as variant bank_transfer without its required iban',
      'quote: the body as variant by_weight without its required grams',
      'quote: the body as variant by_volume without its required litres',
      'quote: an unknown field',
    ]),
  );
  expect(passed('endpoints.answer-shape')).toEqual(expect.arrayContaining(['createPayment', 'quote']));
}, 120_000);

const body = (r: ProxyRequest): Record<string, unknown> | undefined => {
  try {
    return JSON.parse(r.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
};

const MUTANTS: (Mutant & { op: RegExp })[] = [
  {
    name: 'an unknown tag accepted (read as a card)',
    caughtBy: 'endpoints.invalid-requests',
    op: /^createPayment: method with a kind no variant has$/,
    only: [],
    request: (r) => {
      const b = body(r);
      const m = b?.method as Record<string, unknown> | undefined;
      if (r.method !== 'POST' || r.path !== '/payments' || !m || m.kind === 'card' || m.kind === 'bank') return r;
      return { ...r, body: Buffer.from(JSON.stringify({ ...b, method: { kind: 'card', number: '4111111111111111', expiry: '12/30' } })) };
    },
  },
  {
    name: 'a measured quote answered under the weighed tag',
    caughtBy: 'endpoints.answer-shape',
    op: /^quote$/,
    only: [],
    response: (r, req) => (req.path === '/quotes' && r.status === 200 && json(r)?.kind === 'measured' ? withJson(r, { ...json(r), kind: 'weighed' }) : r),
  },
  {
    name: 'a bank transfer answered as a card',
    caughtBy: 'endpoints.union-variants',
    op: /^createPayment$/,
    only: [],
    response: (r, req) =>
      req.path === '/payments' && r.status === 201 && json(r)?.method?.kind === 'bank'
        ? withJson(r, { ...json(r), method: { kind: 'card', number: '4111111111111111', expiry: '12/30' } })
        : r,
  },
];

it.each(MUTANTS.map((m) => [m.name, m] as const))(
  'mutant: %s is caught',
  async (_n, mutant) => {
    const proxy = await startProxy(s.url, mutant);
    try {
      const r = await run(proxy.url);
      const hit = failed(r).filter((x) => x.check === mutant.caughtBy && mutant.op.test(x.target));
      expect(
        hit.map((x) => x.target),
        JSON.stringify(failed(r).map((x) => [x.check, x.target])),
      ).not.toEqual([]);
    } finally {
      await proxy.close();
    }
  },
  120_000,
);
