// Lists through export, import and serve (docs/import.md, "Lists"; docs/format.md, "List shapes"): each paging style
// exported validates with swagger-parser, comes back from a document without servicespec's extensions as the same
// list, and the imported petstores serve GET /pets with 200 and a bare array (before: a custom operation, 501).
import SwaggerParser from '@apidevtools/swagger-parser';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { serializeDocument } from '../../src/export/export-shared.js';
import { importOpenApiDocument, importOpenApiFile } from '../../src/import/import-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { startService } from '../runtime/helpers.js';
import { OPENAPI_FIXTURES } from '../export/helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'servicespec-lists-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const STYLES: Record<string, string> = {
  cursorEnvelope: '',
  cursorArrayLink: '{ body: array, link: true }',
  cursorNamed: '{ items: data, next: after, total: count }',
  offsetTotal: '{ style: offset, items: data, total: total_count }',
  offsetArray: '{ style: offset, body: array }',
  pageLink: '{ style: page, body: array, link: true }',
  pageEnvelope: '{ style: page, items: results, total: total }',
  limitOnly: '{ style: limit, body: array }',
  none: '{ style: none, body: array }',
  // paging.params: names other APIs use, recognised by the import of a document without servicespec's extensions.
  cursorContinue: '{ params: { cursor: continue } }',
  cursorToken: '{ items: files, next: nextPageToken, params: { limit: pageSize, cursor: pageToken } }',
  offsetSkip: '{ style: offset, body: array, link: true, params: { offset: skip } }',
  pageNumbered: '{ style: page, items: results, params: { page: page_number, limit: page_size } }',
  // paging.total_header: the total in a response header (X-Total-Count), with a bare array and beside an envelope's.
  pageTotalHeader: '{ style: page, body: array, link: true, total_header: X-Total-Count }',
  offsetTotalHeader: '{ style: offset, items: data, total: total_count, total_header: X-Total }',
  // Stripe's: { data, has_more }, ?limit=&starting_after=<the last id>; and a bare array paged by starting_after.
  afterHasMore: '{ style: after, items: data, has_more: has_more }',
  afterArray: '{ style: after, body: array }',
  // Stripe's whole list object: { object: "list", data, has_more, url }.
  afterListObject: '{ style: after, items: data, has_more: has_more, constants: { object: list }, url: url }',
  // Shopify's: { products: [...] }, ?limit=&page_info=, the next page's cursor only in the Link header.
  cursorLinkOnly: '{ items: products, next: false, link: true, params: { cursor: page_info } }',
  // Django REST Framework's: { count, next, previous, results }, the neighbouring pages' whole addresses.
  offsetLinks: '{ style: offset, items: results, total: count, next_link: next, previous_link: previous }',
  pageLinks: '{ style: page, items: results, total: count, next_link: next, previous_link: previous }',
};

function spec(): string {
  const ops = Object.entries(STYLES)
    .map(
      ([id, paging], i) =>
        `    ${id}: { method: GET, path: /l${i}/pets, action: list, resource: Pet, filter: [tag]${paging === '' ? '' : `, paging: ${paging}`} }`,
    )
    .join('\n');
  return `servicespec: 1
resources:
  Pet:
    fields:
      id: { type: integer, readOnly: true }
      name: { type: string }
      tag: { type: string, optional: true }
endpoints:
  operations:
    createPet: { method: POST, path: /pets, action: create, resource: Pet }
${ops}
authentication:
  default: none
errors:
  codes:
    bad: { status: 422, when: [validation] }
    other: { status: 400, when: [malformed_request, route_not_found, method_not_allowed, unsupported_media_type, internal, unique_conflict] }
`;
}

/** The document without servicespec's own extensions, as another tool would have written it. */
function foreign(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(foreign);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => !k.startsWith('x-servicespec'))
        .map(([k, x]) => [k, foreign(x)]),
    );
  return v;
}

