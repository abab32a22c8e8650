// The tester against a service it was not built with: fixtures/claims.yaml (an insurer's claims desk: adjusters made
// by a keyed PUT, claims with a guarded state machine whose transitions carry bodies, ETags and If-Match, an
// offset-paged list with enum filters, notes nested under a claim) served by fixtures/claims-server.mjs, a
// hand-written node:http server with faults planted one at a time. The faithful server and `servicespec serve` must
// pass a default run; every fault must be caught by one, but the escapes named below, which the spec does not make
// faults; the faults in FIXED got through before the fix named beside each.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { CLAIMS_SPEC, failedChecks, loadClaims, runClaims } from './claims-sweep.js';
import { startSpecText } from './helpers.js';

describe('the Claims service, by hand', () => {
  it('imports node: modules only', () => {
    const text = readFileSync(new URL('./fixtures/claims-server.mjs', import.meta.url), 'utf8');
    const imports = [...text.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    for (const i of imports) expect(i).toMatch(/^node:/);
  });

  it.each([1, 2])(
    'without a fault passes a default run (seed %i): PASSED, nothing not run',
    async (seed) => {
      const report = await runClaims([], { seed });
      const failed = report.results.filter((r) => r.outcome === 'failed');
      expect(failed.map((r) => ({ check: r.check, target: r.target, expected: r.failure?.expected, actual: r.failure?.actual }))).toEqual([]);
      expect(report.verdict).toBe('passed');
      expect(report.results.filter((r) => r.outcome === 'skipped' && r.notRun === true)).toEqual([]);
      for (const part of ['resources', 'states', 'endpoints', 'errors', 'limits'])
        expect(report.parts.find((p) => p.part === part)?.passed, part).toBeGreaterThan(0);
    },
    60_000,
  );

  it('servicespec serve of the spec passes a default run (seed 1)', async () => {
    const served = await startSpecText('claims.yaml', readFileSync(CLAIMS_SPEC, 'utf8'));
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
  // Transitions were only ever sent valid bodies (the states part): now each field a transition takes is sent
  // broken, and an unknown member, to an object in a state the transition leaves.
  {
    fault: 'transition-body-unchecked',
    only: ['endpoints.invalid-requests'],
    check: 'endpoints.invalid-requests',
    expected: /invalid \(422\) for a body of (approve|reject) with (approved_amount|rejection_reason) /,
  },
  {
    fault: 'transition-bounds-unchecked',
    only: ['endpoints.invalid-requests'],
    check: 'endpoints.invalid-requests',
    expected: /invalid \(422\) for a body of approve with approved_amount below minimum 0/,
  },
  {
    fault: 'transition-unknown-member',
    only: ['endpoints.invalid-requests'],
    check: 'endpoints.invalid-requests',
    expected: /invalid \(422\) for a body of \w+ with an unknown field/,
  },
  {
    fault: 'assign-unknown-adjuster',
    only: ['endpoints.invalid-requests'],
    check: 'endpoints.invalid-requests',
    expected: /unknown_ref \(422\) for a body of assign with adjuster referring to no Adjuster/,
  },
  // If-Match was sent to an upsert's PUT on an existing object only: now `*` to a new identifier too.
  {
    fault: 'upsert-if-match-new',
    only: ['endpoints.if-match'],
    check: 'endpoints.if-match',
    expected: /stale \(412\) for If-Match: \* on a PUT to an identifier no Adjuster has/,
  },
  // Updates went to new objects only, which no transition had stamped: now also to one approve stamped.
  {
    fault: 'update-restamps-decided',
    only: ['endpoints.valid-requests'],
    check: 'endpoints.valid-requests',
    expected: /field decided_at, stamped by approve, kept by the update/,
  },
  // No check deleted an object another referred to: errors.in-use makes a Note under a new Claim, then deletes it.
  {
    fault: 'delete-in-use',
    only: ['errors.in-use'],
    check: 'errors.in-use',
    expected: /has_notes \(409\) for a delete of a Claim that a Note refers to \(claim_id\)/,
  },
];

/** Faults a default run lets through that the spec does not make faults (docs/testing.md, "the Claims fault sweep"). */
const ESCAPES = new Set(['sort-undeclared-accepted']);

describe('faults a default run let through, caught by the check that names them', () => {
  for (const f of FIXED) {
    it(`${f.fault}: ${f.check} fails`, async () => {
      const report = await runClaims([f.fault], { seed: 1, only: f.only });
      expect(failedChecks(report)).toEqual([f.check]);
      const failures = report.results.filter((r) => r.outcome === 'failed').map((r) => r.failure!.expected);
      expect(
        failures.some((e) => f.expected.test(e)),
        failures.join('\n'),
      ).toBe(true);
    }, 60_000);
  }

  it('a transition refused for its body must leave the claim as it was: a read before and after it', async () => {
    const report = await runClaims(['transition-assigns-first'], { seed: 1, only: ['endpoints.invalid-requests'] });
    const failures = report.results.filter((r) => r.outcome === 'failed' && r.target.startsWith('approveClaim')).map((r) => r.failure!);
    expect(failures.map((f) => f.expected)).toContainEqual(expect.stringMatching(/^the Claim unchanged by approve, refused for approved_amount /));
  }, 60_000);
});

// The faults FIXED names are each run above, narrowed to their checks; the rest run here under a whole default run.
// bench/tester-claims-sweep.ts runs every fault.
describe('the sweep: every other fault the server plants, in a default run (seed 1)', () => {
  it('each is caught, but the escapes the spec does not make faults', async () => {
    const { FAULTS } = await loadClaims();
    expect(Object.keys(FAULTS).length).toBeGreaterThanOrEqual(25);
    const named = new Set(FIXED.map((f) => f.fault));
    const caught: Record<string, string[]> = {};
    for (const fault of Object.keys(FAULTS).filter((f) => !named.has(f))) caught[fault] = failedChecks(await runClaims([fault], { seed: 1 }));
    const escaped = Object.keys(caught).filter((f) => caught[f]!.length === 0);
    expect(escaped.sort()).toEqual([...ESCAPES].sort());
  }, 300_000);
});
