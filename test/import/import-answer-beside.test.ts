// An answer that is a resource with optional members added beside it (Bump.sh's train-travel: `allOf: [$ref Booking,
// { properties: { links: { self } } }]` on the create and the read): imported as the resource's create and read,
// each added member said where it is (import-approximated), where it had been two custom operations answering 501
// (docs/import.md, "Members added beside a resource"). Required members, members the resource names, and a resource
// closed to other members keep the operation custom, as the answer is then no answer of the resource.
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { startService } from '../runtime/helpers.js';

type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const answer = (schema: unknown) => ({ description: 'ok', content: { 'application/json': { schema } } });
const idParam = [{ name: 'bookingId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }];
const LINKS = { type: 'object', properties: { self: { type: 'string', format: 'uri' } } };

function doc(options: { beside?: Json; booking?: Json } = {}): Json {
  const beside = options.beside ?? { properties: { links: LINKS } };
  const withLinks = { allOf: [ref('Booking'), beside] };
  return {
    openapi: '3.1.0',
    info: { title: 'trains', version: '1' },
    paths: {
      '/bookings': {
        get: { operationId: 'listBookings', responses: { '200': answer({ type: 'array', items: ref('Booking') }) } },
        post: {
          operationId: 'createBooking',
          requestBody: { required: true, content: { 'application/json': { schema: ref('Booking') } } },
          responses: { '201': answer(withLinks) },
        },
      },
      '/bookings/{bookingId}': {
        get: { operationId: 'getBooking', parameters: idParam, responses: { '200': answer(withLinks), '404': { description: 'none' } } },
        delete: { operationId: 'deleteBooking', parameters: idParam, responses: { '204': { description: 'gone' } } },
      },
    },
    components: {
      schemas: {
        Booking: options.booking ?? {
          type: 'object',
          required: ['id', 'passenger_name'],
          properties: {
            id: { type: 'string', format: 'uuid', readOnly: true },
            passenger_name: { type: 'string' },
            has_dog: { type: 'boolean' },
          },
        },
      },
    },
  };
}

const LINKS_AT = '/paths/~1bookings~1{bookingId}/get/responses/200/content/application~1json/schema/allOf/1/properties/links';

describe('an answer adding optional members beside a resource', () => {
  it("is the resource's create and read, each added member said at its place, and served", async () => {
    const r = await importOpenApiDocument(doc(), 'trains.json');
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const ops = r.document!.endpoints!.operations!;
    expect(ops.createBooking).toMatchObject({ action: 'create', resource: 'Booking' });
    expect(ops.getBooking).toMatchObject({ action: 'read', resource: 'Booking' });
    const said = r.diagnostics.filter((d) => d.code === 'import-approximated' && d.message.includes('added beside Booking'));
    expect(said.map((d) => d.pointer).sort()).toEqual([LINKS_AT, LINKS_AT.replace('~1{bookingId}/get/responses/200', '/post/responses/201')].sort());
    expect(said[0]!.message).toContain("the answer's member `links`, added beside Booking is imported as Booking's answer without it");
    expect(r.diagnostics.filter((d) => d.code === 'import-custom-operation')).toEqual([]);

    const s = await startService(r.compiled!.model!);
    try {
      const made = await s.call('POST', '/bookings', { passenger_name: 'Ada', has_dog: true });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const id = (made.body as { id: string }).id;
      const read = await s.call('GET', `/bookings/${id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ id, passenger_name: 'Ada', has_dog: true });
    } finally {
      await s.close();
    }
  });

  it('stays custom where a member is required, the resource names it, or the resource is closed to other members', async () => {
    const cases: { name: string; d: Json }[] = [
      { name: 'required', d: doc({ beside: { required: ['links'], properties: { links: LINKS } } }) },
      { name: 'named by the resource', d: doc({ beside: { properties: { has_dog: { type: 'boolean' } } } }) },
      {
        name: 'closed',
        d: doc({
          booking: {
            type: 'object',
            additionalProperties: false,
            required: ['id', 'passenger_name'],
            properties: { id: { type: 'string', format: 'uuid', readOnly: true }, passenger_name: { type: 'string' } },
          },
        }),
      },
    ];
    for (const c of cases) {
      const r = await importOpenApiDocument(c.d, 'trains.json');
      const ops = r.document!.endpoints!.operations!;
      expect(ops.getBooking?.action, c.name).toBe('custom');
      expect(ops.createBooking?.action, c.name).toBe('custom');
      expect(
        r.diagnostics.some((d) => d.message.includes('added beside')),
        c.name,
      ).toBe(false);
    }
  });
});
