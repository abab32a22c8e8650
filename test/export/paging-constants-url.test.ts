// `paging.constants` and `paging.url`: Stripe's list object `{ object: "list", data, has_more, url }` holds a field
// that is always one text and the list's own address. Without them an imported Stripe list was a custom operation
// (its `object` read as a next cursor, its `url` fitting nothing), so serve answered it 501 and the tester checked no
// paging of it. Each reader of the shape is held here: check, the OpenAPI export, the typed client, the document,
// diff, import, the runtime over HTTP and the tester's judge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { generateClient } from '../../src/export/export-client.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';
import { diffModels } from '../../src/diff/diff-run.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { testService } from '../../src/tester/tester-run.js';
import { isObject, readJson, startHandServer, type HandServer } from '../support/hand-server.js';
import { checkedModel } from '../support/specs.js';
import { startService, type Running } from '../runtime/helpers.js';

const spec = (paging: string) => `servicespec: 1
resources:
  Charge:
    fields:
      id: { type: string, readOnly: true }
      amount: { type: integer, minimum: 0, maximum: 1000 }
endpoints:
  operations:
    createCharge: { method: POST, path: /v1/charges, action: create, resource: Charge }
    listCharges: { method: GET, path: /v1/charges, action: list, resource: Charge, paging: ${paging} }
authentication:
  default: none
limits:
  page_size: { default: 10, max: 100 }
errors:
  codes:
    invalid: { status: 422, when: [validation, malformed_request, unsupported_media_type] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
`;
const STRIPE = spec('{ style: after, items: data, has_more: has_more, constants: { object: list }, url: url }');
const PLAIN = spec('{ style: after, items: data, has_more: has_more }');

const found = (text: string) =>
  compileSpecText(text)
    .diagnostics.filter((d) => d.severity === 'error' || d.code === 'paging-contradiction')
    .map((d) => [d.code, d.pointer]);
const page = (text: string) => {
  let at: unknown = exportOpenApi(checkedModel(text)).document;
  for (const k of ['paths', '/v1/charges', 'get', 'responses', '200', 'content', 'application/json', 'schema']) at = (at as Record<string, unknown>)[k];
  return at as { required: string[]; properties: Record<string, unknown> };
};

