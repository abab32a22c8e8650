// Every served version documented in its own shape: `export openapi|asyncapi|json-schema --version V`.
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { getServedVersions, getVersionDocumentModel } from '../../src/model/model-served-versions.js';
import { exportJsonSchemas } from '../../src/export/export-json-schema.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { compileSpecFile } from '../../src/program.js';
import { runCli } from '../cli/cli-helpers.js';
import { ROOT } from './diff-helpers.js';

type Schema = { properties: Record<string, unknown>; required?: string[] };

describe('a document per served version', () => {
  const examples = ['library.yaml', 'orders.yaml'];

  it.each(examples)('%s: every served version exports to a valid OpenAPI 3.1 and 3.0 document of its own', async (file) => {
    const model = compileSpecFile(join(ROOT, 'examples', file)).model!;
    const versions = getServedVersions(model);
    expect(versions.length).toBeGreaterThan(1);
    for (const version of versions) {
      for (const openapi of ['3.1', '3.0'] as const) {
        const doc = exportOpenApi(getVersionDocumentModel(model, version)!, { openapi }).document;
        await expect(SwaggerParser.validate(structuredClone(doc) as never), `${file} ${version} ${openapi}`).resolves.toBeDefined();
      }
    }
  });

  it('library.yaml version 1: Book has no language, Member has name (not full_name), and the version is required', () => {
    const model = compileSpecFile(join(ROOT, 'examples', 'library.yaml')).model!;
    const doc = exportOpenApi(getVersionDocumentModel(model, '1')!).document as {
      components: { schemas: Record<string, Schema> };
      paths: Record<string, Record<string, { parameters?: { name: string; in: string; required?: boolean; schema: { enum?: unknown[] } }[] }>>;
    };
    const s = doc.components.schemas;
    expect(s.Book!.properties).not.toHaveProperty('language');
    expect(s.BookCreate!.properties).not.toHaveProperty('language');
    expect(s.BookCreate!.required).not.toContain('language');
    expect(s.Member!.properties).toHaveProperty('name');
    expect(s.Member!.properties).not.toHaveProperty('full_name');
    expect(s.MemberCreate!.required).toContain('name');
    const list = doc.paths['/v{version}/books']!.get!;
    expect(list.parameters!.map((p) => p.name)).not.toContain('language');
    const versionParam = list.parameters!.find((p) => p.in === 'path' && p.name === 'version')!;
    expect(versionParam.schema.enum).toEqual(['1']);
    // The current version's document keeps the current shape.
    const current = exportOpenApi(getVersionDocumentModel(model, '2')!).document as { components: { schemas: Record<string, Schema> } };
    expect(current.components.schemas.BookCreate!.properties).toHaveProperty('language');
  });

  it('orders.yaml version 2026-06-01: the JSON Schema of Order names total, not amount', () => {
    const model = compileSpecFile(join(ROOT, 'examples', 'orders.yaml')).model!;
    const files = exportJsonSchemas(getVersionDocumentModel(model, '2026-06-01')!).files;
    const order = files.find((f) => f.name === 'Order')!.schema as Schema;
    expect(order.properties).toHaveProperty('total');
    expect(order.properties).not.toHaveProperty('amount');
  });

  it('orders.yaml version 2026-06-01: events keep the current shape (they are sent in the current version)', () => {
    const model = compileSpecFile(join(ROOT, 'examples', 'orders.yaml')).model!;
    const doc = exportOpenApi(getVersionDocumentModel(model, '2026-06-01')!).document as {
      webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: Schema }> } } }>;
    };
    const envelope = doc.webhooks['order.paid']!.post.requestBody.content['application/json']!.schema;
    const data = JSON.stringify(envelope.properties!.data);
    expect(data).toContain('"amount"');
    expect(data).not.toContain('"total"');
  });

  it('servicespec export openapi --version 1; an unserved version is unknown-version (exit 2); --version alone still prints the package version', async () => {
    const lib = join(ROOT, 'examples', 'library.yaml');
    const r = await runCli(['export', 'openapi', lib, '--version', '1', '--quiet']);
    expect(r.code).toBe(0);
    const doc = parse(r.stdout) as { components: { schemas: Record<string, Schema> } };
    expect(doc.components.schemas.Book!.properties).not.toHaveProperty('language');
    const bad = await runCli(['export', 'json-schema', lib, '--version', '9']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`error unknown-version: ${lib} does not serve version 9; it serves 2, 1`);
    const none = await runCli(['export', 'asyncapi', join(ROOT, 'examples', 'empty.yaml'), '--version', '1']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('it serves none (the spec has no versioning)');
    const asyncapi = await runCli(['export', 'asyncapi', join(ROOT, 'examples', 'orders.yaml'), '--version', '2026-06-01', '--quiet']);
    expect(asyncapi.code).toBe(0);
    // Events are sent in the current version (their envelope names it), so the payloads keep Order.amount.
    expect(asyncapi.stdout).toContain('amount');
    expect(asyncapi.stdout).not.toMatch(/\btotal:/);
    expect((await runCli(['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
