// The tester on specs shaped unlike orders.yaml, served by the real runtime: each check passes or is skipped with a
// reason (a failure here is a false one: the runtime serves these specs as they say). Each case names the false
// failures or skips the tester gave before its fix.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../../src/tester/tester-http.js';
import { testService } from '../../src/tester/tester-run.js';
import type { TestReport } from '../../src/tester/tester-types.js';
import { startSpec, type OrdersServer } from './helpers.js';

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url).pathname;
const failures = (r: TestReport) => r.results.filter((x) => x.outcome === 'failed').map((x) => [x.check, x.target, x.failure?.actual.slice(0, 200)]);
const outcome = (r: TestReport, check: string, target: string) => r.results.find((x) => x.check === check && x.target.startsWith(target))?.outcome;

describe('greenhouse.yaml: the version in a query parameter, default oldest, a version past its sunset, fractional multipleOf', () => {
  let s: OrdersServer;
  beforeAll(async () => {
    s = await startSpec(fixture('greenhouse.yaml'));
  });
  afterAll(async () => {
    await s?.close();
  });

  it('every check passes or is skipped, with two seeds', async () => {
    for (const seed of [1, 2]) {
      const report = await testService(s.model, { baseUrl: s.url, ...s.options, seed, runs: 5 });
      // Before: requests named no version and were taken in version 1's shape (`crop` an unknown field, so every
      // create of Planting was refused); spacing_m was drawn with no regard to multipleOf 0.25; "bed referring to no
      // Bed" sent a 36-character UUID to an identifier of at most 30 characters (validation, not reference_not_found).
      expect(failures(report)).toEqual([]);
      expect(outcome(report, 'endpoints.valid-requests', 'plant')).toBe('passed');
      expect(outcome(report, 'endpoints.invalid-requests', 'plant: bed referring to no Bed')).toBe('passed');
    }
  }, 60_000);

  it('a version past its sunset is expected to be refused, not served', async () => {
    const report = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 3, runs: 2, only: ['versioning'] });
    // Before: versioning.served expected version 1 (sunset 2026-01-01) to answer 200 and failed on the correct 400.
    expect(failures(report)).toEqual([]);
    expect(outcome(report, 'versioning.sunset', '1 ')).toBe('passed');
    expect(outcome(report, 'versioning.served', '2 ')).toBe('passed');
    expect(outcome(report, 'versioning.served', '3 ')).toBe('passed');
  }, 60_000);
});

describe('pantry.yaml: an API key in the query, optional nested objects, a machine that does not name its field', () => {
  let s: OrdersServer;
  beforeAll(async () => {
    s = await startSpec(fixture('pantry.yaml'));
  });
  afterAll(async () => {
    await s?.close();
  });

  it('every check passes or is skipped, with two seeds', async () => {
    for (const seed of [1, 2]) {
      const report = await testService(s.model, { baseUrl: s.url, ...s.options, seed, runs: 5 });
      // Before: the key (given as --header 'key: …') was never sent, so every operation was skipped; once sent,
      // "contents.grams below minimum 0" was applied to a body without `contents` (a valid body, answered 201).
      expect(failures(report)).toEqual([]);
      expect(outcome(report, 'authentication.no-credential', 'addJar')).toBe('passed');
      expect(outcome(report, 'endpoints.invalid-requests', 'addJar: contents.grams below minimum 0')).toBe('passed');
      expect(outcome(report, 'endpoints.invalid-requests', 'addJar: refills[0].grams below minimum 1')).toBe('passed');
      // Before: skipped, "no transition operations serve this machine" (the machine names no field).
      expect(outcome(report, 'states.sequences', 'Jar (status)')).toBe('passed');
    }
  }, 60_000);

  it('a reproduction names the key in the query, where it is sent, not as a header', () => {
    const client = new TestClient({ baseUrl: s.url, maxRequests: 1, deadline: Date.now() + 1000, queryCredentials: ['key'] });
    const curl = client.curl({ method: 'GET', path: '/jars?limit=2', headers: { Key: 'k_123' } });
    expect(curl).toContain(`'${s.url}/jars?limit=2&key=k_123'`);
    expect(curl).not.toContain('-H');
  });
});
