// `paging.first_page` and `paging.members`: Spring Data's `Page<T>` (springdoc: `{content, totalElements,
// totalPages, number (from 0), size, numberOfElements, first, last, empty, pageable: {pageNumber, pageSize, offset}}`
// paged by `?page=&size=`, the page numbered from 0) and Laravel's paginator (`{data, current_page, last_page,
// per_page, total, from, to}` paged by `?page=&per_page=`). Both were custom operations: the importer read neither
// page, so serve answered them 501 and the tester checked them as custom operations. Each reader of the shape is
// held here: check, the OpenAPI export, the typed client, the document, diff, import, the runtime over HTTP (both
// answers) and the tester.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import SwaggerParser from '@apidevtools/swagger-parser';
import { compileSpecText } from '../../src/program.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { generateClient } from '../../src/export/export-client.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';
import { diffModels } from '../../src/diff/diff-run.js';
import { importOpenApiFile } from '../../src/import/import-openapi.js';
import { checkedModel } from '../support/specs.js';
import { testService } from '../../src/tester/tester-run.js';
import { isObject, readJson, startHandServer, type HandServer } from '../support/hand-server.js';
import { startService, type Running } from '../runtime/helpers.js';

const spec = (paging: string) => `servicespec: 1
resources:
  Product:
    fields:
      id: { type: integer, readOnly: true }
      name: { type: string, maxLength: 200 }
endpoints:
  operations:
    createProduct: { method: POST, path: /products, action: create, resource: Product }
    listProducts: { method: GET, path: /products, action: list, resource: Product, filter: [name], paging: ${paging} }
    getProduct: { method: GET, path: '/products/{id}', action: read, resource: Product }
authentication:
  default: none
limits:
  page_size: { default: 20, max: 100 }
errors:
  codes:
    invalid: { status: 422, when: [validation, malformed_request, unsupported_media_type] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
`;
const SPRING_MEMBERS =
  '{ page: [number, pageable.pageNumber], size: [size, pageable.pageSize], pages: totalPages, count: numberOfElements, first: first, last: last, empty: empty, offset: pageable.offset }';
export const SPRING = spec(`{ style: page, first_page: 0, items: content, total: totalElements, params: { limit: size }, members: ${SPRING_MEMBERS} }`);
export const LARAVEL = spec(
  '{ style: page, items: data, total: total, members: { page: current_page, last_page: last_page, size: per_page, from: from, to: to } }',
);

const found = (text: string) =>
  compileSpecText(text)
    .diagnostics.filter((d) => d.severity === 'error' || d.code === 'paging-contradiction')
    .map((d) => [d.code, d.pointer]);

describe('paging.first_page and paging.members: check', () => {
  const at = (key: string) => `/endpoints/operations/listProducts/paging/${key}`;
  it('Spring’s and Laravel’s pages are clean', () => {
    expect(found(SPRING)).toEqual([]);
    expect(found(LARAVEL)).toEqual([]);
  });
  it('first_page on a style without page numbers, or a value other than 0 and 1', () => {
    expect(found(spec('{ style: offset, first_page: 0 }'))).toEqual([['paging-contradiction', at('first_page')]]);
    expect(found(spec('{ style: page, first_page: 2 }'))).toEqual([['invalid-value', at('first_page')]]);
  });
  it('a role on a style that cannot answer it, or with a bare array', () => {
    expect(found(spec('{ style: offset, members: { page: number } }'))).toEqual([['paging-contradiction', at('members/page')]]);
    expect(found(spec('{ members: { size: size } }'))).toEqual([['paging-contradiction', at('members/size')]]);
    expect(found(spec('{ style: limit, members: { last: last } }'))).toEqual([['paging-contradiction', at('members/last')]]);
    expect(found(spec('{ style: page, body: array, link: true, members: { count: count } }'))).toEqual([['paging-contradiction', at('members')]]);
    // count and empty are any page's.
    expect(found(spec('{ members: { count: count, empty: empty } }'))).toEqual([]);
  });
  it('a name twice, a clash with items or total, a member inside another', () => {
    expect(found(spec('{ style: page, members: { page: number, size: number } }'))).toEqual([['paging-contradiction', at('members/size')]]);
    expect(found(spec('{ style: page, items: content, members: { count: content } }'))).toEqual([['paging-contradiction', at('members/count')]]);
    expect(found(spec('{ style: page, total: total, members: { pages: total } }'))).toEqual([['paging-contradiction', at('members/pages')]]);
    expect(found(spec('{ style: page, items: data, members: { size: data.size } }'))).toEqual([['paging-contradiction', at('members/size')]]);
    expect(found(spec('{ style: page, members: { offset: pageable, page: pageable.pageNumber } }'))).toEqual([['paging-contradiction', at('members/offset')]]);
    expect(found(spec('{ style: page, members: { page: [number, number] } }'))).toEqual([['invalid-value', at('members/page')]]);
    expect(found(spec('{ style: page, members: { page: a..b } }'))).toEqual([['invalid-value', at('members/page')]]);
  });
});

