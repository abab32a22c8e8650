// `optionalInRequests` (docs/format.md): a required field that create and replace requests may leave out, every
// answer holding it, its value then not stated. A named gap: `gaps` names it, serve refuses it without
// --allow-gaps, and with the flag answers not_implemented to a request leaving it out (never a made-up value); the
// request schema does not require it (runtime, export, tester), the answer schema does.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatGapReport, getGapReport } from '../../src/check/check-gaps.js';
import { diffModels } from '../../src/diff/diff-api.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';
import { getRuntimeGaps } from '../../src/runtime/service/runtime-gaps.js';
import { createService, ServiceStartError } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';
import { startService, type Running } from './helpers.js';

const SPEC = `
servicespec: 1
resources:
  Project:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string }
      description: { type: string, nullable: true, optionalInRequests: true }
endpoints:
  operations:
    createProject: { method: POST, path: /projects, action: create, resource: Project }
    readProject: { method: GET, path: '/projects/{id}', action: read, resource: Project }
    replaceProject: { method: PUT, path: '/projects/{id}', action: replace, resource: Project }
    updateProject: { method: PATCH, path: '/projects/{id}', action: update, resource: Project }
authentication:
  default: none
${PLAIN_ERRORS}    not_implemented: { status: 501, when: [not_implemented] }
`;

let s: Running;
beforeAll(async () => {
  s = await startService(checkedModel(SPEC));
});
afterAll(() => s.close());

describe('optionalInRequests', () => {
  it('a create or replace leaving it out is answered not_implemented, naming it; sending it is served', async () => {
    const left = await s.call('POST', '/projects', { name: 'a' });
    expect(left.status).toBe(501);
    expect(left.body.detail).toContain('leaving out `description`');
    const made = await s.call('POST', '/projects', { name: 'a', description: null });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: 'a', description: null });
    const id = made.body.id as string;
    expect((await s.call('PUT', `/projects/${id}`, { name: 'b' })).status).toBe(501);
    expect((await s.call('PUT', `/projects/${id}`, { name: 'b', description: 'x' })).body).toMatchObject({ name: 'b', description: 'x' });
    // An update leaves what it does not send as it is.
    expect((await s.call('PATCH', `/projects/${id}`, { name: 'c' })).body).toMatchObject({ name: 'c', description: 'x' });
    // A body of the wrong type is still refused as invalid, before the gap.
    expect((await s.call('POST', '/projects', { name: 1 })).status).toBe(422);
  });

  it('is a named gap: gaps names it, serve refuses it without --allow-gaps', async () => {
    const model = checkedModel(SPEC);
    expect(formatGapReport(getGapReport(model))).toContain('value of a field a request leaves out');
    expect(getRuntimeGaps(model).map((g) => g.item)).toEqual(
      expect.arrayContaining([
        'value of Project.description for operation createProject when a request leaves it out (optionalInRequests): not shown',
        'value of Project.description for operation replaceProject when a request leaves it out (optionalInRequests): not shown',
      ]),
    );
    const error = await createService(model, { storage: createSqliteStorage({ path: ':memory:' }) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServiceStartError);
  });

  it('the export requires it in answers, not in create or replace bodies; the document says so', () => {
    const doc = exportOpenApi(checkedModel(SPEC)).document as { components: { schemas: Record<string, { required?: string[] }> } };
    expect(doc.components.schemas.Project!.required).toContain('description');
    expect(doc.components.schemas.ProjectCreate!.required).not.toContain('description');
    expect(renderMarkdown(checkedModel(SPEC))).toContain('creates and replaces may leave it out; its value then is not shown');
  });

  it('`create`: creates may leave it out, a replace must send it (refused as a required field, not a gap)', async () => {
    const t = await startService(checkedModel(SPEC.replace('optionalInRequests: true', 'optionalInRequests: create')));
    try {
      expect((await t.call('POST', '/projects', { name: 'a' })).status).toBe(501);
      const made = await t.call('POST', '/projects', { name: 'a', description: 'd' });
      expect(made.status).toBe(201);
      expect((await t.call('PUT', `/projects/${made.body.id as string}`, { name: 'b' })).status).toBe(422);
      const gaps = getRuntimeGaps(checkedModel(SPEC.replace('optionalInRequests: true', 'optionalInRequests: create'))).map((g) => g.item);
      expect(gaps.filter((g) => g.includes('optionalInRequests'))).toEqual([
        'value of Project.description for operation createProject when a request leaves it out (optionalInRequests): not shown',
      ]);
    } finally {
      await t.close();
    }
  });

  it('diff: creates that could leave it out and now must send it is breaking; the route declares the gap’s 501', () => {
    const create = checkedModel(SPEC.replace('optionalInRequests: true', 'optionalInRequests: create'));
    const plain = checkedModel(SPEC.replace(', optionalInRequests: true', ''));
    const changes = diffModels(create, plain).changes.filter((c) => c.subject.includes('description'));
    expect(changes.map((c) => c.impact)).toContain('breaking');
    const doc = exportOpenApi(checkedModel(SPEC)).document as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    expect(Object.keys(doc.paths['/projects']!.post!.responses)).toContain('501');
    expect(Object.keys(doc.paths['/projects/{id}']!.patch!.responses)).not.toContain('501');
  });

  it('check: beside optional, a default, readOnly or generated it changes nothing (optional-in-requests-unused)', () => {
    for (const field of [
      '{ type: string, optional: true, optionalInRequests: true }',
      '{ type: string, default: x, optionalInRequests: true }',
      '{ type: string, readOnly: true, optional: true, optionalInRequests: true }',
      '{ type: datetime, generated: create_time, optionalInRequests: true }',
      '{ type: object, fields: { street: { type: string, optionalInRequests: true } } }',
    ]) {
      const c = compileSpecText(SPEC.replace('{ type: string, nullable: true, optionalInRequests: true }', field));
      expect(
        c.diagnostics.filter((d) => d.code === 'optional-in-requests-unused').map((d) => d.pointer),
        field,
      ).toEqual([
        field.includes('street')
          ? '/resources/Project/fields/description/fields/street/optionalInRequests'
          : '/resources/Project/fields/description/optionalInRequests',
      ]);
    }
  });
});
