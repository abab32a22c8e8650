// A component used as an object or a union in several places is written once under `shapes` and used by name, so an
// imported spec is the size of its document (Rebilly's 1 MB document was a 43 MB spec, refused by the loader). Named
// or written out, the served contract is the same. With it, three more things Rebilly's document showed: a mapping
// with two keys for one schema, resources named alike but for case, and a key in the Authorization header.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { importOpenApiDocument, importOpenApiFile } from '../../src/import/import-api.js';
import { MAX_SPEC_BYTES } from '../../src/spec/spec-loader.js';

const address = {
  type: 'object',
  required: ['line1', 'city', 'country'],
  properties: {
    line1: { type: 'string', maxLength: 100, description: 'The first line of the address, as the carrier prints it.' },
    line2: { type: 'string', maxLength: 100, description: 'The second line of the address, where there is one.' },
    city: { type: 'string', description: 'The city or town.' },
    country: { type: 'string', pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2 country code.' },
  },
};

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });

const DOC = {
  openapi: '3.0.3',
  info: { title: 'Shop', version: '1' },
  paths: {
    '/customers': {
      post: {
        operationId: 'createCustomer',
        requestBody: { required: true, ...json({ $ref: '#/components/schemas/CustomerInput' }) },
        responses: { '201': { description: 'created', ...json({ $ref: '#/components/schemas/Customer' }) } },
      },
    },
    '/customers/{id}': {
      get: {
        operationId: 'getCustomer',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'ok', ...json({ $ref: '#/components/schemas/Customer' }) } },
      },
    },
  },
  components: {
    schemas: {
      Address: address,
      Customer: {
        type: 'object',
        required: ['id', 'name', 'billing'],
        properties: {
          id: { type: 'string', readOnly: true },
          name: { type: 'string' },
          billing: { $ref: '#/components/schemas/Address' },
          shipping: { type: 'array', items: { $ref: '#/components/schemas/Address' } },
          method: { $ref: '#/components/schemas/Method' },
        },
      },
      CustomerInput: {
        type: 'object',
        required: ['name', 'billing'],
        properties: {
          name: { type: 'string' },
          billing: { $ref: '#/components/schemas/Address' },
          shipping: { type: 'array', items: { $ref: '#/components/schemas/Address' } },
          method: { $ref: '#/components/schemas/Method' },
        },
      },
      Method: {
        type: 'object',
        required: ['kind'],
        properties: { kind: { type: 'string' } },
        // Two keys for one schema: a value saying either is a card.
        discriminator: { propertyName: 'kind', mapping: { card: '#/components/schemas/Card', 'payment-card': '#/components/schemas/Card' } },
      },
      Card: { allOf: [{ $ref: '#/components/schemas/Method' }, { type: 'object', required: ['last4'], properties: { last4: { type: 'string' } } }] },
      // A component named as another but for case: stored tables and the client's types are named without case.
      customer: { type: 'object', properties: { note: { type: 'string' } } },
    },
    securitySchemes: {
      Jwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      PublishableKey: { type: 'apiKey', in: 'header', name: 'Authorization' },
    },
  },
  security: [{ Jwt: [] }, { PublishableKey: [] }],
};