describe('lists through export and import', () => {
  const compiled = compileSpecText(spec());
  it('the spec checks', () => {
    expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it.each(['3.1', '3.0'] as const)('OpenAPI %s: validates with swagger-parser, declares Link where stated', async (version) => {
    const doc = exportOpenApi(compiled.model!, { openapi: version }).document as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads the exported document by path
    const file = join(tmp, `lists-${version}.json`);
    writeFileSync(file, serializeDocument(doc, 'json'));
    await expect(SwaggerParser.validate(file)).resolves.toBeDefined();
    const get = (i: number) => doc.paths[`/l${i}/pets`].get;
    expect(get(1).responses['200'].headers).toEqual({ Link: { $ref: '#/components/headers/Link' } });
    expect(get(0).responses['200'].headers).toBeUndefined();
    expect(get(3).parameters.map((p: { name: string }) => p.name)).toEqual(['limit', 'offset', 'tag']);
    expect(get(5).parameters.map((p: { name: string }) => p.name)).toEqual(['page', 'per_page', 'tag']);
    expect(get(8).parameters.map((p: { name: string }) => p.name)).toEqual(['tag']);
    expect(get(9).parameters.map((p: { name: string }) => p.name)).toEqual(['limit', 'continue', 'tag']);
    expect(get(10).parameters.map((p: { name: string }) => p.name)).toEqual(['pageSize', 'pageToken', 'tag']);
    expect(get(11).parameters.map((p: { name: string }) => p.name)).toEqual(['limit', 'skip', 'tag']);
    expect(get(12).parameters.map((p: { name: string }) => p.name)).toEqual(['page_number', 'page_size', 'tag']);
    expect(get(10).responses['200'].content['application/json'].schema.properties.nextPageToken.description).toContain('`pageToken`');
    const total = { description: expect.stringContaining('matching the query') as unknown, required: true, schema: { type: 'integer', minimum: 0 } };
    expect(get(13).responses['200'].headers).toEqual({ Link: { $ref: '#/components/headers/Link' }, 'X-Total-Count': total });
    expect(get(14).responses['200'].headers).toEqual({ 'X-Total': total });
    expect(get(15).parameters.map((p: { name: string }) => p.name)).toEqual(['limit', 'starting_after', 'tag']);
    expect(get(15).parameters[1].schema).toEqual({ type: 'integer' });
    expect(get(15).responses['200'].content['application/json'].schema.required).toEqual(['data', 'has_more']);
  });

  it("names no other API uses come back through servicespec's own export (x-servicespec-operation)", async () => {
    const text = spec().replace(
      '    createPet:',
      '    odd: { method: GET, path: /odd/pets, action: list, resource: Pet, paging: { style: offset, params: { offset: from, limit: n } } }\n    createPet:',
    );
    const model = compileSpecText(text).model!;
    const doc = exportOpenApi(model, { openapi: '3.1' }).document as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads the exported document by path
    expect(doc.paths['/odd/pets'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['n', 'from']);
    const r = await importOpenApiDocument(JSON.parse(JSON.stringify(doc)) as unknown, 'own.json');
    expect(r.document!.endpoints!.operations!.odd!.paging).toEqual({ style: 'offset', params: { offset: 'from', limit: 'n' } });
    const back = compileSpecText(r.text!).model!.endpoints!.operations.find((o) => o.id === 'odd')!;
    expect(back.paging?.params).toEqual({ offset: 'from', limit: 'n' });
  });

  it.each(['3.1', '3.0'] as const)('OpenAPI %s without servicespec extensions: every style comes back as the same list', async (version) => {
    const doc = foreign(exportOpenApi(compiled.model!, { openapi: version }).document);
    const r = await importOpenApiDocument(JSON.parse(JSON.stringify(doc)) as unknown, 'foreign.json');
    const ops = r.document!.endpoints!.operations!;
    expect(r.diagnostics.filter((d) => d.code === 'import-custom-operation')).toEqual([]);
    const again = compileSpecText(spec());
    for (const o of again.model!.endpoints!.operations) {
      if (o.action !== 'list') continue;
      const back = compileSpecText(r.text!).model!.endpoints!.operations.find((x) => x.path === o.path)!;
      expect([back.action, back.paging], o.id).toEqual(['list', { ...o.paging, declared: back.paging!.declared }]);
      expect(Object.values(ops).find((x) => x.path === o.path)?.filter).toEqual(['tag']);
    }
  });
});

describe('the imported petstores serve GET /pets', () => {
  it.each(['oai-petstore.yaml', 'oai-petstore-expanded.yaml'])('%s: GET /pets answers 200 with a bare array, limit honoured', async (file) => {
    const r = await importOpenApiFile(join(OPENAPI_FIXTURES, file));
    const compiled = compileSpecText(r.text!);
    expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const pets = compiled.model!.endpoints!.operations.find((o) => o.method === 'GET' && o.path === '/pets')!;
    expect([pets.action, pets.paging?.style, pets.paging?.body]).toEqual(['list', 'limit', 'array']);
    const service = await startService(compiled.model!, { allowGaps: true });
    try {
      const empty = await service.call('GET', '/pets');
      expect([empty.status, empty.body]).toEqual([200, []]);
      const create = compiled.model!.endpoints!.operations.find((o) => o.method === 'POST' && o.path === '/pets')!;
      if (create.action === 'create') {
        // petstore's create takes the client's id (identifier_source: client): one each
        for (const [i, name] of ['a', 'b', 'c'].entries())
          expect((await service.call('POST', '/pets', { name, ...(file === 'oai-petstore.yaml' ? { id: i + 1 } : {}) })).status).toBeLessThan(300);
        const two = await service.call('GET', '/pets?limit=2');
        expect(two.status).toBe(200);
        expect(two.body.map((p: { name: string }) => p.name)).toEqual(['a', 'b']);
      }
      const over = await service.call('GET', '/pets?limit=0');
      expect(over.status).toBeGreaterThanOrEqual(400);
      expect(over.status).toBeLessThan(500);
    } finally {
      await service.close();
    }
  });
});

describe("Kubernetes' LeaseList lists", () => {
  it('import as lists: the Leases in `items` (an envelope), paged by `continue`, the cursor in metadata.continue; other query parameters its own, said at their pointers', async () => {
    const r = await importOpenApiFile(join(OPENAPI_FIXTURES, 'kubernetes-coordination-v1.json'));
    const compiled = compileSpecText(r.text!);
    expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    for (const [id, bind] of [
      ['listCoordinationV1NamespacedLease', { namespace: 'metadata.namespace' }],
      ['listCoordinationV1LeaseForAllNamespaces', undefined],
    ] as const) {
      const spec = r.document!.endpoints!.operations![id]!;
      expect([spec.action, spec.resource, spec.paging, spec.bind], id).toEqual([
        'list',
        'io.k8s.api.coordination.v1.Lease',
        { body: 'array', params: { cursor: 'continue' } },
        bind,
      ]);
      const o = compiled.model!.endpoints!.operations.find((x) => x.id === id)!;
      expect(o.envelope?.data).toBe('items');
      expect(o.envelope?.values.map((v) => [v.source, v.path.join('.')])).toEqual([['next', 'metadata.continue']]);
      expect(r.diagnostics.filter((d) => d.code === 'import-custom-operation' && d.message.includes(`\`${id}\``))).toEqual([]);
      // The other query parameters are the list's own, validated and not otherwise used: each said once, at its
      // first operation's pointer (before: each left out, and a request sending one refused).
      const own = [
        'allowWatchBookmarks',
        'fieldSelector',
        'labelSelector',
        'pretty',
        'resourceVersion',
        'resourceVersionMatch',
        'sendInitialEvents',
        'timeoutSeconds',
        'watch',
      ];
      expect(Object.keys((spec as { query?: object }).query ?? {}).sort()).toEqual(own.sort());
      expect(r.diagnostics.filter((d) => d.code === 'import-dropped' && d.message.startsWith(`operation ${id}: query parameter`))).toEqual([]);
      for (const name of own) {
        const said = r.diagnostics.find((x) => x.code === 'import-approximated' && x.message.startsWith(`query parameter \`${name}\``));
        expect(said?.pointer, name).toMatch(/^\/paths\/~1apis~1coordination\.k8s\.io~1v1~1.*\/parameters\/\d+$/);
      }
    }
  });
});

// A list's page component (`ShipmentPage: { items: [Shipment], total }`) is the list's answer, held by its paging: no
// resource of its own (before: a resource `ShipmentPage` with an identifier gap). One that is also another
// operation's body stays a resource.
describe('a list page component', () => {
  const SHIPMENTS = join(OPENAPI_FIXTURES, '..', '..', 'tester', 'fixtures', 'shipments.openapi.yaml');
  const gapsOf = (r: Awaited<ReturnType<typeof importOpenApiFile>>) =>
    r.gaps!.parts.flatMap((p) => p.missing.map((g) => `${g.item}${g.where !== undefined ? ` (${g.where})` : ''}`));
  type Doc = { paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } };
  const shipments = () => parse(readFileSync(SHIPMENTS, 'utf8')) as Doc;
  /** The value at these keys of a JSON document. */
  const at = (v: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], v);

  it('shipments.openapi.yaml: ShipmentPage is no resource, has no identifier gap, and the list keeps its { items, total } page', async () => {
    const r = await importOpenApiFile(SHIPMENTS);
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(Object.keys(r.document!.resources!)).toEqual(['Shipment']);
    expect(gapsOf(r).filter((g) => g.includes('ShipmentPage'))).toEqual([]);
    // Its read-only required fields with no stated source are set by the service (source: service): the only gaps.
    const resources = r.gaps!.parts.find((p) => p.part === 'resources')!;
    expect(resources.missing.filter((g) => g.item !== 'value of a read-only field the service sets')).toEqual([]);
    const list = r.document!.endpoints!.operations!.listShipments!;
    expect([list.action, list.resource, list.paging]).toEqual(['list', 'Shipment', { style: 'offset', total: 'total' }]);
    // Exported again, the list answers the page at the same positions.
    const doc = exportOpenApi(r.compiled!.model!, { openapi: '3.0' }).document;
    let schema = at(doc, 'paths', '/shipments', 'get', 'responses', '200', 'content', 'application/json', 'schema');
    const ref = at(schema, '$ref');
    if (typeof ref === 'string') schema = at(doc, 'components', 'schemas', ref.split('/').at(-1)!);
    expect(Object.keys(at(schema, 'properties') as object).sort()).toEqual(['items', 'total']);
    expect(at(schema, 'properties', 'items', 'type')).toBe('array');
  });

  it('a list envelope component ({ data: [Shipment], meta: { total_count } }) is no resource either', async () => {
    const doc = shipments();
    doc.components.schemas.ShipmentPage = {
      type: 'object',
      required: ['data', 'meta'],
      properties: {
        data: { type: 'array', items: { $ref: '#/components/schemas/Shipment' } },
        meta: { type: 'object', required: ['total_count'], properties: { total_count: { type: 'integer' } } },
      },
    };
    const r = await importOpenApiDocument(doc, 'shipments-envelope.yaml');
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(Object.keys(r.document!.resources!)).toEqual(['Shipment']);
    const list = r.document!.endpoints!.operations!.listShipments!;
    expect([list.action, list.resource, list.envelope]).toMatchObject(['list', 'Shipment', { data: 'data', total: 'meta.total_count' }]);
  });

  it('a page component another operation answers as its own body stays a resource', async () => {
    const doc = shipments();
    doc.paths['/shipments/search'] = {
      post: {
        operationId: 'searchShipments',
        requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { sku: { type: 'string' } } } } } },
        responses: { '200': { description: 'The matches.', content: { 'application/json': { schema: { $ref: '#/components/schemas/ShipmentPage' } } } } },
      },
    };
    const r = await importOpenApiDocument(doc, 'shipments-search.yaml');
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(Object.keys(r.document!.resources!).sort()).toEqual(['Shipment', 'ShipmentPage']);
    expect(r.document!.endpoints!.operations!.searchShipments!.response).toEqual({ resource: 'ShipmentPage' });
    expect(r.document!.endpoints!.operations!.listShipments!.action).toBe('list');
  });
});

