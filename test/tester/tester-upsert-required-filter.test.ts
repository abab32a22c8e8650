// A resource made by an upsert's PUT (no create) under a list with a required filter, served by `serve` itself,
// failed or went unchecked three ways: endpoints.list-paging expected every object of the run on the page its
// required filter names (`?site=south`), those made or replaced with another site too; endpoints.invalid-requests
// sent the replace and the update a body holding the client-given identifier, which only a create writes, so its
// valid body was refused and no probe ran (INCOMPLETE); and limits.page-size found no list "whose resource can be
// created", an upsert making none (an outside sweep's lockers spec).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { PLAIN_ERRORS } from '../support/specs.js';
import { startSpecText, type OrdersServer } from './helpers.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText(
    'lockers.yaml',
    `servicespec: 1
resources:
  Booking:
    identifier_source: client
    fields:
      id: { type: string, pattern: '^BK[0-9]{6}$' }
      site: { type: enum, values: [north, south, east] }
      slots: { type: integer, minimum: 1, maximum: 4 }
      note: { type: string, maxLength: 50, optional: true }
endpoints:
  operations:
    getBooking: { method: GET, path: '/bookings/{id}', action: read, resource: Booking }
    putBooking: { method: PUT, path: '/bookings/{id}', action: replace, resource: Booking, upsert: true }
    patchBooking: { method: PATCH, path: '/bookings/{id}', action: update, resource: Booking }
    listBookings:
      method: GET
      path: /bookings
      action: list
      resource: Booking
      filter: [site]
      required_filters: [site]
      paging: { style: limit, body: array }
authentication:
  default: none
limits:
  page_size: { default: 3, max: 5, over_max: reject }
${PLAIN_ERRORS}`,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

it('passes serve on every seed, each check run', async () => {
  for (const seed of [1, 2]) {
    const run = await testService(s.model, { baseUrl: s.url, ...s.options, seed });
    const notPassed = run.results.filter(
      (r) => r.outcome === 'failed' || (r.outcome === 'skipped' && r.notRun === true && r.check !== 'limits.body-size' && r.check !== 'limits.header-size'),
    );
    expect(notPassed.map((r) => [r.check, r.target, r.outcome, r.reason ?? r.failure?.actual])).toEqual([]);
    expect(run.results.some((r) => r.check === 'limits.page-size' && r.outcome === 'passed')).toBe(true);
    expect(run.results.some((r) => r.check === 'endpoints.invalid-requests' && r.target.startsWith('patchBooking: ') && r.outcome === 'passed')).toBe(true);
  }
}, 60_000);
