// Runs don't interfere: the bad-credential checks spend the service's failed-credential budget (limits.failed_auth)
// last, and a run that finds it spent — by this run or by the one before — waits it out and says so, rather than
// skipping them. Here the budget is one failed credential per 6 s (the Retry-After, 6 s, is longer than the
// 5 s the tester waits for an ordinary 429).

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import type { TestReport } from '../../src/tester/tester-types.js';
import { startSpec, type OrdersServer } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'servicespec-tester-budget-'));
const spec = join(dir, 'pantry.yaml');
writeFileSync(
  spec,
  readFileSync(fileURLToPath(new URL('./fixtures/pantry.yaml', import.meta.url)), 'utf8').replace(
    'failed_auth: { attempts: 1000, per: 1m }',
    'failed_auth: { attempts: 1, per: 6s }',
  ),
);

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpec(spec);
});
afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The bad-credential checks of two operations only. */
const run = (): Promise<TestReport> =>
  testService(s.model, {
    baseUrl: s.url,
    ...s.options,
    seed: 1,
    only: ['getJar', 'listJars'],
    skip: [
      'states',
      'endpoints',
      'events',
      'errors',
      'resources',
      'limits',
      'versioning',
      'authentication.no-credential',
      'authentication.missing-scope',
      'authentication.ownership',
    ],
  });

it('two runs in a row both run their bad-credential checks, waiting out the spent budget and saying so', async () => {
  for (const _ of [1, 2]) {
    const report = await run();
    expect(report.results.map((r) => [r.check, r.target, r.outcome, r.reason])).toEqual([
      ['authentication.bad-credential', 'getJar', 'passed', undefined],
      ['authentication.bad-credential', 'listJars', 'passed', undefined],
    ]);
    expect(report.verdict).toBe('passed');
    expect(report.warnings).toEqual([
      expect.stringMatching(
        /^waited \d+ s: the service's failed-credential budget \(limits\.failed_auth: 1 per 6s\) was spent, by an earlier run or by this one's bad-credential checks$/,
      ),
    ]);
  }
}, 90_000);

it('the default time limit leaves room for the declared budget to admit one bad credential per operation', async () => {
  const { getFailedAuthAllowanceMs } = await import('../../src/tester/tester-run.js');
  // pantry.yaml: 7 operations require a credential; 1 failed credential per 6 s.
  expect(getFailedAuthAllowanceMs(s.model)).toBe(7 * 6000);
});