describe('a Stripe-style list with a sort parameter', () => {
  it('is a list of style after without `sort` (it runs in identifier order), the parameter said, and the spec checks', async () => {
    const doc = {
      openapi: '3.1.0',
      info: { title: 'Charges', version: '1' },
      paths: {
        '/charges': {
          get: {
            operationId: 'listCharges',
            parameters: [
              { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
              { name: 'starting_after', in: 'query', schema: { type: 'string' } },
              { name: 'sort', in: 'query', schema: { type: 'string', enum: ['created', '-created'] } },
            ],
            responses: {
              '200': {
                description: 'a page',
                content: {
                  'application/json': {
                    schema: {
                      type: 'object',
                      required: ['data', 'has_more'],
                      properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Charge' } }, has_more: { type: 'boolean' } },
                    },
                  },
                },
              },
            },
          },
        },
        '/charges/{id}': {
          get: {
            operationId: 'getCharge',
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            responses: { '200': { description: 'one', content: { 'application/json': { schema: { $ref: '#/components/schemas/Charge' } } } } },
          },
        },
      },
      components: {
        schemas: {
          Charge: {
            type: 'object',
            required: ['id', 'created'],
            properties: { id: { type: 'string', readOnly: true }, created: { type: 'integer' } },
          },
        },
      },
    };
    const r = await importOpenApiDocument(doc as unknown, 'charges.json');
    const list = r.document!.endpoints!.operations!.listCharges!;
    expect(list).toMatchObject({ action: 'list', paging: { style: 'after', items: 'data', has_more: 'has_more' } });
    expect(list.sort).toBeUndefined();
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const said = r.diagnostics.find((d) => d.pointer === '/paths/~1charges/get/parameters/2');
    expect(said?.code).toBe('import-dropped');
    expect(said?.message).toContain('identifier order');
  });
});

describe("Spring's ?page=&size=", () => {
  const doc = (page: Record<string, unknown>, size: Record<string, unknown>) => ({
    openapi: '3.0.1',
    info: { title: 'Items', version: '1' },
    paths: {
      '/items': {
        get: {
          operationId: 'listItems',
          parameters: [
            { name: 'page', in: 'query', schema: page },
            { name: 'size', in: 'query', schema: size },
          ],
          responses: {
            '200': { description: 'a page', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Item' } } } } },
          },
        },
      },
    },
    components: { schemas: { Item: { type: 'object', required: ['id'], properties: { id: { type: 'integer', readOnly: true } } } } },
  });

  it('`size` beside a page number is the page size; a page counted from 0 is paging.first_page 0, not an approximation', async () => {
    const r = await importOpenApiDocument(
      doc({ type: 'integer', minimum: 0, default: 0 }, { type: 'integer', minimum: 1, default: 20 }) as unknown,
      'spring.json',
    );
    expect(r.document!.endpoints!.operations!.listItems).toMatchObject({
      action: 'list',
      paging: { style: 'page', body: 'array', first_page: 0, params: { limit: 'size' } },
    });
    expect(r.diagnostics.filter((d) => d.code === 'import-dropped' && d.pointer !== '/info/version')).toEqual([]);
    expect(r.diagnostics.filter((d) => d.code === 'import-approximated')).toEqual([]);
  });

  it('a page counted from 1 is not said; a `size` of text (a filter, not a page size) stays out of the paging', async () => {
    const r = await importOpenApiDocument(doc({ type: 'integer', minimum: 1 }, { type: 'string', enum: ['S', 'M', 'L'] }) as unknown, 'sizes.json');
    expect(r.document!.endpoints!.operations!.listItems!.paging).toEqual({ style: 'page', body: 'array' });
    expect(r.diagnostics.filter((d) => d.message.includes('counted from 0'))).toEqual([]);
  });
});
