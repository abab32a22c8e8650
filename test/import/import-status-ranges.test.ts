// Status ranges (`2XX`, `4XX`, `5XX`) kept as ranges (docs/format.md, "Status ranges"): imported as `status: 2XX` on
// the operation and `status: 4XX` / `5XX` on an error code, exported back under the range's key at the same
// operation, served with the action's own status (a `4XX` code with 400), judged by the tester as the range, and
// diffed as a status change. Before: a `2XX` was exported as `200` (said approximated), a `4XX`/`5XX` was dropped.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffModels } from '../../src/diff/diff-run.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { testService } from '../../src/tester/tester-run.js';
import { startSpec, type OrdersServer } from '../tester/helpers.js';
import { startProxy } from '../tester/mutant-proxy.js';

type Json = Record<string, unknown>;
const problem = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Problem' } } } };
const DOC = {
  openapi: '3.0.3',
  info: { title: 'Ranges', version: '1' },
  paths: {
    '/notes': {
      post: {
        operationId: 'createNote',
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } } },
        responses: {
          '2XX': { description: 'Made', content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } } },
          '4XX': { description: 'The request was refused', ...problem },
          '5XX': { description: 'The service failed', ...problem },
        },
      },
    },
    '/notes/{id}': {
      get: {
        operationId: 'getNote',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        responses: {
          '200': { description: 'The note', content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } } },
          '404': { description: 'No such note', ...problem },
          '4XX': { description: 'The request was refused', ...problem },
        },
      },
    },
  },
  components: {
    schemas: {
      Note: {
        type: 'object',
        required: ['id', 'text'],
        properties: { id: { type: 'string', format: 'uuid', readOnly: true }, text: { type: 'string' } },
      },
      Problem: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
    },
  },
};

describe('status ranges through import and export', () => {
  it('`2XX` is the operation status and `4XX`/`5XX` error codes, nothing approximated or dropped; exported back at the same keys', async () => {
    const r = await importOpenApiDocument(structuredClone(DOC) as unknown, 'ranges.json');
    // Said only: the two inline `4XX` responses with the same description share one code, as two inline 404s would.
    const said = r.diagnostics.filter((d) => /\/responses\/[245]XX$/.test(d.pointer ?? '')).map((d) => `${d.code} ${d.pointer}`);
    // The create's `2XX` declares no Location: imported with `location: false`, nothing approximated.
    expect(said).toEqual(['import-errors-merged /paths/~1notes/post/responses/4XX']);
    const ops = r.document!.endpoints!.operations!;
    expect(ops.createNote).toMatchObject({ action: 'create', status: '2XX' });
    expect(ops.getNote!.status).toBeUndefined();
    const codes = r.document!.errors!.codes!;
    expect(Object.values(codes).map((c) => c.status)).toEqual(expect.arrayContaining(['4XX', '5XX', 404]));
    const model = r.compiled!.model!;
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(model.endpoints!.operations.find((o) => o.id === 'createNote')).toMatchObject({ status: 201, statusRange: '2XX' });
    const back = exportOpenApi(model).document as { paths: Record<string, Record<string, { responses: Json }>> };
    expect(Object.keys(back.paths['/notes']!.post!.responses)).toEqual(['2XX', '4XX', '5XX', 'default']);
    expect(Object.keys(back.paths['/notes/{id}']!.get!.responses)).toEqual(['200', '404', '4XX', 'default']);
    expect(JSON.stringify(back.paths['/notes']!.post!.responses['2XX'])).toContain('#/components/schemas/Note');
  });

  it('a spec with ranges round-trips spec → export → import unchanged', async () => {
    const r = await importOpenApiDocument(structuredClone(DOC) as unknown, 'ranges.json');
    const again = await importOpenApiDocument(exportOpenApi(r.compiled!.model!).document as unknown, 'again.json');
    expect(again.document!.endpoints!.operations!.createNote!.status).toBe('2XX');
    expect(Object.values(again.document!.errors!.codes!).map((c) => c.status)).toEqual(Object.values(r.document!.errors!.codes!).map((c) => c.status));
  });

  it('check refuses a range a status cannot be (`3XX` success, `2XX` error) with wrong-type / invalid-value', () => {
    const c = compileSpecText(
      `servicespec: 1
resources:
  Note: { fields: { id: { type: uuid, readOnly: true }, text: { type: string } } }
endpoints:
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note, status: 3XX }
errors:
  codes:
    odd: { status: 2XX }
`,
      'bad.yaml',
    );
    const errs = c.diagnostics.filter((d) => d.severity === 'error').map((d) => d.pointer);
    expect(errs).toEqual(expect.arrayContaining(['/endpoints/operations/createNote/status', '/errors/codes/odd/status']));
  });

  it('diff: 201 → 2XX is a success status change; 404 → 4XX an error status change', () => {
    const spec = (status: string, err: string) =>
      compileSpecText(
        `servicespec: 1
resources:
  Note: { fields: { id: { type: uuid, readOnly: true }, text: { type: string } } }
endpoints:
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note, status: ${status}, errors: [gone] }
errors:
  codes:
    gone: { status: ${err} }
`,
        'd.yaml',
      ).model!;
    const d = diffModels(spec('201', '404'), spec('2XX', '4XX'));
    expect(d.changes.map((c) => [c.code, c.reason])).toEqual(
      expect.arrayContaining([
        ['success-status-changed', 'operation createNote: success status is now 2XX (was 201)'],
        ['error-status-changed', 'error code gone is now answered with status 4XX (was 404)'],
      ]),
    );
  });
});

describe('status ranges served and tested', () => {
  let dir: string;
  let s: OrdersServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'servicespec-ranges-'));
    const r = await importOpenApiDocument(structuredClone(DOC) as unknown, 'ranges.json');
    writeFileSync(join(dir, 'ranges.yaml'), r.text!);
    s = await startSpec(join(dir, 'ranges.yaml'));
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the create answers 201 (in 2XX), and the tester passes it', async () => {
    const res = await fetch(`${s.url}/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"a"}' });
    expect(res.status).toBe(201);
    const report = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 1, only: ['endpoints.valid-requests', 'endpoints.status'] });
    expect(report.results.filter((x) => x.outcome === 'failed').map((x) => [x.check, x.target, x.failure?.actual])).toEqual([]);
  }, 60_000);

  it('the tester holds a `2XX` operation to the range: another success status (202) passes', async () => {
    // Before: the import made the create `status: 200`, and a 202 failed endpoints.status ("status 200 for a success").
    const accepted = await startProxy(s.url, {
      response: (r, req) => (req.method === 'POST' && r.status >= 200 && r.status < 300 ? { ...r, status: 202 } : r),
    });
    try {
      const report = await testService(s.model, { baseUrl: accepted.url, ...s.options, seed: 1, only: ['endpoints.valid-requests', 'endpoints.status'] });
      expect(report.results.filter((x) => x.outcome === 'failed').map((x) => [x.check, x.target, x.failure?.actual])).toEqual([]);
      expect(report.results.some((x) => x.check === 'endpoints.status' && x.target === 'createNote' && x.outcome === 'passed')).toBe(true);
    } finally {
      await accepted.close();
    }
  }, 60_000);
});
