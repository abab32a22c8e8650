// A delete of an object already deleted is refused as missing (`serve` answers the missing_resource code). A service
// keeping tombstones that answered 204 again passed: endpoints.valid-requests read the deleted object (404) and
// errors.missing-object deleted one never made (404), never the same one twice (an outside review's bookings
// service). The delete is now sent again after it succeeded, and must get the declared missing-object answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { isObject, readJson, startHandServer, type HandServer } from '../support/hand-server.js';
import { checkedModel } from '../support/specs.js';
import { startSpecText, type OrdersServer } from './helpers.js';

const SPEC = `servicespec: 1
resources:
  Booking:
    fields:
      id: { type: uuid, readOnly: true }
      room: { type: string, minLength: 1, maxLength: 20 }
endpoints:
  operations:
    createBooking: { method: POST, path: /bookings, action: create, resource: Booking }
    getBooking: { method: GET, path: '/bookings/{id}', action: read, resource: Booking }
    deleteBooking: { method: DELETE, path: '/bookings/{id}', action: delete, resource: Booking }
authentication:
  default: none
errors:
  codes:
    invalid: { status: 422, when: [validation, malformed_request, unsupported_media_type] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
`;

type Mode = 'faithful' | 'tombstone-204' | 'tombstone-200';

function start(mode: Mode): Promise<HandServer> {
  const bookings = new Map<string, Record<string, unknown>>();
  // The fault planted: a deleted booking is kept as a tombstone, and deleting it again answers a success.
  const deleted = new Set<string>();
  return startHandServer((req, reply) => {
    const one = /^\/bookings\/([^/?]+)$/.exec(req.url);
    const id = one ? decodeURIComponent(one[1]!) : undefined;
    if (req.method === 'GET' && id !== undefined) {
      const b = bookings.get(id);
      return b ? reply.json(200, b) : reply.problem(404, 'not_found');
    }
    if (req.method === 'DELETE' && id !== undefined) {
      if (bookings.delete(id)) {
        deleted.add(id);
        return reply.json(204, undefined);
      }
      if (mode !== 'faithful' && deleted.has(id)) return mode === 'tombstone-204' ? reply.json(204, undefined) : reply.json(200, {});
      return reply.problem(404, 'not_found');
    }
    if (req.method !== 'POST' || req.url !== '/bookings') return reply.problem(404, 'not_found');
    const b = readJson(req);
    if (!isObject(b) || typeof b.room !== 'string' || [...b.room].length < 1 || [...b.room].length > 20 || Object.keys(b).length !== 1)
      return reply.problem(422, 'invalid');
    const made = { id: crypto.randomUUID(), room: b.room };
    bookings.set(made.id, made);
    reply.json(201, made, 'application/json', { location: `/bookings/${made.id}` });
  });
}

describe('a second delete of a deleted object', () => {
  const servers: Partial<Record<Mode, HandServer>> = {};
  let served: OrdersServer;
  beforeAll(async () => {
    for (const mode of ['faithful', 'tombstone-204', 'tombstone-200'] as const) servers[mode] = await start(mode);
    served = await startSpecText('bookings.yaml', SPEC);
  }, 60_000);
  afterAll(async () => {
    for (const s of Object.values(servers)) s.close();
    await served?.close();
  });
  const failed = async (mode: Mode, seed: number) =>
    (await testService(checkedModel(SPEC), { baseUrl: servers[mode]!.url, seed, only: ['deleteBooking'] })).results
      .filter((r) => r.outcome === 'failed')
      .map((r) => `${r.check} ${r.target}`);

  it.each([1, 2])('seed %i: a faithful service passes; one answering a success to the second delete fails', async (seed) => {
    expect(await failed('faithful', seed)).toEqual([]);
    expect(await failed('tombstone-204', seed)).toEqual(['endpoints.valid-requests deleteBooking']);
    // A 200 where 204 is declared is also endpoints.status's.
    expect(await failed('tombstone-200', seed)).toContain('endpoints.valid-requests deleteBooking');
  });

  it('the failure names the second delete and reproduces both', async () => {
    const r = await testService(checkedModel(SPEC), { baseUrl: servers['tombstone-204']!.url, seed: 1, only: ['deleteBooking'] });
    const f = r.results.find((x) => x.outcome === 'failed')!.failure!;
    expect(f.expected).toContain('not_found (404) answer for a second delete of the deleted object');
    expect(f.actual).toMatch(/^status 204/);
    expect(f.curl!.match(/-X DELETE/g)).toHaveLength(2);
  });

  it('serve answers the second delete 404 and passes', async () => {
    const r = await testService(served.model, { baseUrl: served.url, ...served.options, seed: 1, only: ['deleteBooking'] });
    expect(r.results.filter((x) => x.outcome === 'failed')).toEqual([]);
    expect(r.results.find((x) => x.check === 'endpoints.valid-requests')?.outcome).toBe('passed');
  }, 60_000);
});
