// Import of nested collections (docs/import.md, "Resource actions"): `/projects/{projectId}/tasks` and
// `/projects/{projectId}/tasks/{taskId}` answering a Task with a read-only `project_id` are the Task's list, create,
// read, replace, update and delete, bound by name — the same name, its snake_case or camelCase spelling
// (`{projectId}` → `project_id`), and the identifier as `{taskId}` / `{task_id}` / `{id}` — where they were custom
// operations answering not_implemented. Nothing new is said: no name is approximated. The spec served is held to
// itself by the tester; the hand-written tasks document (test/tester/fixtures/tasks.openapi.yaml) gets the same.
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument, importOpenApiFile } from '../../src/import/import-openapi.js';
import type { ServiceModel } from '../../src/model/model-types.js';
import { testService } from '../../src/tester/tester-run.js';
import { TASKS_OPENAPI } from '../tester/tasks-sweep.js';
import { startService } from '../runtime/helpers.js';

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const param = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string', format: 'uuid' } });
const notFound = { '404': { description: 'no such object' } };

/** A document of projects and their tasks, its parameters spelt `project` / `task` as given. */
function doc(project: string, task: string): unknown {
  return {
    openapi: '3.1.0',
    info: { title: 'Tasks', version: '1' },
    paths: {
      '/projects': {
        post: {
          operationId: 'createProject',
          requestBody: { required: true, ...json(ref('ProjectCreate')) },
          responses: { '201': { description: 'made', ...json(ref('Project')) } },
        },
      },
      [`/projects/{${project}}`]: {
        parameters: [param(project)],
        get: { operationId: 'getProject', responses: { '200': { description: 'ok', ...json(ref('Project')) }, ...notFound } },
      },
      [`/projects/{${project}}/tasks`]: {
        parameters: [param(project)],
        get: { operationId: 'listTasks', responses: { '200': { description: 'ok', ...json({ type: 'array', items: ref('Task') }) }, ...notFound } },
        post: {
          operationId: 'createTask',
          requestBody: { required: true, ...json(ref('TaskCreate')) },
          responses: { '201': { description: 'made', ...json(ref('Task')) }, ...notFound },
        },
      },
      [`/projects/{${project}}/tasks/{${task}}`]: {
        parameters: [param(project), param(task)],
        get: { operationId: 'getTask', responses: { '200': { description: 'ok', ...json(ref('Task')) }, ...notFound } },
        put: {
          operationId: 'replaceTask',
          requestBody: { required: true, ...json(ref('TaskCreate')) },
          responses: { '200': { description: 'ok', ...json(ref('Task')) }, ...notFound },
        },
        patch: {
          operationId: 'updateTask',
          requestBody: { required: true, ...json(ref('TaskPatch')) },
          responses: { '200': { description: 'ok', ...json(ref('Task')) }, ...notFound },
        },
        delete: { operationId: 'deleteTask', responses: { '204': { description: 'gone' }, ...notFound } },
      },
    },
    components: {
      schemas: {
        Project: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string', format: 'uuid', readOnly: true }, name: { type: 'string' } } },
        ProjectCreate: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
        Task: {
          type: 'object',
          required: ['id', 'project_id', 'title'],
          properties: {
            id: { type: 'string', format: 'uuid', readOnly: true },
            project_id: { type: 'string', format: 'uuid', readOnly: true },
            title: { type: 'string', minLength: 1, maxLength: 100 },
          },
        },
        TaskCreate: { type: 'object', required: ['title'], properties: { title: { type: 'string', minLength: 1, maxLength: 100 } } },
        TaskPatch: { type: 'object', properties: { title: { type: 'string', minLength: 1, maxLength: 100 } } },
      },
    },
  };
}

const TASK_ACTIONS = {
  listTasks: ['list', 'P=project_id'],
  createTask: ['create', 'P=project_id'],
  getTask: ['read', 'P=project_id T=id'],
  replaceTask: ['replace', 'P=project_id T=id'],
  updateTask: ['update', 'P=project_id T=id'],
  deleteTask: ['delete', 'P=project_id T=id'],
};

function actions(model: ServiceModel, project: string, task: string): Record<string, [string, string | undefined]> {
  return Object.fromEntries(
    model
      .endpoints!.operations.filter((o) => o.resource === 'Task' || o.id.endsWith('Task') || o.id.endsWith('Tasks'))
      .map((o) => [
        o.id,
        [o.action, o.bindings?.map((b) => `${b.param === project ? 'P' : b.param === task ? 'T' : b.param}=${b.field}`).join(' ')] as [
          string,
          string | undefined,
        ],
      ]),
  );
}

