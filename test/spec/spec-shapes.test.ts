// Named shapes (docs/format.md, "Named shapes"): a shape written once and used by name is, to everything reading the
// spec, the same as the shape written out in place: the same model, the same served contract over real HTTP. Each way
// a use can be wrong is an error with its own code, at the `shape:` that is wrong.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { expandShapes } from '../../src/spec/spec-shapes.js';
import type { SpecDocument } from '../../src/spec/spec-types.js';
import { startService, type Running } from '../runtime/helpers.js';
import { PLAIN_ERRORS } from '../support/specs.js';

const ADDRESS = `{ line1: { type: string, maxLength: 100 }, city: { type: string }, country: { type: string, pattern: '^[A-Z]{2}$' } }`;
const METHOD = `discriminator: kind
    variants:
      card: { fields: { last4: { type: string, pattern: '^[0-9]{4}$' } } }
      bank: { tag: iban, fields: { iban: { type: string } } }`;

const tail = `endpoints:
  operations:
    createCustomer: { method: POST, path: /customers, action: create, resource: Customer }
    getCustomer: { method: GET, path: "/customers/{id}", action: read, resource: Customer }
    listCustomers: { method: GET, path: /customers, action: list, resource: Customer }
authentication:
  default: none
events:
  delivery:
    stream: { path: /stream, heartbeat: 10s }
  kinds:
    address.checked:
      payload: BODY
${PLAIN_ERRORS}`;

const NAMED = `servicespec: 1
shapes:
  Address:
    description: A postal address.
    fields: ${ADDRESS}
  Method:
    ${METHOD}
resources:
  Customer:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string }
      billing: { type: object, description: Where invoices go., shape: Address }
      shipping: { type: array, optional: true, items: { type: object, shape: Address } }
      method: { type: union, optional: true, shape: Method }
${tail.replace('BODY', () => '{ shape: Address }')}`;

const INLINE = `servicespec: 1
resources:
  Customer:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string }
      billing: { type: object, description: Where invoices go., fields: ${ADDRESS} }
      shipping: { type: array, optional: true, items: { type: object, fields: ${ADDRESS} } }
      method:
        type: union
        optional: true
        ${METHOD.replace(/\n {4}/g, '\n        ')}
${tail.replace('BODY', () => `{ fields: ${ADDRESS} }`)}`;

const codes = (text: string) =>
  compileSpecText(text, 'shapes.yaml')
    .diagnostics.filter((d) => d.code.startsWith('shape-'))
    .map((d) => ({ code: d.code, pointer: d.pointer, line: d.line }));

