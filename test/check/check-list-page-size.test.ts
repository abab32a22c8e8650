// A list's own page sizes (paging.page_size): each key overrides limits.page_size's for that list alone, as real
// APIs cap one list at 25 and another at 100. Carried through check, gaps, the document, the OpenAPI export, import
// (each list's `limit` maximum kept where the lists differ: before, both were dropped) and diff.
import { describe, expect, it } from 'vitest';
import { getGapReport } from '../../src/check/check-gaps.js';
import { diffModels } from '../../src/diff/diff-run.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';
import { compileSpecText } from '../../src/program.js';
import { PLAIN_ERRORS } from '../support/specs.js';

const spec = (notes: string, tags = '', limits = 'page_size: { default: 10, max: 100, over_max: reject }') => `
servicespec: 1
resources:
  Note:
    fields:
      id: { type: uuid, readOnly: true }
      text: { type: string, maxLength: 100 }
endpoints:
  operations:
    listNotes: { method: GET, path: /notes, action: list, resource: Note${notes} }
    listTags: { method: GET, path: /tags, action: list, resource: Note${tags} }
    createNote: { method: POST, path: /notes, action: create, resource: Note }
authentication:
  default: none
limits:
  ${limits}
  rate: [{ requests: 100, per: 1m, by: address }]
  body_size: 1MB
  timeout: 10s
${PLAIN_ERRORS}`;

const compile = (text: string) => compileSpecText(text, 'spec.yaml');
const CAPPED = ', paging: { style: offset, page_size: { max: 25 } }';

