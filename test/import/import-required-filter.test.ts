// An OpenAPI list with a required query parameter naming a field of its resource (GET /labels?project_id=…,
// `required: true`) is imported as a required filter (required_filters), not an optional one: the served import
// refuses a list without it, as the original does; and the contract tester sends it on every list request (the value
// a Label it made holds: a Project it made) and holds a service that answers without it to a refusal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import type { CheckedModel } from '../../src/model/model-types.js';
import { testService } from '../../src/tester/tester-run.js';
import { startService, type Running } from '../runtime/helpers.js';
import { startProxy } from '../tester/mutant-proxy.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });
const idParam = (name: string) => [{ name, in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }];
const errors = { '404': { description: 'missing', content: json(ref('Error')) }, '422': { description: 'invalid', content: json(ref('Error')) } };

const doc = {
  openapi: '3.0.3',
  info: { title: 'labels', version: '1' },
  paths: {
    '/projects': {
      post: {
        operationId: 'createProject',
        requestBody: { required: true, content: json(ref('ProjectNew')) },
        responses: { '201': { description: 'made', content: json(ref('Project')) }, ...errors },
      },
    },
    '/projects/{projectId}': {
      get: {
        operationId: 'getProject',
        parameters: idParam('projectId'),
        responses: { '200': { description: 'ok', content: json(ref('Project')) }, ...errors },
      },
    },
    '/labels': {
      get: {
        operationId: 'listLabels',
        parameters: [
          { name: 'project_id', in: 'query', required: true, schema: { type: 'string', format: 'uuid' } },
          { name: 'name', in: 'query', required: false, schema: { type: 'string' } },
          { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0 } },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 50 } },
        ],
        responses: { '200': { description: 'a page', content: json({ type: 'array', items: ref('Label') }) }, ...errors },
      },
      post: {
        operationId: 'createLabel',
        requestBody: { required: true, content: json(ref('LabelNew')) },
        responses: { '201': { description: 'made', content: json(ref('Label')) }, ...errors },
      },
    },
    '/labels/{labelId}': {
      get: { operationId: 'getLabel', parameters: idParam('labelId'), responses: { '200': { description: 'ok', content: json(ref('Label')) }, ...errors } },
    },
  },
  components: {
    schemas: {
      Error: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
      ProjectNew: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1, maxLength: 20 } } },
      Project: {
        type: 'object',
        required: ['id', 'name'],
        properties: { id: { type: 'string', format: 'uuid', readOnly: true }, name: { type: 'string', minLength: 1, maxLength: 20 } },
      },
      LabelNew: {
        type: 'object',
        required: ['project_id', 'name'],
        properties: { project_id: { type: 'string', format: 'uuid' }, name: { type: 'string', minLength: 1, maxLength: 20 } },
      },
      Label: {
        type: 'object',
        required: ['id', 'project_id', 'name'],
        properties: {
          id: { type: 'string', format: 'uuid', readOnly: true },
          project_id: { type: 'string', format: 'uuid' },
          name: { type: 'string', minLength: 1, maxLength: 20 },
        },
      },
    },
  },
};

describe('a required query parameter naming a field of the listed resource', () => {
  let s: Running;
  let model: CheckedModel;
  beforeAll(async () => {
    const r = await importOpenApiDocument(doc, 'labels.json');
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    model = r.compiled!.checked!;
    s = await startService(model);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  it('is imported as a required filter; the optional one stays optional', async () => {
    const r = await importOpenApiDocument(doc, 'labels.json');
    const list = r.document!.endpoints!.operations!.listLabels!;
    expect([list.action, list.filter, list.required_filters]).toEqual(['list', ['project_id', 'name'], ['project_id']]);
    // And the servicespec export of it imports back to the same (x-servicespec-operation).
    const back = await importOpenApiDocument(exportOpenApi(model).document, 'labels.json');
    expect(back.document!.endpoints!.operations!.listLabels!.required_filters).toEqual(['project_id']);
  });

  it('served, a list without it is refused (validation); with it, answered', async () => {
    const without = await s.call('GET', '/labels');
    expect(without.status).toBe(422);
    // The declared error body (the document's Error: { message }).
    expect(without.body).toEqual({ message: 'the query is not valid' });
    const other = await s.call('GET', '/labels?name=a');
    expect(other.status).toBe(422);
    const withIt = await s.call('GET', '/labels?project_id=00000000-0000-4000-8000-000000000000');
    expect([withIt.status, withIt.body]).toEqual([200, []]);
  });

  const only = ['endpoints.valid-requests', 'endpoints.invalid-requests', 'endpoints.list-edges', 'endpoints.list-paging'];

  it('the tester passes the served import, sending project_id on every list request', async () => {
    const seen: string[] = [];
    const proxy = await startProxy(s.url, {
      observe: (req, res) =>
        void (req.method === 'GET' && req.path.startsWith('/labels') && !req.path.startsWith('/labels/') && seen.push(`${res.status} ${req.path}`)),
    });
    try {
      const report = await testService(model, { baseUrl: proxy.url, seed: 1, only });
      expect(report.results.filter((x) => x.outcome === 'failed').map((x) => [x.check, x.target, x.failure?.actual])).toEqual([]);
      const outcome = (check: string, target: string) => report.results.find((x) => x.check === check && x.target === target)?.outcome;
      expect(outcome('endpoints.valid-requests', 'listLabels')).toBe('passed');
      expect(outcome('endpoints.list-edges', 'listLabels')).toBe('passed');
      expect(outcome('endpoints.list-paging', 'listLabels')).toBe('passed');
      expect(outcome('endpoints.invalid-requests', 'listLabels: project_id missing (required filter)')).toBe('passed');
      // Every list request but the one leaving it out on purpose carries it; the pages hold the Labels the run made.
      const lacking = seen.filter((x) => !/[?&]project_id=/.test(x));
      expect(lacking).toEqual([expect.stringMatching(/^422 \/labels/)]);
      expect(seen.some((x) => x.startsWith('200 ') && x.includes('project_id='))).toBe(true);
      // Its value is a Project the run made (project_id names one: identifier-like), and the list has the Labels it made.
      const values = new Set(seen.flatMap((x) => /[?&]project_id=([^&]+)/.exec(x)?.[1] ?? []));
      const [value] = [...values].filter((v) => v !== 'not-an-id');
      expect((await s.call('GET', `/projects/${value}`)).status).toBe(200);
      expect((await s.call('GET', `/labels?project_id=${value}`)).body.length).toBeGreaterThan(1);
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it('the tester fails a service that answers a list without project_id', async () => {
    // The mutant answers a list without project_id as the page of one project (any the service holds): 200.
    const proxy = await startProxy(s.url, {
      request: (req) => {
        if (req.method !== 'GET' || !/^\/labels(\?|$)/.test(req.path) || /[?&]project_id=/.test(req.path)) return req;
        const at = req.path.indexOf('?');
        return { ...req, path: `/labels?project_id=00000000-0000-4000-8000-000000000000${at < 0 ? '' : `&${req.path.slice(at + 1)}`}` };
      },
    });
    try {
      const report = await testService(model, { baseUrl: proxy.url, seed: 1, only });
      const failed = report.results.filter((x) => x.outcome === 'failed');
      expect(failed.map((x) => [x.check, x.target])).toEqual([['endpoints.invalid-requests', 'listLabels: project_id missing (required filter)']]);
      expect(failed[0]!.failure?.actual).toMatch(/^status 200/);
    } finally {
      await proxy.close();
    }
  }, 120_000);
});
