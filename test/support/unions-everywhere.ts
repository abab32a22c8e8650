// A spec with unions everywhere they may be, shared by the union export, client and console tests.
/** Unions everywhere they may be: fields (nullable, in an array), bodies (a list of them), event payloads, webhooks' `previous`. */
export const UNIONS_EVERYWHERE = `servicespec: 1
resources:
  Payment:
    fields:
      id: { type: uuid, readOnly: true }
      amount: { type: integer, minimum: 1 }
      method:
        type: union
        discriminator: kind
        variants:
          card: { fields: { number: { type: string }, holder: { type: string, optional: true, default: anon } } }
          bank_transfer: { tag: bank, fields: { iban: { type: string } } }
      backup:
        type: union
        nullable: true
        optional: true
        discriminator: kind
        variants:
          card: { fields: { number: { type: string } } }
          cash: { fields: { note: { type: string } } }
      history:
        type: array
        optional: true
        items:
          type: union
          discriminator: type
          variants:
            refund: { fields: { cents: { type: integer } } }
            dispute: { fields: { reason: { type: string } } }
endpoints:
  operations:
    createPayment: { method: POST, path: /payments, action: create, resource: Payment }
    readPayment: { method: GET, path: '/payments/{id}', action: read, resource: Payment }
    updatePayment: { method: PATCH, path: '/payments/{id}', action: update, resource: Payment }
    listPayments: { method: GET, path: /payments, action: list, resource: Payment }
    quote:
      method: POST
      path: /quotes
      action: custom
      handler: quote
      request:
        discriminator: unit
        variants:
          by_weight: { fields: { grams: { type: integer } } }
          by_volume: { fields: { litres: { type: number } } }
      response:
        list: true
        variants:
          offer: { fields: { price: { type: integer } } }
          refusal: { fields: { reason: { type: string } } }
authentication: { default: none }
events:
  delivery:
    webhook: { signing: standard-webhooks, path: /webhooks }
  kinds:
    payment.changed: { on: [create, update], payload: { resource: Payment } }
    thing.happened:
      description: Sent by a handler (nothing emits it here; a union payload is no resource's, so no \`on\`).
      payload:
        discriminator: what
        variants:
          x: { fields: { a: { type: integer } } }
          y: { fields: { b: { type: string } } }
errors:
  codes:
    invalid: { status: 400, when: [validation, malformed_request, unsupported_media_type, body_too_large, headers_too_large] }
    missing: { status: 404, when: [missing_resource, route_not_found] }
    other: { status: 405, when: [method_not_allowed] }
    broken: { status: 500, when: [internal, not_implemented] }
`;