describe('paging.first_page and paging.members: export, client, document, diff', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- read by path
  const exported = (text: string, version: '3.1' | '3.0') => exportOpenApi(checkedModel(text), { openapi: version }).document as Record<string, any>;
  for (const version of ['3.1', '3.0'] as const) {
    it(`OpenAPI ${version}: each member required with its type, nested in pageable; the page parameter from 0; swagger-parser validates`, async () => {
      const doc = exported(SPRING, version);
      const get = doc.paths['/products'].get;
      const page = get.responses['200'].content['application/json'].schema;
      expect(page.required).toEqual(['content', 'totalElements', 'number', 'pageable', 'size', 'totalPages', 'numberOfElements', 'first', 'last', 'empty']);
      expect(page.properties.number).toMatchObject({ type: 'integer', minimum: 0 });
      expect(page.properties.first).toMatchObject({ type: 'boolean' });
      expect(page.properties.pageable).toMatchObject({
        type: 'object',
        required: ['pageNumber', 'pageSize', 'offset'],
        properties: { pageNumber: { type: 'integer', minimum: 0 }, pageSize: { type: 'integer', minimum: 1 }, offset: { type: 'integer', minimum: 0 } },
      });
      expect(get.parameters.find((q: { name: string }) => q.name === 'page').schema).toEqual({ type: 'integer', minimum: 0, default: 0 });
      await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
      const laravel = exported(LARAVEL, version);
      const lpage = laravel.paths['/products'].get.responses['200'].content['application/json'].schema;
      expect(lpage.required).toEqual(['data', 'total', 'current_page', 'per_page', 'last_page', 'from', 'to']);
      expect(lpage.properties.from).toMatchObject(version === '3.1' ? { type: ['integer', 'null'] } : { type: 'integer', nullable: true });
      expect(laravel.paths['/products'].get.parameters.find((q: { name: string }) => q.name === 'page').schema).toEqual({
        type: 'integer',
        minimum: 1,
        default: 1,
      });
      await expect(SwaggerParser.validate(structuredClone(laravel) as never)).resolves.toBeDefined();
    });
  }

  it('the typed client reads each member, nested ones as objects, and walks pages from 0; the document names them', () => {
    const code = generateClient(checkedModel(SPRING)).code;
    expect(code).toContain(
      '{ "content": Product[]; "totalElements": number; "number": number; "pageable": { "pageNumber": number; "pageSize": number; "offset": number }; "size": number; "totalPages": number; "numberOfElements": number; "first": boolean; "last": boolean; "empty": boolean }',
    );
    expect(code).toContain('for (let at = 0; ; )');
    expect(generateClient(checkedModel(LARAVEL)).code).toContain('"from": number | null; "to": number | null');
    const doc = renderMarkdown(checkedModel(SPRING));
    expect(doc).toContain("number (the page's number), pageable.pageNumber (the page's number)");
    expect(doc).toContain('pages numbered from 0');
  });

  it('diff: first_page changed or a member removed is breaking; a member added, not', () => {
    const model = (t: string) => compileSpecText(t).model!;
    const codes = (a: string, b: string) => diffModels(model(a), model(b)).changes.map((c) => [c.code, c.impact]);
    const fromOne = SPRING.replace('first_page: 0, ', '');
    const fewer = SPRING.replace(' offset: pageable.offset', '').replace('empty: empty,', 'empty: empty');
    expect(codes(SPRING, fromOne)).toEqual([['list-paging-changed', 'breaking']]);
    expect(codes(SPRING, fewer)).toEqual([['list-paging-changed', 'breaking']]);
    expect(codes(fewer, SPRING)).toEqual([['list-paging-extended', 'non-breaking']]);
    expect(codes(SPRING, SPRING)).toEqual([]);
  });
});

