// Common frameworks' list shapes (test/fixtures/list-shapes, documents written for these tests) imported as list
// actions, never custom operations (issue 26; docs/import.md, "Lists" and "Response envelopes"). Each document's import is compared with its
// golden spec (UPDATE_GOLDEN=1 rewrites them); test/import/import-prism-proxy.test.ts serves each import and passes
// the contract tester's traffic through Prism's validation proxy built from the document.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument, importOpenApiFile } from '../../src/import/import-openapi.js';
import { OPENAPI_FIXTURES } from '../export/helpers.js';

const DIR = new URL('../fixtures/list-shapes/', import.meta.url).pathname;
const GOLDEN = join(DIR, 'golden');

function golden(name: string, actual: string): void {
  const path = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN) {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(path, actual);
  }
  if (!existsSync(path)) throw new Error(`no golden file ${path}: run UPDATE_GOLDEN=1 npx vitest run test/import/import-list-shapes.test.ts`);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

/** Each document's list and the paging its answer says. */
const LISTS: Record<string, Record<string, unknown>> = {
  // GitHub's: a bare array, ?page=&per_page=, the next page in Link, the total in X-Total-Count.
  'array-link-total': { style: 'page', body: 'array', link: true, total_header: 'X-Total-Count' },
  // Django REST Framework's PageNumberPagination.
  'drf-page': { style: 'page', items: 'results', total: 'count', next_link: 'next', previous_link: 'previous', params: { limit: 'page_size' } },
  // fastapi-pagination's Page as FastAPI writes it (OpenAPI 3.1, pydantic v2): `pages` is the page count, and each
  // number is `anyOf: [integer, null]`. Until 2026-11-29 both made it a custom operation (501 served). `pages`, which
  // the page does not require, is no member (every member is written, and held, on every page): left out, said.
  'fastapi-page': { style: 'page', total: 'total', members: { page: 'page', size: 'size' }, params: { limit: 'size' } },
};

/** Lists whose page is in a response envelope (docs/format.md, "Response envelopes"): the envelope each one reads. */
const ENVELOPED: Record<string, { paging: Record<string, unknown>; envelope: Record<string, unknown> }> = {
  // { data, pagination: { page, per_page, total, total_pages } }: its page count an envelope value (`pages`).
  'data-pagination': {
    paging: { style: 'page', body: 'array' },
    envelope: { data: 'data', total: 'pagination.total', limit: 'pagination.per_page', page: 'pagination.page', pages: 'pagination.total_pages' },
  },
  // Strapi's { data, meta: { pagination: { page, pageSize, pageCount, total } } }, paged by pagination[page] and
  // pagination[pageSize] (before 2026-11-29 a list of style none: the parameters checked, never used).
  strapi: {
    paging: { style: 'page', body: 'array', params: { page: 'pagination[page]', limit: 'pagination[pageSize]' } },
    envelope: {
      data: 'data',
      total: 'meta.pagination.total',
      limit: 'meta.pagination.pageSize',
      page: 'meta.pagination.page',
      pages: 'meta.pagination.pageCount',
    },
  },
  // JSON:API's { data, links: { self, next, prev }, meta: { total } }, paged by page[number] and page[size]: the
  // pages' whole addresses are envelope values (self_link, next_link, previous_link).
  jsonapi: {
    paging: { style: 'page', body: 'array', params: { page: 'page[number]', limit: 'page[size]' } },
    envelope: { data: 'data', total: 'meta.total', self_link: 'links.self', next_link: 'links.next', previous_link: 'links.prev', last_link: 'links.last' },
  },
};

/**
 * Lists whose page object is the data of a response envelope (paging body envelope: docs/format.md, "Response
 * envelopes"), the envelope the endpoints' (shared by every enveloped answer) or the list's own, and the envelope of
 * the document's read: `none` where only the lists are enveloped. Until 2026-11-29 an inline page in `data` made the
 * list a custom operation (501 served): test/import/import-page-envelopes.test.ts serves each and runs the tester.
 */
const PAGE_IN_ENVELOPE: Record<string, { paging: Record<string, unknown>; envelope: Record<string, unknown>; read?: 'none' }> = {
  // NestJS-style ApiResponse<PaginatedDto<T>>: { success: true, data: { items, total, page, pageSize } }.
  'express-success-page': {
    paging: { style: 'page', total: 'total', members: { page: 'page', size: 'pageSize' }, params: { limit: 'pageSize' } },
    envelope: { data: 'data', fields: { success: { type: 'boolean', default: true } } },
  },
  // A Result<T> wrapper: { code: 0, msg: ok, data: { list, total } }.
  'code-msg-list': {
    paging: { style: 'page', items: 'list', total: 'total', params: { limit: 'pageSize' } },
    envelope: { data: 'data', fields: { code: { type: 'enum', values: [0], default: 0 }, msg: { type: 'enum', values: ['ok'], default: 'ok' } } },
  },
  // Spring's { status: OK, data: Page<T> } around two lists, the reads bare.
  'spring-status-page': {
    paging: { style: 'page', items: 'content', total: 'totalElements', first_page: 0, params: { limit: 'size' } },
    envelope: { data: 'data', fields: { status: { type: 'enum', values: ['OK'], default: 'OK' } } },
    read: 'none',
  },
};

