// A list that answers some of its resource's fields (`answer_fields`, docs/format.md "Lists that answer some of the
// fields"): RealWorld's article list without its body. Served over real HTTP on the test database (SQLite, or
// PostgreSQL with SERVICESPEC_TEST_DB=postgres), fast paths on and off, each page style's body; carried through check,
// the OpenAPI and JSON Schema exports (and import of the export back), the document, the client, diff and the
// contract tester, which holds real servers of other specs (one answering the whole article, one leaving out a
// summary member) to it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffModels } from '../../src/diff/diff-api.js';
import { generateClient } from '../../src/export/export-client.js';
import { exportJsonSchemas } from '../../src/export/export-json-schema.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { getVersionDocumentModel } from '../../src/model/model-served-versions.js';
import { compileSpecText } from '../../src/program.js';
import { renderConsole } from '../../src/render/render-console.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';
import { testService } from '../../src/tester/tester-run.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';
import { startProxy } from '../tester/mutant-proxy.js';
import { startService, type Running } from './helpers.js';

const SUMMARY = '[slug, title, description, tagList, createdAt, favorited, note]';

const spec = (list: string, ops = ''): string => `
servicespec: 1
resources:
  Article:
    identifier: slug
    identifier_source: client
    fields:
      slug: { type: string, maxLength: 40 }
      title: { type: string, maxLength: 40 }
      description: { type: string, maxLength: 40 }
      body: { type: string, maxLength: 200 }
      tagList: { type: array, items: { type: string, maxLength: 10 }, maxItems: 3 }
      createdAt: { type: datetime, readOnly: true, generated: create_time }
      favorited: { type: boolean, default: false }
      note: { type: string, nullable: true, optional: true, maxLength: 20 }
      password: { type: string, writeOnly: true, optional: true, maxLength: 20 }
endpoints:
  operations:
    createArticle: { method: POST, path: /articles, action: create, resource: Article }
    getArticle: { method: GET, path: '/articles/{slug}', action: read, resource: Article }
    listArticles: { method: GET, path: /articles, action: list, resource: Article${list} }${ops}
authentication:
  default: none
${PLAIN_ERRORS}`;

const ENVELOPE = spec(`, answer_fields: ${SUMMARY}, paging: { style: offset, items: articles, total: articlesCount }`);
const ARRAY = spec(`, answer_fields: [slug, title], paging: { style: page, body: array }`);
const WHOLE = spec(', paging: { style: offset, items: articles, total: articlesCount }');

// An older version (1.0.0) called Article.title `headline`: its list answers the summary under that name.
const VERSIONED = `${spec(`, answer_fields: [slug, title, createdAt], paging: { style: offset, items: articles }`)}
versioning:
  scheme: semver
  current: 2.0.0
  placement: { query: api_version }
  default: current
  supported:
    - version: 1.0.0
      changes:
        - rename_field: { resource: Article, from: headline, to: title }
`;

const made = { slug: 'a', title: 'T', description: 'D', body: 'B'.repeat(50), tagList: ['x'], note: null, password: 'secret' };

