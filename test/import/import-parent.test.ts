// Import of sub-collections under a parent no field of theirs shows (docs/import.md; docs/format.md "Resources under a
// parent"): RealWorld's comments under /articles/{slug}, which reads an Article by its identifier, are a Comment with
// `parent: Article`, listed, created and deleted under it (bind: { slug: Article.slug }), where they were custom
// operations answering 501. Spring petclinic's visits, under an owner and a pet (a chain), stay custom.
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument, importOpenApiFile } from '../../src/import/import-openapi.js';

const REALWORLD = new URL('../fixtures/openapi/realworld-conduit.yml', import.meta.url).pathname;
const PETCLINIC = new URL('../fixtures/openapi/partial/spring-petclinic-rest.yml', import.meta.url).pathname;

describe('import of resources under a parent', () => {
  it("RealWorld's comments: parent Article, and their list, create and delete bound to it", async () => {
    const r = await importOpenApiFile(REALWORLD);
    const model = r.compiled!.model!;
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(model.resources.find((x) => x.name === 'Comment')?.parent).toBe('Article');
    const ops = Object.fromEntries(model.endpoints!.operations.map((o) => [o.id, [o.action, o.resource, o.bindings?.map((b) => `${b.param}: ${b.field}`)]]));
    expect(ops['GetArticleComments']).toEqual(['list', 'Comment', ['slug: Article.slug']]);
    expect(ops['CreateArticleComment']).toEqual(['create', 'Comment', ['slug: Article.slug']]);
    expect(ops['DeleteArticleComment']).toEqual(['delete', 'Comment', ['slug: Article.slug', 'id: id']]);
    expect(r.diagnostics.map((d) => d.message)).toContain(
      "resource Comment is imported as a resource under a parent (`parent: Article`): GET /articles/{slug}/comments nests Comment under the Article its path names, which no field of Comment shows: the service keeps each Comment's Article",
    );
  });

  it("Spring petclinic's visits under an owner and a pet (a chain of parents) stay custom", async () => {
    const r = await importOpenApiFile(PETCLINIC);
    const model = r.compiled!.model!;
    expect(model.resources.every((x) => x.parent === undefined)).toBe(true);
    expect(model.endpoints!.operations.find((o) => o.id === 'addVisitToOwner')?.action).toBe('custom');
  });
  // Every object of a resource under a parent names its parent: one a POST elsewhere also makes (`POST /comments`),
  // or a PUT answering 201 makes (an upsert names none), has no parent, and its operations under the article stay
  // custom, as before. Declaring one made the imported spec fail check (parent-binding-missing, parent-invalid), so
  // the import wrote nothing.
  it('gives no parent to a resource also made outside it (a flat POST, an upsert PUT): the import checks', async () => {
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const ok = (schema: unknown) => ({ description: 'ok', content: { 'application/json': { schema } } });
    const param = (name: string, type = 'string') => ({ name, in: 'path', required: true, schema: { type } });
    const body = (name: string) => ({ required: true, content: { 'application/json': { schema: ref(name) } } });
    const doc = (extra: Record<string, unknown>) => ({
      openapi: '3.1.0',
      info: { title: 'blog', version: '1' },
      paths: {
        '/articles': { post: { operationId: 'createArticle', requestBody: body('Article'), responses: { '201': ok(ref('Article')) } } },
        '/articles/{slug}': { get: { operationId: 'getArticle', parameters: [param('slug')], responses: { '200': ok(ref('Article')) } } },
        '/articles/{slug}/comments': {
          get: { operationId: 'listComments', parameters: [param('slug')], responses: { '200': ok({ type: 'array', items: ref('Comment') }) } },
          post: { operationId: 'addComment', parameters: [param('slug')], requestBody: body('Comment'), responses: { '201': ok(ref('Comment')) } },
        },
        ...extra,
      },
      components: {
        schemas: {
          Article: { type: 'object', required: ['slug', 'title'], properties: { slug: { type: 'string' }, title: { type: 'string' } } },
          Comment: { type: 'object', required: ['id', 'body'], properties: { id: { type: 'integer', readOnly: true }, body: { type: 'string' } } },
        },
      },
    });
    const flat = { '/comments': { post: { operationId: 'createTopComment', requestBody: body('Comment'), responses: { '201': ok(ref('Comment')) } } } };
    const upsert = {
      '/comments/{id}': {
        put: {
          operationId: 'putComment',
          parameters: [param('id', 'integer')],
          requestBody: body('Comment'),
          responses: { '200': ok(ref('Comment')), '201': ok(ref('Comment')) },
        },
      },
    };
    for (const [name, extra] of [
      ['a flat POST', flat],
      ['an upsert PUT', upsert],
    ] as const) {
      const r = await importOpenApiDocument(doc(extra), 'blog.json');
      expect(
        r.compiled!.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code),
        name,
      ).toEqual([]);
      expect(r.document!.resources!.Comment!.parent, name).toBeUndefined();
      expect(r.document!.endpoints!.operations!.addComment!.action, name).toBe('custom');
    }
    // Without them, the comments are under their article.
    const plain = await importOpenApiDocument(doc({}), 'blog.json');
    expect(plain.document!.resources!.Comment!.parent).toBe('Article');
  });
});
