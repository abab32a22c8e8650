// A spec using unions everywhere they may be: a resource field (tagged), a request body (untagged) and a response
// body (tagged, with a tag other than the variant's name). Shared by the union tests of every area.
import { CATCH_ALL_ERRORS } from '../check/helpers.js';

export const UNION_SPEC = `servicespec: 1
purpose: { name: Payments }
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
              holder: { type: string, optional: true }
          bank_transfer:
            tag: bank
            fields:
              iban: { type: string, minLength: 15 }
endpoints:
  operations:
    createPayment: { method: POST, path: /payments, action: create, resource: Payment }
    getPayment: { method: GET, path: '/payments/{id}', action: read, resource: Payment }
    listPayments: { method: GET, path: /payments, action: list, resource: Payment }
    quote:
      method: POST
      path: /quotes
      action: custom
      handler: quote
      request:
        variants:
          by_weight: { fields: { grams: { type: integer, minimum: 1 } } }
          by_volume: { fields: { litres: { type: number } } }
      response:
        discriminator: type
        variants:
          Quote:
            tag: quote
            fields: { price: { type: integer } }
          Refusal:
            tag: refusal
            fields: { reason: { type: string } }
authentication:
  default: none
${CATCH_ALL_ERRORS}`;
