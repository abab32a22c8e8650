// A spec with a tagged union field, an untagged union body and a declared error body naming its roles: the
// document's and the console's tests read it.

import { yaml } from '../check/helpers.js';

export const UNION_SPEC = yaml`
  servicespec: 1
  resources:
    Payment:
      fields:
        id: { type: uuid, readOnly: true }
        amount: { type: integer, minimum: 1 }
        method:
          type: union
          discriminator: kind
          variants:
            card:
              description: A card payment.
              fields:
                number: { type: string, pattern: '^[0-9]{12,19}$' }
            bank_transfer:
              tag: bank
              fields:
                iban: { type: string, maxLength: 34 }
  endpoints:
    operations:
      createPayment: { method: POST, path: /payments, action: create, resource: Payment, status: 201, auth: none }
      listPayments: { method: GET, path: /payments, action: list, resource: Payment, auth: none }
      quote:
        method: POST
        path: /quotes
        action: custom
        handler: quote
        auth: none
        request:
          variants:
            by_weight: { fields: { grams: { type: integer, minimum: 1 } } }
            by_volume: { fields: { litres: { type: number } } }
        response: { fields: { price: { type: integer } } }
  errors:
    body:
      media_type: application/vnd.pay.error+json
      fields:
        error_code: { type: integer }
        why: { type: string }
        status: { type: integer }
        errors: { type: array, optional: true, items: { type: json } }
      code: error_code
      message: why
    codes:
      bad_input: { status: 422, title: Input breaks a rule, when: [validation, malformed_request, unsupported_media_type, body_too_large] }
      missing: { status: 404, title: No such payment, when: [missing_resource, route_not_found, method_not_allowed] }
      broken: { status: 500, when: [internal, headers_too_large, unavailable, timeout, not_implemented] }
`;
