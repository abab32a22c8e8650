// A read-only field bound by the path (`bind`, docs/format.md "Path parameters bound to fields"): a task's
// project_id under /projects/{projectId}/tasks. check accepts it on every action; a create sets it from the path
// (the body may not carry it: a read-only field), a list, read, replace, update and delete find tasks by it; the
// OpenAPI export and the typed client leave it out of the create's body; the tester sends no body holding it.
// Served on the test database (SQLite, or PostgreSQL with SERVICESPEC_TEST_DB=postgres), fast paths on and off.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateClient } from '../../src/export/export-client.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { testService } from '../../src/tester/tester-run.js';
import { loadModel, startService, type Running } from './helpers.js';

const SPEC = new URL('../fixtures/bound-read-only.yaml', import.meta.url).pathname;
const TEXT = readFileSync(SPEC, 'utf8');
const A = '0190a0b0-0000-7000-8000-00000000000a';
const B = '0190a0b0-0000-7000-8000-00000000000b';

describe('a read-only field bound by the path (check)', () => {
  it('is accepted on create, list, read, replace, update and delete', () => {
    const c = compileSpecText(TEXT);
    expect(c.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.message}`)).toEqual([]);
  });

  it('a field the server makes stays refused on a create: the identifier, a generated time', () => {
    const withOp = (op: string, field = '') =>
      compileSpecText(
        TEXT.replace('      priority:', `${field}      priority:`).replace('  operations:\n', `  operations:\n    x: ${op}\n`),
      ).diagnostics.filter((d) => d.severity === 'error');
    const id = withOp("{ method: POST, path: '/x/{taskId}', action: create, resource: Task, bind: { taskId: id } }");
    expect(id.map((d) => d.code)).toContain('path-binding-field-invalid');
    expect(id.find((d) => d.code === 'path-binding-field-invalid')?.message).toContain('which a create cannot write');
    const made = withOp(
      "{ method: POST, path: '/x/{at}', action: create, resource: Task, bind: { at: made_at } }",
      '      made_at: { type: date, readOnly: true, generated: create_time }\n',
    );
    expect(made.map((d) => d.code)).toContain('path-binding-field-invalid');
  });
});

for (const fastPaths of [true, false]) {
  describe(`a read-only field bound by the path (runtime, fast paths ${fastPaths ? 'on' : 'off'})`, () => {
    let s: Running;
    beforeAll(async () => {
      s = await startService(loadModel(SPEC), { fastPaths });
    });
    afterAll(async () => s?.close());

    it('a create sets it from the path; a body carrying it is refused as a read-only field', async () => {
      const c = await s.call('POST', `/projects/${A}/tasks`, { title: 'one' });
      expect(c.status).toBe(201);
      expect(c.body).toMatchObject({ project_id: A, title: 'one', priority: 3 });
      expect(c.headers.get('location')).toBe(`/projects/${A}/tasks/${c.body.id}`);
      const read = await s.call('GET', `/projects/${A}/tasks/${c.body.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ id: c.body.id, project_id: A });
      for (const projectId of [A, B]) {
        const sent = await s.call('POST', `/projects/${A}/tasks`, { title: 'two', project_id: projectId });
        expect(sent.status, projectId).toBe(400);
        expect(JSON.stringify(sent.body)).toContain('project_id');
      }
      expect((await s.call('POST', `/projects/not-a-uuid/tasks`, { title: 'x' })).status).toBe(400);
    });

    it('list, read, replace, update and delete find a task only under its own project', async () => {
      const t = (await s.call('POST', `/projects/${B}/tasks`, { title: 'b' })).body as { id: string };
      expect((await s.call('GET', `/projects/${B}/tasks`)).body.items.map((x: { id: string }) => x.id)).toEqual([t.id]);
      expect((await s.call('GET', `/projects/${A}/tasks`)).body.items.map((x: { id: string }) => x.id)).not.toContain(t.id);
      expect((await s.call('GET', `/projects/${A}/tasks/${t.id}`)).status).toBe(404);
      const put = await s.call('PUT', `/projects/${B}/tasks/${t.id}`, { title: 'b2', priority: 1 });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ id: t.id, project_id: B, title: 'b2', priority: 1 });
      expect((await s.call('PUT', `/projects/${B}/tasks/${t.id}`, { title: 'b3', priority: 1, project_id: B })).status).toBe(400);
      expect((await s.call('PUT', `/projects/${A}/tasks/${t.id}`, { title: 'stolen', priority: 1 })).status).toBe(404);
      const patch = await s.call('PATCH', `/projects/${B}/tasks/${t.id}`, { title: 'b4' });
      expect(patch.body).toMatchObject({ project_id: B, title: 'b4' });
      expect((await s.call('PATCH', `/projects/${A}/tasks/${t.id}`, { title: 'stolen' })).status).toBe(404);
      expect((await s.call('DELETE', `/projects/${A}/tasks/${t.id}`)).status).toBe(404);
      expect((await s.call('DELETE', `/projects/${B}/tasks/${t.id}`)).status).toBe(204);
      expect((await s.call('GET', `/projects/${B}/tasks/${t.id}`)).status).toBe(404);
    });
  });
}

describe('a read-only field bound by the path (export, client, tester)', () => {
  it('the OpenAPI create body does not list it; the path parameter is documented by the field', () => {
    const doc = exportOpenApi(loadModel(SPEC)).document as unknown as {
      paths: Record<
        string,
        Record<
          string,
          { requestBody?: { content: Record<string, { schema: { $ref?: string } }> }; parameters?: { name: string; schema: { format?: string } }[] }
        >
      >;
      components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
    };
    const post = doc.paths['/projects/{projectId}/tasks']!['post']!;
    const ref = post.requestBody!.content['application/json']!.schema.$ref!;
    const body = doc.components.schemas[ref.split('/').at(-1)!]!;
    expect(Object.keys(body.properties ?? {})).not.toContain('project_id');
    expect(body.required ?? []).not.toContain('project_id');
    expect(post.parameters?.find((p) => p.name === 'projectId')?.schema.format).toBe('uuid');
  });

  it('the typed client’s create input has no project_id', () => {
    const code = generateClient(loadModel(SPEC)).code;
    const input = /export interface TaskCreate \{[^}]*\}/.exec(code)?.[0] ?? '';
    expect(input).toContain('title');
    expect(input).not.toContain('project_id');
  });

  it('the tester: every check passes, every operation reached with a success answer', async () => {
    const s = await startService(loadModel(SPEC));
    try {
      const report = await testService(loadModel(SPEC), { baseUrl: s.url, seed: 3, runs: 5 });
      expect(report.results.filter((r) => r.outcome === 'failed').map((r) => [r.check, r.target, r.failure?.expected, r.failure?.actual])).toEqual([]);
      const valid = report.results.filter((r) => r.check === 'endpoints.valid-requests');
      expect(valid.filter((r) => r.outcome !== 'passed').map((r) => [r.target, r.outcome, r.reason])).toEqual([]);
    } finally {
      await s.close();
    }
  }, 120_000);
});
