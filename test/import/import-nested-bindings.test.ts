// Import of path parameters naming nested fields (docs/import.md, "Resource actions"): Kubernetes' {namespace} and
// {name} are a Lease's metadata.namespace and metadata.name, a key unique together, so its create, read, replace and
// patch are resource actions, served; and a spec using nested bindings and unique_keys round-trips through OpenAPI.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { importOpenApiDocument, importOpenApiFile } from '../../src/import/import-openapi.js';
import type { ServiceModel } from '../../src/model/model-types.js';
import { OPENAPI_FIXTURES } from '../export/helpers.js';
import { loadModel, startService, type Running } from '../runtime/helpers.js';

const LEASE = 'io.k8s.api.coordination.v1.Lease';
const BASE = '/apis/coordination.k8s.io/v1';

describe('import of kubernetes-coordination-v1', () => {
  let model: ServiceModel;
  let messages: { code: string; message: string }[];
  let s: Running;
  beforeAll(async () => {
    const r = await importOpenApiFile(join(OPENAPI_FIXTURES, 'kubernetes-coordination-v1.json'));
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    model = r.compiled!.model!;
    messages = r.diagnostics.map((d) => ({ code: d.code, message: d.message }));
    s = await startService(model);
  }, 60_000);
  afterAll(async () => s?.close());

  it("binds {namespace} and {name} to the Lease's metadata, a key unique together, said", () => {
    const ops = Object.fromEntries(
      model
        .endpoints!.operations.filter((o) => o.action !== 'custom')
        .map((o) => [o.id, [o.action, o.bindings?.map((b) => `${b.param}=${b.field}`).join(' ')]]),
    );
    expect(ops).toEqual({
      createCoordinationV1NamespacedLease: ['create', 'namespace=metadata.namespace'],
      readCoordinationV1NamespacedLease: ['read', 'namespace=metadata.namespace name=metadata.name'],
      patchCoordinationV1NamespacedLease: ['update', 'namespace=metadata.namespace name=metadata.name'],
      replaceCoordinationV1NamespacedLease: ['replace', 'namespace=metadata.namespace name=metadata.name'],
      // The LeaseList lists (paging.params: cursor `continue`), the namespaced one scoped by its {namespace}.
      listCoordinationV1NamespacedLease: ['list', 'namespace=metadata.namespace'],
      listCoordinationV1LeaseForAllNamespaces: ['list', undefined],
    });
    expect(model.resources.find((r) => r.name === LEASE)!.uniqueKeys).toEqual([['metadata.namespace', 'metadata.name']]);
    expect(messages.filter((m) => m.code === 'import-approximated' && m.message.includes('unique together'))).toEqual([
      {
        code: 'import-approximated',
        message: expect.stringContaining(
          `resource ${LEASE} is imported as a resource whose \`metadata.namespace\`, \`metadata.name\` are unique together`,
        ) as unknown as string,
      },
    ]);
  });

  it('serves them: a Lease made in a namespace is read and replaced there; the same name twice is a conflict', async () => {
    const c = await s.call('POST', `${BASE}/namespaces/kube-system/leases`, { metadata: { name: 'scheduler' }, spec: { holderIdentity: 'a' } });
    // The document's first success status (200) is the create's.
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ metadata: { name: 'scheduler', namespace: 'kube-system' }, spec: { holderIdentity: 'a' } });
    // The document's create declares no Location header: imported with `location: false`, none is sent.
    expect(c.headers.get('location')).toBeNull();
    expect((await s.call('POST', `${BASE}/namespaces/kube-system/leases`, { metadata: { name: 'scheduler' } })).status).toBe(409);
    const r = await s.call('GET', `${BASE}/namespaces/kube-system/leases/scheduler`);
    expect(r.status).toBe(200);
    expect((await s.call('GET', `${BASE}/namespaces/default/leases/scheduler`)).status).toBe(404);
    const put = await s.call('PUT', `${BASE}/namespaces/kube-system/leases/scheduler`, {
      metadata: { name: 'scheduler', namespace: 'kube-system' },
      spec: { holderIdentity: 'b' },
    });
    expect(put.status).toBe(200);
    expect(put.body.spec).toEqual({ holderIdentity: 'b' });
  });
});

it('a spec with nested bindings and unique_keys comes back the same through export openapi and import', async () => {
  const original = loadModel(new URL('../fixtures/nested-bindings.yaml', import.meta.url).pathname);
  const doc = exportOpenApi(original).document as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
  // A key unique together makes a create answer unique_conflict (409), as a unique field does.
  expect(Object.keys(doc.paths['/namespaces/{namespace}/leases']!.post!.responses)).toContain('409');
  const r = await importOpenApiDocument(doc, 'nested.json');
  const back = r.compiled!.model!;
  expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  expect(back.resources.find((x) => x.name === 'Lease')!.uniqueKeys).toEqual([['metadata.namespace', 'metadata.name']]);
  const binds = (m: ServiceModel) => m.endpoints!.operations.map((o) => [o.id, o.action, o.bindings?.map((b) => `${b.param}=${b.field}`).join(' ')]);
  expect(binds(back)).toEqual(binds(original));
});

describe("a list's or create's path parameter named {id} under a parent's segment", () => {
  // `/notes/{id}/tags` names the note the tags are under, not a tag: bound to the Tag's own `id`, the list filtered
  // tags by their own identifier and the tester sent `/notes//tags` (a CMS sweep). The segment before it names the
  // parent: `note_id`, or `noteId`.
  const doc = (parentField: string) => ({
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: {
      '/notes/{id}/tags': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        get: {
          operationId: 'listTags',
          responses: {
            '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Tag' } } } } },
          },
        },
        post: {
          operationId: 'createTag',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } },
          },
          responses: { '201': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Tag' } } } } },
        },
      },
    },
    components: {
      schemas: {
        Tag: {
          type: 'object',
          required: ['id', parentField, 'name'],
          properties: { id: { type: 'integer', readOnly: true }, [parentField]: { type: 'integer', readOnly: true }, name: { type: 'string' } },
        },
      },
    },
  });
  it.each(['note_id', 'noteId'])('binds {id} to the parent field %s', async (parentField) => {
    const r = await importOpenApiDocument(doc(parentField), 'notes.json');
    const ops = r.compiled!.model!.endpoints!.operations;
    expect(ops.map((o) => [o.id, o.action, o.bindings?.map((b) => `${b.param}=${b.field}`).join(' ')])).toEqual([
      ['listTags', 'list', `id=${parentField}`],
      ['createTag', 'create', `id=${parentField}`],
    ]);
  });
});
