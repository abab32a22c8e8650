// Rails-style wrappers through import (docs/import.md, "Request envelopes"): a Shopify-style document whose bodies
// and answers are `{ "product": … }` and whose list answers `{ "products": [...] }` imports as resource Product with
// create, read, update, delete and list actions (before: custom operations on a resource ProductEnvelope with no
// identifier; its delete answering `200 {}` custom too), served, and held by the tester to no failure; the export's wrapper comes back through a round trip.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { modelToSpec } from '../../src/export/model-to-spec.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { testService } from '../../src/tester/tester-run.js';
import { startService, type Running } from '../runtime/helpers.js';
import { WRAPPED_SPEC } from '../support/request-envelope.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const wrapped = (name: string, member = 'product') => ({ type: 'object', required: [member], properties: { [member]: ref(name) } });
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const problem = { description: 'refused', ...json(ref('Error')) };
const id = [{ name: 'product_id', in: 'path', required: true, schema: { type: 'integer' } }];

export const SHOP_DOC = {
  openapi: '3.1.0',
  info: { title: 'shop', version: '1' },
  paths: {
    '/products': {
      get: {
        operationId: 'listProducts',
        responses: {
          '200': {
            description: 'products',
            ...json({ type: 'object', required: ['products'], properties: { products: { type: 'array', items: ref('Product') } } }),
          },
        },
      },
      post: {
        operationId: 'createProduct',
        requestBody: { required: true, ...json(wrapped('Product')) },
        responses: { '201': { description: 'made', ...json(ref('ProductEnvelope')) }, '422': problem, '400': problem },
      },
    },
    '/products/{product_id}': {
      parameters: id,
      get: { operationId: 'getProduct', responses: { '200': { description: 'the product', ...json(ref('ProductEnvelope')) }, '404': problem } },
      patch: {
        operationId: 'updateProduct',
        requestBody: { required: true, ...json(wrapped('ProductUpdate')) },
        responses: { '200': { description: 'changed', ...json(ref('ProductEnvelope')) }, '404': problem, '422': problem, '400': problem },
      },
      // Shopify's delete answers 200 with an empty object.
      delete: {
        operationId: 'deleteProduct',
        responses: { '200': { description: 'gone', ...json({ type: 'object', additionalProperties: false }) }, '404': problem },
      },
    },
  },
  components: {
    schemas: {
      Product: {
        type: 'object',
        required: ['id', 'title'],
        properties: {
          id: { type: 'integer', readOnly: true },
          title: { type: 'string', minLength: 1, maxLength: 40 },
          vendor: { type: 'string' },
        },
      },
      ProductUpdate: { type: 'object', properties: { title: { type: 'string', minLength: 1, maxLength: 40 }, vendor: { type: 'string' } } },
      ProductEnvelope: wrapped('Product'),
      Error: { type: 'object', required: ['errors'], properties: { errors: { type: 'string' } } },
    },
  },
};

