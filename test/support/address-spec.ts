// A spec whose resource answers its own address (`generated: address`): an Order with a read, a list and a create.
const ERRORS = `errors:
  codes:
    invalid: { status: 422, when: [validation, malformed_request, unsupported_media_type] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
`;

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
    identifier_source: client
    fields:
      id: { type: string, maxLength: 40 }
      total: { type: integer }
      url: ${field}
endpoints:
  operations:
    createOrder: { method: POST, path: /orders, action: create, resource: Order }
${rest}
${ERRORS}`;
}
