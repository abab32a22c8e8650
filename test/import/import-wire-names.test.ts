import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateClient } from '../../src/export/export-client.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { importOpenApiDocument, specToYaml } from '../../src/import/import-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { startService, type Running } from '../runtime/helpers.js';
import { ROOT, run, tempDir } from '../export/helpers.js';

// An imported API with camelCase property names serves, exports and generates a client with exactly those names.

type Json = Record<string, unknown>;
const tmp = tempDir('servicespec-wire-names-');
let service: Running | undefined;
afterAll(async () => {
  await service?.close();
  tmp.remove();
});

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonBody = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const id = { name: 'widgetId', in: 'path', required: true, schema: { type: 'string' } };

const openapi: Json = {
  openapi: '3.1.0',
  info: { title: 'Widgets', version: '1' },
  paths: {
    '/widgets': {
      get: {
        operationId: 'listWidgets',
        parameters: [
          { name: 'displayName', in: 'query', schema: { type: 'string' } },
          { name: 'sort', in: 'query', schema: { type: 'string', enum: ['itemCount', '-itemCount'] } },
        ],
        responses: {
          '200': {
            description: 'ok',
            ...jsonBody({
              type: 'object',
              required: ['items', 'next_cursor'],
              properties: { items: { type: 'array', items: ref('Widget') }, next_cursor: { type: ['string', 'null'] } },
            }),
          },
        },
      },
      post: { operationId: 'createWidget', requestBody: jsonBody(ref('NewWidget')), responses: { '201': { description: 'made', ...jsonBody(ref('Widget')) } } },
    },
    '/widgets/{widgetId}': {
      get: { operationId: 'getWidget', parameters: [id], responses: { '200': { description: 'ok', ...jsonBody(ref('Widget')) } } },
    },
  },
  components: {
    schemas: {
      Widget: {
        type: 'object',
        required: ['id', 'displayName', 'itemCount'],
        properties: {
          id: { type: 'string', format: 'uuid', readOnly: true },
          displayName: { type: 'string' },
          itemCount: { type: 'integer' },
          sizeInfo: { type: 'object', properties: { maxWidth: { type: 'integer' } } },
        },
      },
      NewWidget: {
        type: 'object',
        required: ['displayName', 'itemCount'],
        properties: {
          displayName: { type: 'string' },
          itemCount: { type: 'integer' },
          sizeInfo: { type: 'object', properties: { maxWidth: { type: 'integer' } } },
        },
      },
    },
  },
};

describe('camelCase names on the wire, through import, serve, export and client', () => {
  it('imports the names unchanged, and the service answers with them', async () => {
    const r = await importOpenApiDocument(openapi, 'widgets.json');
    expect(r.diagnostics.filter((d) => d.code === 'import-renamed')).toEqual([]);
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.document!.endpoints!.operations!.listWidgets).toMatchObject({ action: 'list', filter: ['displayName'], sort: ['itemCount'] });
    service = await startService(r.compiled!.model!);
    const a = await service.call('POST', '/widgets', { displayName: 'A', itemCount: 2, sizeInfo: { maxWidth: 5 } });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ displayName: 'A', itemCount: 2, sizeInfo: { maxWidth: 5 } });
    await service.call('POST', '/widgets', { displayName: 'B', itemCount: 7 });
    const bad = await service.call('POST', '/widgets', { display_name: 'C', itemCount: 1 });
    expect(bad.status).toBe(422);
    const read = await service.call('GET', `/widgets/${String(a.body.id)}`);
    expect(read.body).toEqual(a.body);
    const listed = await service.call('GET', '/widgets?sort=-itemCount');
    expect(listed.body.items.map((w: Json) => w.displayName)).toEqual(['B', 'A']);
    const filtered = await service.call('GET', '/widgets?displayName=A');
    expect(filtered.body.items.map((w: Json) => w.itemCount)).toEqual([2]);
  });

  it('exports the names unchanged, and the generated client compiles with them', async () => {
    const r = await importOpenApiDocument(openapi, 'widgets.json');
    const doc = exportOpenApi(r.compiled!.model!).document as { components: { schemas: Record<string, { properties: Json }> } };
    expect(Object.keys(doc.components.schemas.Widget!.properties)).toEqual(['id', 'displayName', 'itemCount', 'sizeInfo']);
    const code = generateClient(r.compiled!.model!).code;
    expect(code).toContain('displayName: string');
    writeFileSync(join(tmp.path, 'client.ts'), code);
    const tsc = await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '--strict', '--noEmit', 'client.ts'], { cwd: tmp.path });
    expect(tsc.stdout + tsc.stderr).toBe('');
  }, 120_000);
});

