// Import of sub-collections under a parent no field of theirs shows (docs/import.md; docs/format.md "Resources under a
// parent"): RealWorld's comments under /articles/{slug}, which reads an Article by its identifier, are a Comment with
// `parent: Article`, listed, created and deleted under it (bind: { slug: Article.slug }), where they were custom
// operations answering 501. Visits under a pet under an owner whose objects show neither are a chain of parents.
// Spring petclinic's visits, under an owner and a pet, stay custom: a visit shows its pet (`petId`) and is made by a
// flat POST /visits too, so it has no `parent`, and no field of it names the owner.
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

  it('visits under a pet under an owner, showing neither: a chain of parents, every operation bound to it', async () => {
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const ok = (schema: unknown) => ({ description: 'ok', content: { 'application/json': { schema } } });
    const param = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'integer' } });
    const body = (name: string) => ({ required: true, content: { 'application/json': { schema: ref(name) } } });
    const thing = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' } } };
    const doc = {
      openapi: '3.1.0',
      info: { title: 'clinic', version: '1' },
      paths: {
        '/owners': { post: { operationId: 'addOwner', requestBody: body('Owner'), responses: { '201': ok(ref('Owner')) } } },
        '/owners/{ownerId}': { get: { operationId: 'getOwner', parameters: [param('ownerId')], responses: { '200': ok(ref('Owner')) } } },
        '/owners/{ownerId}/pets': {
          get: { operationId: 'listPets', parameters: [param('ownerId')], responses: { '200': ok({ type: 'array', items: ref('Pet') }) } },
          post: { operationId: 'addPet', parameters: [param('ownerId')], requestBody: body('Pet'), responses: { '201': ok(ref('Pet')) } },
        },
        '/owners/{ownerId}/pets/{petId}': {
          get: { operationId: 'getPet', parameters: [param('ownerId'), param('petId')], responses: { '200': ok(ref('Pet')) } },
        },
        '/owners/{ownerId}/pets/{petId}/visits': {
          get: { operationId: 'listVisits', parameters: [param('ownerId'), param('petId')], responses: { '200': ok({ type: 'array', items: ref('Visit') }) } },
          post: { operationId: 'addVisit', parameters: [param('ownerId'), param('petId')], requestBody: body('Visit'), responses: { '201': ok(ref('Visit')) } },
        },
        '/owners/{ownerId}/pets/{petId}/visits/{visitId}': {
          get: { operationId: 'getVisit', parameters: [param('ownerId'), param('petId'), param('visitId')], responses: { '200': ok(ref('Visit')) } },
          delete: {
            operationId: 'deleteVisit',
            parameters: [param('ownerId'), param('petId'), param('visitId')],
            responses: { '204': { description: 'gone' } },
          },
        },
      },
      components: { schemas: { Owner: thing, Pet: thing, Visit: thing } },
    };
    const r = await importOpenApiDocument(doc, 'clinic.json');
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const model = r.compiled!.model!;
    expect(Object.fromEntries(model.resources.map((x) => [x.name, x.parent]))).toEqual({ Owner: undefined, Pet: 'Owner', Visit: 'Pet' });
    const ops = Object.fromEntries(model.endpoints!.operations.map((o) => [o.id, [o.action, o.bindings?.map((b) => `${b.param}: ${b.field}`)]]));
    expect(ops).toMatchObject({
      listPets: ['list', ['ownerId: Owner.id']],
      getPet: ['read', ['ownerId: Owner.id', 'petId: id']],
      listVisits: ['list', ['ownerId: Owner.id', 'petId: Pet.id']],
      addVisit: ['create', ['ownerId: Owner.id', 'petId: Pet.id']],
      getVisit: ['read', ['ownerId: Owner.id', 'petId: Pet.id', 'visitId: id']],
      deleteVisit: ['delete', ['ownerId: Owner.id', 'petId: Pet.id', 'visitId: id']],
    });
  });

  it("Spring petclinic's visits under an owner and a pet stay custom: a visit shows its pet and is made flat too", async () => {
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