for (const fastPaths of [true, false]) {
  describe(`a list answering some of the fields (runtime, fast paths ${fastPaths ? 'on' : 'off'})`, () => {
    let s: Running;
    let bare: Running;
    let whole: Running;
    let versioned: Running;
    beforeAll(async () => {
      s = await startService(checkedModel(ENVELOPE), { fastPaths });
      versioned = await startService(checkedModel(VERSIONED), { fastPaths });
      bare = await startService(checkedModel(ARRAY), { fastPaths });
      whole = await startService(checkedModel(WHOLE), { fastPaths });
    });
    afterAll(async () => {
      await s?.close();
      await bare?.close();
      await whole?.close();
      await versioned?.close();
    });

    it('each object of the page carries the listed fields only; a read answers the whole object', async () => {
      for (const x of [s, bare, whole]) expect((await x.call('POST', '/articles', made)).status).toBe(201);
      expect((await s.call('POST', '/articles', { slug: 'b', title: 'U', description: 'E', body: 'C', tagList: [] })).status).toBe(201);
      const page = await s.call('GET', '/articles?limit=5');
      expect(page.status).toBe(200);
      const createdAt = (await s.call('GET', '/articles/a')).body.createdAt as string;
      expect(page.body).toEqual({
        articles: [
          { slug: 'a', title: 'T', description: 'D', tagList: ['x'], createdAt, favorited: false, note: null },
          { slug: 'b', title: 'U', description: 'E', tagList: [], createdAt: expect.any(String), favorited: false },
        ],
        articlesCount: 2,
      });
      // The members in the order the resource declares them, as a read writes them.
      expect(Object.keys(page.body.articles[0])).toEqual(['slug', 'title', 'description', 'tagList', 'createdAt', 'favorited', 'note']);
      const read = await s.call('GET', '/articles/a');
      expect(read.body).toEqual({ slug: 'a', title: 'T', description: 'D', body: made.body, tagList: ['x'], createdAt, favorited: false, note: null });
      // Paged: the second page too.
      expect((await s.call('GET', '/articles?limit=1&offset=1')).body).toEqual({ articles: [expect.objectContaining({ slug: 'b' })], articlesCount: 2 });
      expect((await s.call('GET', '/articles?limit=1&offset=1')).body.articles[0]).not.toHaveProperty('body');
    });

    it('a bare array answers the listed fields only; a list without answer_fields answers every field but the write-only ones', async () => {
      expect((await bare.call('GET', '/articles')).body).toEqual([{ slug: 'a', title: 'T' }]);
      const all = (await whole.call('GET', '/articles')).body.articles as Record<string, unknown>[];
      expect(Object.keys(all[0]!)).toEqual(['slug', 'title', 'description', 'body', 'tagList', 'createdAt', 'favorited', 'note']);
    });

    it("an older version's list answers the same summary under that version's names", async () => {
      expect((await versioned.call('POST', '/articles?api_version=1.0.0', { ...made, title: undefined, headline: 'Old' })).status).toBe(201);
      const createdAt = (await versioned.call('GET', '/articles/a')).body.createdAt as string;
      expect((await versioned.call('GET', '/articles')).body).toEqual({ articles: [{ slug: 'a', title: 'Old', createdAt }] });
      expect((await versioned.call('GET', '/articles?api_version=1.0.0')).body).toEqual({ articles: [{ slug: 'a', headline: 'Old', createdAt }] });
      // The export of that version (`export openapi --api-version 1.0.0`) says the same list item.
      const old = exportOpenApi(getVersionDocumentModel(checkedModel(VERSIONED), '1.0.0')!).document as {
        components: { schemas: Record<string, Record<string, unknown>> };
      };
      expect(Object.keys(old.components.schemas.ArticleListItem!.properties as object)).toEqual(['slug', 'headline', 'createdAt']);
    });
  });
}

