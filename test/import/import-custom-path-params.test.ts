// A custom operation's path parameters are fields of its written-out request (docs/format.md, the action table). A
// custom POST with `{intent}` and an inline body not naming it (Stripe's confirm) made the import fail
// (`unbound-path-parameter`, then `import-result-invalid`): a valid OpenAPI document never makes the import fail.
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { startService } from '../runtime/helpers.js';

type Json = Record<string, unknown>;

const CONFIRM = {
  openapi: '3.0.3',
  info: { title: 'min', version: '1' },
  paths: {
    '/v1/payment_intents/{intent}/confirm': {
      post: {
        operationId: 'ConfirmPaymentIntent',
        parameters: [{ name: 'intent', in: 'path', required: true, description: 'The intent.', schema: { type: 'string', maxLength: 40 } }],
        requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { return_url: { type: 'string', format: 'uri' } } } } } },
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' } } } } } } },
      },
    },
  },
};

describe('a custom operation whose inline request body does not name its path parameter', () => {
  it('is imported with the parameter as an optional request field, said, and served with the path value in params', async () => {
    const r = await importOpenApiDocument(structuredClone(CONFIRM) as unknown, 'min.json');
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const op = r.document!.endpoints!.operations!.ConfirmPaymentIntent!;
    expect(op.action).toBe('custom');
    expect((op.request as { fields: Json }).fields).toEqual({
      return_url: { type: 'uri', optional: true },
      intent: { type: 'string', maxLength: 40, description: 'The intent.', optional: true },
    });
    const said = r.diagnostics.filter((d) => d.code === 'import-approximated' && d.message.includes('{intent}'));
    expect(said.map((d) => d.pointer)).toEqual(['/paths/~1v1~1payment_intents~1{intent}~1confirm/post/parameters/0']);

    const seen: unknown[] = [];
    const s = await startService(r.compiled!.model!, {
      handlers: {
        ConfirmPaymentIntent: (ctx) => {
          seen.push({ params: ctx.params, body: ctx.body });
          return { id: ctx.params.intent };
        },
      },
    });
    try {
      const res = await s.call('POST', '/v1/payment_intents/pi_1/confirm', { return_url: 'https://a.example/back' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: 'pi_1' });
      expect(seen).toEqual([{ params: { intent: 'pi_1' }, body: { return_url: 'https://a.example/back' } }]);
    } finally {
      await s.close();
    }
  });

  it('leaves a parameter the body names, a $ref body and a body-less operation as they were', async () => {
    const doc = structuredClone(CONFIRM) as Json;
    const post = (doc.paths as Record<string, Record<string, Json>>)['/v1/payment_intents/{intent}/confirm']!.post!;
    (post.requestBody as { content: Record<string, { schema: Json }> }).content['application/json']!.schema = {
      type: 'object',
      properties: { intent: { type: 'string' }, return_url: { type: 'string' } },
    };
    const r = await importOpenApiDocument(doc, 'named.json');
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect((r.document!.endpoints!.operations!.ConfirmPaymentIntent!.request as { fields: Json }).fields).toEqual({
      intent: { type: 'string', optional: true },
      return_url: { type: 'string', optional: true },
    });
    expect(r.diagnostics.filter((d) => d.message.includes('{intent} is imported'))).toEqual([]);

    delete post.requestBody;
    const none = await importOpenApiDocument(doc, 'none.json');
    expect(none.document!.endpoints!.operations!.ConfirmPaymentIntent!.request).toBe('none');
  });
});
