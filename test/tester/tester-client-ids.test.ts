// A resource whose creates send their own identifier (identifier_source: client): the tester's update bodies leave
// the identifier out (no request but the create writes it), so the runtime's input space passes clean; and an
// identifier the service already holds (made before the run) is drawn again, not a failed create.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { testService } from '../../src/tester/tester-run.js';
import { serveInMemory } from '../runtime/helpers.js';

const SPEC = `servicespec: 1
resources:
  Booking:
    identifier_source: client
    fields:
      id: { type: integer, minimum: 1 }
      pet_name: { type: string, minLength: 1, maxLength: 100 }
      room: { type: string, default: standard, requiredInRequests: true }
endpoints:
  operations:
    createBooking: { method: POST, path: /bookings, action: create, resource: Booking }
    getBooking: { method: GET, path: "/bookings/{id}", action: read, resource: Booking }
    listBookings: { method: GET, path: /bookings, action: list, resource: Booking }
    updateBooking: { method: PATCH, path: "/bookings/{id}", action: update, resource: Booking }
errors:
  codes:
    invalid: { status: 400, when: [validation, malformed_request] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
    conflict: { status: 409, when: [unique_conflict] }
`;

const model = compileSpecText(SPEC, 'client-ids.yaml').checked!;
let url = '';
let close: () => Promise<void> = async () => undefined;
beforeAll(async () => {
  ({ url, close } = await serveInMemory(model));
}, 60_000);
afterAll(() => close());

it('endpoints.input-space passes on the update of a resource with client-given identifiers (two seeds)', async () => {
  for (const seed of [1, 2]) {
    const r = await testService(model, { baseUrl: url, seed, runs: 2, only: ['endpoints.input-space'] });
    expect(r.results.filter((x) => x.outcome === 'failed').map((x) => [x.check, x.target, x.failure?.expected, x.failure?.actual])).toEqual([]);
    expect(r.results.filter((x) => x.outcome === 'passed').map((x) => x.target)).toEqual(expect.arrayContaining(['createBooking', 'updateBooking']));
  }
}, 120_000);

it('objects made before the run hold the small identifiers: the tester draws others, and list paging and valid creates pass', async () => {
  for (let id = 1; id <= 100; id++) {
    const r = await fetch(`${url}/bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id, pet_name: 'before', room: 'standard' }),
    });
    expect([201, 409]).toContain(r.status);
  }
  for (const seed of [1, 2, 3]) {
    const r = await testService(model, { baseUrl: url, seed, runs: 1, only: ['endpoints.list-paging', 'endpoints.valid-requests'] });
    expect(r.results.filter((x) => x.check === 'endpoints.list-paging').map((x) => [x.outcome, x.reason ?? x.failure?.actual])).toEqual([
      ['passed', undefined],
    ]);
    expect(r.results.filter((x) => x.check === 'endpoints.valid-requests' && x.target === 'createBooking').map((x) => [x.outcome, x.failure?.actual])).toEqual([
      ['passed', undefined],
    ]);
  }
}, 120_000);

it('a valid create answered unique_conflict once (an identifier taken before the run) is drawn again, not a failure', async () => {
  // In front of the service: the first create's identifier is taken just before the tester's request reaches it.
  let first = true;
  const proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const send = () =>
        fetch(`${url}${req.url ?? '/'}`, {
          method: req.method,
          headers: { 'content-type': 'application/json' },
          body: req.method === 'GET' ? undefined : body,
        });
      // the first create is sent twice: the service's own answer to a taken identifier is what the tester sees
      const twice = req.method === 'POST' && first;
      first &&= !twice;
      void (twice ? send().then(send) : send()).then(async (r) => {
        res
          .writeHead(r.status, {
            'content-type': r.headers.get('content-type') ?? 'application/json',
            ...(r.headers.get('location') ? { location: r.headers.get('location')! } : {}),
          })
          .end(Buffer.from(await r.arrayBuffer()));
      });
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  try {
    const r = await testService(model, {
      baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      seed: 1,
      runs: 1,
      only: ['endpoints.valid-requests'],
    });
    expect(first).toBe(false);
    expect(r.results.filter((x) => x.check === 'endpoints.valid-requests' && x.target === 'createBooking').map((x) => [x.outcome, x.failure?.actual])).toEqual([
      ['passed', undefined],
    ]);
  } finally {
    proxy.close();
  }
}, 120_000);
