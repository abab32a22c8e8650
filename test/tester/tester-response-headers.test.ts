// endpoints.response-headers: the judge holds every success answer to the operation's declared response headers.
// Against the real runtime (a built-in create sending a default, a custom handler setting its own) it passes;
// a proxy that strips a required header, or rewrites one to a value its declaration refuses, is caught.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import type { TestReport } from '../../src/tester/tester-types.js';
import { startSpec, type OrdersServer } from './helpers.js';
import { startProxy, type Mutant } from './mutant-proxy.js';

const dir = mkdtempSync(join(tmpdir(), 'servicespec-tester-headers-'));
let s: OrdersServer;

beforeAll(async () => {
  const spec = join(dir, 'quotes.yaml');
  writeFileSync(
    spec,
    `servicespec: 1
resources:
  Item:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string, maxLength: 20 }
endpoints:
  operations:
    createItem:
      method: POST
      path: /items
      action: create
      resource: Item
      response_headers:
        Cache-Control: { type: enum, values: [no-store], default: no-store }
    readItem: { method: GET, path: '/items/{id}', action: read, resource: Item }
    quote:
      method: POST
      path: /quotes
      action: custom
      handler: quote
      request: { fields: { grams: { type: integer, minimum: 1, maximum: 1000 } } }
      response: { fields: { price: { type: integer } } }
      response_headers:
        X-Cost: { type: integer, minimum: 0 }
        X-Tags: { type: array, items: { type: string }, optional: true }
authentication:
  default: none
errors:
  body: problem
  codes:
    invalid: { status: 400, when: [validation, malformed_request, unsupported_media_type, body_too_large, headers_too_large] }
    missing: { status: 404, when: [missing_resource, route_not_found] }
    other: { status: 405, when: [method_not_allowed] }
    broken: { status: 500, when: [internal] }
`,
  );
  const handlers = join(dir, 'handlers.mjs');
  writeFileSync(
    handlers,
    "export const handlers = { quote: (ctx) => { ctx.header('X-Cost', ctx.body.grams * 2); ctx.header('X-Tags', ['a', 'b']); return { price: ctx.body.grams * 2 }; } };\n",
  );
  s = await startSpec(spec, pathToFileURL(handlers).href);
}, 60_000);
afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (baseUrl: string): Promise<TestReport> =>
  testService(s.model, { baseUrl, ...s.options, seed: 5, runs: 2, only: ['endpoints.valid-requests', 'endpoints.response-headers'] });
const verdicts = (r: TestReport) =>
  r.results.filter((x) => x.check === 'endpoints.response-headers').map((x) => [x.target, x.outcome, x.failure?.actual.split(';')[0]]);

it('against the runtime: the declared headers of the built-in create and of the custom handler pass', async () => {
  const r = await run(s.url);
  expect(verdicts(r).sort()).toEqual([
    ['createItem', 'passed', undefined],
    ['quote', 'passed', undefined],
  ]);
});

const MUTANTS: (Mutant & { op: string; actual: string })[] = [
  {
    name: 'a required header stripped',
    caughtBy: 'endpoints.response-headers',
    only: [],
    op: 'quote',
    actual: 'no X-Cost header (declared required)',
    response: (r) => ({ ...r, headers: Object.fromEntries(Object.entries(r.headers).filter(([k]) => k !== 'x-cost')) }),
  },
  {
    name: 'an integer header sent as text',
    caughtBy: 'endpoints.response-headers',
    only: [],
    op: 'quote',
    actual: 'X-Cost: "lots" must be an integer',
    response: (r) => (r.headers['x-cost'] !== undefined ? { ...r, headers: { ...r.headers, 'x-cost': 'lots' } } : r),
  },
  {
    name: 'a value outside the declared enum',
    caughtBy: 'endpoints.response-headers',
    only: [],
    op: 'createItem',
    actual: 'Cache-Control: "public" must be one of no-store',
    response: (r) => (r.headers['cache-control'] !== undefined ? { ...r, headers: { ...r.headers, 'cache-control': 'public' } } : r),
  },
];

it.each(MUTANTS.map((m) => [m.name, m] as const))(
  'mutant: %s is caught',
  async (_n, mutant) => {
    const proxy = await startProxy(s.url, mutant);
    try {
      const r = await run(proxy.url);
      const hit = r.results.filter((x) => x.check === mutant.caughtBy && x.target === mutant.op && x.outcome === 'failed');
      expect(hit.map((x) => x.failure!.actual.split(';')[0])).toEqual([mutant.actual]);
    } finally {
      await proxy.close();
    }
  },
  120_000,
);