describe('common list shapes import as list actions', () => {
  for (const [name, paging] of Object.entries(LISTS)) {
    it(`${name}: GET /articles is a list of Article, paged as its answer says`, async () => {
      const r = await importOpenApiFile(join(DIR, `${name}.openapi.yaml`), { specFile: `${name}.servicespec.yaml` });
      expect(r.diagnostics.filter((d) => d.code === 'import-custom-operation').map((d) => d.message)).toEqual([]);
      expect(r.document!.endpoints!.operations!.listArticles).toMatchObject({ action: 'list', resource: 'Article', paging });
      expect(r.compiled?.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      golden(`${name}.servicespec.yaml`, r.text!);
    });
  }
  // Until 2026-11-29 both were custom operations (501 served): the format's envelope had no page count or addresses.
  for (const [name, { paging, envelope }] of Object.entries(ENVELOPED)) {
    it(`${name}: GET /articles is a list of Article in its envelope`, async () => {
      const r = await importOpenApiFile(join(DIR, `${name}.openapi.yaml`), { specFile: `${name}.servicespec.yaml` });
      expect(r.diagnostics.filter((d) => d.code === 'import-custom-operation').map((d) => d.message)).toEqual([]);
      expect(r.document!.endpoints!.operations!.listArticles).toMatchObject({ action: 'list', resource: 'Article', paging, envelope });
      expect(r.compiled?.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      golden(`${name}.servicespec.yaml`, r.text!);
    });
  }
  for (const [name, { paging, envelope, read }] of Object.entries(PAGE_IN_ENVELOPE)) {
    it(`${name}: GET /articles is a list of Article, its page in the envelope's data`, async () => {
      const r = await importOpenApiFile(join(DIR, `${name}.openapi.yaml`), { specFile: `${name}.servicespec.yaml` });
      expect(r.diagnostics.filter((d) => d.code === 'import-custom-operation').map((d) => d.message)).toEqual([]);
      const endpoints = r.document!.endpoints!;
      expect(endpoints.operations!.listArticles).toMatchObject({ action: 'list', resource: 'Article', paging });
      expect(endpoints.operations!.listArticles!.paging!.body).toBeUndefined();
      expect(endpoints.envelope).toEqual(envelope);
      expect(endpoints.operations!.getArticle!.envelope).toEqual(read);
      // The page and envelope components are the list's answer, no resources of their own.
      expect(Object.keys(r.document!.resources!)).toEqual(name === 'spring-status-page' ? ['Article', 'Author'] : ['Article']);
      expect(r.compiled?.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      golden(`${name}.servicespec.yaml`, r.text!);
    });
  }
});

// A list the format cannot say stays custom, and the import says why, naming each member and parameter it could not
// carry by its pointer (issue 26, item 8). Until 2026-11-29 it said only "its response is not one of the resources".
describe('a list shape the format cannot say is custom, said at its pointers', () => {
  it("Twilio's { days: [...], meta: { page, first_page_url, … } } paged by PageToken beside Page", async () => {
    const r = await importOpenApiFile(join(OPENAPI_FIXTURES, 'twilio-bulkexports-v1.yaml'));
    const said = r.diagnostics.find((d) => d.code === 'import-custom-operation' && d.message.includes('`ListDay`'))!.message;
    const at = '/paths/~1v1~1Exports~1{ResourceType}~1Days/get';
    expect(said).toContain(`beside \`meta\` (${at}/responses/200/content/application~1json/schema/properties/meta), which no paging key carries`);
    expect(said).toContain(`it takes \`PageToken\` (${at}/parameters/3), a position the service issues, beside \`Page\` (${at}/parameters/2), a page number`);
  });

  it('a page holding a member of its own beside its objects', async () => {
    const doc = {
      openapi: '3.0.3',
      info: { title: 'Notes', version: '1' },
      paths: {
        '/notes': {
          get: {
            operationId: 'listNotes',
            responses: {
              '200': {
                description: 'A page',
                content: {
                  'application/json': {
                    schema: {
                      type: 'object',
                      properties: {
                        notes: { type: 'array', items: { $ref: '#/components/schemas/Note' } },
                        debug: { type: 'object', properties: { took: { type: 'number' } } },
                      },
                    },
                  },
                },
              },
            },
          },
          post: {
            operationId: 'createNote',
            requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } } },
            responses: { '201': { description: 'Made', content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } } } },
          },
        },
      },
      components: { schemas: { Note: { type: 'object', required: ['id'], properties: { id: { type: 'string', readOnly: true }, text: { type: 'string' } } } } },
    };
    const r = await importOpenApiDocument(doc);
    expect(r.document!.endpoints!.operations!.listNotes!.action).toBe('custom');
    const said = r.diagnostics.filter((d) => d.code === 'import-custom-operation').map((d) => [d.pointer, d.message]);
    expect(said).toEqual([
      [
        '/paths/~1notes/get',
        expect.stringContaining(
          'its answer holds Note objects in `notes`, beside `debug` (/paths/~1notes/get/responses/200/content/application~1json/schema/properties/debug)',
        ),
      ],
    ]);
  });
});

// An envelope's optional field no value fills is never written: said at the field, once (issue 26, item 8). Until
// 2026-11-29 nothing was said: Kubernetes' LeaseList answered without apiVersion, kind and three metadata members.
it("an envelope's optional fields the service never writes are said at their pointers, once", async () => {
  const r = await importOpenApiFile(join(OPENAPI_FIXTURES, 'kubernetes-coordination-v1.json'));
  const said = r.diagnostics.filter((d) => d.code === 'import-approximated' && d.message.includes('never writes'));
  const at = '/components/schemas/io.k8s.api.coordination.v1.LeaseList/properties';
  const meta = '/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta/properties';
  expect(said.map((d) => d.pointer).sort()).toEqual(
    [`${at}/apiVersion`, `${at}/kind`, `${meta}/remainingItemCount`, `${meta}/resourceVersion`, `${meta}/selfLink`].sort(),
  );
  expect(said[0]!.message).toMatch(/the envelope's `\S+` is imported as an optional field the service never writes/);
});
