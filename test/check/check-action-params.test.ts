// Declared query parameters and headers on built-in actions (docs/format.md, "Parameters"): allowed (before:
// param-not-custom), held to the same rules as a custom operation's, and refused where the action reads the name
// itself (param-reserved): a list's paging parameters, `sort` and filters, If-Match / If-None-Match under etag.
import { describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';

const spec = (operations: string, etag = false) => `servicespec: 1
resources:
  Order:
${etag ? '    etag: true\n' : ''}    fields:
      id: { type: uuid }
      status: { type: string }
endpoints:
  operations:
${operations}
errors:
  codes:
    any: { status: 400, when: [validation, malformed_request, missing_resource, route_not_found, method_not_allowed, headers_too_large, body_too_large, unsupported_media_type, internal, precondition_failed] }
`;

const found = (text: string) =>
  compileSpecText(text)
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => [d.code, d.pointer]);

describe('declared parameters of built-in actions', () => {
  it('are allowed on every action, with the rules of a custom operation', () => {
    expect(
      found(
        spec(`    readOrder: { method: GET, path: "/orders/{id}", action: read, resource: Order, headers: { Xero-Tenant-Id: { type: uuid } }, query: { expand: { type: array, items: { type: string }, optional: true } } }
    createOrder: { method: POST, path: /orders, action: create, resource: Order, headers: { X-Request-Source: { type: enum, values: [web, app], optional: true } } }
    deleteOrder: { method: DELETE, path: "/orders/{id}", action: delete, resource: Order, headers: { Xero-Tenant-Id: { type: uuid } } }
    listOrders: { method: GET, path: /orders, action: list, resource: Order, filter: [status], query: { pretty: { type: boolean, optional: true } } }`),
      ),
    ).toEqual([]);
    expect(found(spec(`    readOrder: { method: GET, path: "/orders/{id}", action: read, resource: Order, headers: { X-Blob: { type: json } } }`))).toEqual([
      ['param-type-invalid', '/endpoints/operations/readOrder/headers/X-Blob/type'],
    ]);
    expect(
      found(
        spec(
          `    readOrder: { method: GET, path: "/orders/{id}", action: read, resource: Order, headers: { X-Tag: { type: string }, x-tag: { type: string } } }`,
        ),
      ),
    ).toEqual([['param-duplicate', '/endpoints/operations/readOrder/headers/x-tag']]);
  });

  it("refuses a name the action reads itself: a list's filter, `sort`, paging parameter; If-Match and If-None-Match under etag", () => {
    expect(
      found(
        spec(
          `    listOrders: { method: GET, path: /orders, action: list, resource: Order, filter: [status], paging: { style: offset }, query: { status: { type: string, optional: true }, sort: { type: string, optional: true }, offset: { type: integer, optional: true } } }`,
        ),
      ),
    ).toEqual([
      ['param-reserved', '/endpoints/operations/listOrders/query/status'],
      ['param-reserved', '/endpoints/operations/listOrders/query/sort'],
      ['param-reserved', '/endpoints/operations/listOrders/query/offset'],
    ]);
    expect(
      found(
        spec(
          `    readOrder: { method: GET, path: "/orders/{id}", action: read, resource: Order, headers: { If-None-Match: { type: string, optional: true } } }
    updateOrder: { method: PATCH, path: "/orders/{id}", action: update, resource: Order, headers: { If-Match: { type: string, optional: true } } }`,
          true,
        ),
      ),
    ).toEqual([
      ['param-reserved', '/endpoints/operations/readOrder/headers/If-None-Match'],
      ['param-reserved', '/endpoints/operations/updateOrder/headers/If-Match'],
    ]);
    // Without etag the action reads neither: they are the operation's own.
    expect(
      found(
        spec(
          `    updateOrder: { method: PATCH, path: "/orders/{id}", action: update, resource: Order, headers: { If-Match: { type: string, optional: true } } }`,
        ),
      ),
    ).toEqual([]);
  });
});
