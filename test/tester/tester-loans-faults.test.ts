// The tester against a service it was not built with: fixtures/loans.yaml (a library's loans: a guarded state
// machine, loans hidden from other subjects, API keys with scopes, an offset-paged list with a total, filters and
// sorts, a unique write-once field, an idempotency key, a rate limit) served by fixtures/loans-server.mjs, a
// hand-written node:http server with faults that can be planted one at a time. The faithful server must pass a
// default run; each fault the sweep found getting through a default run (bench/tester-loans-sweep.ts) is run here
// with only the check that names it, which must fail. Each of these failed to catch its fault before its fix.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileLoans, failedChecks, LOANS_SPEC, loadLoans, runLoans } from './loans-sweep.js';

describe('the Loans service, by hand', () => {
  it('imports node: modules only', () => {
    const text = readFileSync(new URL('./fixtures/loans-server.mjs', import.meta.url), 'utf8');
    const imports = [...text.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    for (const i of imports) expect(i).toMatch(/^node:/);
  });

  it('without a fault passes a default run (seed 1): PASSED, nothing not run', async () => {
    const report = await runLoans([], { seed: 1 });
    const failed = report.results.filter((r) => r.outcome === 'failed');
    expect(failed.map((r) => ({ check: r.check, target: r.target, expected: r.failure?.expected, actual: r.failure?.actual }))).toEqual([]);
    expect(report.verdict).toBe('passed');
    expect(report.results.filter((r) => r.outcome === 'skipped' && r.notRun === true)).toEqual([]);
    // Every part the spec uses was looked at, every state pair tried.
    for (const part of ['resources', 'states', 'endpoints', 'authentication', 'errors', 'limits'])
      expect(report.parts.find((p) => p.part === part)?.passed, part).toBeGreaterThan(0);
  }, 60_000);
});

/** The faults a default run let through before the tester's fixes, each with the check that now names it. */
const FIXED: { fault: string; only: string[]; check: string; expected: RegExp }[] = [
  // The objects walked always had the optional field the return transition requires (or the request gave it), so
  // the guard never met an object lacking it, nor a request leaving out what the object held: states.pairs now
  // tries both on every legal transition with such a field.
  {
    fault: 'guard-ignored',
    only: ['states.pairs'],
    check: 'states.pairs',
    expected: /invalid: return requires condition, which the Loan lacks and the request leaves out; the Loan unchanged/,
  },
  {
    fault: 'guard-request-only',
    only: ['states.pairs'],
    check: 'states.pairs',
    expected: /return from active succeeds \(200\) and lands in returned: the Loan holds condition, which the request need not give again/,
  },
  // The stamp was checked by the random sequences only (seed 2 never returned a loan): now on every legal pair.
  { fault: 'stamp-missing', only: ['states.pairs'], check: 'states.pairs', expected: /returned_at stamped by return from active/ },
  // Filters were checked on one page of the largest size: now paged two at a time as well.
  { fault: 'filter-page2', only: ['endpoints.list-paging'], check: 'endpoints.list-paging', expected: /only items with (status|copies) = .*, on every page/ },
  // Generated titles never tied: three objects now share a value of each sort field, and straddle a page boundary.
  {
    fault: 'tie-order',
    only: ['endpoints.list-paging'],
    check: 'endpoints.list-paging',
    expected: /each object once across pages|every object of the caller across pages/,
  },
  // The write-once field was sent as 'x', which its pattern refuses anyway: now a value the field could hold.
  {
    fault: 'write-once-accepted',
    only: ['endpoints.invalid-requests'],
    check: 'endpoints.invalid-requests',
    expected: /barcode \(write-once\) sent in an update/,
  },
  // The other subject's list was read as the format's `{items}` page by `limit`: now in the list's own shape.
  {
    fault: 'owner-list',
    only: ['authentication.ownership'],
    check: 'authentication.ownership',
    expected: /another subject's list leaves out the main subject's Loan/,
  },
  // A problem body without `code` was taken as any code of its status: the format's problem body carries it.
  { fault: 'error-no-code', only: ['errors.missing-object'], check: 'errors.missing-object', expected: /not_found/ },
];

describe('faults a default run let through, caught by the check that names them', () => {
  for (const f of FIXED) {
    it(`${f.fault}: ${f.check} fails`, async () => {
      const report = await runLoans([f.fault], { seed: 1, only: f.only });
      expect(failedChecks(report)).toEqual([f.check]);
      const failure = report.results.find((r) => r.outcome === 'failed')!.failure!;
      expect(failure.expected).toMatch(f.expected);
    }, 60_000);
  }

  it('error-no-code: errors.declared-codes names the problem body without its code', async () => {
    const report = await runLoans(['error-no-code'], { seed: 1, only: ['errors'] });
    const declared = report.results.find((r) => r.check === 'errors.declared-codes' && r.outcome === 'failed');
    expect(declared?.failure?.actual).toMatch(/a problem body without the error code/);
  }, 60_000);

  it('retry-after-missing is caught by limits.rate-limit once the budget is spent (--rate-limits, a budget of 60 a minute)', async () => {
    const text = readFileSync(LOANS_SPEC, 'utf8').replace('requests: 100000', 'requests: 60');
    const model = compileLoans(text);
    const clean = await runLoans([], { seed: 1, only: ['limits.rate-limit'], rateLimits: true }, { rate: 60, model });
    expect(clean.verdict).toBe('passed');
    const report = await runLoans(['retry-after-missing'], { seed: 1, only: ['limits.rate-limit'], rateLimits: true }, { rate: 60, model });
    expect(failedChecks(report)).toEqual(['limits.rate-limit']);
  }, 60_000);

  it('every fault the server can plant is in the sweep', async () => {
    const { FAULTS } = await loadLoans();
    expect(Object.keys(FAULTS).length).toBeGreaterThanOrEqual(32);
  });
});
