import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { getResource } from '../../src/model/model-lookup.js';
import {
  getFieldSchema,
  getResourceSchema,
  getShapeSchema,
  getTransitionSchema,
  isWritable,
  type JsonSchema,
  type SchemaView,
} from '../../src/model/model-schemas.js';
import { compileSpecFile, compileSpecText } from '../../src/program.js';
import { yaml } from '../check/helpers.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

function compile(schema: JsonSchema) {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv.compile(schema);
}

const orders = compileSpecFile('examples/orders.yaml').model!;
const library = compileSpecFile('examples/library.yaml').model!;
const order = getResource(orders, 'Order')!;

const ID = '3f6c1e0a-2b9d-4c1e-9a7f-5d2b8c4e6f10';
const CUSTOMER = '9b1d2c3e-4f5a-4b6c-8d7e-0f1a2b3c4d5e';
const validCreate = {
  customer: CUSTOMER,
  items: [{ sku: 'MUG-BLUE-350', quantity: 2, unit_price: 1299 }],
  amount: 2598,
  currency: 'EUR',
  shipping_address: { line1: '1 Main St', city: 'Utrecht', postal_code: '3511', country: 'NL' },
};

describe('getResourceSchema views of Order (orders.yaml)', () => {
  const views: SchemaView[] = ['create', 'replace', 'update', 'response'];

  it('every view of every resource in both examples compiles with Ajv 2020 in strict mode', () => {
    for (const m of [orders, library]) {
      for (const r of m.resources) {
        for (const view of views) {
          for (const opts of [{}, { annotations: true }, { safeIntegers: true }]) {
            expect(() => compile(getResourceSchema(m, r, view, opts)), `${r.name} ${view} ${JSON.stringify(opts)}`).not.toThrow();
          }
        }
      }
    }
  });

  it('create leaves out readOnly fields, the state field, the identifier and the owner', () => {
    const s = getResourceSchema(orders, order, 'create');
    const props = Object.keys(s.properties as object);
    for (const gone of ['id', 'status', 'owner', 'created_at', 'updated_at']) expect(props).not.toContain(gone);
    expect(props).toEqual(['customer', 'items', 'amount', 'currency', 'weight_kg', 'shipping_address', 'note', 'tracking_number']);
    expect(s.required).toEqual(['customer', 'items', 'amount', 'currency', 'shipping_address']);
    expect(s.additionalProperties).toBe(false);
  });

  it('create accepts a valid body and refuses missing, extra, read-only and out-of-range values', () => {
    const v = compile(getResourceSchema(orders, order, 'create'));
    expect(v(validCreate)).toBe(true);
    expect(v({ ...validCreate, note: null })).toBe(false);
    expect(v({ ...validCreate, tracking_number: null })).toBe(true);
    expect(v({ ...validCreate, id: ID })).toBe(false);
    expect(v({ ...validCreate, status: 'paid' })).toBe(false);
    expect(v({ ...validCreate, owner: 'someone' })).toBe(false);
    expect(v({ ...validCreate, amount: 0 })).toBe(false);
    expect(v({ ...validCreate, currency: 'eur' })).toBe(false);
    expect(v({ ...validCreate, customer: 'not-a-uuid' })).toBe(false);
    expect(v({ ...validCreate, items: [] })).toBe(false);
    const { amount: _omitted, ...missing } = validCreate;
    expect(v(missing)).toBe(false);
  });

  it('update requires nothing and leaves out write-once fields', () => {
    const s = getResourceSchema(orders, order, 'update');
    expect(s.required).toBeUndefined();
    expect(Object.keys(s.properties as object)).not.toContain('customer');
    const v = compile(s);
    expect(v({})).toBe(true);
    expect(v({ note: 'leave at the door' })).toBe(true);
    expect(v({ customer: CUSTOMER })).toBe(false);
    expect(v({ amount: -1 })).toBe(false);
  });

  it('replace requires the writable required fields except write-once ones', () => {
    const s = getResourceSchema(orders, order, 'replace');
    expect(s.required).toEqual(['items', 'amount', 'currency', 'shipping_address']);
  });

  it('a field with a default is not required on create (Customer.marketing_opt_in)', () => {
    const customer = getResource(orders, 'Customer')!;
    const s = getResourceSchema(orders, customer, 'create');
    expect(s.required).toEqual(['name', 'email']);
  });

  it('response includes every field, requires the non-optional ones, and with annotations marks readOnly', () => {
    const s = getResourceSchema(orders, order, 'response', { annotations: true });
    const props = s.properties as Record<string, JsonSchema>;
    expect(Object.keys(props)).toEqual(order.fields.map((f) => f.name));
    expect(s.required).toEqual(['id', 'customer', 'items', 'amount', 'currency', 'shipping_address', 'status', 'owner', 'created_at', 'updated_at']);
    expect(props.id!.readOnly).toBe(true);
    expect(props.status!.readOnly).toBe(true);
    expect(props.created_at!.readOnly).toBe(true);
    expect(props.amount!.readOnly).toBeUndefined();
    expect(props.amount!.examples).toEqual([2599]);
    expect(props.amount!.description).toBe('Total to pay in minor currency units (cents).');
    expect(props.status).toMatchObject({ type: 'string', enum: ['pending', 'paid', 'shipped', 'cancelled'] });
    expect(props.tracking_number!.type).toEqual(['string', 'null']);
    expect(s.description).toBe(order.description);

    const v = compile(s);
    const body = {
      ...validCreate,
      id: ID,
      status: 'pending',
      tracking_number: null,
      owner: 'user-1',
      created_at: '2026-11-01T10:00:00Z',
      updated_at: '2026-11-01T10:00:00Z',
    };
    expect(v(body)).toBe(true);
    expect(v({ ...body, status: 'lost' })).toBe(false);
    expect(v({ ...body, created_at: 'yesterday' })).toBe(false);
  });

  it('without annotations, no description, examples, default or readOnly appear', () => {
    const text = JSON.stringify(getResourceSchema(orders, order, 'response'));
    for (const k of ['description', 'examples', 'default', 'readOnly']) expect(text).not.toContain(`"${k}"`);
  });

  it('a ref field takes the schema of the target identifier', () => {
    const f = order.fields.find((x) => x.name === 'customer')!;
    expect(getFieldSchema(orders, f, order)).toEqual({ type: 'string', format: 'uuid' });
  });

  it('safeIntegers bounds integers with no declared bound', () => {
    const f = order.fields.find((x) => x.name === 'amount')!;
    expect(getFieldSchema(orders, f, order, { safeIntegers: true })).toEqual({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
  });

  it('isWritable follows the view', () => {
    const id = order.fields.find((x) => x.name === 'id')!;
    const customer = order.fields.find((x) => x.name === 'customer')!;
    expect([isWritable(order, id, 'response'), isWritable(order, id, 'create')]).toEqual([true, false]);
    expect([isWritable(order, customer, 'create'), isWritable(order, customer, 'update'), isWritable(order, customer, 'replace')]).toEqual([
      true,
      false,
      false,
    ]);
  });
});

describe('transition, shape and nested schemas', () => {
  it('a transition body holds the fields it requires, none of them required', () => {
    const ship = orders.stateMachines[0]!.transitions.find((t) => t.name === 'ship')!;
    const s = getTransitionSchema(orders, order, ship.requires);
    expect(s).toEqual({ type: 'object', properties: { tracking_number: { type: ['string', 'null'], maxLength: 64 } }, additionalProperties: false });
    const v = compile(s);
    expect(v({ tracking_number: '1Z999' })).toBe(true);
    expect(v({ tracking_number: 'x'.repeat(65) })).toBe(false);
  });

  it('a custom request and a list response shape', () => {
    const quote = orders.endpoints!.operations.find((o) => o.id === 'quote')!;
    const req = compile(getShapeSchema(orders, quote.request!, 'create'));
    expect(req({ currency: 'EUR', items: [{ sku: 'MUG-BLUE-350', quantity: 1 }] })).toBe(true);
    expect(req({ currency: 'EUR', items: [] })).toBe(false);
    const list = orders.endpoints!.operations.find((o) => o.id === 'listOrders')!;
    const res = getShapeSchema(orders, list.response!, 'response');
    expect(res.type).toBe('array');
    expect(() => compile(res)).not.toThrow();
  });

  it('nested fields named like the identifier or owner stay in nested objects', () => {
    const m = compileSpecText(yaml`
      servicespec: 1
      resources:
        Order:
          owner: owner
          fields:
            id: { type: uuid, readOnly: true }
            owner: { type: string, readOnly: true }
            lines: { type: array, items: { type: object, fields: { id: { type: string }, owner: { type: string } } } }
    `).model!;
    const s = getResourceSchema(m, m.resources[0]!, 'create');
    const lines = (s.properties as Record<string, JsonSchema>).lines!;
    expect(Object.keys((lines.items as JsonSchema).properties as object)).toEqual(['id', 'owner']);
    expect(compile(s)({ lines: [{ id: 'a', owner: 'b' }] })).toBe(true);
  });

  it('enum, nullable enum, json and integer enum fields', () => {
    const m = compileSpecText(yaml`
      servicespec: 1
      resources:
        Thing:
          fields:
            colour: { type: enum, values: [red, blue], nullable: true }
            size: { type: enum, values: [1, 2, 3] }
            extra: { type: json, optional: true }
    `).model!;
    const v = compile(getResourceSchema(m, m.resources[0]!, 'create'));
    expect(v({ colour: null, size: 2 })).toBe(true);
    expect(v({ colour: 'green', size: 2 })).toBe(false);
    expect(v({ colour: 'red', size: 4 })).toBe(false);
    expect(v({ colour: 'red', size: 1, extra: { anything: [1, 'x'] } })).toBe(true);
  });
});
