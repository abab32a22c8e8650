// Named examples (endpoints.operations.<id>.examples) are held to the body or parameter they show, as the service
// reads it: check warns `example-invalid` at the example's value, naming the first mismatch.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it, vi } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { CATCH_ALL_ERRORS } from './helpers.js';

const spec = (examples: string, extra = '') => `servicespec: 1
resources:
  Order:
    fields:
      id: { type: uuid, readOnly: true }
      amount: { type: integer, minimum: 1 }
      note: { type: string, optional: true, maxLength: 5 }
      created: { type: datetime, readOnly: true, generated: create_time }
endpoints:
  operations:
${examples}
    getOrder: { method: GET, path: "/orders/{id}", action: read, resource: Order }
${extra}authentication:
  default: none
${CATCH_ALL_ERRORS}`;

const warnings = (text: string) => compileSpecText(text, 'case.yaml').diagnostics.map((d) => `${d.severity} ${d.code} ${d.line}: ${d.message}`);

describe('check of named examples', () => {
  it('takes examples the operation takes and answers, and says nothing', () => {
    const text = spec(`    createOrder:
      method: POST
      path: /orders
      action: create
      resource: Order
      examples:
        request:
          small: { value: { amount: 3, note: hi } }
        response:
          made: { value: { id: 0b7c1c4e-9d7a-4a62-9f0e-2b1d2f6c8a10, amount: 3, note: hi, created: "2026-11-28T10:00:00Z" } }
    listOrders:
      method: GET
      path: /orders
      action: list
      resource: Order
      examples:
        response:
          page:
            value:
              items: [{ id: 0b7c1c4e-9d7a-4a62-9f0e-2b1d2f6c8a10, amount: 3, created: "2026-11-28T10:00:00Z" }]
              next_cursor: null`);
    expect(warnings(text)).toEqual([]);
  });

  it('warns at a request example the create refuses: a read-only field sent, a bound broken, a member unknown', () => {
    const text = spec(`    createOrder:
      method: POST
      path: /orders
      action: create
      resource: Order
      examples:
        request:
          low: { value: { amount: 0 } }
          stamped: { value: { amount: 2, created: "2026-11-28T10:00:00Z" } }
          long: { value: { amount: 2, note: toolong } }`);
    const w = warnings(text);
    expect(w).toHaveLength(3);
    expect(w.every((x) => x.startsWith('warning example-invalid'))).toBe(true);
    expect(w[0]).toContain('the request example `low`');
    expect(w[0]).toContain('/amount must be >= 1');
    expect(w[1]).toContain('`stamped`');
    expect(w[1]).toContain('created');
    expect(w[2]).toContain('/note must NOT have more than 5 characters');
    // Each at its own example's value.
    expect(new Set(w.map((x) => x.split(':')[0])).size).toBe(3);
  });

  it("warns at a response example missing a required field, and at a list page's item", () => {
    const text = spec(`    createOrder:
      method: POST
      path: /orders
      action: create
      resource: Order
      examples:
        response:
          partial: { value: { amount: 3 } }
    listOrders:
      method: GET
      path: /orders
      action: list
      resource: Order
      examples:
        response:
          page: { value: { items: [{ id: 0b7c1c4e-9d7a-4a62-9f0e-2b1d2f6c8a10, amount: "3", created: "2026-11-28T10:00:00Z" }] } }`);
    const w = warnings(text);
    expect(w).toHaveLength(2);
    expect(w[0]).toMatch(/example-invalid .*operation `createOrder`: the response example `partial`.*must have required property/);
    expect(w[1]).toMatch(/operation `listOrders`: the response example `page`.*\/items\/0\/amount must be integer/);
  });

  it("warns at a parameter example of another type than the parameter's field", () => {
    const text = spec(
      `    findOrder:
      method: GET
      path: "/orders/{id}/summary"
      action: custom
      resource: Order
      handler: summary
      query:
        depth: { type: integer, maximum: 3 }
      response: { fields: { total: { type: integer } } }
      examples:
        parameters:
          depth:
            deep: { value: 9 }
            ok: { value: 2 }
          id:
            bad: { value: not-a-uuid }`,
    );
    const w = warnings(text).filter((x) => x.includes('example-invalid'));
    expect(w).toHaveLength(2);
    expect(w[0]).toContain('the parameter depth example `deep`');
    expect(w[0]).toContain('must be <= 3');
    expect(w[1]).toContain('the parameter id example `bad`');
    expect(w[1]).toContain('must match format "uuid"');
  });

  it('reads the update as a merge patch where it is one (null removes an optional field)', () => {
    const text = spec(`    patchOrder:
      method: PATCH
      path: "/orders/{id}"
      action: update
      resource: Order
      request_media_type: application/merge-patch+json
      examples:
        request:
          clear: { value: { note: null } }
          wrong: { value: { amount: null } }`);
    const w = warnings(text);
    expect(w).toHaveLength(1);
    expect(w[0]).toContain('`wrong`');
  });
  it('holds each operation to its own examples where operations share one schema (compiled once), at each place', () => {
    const text = spec(`    createOrder:
      method: POST
      path: /orders
      action: create
      resource: Order
      examples:
        response:
          partial: { value: { amount: 3 } }
    replaceOrder:
      method: PUT
      path: "/orders/{id}"
      action: replace
      resource: Order
      examples:
        response:
          fine: { value: { id: 0b7c1c4e-9d7a-4a62-9f0e-2b1d2f6c8a10, amount: 3, created: "2026-11-28T10:00:00Z" } }
          low: { value: { id: 0b7c1c4e-9d7a-4a62-9f0e-2b1d2f6c8a10, amount: 0, created: "2026-11-28T10:00:00Z" } }`);
    // Three examples in two operations answering one schema (a create and a replace): compiled once, not per operation.
    const compile = vi.spyOn(Ajv2020.prototype, 'compile');
    let w: string[];
    try {
      w = warnings(text);
      expect(compile).toHaveBeenCalledTimes(1);
    } finally {
      compile.mockRestore();
    }
    expect(w).toHaveLength(2);
    expect(w[0]).toMatch(/example-invalid .*operation `createOrder`: the response example `partial`.*must have required property/);
    expect(w[1]).toMatch(/example-invalid .*operation `replaceOrder`: the response example `low`.*\/amount must be >= 1/);
    expect(w[0]!.split(':')[0]).not.toBe(w[1]!.split(':')[0]);
  });
});
