// A sort field one way only (`+created_at`, `-score`): an OpenAPI sort enum listing `name, -name, created_at` kept as
// it is. Before, import made it `sort: [name, created_at]`, the served list took `-created_at`, which the original
// refuses, and the contract tester sent it to a faithful service and failed its refusal (an outside sweep).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffModels } from '../../src/diff/diff-run.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { modelToSpec } from '../../src/export/model-to-spec.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { testService } from '../../src/tester/tester-run.js';
import { PLAIN_ERRORS } from '../support/specs.js';
import { startProxy } from '../tester/mutant-proxy.js';
import { startService, type Running } from './helpers.js';

const spec = (sort: string) => `
servicespec: 1
resources:
  Note:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string, maxLength: 20 }
      score: { type: integer }
      created_at: { type: datetime, readOnly: true, generated: create_time }
endpoints:
  operations:
    listNotes: { method: GET, path: /notes, action: list, resource: Note, sort: ${sort} }
    createNote: { method: POST, path: /notes, action: create, resource: Note }
authentication:
  default: none
${PLAIN_ERRORS}`;

const ONE_WAY = spec('[name, +created_at, -score]');
const compile = (text: string) => compileSpecText(text, 'spec.yaml');

describe('sort fields one way only', () => {
  it('model, check, export, client and the spec written back list exactly the values', () => {
    const c = compile(ONE_WAY);
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const op = c.model!.endpoints!.operations.find((o) => o.id === 'listNotes')!;
    expect([op.sort, op.sortValues]).toEqual([
      ['name', 'created_at', 'score'],
      ['name', '-name', 'created_at', '-score'],
    ]);
    const out = exportOpenApi(c.model!).document as { paths: Record<string, { get: { parameters: { name: string; schema: { enum?: string[] } }[] } }> };
    expect(out.paths['/notes']!.get.parameters.find((p) => p.name === 'sort')!.schema.enum).toEqual(['name', '-name', 'created_at', '-score']);
    expect(modelToSpec(c.model!).endpoints!.operations!.listNotes!.sort).toEqual(['name', '+created_at', '-score']);
    // An unknown field keeps its code with a direction written.
    expect(compile(spec('[+nope]')).diagnostics.map((d) => d.code)).toContain('unknown-field');
  });

  it('import keeps an enum listing a field one way as that way', async () => {
    const r = await importOpenApiDocument(exportOpenApi(compile(spec('[name]')).model!).document, 'a.json');
    expect(r.document!.endpoints!.operations!.listNotes!.sort).toEqual(['name']);
    const doc = exportOpenApi(compile(ONE_WAY).model!).document as Record<string, unknown>;
    // Read as another tool's document would be: without servicespec's own extension.
    const plain = JSON.parse(JSON.stringify(doc).replaceAll('"x-servicespec-operation"', '"x-other"')) as Record<string, unknown>;
    const back = await importOpenApiDocument(plain, 'b.json');
    expect(back.document!.endpoints!.operations!.listNotes!.sort).toEqual(['name', '+created_at', '-score']);
  });

  it('diff: a direction taken away is sort-removed (breaking), one added sort-added', () => {
    const changes = (a: string, b: string) =>
      diffModels(compile(spec(a)).model!, compile(spec(b)).model!, { today: '2026-06-01' }).changes.map((c) => `${c.code} ${c.impact} ${c.reason}`);
    expect(changes('[name, created_at]', '[name, +created_at]')).toEqual([expect.stringMatching(/^sort-removed breaking .*-created_at/)]);
    expect(changes('[name, +created_at]', '[name, created_at]')).toEqual([expect.stringMatching(/^sort-added non-breaking .*-created_at/)]);
  });
});

for (const fastPaths of [true, false])
  describe(`served (fast paths ${fastPaths ? 'on' : 'off'})`, () => {
    let s: Running;
    beforeAll(async () => {
      s = await startService(compile(ONE_WAY).checked!, { fastPaths });
      for (const [name, score] of [
        ['b', 2],
        ['a', 3],
      ] as const)
        expect((await s.call('POST', '/notes', { name, score })).status).toBe(201);
    });
    afterAll(async () => {
      await s?.close();
    });
    it('answers the directions it takes and refuses the others with validation, naming the values', async () => {
      expect((await s.call('GET', '/notes?sort=-name')).body.items.map((n: { name: string }) => n.name)).toEqual(['b', 'a']);
      expect((await s.call('GET', '/notes?sort=-score')).body.items.map((n: { name: string }) => n.name)).toEqual(['a', 'b']);
      expect((await s.call('GET', '/notes?sort=created_at')).status).toBe(200);
      for (const refused of ['-created_at', 'score']) {
        const r = await s.call('GET', `/notes?sort=${refused}`);
        expect(r.status, refused).toBe(422);
        expect(JSON.stringify(r.body), refused).toContain('must be one of name, -name, created_at, -score');
      }
    });
  });

describe('the contract tester', () => {
  let s: Running;
  beforeAll(async () => {
    s = await startService(compile(ONE_WAY).checked!, { fastPaths: true });
  });
  afterAll(async () => {
    await s?.close();
  });
  it('sends only the directions the list takes, and passes the served spec', async () => {
    const sorts = new Set<string>();
    const proxy = await startProxy(s.url, {
      observe: (req) => {
        const m = /[?&]sort=([^&]+)/.exec(req.path);
        if (m) sorts.add(decodeURIComponent(m[1]!));
      },
    });
    try {
      const report = await testService(compile(ONE_WAY).checked!, { baseUrl: proxy.url, seed: 1, only: ['endpoints.list-paging', 'endpoints.list-sort'] });
      expect(report.results.filter((r) => r.outcome === 'failed').map((r) => [r.check, r.target, r.failure?.actual])).toEqual([]);
      expect([...sorts].filter((v) => v !== '__no_such_field__').sort()).toEqual(['-name', '-score', 'created_at', 'name']);
    } finally {
      await proxy.close();
    }
  }, 60_000);
});
