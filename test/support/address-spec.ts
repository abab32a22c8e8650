// A spec whose resource answers its own address (`generated: address`): an Order with a read, a list and a create.
import { CATCH_ALL_ERRORS } from '../check/helpers.js';

/** The spec; `field` replaces the address field's declaration, `ops` the operations after the create. */
export function ADDRESS_SPEC(field = '{ type: uri, readOnly: true, generated: address }', ops?: string): string {
  const rest =
    ops ??
    `    getOrder: { method: GET, path: '/orders/{id}', action: read, resource: Order }
    listOrders: { method: GET, path: /orders, action: list, resource: Order }`;
  return `servicespec: 1
purpose: { summary: Orders that say where they live }
resources:
  Order:
    identifier: id
    fields:
      id: { type: string, readOnly: true }
      total: { type: integer }
      url: ${field}
endpoints:
  operations:
    createOrder: { method: POST, path: /orders, action: create, resource: Order }
${rest}
${CATCH_ALL_ERRORS}`;
}