describe('import: named shapes', () => {
  it('writes a component used in several places once, under shapes, and serves the same contract', async () => {
    const r = await importOpenApiDocument(structuredClone(DOC), 'shop.json');
    expect(r.compiled?.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const doc = r.document!;
    expect(doc.shapes?.Address?.fields).toMatchObject({ line1: { type: 'string', maxLength: 100 }, country: { pattern: '^[A-Z]{2}$' } });
    const fields = doc.resources!.Customer!.fields!;
    expect(fields.billing).toMatchObject({ type: 'object', shape: 'Address' });
    expect(fields.billing!.fields).toBeUndefined();
    expect(fields.shipping!.items).toMatchObject({ type: 'object', shape: 'Address' });
    expect(r.text).toContain('shape: Address');
    // Written out, each use is the address in the model, at the original's positions.
    const model = r.compiled!.model!;
    const billing = model.resources.find((x) => x.name === 'Customer')!.fields.find((f) => f.name === 'billing')!;
    expect(billing.fields?.map((f) => f.name)).toEqual(['line1', 'line2', 'city', 'country']);
    // Exported, the shape is one component again, referred to at each use (Address2: the import made a resource
    // Address of the component too, whose component keeps the name).
    const oas = exportOpenApi(model).document as {
      components: { schemas: Record<string, { properties: Record<string, { $ref?: string; items?: { $ref?: string } }>; 'x-servicespec-shape'?: string }> };
    };
    expect(oas.components.schemas.Address2!['x-servicespec-shape']).toBe('Address');
    expect(Object.keys(oas.components.schemas.Address2!.properties)).toEqual(['line1', 'line2', 'city', 'country']);
    expect(oas.components.schemas.Customer!.properties.billing!.$ref).toBe('#/components/schemas/Address2');
    expect(oas.components.schemas.Customer!.properties.shipping!.items!.$ref).toBe('#/components/schemas/Address2');
  });

  it('gives each mapping key its own variant and tag, two keys for one schema included', async () => {
    const r = await importOpenApiDocument(structuredClone(DOC), 'shop.json');
    const method = r.document!.resources!.Customer!.fields!.method!;
    const union = method.shape !== undefined ? r.document!.shapes![method.shape]! : method;
    expect(Object.values(union.variants!).map((v) => v.tag ?? '')).toEqual(['card', 'payment-card']);
    expect(r.compiled?.diagnostics.filter((d) => d.code === 'union-tag-duplicate')).toEqual([]);
  });

  it('renames a resource named as another but for case, and says why', async () => {
    const r = await importOpenApiDocument(structuredClone(DOC), 'shop.json');
    expect(Object.keys(r.document!.resources!)).toEqual(expect.arrayContaining(['Customer', 'customer2']));
    const said = r.diagnostics.find((d) => d.code === 'import-renamed' && d.pointer === '/components/schemas/customer');
    expect(said?.message).toMatch(/`customer` .*`customer2`.*differing only in case/);
  });

  it('leaves out a key sent in the Authorization header beside a bearer scheme, and says so', async () => {
    const r = await importOpenApiDocument(structuredClone(DOC), 'shop.json');
    expect(Object.keys(r.document!.authentication!.schemes!)).toEqual(['Jwt']);
    const said = r.diagnostics.find((d) => d.code === 'import-dropped' && d.pointer === '/components/securitySchemes/PublishableKey');
    expect(said?.message).toMatch(/Authorization header, as scheme Jwt's credential does/);
    expect(r.compiled?.diagnostics.filter((d) => d.code === 'wire-name-clash')).toEqual([]);
  });
});

// Rebilly's API as @redocly/openapi-core ships it for its own benchmark (a dependency of @redocly/cli here).
const REBILLY = join(import.meta.dirname, '..', '..', 'node_modules', '@redocly', 'openapi-core', 'src', 'benchmark', 'benches', 'rebilly.yaml');
if (!existsSync(REBILLY)) console.log(`import-shapes: the Rebilly document is skipped: ${REBILLY} is not installed`);

describe.skipIf(!existsSync(REBILLY))("import: Rebilly's API (1 MB, 355 operations)", () => {
  it('imports to a spec that checks, under the size limit, every operation kept', async () => {
    const r = await importOpenApiFile(REBILLY);
    expect(r.compiled?.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(Buffer.byteLength(r.text!)).toBeLessThan(MAX_SPEC_BYTES);
    expect(Buffer.byteLength(r.text!)).toBeLessThan(8 * 1024 * 1024);
    expect(Object.keys(r.document!.endpoints!.operations!)).toHaveLength(355);
    expect(Object.keys(r.document!.shapes!).length).toBeGreaterThan(100);
    expect(r.document!.shapes!.GatewayAccount?.variants).toBeDefined();
  }, 120_000);
});
