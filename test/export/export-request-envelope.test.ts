// request_envelope in the exports (docs/format.md, "Request envelopes"): the OpenAPI request body is the wrapper
// holding the body the action takes, x-servicespec-operation keeps the key, and the typed client takes the inner
// body and wraps it when sending (compiled by tsc --strict, run against the real runtime).
import SwaggerParser from '@apidevtools/swagger-parser';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateClient } from '../../src/export/export-client.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { serializeDocument } from '../../src/export/export-shared.js';
import { compileSpecText } from '../../src/program.js';
import { startService, type Running } from '../runtime/helpers.js';
import { WRAPPED_SPEC } from '../support/request-envelope.js';
import { buildDriver, tempDir } from './helpers.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reading an OpenAPI document

describe('request_envelope in the OpenAPI export', () => {
  const model = compileSpecText(WRAPPED_SPEC).model!;
  const doc = exportOpenApi(model).document as Json;

  it('wraps each wrapped operation’s request body schema in its one required member, closed', () => {
    for (const [path, method, type] of [
      ['/products', 'post', 'application/json'],
      ['/products/{id}', 'patch', 'application/json'],
      ['/products/{id}/patch', 'patch', 'application/merge-patch+json'],
      ['/products/{id}/whole', 'put', 'application/json'],
      ['/products/{id}/publish', 'post', 'application/json'],
    ] as const) {
      const s = doc.paths[path][method].requestBody.content[type].schema as Json;
      expect(s, `${method} ${path}`).toMatchObject({ type: 'object', required: ['product'], additionalProperties: false });
      expect(Object.keys(s.properties)).toEqual(['product']);
      expect(doc.paths[path][method]['x-servicespec-operation'].request_envelope).toEqual({ data: 'product' });
    }
    expect(doc.paths['/products'].post.requestBody.content['application/json'].schema.properties.product).toEqual({
      $ref: '#/components/schemas/ProductCreate',
    });
  });

  it.each(['3.1', '3.0'] as const)('OpenAPI %s validates', async (openapi) => {
    const tmp = tempDir('servicespec-request-envelope-');
    try {
      const file = join(tmp.path, 'wrapped.json');
      writeFileSync(file, serializeDocument(exportOpenApi(model, { openapi }).document, 'json'));
      await expect(SwaggerParser.validate(file)).resolves.toBeDefined();
    } finally {
      tmp.remove();
    }
  });
});

const DRIVER = `
import { ServiceClient } from './client.js';

export async function drive(baseUrl: string): Promise<Record<string, unknown>> {
  const client = new ServiceClient({ baseUrl });
  const made = await client.createProduct({ title: 'Lamp', vendor: 'Acme' });
  const id: string = made.product.id;
  const updated = await client.updateProduct(id, { title: 'Desk lamp' });
  const replaced = await client.replaceProduct(id, { title: 'Floor lamp' });
  const published = await client.publishProduct(id, {});
  return { made: made.product.title, updated: updated.product.title, replaced: replaced.product.vendor ?? null, state: published.product.status };
}
`;

describe('the generated client over request envelopes', () => {
  const tmp = tempDir('servicespec-client-request-envelope-');
  let service: Running;
  beforeAll(async () => {
    const c = compileSpecText(WRAPPED_SPEC);
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    service = await startService(c.model!);
    writeFileSync(join(tmp.path, 'client.ts'), generateClient(c.model!).code);
  });
  afterAll(async () => {
    await service?.close();
    tmp.remove();
  });

  it('takes the inner body and sends it wrapped', async () => {
    writeFileSync(join(tmp.path, 'driver.ts'), DRIVER);
    const { output, driver } = await buildDriver<{ drive: (url: string) => Promise<Record<string, unknown>> }>(tmp.path, ['client.ts', 'driver.ts']);
    expect(output).toBe('');
    expect(await driver.drive(service.url)).toEqual({ made: 'Lamp', updated: 'Desk lamp', replaced: null, state: 'active' });
  }, 120_000);
});