describe('paging.constants and paging.url', () => {
  it('check: the spec is clean; a name given twice, or either key on a bare array, is paging-contradiction', () => {
    expect(found(STRIPE)).toEqual([]);
    const at = (key: string) => `/endpoints/operations/listCharges/paging/${key}`;
    expect(found(spec('{ style: after, items: data, has_more: has_more, constants: { has_more: x } }'))).toEqual([['paging-contradiction', at('constants')]]);
    expect(found(spec('{ style: after, items: data, url: data }'))).toEqual([['paging-contradiction', at('url')]]);
    expect(found(spec('{ style: after, body: array, url: url }'))).toEqual([['paging-contradiction', at('url')]]);
    expect(found(spec('{ style: after, body: array, constants: { object: list } }'))).toEqual([['paging-contradiction', at('constants')]]);
    expect(found(spec('{ style: after, items: data, constants: { object: 1 } }'))[0]?.[0]).toBe('wrong-type');
  });

  it('the OpenAPI export: each constant a required one-value enum ahead of the items, the url a required string', () => {
    const p = page(STRIPE);
    expect(p.required).toEqual(['object', 'data', 'has_more', 'url']);
    expect(Object.keys(p.properties)).toEqual(['object', 'data', 'has_more', 'url']);
    expect(p.properties.object).toEqual({ type: 'string', enum: ['list'] });
    expect(p.properties.url).toMatchObject({ type: 'string' });
    expect(page(PLAIN).required).toEqual(['data', 'has_more']);
  });

  it('the typed client, the document', () => {
    expect(generateClient(checkedModel(STRIPE)).code).toContain('{ "object": "list"; "data": Charge[]; "has_more": boolean; "url": string }');
    expect(renderMarkdown(checkedModel(STRIPE))).toContain('`{ object: "list", data, has_more, url (the request\'s path) }`');
  });

  it('diff: a constant or the url removed or changed is breaking; added, not', () => {
    const model = (t: string) => compileSpecText(t).model!;
    const codes = (a: string, b: string) => diffModels(model(a), model(b)).changes.map((c) => [c.code, c.impact]);
    expect(codes(STRIPE, PLAIN)).toEqual([['list-paging-changed', 'breaking']]);
    expect(codes(STRIPE, STRIPE.replace('object: list', 'object: page'))).toEqual([['list-paging-changed', 'breaking']]);
    expect(codes(PLAIN, STRIPE)).toEqual([
      ['list-paging-extended', 'non-breaking'],
      ['list-paging-extended', 'non-breaking'],
    ]);
    expect(codes(STRIPE, STRIPE)).toEqual([]);
  });

  it("import: Stripe's list object is a list of style after with its constant and url, and comes back in place", async () => {
    const doc = {
      openapi: '3.0.0',
      info: { title: 'Charges', version: '1' },
      paths: {
        '/v1/charges': {
          get: {
            operationId: 'GetCharges',
            parameters: [
              { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
              { name: 'starting_after', in: 'query', schema: { type: 'string', maxLength: 5000 } },
            ],
            responses: {
              '200': {
                description: 'Successful response.',
                content: {
                  'application/json': {
                    schema: {
                      type: 'object',
                      title: 'ChargeList',
                      required: ['data', 'has_more', 'object', 'url'],
                      properties: {
                        data: { type: 'array', items: { $ref: '#/components/schemas/charge' } },
                        has_more: { type: 'boolean', description: 'True if this list has another page of items after this one that can be fetched.' },
                        object: { type: 'string', enum: ['list'], description: "String representing the object's type." },
                        url: { type: 'string', maxLength: 5000, pattern: '^/v1/charges', description: 'The URL where this list can be accessed.' },
                      },
                      additionalProperties: false,
                    },
                  },
                },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          charge: {
            type: 'object',
            required: ['id', 'amount'],
            properties: { id: { type: 'string', maxLength: 5000 }, amount: { type: 'integer' } },
          },
        },
      },
    };
    const r = await importOpenApiDocument(doc as unknown, 'stripe-charges.json');
    expect(r.diagnostics.filter((d) => d.code === 'import-custom-operation')).toEqual([]);
    const list = r.document!.endpoints!.operations!.GetCharges!;
    expect(list).toMatchObject({ action: 'list', paging: { style: 'after', items: 'data', has_more: 'has_more', constants: { object: 'list' }, url: 'url' } });
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    // Exported again, every property of the page is where the original had it.
    const back = exportOpenApi(r.compiled!.model!).document as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads the exported document by path
    const schema = back.paths['/v1/charges'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(schema.properties).sort()).toEqual(['data', 'has_more', 'object', 'url']);
    expect(schema.properties.object).toEqual({ type: 'string', enum: ['list'] });
    expect([...schema.required].sort()).toEqual(['data', 'has_more', 'object', 'url']);
    // A `url` that is a whole address (format uri) is not the request's path: the page is not read as one with a url.
    const page = doc.paths['/v1/charges'].get.responses['200'].content['application/json'].schema;
    (page.properties as Record<string, unknown>).url = { type: 'string', format: 'uri' };
    const whole = await importOpenApiDocument(doc as unknown, 'stripe-charges-uri.json');
    expect(whole.document!.endpoints!.operations!.GetCharges!.paging?.url).toBeUndefined();
  });
});

describe('served: the page holds the constant and the path it was asked at', () => {
  let service: Running;
  beforeAll(async () => {
    service = await startService(compileSpecText(STRIPE).model!);
    for (const amount of [1, 2, 3]) expect((await service.call('POST', '/v1/charges', { amount })).status).toBe(201);
  });
  afterAll(async () => service?.close());

  it('on every page, in both answers (the query left out of the url)', async () => {
    const first = await service.call('GET', '/v1/charges?limit=2');
    expect(first.status).toBe(200);
    expect(Object.keys(first.body)).toEqual(['object', 'data', 'has_more', 'url']);
    expect(first.body).toMatchObject({ object: 'list', has_more: true, url: '/v1/charges' });
    const last = await service.call('GET', `/v1/charges?limit=2&starting_after=${encodeURIComponent(first.body.data[1].id)}`);
    expect(last.body).toMatchObject({ object: 'list', has_more: false, url: '/v1/charges' });
    expect(last.body.data).toHaveLength(1);
  });
});

describe('the tester holds a page to its constants and url', () => {
  type Fault = 'none' | 'constant' | 'url';
  function start(fault: Fault): Promise<HandServer> {
    const charges: { id: string; amount: number }[] = [];
    return startHandServer((req, reply) => {
      const url = new URL(req.url, 'http://127.0.0.1');
      if (req.method === 'GET' && url.pathname === '/v1/charges') {
        for (const k of url.searchParams.keys()) if (k !== 'limit' && k !== 'starting_after') return reply.problem(422, 'invalid');
        const size = Number(url.searchParams.get('limit') ?? '10');
        if (!Number.isInteger(size) || size < 1 || size > 100) return reply.problem(422, 'invalid');
        const after = url.searchParams.get('starting_after');
        const from = after === null ? 0 : charges.findIndex((c) => c.id === after) + 1;
        if (after !== null && from === 0) return reply.problem(422, 'invalid');
        const data = charges.slice(from, from + size);
        return reply.json(200, {
          object: fault === 'constant' ? 'page' : 'list',
          data,
          has_more: from + size < charges.length,
          url: fault === 'url' ? `${url.pathname}${url.search}` : url.pathname,
        });
      }
      if (req.method !== 'POST' || url.pathname !== '/v1/charges') return reply.problem(404, 'not_found');
      const b = readJson(req);
      if (!isObject(b) || !Number.isInteger(b.amount) || (b.amount as number) < 0 || (b.amount as number) > 1000 || Object.keys(b).length !== 1)
        return reply.problem(422, 'invalid');
      const c = { id: `ch_${charges.length + 1}`, amount: b.amount as number };
      charges.push(c);
      reply.json(201, c, 'application/json', { location: `/v1/charges/${c.id}` });
    });
  }
  const servers: Partial<Record<Fault, HandServer>> = {};
  beforeAll(async () => {
    for (const f of ['none', 'constant', 'url'] as const) servers[f] = await start(f);
  });
  afterAll(() => Object.values(servers).forEach((s) => s.close()));
  const run = async (fault: Fault) =>
    (await testService(checkedModel(STRIPE), { baseUrl: servers[fault]!.url, seed: 1, only: ['listCharges'] })).results
      .filter((r) => r.outcome === 'failed')
      .map((r) => r.failure?.actual ?? '');

  it('a faithful service passes; another constant, or a url with the query in it, fails', async () => {
    expect(await run('none')).toEqual([]);
    expect(await run('constant')).toContainEqual(expect.stringMatching(/^object "page", not "list"/));
    expect(await run('url')).toContainEqual(expect.stringMatching(/^url "\/v1\/charges\?.*", not the list's address "\/v1\/charges"/));
  });
});
