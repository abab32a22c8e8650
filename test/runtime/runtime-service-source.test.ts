// `source: service` (docs/format.md): a required read-only field the service sets by a rule the spec does not state.
// Every answer holds it (export, tester), its value is a named gap: `gaps` names it, serve refuses it without
// --allow-gaps, and with the flag answers without it — the runtime has no value for it, on the fast path and the
// plain one (SERVICESPEC_FAST_PATHS=off), on SQLite and PostgreSQL — and says which fields it left out in the
// Servicespec-Unset-Fields header. Its own response validation (a custom handler's answer, an event's payload) does
// not require it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatGapReport, getGapReport } from '../../src/check/check-gaps.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { modelToSpec } from '../../src/export/model-to-spec.js';
import { compileSpecText } from '../../src/program.js';
import { renderConsole } from '../../src/render/render-console.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';
import { getRuntimeGaps } from '../../src/runtime/service/runtime-gaps.js';
import { createService, ServiceStartError } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';
import { openStream } from '../events/helpers.js';
import { startService, type Running } from './helpers.js';

export const SERVICE_SOURCE_SPEC = `
servicespec: 1
resources:
  Issue:
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string, maxLength: 100 }
      number: { type: integer, readOnly: true, source: service }
      closed_at: { type: datetime, nullable: true, readOnly: true, source: service }
      created_at: { type: datetime, readOnly: true, generated: create_time }
endpoints:
  operations:
    createIssue: { method: POST, path: /issues, action: create, resource: Issue }
    readIssue: { method: GET, path: '/issues/{id}', action: read, resource: Issue }
    listIssues: { method: GET, path: /issues, action: list, resource: Issue }
    replaceIssue: { method: PUT, path: '/issues/{id}', action: replace, resource: Issue }
    updateIssue: { method: PATCH, path: '/issues/{id}', action: update, resource: Issue }
    summarizeIssue: { method: GET, path: '/issues/{id}/summary', action: custom, handler: summary, response: { resource: Issue } }
authentication:
  default: none
${PLAIN_ERRORS}`;

async function answersLeaveItOut(s: Running): Promise<void> {
  const made = await s.call('POST', '/issues', { title: 'a' });
  expect(made.status).toBe(201);
  expect(Object.keys(made.body as object).sort()).toEqual(['created_at', 'id', 'title']);
  expect(made.headers.get('servicespec-unset-fields')).toBe('number, closed_at');
  const id = made.body.id as string;
  const read = await s.call('GET', `/issues/${id}`);
  expect(read.status).toBe(200);
  expect(Object.keys(read.body as object).sort()).toEqual(['created_at', 'id', 'title']);
  expect(read.headers.get('servicespec-unset-fields')).toBe('number, closed_at');
  const list = await s.call('GET', '/issues');
  expect(list.status).toBe(200);
  const items = (list.body as { items: Record<string, unknown>[] }).items;
  expect(items.map((x) => Object.keys(x).sort())).toEqual([['created_at', 'id', 'title']]);
  const replaced = await s.call('PUT', `/issues/${id}`, { title: 'b' });
  expect(replaced.status).toBe(200);
  expect(Object.keys(replaced.body as object).sort()).toEqual(['created_at', 'id', 'title']);
  const updated = await s.call('PATCH', `/issues/${id}`, { title: 'c' });
  expect(updated.status).toBe(200);
  expect(updated.body).not.toHaveProperty('number');
  expect(updated.body).not.toHaveProperty('closed_at');
  // A client cannot write it: read-only, refused as any unknown member of a request.
  expect((await s.call('POST', '/issues', { title: 'a', number: 3 })).status).toBe(422);
  // An error answer does not carry the header.
  const missing = await s.call('GET', '/issues/00000000-0000-4000-8000-000000000000');
  expect(missing.status).toBe(404);
  expect(missing.headers.get('servicespec-unset-fields')).toBeNull();
}

