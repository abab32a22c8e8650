// A custom operation that takes no body (`request: none`), as an OpenAPI operation without `requestBody` does (a POST
// to /pay, /merge): stated, not a gap. Before, import left its request "not shown": a gap, a custom-needs-shape
// warning and `serve` refusing the spec without --allow-gaps, for a contract the document states in full.
import { describe, expect, it } from 'vitest';
import { getGapReport } from '../../src/check/check-gaps.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { modelToSpec } from '../../src/export/model-to-spec.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';
import { startService } from '../runtime/helpers.js';

const SPEC = (request: string, action = 'custom') => `servicespec: 1
resources:
  Ticket:
    fields:
      id: { type: uuid, readOnly: true }
      seat: { type: string }
endpoints:
  operations:
    payTicket:
      method: POST
      path: /pay
      action: ${action}
      ${action === 'custom' ? 'handler: pay' : 'resource: Ticket'}
      ${request}
      ${action === 'custom' ? 'response: { fields: { paid: { type: boolean } } }' : ''}
authentication:
  default: none
`;

const requestGaps = (text: string) =>
  getGapReport(compileSpecText(text).model!)
    .parts.flatMap((p) => p.missing)
    .filter((g) => JSON.stringify(g).includes('request payload shape'));

describe('request: none', () => {
  it('is no gap and no custom-needs-shape warning; left out, the request is a gap as before', () => {
    const none = compileSpecText(SPEC('request: none'));
    const warnings = (c: typeof none) => c.diagnostics.filter((d) => d.code !== 'undeclared-condition').map((d) => d.code);
    expect(warnings(none)).toEqual([]);
    expect(none.model!.endpoints!.operations[0]).toMatchObject({ takesNoBody: true });
    expect(none.model!.endpoints!.operations[0]!.request).toBeUndefined();
    expect(requestGaps(SPEC('request: none'))).toEqual([]);
    const unshown = compileSpecText(SPEC(''));
    expect(warnings(unshown)).toEqual(['custom-needs-shape']);
    expect(requestGaps(SPEC(''))).toHaveLength(1);
  });

  it('on a resource action is misplaced-option; another word is invalid', () => {
    const create = compileSpecText(SPEC('request: none', 'create'));
    expect(create.diagnostics.filter((d) => d.code === 'misplaced-option').map((d) => d.pointer)).toEqual(['/endpoints/operations/payTicket/request']);
    const other = compileSpecText(SPEC('request: nothing'));
    expect(other.diagnostics.some((d) => d.severity === 'error' && d.pointer === '/endpoints/operations/payTicket/request')).toBe(true);
  });

  it('is said in the document, kept by model-to-spec and through the OpenAPI export and back', async () => {
    const m = compileSpecText(SPEC('request: none')).model!;
    expect(renderMarkdown(m)).toContain('Request: no body (`request: none`).');
    expect((modelToSpec(m).endpoints!.operations!.payTicket as { request?: unknown }).request).toBe('none');
    const doc = exportOpenApi(m).document as { paths: Record<string, { post: { requestBody?: unknown } }> };
    expect(doc.paths['/pay']!.post.requestBody).toBeUndefined();
    const back = await importOpenApiDocument(doc, 'export.json');
    expect(back.document!.endpoints!.operations!.payTicket!.request).toBe('none');
  });

  it('is what import makes of a POST without requestBody', async () => {
    const r = await importOpenApiDocument(
      {
        openapi: '3.1.0',
        info: { title: 'Merge', version: '1' },
        paths: {
          '/pulls/{id}/merge': {
            post: {
              operationId: 'mergePull',
              parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
              responses: {
                '200': { description: 'merged', content: { 'application/json': { schema: { type: 'object', properties: { merged: { type: 'boolean' } } } } } },
              },
            },
          },
        },
      },
      'merge.json',
    );
    expect(r.document!.endpoints!.operations!.mergePull!.request).toBe('none');
    expect(r.compiled!.diagnostics.filter((d) => d.code === 'custom-needs-shape')).toEqual([]);
  });

  it('served: the handler runs without a body, and a body sent is not read', async () => {
    const s = await startService(compileSpecText(SPEC('request: none')).model!, {
      handlers: { pay: (ctx) => ({ paid: ctx.body === undefined }) },
    });
    try {
      const bare = await fetch(`${s.url}/pay`, { method: 'POST' });
      expect(bare.status).toBe(200);
      expect(await bare.json()).toEqual({ paid: true });
      const sent = await fetch(`${s.url}/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"x":1}' });
      expect(sent.status).toBe(200);
      expect(await sent.json()).toEqual({ paid: true });
    } finally {
      await s.close();
    }
  });
});
