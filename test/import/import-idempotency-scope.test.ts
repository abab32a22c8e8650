// An idempotency header the document names on some operations only (Cal.com's Idempotency-Key on POST /bookings) is
// the spec's endpoints.idempotency, and every other POST, PUT, PATCH and DELETE says `idempotent: false`. Before,
// the format's default made every one take a key, and the tester failed a faithful service's second 201 to a
// webhook create sent twice with one key (a booking sweep's false failure).
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { startService } from '../runtime/helpers.js';

const json = (schema: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } });
const key = { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 64 } };

const DOC = {
  openapi: '3.0.3',
  info: { title: 'Bookings', version: '1' },
  paths: {
    '/bookings': {
      post: {
        operationId: 'createBooking',
        parameters: [key],
        requestBody: { required: true, content: json('Note') },
        responses: { '201': { description: 'made', content: json('Note') } },
      },
    },
    '/webhooks': {
      post: {
        operationId: 'createWebhook',
        requestBody: { required: true, content: json('Note') },
        responses: { '201': { description: 'made', content: json('Note') } },
      },
    },
  },
  components: {
    schemas: { Note: { type: 'object', required: ['id', 'text'], properties: { id: { type: 'string', readOnly: true }, text: { type: 'string' } } } },
  },
};

describe('an idempotency header some operations name', () => {
  it('is taken by those alone: the others say idempotent: false, and a key sent to them is not replayed', async () => {
    const r = await importOpenApiDocument(structuredClone(DOC), 'bookings.json');
    const ops = r.document!.endpoints!.operations!;
    expect(r.document!.endpoints!.idempotency).toEqual({ header: 'Idempotency-Key' });
    expect([ops.createBooking!.idempotent, ops.createWebhook!.idempotent]).toEqual([undefined, false]);
    const s = await startService(r.compiled!.checked!);
    try {
      const twice = async (path: string) => {
        const a = await s.call('POST', path, { text: 'x' }, { 'idempotency-key': `k-${path}` });
        const b = await s.call('POST', path, { text: 'x' }, { 'idempotency-key': `k-${path}` });
        return [a.status, b.status, a.body.id === b.body.id];
      };
      expect(await twice('/bookings')).toEqual([201, 201, true]);
      expect(await twice('/webhooks')).toEqual([201, 201, false]);
    } finally {
      await s.close();
    }
  });
});
