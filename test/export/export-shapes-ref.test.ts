// Named shapes (docs/format.md, "Named shapes") in the OpenAPI exports: each shape written once, as a component, and
// referred to with `$ref` at each use, in 3.1 and 3.0; a shape whose request view differs from its answers' has a
// component per view. Referred to or written out, the document says the same: every example and imported fixture's
// export, its references followed, is the export of the same spec with its shapes written out in place.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Parser } from '@asyncapi/parser';
import { afterAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { exportAsyncApi } from '../../src/export/export-asyncapi.js';
import { exportJsonSchemas } from '../../src/export/export-json-schema.js';
import { exportOpenApi, type OpenApiVersion } from '../../src/export/export-openapi.js';
import { modelToSpec } from '../../src/export/model-to-spec.js';
import { serializeDocument, type JsonObject } from '../../src/export/export-shared.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import type { ServiceModel } from '../../src/model/model-types.js';
import { compileSpecText } from '../../src/program.js';
import { loadSpecText } from '../../src/spec/spec-loader.js';
import { expandShapes } from '../../src/spec/spec-shapes.js';
import type { SpecDocument } from '../../src/spec/spec-types.js';
import { EXAMPLE_NAMES, jsonDiff, ROOT, tempDir } from './helpers.js';

const VERSIONS: readonly OpenApiVersion[] = ['3.1', '3.0'];
const tmp = tempDir('servicespec-shapes-ref-');
afterAll(() => tmp.remove());

const SHOP = `servicespec: 1
shapes:
  Address:
    fields:
      line1: { type: string, maxLength: 100 }
      city: { type: string }
      country: { type: string, pattern: '^[A-Z]{2}$' }
resources:
  Customer:
    fields:
      id: { type: uuid, readOnly: true }
      billing: { type: object, shape: Address, description: Where the invoices go. }
      shipping: { type: array, optional: true, items: { type: object, shape: Address } }
endpoints:
  operations:
    createCustomer: { method: POST, path: /customers, action: create, resource: Customer }
    readCustomer: { method: GET, path: '/customers/{id}', action: read, resource: Customer }
`;

const UNIONS = `servicespec: 1
shapes:
  Payment:
    discriminator: kind
    variants:
      card: { fields: { number: { type: string } } }
      bank: { shape: Bank }
  Bank:
    fields:
      iban: { type: string }
  Quote:
    fields:
      amount: { type: integer }
      payment: { type: union, shape: Payment }
endpoints:
  operations:
    price: { method: POST, path: /price, action: custom, handler: price, request: { shape: Quote }, response: { shape: Quote } }
    reprice: { method: POST, path: /reprice, action: custom, handler: price, request: { shape: Quote }, response: { shape: Payment } }
`;

/** Address with a description of its own (a YAML block: its trailing line break is the text's). */
const DESCRIBED = SHOP.replace('  Address:\n    fields:', '  Address:\n    description: |\n      A postal address.\n      Its second line.\n    fields:');

/** Address used once: a shape need not be repeated to be one. */
const ONCE = SHOP.replace('      shipping: { type: array, optional: true, items: { type: object, shape: Address } }\n', '');

function compile(text: string): ServiceModel {
  const c = compileSpecText(text, 'shapes.yaml');
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return c.model!;
}

type Schemas = Record<string, JsonObject>;
const schemasOf = (doc: JsonObject) => (doc.components as { schemas: Schemas }).schemas;

/** Every `$ref` in the document, by target, counted. */
function refs(node: unknown, out = new Map<string, number>()): Map<string, number> {
  if (Array.isArray(node)) for (const x of node) refs(x, out);
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.set(v, (out.get(v) ?? 0) + 1);
      else refs(v, out);
    }
  return out;
}

