// endpoints.union-variants sends an update only the fields it takes (`request_fields`). It had sent the whole create
// body, the union among it, to a PATCH taking `description` alone: serve refused it (an unknown member, as the
// operation says), and so did a faithful hand-written service, and the tester failed both (an outside sweep's
// updatePayment, from a Stripe-like document).
import { describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startService } from '../runtime/helpers.js';
import { checkedModel } from '../support/specs.js';

const SPEC = (updateFields: string) => `
servicespec: 1
resources:
  Payment:
    fields:
      id: { type: uuid, readOnly: true }
      amount: { type: integer, minimum: 1 }
      description: { type: string, maxLength: 40, optional: true }
      method:
        type: union
        discriminator: type
        variants:
          card: { fields: { last4: { type: string, pattern: '^[0-9]{4}$' } } }
          bank: { fields: { iban: { type: string, maxLength: 34 } } }
endpoints:
  operations:
    createPayment: { method: POST, path: /payments, action: create, resource: Payment }
    getPayment: { method: GET, path: '/payments/{id}', action: read, resource: Payment }
    updatePayment: { method: PATCH, path: '/payments/{id}', action: update, resource: Payment, request_fields: [${updateFields}], unknown_fields: refuse }
authentication:
  default: none
errors:
  codes:
    invalid: { status: 422, when: [validation] }
    bad: { status: 400, when: [malformed_request, unsupported_media_type] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
`;

describe('endpoints.union-variants on an update taking some fields', () => {
  const run = async (spec: string) => {
    const model = checkedModel(spec);
    const s = await startService(model);
    try {
      return (await testService(model, { baseUrl: s.url, seed: 1, only: ['endpoints.union-variants'] })).results.map((r) => [r.target, r.outcome]);
    } finally {
      await s.close();
    }
  };

  it('is not run where the update does not take the union, and passes against serve', async () => {
    expect(await run(SPEC('description'))).toEqual([['createPayment', 'passed']]);
  });

  it('sends the update the fields it takes, the union among them, and passes against serve', async () => {
    expect(await run(SPEC('description, method'))).toEqual([
      ['createPayment', 'passed'],
      ['updatePayment', 'passed'],
    ]);
  });
});
