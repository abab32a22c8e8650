// `parent` in the exports (docs/format.md, "Resources under a parent"): the path parameters stay, documented as the
// parent's field (any text in OpenAPI, as an identifier parameter); the schemas are unchanged (no parent member); the create and the list under a parent list the 404;
// export → import gives the parent and the bindings back; the client types the parameter as the parent's field.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateClient } from '../../src/export/export-client.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { serializeDocument } from '../../src/export/export-shared.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { compileSpecText } from '../../src/program.js';

const TEXT = readFileSync(new URL('../fixtures/parent-resource.yaml', import.meta.url), 'utf8');

type Op = { parameters?: { name: string; in: string; schema?: unknown; description?: string }[]; responses: Record<string, unknown> };

describe('resources under a parent (OpenAPI export)', () => {
  const model = compileSpecText(TEXT).model!;
  const doc = exportOpenApi(model).document as unknown as {
    paths: Record<string, Record<string, Op>>;
    components: { schemas: Record<string, { properties: Record<string, unknown> }> };
  };

  it("documents the parent's parameter as the parent's field, answered as missing when no parent holds it", () => {
    for (const [path, method] of [
      ['/articles/{slug}/comments', 'get'],
      ['/articles/{slug}/comments', 'post'],
      ['/articles/{slug}/comments/{id}', 'delete'],
    ] as const) {
      const [slug] = doc.paths[path]![method]!.parameters!.filter((p) => p.in === 'path');
      expect(slug, `${method} ${path}`).toEqual({
        name: 'slug',
        in: 'path',
        required: true,
        description:
          'The `slug` of the Article the Comment objects belong to. A value no Article holds, well-formed or not, is answered as missing (404 `not_found`).',
        // Any text, as an identifier parameter is (docs/architecture.md): a value the field cannot hold names no
        // parent and is answered 404, not refused as invalid; the typed client takes the field's type.
        schema: { type: 'string' },
      });
    }
    const [boardId] = doc.paths['/boards/{boardId}/notes']!['get']!.parameters!.filter((p) => p.in === 'path');
    expect(boardId!.schema).toEqual({ type: 'string' });
  });

  it('lists the 404 on a create and a list under a parent; the schemas hold no parent member', () => {
    expect(Object.keys(doc.paths['/articles/{slug}/comments']!['post']!.responses)).toContain('404');
    expect(Object.keys(doc.paths['/articles/{slug}/comments']!['get']!.responses)).toContain('404');
    expect(Object.keys(doc.paths['/boards/{boardId}/notes']!['post']!.responses)).toContain('404');
    expect(Object.keys(doc.components.schemas['Comment']!.properties).sort()).toEqual(['body', 'id']);
    expect(Object.keys(doc.paths['/comments']!['get']!.responses)).not.toContain('404');
  });

  it('export → import gives the parent and every binding back', async () => {
    const imported = await importOpenApiDocument(JSON.parse(serializeDocument(exportOpenApi(model).document, 'json')) as unknown, 'x.json');
    expect(imported.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const back = imported.compiled!.model!;
    const parents = (m: typeof model) => Object.fromEntries(m.resources.map((r) => [r.name, r.parent ?? null]));
    expect(parents(back)).toEqual(parents(model));
    const bindings = (m: typeof model) => Object.fromEntries(m.endpoints!.operations.map((o) => [o.id, o.bindings?.map((b) => [b.param, b.field]) ?? null]));
    expect(bindings(back)).toEqual(bindings(model));
  });

  it("types the parent's parameter in the client as the parent's field", () => {
    const code = generateClient(model).code;
    expect(code).toContain('createComment(slug: string, body: CommentCreate, options: RequestOptions = {}): Promise<Comment>');
    expect(code).toContain('getNote(boardId: string, id: number, options: RequestOptions = {}): Promise<Note>');
  });
});

describe('resources under a chain of parents (exports)', () => {
  const model = compileSpecText(readFileSync(new URL('../fixtures/parent-chain.yaml', import.meta.url), 'utf8')).model!;
  const doc = exportOpenApi(model).document as unknown as { paths: Record<string, Record<string, Op>> };

  it("documents each parent's parameter, and says an outer one holds the path's inner parent", () => {
    const params = doc.paths['/owners/{ownerId}/pets/{petId}/visits']!['get']!.parameters!.filter((p) => p.in === 'path');
    expect(params).toEqual([
      {
        name: 'ownerId',
        in: 'path',
        required: true,
        description:
          "The `id` of the Owner the path's Pet is under. A value no Owner holds, or one the Pet is not under, is answered as missing (404 `not_found`).",
        schema: { type: 'string' },
      },
      {
        name: 'petId',
        in: 'path',
        required: true,
        description: 'The `id` of the Pet the Visit objects belong to. A value no Pet holds, well-formed or not, is answered as missing (404 `not_found`).',
        schema: { type: 'string' },
      },
    ]);
  });

  it('export → import gives the chain and every binding back', async () => {
    const imported = await importOpenApiDocument(JSON.parse(serializeDocument(exportOpenApi(model).document, 'json')) as unknown, 'x.json');
    expect(imported.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const back = imported.compiled!.model!;
    const parents = (m: typeof model) => Object.fromEntries(m.resources.map((r) => [r.name, r.parent ?? null]));
    expect(parents(back)).toEqual({ Owner: null, Pet: 'Owner', Visit: 'Pet' });
    const bindings = (m: typeof model) => Object.fromEntries(m.endpoints!.operations.map((o) => [o.id, o.bindings?.map((b) => [b.param, b.field]) ?? null]));
    expect(bindings(back)).toEqual(bindings(model));
  });

  it("types each parent's parameter in the client as that parent's field", () => {
    const code = generateClient(model).code;
    expect(code).toContain('getVisit(ownerId: number, petId: number, visitId: number, options: RequestOptions = {}): Promise<Visit>');
  });
});