describe('OpenAPI export: a named shape is one component, referred to at each use', () => {
  for (const version of VERSIONS) {
    it(`OpenAPI ${version}: components/schemas/Address once, a $ref at each use (the use's own description kept), valid for swagger-parser`, async () => {
      const doc = exportOpenApi(compile(SHOP), { openapi: version }).document;
      const schemas = schemasOf(doc);
      expect(schemas.Address).toMatchObject({
        type: 'object',
        properties: { line1: { type: 'string', maxLength: 100 }, city: { type: 'string' }, country: { pattern: '^[A-Z]{2}$' } },
        required: ['line1', 'city', 'country'],
        additionalProperties: false,
        'x-servicespec-shape': 'Address',
      });
      // Its request view is the same (nothing read-only, nothing defaulted): one component for both.
      expect(Object.keys(schemas).filter((n) => n.startsWith('Address'))).toEqual(['Address']);
      // billing and shipping's items, in the answer (Customer) and in the create's body (CustomerCreate)
      expect(refs(doc).get('#/components/schemas/Address')).toBe(4);
      const billing = (schemas.Customer!.properties as Schemas).billing!;
      if (version === '3.1') expect(billing).toEqual({ $ref: '#/components/schemas/Address', description: 'Where the invoices go.' });
      // 3.0 reads no sibling of a $ref: the use's own keys stand beside an allOf.
      else expect(billing).toEqual({ allOf: [{ $ref: '#/components/schemas/Address' }], description: 'Where the invoices go.' });
      expect((schemas.Customer!.properties as Schemas).shipping!.items).toEqual({ $ref: '#/components/schemas/Address' });
      const file = join(tmp.path, `shop-${version}.json`);
      writeFileSync(file, serializeDocument(doc, 'json'));
      await expect(SwaggerParser.validate(file)).resolves.toBeDefined();
    });
  }

  it('a shape whose views differ has a component per view, named as a resource view is (Address, AddressCreate)', () => {
    const text = SHOP.replace('      city: { type: string }\n', '      city: { type: string }\n      verified: { type: boolean, readOnly: true }\n');
    for (const version of VERSIONS) {
      const schemas = schemasOf(exportOpenApi(compile(text), { openapi: version }).document);
      expect(Object.keys((schemas.Address!.properties as Schemas) ?? {})).toEqual(['line1', 'city', 'verified', 'country']);
      expect(Object.keys(schemas.AddressCreate!.properties as Schemas)).toEqual(['line1', 'city', 'country']);
      expect(refs(schemas.Customer).get('#/components/schemas/Address')).toBe(2);
      expect(refs(schemas.CustomerCreate).get('#/components/schemas/AddressCreate')).toBe(2);
    }
  });

  it('a nullable use refers to the shape beside null (anyOf in 3.1, nullable allOf in 3.0)', () => {
    const text = SHOP.replace('      shipping:', '      previous: { type: object, shape: Address, nullable: true, optional: true }\n      shipping:');
    const p31 = (schemasOf(exportOpenApi(compile(text)).document).Customer!.properties as Schemas).previous;
    expect(p31).toEqual({ anyOf: [{ $ref: '#/components/schemas/Address' }, { type: 'null' }] });
    const p30 = (schemasOf(exportOpenApi(compile(text), { openapi: '3.0' }).document).Customer!.properties as Schemas).previous;
    expect(p30).toEqual({ allOf: [{ $ref: '#/components/schemas/Address' }], nullable: true });
  });

  it('a union shape and a payload shape are components too', () => {
    const text = UNIONS;
    for (const version of VERSIONS) {
      const doc = exportOpenApi(compile(text), { openapi: version }).document;
      const schemas = schemasOf(doc);
      expect(schemas.Payment).toMatchObject({ type: 'object', discriminator: { propertyName: 'kind' }, 'x-servicespec-shape': 'Payment' });
      expect((schemas.Quote!.properties as Schemas).payment).toEqual({ $ref: '#/components/schemas/Payment' });
      const counted = refs(doc);
      expect(counted.get('#/components/schemas/Quote')).toBe(3);
      expect(counted.get('#/components/schemas/Payment')).toBe(2);
    }
  });
});

const EVENTS = `${UNIONS}events:
  delivery:
    webhook: { signing: standard-webhooks, path: /webhooks }
    stream: { path: /events }
  kinds:
    quoted: { description: A price was given., payload: { shape: Quote }, body: raw }
    paid: { description: A payment was made., payload: { shape: Payment } }
`;

describe("a named shape's own description", () => {
  it("is its component's in every export (the use's own stays beside the reference), and the spec's again through import", async () => {
    const model = compile(DESCRIBED);
    const description = 'A postal address.\nIts second line.\n';
    for (const version of VERSIONS) {
      const doc = exportOpenApi(model, { openapi: version }).document;
      expect(schemasOf(doc).Address!.description).toBe(description);
      expect((doc['x-servicespec-shapes'] as Schemas).Address!.description).toBe(description);
      expect(JSON.stringify(schemasOf(doc).Customer)).toContain('Where the invoices go.');
      const back = await importOpenApiDocument(JSON.parse(serializeDocument(doc, 'json')) as unknown, 'described.json');
      expect(back.document!.shapes!.Address!.description).toBe(description);
    }
    const defs = exportJsonSchemas(model).document as { $defs: Schemas };
    expect(defs.$defs.Address!.description).toBe(description);
    // Before, the description was read and then lost: no export, nor modelToSpec, had it.
    expect(modelToSpec(model).shapes!.Address!.description).toBe(description);
  });
});

