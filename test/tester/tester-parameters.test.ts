// The contract tester sends a custom operation's declared query parameters, generated within their types and
// constraints, so an operation with a required parameter is exercised rather than refused with validation.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startSpec, type OrdersServer } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'servicespec-tester-params-'));
let s: OrdersServer;
const seen: unknown[] = [];

beforeAll(async () => {
  const spec = join(dir, 'search.yaml');
  writeFileSync(
    spec,
    `servicespec: 1
endpoints:
  operations:
    search:
      method: GET
      path: /search
      action: custom
      handler: search
      response: { fields: { count: { type: integer } } }
      query:
        limit: { type: integer, minimum: 1, maximum: 50 }
        order: { type: enum, values: [name, age] }
        tag: { type: array, items: { type: string, maxLength: 5 }, optional: true, maxItems: 3 }
authentication:
  default: none
errors:
  body: problem
  codes:
    invalid: { status: 422, when: [validation] }
    other: { status: 400, when: [malformed_request, route_not_found, method_not_allowed, headers_too_large, internal] }
`,
  );
  const handlers = join(dir, 'handlers.mjs');
  writeFileSync(handlers, 'export const handlers = { search: (ctx) => { globalThis.__seenQueries?.push(ctx.query); return { count: ctx.query.limit }; } };\n');
  (globalThis as { __seenQueries?: unknown[] }).__seenQueries = seen;
  s = await startSpec(spec, pathToFileURL(handlers).href);
}, 60_000);
afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('exercises a custom operation with required query parameters: every request valid, answered 200', async () => {
  const r = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 7, only: ['endpoints'] });
  const failed = r.results.filter((x) => x.outcome === 'failed');
  expect(failed.map((f) => f.failure?.expected)).toEqual([]);
  expect(seen.length).toBeGreaterThan(0);
  for (const q of seen as { limit: number; order: string }[]) {
    expect(Number.isInteger(q.limit) && q.limit >= 1 && q.limit <= 50).toBe(true);
    expect(['name', 'age']).toContain(q.order);
  }
}, 60_000);
