// Round 6 of the fault sweeps: the events area the earlier rounds left out. fixtures/monitors.yaml (uptime monitors:
// an event kind with a raw body, one with a payload of declared fields, a delete's event, webhooks registered at
// /webhooks and signed per Standard Webhooks, retried; a callback given in a create's callback_url; the stream; an
// owned resource behind an API key in a header, the registration behind its own scope) served by
// fixtures/monitors-server.mjs, a hand-written node:http server with faults planted one at a time. The tester gets
// what a user gives it: three subjects' keys, --webhook-listen and the service's callback secret. The faithful server
// and `servicespec serve` must pass a default run with every events check run; every fault must be caught
// (docs/testing.md, "Round 6: the Monitors fault sweep").

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { CALLBACK_SECRET, MONITORS_SPEC, failedChecks, loadMonitors, runMonitors } from './monitors-sweep.js';
import { startSpecText } from './helpers.js';
import type { TestReport } from '../../src/tester/tester-types.js';

/** The events checks a run with --webhook-listen and the callback secret runs (events.broker is not asked for). */
const EVENTS_RUN = ['events.emitted', 'events.ownership', 'events.webhook', 'events.callback'];

function expectEventsRun(report: TestReport): void {
  for (const check of EVENTS_RUN) {
    const results = report.results.filter((r) => r.check === check);
    expect(results.length, check).toBeGreaterThan(0);
    expect(
      results.filter((r) => r.outcome !== 'passed').map((r) => `${r.target}: ${r.outcome} ${r.reason ?? ''}`),
      check,
    ).toEqual([]);
  }
}