describe('AsyncAPI export: the named shape of a payload is one component, referred to at each use', () => {
  it('components.schemas.Quote and Payment once, each message referring to them; @asyncapi/parser finds no error', async () => {
    const doc = exportAsyncApi(compile(EVENTS)).document;
    const schemas = schemasOf(doc);
    expect(schemas.Quote).toMatchObject({ type: 'object', 'x-servicespec-shape': 'Quote' });
    expect(schemas.Payment).toMatchObject({ type: 'object', discriminator: 'kind', 'x-servicespec-shape': 'Payment' });
    expect((schemas.Quote!.properties as Schemas).payment).toEqual({ $ref: '#/components/schemas/Payment' });
    expect([...refs(doc).keys()].filter((r) => r.includes('Quote') || r.includes('Payment')).sort()).toEqual([
      '#/components/schemas/Payment',
      '#/components/schemas/Quote',
    ]);
    expect(doc['x-servicespec-shapes']).toEqual(compileSpecText(EVENTS).document!.shapes);
    const { diagnostics } = await new Parser().parse(serializeDocument(doc, 'yaml'));
    expect(diagnostics.filter((d) => d.severity === 0)).toEqual([]);
  });
});

describe('JSON Schema export: a named shape is one $defs entry, in the document and in each schema using it', () => {
  it('Customer and CustomerCreate refer to #/$defs/Address and hold it; each compiles with Ajv (strict) and validates as before', () => {
    const r = exportJsonSchemas(compile(SHOP));
    expect(Object.keys(r.document.$defs as Schemas)).toEqual(['Customer', 'CustomerCreate', 'Address']);
    expect((r.document.$defs as Schemas).Address).toEqual({
      type: 'object',
      properties: { line1: { type: 'string', maxLength: 100 }, city: { type: 'string' }, country: { type: 'string', pattern: '^[A-Z]{2}$' } },
      additionalProperties: false,
      required: ['line1', 'city', 'country'],
    });
    const addFormats = addFormatsModule as unknown as (a: Ajv2020) => Ajv2020;
    const ajv = () => addFormats(new Ajv2020({ strict: true, allErrors: true }));
    expect(() => ajv().compile(r.document)).not.toThrow();
    for (const f of r.files) {
      expect(Object.keys(f.schema.$defs as Schemas), f.name).toEqual(['Address']);
      expect(refs(f.schema).get('#/$defs/Address'), f.name).toBe(2);
    }
    const create = ajv().compile(r.files.find((f) => f.name === 'CustomerCreate')!.schema);
    const address = { line1: '1 Main St', city: 'Lyon', country: 'FR' };
    expect(create({ billing: address, shipping: [address] })).toBe(true);
    expect(create({ billing: { ...address, country: 'France' } })).toBe(false);
    expect(create({ billing: { line1: '1 Main St', city: 'Lyon' } })).toBe(false);
  });
});

/** The same spec with its shapes written out in place (and no `shapes`): what the export wrote before shapes were components. */
function writtenOut(text: string): ServiceModel {
  const { document } = expandShapes(loadSpecText(text, 'spec.yaml').document as SpecDocument);
  const { shapes: _shapes, ...rest } = structuredClone(document);
  const c = compileSpecText(JSON.stringify(rest), 'written-out.json');
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return c.model!;
}

/**
 * The document's paths and webhooks with every `$ref` to a schema and every `shape:` of the extensions followed: a reference with siblings (3.1) is the
 * target with them over it, a lone `allOf` part (3.0's way of a use's own keys) is merged with them, and the marks of
 * where a schema came from (its shape's name, a mapping's component names) are left out.
 */
function followed(doc: JsonObject): unknown {
  const schemas = schemasOf(doc);
  const shapes = (doc['x-servicespec-shapes'] ?? {}) as Record<string, JsonObject>;
  const follow = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(follow);
    if (!node || typeof node !== 'object') return node;
    let o = node as JsonObject;
    // A use by name in the extensions (the shapes as in a spec): written out as the spec's loader does.
    if (typeof o.shape === 'string' && shapes[o.shape] !== undefined) {
      const { shape, ...rest } = o;
      const { description, ...def } = shapes[shape]!;
      o = { ...(rest.type === undefined && description !== undefined ? { description } : {}), ...rest, ...def };
    }
    if (typeof o.$ref === 'string' && o.$ref.startsWith('#/components/schemas/')) {
      const { $ref, ...rest } = o;
      o = { ...schemas[$ref.slice('#/components/schemas/'.length)]!, ...rest };
    }
    if (Array.isArray(o.allOf) && o.allOf.length === 1) {
      const { allOf, ...rest } = o;
      const inner = follow(allOf[0]) as JsonObject;
      o = { ...inner, ...rest };
    }
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(o)) {
      if (k === 'x-servicespec-shape') continue;
      if (k === 'discriminator' && v && typeof v === 'object') out[k] = { propertyName: (v as JsonObject).propertyName };
      else out[k] = follow(v);
    }
    return out;
  };
  return follow({ paths: doc.paths, webhooks: doc.webhooks });
}

