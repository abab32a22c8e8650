// A Shopify-style spec whose create, updates, replace and transition take `{ "product": { … } }` and answer in the
// same wrapper (request_envelope and envelope): shared by the runtime, export and tester tests.
import { PLAIN_ERRORS } from './specs.js';

export const WRAPPED_SPEC = `
servicespec: 1
resources:
  Product:
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string, maxLength: 40 }
      vendor: { type: string, optional: true }
      status: { type: state }
states:
  Product:
    initial: draft
    terminal: [active]
    transitions:
      publish: { from: draft, to: active }
endpoints:
  envelope: { data: product }
  operations:
    createProduct: { method: POST, path: /products, action: create, resource: Product, request_envelope: { data: product } }
    getProduct: { method: GET, path: "/products/{id}", action: read, resource: Product }
    updateProduct: { method: PATCH, path: "/products/{id}", action: update, resource: Product, request_envelope: { data: product } }
    patchProduct: { method: PATCH, path: "/products/{id}/patch", action: update, resource: Product, request_media_type: application/merge-patch+json, request_envelope: { data: product } }
    replaceProduct: { method: PUT, path: "/products/{id}/whole", action: replace, resource: Product, request_envelope: { data: product } }
    publishProduct: { method: POST, path: "/products/{id}/publish", action: transition, transition: publish, resource: Product, request_envelope: { data: product } }
authentication:
  default: none
${PLAIN_ERRORS}    illegal: { status: 409, when: [illegal_transition] }
`;