describe('a Shopify-style document imported', () => {
  let imported: Awaited<ReturnType<typeof importOpenApiDocument>>;
  let s: Running | undefined;
  beforeAll(async () => {
    imported = await importOpenApiDocument(structuredClone(SHOP_DOC), 'shop.json');
  });
  afterAll(() => s?.close());

  it('reads the wrappers: Product with create, read, update, delete and list, each body and answer unwrapped', () => {
    const c = compileSpecText(imported.text!);
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const ops = c.model!.endpoints!.operations;
    expect(ops.map((o) => [o.id, o.action, o.resource, o.requestEnvelope?.data, o.envelope?.data])).toEqual([
      ['listProducts', 'list', 'Product', undefined, undefined],
      ['createProduct', 'create', 'Product', 'product', 'product'],
      ['getProduct', 'read', 'Product', undefined, 'product'],
      ['updateProduct', 'update', 'Product', 'product', 'product'],
      ['deleteProduct', 'delete', 'Product', undefined, undefined],
    ]);
    expect(ops[0]!.paging).toMatchObject({ items: 'products' });
    expect(c.model!.resources.find((r) => r.name === 'Product')!.identifier).toBe('id');
    // Nothing is custom, and nothing said is about a custom operation.
    expect(imported.diagnostics.filter((d) => d.code === 'import-custom-operation')).toEqual([]);
    // The delete's `200 {}` is read as 200 with no body, and said.
    expect(ops[4]!.status).toBe(200);
    expect(imported.diagnostics.filter((d) => d.code === 'import-approximated').map((d) => d.message)).toContain(
      'operation deleteProduct: its 200 answer, an empty object is imported as an answer with no body: a delete answers nothing or the object it deleted: the service answers the status with no body where the document answers {}',
    );
  });

  it('served, the tester finds no failure', async () => {
    const c = compileSpecText(imported.text!);
    s = await startService(c.checked!);
    const r = await testService(c.checked!, { baseUrl: s.url, seed: 5, runs: 3 });
    expect(r.results.filter((x) => x.outcome === 'failed').map((x) => [x.check, x.target, x.failure?.actual])).toEqual([]);
    expect(r.results.filter((x) => x.outcome === 'passed').map((x) => x.target)).toContain('createProduct: the body not wrapped in product');
  }, 120_000);
});

describe('a Rails-style PUT', () => {
  it('whose body is a view requiring none of the fields a client must write is an update; the resource’s own schema a replace', async () => {
    const doc = structuredClone(SHOP_DOC) as any; // eslint-disable-line @typescript-eslint/no-explicit-any -- edited by path
    doc.paths['/products/{product_id}'].put = doc.paths['/products/{product_id}'].patch;
    delete doc.paths['/products/{product_id}'].patch;
    const actions = async (d: unknown) =>
      compileSpecText((await importOpenApiDocument(d, 'shop.json')).text!).model!.endpoints!.operations.map((o) => [o.id, o.action]);
    expect(await actions(structuredClone(doc))).toContainEqual(['updateProduct', 'update']);
    doc.paths['/products/{product_id}'].put.requestBody.content['application/json'].schema = wrapped('Product');
    expect(await actions(doc)).toContainEqual(['updateProduct', 'replace']);
  });

  it('a wrapper component named only by wrapped answers is no resource; one a custom operation answers stays one', async () => {
    const r = await importOpenApiDocument(structuredClone(SHOP_DOC), 'shop.json');
    expect(Object.keys(r.document!.resources!)).toEqual(['Product']);
    const doc = structuredClone(SHOP_DOC) as any; // eslint-disable-line @typescript-eslint/no-explicit-any -- edited by path
    doc.paths['/products/{product_id}/publish'] = {
      post: { operationId: 'publishProduct', responses: { '200': { description: 'published', ...json(ref('ProductEnvelope')) } } },
    };
    const again = await importOpenApiDocument(doc, 'shop.json');
    expect(Object.keys(again.document!.resources!).sort()).toEqual(['Product', 'ProductEnvelope']);
  });
});

describe('request_envelope through export and import', () => {
  const model = compileSpecText(WRAPPED_SPEC).model!;
  it('with servicespec’s extensions the operations come back exactly', async () => {
    const back = await importOpenApiDocument(exportOpenApi(model).document as unknown, 'exported.json');
    expect(modelToSpec(compileSpecText(back.text!).model!).endpoints).toEqual(modelToSpec(model).endpoints);
  });
});