/** Every example and every spec the import corpus made (test/fixtures/openapi/golden). */
function specs(): string[] {
  const golden = join('test', 'fixtures', 'openapi', 'golden');
  return [
    ...EXAMPLE_NAMES.map((n) => join('examples', `${n}.yaml`)),
    ...readdirSync(join(ROOT, golden))
      .filter((f) => f.endsWith('.servicespec.yaml'))
      .map((f) => join(golden, f)),
  ];
}

describe('OpenAPI export: referred to or written out, a named shape says the same', () => {
  it('the shop: the same document as with Address written out in place, its references followed', () => {
    const model = compile(SHOP);
    for (const version of VERSIONS)
      expect(
        jsonDiff(followed(exportOpenApi(model, { openapi: version }).document), followed(exportOpenApi(writtenOut(SHOP), { openapi: version }).document)),
      ).toEqual([]);
  });

  for (const spec of specs()) {
    it(`${spec}: its export, references followed, is the export with its shapes written out (3.1 and 3.0)`, () => {
      const text = readFileSync(join(ROOT, spec), 'utf8');
      const model = compileSpecText(text, spec).model!;
      const plain = writtenOut(text);
      for (const version of VERSIONS) {
        const named = exportOpenApi(model, { openapi: version }).document;
        const inline = exportOpenApi(plain, { openapi: version }).document;
        expect(jsonDiff(followed(named), followed(inline)), `${spec} ${version}`).toEqual([]);
      }
    });
  }
});

/**
 * The model without what depends on where it was read from (pointers, file); a description's trailing line break
 * (giphy's operations: YAML's `|` blocks) does not come back through OpenAPI whether or not shapes are named.
 */
function comparable(m: ServiceModel): unknown {
  return JSON.parse(
    JSON.stringify(m, (k, v: unknown) =>
      k === 'pointer' || k === 'file' || k === 'statusDeclared' ? undefined : k === 'description' && typeof v === 'string' ? v.trimEnd() : v,
    ),
  );
}

/** The document with a description's run of line breaks taken as one paragraph break (giphy's, as for comparable). */
function lineBreaks(doc: JsonObject): unknown {
  return JSON.parse(JSON.stringify(doc, (k, v: unknown) => (k === 'description' && typeof v === 'string' ? v.replace(/\n{3,}/g, '\n\n') : v)));
}

describe('the model of named shapes: the note of which shape is beside it, not in it', () => {
  it('the same model as the spec written out, frozen; modelToSpec gives the shapes back by name', () => {
    for (const text of [SHOP, UNIONS, DESCRIBED]) {
      const model = compile(text);
      // Pointers included: a use's fields are where the use is, as written out.
      expect({ ...model, file: '' }).toEqual({ ...writtenOut(text), file: '' });
      const billing = model.resources[0]?.fields.find((f) => f.name === 'billing');
      if (billing) expect(Object.isFrozen(billing.fields)).toBe(true);
      const back = modelToSpec(model);
      expect(back.shapes).toEqual(compileSpecText(text).document!.shapes);
      const again = compileSpecText(JSON.stringify(back), 'back.json');
      expect(again.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect(jsonDiff(comparable(again.model!), comparable(model))).toEqual([]);
    }
  });
});

describe('round trip of named shapes: spec → export → import → the same spec, model and document', () => {
  const cases: [string, string][] = [
    ['the shop', SHOP],
    ['a shape used once', ONCE],
    ['a shape with a description', DESCRIBED],
    ['a union shape, payload shapes', UNIONS],
    ...specs()
      .filter((s) => s.includes('golden'))
      .map((s): [string, string] => [s, readFileSync(join(ROOT, s), 'utf8')]),
  ];
  for (const [name, text] of cases) {
    for (const version of VERSIONS) {
      it(`${name}, OpenAPI ${version}`, async () => {
        const compiled = compileSpecText(text, 'spec.yaml');
        const first = exportOpenApi(compiled.model!, { openapi: version }).document;
        const imported = await importOpenApiDocument(JSON.parse(serializeDocument(first, 'json')) as unknown, 'first.openapi.json');
        expect(imported.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        // The same shapes, by the same names, used in the same places.
        expect(imported.document!.shapes).toEqual(compiled.document!.shapes);
        expect(jsonDiff(comparable(imported.compiled!.model!), comparable(compiled.model!))).toEqual([]);
        const second = exportOpenApi(imported.compiled!.model!, { openapi: version }).document;
        expect(jsonDiff(lineBreaks(first), lineBreaks(second))).toEqual([]);
      });
    }
  }
});
