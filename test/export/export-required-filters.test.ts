// A list's required filters (required_filters) in the exports: the OpenAPI parameter is `required: true` (an
// optional filter stays `required: false`), the spec written back keeps them, and the typed client makes the query
// argument and the parameter required (checked by tsc --strict).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateClient } from '../../src/export/export-client.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { operationToSpec } from '../../src/export/model-to-spec.js';
import { compileSpecText } from '../../src/program.js';
import { PLAIN_ERRORS } from '../support/specs.js';
import { tempDir, tsc } from './helpers.js';

const SPEC = `
servicespec: 1
resources:
  Label:
    fields:
      id: { type: uuid, readOnly: true }
      project_id: { type: uuid }
      name: { type: string }
endpoints:
  operations:
    listLabels: { method: GET, path: /labels, action: list, resource: Label, filter: [project_id, name], required_filters: [project_id] }
    createLabel: { method: POST, path: /labels, action: create, resource: Label }
authentication:
  default: none
${PLAIN_ERRORS}`;

type Param = { name: string; in: string; required: boolean };
type Doc = { paths: Record<string, Record<string, { parameters?: Param[]; 'x-servicespec-operation'?: Record<string, unknown> }>> };

const tmp = tempDir('servicespec-required-filters-');
afterAll(() => tmp.remove());

describe('required_filters exported', () => {
  const model = compileSpecText(SPEC).checked!;

  it('OpenAPI: the required filter is required: true, the other filter not', () => {
    const doc = exportOpenApi(model).document as unknown as Doc;
    const params = doc.paths['/labels']!.get!.parameters!.filter((p) => p.in === 'query');
    expect(params.filter((p) => p.name === 'project_id' || p.name === 'name').map((p) => [p.name, p.required])).toEqual([
      ['project_id', true],
      ['name', false],
    ]);
  });

  it('the spec written back keeps them', () => {
    const list = model.endpoints!.operations.find((o) => o.id === 'listLabels')!;
    expect(operationToSpec(list).required_filters).toEqual(['project_id']);
  });

  it('the typed client requires the query and the parameter, and compiles with tsc --strict', async () => {
    const code = generateClient(model).code;
    expect(code).toMatch(/ {2}project_id: string;/);
    expect(code).toMatch(/ {2}name\?: string;/);
    expect(code).toContain('listLabels(query: ListLabelsQuery, options');
    writeFileSync(join(tmp.path, 'client.ts'), code);
    writeFileSync(
      join(tmp.path, 'use.ts'),
      `import { ServiceClient } from './client.js';
export async function use(c: ServiceClient): Promise<number> {
  const page = await c.listLabels({ project_id: '0190a8a4-0000-7000-8000-000000000000' });
  // @ts-expect-error project_id is required
  await c.listLabels({ name: 'x' });
  let n = page.items.length;
  for await (const l of c.listLabelsAll({ project_id: '0190a8a4-0000-7000-8000-000000000000' })) n += l.name.length;
  return n;
}
`,
    );
    const r = await tsc(tmp.path, ['client.ts', 'use.ts'], {
      target: 'ES2022',
      lib: ['ES2022', 'DOM', 'DOM.Iterable'],
      module: 'ES2022',
      moduleResolution: 'bundler',
    });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);
  }, 120_000);
});
