// Import of paths whose parameters name fields of the resource by the same name: resource actions with `bind`
// (docs/import.md, "Resource actions"), served and held to the spec by the tester; a parameter naming no field
// keeps the operation custom, and the diagnostic says which.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOpenApiFile } from '../../src/import/import-openapi.js';
import type { ServiceModel } from '../../src/model/model-types.js';
import { testService } from '../../src/tester/tester-run.js';
import { startService, type Running } from '../runtime/helpers.js';

const DOC = new URL('../fixtures/path-bindings-openapi.yaml', import.meta.url).pathname;

describe('import of paths binding fields', () => {
  let model: ServiceModel;
  let diagnostics: { code: string; message: string }[];
  let s: Running;
  beforeAll(async () => {
    const r = await importOpenApiFile(DOC);
    model = r.compiled!.model!;
    diagnostics = r.diagnostics.map((d) => ({ code: d.code, message: d.message }));
    s = await startService(model);
  }, 60_000);
  afterAll(async () => s?.close());

  it('makes each operation whose path parameters are fields of its resource a resource action with bind', () => {
    const ops = Object.fromEntries(model.endpoints!.operations.map((o) => [o.id, [o.action, o.bindings?.map((b) => `${b.param}=${b.field}`).join(' ')]]));
    expect(ops).toEqual({
      listRepos: ['list', 'owner=owner'],
      createRepo: ['create', 'owner=owner'],
      getRepo: ['read', 'owner=owner id=id'],
      updateRepo: ['update', 'owner=owner id=id'],
      deleteRepo: ['delete', 'owner=owner id=id'],
      getStar: ['custom', undefined],
    });
    expect(diagnostics.filter((d) => d.code === 'import-custom-operation').map((d) => d.message)).toEqual([
      "operation `getStar` is imported as a custom operation: its path binds {login}, {id}; a resource action binds each to its resource's field of the same name (bind), and {login} names no field of Repo",
    ]);
  });

  it('serves them: a create under an owner is read, listed and deleted there', async () => {
    const c = await s.call('POST', '/owners/ada/repos', { owner: 'ada', slug: 'engine' });
    expect(c.status).toBe(201);
    expect((await s.call('GET', `/owners/ada/repos/${c.body.id}`)).body).toMatchObject({ owner: 'ada', slug: 'engine' });
    expect((await s.call('GET', `/owners/bob/repos/${c.body.id}`)).status).toBe(404);
    expect((await s.call('GET', '/owners/ada/repos')).body.map((r: { slug: string }) => r.slug)).toEqual(['engine']);
    expect((await s.call('GET', '/owners/bob/repos')).body).toEqual([]);
    expect((await s.call('DELETE', `/owners/ada/repos/${c.body.id}`)).status).toBe(204);
  });

  it('the tester reaches every resource action with a success answer and finds no fault', async () => {
    const report = await testService(model, { baseUrl: s.url, seed: 3, runs: 3 });
    expect(report.results.filter((r) => r.outcome === 'failed').map((r) => [r.check, r.target, r.failure?.expected, r.failure?.actual])).toEqual([]);
    const valid = report.results.filter((r) => r.check === 'endpoints.valid-requests' && r.target !== 'getStar');
    expect(valid.map((r) => [r.target, r.outcome]).sort()).toEqual(
      [
        'createRepo',
        'createRepo: a member its request does not name (unknown_fields: ignore)',
        'deleteRepo',
        'getRepo',
        'listRepos',
        'updateRepo',
        'updateRepo: a member its request does not name (unknown_fields: ignore)',
      ].map((t) => [t, 'passed']),
    );
  }, 120_000);
});

