// Import of a list whose items are a summary of one resource (docs/import.md, "Lists that answer a summary"):
// RealWorld's `GET /articles` answers `{ articles: [ <Article without body> ], articlesCount }` with the item schema
// written out. It imports as Article's list with `answer_fields`, in an envelope or as a bare array; a property the
// resource does not have, or holds otherwise, keeps it custom, saying where; what is read approximately is said at its
// pointer. A servicespec export of such a list imports back the same (export → import → export).
import { describe, expect, it } from 'vitest';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { serializeDocument } from '../../src/export/export-shared.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';
import { jsonDiff } from '../export/helpers.js';

type Json = Record<string, unknown>;

const article = {
  type: 'object',
  required: ['slug', 'title', 'body', 'createdAt', 'favorited'],
  properties: {
    slug: { type: 'string' },
    title: { type: 'string' },
    body: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
    favorited: { type: 'boolean' },
    note: { type: 'string' },
  },
};

/** A RealWorld-like document: Article read by slug, listed by `items` (the list's item schema written out). */
function doc(
  items: Json,
  answer: (items: Json) => Json = (i) => ({
    type: 'object',
    // The count required: one the page may leave out is no total (docs/import.md, "Lists").
    required: ['articles', 'articlesCount'],
    properties: { articles: { type: 'array', items: i }, articlesCount: { type: 'integer' } },
  }),
  query: Json[] = [],
): Json {
  return {
    openapi: '3.1.0',
    info: { title: 'Conduit', version: '1' },
    paths: {
      '/articles': {
        get: {
          operationId: 'GetArticles',
          parameters: [
            { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0 } },
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1 } },
            ...query,
          ],
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: answer(items) } } } },
        },
      },
      '/articles/{slug}': {
        get: {
          operationId: 'GetArticle',
          parameters: [{ name: 'slug', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Article' } } } } },
        },
      },
    },
    components: { schemas: { Article: article } },
  };
}

const summary = (props: Json = {}, required = ['slug', 'title', 'createdAt', 'favorited']): Json => ({
  type: 'object',
  required,
  properties: {
    slug: { type: 'string' },
    title: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
    favorited: { type: 'boolean' },
    ...props,
  },
});

const ITEMS = '/paths/~1articles/get/responses/200/content/application~1json/schema/properties/articles/items';

