// A field a path parameter is bound to (`bind`) in the request bodies the exports document: a create or replace
// whose path gives it takes the path's value when the body leaves it out (docs/format.md "Path parameters bound to
// fields"), so the OpenAPI request schema (3.1 and 3.0) and the typed client must not require it, where before they
// required every field the resource's create or replace view requires. Each body below is judged by the exported
// schema (Ajv) and by the served runtime: both give the same answer.
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateClient } from '../../src/export/export-client.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { serializeDocument } from '../../src/export/export-shared.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import type { ServiceModel } from '../../src/model/model-types.js';
import { compileSpecText } from '../../src/program.js';
import { startService, type Running } from '../runtime/helpers.js';
import { redoclyLint, tempDir } from './helpers.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type JsonObject = Record<string, unknown>;
type Doc = { paths: Record<string, Record<string, JsonObject>>; components: { schemas: Record<string, JsonObject> } };

const BOUND = readFileSync(new URL('../fixtures/bound-body.yaml', import.meta.url), 'utf8');
const PATHS = readFileSync(new URL('../fixtures/path-bindings.yaml', import.meta.url), 'utf8');

// A required object holding required nested fields: a create binding one of them leaves the other to the body (so
// the object stays required, holding only the other); a replace binding both lets the body leave the object out.
const NESTED = `
servicespec: 1
resources:
  Lease:
    unique_keys:
      - [metadata.namespace, metadata.name]
    fields:
      metadata:
        type: object
        fields:
          name: { type: string, pattern: '^[a-z0-9-]+$' }
          namespace: { type: string, pattern: '^[a-z0-9-]+$' }
      holder: { type: string }
endpoints:
  operations:
    createLease: { method: POST, path: '/namespaces/{namespace}/leases', action: create, resource: Lease, bind: { namespace: metadata.namespace } }
    readLease: { method: GET, path: '/namespaces/{namespace}/leases/{name}', action: read, resource: Lease, bind: { namespace: metadata.namespace, name: metadata.name } }
    replaceLease: { method: PUT, path: '/namespaces/{namespace}/leases/{name}', action: replace, resource: Lease, bind: { namespace: metadata.namespace, name: metadata.name } }
authentication:
  default: none
errors:
  codes:
    not_found: { status: 404, when: [missing_resource, route_not_found] }
    invalid: { status: 400, when: [validation, malformed_request, unsupported_media_type, headers_too_large, body_too_large] }
    conflict: { status: 409, when: [unique_conflict, in_use, illegal_transition] }
    not_allowed: { status: 405, when: [method_not_allowed] }
    failed: { status: 500, when: [internal] }
`;

function model(text: string): ServiceModel {
  const c = compileSpecText(text);
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return c.model!;
}

function deref(doc: Doc, s: JsonObject): JsonObject {
  const r = s.$ref;
  return typeof r === 'string' ? doc.components.schemas[r.slice('#/components/schemas/'.length)]! : s;
}

function requestSchema(doc: Doc, path: string, method: string): JsonObject {
  const body = doc.paths[path]![method]!.requestBody as { content: Record<string, { schema: JsonObject }> };
  return deref(doc, body.content['application/json']!.schema);
}

/** A validator of the request body the 3.1 export documents for an operation. */
function requestValidator(doc: Doc, path: string, method: string) {
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  ajv.addSchema({ $id: 'https://export.test/doc.json', ...doc });
  const body = doc.paths[path]![method]!.requestBody as { content: Record<string, { schema: JsonObject }> };
  return ajv.compile({
    $id: 'https://export.test/req.json',
    $ref: `https://export.test/doc.json#/components/schemas/${String(body.content['application/json']!.schema.$ref).split('/').pop()}`,
  });
}

