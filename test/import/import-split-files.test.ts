// An OpenAPI 3 document split across files (DigitalOcean's layout: an entry file citing one file per operation, a
// model per resource, shared parameters, responses and headers): the bundler inlines each cited file at its first
// use and points later uses at it, under `paths`. Those targets go to `components` under the cited file's name, so
// the importer sees the named schemas it takes resources from (test/fixtures/openapi/split/, its README).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument, importOpenApiFile } from '../../src/import/import-openapi.js';
import { hoistTargets, openApi3Section } from '../../src/import/import-hoist.js';

type Json = Record<string, unknown>;
type Result = Awaited<ReturnType<typeof importOpenApiFile>>;
const errorsOf = (r: Result) =>
  [...r.diagnostics, ...(r.compiled?.diagnostics ?? [])].filter((d) => d.severity === 'error').map((d) => `${d.code}: ${d.message}`);
const operations = (r: Result) => r.document!.endpoints!.operations! as unknown as Record<string, Json>;
const ENTRY = join('test', 'fixtures', 'openapi', 'split', 'api.v2.yaml');

describe('import of an OpenAPI 3 document split across files', () => {
  it('finds the resource a model file holds: its operations are actions, not custom (before: every operation custom, no resource)', async () => {
    const r = await importOpenApiFile(ENTRY);
    expect(errorsOf(r)).toEqual([]);
    expect(r.diagnostics.filter((d) => d.code === 'import-invalid-openapi')).toEqual([]);
    const ops = operations(r);
    expect(Object.fromEntries(Object.entries(ops).map(([k, o]) => [k, `${String(o.action ?? 'custom')} ${String(o.resource ?? '')}`.trim()]))).toEqual({
      droplets_list: 'list droplet',
      droplets_create: 'create droplet',
      droplets_get: 'read droplet',
      droplets_destroy: 'delete droplet',
      floatingIPs_list: 'list floating_ip',
      // {floating_ip} names no field (the address is `ip`, not required to be an identifier): custom, and said.
      floatingIPs_get: 'custom',
    });
  });

  it('reads a schema cited from two files (droplet.yml from the droplets responses and from floating_ip.yml) as one resource', async () => {
    const r = await importOpenApiFile(ENTRY);
    const resources = r.document!.resources as Record<string, Json>;
    expect(Object.keys(resources).sort()).toEqual(['droplet', 'floating_ip']);
    // The second use, from another file, still resolves: the floating IP's `droplet` holds the droplet's fields.
    const droplet = (resources.floating_ip!.fields as Record<string, Json>).droplet!;
    expect(Object.keys(droplet.fields as Json)).toEqual(['id', 'name', 'memory', 'vcpus']);
    // The shared error response file, cited by every operation, is one error shape.
    expect(r.diagnostics.filter((d) => d.code === 'import-unresolved-ref')).toEqual([]);
  });

  it("says each diagnostic at its place in the user's files: the file a $ref led to and the pointer in it", async () => {
    const r = await importOpenApiFile(ENTRY);
    const model = join('test', 'fixtures', 'openapi', 'split', 'resources', 'droplets', 'models', 'droplet.yml');
    const dropped = r.diagnostics.filter((d) => d.code === 'import-dropped' && d.message.includes('example 0'));
    expect(dropped.length).toBeGreaterThan(0);
    for (const d of dropped) expect([d.file, d.pointer]).toEqual([model, '/properties/vcpus']);
    const ip = r.diagnostics.find((d) => d.code === 'import-approximated' && d.message.includes('format `ipv4`'));
    expect([ip?.file, ip?.pointer]).toEqual([
      join('test', 'fixtures', 'openapi', 'split', 'resources', 'floating_ips', 'models', 'floating_ip.yml'),
      '/properties/ip',
    ]);
    // What the entry file holds itself is said there.
    expect(r.diagnostics.find((d) => d.code === 'import-dropped' && d.pointer === '/info/version')?.file).toBe(ENTRY);
    // Every place named is in the file named: none in components the user never wrote.
    for (const d of r.diagnostics) if (d.pointer !== undefined) expect(d.pointer.startsWith('/components/schemas')).toBe(false);
  });

  it('names a moved target after the file or fragment cited, and points every use at it', async () => {
    const bundled = {
      openapi: '3.0.0',
      info: { title: 't', version: '1' },
      paths: {
        '/a/{a_id}': {
          get: {
            parameters: [{ name: 'a_id', in: 'path', required: true, schema: { type: 'string' } }],
            responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { x: { type: 'string' } } } } } } },
          },
        },
        '/b/{a_id}': {
          get: {
            parameters: [{ $ref: '#/paths/~1a~1%7Ba_id%7D/get/parameters/0' }],
            responses: { '200': { $ref: '#/paths/~1a~1%7Ba_id%7D/get/responses/200' } },
          },
        },
        '/c': {
          get: {
            responses: {
              '200': {
                description: 'ok',
                content: { 'application/json': { schema: { $ref: '#/paths/~1a~1%7Ba_id%7D/get/responses/200/content/application~1json/schema' } } },
              },
            },
          },
        },
      },
    };
    const cited: Record<string, string> = {
      'paths//a/{a_id}/get/parameters/0': 'parameters.yml#/a_id',
      'paths//a/{a_id}/get/responses/200': 'responses/a.yml',
      'paths//a/{a_id}/get/responses/200/content/application/json/schema': '../models/a.yml',
    };
    const { document, moved } = hoistTargets(bundled, openApi3Section, (t) => cited[t.join('/')]);
    expect(document.components).toEqual({
      schemas: { a: { type: 'object', properties: { x: { type: 'string' } } } },
      responses: { a: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/a' } } } } },
      parameters: { a_id: { name: 'a_id', in: 'path', required: true, schema: { type: 'string' } } },
    });
    const paths = document.paths as Record<string, Record<string, Json>>;
    expect(paths['/b/{a_id}']!.get).toEqual({
      parameters: [{ $ref: '#/components/parameters/a_id' }],
      responses: { '200': { $ref: '#/components/responses/a' } },
    });
    expect(paths['/a/{a_id}']!.get!.responses).toEqual({ '200': { $ref: '#/components/responses/a' } });
    expect(JSON.stringify(paths['/c'])).toContain('"#/components/schemas/a"');
    expect(moved.get('/components/schemas/a')).toBe('/paths/~1a~1{a_id}/get/responses/200/content/application~1json/schema');
    // The bundled document is left as it was.
    expect(JSON.stringify(bundled)).not.toContain('#/components/');
  });

  it("moves a target inside a component only where the user cited a file there, not a $ref of the user's own to a part of one", () => {
    const tag = { type: 'string' };
    const owner = { type: 'object', properties: { name: { type: 'string' } } };
    const bundled = {
      openapi: '3.0.0',
      info: { title: 't', version: '1' },
      paths: {},
      components: {
        schemas: {
          Pet: { type: 'object', properties: { tag, owner } },
          Label: { type: 'object', properties: { tag: { $ref: '#/components/schemas/Pet/properties/tag' } } },
          Shop: { type: 'object', properties: { owner: { $ref: '#/components/schemas/Pet/properties/owner' } } },
        },
      },
    };
    // Pet's owner is `owner.yml` in the user's files (written out there by the bundler); its tag is written in place.
    const { document } = hoistTargets(bundled, openApi3Section, (t) => (t.join('/') === 'components/schemas/Pet/properties/owner' ? 'owner.yml' : undefined));
    const schemas = (document.components as Json).schemas as Record<string, Json>;
    expect(Object.keys(schemas)).toEqual(['Pet', 'Label', 'Shop', 'owner']);
    expect(schemas.Pet!.properties).toEqual({ tag, owner: { $ref: '#/components/schemas/owner' } });
    expect(schemas.Label!.properties).toEqual({ tag: { $ref: '#/components/schemas/Pet/properties/tag' } });
    expect(schemas.Shop!.properties).toEqual({ owner: { $ref: '#/components/schemas/owner' } });
  });

  it('says a Swagger 2.0 split document\'s diagnostics in the file cited too (before: at "" for what it moved to definitions)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'servicespec-split-swagger-'));
    try {
      const petRef = { $ref: 'Pet.yaml' };
      writeFileSync(
        join(dir, 'Pet.yaml'),
        JSON.stringify({
          type: 'object',
          required: ['id', 'name'],
          properties: { id: { type: 'integer' }, name: { type: 'string' }, age: { type: 'integer', minimum: 0, example: -1 } },
        }),
      );
      const doc = {
        swagger: '2.0',
        info: { title: 'petstore-separate', version: '1' },
        produces: ['application/json'],
        paths: {
          '/pets': { get: { operationId: 'findPets', responses: { '200': { description: 'pets', schema: { type: 'array', items: petRef } } } } },
          '/pets/{id}': {
            get: {
              operationId: 'findPetById',
              parameters: [{ name: 'id', in: 'path', required: true, type: 'integer' }],
              responses: { '200': { description: 'pet', schema: petRef } },
            },
          },
        },
      };
      writeFileSync(join(dir, 'swagger.json'), JSON.stringify(doc));
      const r = await importOpenApiFile(join(dir, 'swagger.json'));
      expect(errorsOf(r)).toEqual([]);
      const dropped = r.diagnostics.filter((d) => d.code === 'import-dropped' && d.message.includes('example -1'));
      expect(dropped.length).toBeGreaterThan(0);
      for (const d of dropped) expect([d.file, d.pointer]).toEqual([join(dir, 'Pet.yaml'), '/properties/age']);
      expect(r.diagnostics.find((d) => d.code === 'import-dropped' && d.pointer === '/info/version')?.file).toBe(join(dir, 'swagger.json'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('imports a cycle of $refs across files (node.yml ↔ child.yml) without hanging', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'servicespec-split-cycle-'));
    try {
      const node = {
        type: 'object',
        required: ['id', 'name'],
        properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' }, children: { type: 'array', items: { $ref: 'child.yml' } } },
      };
      const child = { type: 'object', properties: { label: { type: 'string' }, parent: { $ref: 'node.yml' } } };
      writeFileSync(join(dir, 'node.yml'), JSON.stringify(node));
      writeFileSync(join(dir, 'child.yml'), JSON.stringify(child));
      const body = (schema: unknown) => ({ content: { 'application/json': { schema } } });
      const doc = {
        openapi: '3.0.3',
        info: { title: 'nodes', version: '1' },
        paths: {
          '/nodes': {
            get: { operationId: 'listNodes', responses: { '200': { description: 'nodes', ...body({ type: 'array', items: { $ref: 'node.yml' } }) } } },
            post: {
              operationId: 'createNode',
              requestBody: { required: true, ...body({ $ref: 'node.yml' }) },
              responses: { '201': { description: 'made', ...body({ $ref: 'node.yml' }) } },
            },
          },
          '/nodes/{id}': {
            get: {
              operationId: 'getNode',
              parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
              responses: { '200': { description: 'node', ...body({ $ref: 'node.yml' }) } },
            },
          },
        },
      };
      writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc));
      const r = await importOpenApiFile(join(dir, 'openapi.json'));
      expect(errorsOf(r)).toEqual([]);
      const ops = operations(r);
      expect([ops.listNodes!.action, ops.createNode!.action, ops.getNode!.action, ops.getNode!.resource]).toEqual(['list', 'create', 'read', 'node']);
      // The same through a document in memory, its files beside the working directory's path given.
      const cwd = process.cwd();
      process.chdir(dir);
      try {
        const m = await importOpenApiDocument(doc, 'openapi.json');
        expect(errorsOf(m)).toEqual([]);
        expect(operations(m).getNode!.action).toBe('read');
      } finally {
        process.chdir(cwd);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
