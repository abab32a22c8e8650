import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { exportJsonSchemas } from '../../src/export/export-json-schema.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { EXAMPLE_NAMES, exampleModel } from './helpers.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

function ajv(): Ajv2020 {
  const a = new Ajv2020({ strict: true, allErrors: true });
  addFormats(a);
  return a;
}

describe('JSON Schema export', () => {
  for (const name of EXAMPLE_NAMES) {
    it(`${name}: one schema per resource and view, each compiling with Ajv in strict mode`, () => {
      const model = exampleModel(name);
      const r = exportJsonSchemas(model);
      const has = (res: string, action: string) => (model.endpoints?.operations ?? []).some((o) => o.resource === res && o.action === action);
      const expected = model.resources.flatMap((res) => [
        res.name,
        ...(['Create', 'Replace', 'Update'] as const).filter((v) => has(res.name, v.toLowerCase())).map((v) => `${res.name}${v}`),
      ]);
      expect(r.files.map((f) => f.name)).toEqual(expected);
      for (const f of r.files) expect(() => ajv().compile(f.schema)).not.toThrow();
      expect(() => ajv().compile(r.document)).not.toThrow();
    });
  }

  it('writes a request view only for an operation that exists (no replace or update of Customer in orders.yaml)', () => {
    expect(exportJsonSchemas(exampleModel('orders')).files.map((f) => f.name)).toEqual([
      'Customer',
      'CustomerCreate',
      'Order',
      'OrderCreate',
      'OrderReplace',
      'OrderUpdate',
    ]);
    expect(exportJsonSchemas(exampleModel('library')).files.map((f) => f.name)).toEqual([
      'Book',
      'BookCreate',
      'BookUpdate',
      'Member',
      'MemberCreate',
      'MemberReplace',
      'Loan',
      'LoanCreate',
    ]);
  });

  it('the request schemas refuse read-only fields and the response schema describes them', () => {
    const r = exportJsonSchemas(exampleModel('orders'));
    const get = (n: string) => ajv().compile(r.files.find((f) => f.name === n)!.schema);
    const body = {
      customer: '6f1c0a4e-2b8f-4a7e-9a51-1c2d3e4f5a6b',
      items: [{ sku: 'MUG-BLUE-350', quantity: 1, unit_price: 2599 }],
      amount: 2599,
      currency: 'EUR',
      shipping_address: { line1: 'Main St 1', city: 'Delft', postal_code: '2611', country: 'NL' },
    };
    expect(get('OrderCreate')(body)).toBe(true);
    expect(get('OrderCreate')({ ...body, id: '6f1c0a4e-2b8f-4a7e-9a51-1c2d3e4f5a6b' })).toBe(false);
    expect(get('OrderCreate')({ ...body, currency: 'euro' })).toBe(false);
    expect(get('OrderUpdate')({ note: 'leave at the door' })).toBe(true);
    const response = r.files.find((f) => f.name === 'Order')!.schema as { properties: Record<string, { readOnly?: boolean }> };
    expect(response.properties.id?.readOnly).toBe(true);
  });

  it("an operation's own body (request_fields) and a view open to unknown members (unknown_fields: ignore) are schemas of their own, named as the OpenAPI export names them, as the runtime validates them", () => {
    const c = compileSpecText(`
servicespec: 1
resources:
  Account:
    fields:
      id: { type: uuid, readOnly: true }
      email: { type: string }
      name: { type: string }
      plan: { type: enum, values: [free, paid], default: free }
endpoints:
  operations:
    createAccount: { method: POST, path: /accounts, action: create, resource: Account }
    signUp: { method: POST, path: /sign-up, action: create, resource: Account, request_fields: [email] }
    updateAccount: { method: PATCH, path: "/accounts/{id}", action: update, resource: Account, unknown_fields: ignore }
`);
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const r = exportJsonSchemas(c.model!);
    expect(r.files.map((f) => [f.name, f.view, f.operation])).toEqual([
      ['Account', 'response', undefined],
      ['AccountCreate', 'create', undefined],
      ['AccountUpdate', 'update', undefined],
      ['SignUpRequest', 'create', 'signUp'],
      ['AccountUpdateOpen', 'update', undefined],
    ]);
    const get = (n: string) => ajv().compile(r.files.find((f) => f.name === n)!.schema);
    // sign-up takes the email alone: the name the create requires is not asked, and is refused if sent
    expect(get('SignUpRequest')({ email: 'a@example.com' })).toBe(true);
    expect(get('SignUpRequest')({ email: 'a@example.com', name: 'A' })).toBe(false);
    expect(get('AccountCreate')({ email: 'a@example.com' })).toBe(false);
    // the update that ignores unknown members takes one; the resource's update view refuses it
    expect(get('AccountUpdateOpen')({ name: 'B', nickname: 'b' })).toBe(true);
    expect(get('AccountUpdate')({ name: 'B', nickname: 'b' })).toBe(false);
    expect(() => ajv().compile(r.document)).not.toThrow();
    // The OpenAPI export's components of the same bodies have the same names.
    const components = (exportOpenApi(c.model!).document as { components: { schemas: Record<string, unknown> } }).components.schemas;
    expect(Object.keys(components)).toEqual(expect.arrayContaining(['SignUpRequest', 'AccountUpdateOpen']));
  });
});