describe('a path parameter named after its resource and a field', () => {
  it('{issueNumber} of an Issue binds its number: the read, update and delete are resource actions', async () => {
    const { importOpenApiDocument } = await import('../../src/import/import-openapi.js');
    const issue = { type: 'object', required: ['number', 'title'], properties: { number: { type: 'integer', readOnly: true }, title: { type: 'string' } } };
    const ok = { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Issue' } } } } };
    const param = [{ name: 'issueNumber', in: 'path', required: true, schema: { type: 'integer' } }];
    const r = await importOpenApiDocument(
      {
        openapi: '3.1.0',
        info: { title: 'Issues', version: '1' },
        paths: {
          '/issues': {
            post: {
              operationId: 'createIssue',
              requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Issue' } } } },
              responses: { '201': ok['200'] },
            },
          },
          '/issues/{issueNumber}': {
            get: { operationId: 'getIssue', parameters: param, responses: ok },
            patch: {
              operationId: 'updateIssue',
              parameters: param,
              requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Issue' } } } },
              responses: ok,
            },
            delete: { operationId: 'deleteIssue', parameters: param, responses: { '204': { description: 'gone' } } },
          },
        },
        components: { schemas: { Issue: issue } },
      },
      'issues.json',
    );
    const ops = r.document!.endpoints!.operations!;
    for (const id of ['getIssue', 'updateIssue', 'deleteIssue'])
      expect([id, ops[id]!.action, ops[id]!.bind]).toEqual([id, expect.not.stringMatching(/^custom$/), { issueNumber: 'number' }]);
  });
});

describe('a path parameter whose name the format cannot hold', () => {
  it('{thing-id} is renamed {thing_id} (import-renamed at the path), not a failed import; the URL served is the same', async () => {
    const { importOpenApiDocument } = await import('../../src/import/import-openapi.js');
    const thing = { type: 'object', required: ['id'], properties: { id: { type: 'string' }, name: { type: 'string' } } };
    const r = await importOpenApiDocument(
      {
        openapi: '3.0.3',
        info: { title: 'Things', version: '1' },
        paths: {
          '/things/{thing-id}': {
            parameters: [{ name: 'thing-id', in: 'path', required: true, schema: { type: 'string' } }],
            get: {
              operationId: 'getThing',
              responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } },
            },
          },
        },
        components: { schemas: { Thing: thing } },
      },
      'things.json',
    );
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.document!.endpoints!.operations!.getThing!.path).toBe('/things/{thing_id}');
    expect(r.diagnostics.filter((d) => d.code === 'import-renamed').map((d) => [d.pointer, d.message])).toEqual([
      [
        '/paths/~1things~1{thing-id}',
        'path parameter `thing-id` is named `thing_id` in the spec: a path parameter is a plain name (letters, digits and underscores); the URL is the same',
      ],
    ]);
    const s = await startService(r.compiled!.model!);
    try {
      expect((await s.call('GET', '/things/abc')).status).toBe(404);
    } finally {
      await s.close();
    }
  });
});

describe('a document of its own with x-servicespec-resource on one schema', () => {
  it('still has its other schemas read as resources (only a servicespec export names them all)', async () => {
    const { importOpenApiDocument } = await import('../../src/import/import-openapi.js');
    const obj = (props: Record<string, unknown>) => ({ type: 'object', required: ['id'], properties: { id: { type: 'string', readOnly: true }, ...props } });
    const ok = (ref: string) => ({ '200': { description: 'ok', content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } } } });
    const param = [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }];
    const r = await importOpenApiDocument(
      {
        openapi: '3.0.3',
        info: { title: 'Library', version: '1' },
        paths: {
          '/books/{id}': { get: { operationId: 'getBook', parameters: param, responses: ok('Book') } },
          '/holds/{id}': { get: { operationId: 'getHold', parameters: param, responses: ok('Hold') } },
        },
        components: {
          schemas: {
            Book: obj({ title: { type: 'string' } }),
            Hold: { ...obj({ branch: { type: 'string' } }), 'x-servicespec-resource': { plural: 'holds' } },
          },
        },
      },
      'library.json',
    );
    expect(Object.keys(r.document!.resources!)).toEqual(['Book', 'Hold']);
    expect(r.document!.resources!.Hold!.plural).toBe('holds');
    expect([r.document!.endpoints!.operations!.getBook!.action, r.document!.endpoints!.operations!.getHold!.action]).toEqual(['read', 'read']);
  });
});
