// `bind` in the OpenAPI export: each bound path parameter documented by its field, and carried through
// x-servicespec-operation so that export → import gives the bindings back.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateClient } from '../../src/export/export-client.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { serializeDocument } from '../../src/export/export-shared.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { compileSpecText } from '../../src/program.js';

const TEXT = readFileSync(new URL('../fixtures/path-bindings.yaml', import.meta.url), 'utf8');

type Param = { name: string; in: string; schema?: Record<string, unknown>; description?: string };

describe('path bindings (OpenAPI export)', () => {
  const model = compileSpecText(TEXT).model!;
  const doc = exportOpenApi(model).document as { paths: Record<string, Record<string, { parameters?: Param[] }>> };
  const params = (path: string, method: string) => (doc.paths[path]![method]!.parameters ?? []).filter((p) => p.in === 'path');

  it('documents a bound parameter of an addressing action as any string, answered as missing when no object holds it', () => {
    expect(params('/users/{username}', 'get')).toEqual([
      {
        name: 'username',
        in: 'path',
        required: true,
        description: "The User's `username`. A value no User holds, well-formed or not, is answered as missing (404 `not_found`).",
        schema: { type: 'string' },
      },
    ]);
    expect(params('/users/{username}/repos/{id}', 'get').map((p) => p.name)).toEqual(['username', 'id']);
  });

  it("documents a create's and a list's bound parameter with the field's schema", () => {
    const [create] = params('/users/{username}/repos', 'post');
    expect(create).toMatchObject({ name: 'username', schema: { type: 'string', minLength: 1, maxLength: 40, pattern: '^[a-z0-9-]+$' } });
    expect(create!.description).toContain("The created Repo's `owner`");
    const [list] = params('/users/{username}/repos', 'get');
    expect(list!.description).toBe('Only the Repo objects whose `owner` holds this value.');
  });

  it('export → import gives every binding back', async () => {
    const imported = await importOpenApiDocument(JSON.parse(serializeDocument(exportOpenApi(model).document, 'json')) as unknown, 'x.json');
    const back = imported.compiled!.model!;
    const bindings = (m: typeof model) => Object.fromEntries(m.endpoints!.operations.map((o) => [o.id, o.bindings?.map((b) => [b.param, b.field]) ?? null]));
    expect(bindings(back)).toEqual(bindings(model));
    expect(imported.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('types each bound parameter of the generated client as its field (a string owner beside an integer id)', () => {
    const code = generateClient(model).code;
    expect(code).toContain('getRepo(username: string, id: number, options: RequestOptions = {}): Promise<Repo>');
    expect(code).toContain('createRepo(username: string, body: RepoCreateBound, options: RequestOptions = {}): Promise<Repo>');
    expect(code).toContain('getUser(username: string, options: RequestOptions = {}): Promise<User>');
  });
});
