// A default on a create request's own schema (EventCreate's `capacity: { default: 50 }`, where Event requires
// capacity in every answer) is the value the service gives the field a create leaves out: imported as the field's
// default, served so (201 and capacity 50). Before, only the response schema's defaults were read: the field became
// optionalInRequests, a named gap, and serve answered such a create 501 (found by an outside sweep).
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { startService } from '../runtime/helpers.js';

const DOC = {
  openapi: '3.1.0',
  info: { title: 'Events', version: '1' },
  paths: {
    '/events': {
      post: {
        operationId: 'createEvent',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/EventCreate' } } } },
        responses: { '201': { description: 'made', content: { 'application/json': { schema: { $ref: '#/components/schemas/Event' } } } } },
      },
    },
    '/events/{id}': {
      get: {
        operationId: 'getEvent',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Event' } } } } },
      },
      put: {
        operationId: 'replaceEvent',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/EventReplace' } } } },
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Event' } } } } },
      },
    },
  },
  components: {
    schemas: {
      Event: {
        type: 'object',
        required: ['id', 'title', 'capacity', 'tags', 'room'],
        properties: {
          id: { type: 'string', format: 'uuid', readOnly: true },
          title: { type: 'string' },
          capacity: { type: 'integer', minimum: 1 },
          tags: { type: 'array', items: { type: 'string' } },
          room: { type: ['string', 'null'] },
        },
      },
      EventCreate: {
        type: 'object',
        required: ['title'],
        properties: {
          title: { type: 'string' },
          capacity: { type: 'integer', minimum: 1, default: 50 },
          tags: { type: 'array', items: { type: 'string' }, default: [] },
          room: { type: ['string', 'null'], default: null },
        },
      },
      EventReplace: {
        type: 'object',
        required: ['title'],
        properties: {
          title: { type: 'string' },
          capacity: { type: 'integer', minimum: 1 },
          tags: { type: 'array', items: { type: 'string' } },
          room: { type: ['string', 'null'] },
        },
      },
    },
  },
};

describe("a create request's own defaults", () => {
  it('are the fields’ defaults where no replace requires them: a create leaving them out answers 201 with them', async () => {
    const r = await importOpenApiDocument(structuredClone(DOC), 'events.json');
    const fields = r.document!.resources!.Event!.fields!;
    expect(
      [fields.capacity!, fields.tags!, fields.room!].map((f) => [(f as { default?: unknown }).default, f.optionalInRequests, f.requiredInRequests]),
    ).toEqual([
      [50, undefined, undefined],
      [[], undefined, undefined],
      [null, undefined, undefined],
    ]);
    expect(r.diagnostics.filter((d) => /optionalInRequests|value of a field/.test(d.message))).toEqual([]);
    const s = await startService(r.compiled!.checked!);
    try {
      const made = await s.call('POST', '/events', { title: 'Launch' });
      expect([made.status, made.body]).toEqual([201, { id: made.body.id, title: 'Launch', capacity: 50, tags: [], room: null }]);
      const replaced = await s.call('PUT', `/events/${made.body.id as string}`, { title: 'Launch', capacity: 9, tags: ['a'], room: 'B' });
      expect([replaced.status, replaced.body.capacity]).toEqual([200, 9]);
    } finally {
      await s.close();
    }
  });

  it('where a replace requires the field, it stays one creates may leave out whose value is a named gap', async () => {
    const doc = structuredClone(DOC);
    doc.components.schemas.EventReplace.required = ['title', 'capacity'];
    const r = await importOpenApiDocument(doc, 'events.json');
    const fields = r.document!.resources!.Event!.fields!;
    expect([(fields.capacity as { default?: unknown }).default, fields.capacity!.optionalInRequests]).toEqual([undefined, 'create']);
    expect((fields.tags as { default?: unknown }).default).toEqual([]);
  });
});
