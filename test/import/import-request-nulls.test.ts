// A property the answer may hold as null that no request body lets be null (Stripe's PaymentIntent `customer`:
// string or null in answers, a plain string in PaymentIntentCreate) is `nullable: answers`. Before, the format had
// one nullability for both: import made it nullable in requests too (import-approximated), the served spec took a
// create's `customer: null`, and the tester sent null to a faithful service as a valid value (a payments sweep's
// five false failures).
import { describe, expect, it } from 'vitest';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { startService } from '../runtime/helpers.js';

const json = (schema: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } });
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };

const DOC = {
  openapi: '3.1.0',
  info: { title: 'Payments', version: '1' },
  paths: {
    '/payment_intents': {
      post: {
        operationId: 'createPaymentIntent',
        requestBody: { required: true, content: json('PaymentIntentCreate') },
        responses: { '201': { description: 'made', content: json('PaymentIntent') } },
      },
    },
    '/payment_intents/{id}': {
      get: { operationId: 'getPaymentIntent', parameters: [idParam], responses: { '200': { description: 'ok', content: json('PaymentIntent') } } },
      patch: {
        operationId: 'updatePaymentIntent',
        parameters: [idParam],
        requestBody: { required: true, content: json('PaymentIntentUpdate') },
        responses: { '200': { description: 'ok', content: json('PaymentIntent') } },
      },
    },
  },
  components: {
    schemas: {
      PaymentIntent: {
        type: 'object',
        required: ['id', 'amount', 'customer', 'description'],
        properties: {
          id: { type: 'string', format: 'uuid', readOnly: true },
          amount: { type: 'integer', minimum: 1 },
          customer: { type: ['string', 'null'] },
          description: { type: ['string', 'null'] },
        },
      },
      PaymentIntentCreate: {
        type: 'object',
        required: ['amount', 'customer', 'description'],
        properties: { amount: { type: 'integer', minimum: 1 }, customer: { type: 'string' }, description: { type: 'string' } },
      },
      PaymentIntentUpdate: {
        type: 'object',
        properties: { amount: { type: 'integer', minimum: 1 }, customer: { type: 'string' }, description: { type: ['string', 'null'] } },
      },
    },
  },
};

describe('a null the answer may hold and no request may send', () => {
  it('imports as `nullable: answers`; one some request may send stays `nullable: true`, the others said', async () => {
    const r = await importOpenApiDocument(structuredClone(DOC), 'payments.json');
    const fields = r.document!.resources!.PaymentIntent!.fields!;
    expect([fields.customer!.nullable, fields.description!.nullable, fields.amount!.nullable]).toEqual(['answers', true, undefined]);
    const said = r.diagnostics.filter((d) => d.code === 'import-approximated' && d.message.includes('(not nullable)'));
    expect(said.map((d) => d.pointer)).toEqual(['/components/schemas/PaymentIntentCreate/properties/description']);
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error' || d.code === 'nullable-answers-unused')).toEqual([]);
  });

  it('served: a request sending it null is refused at its pointer, the other null is taken', async () => {
    const r = await importOpenApiDocument(structuredClone(DOC), 'payments.json');
    const s = await startService(r.compiled!.checked!);
    try {
      const refused = await s.call('POST', '/payment_intents', { amount: 5, customer: null, description: 'x' });
      expect(refused.body.code ?? refused.body.title).toBeDefined();
      expect(refused.status).toBe(422);
      expect(JSON.stringify(refused.body)).toContain('/customer');
      const made = await s.call('POST', '/payment_intents', { amount: 5, customer: 'cus_1', description: 'x' });
      expect(made.status).toBe(201);
      const id = made.body.id as string;
      expect((await s.call('PATCH', `/payment_intents/${id}`, { customer: null })).status).toBe(422);
      const cleared = await s.call('PATCH', `/payment_intents/${id}`, { description: null });
      expect([cleared.status, cleared.body.description, cleared.body.customer]).toEqual([200, null, 'cus_1']);
    } finally {
      await s.close();
    }
  });

  it('exports nullable in answers only and imports back the same', async () => {
    const r = await importOpenApiDocument(structuredClone(DOC), 'payments.json');
    const exported = exportOpenApi(r.compiled!.checked!).document;
    const text = JSON.stringify(exported);
    expect(text).toContain('"nullable":"answers"');
    const again = await importOpenApiDocument(JSON.parse(text), 'again.json');
    expect(again.document!.resources!.PaymentIntent!.fields!.customer!.nullable).toBe('answers');
    expect(again.document!.resources!.PaymentIntent!.fields!.description!.nullable).toBe(true);
  });
});
