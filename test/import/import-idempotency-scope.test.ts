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

// A reused key answered as the document describes it (an orders sweep's 409 "Idempotency key reused"): the import gave
// idempotency_conflict to the format's status (422, else the one 400), so serve answered a status the document never
// gives that refusal. The code whose description names idempotency takes it; of two, "in progress" takes the other.
describe('an error response described as a reused idempotency key', () => {
  const problem = { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } };
  const withCodes = (responses: Record<string, string>) => {
    const doc = structuredClone(DOC) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, unknown> };
    };
    doc.components.schemas.Problem = problem;
    for (const [status, description] of Object.entries(responses))
      doc.paths['/bookings']!.post!.responses[status] = { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Problem' } } } };
    return doc;
  };
  const when = (r: Awaited<ReturnType<typeof importOpenApiDocument>>) =>
    Object.fromEntries(Object.entries(r.document!.errors!.codes!).map(([name, c]) => [name, [c.status, c.when ?? []]]));

  it('a 409 "Idempotency key reused" takes idempotency_conflict; served, a key reused with another body answers it', async () => {
    const r = await importOpenApiDocument(withCodes({ '400': 'Invalid request.', '409': 'Idempotency key reused with a different request.' }), 'b.json');
    const codes = when(r);
    const reused = Object.entries(codes).find(([, [status]]) => status === 409)!;
    expect(reused[1][1]).toContain('idempotency_conflict');
    expect(Object.entries(codes).filter(([, [, w]]) => (w as string[]).includes('idempotency_conflict'))).toHaveLength(1);
    const s = await startService(r.compiled!.checked!);
    try {
      expect((await s.call('POST', '/bookings', { text: 'x' }, { 'idempotency-key': 'k1' })).status).toBe(201);
      const again = await s.call('POST', '/bookings', { text: 'y' }, { 'idempotency-key': 'k1' });
      expect([again.status, again.body.code]).toEqual([409, reused[0]]);
    } finally {
      await s.close();
    }
  });

  it('of two, the one "in progress" takes idempotency_in_progress; none described so, the status decides as before', async () => {
    const two = when(
      await importOpenApiDocument(
        withCodes({ '409': 'A request with this idempotency key is still in progress.', '422': 'Idempotency key reused with another payload.' }),
        'b.json',
      ),
    );
    const of = (c: string) =>
      Object.entries(two)
        .filter(([, [, w]]) => (w as string[]).includes(c))
        .map(([, [status]]) => status);
    expect([of('idempotency_in_progress'), of('idempotency_conflict')]).toEqual([[409], [422]]);
    const plain = when(await importOpenApiDocument(withCodes({ '409': 'Conflict.', '422': 'Unprocessable.' }), 'b.json'));
    const ofPlain = (c: string) =>
      Object.entries(plain)
        .filter(([, [, w]]) => (w as string[]).includes(c))
        .map(([, [status]]) => status);
    expect([ofPlain('idempotency_in_progress'), ofPlain('idempotency_conflict')]).toEqual([[409], [422]]);
  });
});