describe('import: a list whose items are a summary of one resource', () => {
  it('an envelope of inline items without `body` is Article’s list with answer_fields, no longer custom', async () => {
    const r = await importOpenApiDocument(doc(summary()), 'conduit.json');
    const o = r.document!.endpoints!.operations!.GetArticles!;
    expect([o.action, o.resource, o.answer_fields, o.paging]).toEqual([
      'list',
      'Article',
      ['slug', 'title', 'createdAt', 'favorited'],
      { style: 'offset', items: 'articles', total: 'articlesCount' },
    ]);
    expect(r.diagnostics.filter((d) => d.code === 'import-custom-operation')).toEqual([]);
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('a bare array of them too; items naming every field Article answers are its plain list', async () => {
    const bare = await importOpenApiDocument(
      doc(summary(), (i) => ({ type: 'array', items: i })),
      'conduit.json',
    );
    const o = bare.document!.endpoints!.operations!.GetArticles!;
    expect([o.action, o.answer_fields, o.paging?.body]).toEqual(['list', ['slug', 'title', 'createdAt', 'favorited'], 'array']);
    const whole = await importOpenApiDocument(
      doc(summary({ body: { type: 'string' }, note: { type: 'string' } }, ['slug', 'title', 'body', 'createdAt', 'favorited'])),
      'conduit.json',
    );
    const w = whole.document!.endpoints!.operations!.GetArticles!;
    expect([w.action, w.resource, w.answer_fields]).toEqual(['list', 'Article', undefined]);
  });

  it('strict: a property of another type keeps it custom, naming the property’s pointer', async () => {
    const r = await importOpenApiDocument(doc(summary({ favorited: { type: 'integer' } })), 'conduit.json');
    expect(r.document!.endpoints!.operations!.GetArticles!.action).toBe('custom');
    const said = r.diagnostics.find((d) => d.code === 'import-custom-operation' && d.message.includes('GetArticles'))!;
    expect(said.message).toContain(
      `its items (${ITEMS}) are no summary of Article: \`favorited\` (${ITEMS}/properties/favorited) is of another type or constraint than Article.favorited`,
    );
  });

  it('strict: a property Article does not have keeps it custom (its fields are written out)', async () => {
    const r = await importOpenApiDocument(doc(summary({ tagCount: { type: 'integer' } })), 'conduit.json');
    expect(r.document!.endpoints!.operations!.GetArticles!.action).toBe('custom');
    expect(r.diagnostics.some((d) => d.code === 'import-custom-operation' && d.message.includes('GetArticles'))).toBe(true);
  });

  it('strict: an item requiring what Article leaves optional keeps it custom', async () => {
    const r = await importOpenApiDocument(doc(summary({ note: { type: 'string' } }, ['slug', 'title', 'createdAt', 'favorited', 'note'])), 'conduit.json');
    expect(r.document!.endpoints!.operations!.GetArticles!.action).toBe('custom');
    expect(r.diagnostics.find((d) => d.code === 'import-custom-operation' && d.message.includes('GetArticles'))!.message).toContain(
      `\`note\` (${ITEMS}/properties/note) is required, where Article.note is optional`,
    );
  });

  it('an item leaving optional what Article requires is the list, said at the property (import-approximated)', async () => {
    const r = await importOpenApiDocument(doc(summary({}, ['slug', 'createdAt', 'favorited'])), 'conduit.json');
    expect(r.document!.endpoints!.operations!.GetArticles!.answer_fields).toEqual(['slug', 'title', 'createdAt', 'favorited']);
    const said = r.diagnostics.filter((d) => d.code === 'import-approximated' && d.message.includes("list items' optional"));
    expect(said.map((d) => [d.pointer, d.message])).toEqual([
      [
        `${ITEMS}/properties/title`,
        "operation GetArticles: its list items' optional `title` is imported as Article.title, which every Article holds: a list answering some of the fields (answer_fields) answers each as a read does: always, where the resource requires it",
      ],
    ]);
  });

  // Before, such a parameter was the filter: `?favorited=jake` (a username) was refused as no boolean.
  it('a query parameter named after a field but of another type is no filter on it (RealWorld’s `favorited`, a username)', async () => {
    const r = await importOpenApiDocument(
      doc({ $ref: '#/components/schemas/Article' }, undefined, [
        { name: 'favorited', in: 'query', schema: { type: 'string' } },
        { name: 'title', in: 'query', schema: { type: 'string' } },
      ]),
      'conduit.json',
    );
    const o = r.document!.endpoints!.operations!.GetArticles!;
    expect(o.filter).toEqual(['title']);
    expect(Object.keys(o.query ?? {})).toEqual(['favorited']);
    expect(r.diagnostics.some((d) => d.code === 'import-approximated' && d.message.startsWith('query parameter `favorited` of operation GetArticles'))).toBe(
      true,
    );
  });
});

describe('round trip: a list with answer_fields, export → import → export', () => {
  const SPEC = `servicespec: 1
resources:
  Article:
    identifier: slug
    identifier_source: client
    fields:
      slug: { type: string }
      title: { type: string }
      body: { type: string }
      note: { type: string, optional: true }
endpoints:
  operations:
    createArticle: { method: POST, path: /articles, action: create, resource: Article }
    getArticle: { method: GET, path: '/articles/{slug}', action: read, resource: Article }
    listArticles: { method: GET, path: /articles, action: list, resource: Article, answer_fields: [slug, title, note], paging: { style: offset, items: articles, total: articlesCount } }
    listBare: { method: GET, path: /bare, action: list, resource: Article, answer_fields: [slug], paging: { style: none, body: array } }
authentication:
  default: none
${PLAIN_ERRORS}`;

  for (const version of ['3.1', '3.0'] as const)
    it(`OpenAPI ${version}: the same document and the same answer_fields, with or without the operations' extension`, async () => {
      const first = exportOpenApi(checkedModel(SPEC), { openapi: version }).document;
      const back = await importOpenApiDocument(JSON.parse(serializeDocument(first, 'json')) as unknown, 'first.openapi.json');
      const second = exportOpenApi(back.compiled!.checked!, { openapi: version }).document;
      expect(jsonDiff(first, second)).toEqual([]);
      // Without x-servicespec-operation: the item components (ArticleListItem, ArticleListItem2) still say the fields.
      const plain = structuredClone(first) as { paths: Record<string, Record<string, Json>> };
      for (const item of Object.values(plain.paths)) for (const op of Object.values(item)) delete op['x-servicespec-operation'];
      const again = await importOpenApiDocument(plain, 'plain.openapi.json');
      const ops = again.document!.endpoints!.operations!;
      expect([ops.listArticles!.answer_fields, ops.listBare!.answer_fields]).toEqual([['slug', 'title', 'note'], ['slug']]);
      expect(Object.keys(again.document!.resources!)).toEqual(['Article']);
    });
});