describe('source: service', () => {
  let fast: Running;
  let plain: Running;
  beforeAll(async () => {
    // A handler answering an Issue without the fields the service sets: the runtime's own check of its answer does
    // not require them (it has no value for them either).
    const handlers = { summary: () => ({ id: '00000000-0000-4000-8000-000000000001', title: 'x', created_at: '2026-01-01T00:00:00.000Z' }) };
    fast = await startService(checkedModel(SERVICE_SOURCE_SPEC), { fastPaths: true, handlers });
    plain = await startService(checkedModel(SERVICE_SOURCE_SPEC), { fastPaths: false, handlers });
  });
  afterAll(async () => {
    await fast.close();
    await plain.close();
  });

  it('served with gaps allowed, every answer leaves the field out (no value), on the fast path', async () => {
    await answersLeaveItOut(fast);
  });

  it('and on the plain path', async () => {
    await answersLeaveItOut(plain);
  });

  it("a custom handler's answer without it is served, not refused as internal", async () => {
    for (const s of [fast, plain]) {
      const r = await s.call('GET', '/issues/00000000-0000-4000-8000-000000000001/summary');
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ id: '00000000-0000-4000-8000-000000000001', title: 'x', created_at: '2026-01-01T00:00:00.000Z' });
    }
  });

  it("an event's payload without it is published: the create is not refused as internal", async () => {
    const text = SERVICE_SOURCE_SPEC.replace(
      'authentication:\n',
      'events:\n  delivery:\n    stream: { path: /events, heartbeat: 10s }\n  kinds:\n    issue.added: { payload: { resource: Issue }, on: [create] }\nauthentication:\n',
    );
    expect(text).toContain('issue.added');
    const e = await startService(checkedModel(text), { handlers: { summary: () => ({}) } });
    try {
      const stream = await openStream(`${e.url}/events`);
      const made = await e.call('POST', '/issues', { title: 'a' });
      expect(made.status).toBe(201);
      const [event] = await stream.waitFor(1);
      stream.close();
      const body = JSON.parse(event!.data) as { data: { object: Record<string, unknown> } };
      expect(Object.keys(body.data.object).sort()).toEqual(['created_at', 'id', 'title']);
    } finally {
      await e.close();
    }
  });

  it('is a named gap: gaps names it, serve refuses it without --allow-gaps', async () => {
    const model = checkedModel(SERVICE_SOURCE_SPEC);
    const text = formatGapReport(getGapReport(model));
    expect(text).toContain('value of a read-only field the service sets');
    expect(text).toContain('Issue.number (source: service)');
    const error = await createService(model, { storage: createSqliteStorage({ path: ':memory:' }) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServiceStartError);
    expect(String((error as Error).message)).toContain('Issue.number, source: service');
  });

  it('a resource only custom handlers answer is no runtime gap: the handler gives the value (gaps still names it)', () => {
    const custom = checkedModel(SERVICE_SOURCE_SPEC.replace(/ {4}(create|read|list|replace|update)Issues?: .*\n/g, ''));
    expect(custom.endpoints!.operations.map((o) => o.id)).toEqual(['summarizeIssue']);
    expect(getRuntimeGaps(custom).filter((g) => g.part === 'resources')).toEqual([]);
    expect(formatGapReport(getGapReport(custom))).toContain('Issue.number (source: service)');
    expect(getRuntimeGaps(checkedModel(SERVICE_SOURCE_SPEC)).filter((g) => g.part === 'resources')).toHaveLength(2);
  });

  it('the export requires it in answers, read-only, never in requests; model-to-spec writes the key back', () => {
    const doc = exportOpenApi(checkedModel(SERVICE_SOURCE_SPEC)).document as {
      components: { schemas: Record<string, { required?: string[]; properties: Record<string, { readOnly?: boolean }> }> };
    };
    const issue = doc.components.schemas.Issue!;
    expect(issue.required).toEqual(expect.arrayContaining(['number', 'closed_at']));
    expect(issue.properties.number!.readOnly).toBe(true);
    expect(doc.components.schemas.IssueCreate!.properties).not.toHaveProperty('number');
    const spec = modelToSpec(checkedModel(SERVICE_SOURCE_SPEC)) as unknown as {
      resources: Record<string, { fields: Record<string, Record<string, unknown>> }>;
    };
    expect(spec.resources.Issue!.fields.number).toEqual({ type: 'integer', readOnly: true, source: 'service' });
  });

  it('the document says the service sets it by a rule not shown', () => {
    expect(renderMarkdown(checkedModel(SERVICE_SOURCE_SPEC))).toContain('the service sets it by a rule not shown');
    expect(renderConsole(checkedModel(SERVICE_SOURCE_SPEC))).toContain('the service sets it by a rule not shown');
  });

  it('check: it is a source; elsewhere it changes nothing (source-unused)', () => {
    expect(compileSpecText(SERVICE_SOURCE_SPEC).diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
    const without = compileSpecText(
      SERVICE_SOURCE_SPEC.replace('number: { type: integer, readOnly: true, source: service }', 'number: { type: integer, readOnly: true }'),
    );
    expect(without.diagnostics.map((d) => d.code)).toContain('readonly-without-source');
    for (const [field, pointer] of [
      ['{ type: integer, source: service }', '/resources/Issue/fields/number/source'],
      ['{ type: integer, readOnly: true, optional: true, source: service }', '/resources/Issue/fields/number/source'],
      ['{ type: integer, readOnly: true, default: 1, source: service }', '/resources/Issue/fields/number/source'],
      ['{ type: datetime, readOnly: true, generated: create_time, source: service }', '/resources/Issue/fields/number/source'],
      ['{ type: object, fields: { n: { type: integer, readOnly: true, source: service } } }', '/resources/Issue/fields/number/fields/n/source'],
    ]) {
      const c = compileSpecText(SERVICE_SOURCE_SPEC.replace('{ type: integer, readOnly: true, source: service }', field!));
      expect(
        c.diagnostics.filter((d) => d.code === 'source-unused').map((d) => d.pointer),
        field,
      ).toEqual([pointer]);
    }
    const id = compileSpecText(SERVICE_SOURCE_SPEC.replace('id: { type: uuid, readOnly: true }', 'id: { type: uuid, readOnly: true, source: service }'));
    expect(id.diagnostics.filter((d) => d.code === 'source-unused').map((d) => d.message)).toEqual([
      'Issue.id: `source: service` has no effect on a field that is the identifier',
    ]);
  });
});
