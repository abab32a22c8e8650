// Round 5 of the fault sweeps: the shapes the earlier rounds left out. fixtures/catalogue.yaml (a media catalogue:
// a tagged union field and an untagged one, a merge-patch update under ETags, a bare-array list paged by
// page/per_page with Link and X-Total-Count, a limit/offset list with a total, Spring's `Page` via paging.members,
// the service's own nested error body, Location on create, named request examples) served by
// fixtures/catalogue-server.mjs, a hand-written node:http server with faults planted one at a time. The faithful
// server and `servicespec serve` must pass a default run; every fault must be caught by one, but the escapes named
// below, which the spec does not make faults (docs/testing.md, "Round 5: the Catalogue fault sweep").

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { CATALOGUE_SPEC, failedChecks, loadCatalogue, runCatalogue } from './catalogue-sweep.js';
import { startSpecText } from './helpers.js';

describe('the Catalogue service, by hand', () => {
  it('imports node: modules only', () => {
    const text = readFileSync(new URL('./fixtures/catalogue-server.mjs', import.meta.url), 'utf8');
    const imports = [...text.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    for (const i of imports) expect(i).toMatch(/^node:/);
  });

  it.each([1, 2])(
    'without a fault passes a default run (seed %i): PASSED, nothing not run',
    async (seed) => {
      const report = await runCatalogue([], { seed });
      const failed = report.results.filter((r) => r.outcome === 'failed');
      expect(failed.map((r) => ({ check: r.check, target: r.target, expected: r.failure?.expected, actual: r.failure?.actual }))).toEqual([]);
      expect(report.verdict).toBe('passed');
      expect(report.results.filter((r) => r.outcome === 'skipped' && r.notRun === true)).toEqual([]);
      for (const part of ['resources', 'endpoints', 'errors', 'limits']) expect(report.parts.find((p) => p.part === part)?.passed, part).toBeGreaterThan(0);
    },
    60_000,
  );

  it('servicespec serve of the spec passes a default run (seed 1)', async () => {
    const served = await startSpecText('catalogue.yaml', readFileSync(CATALOGUE_SPEC, 'utf8'));
    try {
      const report = await testService(served.model, { baseUrl: served.url, ...served.options, seed: 1 });
      expect(report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}: ${r.failure?.actual}`)).toEqual([]);
      expect(report.verdict).toBe('passed');
    } finally {
      await served.close();
    }
  }, 60_000);
});

/** The faults a default run let through before the tester's fixes, each with the check that now names it. */
const FIXED: { fault: string; only: string[]; check: string; expected: RegExp }[] = [
  // A delete was followed by a read and the list's pages (the object gone), never by the list's total: now the
  // total its first page answers must be the number of objects its pages list, the deleted one gone.
  {
    fault: 'total-header-counts-deleted',
    only: ['endpoints.valid-requests'],
    check: 'endpoints.valid-requests',
    expected: /the `X-Total-Count` header equal to the \d+ objects its pages list after a delete/,
  },
  {
    fault: 'total-counts-deleted',
    only: ['endpoints.valid-requests'],
    check: 'endpoints.valid-requests',
    expected: /the total \(total\) equal to the \d+ objects its pages list after a delete/,
  },
  // endpoints.etag's change of a merge-patch update was a drawn body merged into the object: an offer of the other
  // variant merged into the one held matched neither, was refused, and no change was seen. It now says a union
  // field whole, as endpoints.valid-requests does (the other variants' members null), so the tag must move.
  {
    fault: 'etag-unchanged',
    only: ['endpoints.etag'],
    check: 'endpoints.etag',
    expected: /a new ETag once updateTitle changed the Title/,
  },
  // An untagged union was sent each variant without a required member, never one holding another variant's member:
  // a value of no variant (a rental holding a purchase's price_cents) is now sent too, where it fits none.
  {
    fault: 'offer-no-variant-accepted',
    only: ['endpoints.invalid-requests'],
    check: 'endpoints.invalid-requests',
    expected: /offer \(variant (rental|purchase), sent (purchase|rental)'s \w+\) with an unknown field/,
  },
  // A create's named request examples were never sent (a drawn body that happened to be a book on sale caught it on
  // some runs only): each the request schema takes is now sent first, a valid request the spec shows.
  {
    fault: 'example-refused',
    only: ['endpoints.valid-requests'],
    check: 'endpoints.valid-requests',
    expected: /status 201 for a valid request/,
  },
];

/** Faults a default run lets through that the spec does not make faults, or that no check yet holds (docs/testing.md). */
const ESCAPES = new Set<string>([]);

describe('faults a default run let through, caught by the check that names them', () => {
  for (const f of FIXED) {
    it(`${f.fault}: ${f.check} fails`, async () => {
      const report = await runCatalogue([f.fault], { seed: 1, only: f.only });
      expect(failedChecks(report)).toContain(f.check);
      const failures = report.results.filter((r) => r.outcome === 'failed').map((r) => r.failure!.expected);
      expect(
        failures.some((e) => f.expected.test(e)),
        failures.join('\n'),
      ).toBe(true);
    }, 60_000);
  }
});

// The faults FIXED names are each run above, narrowed to their checks; the rest run here under a whole default run.
// bench/tester-catalogue-sweep.ts runs every fault.
describe('the sweep: every other fault the server plants, in a default run (seed 1)', () => {
  it('each is caught, but the escapes', async () => {
    const { FAULTS } = await loadCatalogue();
    expect(Object.keys(FAULTS).length).toBeGreaterThanOrEqual(30);
    const named = new Set(FIXED.map((f) => f.fault));
    const caught: Record<string, string[]> = {};
    for (const fault of Object.keys(FAULTS).filter((f) => !named.has(f))) caught[fault] = failedChecks(await runCatalogue([fault], { seed: 1 }));
    const escaped = Object.keys(caught).filter((f) => caught[f]!.length === 0);
    expect(escaped.sort()).toEqual([...ESCAPES].sort());
  }, 300_000);
});
