// What FastAPI's own documents say that the import read otherwise (tester round 11, test/tester/fixtures/
// recipes.openapi.yaml, imported unedited; docs/import.md, "Lists", "Error responses" and "The result always checks"):
// a page count the page does not require, a null an update model takes that no answer holds, the 422 FastAPI answers an
// unreadable body with, and pydantic's list of validation errors.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument, importOpenApiFile } from '../../src/import/import-openapi.js';
import { startService } from '../runtime/helpers.js';

const RECIPES = fileURLToPath(new URL('../tester/fixtures/recipes.openapi.yaml', import.meta.url));
const PAGE = '/components/schemas/Page_RecipeRead_/properties';

const said = (r: Awaited<ReturnType<typeof importOpenApiFile>>, code: string, text: string) =>
  r.diagnostics.filter((d) => d.code === code && d.message.includes(text)).map((d) => d.pointer);

const json = (schema: unknown) => ({ 'application/json': { schema } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A small FastAPI-style document: a list answering `page`, its count and total as `members`, and the errors given. */
function doc(o: { page: Record<string, unknown>; errors?: Record<string, unknown>; tokenErrors?: Record<string, unknown> }) {
  return {
    openapi: '3.1.0',
    info: { title: 'Notes', version: '1' },
    paths: {
      '/token': {
        post: {
          operationId: 'login',
          requestBody: { required: true, content: json({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } }) },
          responses: { '200': { description: 'ok', content: json({ type: 'object', properties: { token: { type: 'string' } } }) }, ...o.tokenErrors },
        },
      },
      '/notes': {
        get: {
          operationId: 'listNotes',
          parameters: [
            { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
            { name: 'size', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } },
          ],
          responses: { '200': { description: 'A page', content: json(o.page) }, ...o.errors },
        },
        post: {
          operationId: 'createNote',
          requestBody: { required: true, content: json(ref('NoteCreate')) },
          responses: { '201': { description: 'Made', content: json(ref('Note')) }, ...o.errors },
        },
      },
      '/notes/{id}': {
        get: {
          operationId: 'getNote',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: { '200': { description: 'One', content: json(ref('Note')) }, ...o.errors },
        },
      },
    },
    components: {
      schemas: {
        NoteCreate: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } },
        Note: { type: 'object', required: ['id', 'text'], properties: { id: { type: 'integer', readOnly: true }, text: { type: 'string' } } },
        HTTPValidationError: { type: 'object', properties: { detail: { type: 'array', items: ref('ValidationError') } } },
        ValidationError: {
          type: 'object',
          required: ['loc', 'msg', 'type'],
          properties: {
            loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
            msg: { type: 'string' },
            type: { type: 'string' },
          },
        },
        HTTPError: { type: 'object', required: ['detail'], properties: { detail: { type: 'string' } } },
      },
    },
  };
}

const count = { type: 'integer', minimum: 0 };
const items = { type: 'array', items: ref('Note') };
const fastapi422 = { '422': { description: 'Validation Error', content: json(ref('HTTPValidationError')) } };

describe('a page count the page does not require', () => {
  // Before: `pages` was a member (paging.members), written and held on every page: a page without it failed
  // endpoints.answer-shape, though Page[T] does not require it.
  it("fastapi-pagination's `pages` is left out, said at its pointer; the nullable total, page and size said too", async () => {
    const r = await importOpenApiFile(RECIPES);
    const ops = r.document!.endpoints!.operations!;
    for (const id of ['list_recipes_recipes_get', 'list_reviews_recipes__recipe_id__reviews_get'])
      expect(ops[id]!.paging).toMatchObject({ style: 'page', total: 'total', members: { page: 'page', size: 'size' } });
    expect((ops.list_recipes_recipes_get!.paging!.members as Record<string, unknown>).pages).toBeUndefined();
    expect(said(r, 'import-dropped', "its page's `pages` (not required)")).toEqual([`${PAGE}/pages`, '/components/schemas/Page_ReviewRead_/properties/pages']);
    const nullable = said(r, 'import-approximated', 'a count on every page, never null');
    expect(nullable.filter((p) => p!.startsWith(PAGE))).toEqual([`${PAGE}/total`, `${PAGE}/page`, `${PAGE}/size`]);
  });

  // A page listing no `required` at all (springdoc's, many written by hand) says nothing of any member: read as before.
  it('an optional total is no total, the list a list still; a required one is the total, and so is one of a page requiring nothing', async () => {
    for (const required of [['items'], ['items', 'total'], undefined]) {
      const r = await importOpenApiDocument(doc({ page: { type: 'object', ...(required && { required }), properties: { items, total: count } } }));
      const paging = r.document!.endpoints!.operations!.listNotes!;
      const kept = required === undefined || required.includes('total');
      expect(paging.action).toBe('list');
      expect(paging.paging?.total).toBe(kept ? 'total' : undefined);
      expect(said(r, 'import-dropped', "its page's `total` (not required)")).toEqual(
        kept ? [] : ['/paths/~1notes/get/responses/200/content/application~1json/schema/properties/total'],
      );
    }
  });

  it("a page object's nested member the nested object does not require is left out", async () => {
    const pageable = { type: 'object', required: ['pageNumber'], properties: { pageNumber: count, pageSize: count } };
    const page = {
      type: 'object',
      required: ['content', 'totalElements', 'number', 'size', 'pageable'],
      // Spring's sort, no page position: left out whole (import-dropped), its members not said one by one.
      properties: {
        content: items,
        totalElements: count,
        number: count,
        size: count,
        pageable,
        sort: { type: 'object', properties: { empty: { type: 'boolean' } } },
      },
    };
    const r = await importOpenApiDocument(doc({ page }));
    expect(r.document!.endpoints!.operations!.listNotes!.paging).toMatchObject({
      total: 'totalElements',
      members: { page: ['number', 'pageable.pageNumber'], size: 'size' },
    });
    expect(said(r, 'import-dropped', '`pageable.pageSize` (not required)')).toHaveLength(1);
    expect(said(r, 'import-dropped', '`sort')).toEqual(['/paths/~1notes/get/responses/200/content/application~1json/schema/properties/sort']);
  });
});