describe('import: springdoc’s Page and Laravel’s paginator are list actions with their members', () => {
  const fixture = (name: string) => new URL(`../fixtures/page-objects/${name}`, import.meta.url).pathname;

  it('springdoc: numbered from 0 (first_page, not an approximation), members top-level and in pageable; sort left out, said', async () => {
    const r = await importOpenApiFile(fixture('springdoc-products.yaml'));
    expect(r.document!.endpoints!.operations!.list).toMatchObject({
      action: 'list',
      resource: 'Product',
      paging: {
        style: 'page',
        first_page: 0,
        items: 'content',
        total: 'totalElements',
        params: { limit: 'size' },
        members: {
          page: ['number', 'pageable.pageNumber'],
          size: ['size', 'pageable.pageSize'],
          pages: 'totalPages',
          count: 'numberOfElements',
          first: 'first',
          last: 'last',
          empty: 'empty',
          offset: 'pageable.offset',
        },
      },
    });
    expect(r.diagnostics.filter((d) => d.code === 'import-approximated' && d.message.includes('page number'))).toEqual([]);
    expect(r.diagnostics.filter((d) => d.code === 'import-custom-operation').map((d) => d.message)).toEqual([]);
    expect(r.diagnostics.filter((d) => d.code === 'import-dropped' && d.message.includes("its page's")).map((d) => d.pointer)).toEqual([
      '/components/schemas/PageProduct/properties/sort',
      '/components/schemas/PageProduct/properties/pageable/properties/sort',
      '/components/schemas/PageProduct/properties/pageable/properties/paged',
      '/components/schemas/PageProduct/properties/pageable/properties/unpaged',
    ]);
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    // Exported again, the page's members are where springdoc had them (sort and paged left out).
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- read by path
    const back = exportOpenApi(r.compiled!.model!, { openapi: '3.0' }).document as Record<string, any>;
    const page = back.paths['/products'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(page.properties).sort()).toEqual(
      ['content', 'empty', 'first', 'last', 'number', 'numberOfElements', 'pageable', 'size', 'totalElements', 'totalPages'].sort(),
    );
    expect(Object.keys(page.properties.pageable.properties).sort()).toEqual(['offset', 'pageNumber', 'pageSize']);
    // The components only the page holds (PageableObject, SortObject) are no resources: before, each was one with
    // no operation, and the export's unreferenced components (Redocly's no-unused-components).
    expect(Object.keys(r.document!.resources!)).toEqual(['Product']);
    expect(Object.keys(back.components.schemas).filter((n) => /Pageable|Sort/.test(n))).toEqual([]);
  });

  it("Laravel: numbered from 1, its members, next_page_url and prev_page_url the neighbouring pages' addresses", async () => {
    const r = await importOpenApiFile(fixture('laravel-posts.yaml'));
    const list = r.document!.endpoints!.operations!['posts.index']!;
    expect(list).toMatchObject({
      action: 'list',
      resource: 'Post',
      paging: {
        style: 'page',
        items: 'data',
        total: 'total',
        next_link: 'next_page_url',
        previous_link: 'prev_page_url',
        members: { page: 'current_page', last_page: 'last_page', size: 'per_page', from: 'from', to: 'to' },
      },
    });
    expect(list.paging!.first_page).toBeUndefined();
    expect(r.diagnostics.filter((d) => d.code === 'import-dropped' && d.message.includes("its page's")).map((d) => d.message.match(/`([^`]+)`/)![1])).toEqual([
      'first_page_url',
      'last_page_url',
      'links',
      'path',
    ]);
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
});

describe('served (fast paths on and off, byte for byte): the members of each page', () => {
  const services: { spring?: Running[]; laravel?: Running[] } = {};
  beforeAll(async () => {
    for (const [key, text] of [
      ['spring', SPRING],
      ['laravel', LARAVEL],
    ] as const) {
      services[key] = [];
      for (const fastPaths of [true, false]) {
        const s = await startService(compileSpecText(text).model!, { fastPaths });
        for (const name of ['a', 'b', 'c', 'd', 'e']) expect((await s.call('POST', '/products', { name })).status).toBe(201);
        services[key].push(s);
      }
    }
  });
  afterAll(async () => {
    for (const s of [...(services.spring ?? []), ...(services.laravel ?? [])]) await s.close();
  });
  /** The page as both services answer it: one text, parsed. */
  const page = async (key: 'spring' | 'laravel', query: string) => {
    const [fast, plain] = await Promise.all(services[key]!.map((s) => fetch(`${s.url}/products${query}`)));
    const texts = [await fast!.text(), await plain!.text()];
    expect(texts[0]).toBe(texts[1]);
    return { status: fast!.status, body: JSON.parse(texts[0]!) as Record<string, unknown> };
  };

  it("Spring's Page: numbered from 0, page=0 the first, nested pageable; page=-1 refused", async () => {
    const first = await page('spring', '?size=2');
    expect(first.status).toBe(200);
    expect(Object.keys(first.body)).toEqual([
      'content',
      'totalElements',
      'number',
      'pageable',
      'size',
      'totalPages',
      'numberOfElements',
      'first',
      'last',
      'empty',
    ]);
    expect(first.body).toMatchObject({
      totalElements: 5,
      number: 0,
      size: 2,
      totalPages: 3,
      numberOfElements: 2,
      first: true,
      last: false,
      empty: false,
      pageable: { pageNumber: 0, pageSize: 2, offset: 0 },
    });
    expect((await page('spring', '?page=0&size=2')).body).toEqual(first.body);
    const last = await page('spring', '?page=2&size=2');
    expect(last.body).toMatchObject({ number: 2, numberOfElements: 1, first: false, last: true, empty: false, pageable: { pageNumber: 2, offset: 4 } });
    expect((last.body.content as { name: string }[]).map((p) => p.name)).toEqual(['e']);
    const past = await page('spring', '?page=3&size=2');
    expect(past.body).toMatchObject({ number: 3, numberOfElements: 0, first: false, last: true, empty: true, totalPages: 3 });
    const none = await page('spring', '?name=zzz');
    expect(none.body).toMatchObject({ totalElements: 0, totalPages: 0, number: 0, first: true, last: true, empty: true });
    expect((await page('spring', '?page=-1')).status).toBe(422);
  });

  it("Laravel's paginator: numbered from 1, from/to null on an empty page, last_page at least 1", async () => {
    const second = await page('laravel', '?page=2&per_page=2');
    expect(Object.keys(second.body)).toEqual(['data', 'total', 'current_page', 'per_page', 'last_page', 'from', 'to']);
    expect(second.body).toMatchObject({ total: 5, current_page: 2, last_page: 3, per_page: 2, from: 3, to: 4 });
    expect((await page('laravel', '?page=3&per_page=2')).body).toMatchObject({ current_page: 3, from: 5, to: 5 });
    expect((await page('laravel', '?page=4&per_page=2')).body).toMatchObject({ current_page: 4, from: null, to: null });
    expect((await page('laravel', '?name=zzz')).body).toMatchObject({ total: 0, current_page: 1, last_page: 1, per_page: 20, from: null, to: null });
    expect((await page('laravel', '?page=0')).status).toBe(422);
  });
});

describe("the tester holds a Spring Page's members to the page it asked for", () => {
  type Fault = 'none' | 'page-index' | 'count' | 'from-one';
  function start(fault: Fault): Promise<HandServer> {
    const products: { id: number; name: string }[] = [];
    return startHandServer((req, reply) => {
      const url = new URL(req.url, 'http://127.0.0.1');
      if (req.method === 'GET' && url.pathname === '/products') {
        for (const k of url.searchParams.keys()) if (k !== 'page' && k !== 'size' && k !== 'name') return reply.problem(422, 'invalid');
        const int = (name: string, fallback: number, min: number) => {
          const v = url.searchParams.get(name);
          if (v === null) return fallback;
          return /^[0-9]+$/.test(v) && Number(v) >= min ? Number(v) : undefined;
        };
        // A service numbering its pages from 1 (the planted fault 'from-one') refuses page 0.
        const first = fault === 'from-one' ? 1 : 0;
        const size = int('size', 20, 1);
        const number = int('page', first, first);
        if (size === undefined || size > 100 || number === undefined) return reply.problem(422, 'invalid');
        const name = url.searchParams.get('name');
        const matching = products.filter((p) => name === null || p.name === name);
        const offset = (number - first) * size;
        const content = matching.slice(offset, offset + size);
        const totalPages = Math.ceil(matching.length / size);
        const index = fault === 'page-index' ? number + 1 : number;
        return reply.json(200, {
          content,
          pageable: { pageNumber: index, pageSize: size, sort: { empty: true, sorted: false, unsorted: true }, offset, paged: true, unpaged: false },
          last: offset + content.length >= matching.length,
          totalElements: matching.length,
          totalPages,
          size,
          number: index,
          sort: { empty: true, sorted: false, unsorted: true },
          first: offset === 0,
          numberOfElements: fault === 'count' ? content.length + 1 : content.length,
          empty: content.length === 0,
        });
      }
      const item = /^\/products\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && item) {
        const p = products.find((x) => String(x.id) === item[1]);
        return p ? reply.json(200, p) : reply.problem(404, 'not_found');
      }
      if (req.method !== 'POST' || url.pathname !== '/products') return reply.problem(404, 'not_found');
      const b = readJson(req);
      if (!isObject(b) || typeof b.name !== 'string' || [...b.name].length > 200 || Object.keys(b).some((k) => k !== 'name'))
        return reply.problem(422, 'invalid');
      const product = { id: products.length + 1, name: b.name };
      products.push(product);
      reply.json(201, product, 'application/json', { location: `/products/${product.id}` });
    });
  }
  const faults = ['none', 'page-index', 'count', 'from-one'] as const;
  const servers: Partial<Record<Fault, HandServer>> = {};
  beforeAll(async () => {
    for (const f of faults) servers[f] = await start(f);
  });
  afterAll(() => Object.values(servers).forEach((s) => s.close()));
  const run = async (fault: Fault) =>
    (await testService(checkedModel(SPRING), { baseUrl: servers[fault]!.url, seed: 1 })).results
      .filter((r) => r.outcome === 'failed')
      .map((r) => `${r.check}: ${r.failure?.actual ?? ''}`);

  it('a faithful Spring Boot service passes (sort and pageable.paged, which the spec leaves out, are extra members)', async () => {
    expect(await run('none')).toEqual([]);
  });

  it('a page index one off, a count wrong, pages numbered from 1: each fails', async () => {
    expect((await run('page-index')).join('\n')).toMatch(/number \d+, not the page asked for \(\d+, numbered from 0\)/);
    expect((await run('count')).join('\n')).toMatch(/numberOfElements \d+, not the number of objects on the page \(\d+\)/);
    // Page 1 answered to a request naming no page (the first, 0), and page 1 answered again to page=1.
    const fromOne = (await run('from-one')).join('\n');
    expect(fromOne).toMatch(/number 1, not the page asked for \(0, numbered from 0\)/);
    expect(fromOne).toMatch(/endpoints.list-paging: .*appears twice/);
  });

  it("serve itself passes, on Spring's page and Laravel's", async () => {
    for (const text of [SPRING, LARAVEL]) {
      const service = await startService(compileSpecText(text).model!);
      try {
        const failed = (await testService(checkedModel(text), { baseUrl: service.url, seed: 1 })).results.filter((r) => r.outcome === 'failed');
        expect(failed.map((r) => `${r.check}: ${r.failure?.actual ?? ''}`)).toEqual([]);
      } finally {
        await service.close();
      }
    }
  });

  it('end to end: the springdoc document imported, served, and the tester passes it', async () => {
    const r = await importOpenApiFile(new URL('../fixtures/page-objects/springdoc-products.yaml', import.meta.url).pathname);
    const model = r.compiled!.checked!;
    const service = await startService(r.compiled!.model!);
    try {
      const failed = (await testService(model, { baseUrl: service.url, seed: 1 })).results.filter((r) => r.outcome === 'failed');
      expect(failed.map((r) => `${r.check}: ${r.failure?.actual ?? ''}`)).toEqual([]);
      const page = await service.call('GET', '/products?page=0&size=1');
      expect(page.body).toMatchObject({ number: 0, size: 1, first: true, pageable: { pageNumber: 0, pageSize: 1, offset: 0 } });
    } finally {
      await service.close();
    }
  });
});