describe('import of nested collections', () => {
  for (const [project, task] of [
    ['projectId', 'taskId'],
    ['project_id', 'task_id'],
    ['projectId', 'id'],
    // The last parameter of an item path naming no field: the identifier, as `/pets/{petId}`'s one parameter is.
    ['projectId', 'itemId'],
  ] as const) {
    it(`binds {${project}} and {${task}} by name: the Task's resource actions, nothing new said`, async () => {
      const r = await importOpenApiDocument(doc(project, task));
      const model = r.compiled!.checked!;
      expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect(actions(model, project, task)).toEqual(TASK_ACTIONS);
      // Said of the operations: nothing (project_id, which every create's path gives, stays required).
      expect(
        r.diagnostics
          .filter((d) => (d.code === 'import-custom-operation' || d.code === 'import-approximated') && d.message.startsWith('operation '))
          .map((d) => d.message),
      ).toEqual([]);
    });
  }

  it("the bound field holding the parent's identifier is a reference to the parent: said only where a constraint is not the identifier's", async () => {
    for (const [project, task] of [
      ['projectId', 'taskId'],
      ['project_id', 'task_id'],
    ] as const) {
      const r = await importOpenApiDocument(doc(project, task));
      expect(r.document!.resources!['Task']!.fields!['project_id']).toEqual({ type: 'ref', to: 'Project', readOnly: true });
      expect(r.diagnostics.filter((d) => d.message.includes('a reference to'))).toEqual([]);
      expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    }
    // A pattern of its own is not the identifier's: the reference takes the identifier's values, and says so.
    const d = doc('projectId', 'taskId') as { components: { schemas: { Task: { properties: Record<string, unknown> } } } };
    d.components.schemas.Task.properties['project_id'] = { type: 'string', format: 'uuid', readOnly: true, pattern: '^0190' };
    const said = await importOpenApiDocument(d);
    expect(said.document!.resources!['Task']!.fields!['project_id']).toEqual({ type: 'ref', to: 'Project', readOnly: true });
    expect(said.diagnostics.filter((x) => x.message.includes('a reference to')).map((x) => [x.code, x.message])).toEqual([
      [
        'import-approximated',
        "resource Task field project_id (pattern) is imported as a reference to Project (`type: ref, to: Project`), holding Project's identifier: the path /projects/{projectId} names the Project its parameter {projectId} gives, and a reference takes the values of Project's identifier `id`",
      ],
    ]);
    // Another type than the identifier's (text where a Project's id is a uuid): no reference.
    d.components.schemas.Task.properties['project_id'] = { type: 'string', readOnly: true };
    expect((await importOpenApiDocument(d)).document!.resources!['Task']!.fields!['project_id']!.type).toBe('string');
  });

  it('a parameter naming no field keeps the operation custom, and says which', async () => {
    const r = await importOpenApiDocument(doc('projectKey', 'taskId'));
    const ops = actions(r.compiled!.model!, 'projectKey', 'taskId');
    expect(ops.getTask).toEqual(['custom', undefined]);
    expect(ops.createTask).toEqual(['custom', undefined]);
    expect(r.diagnostics.map((d) => d.message)).toContain(
      'operation `createTask` is imported as a custom operation: its path goes on after {projectKey}, which names no field of Task; a resource action binds each parameter to a field of its resource (bind)',
    );
  });

  it('serves the import: a task made under a project is found there only; the tester finds no fault', async () => {
    const model = (await importOpenApiDocument(doc('projectId', 'taskId'))).compiled!.checked!;
    const s = await startService(model);
    try {
      // project_id is a reference to Project: a task goes under a project that exists, none under one that does not.
      const p = (await s.call('POST', '/projects', { name: 'p' })).body.id as string;
      const q = '0190a0b0-0000-7000-8000-00000000000b';
      expect((await s.call('POST', `/projects/${q}/tasks`, { title: 'one' })).status).toBe(404);
      const c = await s.call('POST', `/projects/${p}/tasks`, { title: 'one' });
      expect(c.status).toBe(201);
      expect(c.body).toMatchObject({ project_id: p, title: 'one' });
      expect((await s.call('GET', `/projects/${p}/tasks/${c.body.id}`)).status).toBe(200);
      expect((await s.call('GET', `/projects/${q}/tasks/${c.body.id}`)).status).toBe(404);
      const report = await testService(model, { baseUrl: s.url, seed: 4, runs: 5 });
      expect(report.results.filter((x) => x.outcome === 'failed').map((x) => [x.check, x.target, x.failure?.actual])).toEqual([]);
    } finally {
      await s.close();
    }
  }, 120_000);

  it('tasks.openapi.yaml: its task create, read, replace and delete are resource actions bound by name', async () => {
    const r = await importOpenApiFile(TASKS_OPENAPI);
    const ops = actions(r.compiled!.checked!, 'projectId', 'taskId');
    expect(ops).toMatchObject({
      createTask: ['create', 'P=project_id'],
      getTask: ['read', 'P=project_id T=id'],
      replaceTask: ['replace', 'P=project_id T=id'],
      deleteTask: ['delete', 'P=project_id T=id'],
    });
    // Its list answers {data, has_more} paged by starting_after: Stripe's, paging style after (it was custom).
    expect(ops.listTasks).toEqual(['list', 'P=project_id']);
    // Its limit's default (10) is its own: listProjects' per_page defaults to 20 (paging.page_size, limits the maximum both say).
    expect(r.document!.endpoints!.operations!['listTasks']!.paging).toEqual({
      style: 'after',
      items: 'data',
      has_more: 'has_more',
      page_size: { default: 10 },
    });
    // A task's project_id names its project: a reference to Project, its description kept, nothing said of it.
    expect(r.document!.resources!['Task']!.fields!['project_id']).toMatchObject({
      type: 'ref',
      to: 'Project',
      readOnly: true,
      description: 'The project the task belongs to.',
    });
    expect(r.diagnostics.filter((d) => d.message.includes('a reference to'))).toEqual([]);
  });
});