describe('a null an update model takes that no answer holds', () => {
  // Before: nothing was said; RecipeUpdate's `title: null` (Optional[str] = None) was silently refused.
  it("RecipeUpdate's nullable members of fields RecipeRead never holds null are said, each at its pointer", async () => {
    const r = await importOpenApiFile(RECIPES);
    const at = '/components/schemas/RecipeUpdate/properties';
    expect(said(r, 'import-approximated', 'a field its request may not set to null')).toEqual(
      ['slug', 'title', 'cuisine', 'difficulty', 'servings'].map((n) => `${at}/${n}`),
    );
    // description and prep_minutes RecipeRead holds null: a null there is the field's, nothing to say.
    const fields = r.document!.resources!.RecipeRead!.fields!;
    expect([fields.title!.nullable, fields.description!.nullable]).toEqual([undefined, true]);
  });
});

describe('the status of an unreadable body', () => {
  const page = { type: 'object', required: ['items'], properties: { items } };
  const codeOf = (r: Awaited<ReturnType<typeof importOpenApiDocument>>, condition: string) =>
    Object.entries(r.document!.errors!.codes!).find(([, c]) => (c.when ?? []).includes(condition as never))?.[1].status;

  // Before: malformed_request was left to the format's 400, which the document never lists.
  it('a document declaring 422 and no 400 answers it 422', async () => {
    const r = await importOpenApiDocument(doc({ page, errors: fastapi422 }));
    expect([codeOf(r, 'malformed_request'), codeOf(r, 'validation')]).toEqual([422, 422]);
    const generic = await importOpenApiDocument(doc({ page, errors: { '422': { description: 'Unprocessable', content: json(ref('HTTPError')) } } }));
    expect(codeOf(generic, 'malformed_request')).toBe(422);
  });

  // Before: a sign-in's 400 took malformed_request, and validation was left to no code (400 and 422 both declared).
  it("FastAPI's 422 beside a handler's 400 answers it and every refused input", async () => {
    const r = await importOpenApiDocument(
      doc({
        page,
        errors: fastapi422,
        tokenErrors: { '400': { description: 'Incorrect username or password', content: json(ref('HTTPError')) }, ...fastapi422 },
      }),
    );
    expect([codeOf(r, 'malformed_request'), codeOf(r, 'validation')]).toEqual([422, 422]);
  });

  it('another 422 beside a 400 leaves the unreadable body to the 400, as before', async () => {
    const other = { '422': { description: 'Unprocessable', content: json(ref('HTTPError')) } };
    const r = await importOpenApiDocument(doc({ page, errors: other, tokenErrors: { '400': { description: 'Bad', content: json(ref('HTTPError')) } } }));
    expect([codeOf(r, 'malformed_request'), codeOf(r, 'validation')]).toEqual([400, undefined]);
  });

  it('served, a document declaring 422 alone answers malformed JSON 422', async () => {
    const r = await importOpenApiDocument(doc({ page, errors: fastapi422 }));
    const s = await startService(r.compiled!.checked!);
    try {
      const res = await fetch(`${s.url}/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"slug": ' });
      expect(res.status).toBe(422);
      expect(res.headers.get('servicespec-undeclared-condition')).toBeNull();
    } finally {
      await s.close();
    }
  });
});

describe("pydantic's list of validation errors", () => {
  // Before: only the merge of `detail`'s types was said, not that no 422 answers the list.
  it('is said once, at the list, however many 422s refer to it', async () => {
    const r = await importOpenApiFile(RECIPES);
    expect(said(r, 'import-approximated', 'a list of validation errors')).toEqual(['/components/schemas/HTTPValidationError/properties/detail']);
  });
});