describe('a list answering some of the fields, through check, export, import, document, client and diff', () => {
  const codes = (text: string) =>
    compileSpecText(text)
      .diagnostics.filter((d) => d.severity === 'error' || d.code === 'misplaced-option')
      .map((d) => [d.code, d.pointer, d.message]);
  const at = '/endpoints/operations/listArticles/answer_fields';

  it('check: an unknown or write-only field is answer-field-invalid', () => {
    expect(codes(spec(', answer_fields: [slug, titel, password]'))).toEqual([
      ['answer-field-invalid', `${at}/1`, 'operation `listArticles`: answer_fields names `titel`: Article has no field `titel`; did you mean `title`?'],
      ['answer-field-invalid', `${at}/2`, 'operation `listArticles`: answer_fields names `password`: Article.password is write-only: no answer carries it'],
    ]);
  });

  it('check: an empty list is answer-fields-empty; style after without the identifier is answer-fields-identifier', () => {
    expect(codes(spec(', answer_fields: []')).map(([c, p]) => [c, p])).toEqual([['answer-fields-empty', at]]);
    expect(codes(spec(', answer_fields: [title], paging: { style: after, items: data, has_more: has_more }')).map(([c, p]) => [c, p])).toEqual([
      ['answer-fields-identifier', at],
    ]);
    expect(codes(spec(', answer_fields: [slug, title], paging: { style: after, items: data, has_more: has_more }'))).toEqual([]);
    // Other styles page by the stored row: the identifier may be left out.
    expect(codes(spec(', answer_fields: [title]'))).toEqual([]);
  });

  it('check: on another action it is misplaced-option; on a resource of several shapes answer-fields-variants', () => {
    const other = spec('', "\n    readOne: { method: GET, path: '/one/{slug}', action: read, resource: Article, answer_fields: [slug] }");
    expect(codes(other).map(([c, p]) => [c, p])).toEqual([['misplaced-option', '/endpoints/operations/readOne/answer_fields']]);
    const shapes = `
servicespec: 1
resources:
  Pet:
    discriminator: kind
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string }
    variants:
      cat: { fields: { lives: { type: integer } } }
      dog: { fields: { breed: { type: string } } }
endpoints:
  operations:
    listPets: { method: GET, path: /pets, action: list, resource: Pet, answer_fields: [id, name] }
authentication:
  default: none
${PLAIN_ERRORS}`;
    expect(codes(shapes).map(([c, p]) => [c, p])).toEqual([['answer-fields-variants', '/endpoints/operations/listPets/answer_fields']]);
  });

  it('check holds a list example to the summary (example-invalid on a member outside it)', () => {
    const example = (item: string) =>
      compileSpecText(
        spec(`, answer_fields: [slug, title], paging: { body: array, style: none }, examples: { response: { one: { value: [${item}] } } }`),
      ).diagnostics.filter((d) => d.code === 'example-invalid').length;
    expect(example('{ slug: a, title: T }')).toBe(0);
    expect(example('{ slug: a, title: T, body: B }')).toBe(1);
  });

  it('the OpenAPI export writes ArticleListItem (shared by lists of the same fields); import reads the export back the same', async () => {
    const two = spec(
      `, answer_fields: ${SUMMARY}, paging: { style: offset, items: articles, total: articlesCount }`,
      `\n    feed: { method: GET, path: /feed, action: list, resource: Article, answer_fields: ${SUMMARY}, paging: { style: offset, items: articles, total: articlesCount } }`,
    );
    type Doc = {
      paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: { properties: Record<string, unknown> } }> }> }>>;
      components: { schemas: Record<string, Record<string, unknown>> };
    };
    const doc = exportOpenApi(checkedModel(two)).document as Doc;
    const items = (p: string) => doc.paths[p]!.get!.responses['200']!.content['application/json']!.schema.properties.articles;
    expect(items('/articles')).toEqual({ type: 'array', items: { $ref: '#/components/schemas/ArticleListItem' } });
    expect(items('/feed')).toEqual(items('/articles'));
    const item = doc.components.schemas.ArticleListItem!;
    expect(Object.keys(item.properties as object)).toEqual(['slug', 'title', 'description', 'tagList', 'createdAt', 'favorited', 'note']);
    expect(item.required).toEqual(['slug', 'title', 'description', 'tagList', 'createdAt', 'favorited']);
    expect(item.additionalProperties).toBe(false);
    expect(item['x-servicespec-view']).toEqual({ resource: 'Article', view: 'response', answer_fields: SUMMARY.slice(1, -1).split(', ') });
    // The resource's own component is still the whole article.
    expect(Object.keys(doc.components.schemas.Article!.properties as object)).toContain('body');
    const back = await importOpenApiDocument(doc, 'articles.json');
    expect(back.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(back.document!.endpoints!.operations!.listArticles!.answer_fields).toEqual(SUMMARY.slice(1, -1).split(', '));
    expect(back.document!.endpoints!.operations!.feed!.answer_fields).toEqual(SUMMARY.slice(1, -1).split(', '));
    expect(Object.keys(back.document!.resources!)).toEqual(['Article']);
  });

  it('the JSON Schema export has ArticleListItem; the client types the page items so; the document says it', () => {
    const js = exportJsonSchemas(checkedModel(ENVELOPE));
    const file = js.files.find((f) => f.name === 'ArticleListItem')!;
    expect(file).toMatchObject({ resource: 'Article', view: 'response', operation: 'listArticles' });
    expect(Object.keys(file.schema.properties as object)).toEqual(['slug', 'title', 'description', 'tagList', 'createdAt', 'favorited', 'note']);
    const client = generateClient(checkedModel(ENVELOPE)).code;
    expect(client).toMatch(/export interface ArticleListItem \{/);
    expect(client).toContain(
      'listArticles(query: ListArticlesQuery = {}, options: RequestOptions = {}): Promise<{ "articles": ArticleListItem[]; "articlesCount": number }>',
    );
    expect(renderMarkdown(checkedModel(ENVELOPE))).toContain(
      'Response: each `Article` of the list carries only the fields `slug`, `title`, `description`, `tagList`, `createdAt`, `favorited`, `note` (`answer_fields`).',
    );
    expect(renderMarkdown(checkedModel(WHOLE))).not.toContain('answer_fields');
    // The console's operation answers the item schema (its embedded document's component).
    const page = renderConsole(checkedModel(ENVELOPE));
    expect(page).toContain('ArticleListItem');
    expect(renderConsole(checkedModel(WHOLE))).not.toContain('ArticleListItem');
  });

  it('diff: a field the list no longer answers is breaking, one it now answers is not', () => {
    const less = spec(
      `, answer_fields: [slug, title, description, tagList, createdAt, favorited], paging: { style: offset, items: articles, total: articlesCount }`,
    );
    const removed = diffModels(checkedModel(ENVELOPE), checkedModel(less)).changes;
    expect(removed.map((c) => [c.code, c.impact, c.reason])).toEqual([
      ['answer-field-removed', 'breaking', 'listArticles item.note is no longer answered in the list (answer_fields); clients reading it break'],
    ]);
    expect(diffModels(checkedModel(less), checkedModel(ENVELOPE)).changes.map((c) => [c.code, c.impact])).toEqual([['answer-field-added', 'non-breaking']]);
    // answer_fields added: each field it leaves out is no longer answered.
    expect(diffModels(checkedModel(WHOLE), checkedModel(ENVELOPE)).changes.map((c) => [c.code, c.subject])).toEqual([
      ['answer-field-removed', 'listArticles item.body'],
    ]);
  });
});