describe('named shapes', () => {
  it('compile to the same model as the shapes written out in place', () => {
    const named = compileSpecText(NAMED, 'shapes.yaml');
    const inline = compileSpecText(INLINE, 'shapes.yaml');
    expect(named.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(inline.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(JSON.parse(JSON.stringify(named.model))).toEqual(JSON.parse(JSON.stringify(inline.model)));
    expect(named.diagnostics.map((d) => d.code).sort()).toEqual(inline.diagnostics.map((d) => d.code).sort());
  });

  it('a spec without shapes is read as it is, not walked', () => {
    const doc = { servicespec: 1, resources: { A: { fields: { x: { type: 'string' } } } } } as unknown as SpecDocument;
    const out = expandShapes(doc);
    expect(out.document).toBe(doc);
    expect(out.diagnostics).toEqual([]);
  });

  it('says each wrong use at the `shape:` that is wrong', () => {
    const spec = `servicespec: 1
shapes:
  A: { fields: { b: { type: object, shape: B } } }
  B: { fields: { a: { type: object, shape: A } } }
  Address: { fields: { x: { type: string } } }
  Choice: { variants: { one: { fields: { y: { type: string } } } } }
  Spare: { fields: { z: { type: string } } }
resources:
  T:
    fields:
      id: { type: uuid, readOnly: true }
      p: { type: object, shape: Adress }
      q: { type: union, shape: Address }
      r: { type: object, shape: Address, fields: { z: { type: string } } }
      s: { type: string, shape: Address }
      u: { type: union, variants: { v: { shape: Choice } } }
`;
    expect(codes(spec)).toEqual([
      { code: 'shape-cycle', pointer: '/shapes/B/fields/a/shape', line: 4 },
      { code: 'shape-unused', pointer: '/shapes/Spare', line: 7 },
      { code: 'shape-unknown', pointer: '/resources/T/fields/p/shape', line: 12 },
      { code: 'shape-mismatch', pointer: '/resources/T/fields/q/shape', line: 13 },
      { code: 'shape-conflict', pointer: '/resources/T/fields/r/shape', line: 14 },
      { code: 'shape-mismatch', pointer: '/resources/T/fields/s/shape', line: 15 },
      { code: 'shape-mismatch', pointer: '/resources/T/fields/u/variants/v/shape', line: 16 },
    ]);
    const unknown = compileSpecText(spec, 'shapes.yaml').diagnostics.find((d) => d.code === 'shape-unknown')!;
    expect(unknown.message).toBe('shape `Adress` is not declared under `shapes`; did you mean `Address`?');
    expect(compileSpecText(spec).model).toBeUndefined();
  });

  it('a name of Object.prototype (`toString`, `constructor`) names no shape', () => {
    const spec = `servicespec: 1
shapes:
  Address: { fields: { x: { type: string } } }
resources:
  T:
    fields:
      id: { type: uuid, readOnly: true }
      a: { type: object, shape: Address }
      p: { type: object, shape: toString }
      q: { type: object, shape: constructor }
`;
    expect(codes(spec).map((d) => [d.code, d.pointer])).toEqual([
      ['shape-unknown', '/resources/T/fields/p/shape'],
      ['shape-unknown', '/resources/T/fields/q/shape'],
    ]);
  });

  it('a shape with both fields and variants, or neither, is shape-invalid', () => {
    const spec = `servicespec: 1
shapes:
  Both: { fields: { x: { type: string } }, variants: { one: { fields: { y: { type: string } } } } }
  Neither: { description: nothing }
`;
    expect(codes(spec).map((d) => [d.code, d.pointer])).toEqual([
      ['shape-invalid', '/shapes/Both'],
      ['shape-invalid', '/shapes/Neither'],
    ]);
  });

  it('a payload naming a shape and fields of its own is shape-conflict', () => {
    const spec = NAMED.replace('payload: { shape: Address }', () => 'payload: { shape: Address, fields: { x: { type: string } } }');
    expect(codes(spec).map((d) => [d.code, d.pointer])).toEqual([['shape-conflict', '/events/kinds/address.checked/payload/shape']]);
  });
});

describe('named shapes, served', () => {
  let s: Running;
  beforeAll(async () => {
    const c = compileSpecText(NAMED);
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    s = await startService(c.model!);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('takes a body that keeps the shape and refuses one that breaks it, at the member breaking it', async () => {
    const billing = { line1: '1 Main St', city: 'Springfield', country: 'US' };
    const ok = await s.call('POST', '/customers', { name: 'Ann', billing, shipping: [billing], method: { kind: 'iban', iban: 'DE00' } });
    expect(ok.status).toBe(201);
    const read = await s.call('GET', `/customers/${ok.body.id as string}`);
    expect(read.body).toMatchObject({ billing, shipping: [billing], method: { kind: 'iban', iban: 'DE00' } });
    const bad = await s.call('POST', '/customers', { name: 'Bob', billing: { ...billing, country: 'usa' } });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('/billing/country');
    const badItem = await s.call('POST', '/customers', { name: 'Bob', billing, shipping: [{ ...billing, extra: 1 }] });
    expect(badItem.status).toBe(422);
    const badVariant = await s.call('POST', '/customers', { name: 'Bob', billing, method: { kind: 'card', last4: '12' } });
    expect(badVariant.status).toBe(422);
  });
});
