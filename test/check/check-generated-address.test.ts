// `generated: address`: a resource's own field the service sets to the object's read path. Before, the schema
// refused the value (only create_time and update_time), so an OpenAPI self link had no place in the format.
import { describe, expect, it } from 'vitest';
import { modelToSpec } from '../../src/export/model-to-spec.js';
import { compileSpecText } from '../../src/program.js';
import { ADDRESS_SPEC } from '../support/address-spec.js';

const codes = (text: string) =>
  compileSpecText(text)
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => `${d.severity} ${d.code} ${d.pointer ?? ''}`);

describe('generated: address', () => {
  it('is taken on a read-only uri or string field of a resource with a read, and kept in the spec', () => {
    expect(codes(ADDRESS_SPEC())).toEqual([]);
    expect(codes(ADDRESS_SPEC('{ type: string, readOnly: true, generated: address }'))).toEqual([]);
    const m = compileSpecText(ADDRESS_SPEC()).model!;
    expect(m.resources[0]!.fields.find((f) => f.name === 'url')!.generated).toBe('address');
    expect(modelToSpec(m).resources!.Order!.fields!.url).toEqual({ type: 'uri', readOnly: true, generated: 'address' });
  });

  it('on another type, a writable field or a resource without a read is generated-address-invalid', () => {
    const at = 'error generated-address-invalid /resources/Order/fields/url/generated';
    expect(codes(ADDRESS_SPEC('{ type: integer, readOnly: true, generated: address }'))).toEqual([at]);
    expect(codes(ADDRESS_SPEC('{ type: uri, generated: address }'))).toEqual([at]);
    const noRead = compileSpecText(ADDRESS_SPEC(undefined, '    listOrders: { method: GET, path: /orders, action: list, resource: Order }'));
    expect(noRead.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.code, d.message])).toEqual([
      ['generated-address-invalid', 'Order.url: `generated: address` needs a `read` operation of Order (the address is its path)'],
    ]);
  });

  it('used as a stored value (unique, a filter, a sort, a path binding) is generated-address-invalid: serve had no column for it, and a sort answered 500', () => {
    const at = 'error generated-address-invalid /resources/Order/fields/url/generated';
    expect(codes(ADDRESS_SPEC('{ type: uri, readOnly: true, generated: address, unique: true }'))).toEqual([at]);
    const read = `    getOrder: { method: GET, path: '/orders/{id}', action: read, resource: Order }`;
    for (const list of ['filter: [url]', 'sort: [url]']) {
      const r = compileSpecText(ADDRESS_SPEC(undefined, `${read}\n    listOrders: { method: GET, path: /orders, action: list, resource: Order, ${list} }`));
      expect(r.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.code, d.message])).toEqual([
        ['generated-address-invalid', 'Order.url: `generated: address` is never stored, so operation `listOrders` cannot filter, sort or bind a path by it'],
      ]);
    }
  });

  it("on a nested member, a parameter or a shape's field is generated-address-invalid", () => {
    const nested = ADDRESS_SPEC('{ type: object, readOnly: true, optional: true, fields: { self: { type: uri, generated: address } } }');
    expect(codes(nested)).toEqual(['error generated-address-invalid /resources/Order/fields/url/fields/self/generated']);
    // A custom operation's response is not a resource: nothing addresses it.
    const custom = ADDRESS_SPEC(
      undefined,
      `    getOrder: { method: GET, path: '/orders/{id}', action: read, resource: Order }
    ping: { method: GET, path: /ping, action: custom, response: { fields: { at: { type: uri, readOnly: true, generated: address } } } }`,
    );
    expect(codes(custom)).toContain('error generated-address-invalid /endpoints/operations/ping/response/fields/at/generated');
    // A parameter has no `generated` at all (the schema's).
    const param = ADDRESS_SPEC(
      undefined,
      `    getOrder: { method: GET, path: '/orders/{id}', action: read, resource: Order }
    listOrders: { method: GET, path: /orders, action: list, resource: Order, query: { back: { type: uri, optional: true, generated: address } } }`,
    );
    expect(codes(param)).toEqual(['error unknown-key /endpoints/operations/listOrders/query/back/generated']);
  });
});