describe('the contract tester and a list answering some of the fields', () => {
  const failed = async (served: string, held: string) => {
    const s = await startService(checkedModel(served));
    try {
      const report = await testService(checkedModel(held), { baseUrl: s.url, seed: 1, only: ['endpoints'] });
      return report.results.filter((r) => r.outcome === 'failed');
    } finally {
      await s.close();
    }
  };

  it('the runtime itself passes', async () => {
    expect(await failed(ENVELOPE, ENVELOPE)).toEqual([]);
    expect(await failed(ARRAY, ARRAY)).toEqual([]);
  }, 60_000);

  it('a server answering the whole article (its body) in the summary list fails endpoints.answer-shape', async () => {
    const f = await failed(WHOLE, ENVELOPE);
    const shape = f.find((r) => r.check === 'endpoints.answer-shape');
    expect(shape, JSON.stringify(f)).toBeDefined();
    expect(shape!.failure!.expected).toBe(
      "a body in the declared response shape, each item of the list's answer_fields (slug, title, description, tagList, createdAt, favorited, note)",
    );
    expect(shape!.failure!.actual).toContain('must NOT have additional properties (body)');
  }, 60_000);

  it('a server leaving out a required member of the summary fails endpoints.answer-shape', async () => {
    const fewer = spec(
      `, answer_fields: [slug, description, tagList, createdAt, favorited, note], paging: { style: offset, items: articles, total: articlesCount }`,
    );
    const f = await failed(fewer, ENVELOPE);
    const shape = f.find((r) => r.check === 'endpoints.answer-shape');
    expect(shape, JSON.stringify(f)).toBeDefined();
    expect(shape!.failure!.actual).toContain("must have required property 'title'");
  }, 60_000);

  it('a filter or a sort on a field the list does not answer is judged by the objects the run made', async () => {
    const hidden = spec(`, answer_fields: [slug, title], filter: [description], sort: [description], paging: { style: offset, items: articles }`);
    const s = await startService(checkedModel(hidden));
    const run = async (drop?: string) => {
      const p = drop
        ? await startProxy(s.url, {
            request: (r) => ({ ...r, path: r.path.replace(new RegExp(`([?&])${drop}=[^&]*&?`), '$1').replace(/[?&]$/, '') }),
          })
        : undefined;
      try {
        const report = await testService(checkedModel(hidden), { baseUrl: p?.url ?? s.url, seed: 1, only: ['endpoints'] });
        return report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check}: ${r.failure!.expected}`);
      } finally {
        await p?.close();
      }
    };
    try {
      expect(await run()).toEqual([]);
      expect(await run('description')).toContainEqual(expect.stringMatching(/only items with description = /));
      expect(await run('sort')).toContainEqual(expect.stringMatching(/items ordered by -?description/));
    } finally {
      await s.close();
    }
  }, 120_000);

  it('a state the list does not answer, moved on by transitions after the objects were made, is read as it is now', async () => {
    // The state walks close and reopen tickets the run made before the list's filters are judged: each filtered
    // item is read whole, never taken from the answer its create gave.
    const tickets = `servicespec: 1
resources:
  Ticket:
    fields:
      id: { type: integer, readOnly: true }
      title: { type: string, maxLength: 40 }
      status: { type: state }
states:
  Ticket:
    field: status
    initial: open
    states: { open: {}, closed: {} }
    transitions:
      close: { from: open, to: closed }
      reopen: { from: closed, to: open }
endpoints:
  operations:
    createTicket: { method: POST, path: /tickets, action: create, resource: Ticket }
    getTicket: { method: GET, path: '/tickets/{id}', action: read, resource: Ticket }
    closeTicket: { method: POST, path: '/tickets/{id}/close', action: transition, resource: Ticket, transition: close }
    reopenTicket: { method: POST, path: '/tickets/{id}/reopen', action: transition, resource: Ticket, transition: reopen }
    listTickets: { method: GET, path: /tickets, action: list, resource: Ticket, answer_fields: [id, title], filter: [status], paging: { style: offset, items: tickets } }
authentication:
  default: none
${PLAIN_ERRORS}`;
    for (const seed of [1, 2]) {
      const s = await startService(checkedModel(tickets));
      try {
        const report = await testService(checkedModel(tickets), { baseUrl: s.url, seed });
        expect(report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}: ${r.failure!.expected}`)).toEqual([]);
      } finally {
        await s.close();
      }
    }
  }, 120_000);
});
