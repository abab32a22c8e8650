// Query parameters and headers of custom operations (operation.query, operation.headers) in the exports: OpenAPI
// documents them (validated by swagger-parser), the spec written back keeps them, and the generated client takes
// them typed (compiled under tsc --strict) and sends them to the real runtime, whose handler receives them typed.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateClient } from '../../src/export/export-client.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { serializeDocument, type JsonObject } from '../../src/export/export-shared.js';
import { modelToSpec } from '../../src/export/model-to-spec.js';
import type { CheckedModel } from '../../src/model/model-types.js';
import { compileSpecText } from '../../src/program.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { buildDriver, tempDir } from './helpers.js';

const SPEC = `
servicespec: 1
endpoints:
  operations:
    listPods:
      method: GET
      path: /namespaces/{namespace}/pods
      action: custom
      handler: listPods
      request: { fields: { namespace: { type: string } } }
      response: { fields: { seen: { type: json } } }
      query:
        labelSelector: { type: string, optional: true, description: Only pods whose labels match. }
        limit: { type: integer, minimum: 1 }
        watch: { type: boolean, optional: true, default: false, deprecated: true }
        tag: { type: array, items: { type: enum, values: [a, b, c] }, optional: true }
        page[size]: { type: integer, optional: true, example: 10 }
      headers:
        X-Trace-Id: { type: uuid, optional: true }
authentication:
  default: none
errors:
  body: problem
  codes:
    invalid: { status: 422, when: [validation] }
    other: { status: 400, when: [malformed_request, route_not_found, method_not_allowed, headers_too_large, internal] }
`;

function model(): CheckedModel {
  const c = compileSpecText(SPEC, 'params.yaml');
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return c.checked!;
}

const tmp = tempDir('servicespec-params-');
afterAll(() => tmp.remove());

describe('OpenAPI export of declared parameters', () => {
  for (const version of ['3.1', '3.0'] as const) {
    it(`documents each query parameter and header with its schema, required-ness and flags (${version})`, async () => {
      const doc = exportOpenApi(model(), { openapi: version }).document as { paths: Record<string, Record<string, JsonObject>> };
      const params = doc.paths['/namespaces/{namespace}/pods']!.get!.parameters as JsonObject[];
      const byName = Object.fromEntries(params.map((p) => [`${String(p.in)} ${String(p.name)}`, p]));
      expect(Object.keys(byName).sort()).toEqual([
        'header X-Trace-Id',
        'path namespace',
        'query labelSelector',
        'query limit',
        'query page[size]',
        'query tag',
        'query watch',
      ]);
      expect(byName['query limit']).toEqual({ name: 'limit', in: 'query', required: true, schema: { type: 'integer', minimum: 1 } });
      expect(byName['query watch']).toEqual({ name: 'watch', in: 'query', required: false, deprecated: true, schema: { type: 'boolean', default: false } });
      expect(byName['query labelSelector']).toMatchObject({ required: false, description: 'Only pods whose labels match.', schema: { type: 'string' } });
      expect(byName['query tag']).toMatchObject({ schema: { type: 'array', items: { enum: ['a', 'b', 'c'] } } });
      expect(byName['query page[size]']).toMatchObject({ example: 10 });
      expect(byName['header X-Trace-Id']).toEqual({ name: 'X-Trace-Id', in: 'header', required: false, schema: { type: 'string', format: 'uuid' } });
      const file = join(tmp.path, `params-${version}.yaml`);
      writeFileSync(file, serializeDocument(doc as JsonObject, 'yaml'));
      await expect(SwaggerParser.validate(file)).resolves.toBeDefined();
    });
  }

  it('the spec written back from the model keeps them as written', () => {
    const back = modelToSpec(model());
    const op = back.endpoints!.operations!.listPods!;
    expect(op.query).toEqual({
      labelSelector: { type: 'string', optional: true, description: 'Only pods whose labels match.' },
      limit: { type: 'integer', minimum: 1 },
      watch: { type: 'boolean', optional: true, default: false, deprecated: true },
      tag: { type: 'array', items: { type: 'enum', values: ['a', 'b', 'c'] }, optional: true },
      'page[size]': { type: 'integer', optional: true, example: 10 },
    });
    expect(op.headers).toEqual({ 'X-Trace-Id': { type: 'uuid', optional: true } });
  });
});

const DRIVER = `
import { ServiceClient, type ListPodsQuery } from './client.js';

export async function drive(baseUrl: string): Promise<unknown> {
  const client = new ServiceClient({ baseUrl });
  const query: ListPodsQuery = { limit: 5, tag: ['a', 'c'], 'page[size]': 2, labelSelector: 'app=web' };
  // @ts-expect-error limit is required
  const missing: ListPodsQuery = { watch: true };
  // @ts-expect-error limit is an integer, not text
  const wrong: ListPodsQuery = { limit: 'five' };
  void missing;
  void wrong;
  return client.listPods('default', query, { 'X-Trace-Id': '0190a7e4-5b0c-7000-8000-000000000001' });
}
`;

describe('the generated client with declared parameters', () => {
  let app: FastifyInstance;
  let url: string;
  beforeAll(async () => {
    app = await createService(model(), {
      storage: createSqliteStorage({ path: join(tmp.path, 'params.db') }),
      allowGaps: true,
      handlers: { listPods: (ctx) => ({ seen: { params: ctx.params, query: ctx.query, headers: ctx.headers } }) },
    });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  }, 60_000);
  afterAll(() => app?.close());

  it('types them (tsc --strict) and sends them so the handler receives them typed', async () => {
    writeFileSync(join(tmp.path, 'client.ts'), generateClient(model()).code);
    writeFileSync(join(tmp.path, 'driver.ts'), DRIVER);
    const { output, driver } = await buildDriver<{ drive: (url: string) => Promise<{ seen: unknown }> }>(tmp.path, ['client.ts', 'driver.ts']);
    expect(output).toBe('');
    const answer = await driver.drive(url);
    expect(answer.seen).toEqual({
      params: { namespace: 'default' },
      query: { limit: 5, tag: ['a', 'c'], 'page[size]': 2, labelSelector: 'app=web', watch: false },
      headers: { 'X-Trace-Id': '0190a7e4-5b0c-7000-8000-000000000001' },
    });
  }, 120_000);
});
