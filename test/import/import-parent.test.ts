// Import of sub-collections under a parent no field of theirs shows (docs/import.md; docs/format.md "Resources under a
// parent"): RealWorld's comments under /articles/{slug}, which reads an Article by its identifier, are a Comment with
// `parent: Article`, listed, created and deleted under it (bind: { slug: Article.slug }), where they were custom
// operations answering 501. Spring petclinic's visits, under an owner and a pet (a chain), stay custom.
import { describe, expect, it } from 'vitest';
import { importOpenApiFile } from '../../src/import/import-openapi.js';

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
});
