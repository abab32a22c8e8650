// Error answers that may carry members the declared error body does not name (`errors.body.answer_members: open`):
// what an OpenAPI error schema without `additionalProperties: false` allows, and what many services answer (a trace
// id, a documentation link). The tester holds the named fields and lets the others by; where the spec says `named`
// (the format's default, or an imported `additionalProperties: false`) the same answers fail.
import { describe, expect, it } from 'vitest';
import { compareModels } from '../../src/diff/diff-rules.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { generateClient } from '../../src/export/export-client.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';
import { testService } from '../../src/tester/tester-run.js';
import { startService } from '../runtime/helpers.js';
import { checkedModel } from '../support/specs.js';
import { json, startProxy, withJson } from './mutant-proxy.js';

const failures = (report: Awaited<ReturnType<typeof testService>>) =>
  report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}: ${r.failure?.expected} / ${r.failure?.actual}`);

const NOTES = (answerMembers: string) => `
servicespec: 1
resources:
  Note:
    fields:
      id: { type: uuid, readOnly: true }
      text: { type: string, minLength: 1, maxLength: 50 }
endpoints:
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note }
    getNote: { method: GET, path: '/notes/{id}', action: read, resource: Note }
authentication:
  default: none
errors:
  body:
    fields:
      code: { type: string }
      message: { type: string }
    ${answerMembers}
  codes:
    invalid: { status: 400, when: [validation, malformed_request, unsupported_media_type] }
    missing: { status: 404, when: [missing_resource, route_not_found] }
`;

describe('errors.body.answer_members: open', () => {
  it('lets members the error body does not name by; named, the same answers fail', async () => {
    const s = await startService(checkedModel(NOTES('answer_members: named')));
    const extra = await startProxy(s.url, {
      response: (r) => (r.status >= 400 && r.body.length > 0 ? withJson(r, { ...(json(r) as object), trace_id: 'abc', docs: { url: 'x' } }) : r),
    });
    try {
      const open = await testService(checkedModel(NOTES('answer_members: open')), { baseUrl: extra.url, seed: 1, only: ['endpoints', 'errors'] });
      expect(failures(open)).toEqual([]);
      expect(open.results.filter((r) => r.outcome === 'passed' && r.check.startsWith('errors.')).length).toBeGreaterThan(2);
      const named = await testService(checkedModel(NOTES('')), { baseUrl: extra.url, seed: 1, only: ['endpoints', 'errors'] });
      expect(failures(named).join('\n')).toContain('error body fields trace_id, docs are not declared');
    } finally {
      await extra.close();
      await s.close();
    }
  }, 90_000);

  it('still holds the named fields to their types when open', async () => {
    const s = await startService(checkedModel(NOTES('answer_members: named')));
    const wrong = await startProxy(s.url, {
      response: (r) => (r.status >= 400 && r.body.length > 0 ? withJson(r, { ...(json(r) as object), message: 7 }) : r),
    });
    try {
      const open = await testService(checkedModel(NOTES('answer_members: open')), { baseUrl: wrong.url, seed: 1, only: ['errors'] });
      expect(failures(open).join('\n')).toContain('the error body message must be string');
    } finally {
      await wrong.close();
      await s.close();
    }
  }, 90_000);

  it('is carried to the OpenAPI export, the client, the document and diff', () => {
    const open = checkedModel(NOTES('answer_members: open'));
    const named = checkedModel(NOTES(''));
    const schemaOf = (m: typeof open) =>
      (exportOpenApi(m).document as { components: { schemas: Record<string, { additionalProperties?: unknown }> } }).components.schemas.ErrorBody!;
    expect(schemaOf(open).additionalProperties).toBeUndefined();
    expect(schemaOf(named).additionalProperties).toBe(false);
    const errorBodyType = (m: typeof open) => /export interface ErrorBody \{[^]*?\n\}/.exec(generateClient(m).code)?.[0] ?? '';
    expect(errorBodyType(open)).toContain('[key: string]: unknown;');
    expect(errorBodyType(named)).not.toContain('[key: string]: unknown;');
    expect(renderMarkdown(open)).toContain('Other members: allowed: an implementation may answer members not named here (`answer_members: open`)');
    expect(renderMarkdown(named)).not.toContain('Other members');
    expect(compareModels(named, open).map((c) => [c.code, c.impact])).toEqual([['error-members-opened', 'breaking']]);
    expect(compareModels(open, named).map((c) => [c.code, c.impact])).toEqual([['error-members-named', 'non-breaking']]);
  });
});

describe('import: an error schema that leaves its object open', () => {
  const doc = (closed: boolean) => ({
    openapi: '3.1.0',
    info: { title: 'Notes', version: '1' },
    paths: {
      '/notes/{id}': {
        get: {
          operationId: 'getNote',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' } } } } } },
            '404': { description: 'missing', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
          },
        },
      },
    },
    components: {
      schemas: {
        Error: {
          type: 'object',
          required: ['code', 'message'],
          properties: { code: { type: 'string', enum: ['not_found'] }, message: { type: 'string' } },
          ...(closed ? { additionalProperties: false } : {}),
        },
      },
    },
  });

  it('is answer_members: open; additionalProperties: false leaves the format default (named); each exports back as read', async () => {
    const open = await importOpenApiDocument(doc(false), 'open.json');
    const openBody = open.document!.errors!.body as { answer_members?: string };
    expect(openBody.answer_members).toBe('open');
    expect(open.compiled!.model!.errors!.body).toMatchObject({ kind: 'declared', answerMembers: 'open' });
    const closed = await importOpenApiDocument(doc(true), 'closed.json');
    expect((closed.document!.errors!.body as { answer_members?: string }).answer_members).toBeUndefined();
    expect(closed.compiled!.model!.errors!.body).toMatchObject({ kind: 'declared', answerMembers: 'named' });
    for (const [r, additional] of [
      [open, undefined],
      [closed, false],
    ] as const) {
      const out = exportOpenApi(r.compiled!.model!).document as { components: { schemas: Record<string, { additionalProperties?: unknown }> } };
      expect(out.components.schemas.ErrorBody!.additionalProperties).toBe(additional);
    }
  });
});