describe('the Monitors service, by hand', () => {
  it('imports node: modules only', () => {
    const text = readFileSync(new URL('./fixtures/monitors-server.mjs', import.meta.url), 'utf8');
    const imports = [...text.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    for (const i of imports) expect(i).toMatch(/^node:/);
  });

  it.each([1, 2])(
    'without a fault passes a default run (seed %i): PASSED, nothing not run, every events check run',
    async (seed) => {
      const report = await runMonitors([], { seed });
      const failed = report.results.filter((r) => r.outcome === 'failed');
      expect(failed.map((r) => ({ check: r.check, target: r.target, expected: r.failure?.expected, actual: r.failure?.actual }))).toEqual([]);
      expect(report.verdict).toBe('passed');
      expect(report.results.filter((r) => r.outcome === 'skipped' && r.notRun === true)).toEqual([]);
      expectEventsRun(report);
    },
    60_000,
  );

  it('servicespec serve of the spec passes a default run (seed 1), every events check run', async () => {
    const served = await startSpecText('monitors.yaml', readFileSync(MONITORS_SPEC, 'utf8'), { callbackSecret: CALLBACK_SECRET });
    try {
      const report = await testService(served.model, {
        baseUrl: served.url,
        ...served.options,
        seed: 1,
        webhookListen: 0,
        callbackSecret: CALLBACK_SECRET,
      });
      expect(report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}: ${r.failure?.expected} / ${r.failure?.actual}`)).toEqual(
        [],
      );
      expect(report.verdict).toBe('passed');
      expectEventsRun(report);
    } finally {
      await served.close();
    }
  }, 90_000);
});

/** The faults a default run let through before the tester's fixes, each with the check and failure that now name it. */
const FIXED: { fault: string; only: string[]; check: string; expected: RegExp }[] = [
  // A delivery's signature was verified, its timestamp never read: one in milliseconds or as a date, which every
  // verifying receiver refuses, passed. It must be whole seconds within Standard Webhooks' 300 s tolerance.
  { fault: 'timestamp-ms', only: ['events.webhook'], check: 'events.webhook', expected: /a webhook-timestamp in whole seconds since the epoch, within 300 s/ },
  { fault: 'timestamp-iso', only: ['events.callback'], check: 'events.callback', expected: /a webhook-timestamp in whole seconds since the epoch/ },
  // webhook-id was never compared with the event's id, nor a retry's with the attempt's (the receiver answered
  // every attempt 204): the first attempt is now answered 500 and the declared retry must keep its webhook-id.
  { fault: 'webhook-id-not-event-id', only: ['events.webhook'], check: 'events.webhook', expected: /webhook-id the event's id/ },
  {
    fault: 'retry-new-id',
    only: ['events.webhook'],
    check: 'events.webhook',
    expected: /a retry of the delivery the receiver answered 500, with its webhook-id/,
  },
  // Two copies of one event under two ids, and events committed before the endpoint registered, were not looked for.
  { fault: 'webhook-twice', only: ['events.webhook'], check: 'events.webhook', expected: /one monitor\.created event for the Monitor/ },
  {
    fault: 'webhook-before-registration',
    only: ['events.webhook', 'events.emitted'],
    check: 'events.webhook',
    expected: /an endpoint gets only events committed after it registered/,
  },
  // A registration to a URL of another scheme was never sent.
  {
    fault: 'registration-bad-url-accepted',
    only: ['events.webhook'],
    check: 'events.webhook',
    expected: /the validation refusal for a url that is not http or https/,
  },
  // A callback's body was read for its type only: a raw kind's payload sent in the envelope passed.
  {
    fault: 'raw-webhook-enveloped',
    only: ['events.callback'],
    check: 'events.callback',
    expected: /the Monitor itself as the body \(monitor\.paused, body: raw\) \(a callback\)/,
  },
  // The stream's payload was matched by its identifier only: a field missing, stale or of another type passed, and
  // so did members a payload of declared fields does not have.
  {
    fault: 'raw-missing-field',
    only: ['events.emitted'],
    check: 'events.emitted',
    expected: /monitor\.paused's payload the Monitor as the answer shows it after the change: interval_s missing/,
  },
  { fault: 'payload-stale', only: ['events.emitted'], check: 'events.emitted', expected: /monitor\.resumed's payload .*: status "active", not "paused"/ },
  {
    fault: 'created-payload-wrong-type',
    only: ['events.emitted'],
    check: 'events.emitted',
    expected: /monitor\.created's payload .*: interval_s \d+, not "\d+"/,
  },
  {
    fault: 'deleted-payload-extra',
    only: ['events.emitted'],
    check: 'events.emitted',
    expected: /monitor\.deleted's payload holds its declared fields only \(id, name, owner\), not target/,
  },
  // authentication.bad-credential sent a key nothing like the main one: a service comparing a prefix took it.
  {
    fault: 'key-prefix-accepted',
    only: ['authentication.bad-credential'],
    check: 'authentication.bad-credential',
    expected: /for a credential the service never issued/,
  },
  // The registration's own scope (events.delivery.webhook.scopes) was never refused to the limited credential.
  {
    fault: 'registration-no-scope',
    only: ['authentication.missing-scope'],
    check: 'authentication.missing-scope',
    expected: /forbidden: the credential lacks webhooks:manage/,
  },
];

describe('faults a default run let through, caught by the check that names them', () => {
  for (const f of FIXED) {
    it(`${f.fault}: ${f.check} fails`, async () => {
      const report = await runMonitors([f.fault], { seed: 1, only: f.only });
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
// four at a time (a run mostly waits on deliveries and retries). bench/tester-monitors-sweep.ts runs every fault.
describe('the sweep: every other fault the server plants, in a default run (seed 1)', () => {
  it('each is caught', async () => {
    const { FAULTS } = await loadMonitors();
    expect(Object.keys(FAULTS).length).toBeGreaterThanOrEqual(30);
    const named = new Set(FIXED.map((f) => f.fault));
    const rest = Object.keys(FAULTS).filter((f) => !named.has(f));
    const caught: Record<string, string[]> = {};
    const queue = [...rest];
    const worker = async () => {
      for (let fault = queue.shift(); fault !== undefined; fault = queue.shift()) caught[fault] = failedChecks(await runMonitors([fault], { seed: 1 }));
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    expect(Object.keys(caught).sort()).toEqual([...rest].sort());
    const escaped = rest.filter((f) => caught[f]!.length === 0);
    expect(escaped).toEqual([]);
  }, 240_000);
});