describe("a list's own page sizes", () => {
  it('check: clean; a default above the maximum as they apply is page-size-default-above-max at the list', () => {
    expect(compile(spec(CAPPED)).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    // Its own maximum under limits' default of 10: the list's default as it applies (10) is above its max (5).
    const d = compile(spec(', paging: { page_size: { max: 5 } }')).diagnostics.filter((x) => x.code === 'page-size-default-above-max');
    expect(d).toHaveLength(1);
    expect(d[0]!.message).toBe('the default page size (10) is above the maximum page size (5) (list listNotes)');
    expect(d[0]!.pointer).toBe('/endpoints/operations/listNotes/paging/page_size/max');
    // limits' own pair keeps its code, said of limits.
    const l = compile(spec('', '', 'page_size: { default: 20, max: 10, over_max: reject }')).diagnostics.filter(
      (x) => x.code === 'page-size-default-above-max',
    );
    expect(l.map((x) => [x.message, x.pointer])).toEqual([
      ['the default page size (20) is above the maximum page size (10) (limits.page_size)', '/limits/page_size/default'],
    ]);
  });

  it('check: a default on a list without paging (style none) is paging-contradiction; an unknown key is refused by the schema', () => {
    const d = compile(spec(', paging: { style: none, page_size: { default: 5, max: 50 } }')).diagnostics;
    expect(d.filter((x) => x.code === 'paging-contradiction').map((x) => x.pointer)).toEqual(['/endpoints/operations/listNotes/paging/page_size']);
    const u = compile(spec(', paging: { page_size: { maximum: 5 } }')).diagnostics;
    expect(u.map((x) => x.code)).toContain('unknown-key');
  });

  it("gaps: a list's own keys state what limits.page_size leaves out; a list stating none leaves the gap", () => {
    const report = (text: string) =>
      getGapReport(compile(text).model!)
        .parts.find((p) => p.part === 'limits')!
        .missing.map((m) => `${m.item}${m.where ? ` (${m.where})` : ''}`);
    const both = ', paging: { page_size: { default: 10, max: 25, over_max: reject } }';
    expect(report(spec(both, both, 'page_size: {}'))).toEqual([]);
    expect(report(spec(both, '', 'page_size: {}'))).toEqual(['page sizes (default)', 'page sizes (maximum)', 'page sizes (answer over the maximum)']);
  });

  it('gaps and document: a spec with no `limits` whose list states its page sizes shows limits partly, not "not shown"', () => {
    const text = `servicespec: 1
resources:
  Note:
    fields:
      id: { type: uuid, readOnly: true }
endpoints:
  operations:
    listNotes: { method: GET, path: /notes, action: list, resource: Note, paging: { page_size: { default: 10, max: 25 } } }
authentication:
  default: none
`;
    const model = compile(text).model!;
    const limits = getGapReport(model).parts.find((p) => p.part === 'limits')!;
    expect(limits.status).toBe('partly shown');
    expect(limits.missing.map((m) => `${m.item}${m.where ? ` (${m.where})` : ''}`)).toEqual([
      'rate limits',
      'size limits',
      'page sizes (answer over the maximum)',
      'time-outs',
    ]);
    const doc = renderMarkdown(model);
    expect(doc).toContain('| Page size of `listNotes` | default 10, at most 25 (paging.page_size; the rest as above) |');
    expect(doc).not.toContain('Rate limits, size limits, page sizes and time-outs: not shown');
  });

  it('document and export: each list with its own maximum', () => {
    const model = compile(spec(CAPPED)).model!;
    const doc = renderMarkdown(model);
    expect(doc).toContain('| Page size of `listNotes` | at most 25 (paging.page_size; the rest as above) |');
    const out = exportOpenApi(model).document as { paths: Record<string, { get: { parameters: { name: string; schema: Record<string, unknown> }[] } }> };
    const limit = (path: string) => out.paths[path]!.get.parameters.find((p) => p.name === 'limit')!.schema;
    expect(limit('/notes')).toMatchObject({ maximum: 25, default: 10 });
    expect(limit('/tags')).toMatchObject({ maximum: 100, default: 10 });
  });

  it("export then import of servicespec's own export keeps paging.page_size as written", async () => {
    const model = compile(spec(CAPPED)).model!;
    const back = await importOpenApiDocument(exportOpenApi(model).document);
    const ops = back.document!.endpoints!.operations!;
    expect(ops.listNotes!.paging?.page_size).toEqual({ max: 25 });
    expect(ops.listTags!.paging?.page_size).toBeUndefined();
    expect(back.document!.limits?.page_size).toEqual({ default: 10, max: 100, over_max: 'reject' });
  });

  it("import: lists whose `limit` maximums differ keep each its own; lists that agree share limits.page_size; none is given another's", async () => {
    const list = (op: string, limit: Record<string, unknown> | undefined) => ({
      get: {
        operationId: op,
        parameters: [
          ...(limit ? [{ name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, ...limit } }] : []),
          { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0 } },
        ],
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': {
                schema: { type: 'object', required: ['items'], properties: { items: { type: 'array', items: { $ref: '#/components/schemas/Note' } } } },
              },
            },
          },
        },
      },
    });
    const doc = (a: Record<string, unknown>, b: Record<string, unknown>, c?: Record<string, unknown>) => ({
      openapi: '3.0.3',
      info: { title: 'notes', version: '1' },
      paths: { '/notes': list('listNotes', a), '/tags': list('listTags', b), ...(c ? { '/pins': list('listPins', c) } : {}) },
      components: {
        schemas: { Note: { type: 'object', required: ['id', 'text'], properties: { id: { type: 'string', readOnly: true }, text: { type: 'string' } } } },
      },
    });
    const differ = await importOpenApiDocument(doc({ maximum: 25, default: 10 }, { maximum: 100, default: 10 }, {}));
    const ops = differ.document!.endpoints!.operations!;
    expect(ops.listNotes!.paging?.page_size).toEqual({ default: 10, max: 25, over_max: 'reject' });
    expect(ops.listTags!.paging?.page_size).toEqual({ default: 10, max: 100, over_max: 'reject' });
    // A list whose limit states neither is not given another's: its page sizes stay gaps.
    expect(ops.listPins!.paging?.page_size).toBeUndefined();
    expect(differ.document!.limits).toBeUndefined();
    const two = await importOpenApiDocument(doc({ maximum: 25, default: 10 }, { maximum: 100, default: 10 }));
    expect(two.document!.limits).toEqual({ page_size: { default: 10 } });
    expect(two.document!.endpoints!.operations!.listNotes!.paging?.page_size).toEqual({ max: 25, over_max: 'reject' });
    expect(differ.diagnostics.filter((d) => d.code === 'import-dropped' && d.message.includes('maximum'))).toEqual([]);
    const agree = await importOpenApiDocument(doc({ maximum: 50 }, { maximum: 50 }));
    expect(agree.document!.limits).toEqual({ page_size: { max: 50, over_max: 'reject' } });
    expect(agree.document!.endpoints!.operations!.listNotes!.paging?.page_size).toBeUndefined();
  });

  it("diff: a list's own maximum lowered is breaking, raised is not; a default or over_max changed is said at the list", () => {
    const changes = (a: string, b: string) =>
      diffModels(compile(spec(a)).model!, compile(spec(b)).model!, { today: '2026-06-01' }).changes.map((c) => `${c.code} ${c.impact} ${c.subject}`);
    expect(changes('', CAPPED)).toContain('page-size-max-lowered breaking listNotes paging.page_size.max');
    expect(changes(CAPPED, '')).toContain('limit-raised non-breaking listNotes paging.page_size.max');
    expect(changes(', paging: { page_size: { default: 5 } }', ', paging: { page_size: { default: 8 } }')).toContain(
      'page-size-default-changed needs-review listNotes paging.page_size.default',
    );
    expect(changes(', paging: { page_size: { over_max: clamp } }', '')).toContain('page-over-max-changed needs-review listNotes paging.page_size.over_max');
    // Unchanged as it applies: nothing said.
    expect(changes(', paging: { page_size: { max: 100 } }', '').filter((c) => c.includes('page'))).toEqual([]);
  });
});
