// The tester on another spec than orders.yaml: the runtime's tickets fixture (header versioning, no auth, no
// rate limits). Only known runtime defects may fail; each is named.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startSpec, type OrdersServer } from './helpers.js';

const TICKETS = new URL('../runtime/fixtures/tickets.yaml', import.meta.url).pathname;
const HANDLERS = new URL('../runtime/fixtures/tickets-handlers.mjs', import.meta.url).href;

/** Runtime defects the tester finds in tickets.yaml today (each is in another engineer's area). */
const KNOWN: Record<string, { target: RegExp; actual: RegExp }> = {
  // A PUT that leaves out a field with a declared default is refused as "breaks a constraint" (replace does not
  // apply the default): found by this tester, not yet filed.
  'endpoints.valid-requests': { target: /^replaceTicket$/, actual: /breaks a constraint/ },
};

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpec(TICKETS, HANDLERS);
});
afterAll(async () => {
  await s?.close();
});

it('tickets.yaml: every check passes or is skipped with a reason, but the named runtime defects', async () => {
  const report = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 11, runs: 5 });
  const unexpected = report.results.filter((r) => r.outcome === 'failed' && !(KNOWN[r.check]?.target.test(r.target) && KNOWN[r.check]?.actual.test(r.failure?.actual ?? '')));
  expect(unexpected.map((r) => [r.check, r.target, r.failure?.actual])).toEqual([]);
  expect(report.results.filter((r) => r.outcome === 'skipped').every((r) => (r.reason ?? '').length > 0)).toBe(true);
  expect(report.parts.find((p) => p.part === 'states')!.passed).toBe(1);
}, 60_000);
