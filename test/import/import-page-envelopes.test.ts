// A list whose page object sits in a response envelope (issue 26): `{ success: true, data: { items, total, page,
// pageSize } }` (NestJS-style), `{ code: 0, msg: ok, data: { list, total } }` (a Result<T> wrapper), Spring's
// `{ status: OK, data: Page<T> }` around lists only (test/fixtures/list-shapes). Each is imported as a list in the
// envelope (paging body envelope: the page object in `data`), served, answered in the original's shape (the original
// document's own response schema, checked with Ajv), and passes the contract tester. Until 2026-11-29 an inline page
// in `data` made the list a custom operation, served 501 without a handler.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument, importOpenApiFile } from '../../src/import/import-openapi.js';
import { testService } from '../../src/tester/tester-run.js';
import { startService } from '../runtime/helpers.js';

type Json = Record<string, unknown>;
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const DIR = new URL('../fixtures/list-shapes/', import.meta.url).pathname;

/** The errors of an answer by one success response schema of the original document (its references resolved in place); '' when none. */
function originalSchema(name: string, path: string, method: string, status: string): (v: unknown) => string {
  const doc = parse(readFileSync(join(DIR, `${name}.openapi.yaml`), 'utf8')) as Json;
  const content = (((doc.paths as Json)[path] as Json)[method] as { responses: Record<string, { content: Record<string, { schema: Json }> }> }).responses[
    status
  ]!.content;
  const schema = Object.values(content)[0]!.schema;
  const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
  const validate = ajv.compile({ ...schema, components: doc.components });
  return (v) => (validate(v) ? '' : ajv.errorsText(validate.errors));
}

/** Each document's first page number and page size parameter (its lists on /articles, its reads on /articles/{id}). */
const CASES: Record<string, { firstPage: number; size: string }> = {
  'express-success-page': { firstPage: 1, size: 'pageSize' },
  'code-msg-list': { firstPage: 1, size: 'pageSize' },
  // Its reads answer bare (envelope: none), as the original's do.
  'spring-status-page': { firstPage: 0, size: 'size' },
};

describe('a page object in a response envelope, imported, served and tested', () => {
  for (const [name, c] of Object.entries(CASES)) {
    it(`${name}: the list answers the original's shape and the contract tester passes`, async () => {
      const r = await importOpenApiFile(join(DIR, `${name}.openapi.yaml`), { specFile: `${name}.servicespec.yaml` });
      expect(r.diagnostics.filter((d) => d.code === 'import-custom-operation')).toEqual([]);
      expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      const listed = originalSchema(name, '/articles', 'get', '200');
      const read = originalSchema(name, '/articles/{id}', 'get', '200');
      const s = await startService(r.compiled!.model!);
      try {
        for (const title of ['Ada', 'Grace', 'Edsger']) expect((await s.call('POST', '/articles', { title })).status).toBeLessThan(300);
        const page = await s.call('GET', `/articles?page=${c.firstPage + 1}&${c.size}=2`);
        expect(page.status).toBe(200);
        expect(listed(page.body)).toBe('');
        const all = await s.call('GET', `/articles?page=${c.firstPage}&${c.size}=2`);
        expect(listed(all.body)).toBe('');
        // The validator tells: the page alone is not the original's answer.
        expect(listed(all.body.data)).not.toBe('');
        const items = Object.values(all.body.data as Json).find(Array.isArray) as Json[];
        expect(items).toHaveLength(2);
        const one = await s.call('GET', `/articles/${String(items[0]!.id)}`);
        expect(one.status).toBe(200);
        expect(read(one.body)).toBe('');

        const report = await testService(r.compiled!.model!, { baseUrl: s.url, seed: 7, runs: 2 });
        expect(report.results.filter((x) => x.outcome === 'failed').map((x) => [x.check, x.target, x.failure?.actual])).toEqual([]);
        for (const check of ['endpoints.list-paging', 'endpoints.envelope'])
          expect(report.results.some((x) => x.check === check && x.outcome === 'passed')).toBe(true);
      } finally {
        await s.close();
      }
    }, 30_000);
  }
});

/** `GET /articles` answering `{ ...envelope, data: { items: [Article], total, ...page } }`, paged by page and pageSize. */
function pageDoc(envelope: Json, page: Json = {}): Json {
  const article = { $ref: '#/components/schemas/Article' };
  const json = (schema: unknown) => ({ 'application/json': { schema } });
  const data = { type: 'object', required: ['items', 'total'], properties: { items: { type: 'array', items: article }, total: { type: 'integer' }, ...page } };
  return {
    openapi: '3.0.3',
    info: { title: 'Articles', version: '1' },
    paths: {
      '/articles': {
        get: {
          operationId: 'listArticles',
          parameters: [
            { name: 'page', in: 'query', schema: { type: 'integer' } },
            { name: 'pageSize', in: 'query', schema: { type: 'integer' } },
          ],
          responses: { '200': { description: 'ok', content: json({ type: 'object', required: ['success', 'data'], properties: { ...envelope, data } }) } },
        },
        post: {
          operationId: 'createArticle',
          requestBody: { required: true, content: json(article) },
          responses: { '201': { description: 'made', content: json(article) } },
        },
      },
    },
    components: {
      schemas: { Article: { type: 'object', required: ['id', 'title'], properties: { id: { type: 'string', readOnly: true }, title: { type: 'string' } } } },
    },
  };
}