// Operation ids and component names as OpenAPI has them (`find widget`, `io.example.v1.Widget`) stay the spec's names;
// the service stores the dotted resource, and the client gives each an identifier.
const namespaced: Json = {
  openapi: '3.0.3',
  info: { title: 'Namespaced', version: '1' },
  paths: {
    '/widgets': {
      post: {
        operationId: 'post-createWidget',
        requestBody: jsonBody({ $ref: '#/components/schemas/io.example.v1.Widget' }),
        responses: { '201': { description: 'made', ...jsonBody({ $ref: '#/components/schemas/io.example.v1.Widget' }) } },
      },
    },
    '/widgets/{id}': {
      get: {
        operationId: 'find widget by id',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'ok', ...jsonBody({ $ref: '#/components/schemas/io.example.v1.Widget' }) } },
      },
    },
  },
  components: {
    schemas: {
      'io.example.v1.Widget': {
        type: 'object',
        required: ['id', 'serialNo'],
        properties: { id: { type: 'string', format: 'uuid', readOnly: true }, serialNo: { type: 'string', 'x-servicespec-field': { unique: true } } },
      },
    },
  },
};

describe('operation ids and dotted component names, kept', () => {
  it('imports them unchanged, serves the dotted resource, and the generated client compiles', async () => {
    const r = await importOpenApiDocument(namespaced, 'namespaced.json');
    expect(r.diagnostics.filter((d) => d.code === 'import-renamed')).toEqual([]);
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(Object.keys(r.document!.resources!)).toEqual(['io.example.v1.Widget']);
    expect(r.document!.endpoints!.operations!['find widget by id']).toMatchObject({ action: 'read', resource: 'io.example.v1.Widget' });
    expect(r.diagnostics.filter((d) => d.code === 'import-names-kept').map((d) => d.message)).toEqual([expect.stringContaining('(4: `io.example.v1.Widget`')]);
    expect(r.compiled!.diagnostics.filter((d) => d.code === 'name-style')).toEqual([]);
    // Without the setting the import writes, check warns of each name as before.
    expect(compileSpecText(specToYaml({ ...r.document!, check: {} })).diagnostics.map((d) => d.message)).toContain(
      "operation find widget by id: operation name `find widget by id` is not an identifier (letters, digits, underscores), the format's naming style; it is kept as written (it is the name on the wire)",
    );
    const doc = exportOpenApi(r.compiled!.model!).document as { paths: Record<string, Record<string, { operationId: string }>>; components: { schemas: Json } };
    expect(doc.paths['/widgets/{id}']!.get!.operationId).toBe('find widget by id');
    expect(doc.paths['/widgets']!.post!.operationId).toBe('post-createWidget');
    expect(Object.keys(doc.components.schemas)).toContain('io.example.v1.Widget');
    const svc = await startService(r.compiled!.model!);
    try {
      const a = await svc.call('POST', '/widgets', { serialNo: 'S1' });
      expect(a.status).toBe(201);
      expect((await svc.call('GET', `/widgets/${String(a.body.id)}`)).body).toEqual(a.body);
      // the unique column is still named when the table name has dots
      const again = await svc.call('POST', '/widgets', { serialNo: 'S1' });
      expect(again.status).toBe(409);
      expect(JSON.stringify(again.body)).toContain('/serialNo');
    } finally {
      await svc.close();
    }
    const code = generateClient(r.compiled!.model!).code;
    expect(code).toContain('findWidgetById(');
    expect(code).toContain('postCreateWidget(');
    expect(code).toMatch(/export interface Widget\b/);
    writeFileSync(join(tmp.path, 'namespaced.ts'), code);
    const tsc = await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '--strict', '--noEmit', 'namespaced.ts'], {
      cwd: tmp.path,
    });
    expect(tsc.stdout + tsc.stderr).toBe('');
  }, 120_000);
});
