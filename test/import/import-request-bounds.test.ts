// A bound a create's request states and the answer does not (a Stripe-like PaymentIntentCreate's
// `customer: { maxLength: 64 }` beside PaymentIntent's plain nullable `customer`) becomes the field's, said with
// import-approximated: the values the field holds come from requests. Before, it was lost with no diagnostic, so a
// served create took 80 characters and the tester sent them to a faithful service as valid (a false failure).
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';

const json = (schema: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } });

const doc = (answerCustomer: Record<string, unknown>) => ({
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
      get: {
        operationId: 'getPaymentIntent',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'ok', content: json('PaymentIntent') } },
      },
    },
  },
  components: {
    schemas: {
      PaymentIntent: {
        type: 'object',
        required: ['id', 'amount'],
        properties: {
          id: { type: 'string', readOnly: true },
          amount: { type: 'integer' },
          customer: { type: ['string', 'null'], ...answerCustomer },
        },
      },
      PaymentIntentCreate: {
        type: 'object',
        required: ['amount'],
        properties: { amount: { type: 'integer', minimum: 1 }, customer: { type: 'string', maxLength: 64 } },
      },
    },
  },
});

describe("a request's own bounds", () => {
  it("become the field's where the answer states none, said at the request property", async () => {
    const r = await importOpenApiDocument(doc({}) as unknown, 'payments.json');
    const fields = r.document!.resources!.PaymentIntent!.fields!;
    expect(fields.customer).toMatchObject({ maxLength: 64 });
    expect(fields.amount).toMatchObject({ minimum: 1 });
    const said = r.diagnostics.filter((d) => d.code === 'import-approximated' && /request property `(customer|amount)` \((maxLength|minimum)/.test(d.message));
    expect(said.map((d) => d.pointer).sort()).toEqual([
      '/components/schemas/PaymentIntentCreate/properties/amount',
      '/components/schemas/PaymentIntentCreate/properties/customer',
    ]);
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it("the answer's own bound is kept where both state one, and the difference said", async () => {
    const r = await importOpenApiDocument(doc({ maxLength: 100 }) as unknown, 'payments.json');
    expect(r.document!.resources!.PaymentIntent!.fields!.customer).toMatchObject({ maxLength: 100 });
    expect(r.diagnostics.some((d) => d.code === 'import-approximated' && d.message.includes("with the answer's maxLength 100"))).toBe(true);
  });
});