describe('a bound field in the exported request bodies', () => {
  for (const version of ['3.1', '3.0'] as const) {
    it(`OpenAPI ${version}: a create or replace whose path gives a required field does not require it; other operations still do`, () => {
      const doc = exportOpenApi(model(PATHS), { openapi: version }).document as Doc;
      // createRepo and replaceRepo bind owner (required in Repo's create and replace views).
      expect(requestSchema(doc, '/users/{username}/repos', 'post').required).toEqual(['slug']);
      expect(requestSchema(doc, '/users/{username}/repos/{id}', 'put').required).toEqual(['slug']);
      expect(Object.keys(requestSchema(doc, '/users/{username}/repos', 'post').properties as JsonObject)).toContain('owner');
      // createUser binds nothing: its view requires username.
      expect(requestSchema(doc, '/users', 'post').required).toEqual(['username']);
      const b = exportOpenApi(model(BOUND), { openapi: version }).document as Doc;
      // replaceTag binds name, the only required field of Tag's replace view; createTag binds nothing.
      expect(requestSchema(b, '/tags/{name}', 'put').required).toBeUndefined();
      expect(requestSchema(b, '/tags', 'post').required).toEqual(['name']);
    });

    it(`OpenAPI ${version}: a nested bound field is not required, nor the object on its way once nothing in it is`, () => {
      const doc = exportOpenApi(model(NESTED), { openapi: version }).document as Doc;
      const create = requestSchema(doc, '/namespaces/{namespace}/leases', 'post');
      expect(create.required).toEqual(['metadata', 'holder']);
      expect((create.properties as Record<string, JsonObject>).metadata!.required).toEqual(['name']);
      const replace = requestSchema(doc, '/namespaces/{namespace}/leases/{name}', 'put');
      expect(replace.required).toEqual(['holder']);
      expect((replace.properties as Record<string, JsonObject>).metadata!.required).toBeUndefined();
    });
  }

  it('the exports validate (swagger-parser) and lint without errors (Redocly), in 3.1 and 3.0', async () => {
    const tmp = tempDir();
    try {
      for (const [name, text] of [
        ['bound', BOUND],
        ['nested', NESTED],
      ] as const)
        for (const version of ['3.1', '3.0'] as const) {
          const file = join(tmp.path, `${name}-${version}.yaml`);
          writeFileSync(file, serializeDocument(exportOpenApi(model(text), { openapi: version }).document, 'yaml'));
          await expect(SwaggerParser.validate(file)).resolves.toBeDefined();
          const lint = await redoclyLint(file);
          expect(lint.errors.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`)).toEqual([]);
        }
    } finally {
      tmp.remove();
    }
  }, 120_000);

  it('the typed client takes a body without the bound field', () => {
    const code = generateClient(model(PATHS)).code;
    expect(code).toContain('createRepo(username: string, body: RepoCreateBound, options: RequestOptions = {}): Promise<Repo>');
    expect(code).toContain('replaceRepo(username: string, id: number, body: RepoReplaceBound, options: RequestOptions = {}): Promise<Repo>');
    expect(code).toMatch(/export interface RepoCreateBound \{\n(?:.*\n)*?\s+owner\?: string;\n\s+slug: string;/);
    expect(code).toContain('createUser(body: UserCreate,');
  });

  it('export → import gives the same resources and operations back (the bound request schemas are the resource views)', async () => {
    const m = model(NESTED);
    const imported = await importOpenApiDocument(JSON.parse(serializeDocument(exportOpenApi(m).document, 'json')) as unknown, 'x.json');
    const back = imported.compiled!.model!;
    expect(back.resources.map((r) => r.name)).toEqual(m.resources.map((r) => r.name));
    expect(back.endpoints!.operations.map((o) => [o.id, o.request])).toEqual(m.endpoints!.operations.map((o) => [o.id, undefined]));
    expect(imported.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
});

describe('the served runtime accepts exactly the bodies the exported request schema does', () => {
  let s: Running;
  let doc: Doc;
  beforeAll(async () => {
    const m = model(NESTED);
    doc = exportOpenApi(m).document as Doc;
    s = await startService(m);
  });
  afterAll(() => s?.close());

  it('create and replace, with and without the bound fields and the objects on their way', async () => {
    const create = requestValidator(doc, '/namespaces/{namespace}/leases', 'post');
    const replace = requestValidator(doc, '/namespaces/{namespace}/leases/{name}', 'put');
    const cases: [typeof create, string, string, JsonObject, number][] = [
      [create, 'POST', '/namespaces/core/leases', { metadata: { name: 'a' }, holder: 'x' }, 201],
      [create, 'POST', '/namespaces/core/leases', { metadata: { name: 'b', namespace: 'core' }, holder: 'x' }, 201],
      [create, 'POST', '/namespaces/core/leases', { holder: 'x' }, 400],
      [create, 'POST', '/namespaces/core/leases', { metadata: {}, holder: 'x' }, 400],
      [replace, 'PUT', '/namespaces/core/leases/a', { holder: 'y' }, 200],
      [replace, 'PUT', '/namespaces/core/leases/a', { metadata: {}, holder: 'z' }, 200],
      [replace, 'PUT', '/namespaces/core/leases/a', { metadata: { name: 'a' }, holder: 'z' }, 200],
      [replace, 'PUT', '/namespaces/core/leases/a', {}, 400],
    ];
    for (const [validate, method, path, body, status] of cases) {
      const r = await s.call(method, path, body);
      expect([method, path, body, r.status], JSON.stringify(r.body)).toEqual([method, path, body, status]);
      expect([method, body, validate(body)], JSON.stringify(validate.errors)).toEqual([method, body, status < 300]);
    }
    expect((await s.call('GET', '/namespaces/core/leases/a')).body).toEqual({ metadata: { name: 'a', namespace: 'core' }, holder: 'z' });
  });
});
