// A union field under a JSON merge patch (RFC 7396): an object merges into the stored one, so the service keeps the
// stored variant's members a patch does not name. The tester says a variant whole (the other variants' members
// null) and holds the variant sent, where it sent the variant alone and failed the faithful service: a switch of
// variant was refused (the old variant's members stayed), and a variant without a required member was taken (the
// stored one filled it in).

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startSpecText, type OrdersServer } from './helpers.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText(
    'payments.yaml',
    `servicespec: 1
resources:
  Payment:
    fields:
      id: { type: uuid, readOnly: true }
      amount: { type: integer, minimum: 1 }
      note: { type: string, optional: true, maxLength: 20 }
      method:
        type: union
        discriminator: kind
        variants:
          card:
            fields:
              number: { type: string, pattern: '^[0-9]{12,19}$' }
              expiry: { type: string, optional: true, maxLength: 5 }
          bank_transfer:
            tag: bank
            fields:
              iban: { type: string, maxLength: 34 }
endpoints:
  operations:
    createPayment: { method: POST, path: /payments, action: create, resource: Payment }
    getPayment: { method: GET, path: "/payments/{id}", action: read, resource: Payment }
    patchPayment: { method: PATCH, path: "/payments/{id}", action: update, resource: Payment, request_media_type: application/merge-patch+json }
authentication:
  default: none
errors:
  body: problem
  codes:
    invalid: { status: 422, when: [validation] }
    missing: { status: 404, when: [missing_resource, route_not_found] }
    not_json: { status: 415, when: [unsupported_media_type] }
    other: { status: 400, when: [malformed_request, method_not_allowed, headers_too_large, body_too_large, internal] }
`,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

it('passes the faithful service on every seed: variants switched and refused as a merge patch leaves them', async () => {
  for (const seed of [1, 2, 3, 4]) {
    const r = await testService(s.model, { baseUrl: s.url, ...s.options, seed, only: ['endpoints'] });
    expect(
      r.results.filter((x) => x.outcome === 'failed').map((f) => `${f.check} ${f.target}: ${f.failure?.expected} | ${f.failure?.actual}`),
      `seed ${seed}`,
    ).toEqual([]);
    // The union's checks ran on the patch: every variant sent, a variant without its required member refused.
    expect(r.results.filter((x) => x.outcome === 'passed' && /patchPayment/.test(x.target)).map((x) => x.check)).toEqual(
      expect.arrayContaining(['endpoints.valid-requests', 'endpoints.union-variants', 'endpoints.input-space']),
    );
  }
}, 120_000);
