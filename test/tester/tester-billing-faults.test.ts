// Round 7 of the fault sweeps: the areas the earlier rounds covered least. fixtures/billing.yaml (plans and
// subscriptions: versions named in a header, an older one deprecated with fields renamed and added since, one past its
// sunset; ETags with If-None-Match and If-Match, required on deletes; Idempotency-Key on every write; a body limit,
// page sizes refused over one maximum and clamped at another, a rate limit with its headers; owned subscriptions
// behind an API key) served by fixtures/billing-server.mjs, a hand-written node:http server with faults planted one at
// a time. The faithful server and `servicespec serve` must pass a default run; every fault must be caught
// (docs/testing.md, "Round 7: the Billing fault sweep").

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { BILLING_SPEC, failedChecks, loadBilling, runBilling } from './billing-sweep.js';
import { startSpecText } from './helpers.js';

describe('the Billing service, by hand', () => {
  it('imports node: modules only', () => {
    const text = readFileSync(new URL('./fixtures/billing-server.mjs', import.meta.url), 'utf8');
    const imports = [...text.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    for (const i of imports) expect(i).toMatch(/^node:/);
  });

  it.each([1, 2])(
    'without a fault passes a default run (seed %i): PASSED, nothing not run',
    async (seed) => {
      const report = await runBilling([], { seed });
      const failed = report.results.filter((r) => r.outcome === 'failed');
      expect(failed.map((r) => ({ check: r.check, target: r.target, expected: r.failure?.expected, actual: r.failure?.actual }))).toEqual([]);
      expect(report.verdict).toBe('passed');
      expect(report.results.filter((r) => r.outcome === 'skipped' && r.notRun === true)).toEqual([]);
    },
    60_000,
  );

  it('servicespec serve of the spec passes a default run (seed 1)', async () => {
    const served = await startSpecText('billing.yaml', readFileSync(BILLING_SPEC, 'utf8'));
    try {
      const report = await testService(served.model, { baseUrl: served.url, ...served.options, seed: 1 });
      expect(report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}: ${r.failure?.expected} / ${r.failure?.actual}`)).toEqual(
        [],
      );
      expect(report.verdict).toBe('passed');
    } finally {
      await served.close();
    }
  }, 90_000);
});

/** The faults a default run let through before the tester's fixes, each with the check and failure that now name it. */
const FIXED: { fault: string; only: string[]; check: string; expected: RegExp }[] = [
  // Versions: an older version was asked a read only, its dates never read, a version checked on reads only, and no
  // request ever named none.
  {
    fault: 'old-version-list-new-shape',
    only: ['versioning.served'],
    check: 'versioning.served',
    expected: /each Subscription listed in the shape of version 2026-03-01/,
  },
  {
    fault: 'old-rename-input-dropped',
    only: ['versioning.request-shape'],
    check: 'versioning.request-shape',
    expected: /field po_number kept as sent in version 2026-03-01/,
  },
  {
    fault: 'unsupported-version-on-writes',
    only: ['versioning.unsupported'],
    check: 'versioning.unsupported',
    expected: /bad_version \(400\) for version 1900-01-01, which is not served/,
  },
  {
    fault: 'default-oldest',
    only: ['versioning.served'],
    check: 'versioning.served',
    expected: /Subscription in the shape of version 2026-09-01, the default \(default: current\), to a request naming none/,
  },
  {
    fault: 'sunset-date-wrong',
    only: ['versioning.served'],
    check: 'versioning.served',
    expected: /Deprecation and Sunset saying the dates version 2026-03-01 declares/,
  },
  {
    fault: 'deprecation-true',
    only: ['versioning.served'],
    check: 'versioning.served',
    expected: /Deprecation and Sunset saying the dates version 2026-03-01 declares/,
  },
  // Conditional requests: If-None-Match was sent the current tag only, If-Match one tag at a time, a tag read only
  // after an update, and never the one a create answered.
  {
    fault: 'etag-unchanged-after-transition',
    only: ['endpoints.if-match'],
    check: 'endpoints.if-match',
    expected: /a new ETag once pauseSubscription changed the Subscription/,
  },
  {
    fault: 'if-none-match-any-304',
    only: ['endpoints.etag'],
    check: 'endpoints.etag',
    expected: /the Subscription \(200\) to If-None-Match naming a tag it does not have/,
  },
  { fault: 'if-none-match-strong-only', only: ['endpoints.etag'], check: 'endpoints.etag', expected: /If-None-Match compares weakly/ },
  { fault: '304-without-etag', only: ['endpoints.etag'], check: 'endpoints.etag', expected: /the Subscription's ETag \(".*"\) on the 304/ },
  { fault: 'if-match-list-unparsed', only: ['endpoints.if-match'], check: 'endpoints.if-match', expected: /a list naming the Subscription's current tag/ },
  { fault: 'etag-weak', only: ['endpoints.etag'], check: 'endpoints.etag', expected: /a strong ETag on the Subscription/ },
  { fault: 'create-etag-differs', only: ['endpoints.etag'], check: 'endpoints.etag', expected: /the ETag the create answered \(".*"\) is the Subscription's/ },
  // Idempotency keys: a replay was compared with the first answer only, right after it, by the same subject, on the
  // same operation.
  {
    fault: 'idem-replay-second-object',
    only: ['endpoints.idempotency'],
    check: 'endpoints.idempotency',
    expected: /one Subscription made by the request and its retry/,
  },
  {
    fault: 'idem-key-global',
    only: ['endpoints.idempotency'],
    check: 'endpoints.idempotency',
    expected: /another subject's request with Idempotency-Key: .* not answered this subject's Subscription/,
  },
  {
    fault: 'idem-key-across-paths',
    only: ['endpoints.idempotency'],
    check: 'endpoints.idempotency',
    expected: /reused on createPlan \(POST \/plans\) not answered createSubscription's first answer/,
  },
  {
    fault: 'idem-replay-current',
    only: ['endpoints.idempotency'],
    check: 'endpoints.idempotency',
    expected: /the first answer again to the same request with Idempotency-Key: .* after updateSubscription changed it/,
  },
  // Limits: the body limit was probed over it with ASCII padding only (characters = bytes) and on a create only, a
  // clamp was held to no more than the maximum only, and RateLimit was read for its syntax only.
  {
    fault: 'body-limit-chars',
    only: ['limits.body-size'],
    check: 'limits.body-size',
    expected: /big for a body one byte over 4KiB \(4097 bytes in UTF-8, \d+ characters\)/,
  },
  {
    fault: 'update-body-unlimited',
    only: ['limits.body-size'],
    check: 'limits.body-size',
    expected: /big for a body one byte over 4KiB/,
  },
  { fault: 'clamp-to-default', only: ['limits.page-size'], check: 'limits.page-size', expected: /limit=11 clamped to 10: 10 items when more exist/ },
  {
    fault: 'ratelimit-reset-epoch',
    only: ['limits.rate-headers'],
    check: 'limits.rate-headers',
    expected: /RateLimit-Policy and RateLimit headers naming the declared policies/,
  },
];

/** Faults a default run still lets through (docs/testing.md, "Round 7"), each a fix not made yet. */
const LET_THROUGH = new Set(['clamp-to-default', 'ratelimit-reset-epoch']);

describe('faults a default run let through, caught by the check that names them', () => {
  for (const f of FIXED) {
    it(`${f.fault}: ${f.check} fails`, async () => {
      const report = await runBilling([f.fault], { seed: 1, only: f.only });
      expect(failedChecks(report)).toContain(f.check);
      const failures = report.results.filter((r) => r.outcome === 'failed').map((r) => r.failure!.expected);
      expect(
        failures.some((e) => f.expected.test(e)),
        failures.join('\n'),
      ).toBe(true);
    }, 60_000);
  }
});

// The faults FIXED names are each run above, narrowed to their checks; the rest run here under a whole default run,
// four at a time. bench/tester-billing-sweep.ts runs every fault.
describe('the sweep: every other fault the server plants, in a default run (seed 1)', () => {
  it('each is caught', async () => {
    const { FAULTS } = await loadBilling();
    expect(Object.keys(FAULTS).length).toBeGreaterThanOrEqual(30);
    const named = new Set(FIXED.map((f) => f.fault));
    const rest = Object.keys(FAULTS).filter((f) => !named.has(f));
    const caught: Record<string, string[]> = {};
    const queue = [...rest];
    const worker = async () => {
      for (let fault = queue.shift(); fault !== undefined; fault = queue.shift()) caught[fault] = failedChecks(await runBilling([fault], { seed: 1 }));
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    expect(Object.keys(caught).sort()).toEqual([...rest].sort());
    const escaped = rest.filter((f) => caught[f]!.length === 0);
    expect(escaped.sort()).toEqual([...LET_THROUGH].filter((f) => rest.includes(f)).sort());
  }, 240_000);
});