const AT = '/paths/~1articles/get/responses/200/content/application~1json/schema/properties';

// What the envelope or its page holds that the format cannot say keeps the list custom (its whole answer its
// response, as the document has it), said at the member's pointer: never written otherwise than the document says.
describe('a page in an envelope the format cannot say stays custom, said at its pointers', () => {
  const custom = async (doc: Json) => {
    const r = await importOpenApiDocument(doc);
    expect(r.document!.endpoints!.operations!.listArticles!.action).toBe('custom');
    return r.diagnostics.filter((d) => d.code === 'import-custom-operation').map((d) => [d.pointer, d.message]);
  };

  it('a `success` whose value the document does not state', async () => {
    expect(await custom(pageDoc({ success: { type: 'boolean' } }))).toEqual([
      [
        '/paths/~1articles/get',
        'operation `listArticles` is imported as a custom operation: its response is not one of the resources (its fields are written out); ' +
          `it holds a page of Article in \`data\` beside \`success\` (${AT}/success), whose value the document does not state ` +
          '(a member of one value, `enum: [true]`, is a constant of an envelope the runtime writes)',
      ],
    ]);
  });

  it('a page member no paging key carries', async () => {
    const said = await custom(pageDoc({ success: { type: 'boolean', enum: [true] } }, { debug: { type: 'object', properties: { took: { type: 'number' } } } }));
    expect(said).toEqual([
      [
        '/paths/~1articles/get',
        expect.stringContaining(
          `; read as an envelope holding a page of Article in \`data\`, its answer holds Article objects in \`items\`, beside \`debug\` (${AT}/data/properties/debug), which no paging key carries`,
        ),
      ],
    ]);
  });
});

it("a Spring page's sort, which the format's page does not carry, is said at its pointer", async () => {
  const r = await importOpenApiFile(join(DIR, 'spring-status-page.openapi.yaml'));
  expect(r.diagnostics.filter((d) => d.code === 'import-dropped' && d.message.includes('`sort`')).map((d) => d.pointer)).toEqual([
    '/components/schemas/PageArticle/properties/sort',
  ]);
});

// A page object's integer member is the total by its name only (review: `{ items, page, pageSize, pageCount }` read
// pageCount as the total, and `tookMs` as the total where no total was named, so the service wrote the object
// count into them): pageCount is the number of pages, an unknown member is left out, said at its pointer.
describe("a page object's integer members, read by name", () => {
  const noTotal = (extra: Json) => {
    const doc = pageDoc({ success: { type: 'boolean', enum: [true] } }, { page: { type: 'integer' }, pageSize: { type: 'integer' }, ...extra });
    const data = (doc.paths as Json)['/articles'] as {
      get: { responses: { '200': { content: { 'application/json': { schema: { properties: { data: Json } } } } } } };
    };
    const page = data.get.responses['200'].content['application/json'].schema.properties.data as { required: string[]; properties: Json };
    delete page.properties.total;
    // Every count required: one the page may leave out is no member (docs/import.md, "Lists").
    page.required = ['items', 'page', 'pageSize', ...Object.keys(extra)];
    return doc;
  };

  it('pageCount is the number of pages, not the total', async () => {
    const r = await importOpenApiDocument(noTotal({ pageCount: { type: 'integer' } }));
    const paging = r.document!.endpoints!.operations!.listArticles!.paging as Json;
    expect(paging.total).toBeUndefined();
    expect(paging.members).toEqual({ page: 'page', size: 'pageSize', pages: 'pageCount' });
  });

  it('an integer of no page role is left out, said at its pointer, never the total', async () => {
    const r = await importOpenApiDocument(noTotal({ tookMs: { type: 'integer' } }));
    const paging = r.document!.endpoints!.operations!.listArticles!.paging as Json;
    expect(paging.total).toBeUndefined();
    expect(r.diagnostics.filter((d) => d.code === 'import-dropped' && d.message.includes('`tookMs`')).map((d) => d.pointer)).toEqual([
      `${AT}/data/properties/tookMs`,
    ]);
  });
});

// The items are found in an enveloped page as in a bare one: the first array listing a resource, an array of
// something else before it left out, said (review: `{ facets: [string], items: [Article], … }` in `data` stayed custom).
it('an array of something else before the items is left out, said, and the list is a list', async () => {
  const doc = pageDoc({ success: { type: 'boolean', enum: [true] } }, { page: { type: 'integer' }, pageSize: { type: 'integer' } });
  const list = (doc.paths as Json)['/articles'] as {
    get: { responses: { '200': { content: { 'application/json': { schema: { properties: { data: Json } } } } } } };
  };
  const page = list.get.responses['200'].content['application/json'].schema.properties.data as { properties: Json };
  page.properties = { facets: { type: 'array', items: { type: 'string' } }, ...page.properties };
  const r = await importOpenApiDocument(doc);
  const data = ((r.document!.endpoints!.operations!.listArticles as unknown as Json).paging ?? {}) as Json;
  expect(r.document!.endpoints!.operations!.listArticles!.action).toBe('list');
  expect(data.total).toBe('total');
  expect(r.diagnostics.filter((d) => d.code === 'import-dropped' && d.message.includes('`facets`')).map((d) => d.pointer)).toEqual([
    `${AT}/data/properties/facets`,
  ]);
});
