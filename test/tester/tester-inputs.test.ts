// The whole input space by targeted cases (tester-checks-inputs.ts, tester-input-edges.ts): valid bodies at every
// edge of the declared space, identifiers that name nothing and malformed ones on every operation (transitions
// included), lists at and past their edges. Against the runtime all pass; each planted fault is caught.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import type { TestReport } from '../../src/tester/tester-types.js';
import { startOrders, type OrdersServer } from './helpers.js';
import { startProxy, type Mutant, type ProxyRequest, type ProxyResponse } from './mutant-proxy.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startOrders();
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const CHECKS = ['endpoints.input-space', 'errors.missing-object', 'errors.malformed-id', 'endpoints.list-edges', 'endpoints.no-server-error'];
const run = (baseUrl: string, seed: number): Promise<TestReport> => testService(s.model, { baseUrl, ...s.options, seed, runs: 2, only: CHECKS });
const failed = (r: TestReport) => r.results.filter((x) => x.outcome === 'failed');

it('against the runtime: every input-space, identifier and list-edge check passes (two seeds)', async () => {
  for (const seed of [1, 2]) {
    const r = await run(s.url, seed);
    expect(failed(r).map((x) => [x.check, x.target, x.failure?.expected, x.failure?.actual])).toEqual([]);
    const passed = (check: string) => r.results.filter((x) => x.check === check && x.outcome === 'passed').map((x) => x.target);
    expect(passed('endpoints.input-space')).toEqual(expect.arrayContaining(['createOrder', 'createCustomer']));
    expect(passed('errors.missing-object')).toEqual(expect.arrayContaining(['shipOrder', 'cancelOrder']));
    expect(passed('errors.malformed-id')).toEqual(expect.arrayContaining(['getOrder', 'shipOrder']));
    expect(passed('endpoints.list-edges')).toEqual(expect.arrayContaining(['listOrders']));
  }
}, 180_000);

const serverError: ProxyResponse = {
  status: 500,
  headers: { 'content-type': 'application/problem+json' },
  body: Buffer.from('{"type":"about:blank","title":"Internal Server Error","status":500}'),
};
const bodyStrings = (r: ProxyRequest): string[] => {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) Object.values(v).forEach(walk);
  };
  try {
    walk(JSON.parse(r.body.toString('utf8')));
  } catch {
    // not JSON
  }
  return out;
};

const MUTANTS: (Mutant & { target: RegExp })[] = [
  {
    name: 'a 500 for a valid string of 40–80 characters',
    caughtBy: 'endpoints.input-space',
    target: /./,
    only: [],
    request: (r) => (bodyStrings(r).some((x) => [...x].length >= 40 && [...x].length <= 80) ? serverError : r),
  },
  {
    name: 'a 500 for a string with an astral character',
    caughtBy: 'endpoints.input-space',
    target: /./,
    only: [],
    request: (r) => (bodyStrings(r).some((x) => /[\u{10000}-\u{10FFFF}]/u.test(x)) ? serverError : r),
  },
  {
    name: 'a 500 for a string with NUL',
    caughtBy: 'endpoints.input-space',
    target: /./,
    only: [],
    request: (r) => (bodyStrings(r).some((x) => x.includes('\u0000')) ? serverError : r),
  },
  {
    name: 'a 500 on a transition for an identifier that does not exist',
    caughtBy: 'errors.missing-object',
    target: /^(ship|cancel|pay)/,
    only: [],
    response: (r, req) => (req.method === 'POST' && /^\/orders\/[^/]+\/[a-z]+/.test(req.path) && r.status === 404 ? serverError : r),
  },
  {
    name: 'a 500 for a malformed identifier',
    caughtBy: 'errors.malformed-id',
    target: /./,
    only: [],
    request: (r) => (/not-a-uuid|not-a-number/.test(r.path) ? serverError : r),
  },
  {
    name: 'limit=0 answered with a page',
    caughtBy: 'endpoints.list-edges',
    target: /^list/,
    only: [],
    request: (r) => (/[?&]limit=0(&|$)/.test(r.path) ? { ...r, path: r.path.replace(/([?&])limit=0/, '$1limit=1') } : r),
  },
  {
    name: 'a 500 for a forged cursor',
    caughtBy: 'endpoints.list-edges',
    target: /^list/,
    only: [],
    request: (r) => (/[?&]cursor=forged/.test(r.path) ? serverError : r),
  },
];

it.each(MUTANTS.map((m) => [m.name, m] as const))(
  'mutant: %s is caught on 3 seeds',
  async (_n, mutant) => {
    const proxy = await startProxy(s.url, mutant);
    try {
      for (const seed of [1, 2, 3]) {
        const r = await run(proxy.url, seed);
        const hit = failed(r).filter((x) => x.check === mutant.caughtBy && mutant.target.test(x.target));
        expect(
          hit.map((x) => x.target),
          JSON.stringify(failed(r).map((x) => [x.check, x.target])),
        ).not.toEqual([]);
        expect(hit[0]!.failure!.curl).toMatch(/^curl /);
      }
    } finally {
      await proxy.close();
    }
  },
  180_000,
);