// DigitalOcean's answers wrap the object in a member named after it that the document leaves optional
// (`{ droplet: Droplet }`, no `required`): 223 of its operations were custom for it. Read as the envelope, always
// present in served answers, and said; so is a lone optional `data` (`result`, `payload`); a lone optional member
// named otherwise is the answer's own field.
describe('an answer wrapper whose one member the document leaves optional', () => {
  const optional = (name: string, member: string) => ({ type: 'object', properties: { [member]: ref(name) } });
  const doc = (member: string) => ({
    openapi: '3.0.3',
    info: { title: 'cloud', version: '2' },
    paths: {
      '/droplets': {
        post: {
          operationId: 'createDroplet',
          requestBody: { required: true, ...json(ref('DropletCreate')) },
          responses: { '202': { description: 'made', ...json(optional('Droplet', member)) }, '422': problem },
        },
      },
      '/droplets/{droplet_id}': {
        parameters: [{ name: 'droplet_id', in: 'path', required: true, schema: { type: 'integer' } }],
        get: { operationId: 'getDroplet', responses: { '200': { description: 'it', ...json(optional('Droplet', member)) }, '404': problem } },
      },
    },
    components: {
      schemas: {
        Droplet: {
          type: 'object',
          required: ['id', 'name'],
          properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string', maxLength: 40 } },
        },
        DropletCreate: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 40 } } },
        Error: { type: 'object', required: ['errors'], properties: { errors: { type: 'string' } } },
      },
    },
  });

  it('named after its resource, is the envelope: create and read actions, and said at the member', async () => {
    const r = await importOpenApiDocument(doc('droplet'), 'cloud.json');
    const c = compileSpecText(r.text!);
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(c.model!.endpoints!.operations.map((o) => [o.id, o.action, o.resource, o.envelope?.data])).toEqual([
      ['createDroplet', 'create', 'Droplet', 'droplet'],
      ['getDroplet', 'read', 'Droplet', 'droplet'],
    ]);
    expect(r.diagnostics.filter((d) => d.code === 'import-approximated' && d.message.includes('always present')).map((d) => [d.pointer, d.message])).toEqual([
      [
        '/paths/~1droplets/post/responses/202/content/application~1json/schema/properties/droplet',
        "operation createDroplet: the answer's `droplet` is imported as the envelope holding the object, always present: the document leaves the member optional; an answer without it would hold no object",
      ],
      [
        '/paths/~1droplets~1{droplet_id}/get/responses/200/content/application~1json/schema/properties/droplet',
        "operation getDroplet: the answer's `droplet` is imported as the envelope holding the object, always present: the document leaves the member optional; an answer without it would hold no object",
      ],
    ]);
    const s = await startService(c.checked!);
    try {
      const t = await testService(c.checked!, { baseUrl: s.url, seed: 2, runs: 3 });
      expect(t.results.filter((x) => x.outcome === 'failed').map((x) => [x.check, x.target, x.failure?.actual])).toEqual([]);
    } finally {
      await s.close();
    }
  }, 120_000);

  // Directus' answers are `{ data: Presets }` with no `required`: 23 of its operations were custom for it.
  it('named `data`, an envelope name, is the envelope too: served and said', async () => {
    const r = await importOpenApiDocument(doc('data'), 'cloud.json');
    const c = compileSpecText(r.text!);
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(c.model!.endpoints!.operations.map((o) => [o.id, o.action, o.resource, o.envelope?.data])).toEqual([
      ['createDroplet', 'create', 'Droplet', 'data'],
      ['getDroplet', 'read', 'Droplet', 'data'],
    ]);
    expect(r.diagnostics.filter((d) => d.code === 'import-approximated' && d.message.includes('always present')).map((d) => d.pointer)).toEqual([
      '/paths/~1droplets/post/responses/202/content/application~1json/schema/properties/data',
      '/paths/~1droplets~1{droplet_id}/get/responses/200/content/application~1json/schema/properties/data',
    ]);
    const s = await startService(c.checked!);
    try {
      const t = await testService(c.checked!, { baseUrl: s.url, seed: 2, runs: 3 });
      expect(t.results.filter((x) => x.outcome === 'failed').map((x) => [x.check, x.target, x.failure?.actual])).toEqual([]);
    } finally {
      await s.close();
    }
  }, 120_000);

  it('named otherwise, is not: the operations stay custom', async () => {
    const r = await importOpenApiDocument(doc('config'), 'cloud.json');
    const ops = compileSpecText(r.text!).model!.endpoints!.operations;
    expect(ops.map((o) => [o.id, o.action])).toEqual([
      ['createDroplet', 'custom'],
      ['getDroplet', 'custom'],
    ]);
  });
});
