// The tester as its users run it, OpenAPI first: fixtures/shipments.openapi.yaml (a warehouse's shipments, written
// by hand as OpenAPI 3.0: a server-given read-only id, a pattern, maxLength, an enum, a nullable field, a number with
// a minimum, a date-time, POST 201 / GET / PUT / PATCH / DELETE 204, an offset-paged `{items, total}` list, an API
// key in X-API-Key, its own `{ "error": { "code", "message" } }` body) imported as `servicespec import openapi`
// does, nothing edited, and run against fixtures/shipments-server.mjs, a hand-written node:http service of the
// document with faults that can be planted one at a time (shipments-sweep.ts). The faithful server must pass; each
// fault is run with only the checks that name it, which must fail. The faults marked "main let through" passed a
// default run of the tester before this file (bench/tester-shipments-sweep.ts, docs/testing.md).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { failedChecks, loadShipments, runShipments } from './shipments-sweep.js';

describe('the Shipments service, by hand from an OpenAPI document', () => {
  it('imports node: modules only', () => {
    const text = readFileSync(new URL('./fixtures/shipments-server.mjs', import.meta.url), 'utf8');
    const imports = [...text.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    for (const i of imports) expect(i).toMatch(/^node:/);
  });

  it('without a fault passes a default run (seed 1)', async () => {
    const report = await runShipments([], { seed: 1 });
    const failed = report.results.filter((r) => r.outcome === 'failed');
    expect(failed.map((r) => ({ check: r.check, target: r.target, expected: r.failure?.expected, actual: r.failure?.actual }))).toEqual([]);
    expect(report.verdict).toBe('passed');
    // The refusals the document's codes answer were checked, though the imported codes name no condition.
    for (const check of ['endpoints.invalid-requests', 'errors.missing-object', 'authentication.no-credential', 'authentication.bad-credential'])
      expect(report.results.filter((r) => r.check === check && r.outcome === 'passed').length, check).toBeGreaterThan(0);
  }, 60_000);

  it('asks no Location of the create: the document declares none on its 201 (imported as `location: false`)', async () => {
    const report = await runShipments([], { seed: 1, only: ['endpoints'] });
    expect(failedChecks(report)).toEqual([]);
    expect(report.results.filter((r) => r.check === 'endpoints.location')).toEqual([]);
  }, 60_000);
});

/**
 * Faults, grouped by the checks that catch them (`only` narrows the run; empty: a default run, the checks of
 * answers' shapes running with the requests that get them); `before` marks those main's tester let through, and
 * those it caught by other checks only (these tests fail on main too).
 */
const CAUGHT: { fault: string; only: string[]; check: string; expected?: RegExp; before?: 'main let through' | 'main: other checks' }[] = [
  { fault: 'create-200', only: ['createShipment'], check: 'endpoints.status' },
  { fault: 'missing-field', only: [], check: 'resources.response-shape' },
  { fault: 'id-number', only: [], check: 'resources.response-shape' },
  { fault: 'enum-undeclared', only: [], check: 'resources.response-shape' },
  { fault: 'null-non-nullable', only: [], check: 'resources.response-shape' },
  { fault: 'datetime-not-rfc3339', only: [], check: 'resources.response-shape' },
  { fault: 'malformed-500', only: [], check: 'endpoints.no-server-error', before: 'main: other checks' },
  // A malformed identifier was sent only where a code declares missing_resource or validation: the operation's own
  // 404 now holds the answer.
  { fault: 'long-id-500', only: ['errors.malformed-id'], check: 'errors.malformed-id', expected: /malformed identifier/, before: 'main let through' },
  // The imported codes name no condition (validation, missing_resource, …): every refusal was skipped as not shown.
  // Now the operation's own codes of the status HTTP gives the refusal answer it (TestContext.refusal).
  {
    fault: 'required-accepted',
    only: ['endpoints.invalid-requests'],
    check: 'endpoints.invalid-requests',
    expected: /description missing \(required\)/,
    before: 'main let through',
  },
  {
    fault: 'max-length',
    only: ['endpoints.invalid-requests'],
    check: 'endpoints.invalid-requests',
    expected: /description longer than/,
    before: 'main let through',
  },
  { fault: 'pattern-ignored', only: ['endpoints.invalid-requests'], check: 'endpoints.invalid-requests', expected: /sku/, before: 'main let through' },
  { fault: 'minimum-ignored', only: ['endpoints.invalid-requests'], check: 'endpoints.invalid-requests', expected: /weight_kg/, before: 'main let through' },
  { fault: 'enum-not-enforced', only: ['endpoints.invalid-requests'], check: 'endpoints.invalid-requests', expected: /status/, before: 'main let through' },
  // A number written as text was no mutation: `"1"` for an integer now is.
  {
    fault: 'wrong-type-accepted',
    only: ['endpoints.invalid-requests'],
    check: 'endpoints.invalid-requests',
    expected: /quantity as the string "1", of the wrong type/,
    before: 'main let through',
  },
  {
    fault: 'error-no-code',
    only: ['endpoints.invalid-requests'],
    check: 'endpoints.invalid-requests',
    expected: /bad_request \(400\) or validation_failed \(422\)/,
    before: 'main let through',
  },
  { fault: 'error-text-plain', only: [], check: 'errors.media-type' },
  { fault: 'wrong-404-code', only: ['errors.missing-object'], check: 'errors.missing-object', expected: /not_found \(404\)/, before: 'main let through' },
  { fault: 'missing-200-null', only: ['errors.missing-object'], check: 'errors.missing-object', expected: /not_found \(404\)/, before: 'main: other checks' },
  // A read after a delete was held to the declared missing_resource code only: now to the read's own 404.
  {
    fault: 'read-after-delete',
    only: ['endpoints.valid-requests'],
    check: 'endpoints.valid-requests',
    expected: /a deleted object is not found/,
    before: 'main let through',
  },
  { fault: 'nullable-refused', only: ['endpoints.valid-requests'], check: 'endpoints.valid-requests' },
  { fault: 'patch-replaces', only: ['endpoints.valid-requests'], check: 'endpoints.valid-requests' },
  { fault: 'patch-not-stored', only: ['endpoints.valid-requests'], check: 'endpoints.valid-requests' },
  { fault: 'put-not-stored', only: ['endpoints.valid-requests'], check: 'endpoints.valid-requests' },
  { fault: 'delete-200-body', only: ['deleteShipment'], check: 'endpoints.status' },
  { fault: 'limit-ignored', only: ['endpoints.list-edges'], check: 'endpoints.list-edges' },
  // The parameter's `maximum: 50` was imported as page_size.max with over_max not shown: limits.page-size was not
  // applicable. A page size over the maximum breaks the parameter's schema: over_max: reject.
  { fault: 'limit-max-ignored', only: ['limits.page-size'], check: 'limits.page-size', before: 'main let through' },
  { fault: 'offset-off-by-one', only: ['endpoints.list-paging'], check: 'endpoints.list-paging' },
  { fault: 'total-wrong', only: ['endpoints.list-paging'], check: 'endpoints.list-paging' },
  { fault: 'total-string', only: ['endpoints.list-paging'], check: 'endpoints.list-paging' },
  { fault: 'success-text-plain', only: [], check: 'endpoints.media-type' },
  // A credential left out or never issued was held to a declared missing_credential / invalid_credential code only,
  // and passed without one: now to the operation's 401 (or at least no success, Schemathesis' ignored_auth).
  {
    fault: 'no-key-accepted',
    only: ['authentication.no-credential'],
    check: 'authentication.no-credential',
    expected: /unauthorized \(401\)/,
    before: 'main let through',
  },
  {
    fault: 'any-key-accepted',
    only: ['authentication.bad-credential'],
    check: 'authentication.bad-credential',
    expected: /unauthorized \(401\)/,
    before: 'main let through',
  },
  // additionalProperties: false on Shipment and ShipmentPatch is now imported (unknown_fields: refuse), so an unknown
  // member is sent, and the server keeping it (201) is caught.
  {
    fault: 'unknown-echoed',
    only: ['endpoints.invalid-requests'],
    check: 'endpoints.invalid-requests',
    expected: /an unknown field/,
    before: 'main let through',
  },
];

describe('each planted fault, caught by the check that names it', () => {
  for (const f of CAUGHT) {
    it(`${f.fault}${f.before ? ` (${f.before})` : ''}: ${f.check} fails`, async () => {
      const report = await runShipments([f.fault], { seed: 1, ...(f.only.length > 0 ? { only: f.only } : {}) });
      expect(failedChecks(report)).toContain(f.check);
      if (f.expected) {
        const failures = report.results.filter((r) => r.check === f.check && r.outcome === 'failed').map((r) => `${r.target} ${r.failure!.expected}`);
        expect(failures.join('\n')).toMatch(f.expected);
      }
    }, 60_000);
  }

  it('every fault the server can plant is asserted caught, or named as let through', async () => {
    const { FAULTS } = await loadShipments();
    expect(Object.keys(FAULTS).sort()).toEqual(CAUGHT.map((f) => f.fault).sort());
  });
});
