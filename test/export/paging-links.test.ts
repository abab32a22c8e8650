// `paging.next_link` and `paging.previous_link`: Django REST Framework's page `{ count, next, previous, results }`,
// whose `next` and `previous` are the neighbouring pages' whole addresses (null at either end), on paths that end
// in a slash (`/api/books/{id}/`). Without them every DRF list was imported as a custom operation (its `next` read
// as a cursor the list takes no parameter for, its `previous` fitting nothing) and every item path's read, update
// and delete too (the path "goes on after {id}"), so serve answered them 501 and the tester checked none of them.
// Each reader of the shape is held here: check, the OpenAPI export, the typed client, the document, diff, import,
// the runtime over HTTP and the tester.
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
  Book:
    fields:
      id: { type: integer, readOnly: true }
      title: { type: string, maxLength: 200 }
endpoints:
  operations:
    createBook: { method: POST, path: /api/books/, action: create, resource: Book }
    listBooks: { method: GET, path: /api/books/, action: list, resource: Book, filter: [title], paging: ${paging} }
    getBook: { method: GET, path: '/api/books/{id}/', action: read, resource: Book }
authentication:
  default: none
limits:
  page_size: { default: 10, max: 100 }
errors:
  codes:
    invalid: { status: 422, when: [validation, malformed_request, unsupported_media_type] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
`;
const DRF = spec('{ style: offset, items: results, total: count, next_link: next, previous_link: previous }');
const PLAIN = spec('{ style: offset, items: results, total: count }');

const found = (text: string) =>
  compileSpecText(text)
    .diagnostics.filter((d) => d.severity === 'error' || d.code === 'paging-contradiction')
    .map((d) => [d.code, d.pointer]);

describe('paging.next_link and paging.previous_link', () => {
  it('check: the spec is clean; a name given twice, a bare array, a cursor going back or a style with no next page is paging-contradiction', () => {
    expect(found(DRF)).toEqual([]);
    const at = (key: string) => `/endpoints/operations/listBooks/paging/${key}`;
    expect(found(spec('{ style: offset, items: results, next_link: results }'))).toEqual([['paging-contradiction', at('next_link')]]);
    expect(found(spec('{ style: offset, items: results, next_link: next, previous_link: next }'))).toEqual([['paging-contradiction', at('previous_link')]]);
    expect(found(spec('{ style: offset, body: array, next_link: next }'))).toEqual([['paging-contradiction', at('next_link')]]);
    expect(found(spec('{ style: cursor, items: results, previous_link: previous }'))).toEqual([['paging-contradiction', at('previous_link')]]);
    expect(found(spec('{ style: none, items: results, next_link: next }'))).toEqual([['paging-contradiction', at('next_link')]]);
    // A cursor list may carry its next page in the address alone (`next: false`).
    expect(found(spec('{ items: results, next: false, next_link: next }'))).toEqual([]);
    expect(found(spec('{ items: results, next: false }'))).toEqual([['paging-contradiction', at('next')]]);
  });

  it('the OpenAPI export (3.1 and 3.0): each a required nullable uri; the typed client and the document', () => {
    const page = (version?: '3.0') => {
      const doc = exportOpenApi(checkedModel(DRF), version ? { openapi: version } : {}).document as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- read by path
      return doc.paths['/api/books/'].get.responses['200'].content['application/json'].schema;
    };
    expect(page().required).toEqual(['results', 'count', 'next', 'previous']);
    expect(page().properties.next).toMatchObject({ type: ['string', 'null'], format: 'uri' });
    expect(page('3.0').properties.previous).toMatchObject({ type: 'string', nullable: true, format: 'uri' });
    expect(generateClient(checkedModel(DRF)).code).toContain('{ "results": Book[]; "count": number; "next": string | null; "previous": string | null }');
    expect(renderMarkdown(checkedModel(DRF))).toContain("`{ results, count, next (the next page's address), previous (the previous page's address) }`");
  });

  it('diff: either removed is breaking; added, not', () => {
    const model = (t: string) => compileSpecText(t).model!;
    const codes = (a: string, b: string) => diffModels(model(a), model(b)).changes.map((c) => [c.code, c.impact]);
    expect(codes(DRF, PLAIN)).toEqual([['list-paging-changed', 'breaking']]);
    expect(codes(PLAIN, DRF)).toEqual([
      ['list-paging-extended', 'non-breaking'],
      ['list-paging-extended', 'non-breaking'],
    ]);
    expect(codes(DRF, DRF)).toEqual([]);
  });
});

/** A Django REST Framework document as drf-spectacular writes it (trimmed to one resource). */
function drfDocument(next: Record<string, unknown>, params: string[]) {
  return {
    openapi: '3.0.3',
    info: { title: 'Books', version: '1.0.0' },
    paths: {
      '/api/books/': {
        get: {
          operationId: 'books_list',
          parameters: params.map((name) => ({ name, in: 'query', required: false, schema: { type: 'integer' } })),
          responses: { '200': { description: '', content: { 'application/json': { schema: { $ref: '#/components/schemas/PaginatedBookList' } } } } },
        },
        post: {
          operationId: 'books_create',
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Book' } } }, required: true },
          responses: { '201': { description: '', content: { 'application/json': { schema: { $ref: '#/components/schemas/Book' } } } } },
        },
      },
      '/api/books/{id}/': {
        get: {
          operationId: 'books_retrieve',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: { '200': { description: '', content: { 'application/json': { schema: { $ref: '#/components/schemas/Book' } } } } },
        },
        delete: {
          operationId: 'books_destroy',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: { '204': { description: 'No response body' } },
        },
      },
    },
    components: {
      schemas: {
        Book: {
          type: 'object',
          properties: { id: { type: 'integer', readOnly: true }, title: { type: 'string', maxLength: 200 } },
          required: ['id', 'title'],
        },
        PaginatedBookList: {
          type: 'object',
          required: ['count', 'results'],
          properties: {
            count: { type: 'integer', example: 123 },
            next: next,
            previous: { type: 'string', nullable: true, format: 'uri', example: 'http://api.example.org/accounts/?offset=200&limit=100' },
            results: { type: 'array', items: { $ref: '#/components/schemas/Book' } },
          },
        },
      },
    },
  };
}

describe("import: a Django REST Framework document's lists and item paths are resource actions", () => {
  const URI_NEXT = { type: 'string', nullable: true, format: 'uri', example: 'http://api.example.org/accounts/?offset=400&limit=100' };

  it('limit/offset paging: a list of style offset with its count, next and previous; /books/{id}/ read and deleted', async () => {
    const r = await importOpenApiDocument(drfDocument(URI_NEXT, ['limit', 'offset']) as unknown, 'drf.json');
    expect(r.diagnostics.filter((d) => d.code === 'import-custom-operation').map((d) => d.message)).toEqual([]);
    const ops = r.document!.endpoints!.operations!;
    expect(ops.books_list).toMatchObject({
      action: 'list',
      paging: { style: 'offset', items: 'results', total: 'count', next_link: 'next', previous_link: 'previous' },
    });
    expect(ops.books_retrieve).toMatchObject({ action: 'read', path: '/api/books/{id}/', resource: 'Book' });
    expect(ops.books_destroy).toMatchObject({ action: 'delete', path: '/api/books/{id}/', resource: 'Book' });
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    // Exported again, the page's properties are where the original had them.
    const back = exportOpenApi(r.compiled!.model!, { openapi: '3.0' }).document as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- read by path
    const page = back.paths['/api/books/'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(page.properties).sort()).toEqual(['count', 'next', 'previous', 'results']);
    expect(page.properties.next).toMatchObject({ type: 'string', nullable: true, format: 'uri' });
  });

  it('page-number paging, and a `next` of no stated format on it, read as the next page address', async () => {
    const r = await importOpenApiDocument(drfDocument({ type: 'string', nullable: true }, ['page', 'page_size']) as unknown, 'drf-pages.json');
    expect(r.document!.endpoints!.operations!.books_list).toMatchObject({
      action: 'list',
      paging: { style: 'page', items: 'results', total: 'count', next_link: 'next', previous_link: 'previous', params: { limit: 'page_size' } },
    });
  });

  it("cursor paging with a previous page's address stays custom, saying why (a cursor is not moved back)", async () => {
    const r = await importOpenApiDocument(drfDocument(URI_NEXT, ['cursor', 'page_size']) as unknown, 'drf-cursor.json');
    expect(r.document!.endpoints!.operations!.books_list!.action).toBe('custom');
    expect(r.diagnostics.find((d) => d.code === 'import-custom-operation')?.message).toContain("`previous`, the previous page's address");
  });
});

describe('served: the page holds the neighbouring pages’ whole addresses', () => {
  let service: Running;
  beforeAll(async () => {
    service = await startService(compileSpecText(DRF).model!);
    for (const title of ['a', 'b', 'c', 'd', 'e']) expect((await service.call('POST', '/api/books/', { title })).status).toBe(201);
  });
  afterAll(async () => service?.close());

  it('next and previous keep the query (a filter included), null at either end; the item path with its slash reads', async () => {
    const origin = new URL(service.url).origin;
    const first = await service.call('GET', '/api/books/?limit=2');
    expect(first.status).toBe(200);
    expect(Object.keys(first.body)).toEqual(['results', 'count', 'next', 'previous']);
    expect(first.body).toMatchObject({ count: 5, next: `${origin}/api/books/?limit=2&offset=2`, previous: null });
    const middle = await service.call('GET', '/api/books/?limit=2&offset=3');
    expect(middle.body).toMatchObject({ next: null, previous: `${origin}/api/books/?limit=2&offset=1` });
    const filtered = await service.call('GET', '/api/books/?title=a&limit=1&offset=1');
    expect(filtered.body).toMatchObject({ count: 1, next: null, previous: `${origin}/api/books/?title=a&limit=1&offset=0` });
    const read = await service.call('GET', `/api/books/${first.body.results[0].id}/`);
    expect([read.status, read.body.title]).toEqual([200, 'a']);
  });
});

describe('the tester holds a page to its next and previous addresses', () => {
  type Fault = 'none' | 'next-offset' | 'previous-on-first' | 'filter-dropped' | 'relative';
  function start(fault: Fault): Promise<HandServer> {
    const books: { id: number; title: string }[] = [];
    return startHandServer((req, reply) => {
      const url = new URL(req.url, 'http://127.0.0.1');
      const here = `http://${req.headers.host}${url.pathname}`;
      if (req.method === 'GET' && url.pathname === '/api/books/') {
        for (const k of url.searchParams.keys()) if (k !== 'limit' && k !== 'offset' && k !== 'title') return reply.problem(422, 'invalid');
        const size = Number(url.searchParams.get('limit') ?? '10');
        const offset = Number(url.searchParams.get('offset') ?? '0');
        if (!Number.isInteger(size) || size < 1 || size > 100 || !Number.isInteger(offset) || offset < 0) return reply.problem(422, 'invalid');
        const title = url.searchParams.get('title');
        const matching = books.filter((b) => title === null || b.title === title);
        const at = (o: number | null) => {
          if (o === null) return null;
          const q = new URLSearchParams(url.searchParams);
          q.set('limit', String(size));
          // Django REST Framework leaves the offset out of the first page's address.
          if (o === 0) q.delete('offset');
          else q.set('offset', String(o));
          if (fault === 'filter-dropped') q.delete('title');
          return fault === 'relative' ? `${url.pathname}?${q.toString()}` : `${here}?${q.toString()}`;
        };
        const next = offset + size < matching.length ? at(fault === 'next-offset' ? offset + size + 1 : offset + size) : null;
        const previous = offset > 0 ? at(Math.max(0, offset - size)) : fault === 'previous-on-first' ? at(0) : null;
        return reply.json(200, { count: matching.length, next, previous, results: matching.slice(offset, offset + size) });
      }
      const item = /^\/api\/books\/([^/]+)\/$/.exec(url.pathname);
      if (req.method === 'GET' && item) {
        const b = books.find((x) => String(x.id) === item[1]);
        return b ? reply.json(200, b) : reply.problem(404, 'not_found');
      }
      if (req.method !== 'POST' || url.pathname !== '/api/books/') return reply.problem(404, 'not_found');
      const b = readJson(req);
      if (!isObject(b) || typeof b.title !== 'string' || [...b.title].length > 200 || Object.keys(b).some((k) => k !== 'title'))
        return reply.problem(422, 'invalid');
      const book = { id: books.length + 1, title: b.title };
      books.push(book);
      reply.json(201, book, 'application/json', { location: `/api/books/${book.id}/` });
    });
  }
  const faults = ['none', 'next-offset', 'previous-on-first', 'filter-dropped', 'relative'] as const;
  const servers: Partial<Record<Fault, HandServer>> = {};
  beforeAll(async () => {
    for (const f of faults) servers[f] = await start(f);
  });
  afterAll(() => Object.values(servers).forEach((s) => s.close()));
  const run = async (fault: Fault) =>
    (await testService(checkedModel(DRF), { baseUrl: servers[fault]!.url, seed: 1 })).results
      .filter((r) => r.outcome === 'failed')
      .map((r) => `${r.check}: ${r.failure?.actual ?? ''}`);

  it('a faithful Django REST Framework service passes', async () => {
    expect(await run('none')).toEqual([]);
  });

  it('a next address one off, a previous address on the first page, a filter dropped from the address, a relative address: each fails', async () => {
    expect((await run('next-offset')).join('\n')).toMatch(/next "http:.*offset=\d+.*", not the next page's address \(offset=\d+\)/);
    expect((await run('previous-on-first')).join('\n')).toMatch(/previous "http:.*" on the first page \(null there\)/);
    expect((await run('filter-dropped')).join('\n')).toMatch(/which does not ask title=.* as the request did/);
    expect((await run('relative')).join('\n')).toMatch(/not a whole address \(a scheme and a host\)/);
  });
});
