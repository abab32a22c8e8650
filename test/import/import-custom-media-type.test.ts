// A custom operation's JSON request sent as another JSON type (`application/merge-patch+json`, a vendor `+json`) keeps
// that type (`request_media_type`), imported, exported and served: a body of another type, application/json included,
// is unsupported_media_type, and the tester sends the stated type. Before, the import dropped it with no diagnostic:
// the tester sent application/json to a faithful tracker server's merge-patch PATCH and failed its 415.
import { describe, expect, it } from 'vitest';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { startService } from '../runtime/helpers.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';

const doc = {
  openapi: '3.1.0',
  info: { title: 'Tracker', version: '1' },
  paths: {
    '/issues/{number}/notes': {
      patch: {
        operationId: 'patchNotes',
        parameters: [{ name: 'number', in: 'path', required: true, schema: { type: 'integer' } }],
        requestBody: {
          required: true,
          content: { 'application/merge-patch+json': { schema: { type: 'object', properties: { text: { type: ['string', 'null'] } } } } },
        },
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { text: { type: 'string' } } } } } } },
      },
    },
  },
};

const SPEC = `servicespec: 1
endpoints:
  operations:
    patchNotes:
      method: PATCH
      path: '/issues/{number}/notes'
      action: custom
      handler: patchNotes
      request_media_type: application/merge-patch+json
      request: { fields: { number: { type: integer, optional: true }, text: { type: string, nullable: true, optional: true } } }
      response: { fields: { text: { type: string, optional: true } } }
      errors: [invalid, not_json]
authentication:
  default: none
${PLAIN_ERRORS}`;

describe("a custom operation's request of another JSON type", () => {
  it('import keeps it as request_media_type; export writes it back', async () => {
    const r = await importOpenApiDocument(doc as unknown, 'tracker.json');
    const o = r.document!.endpoints!.operations!.patchNotes!;
    expect(o).toMatchObject({ action: 'custom', request_media_type: 'application/merge-patch+json' });
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const out = exportOpenApi(r.compiled!.model!).document as { paths: Record<string, { patch: { requestBody: { content: object } } }> };
    expect(Object.keys(out.paths['/issues/{number}/notes']!.patch.requestBody.content)).toEqual(['application/merge-patch+json']);
  });

  it('check: on a custom operation with a form or no body it is still request-media-type-invalid', () => {
    const none = compileSpecText(SPEC.replace(/request: \{ fields: .*\}\n/, 'request: none\n'));
    expect(none.diagnostics.filter((d) => d.code === 'request-media-type-invalid').map((d) => d.pointer)).toEqual([
      '/endpoints/operations/patchNotes/request_media_type',
    ]);
    expect(compileSpecText(SPEC).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('served: application/json is unsupported_media_type; the stated type reaches the handler', async () => {
    const s = await startService(checkedModel(SPEC), { handlers: { patchNotes: (ctx) => ({ text: String((ctx.body as { text?: string }).text) }) } });
    try {
      const send = (type: string) => fetch(`${s.url}/issues/7/notes`, { method: 'PATCH', headers: { 'content-type': type }, body: '{"text":"hi"}' });
      const json = await send('application/json');
      expect([json.status, ((await json.json()) as { code: string }).code]).toEqual([415, 'not_json']);
      const patch = await send('application/merge-patch+json');
      expect([patch.status, await patch.json()]).toEqual([200, { text: 'hi' }]);
    } finally {
      await s.close();
    }
  });
});
