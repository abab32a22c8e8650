// `type: map`: an object of free member names whose values are all of one field (`items`): Stripe's `metadata`
// (`additionalProperties: { type: string, maxLength: 500 }`), Kubernetes' labels. It was imported as `json` (any
// value), so serve stored `metadata: 5` and a 600-character value, the export lost the value schema and the tester
// never probed it. Each reader is held here: check, the OpenAPI export (3.1 and 3.0), the typed client, the document,
// diff, import, the runtime over HTTP (validation, storage, merge patch) and the tester.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { generateClient } from '../../src/export/export-client.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';
import { diffModels } from '../../src/diff/diff-run.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { testService } from '../../src/tester/tester-run.js';
import { isObject, readJson, startHandServer, type HandServer } from '../support/hand-server.js';
import { checkedModel } from '../support/specs.js';
import { startService, type Running } from '../runtime/helpers.js';

const spec = (metadata: string, more = '') => `servicespec: 1
resources:
  Customer:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string, maxLength: 40 }
      metadata: ${metadata}
endpoints:
  operations:
    createCustomer: { method: POST, path: /customers, action: create, resource: Customer }
    getCustomer: { method: GET, path: '/customers/{id}', action: read, resource: Customer }
    updateCustomer: { method: PATCH, path: '/customers/{id}', action: update, resource: Customer, request_media_type: application/merge-patch+json }
authentication:
  default: none
errors:
  codes:
    invalid: { status: 422, when: [validation, malformed_request, unsupported_media_type] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
${more}`;
const MAP = spec('{ type: map, items: { type: string, maxLength: 5 }, optional: true }');

const errors = (text: string) =>
  compileSpecText(text)
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => [d.code, d.pointer, d.message]);
const schemaOf = (text: string, openapi: '3.1' | '3.0' = '3.1') =>
  (exportOpenApi(checkedModel(text), { openapi }).document as { components: { schemas: Record<string, { properties: Record<string, unknown> }> } }).components
    .schemas.Customer!.properties.metadata;

describe('type: map', () => {
  it('check: clean; without items it is array-needs-items; a default holding a value the items refuse is refused', () => {
    expect(errors(MAP)).toEqual([]);
    expect(errors(spec('{ type: map }'))).toEqual([
      ['array-needs-items', '/resources/Customer/fields/metadata', 'Customer.metadata has type map but declares no `items`'],
    ]);
    expect(errors(spec('{ type: map, items: { type: string, maxLength: 5 }, default: { a: toolong } }')).map((e) => e[0])).toEqual(['value-violates-field']);
    expect(errors(spec('{ type: map, items: { type: string }, default: { a: x } }'))).toEqual([]);
    expect(compileSpecText(spec('{ type: json, items: { type: string } }')).diagnostics.map((d) => d.code)).toContain('constraint-type-mismatch');
  });

  it('the OpenAPI export: an object of additionalProperties, in 3.1 and 3.0', () => {
    expect(schemaOf(MAP)).toEqual({ type: 'object', additionalProperties: { type: 'string', maxLength: 5 } });
    expect(schemaOf(MAP, '3.0')).toEqual({ type: 'object', additionalProperties: { type: 'string', maxLength: 5 } });
  });

  it('the typed client (Record<string, string>) and the document', () => {
    expect(generateClient(checkedModel(MAP)).code).toMatch(/"?metadata"?\?: Record<string, string>;/);
    expect(renderMarkdown(checkedModel(MAP))).toContain('map of string (any member names)');
  });

  it("diff: the values' constraint tightened is breaking for requests; map to json is a type change", () => {
    const model = (t: string) => compileSpecText(t).model!;
    const codes = (a: string, b: string) => diffModels(model(a), model(b)).changes.map((c) => [c.code, c.impact]);
    expect(codes(MAP, MAP)).toEqual([]);
    expect(codes(spec('{ type: map, items: { type: string, maxLength: 9 }, optional: true }'), MAP)).toContainEqual([
      expect.stringMatching(/max-length|constraint/),
      'breaking',
    ]);
    expect(codes(MAP, spec('{ type: json, optional: true }')).map((c) => c[0])).toContainEqual(expect.stringMatching(/type/));
  });

  it("import: Stripe's metadata is a map of its value schema, and the export gives it back in place", async () => {
    const doc = {
      openapi: '3.0.0',
      info: { title: 'Customers', version: '1' },
      paths: {
        '/customers/{id}': {
          get: {
            operationId: 'getCustomer',
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            responses: { '200': { description: 'one', content: { 'application/json': { schema: { $ref: '#/components/schemas/customer' } } } } },
          },
        },
      },
      components: {
        schemas: {
          customer: {
            type: 'object',
            required: ['id'],
            properties: {
              id: { type: 'string', readOnly: true },
              metadata: { type: 'object', additionalProperties: { type: 'string', maxLength: 500 }, maxProperties: 50 },
              labels: { type: 'object', additionalProperties: true },
            },
          },
        },
      },
    };
    const r = await importOpenApiDocument(doc as unknown, 'customers.json');
    expect(r.document!.resources!.customer!.fields!.metadata).toEqual({ type: 'map', items: { type: 'string', maxLength: 500 }, optional: true });
    expect(r.document!.resources!.customer!.fields!.labels).toMatchObject({ type: 'json' });
    expect(r.diagnostics.filter((d) => d.pointer?.includes('metadata')).map((d) => [d.code, d.pointer])).toEqual([
      ['import-dropped', '/components/schemas/customer/properties/metadata/maxProperties'],
    ]);
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const back = exportOpenApi(r.compiled!.model!, { openapi: '3.0' }).document as {
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    expect(back.components.schemas.customer!.properties.metadata).toEqual({ type: 'object', additionalProperties: { type: 'string', maxLength: 500 } });
  });
});

describe('served: a map is validated value by value, stored and merged', () => {
  let service: Running;
  beforeAll(async () => {
    service = await startService(compileSpecText(MAP).model!);
  });
  afterAll(async () => service?.close());

  it('takes a map of valid values, refuses a value its items refuse and a value that is no map, at their pointers', async () => {
    const made = await service.call('POST', '/customers', { name: 'Ann', metadata: { plan: 'gold', tier: '2' } });
    expect(made.status).toBe(201);
    expect(made.body.metadata).toEqual({ plan: 'gold', tier: '2' });
    expect((await service.call('GET', `/customers/${made.body.id}`)).body.metadata).toEqual({ plan: 'gold', tier: '2' });
    const long = await service.call('POST', '/customers', { name: 'Bo', metadata: { plan: 'platinum' } });
    expect(long.status).toBe(422);
    expect(JSON.stringify(long.body)).toContain('/metadata/plan');
    const number = await service.call('POST', '/customers', { name: 'Bo', metadata: { plan: 5 } });
    expect(number.status).toBe(422);
    expect((await service.call('POST', '/customers', { name: 'Bo', metadata: ['plan'] })).status).toBe(422);
  });

  it('a merge patch sets one member and removes another with null (RFC 7396)', async () => {
    const made = await service.call('POST', '/customers', { name: 'Cy', metadata: { a: '1', b: '2' } });
    const patched = await service.call(
      'PATCH',
      `/customers/${made.body.id}`,
      { metadata: { b: null, c: '3' } },
      { 'content-type': 'application/merge-patch+json' },
    );
    expect(patched.status).toBe(200);
    expect(patched.body.metadata).toEqual({ a: '1', c: '3' });
    const bad = await service.call('PATCH', `/customers/${made.body.id}`, { metadata: { c: 'toolong' } }, { 'content-type': 'application/merge-patch+json' });
    expect(bad.status).toBe(422);
  });
});

describe('the tester holds a service to the map', () => {
  // unchecked: the service stores any metadata value (a value past the items' maxLength, a number).
  function start(unchecked: boolean): Promise<HandServer> {
    const customers = new Map<string, Record<string, unknown>>();
    const valid = (m: unknown) => m === undefined || (isObject(m) && Object.values(m).every((v) => unchecked || (typeof v === 'string' && [...v].length <= 5)));
    return startHandServer((req, reply) => {
      const url = new URL(req.url, 'http://127.0.0.1');
      const id = /^\/customers\/([^/]+)$/.exec(url.pathname)?.[1];
      if (req.method === 'POST' && url.pathname === '/customers') {
        const b = readJson(req);
        if (
          !isObject(b) ||
          typeof b.name !== 'string' ||
          [...b.name].length > 40 ||
          !valid(b.metadata) ||
          Object.keys(b).some((k) => k !== 'name' && k !== 'metadata')
        )
          return reply.problem(422, 'invalid');
        const c = { id: crypto.randomUUID(), name: b.name, ...(b.metadata !== undefined ? { metadata: b.metadata } : {}) };
        customers.set(c.id, c);
        return reply.json(201, c, 'application/json', { location: `/customers/${c.id}` });
      }
      if (req.method === 'GET' && id !== undefined) {
        const c = customers.get(id);
        return c ? reply.json(200, c) : reply.problem(404, 'not_found');
      }
      return reply.problem(404, 'not_found');
    });
  }
  const NO_UPDATE = MAP.replace(/ {4}updateCustomer:.*\n/, '');
  let faithful: HandServer;
  let unchecked: HandServer;
  beforeAll(async () => {
    faithful = await start(false);
    unchecked = await start(true);
  });
  afterAll(() => {
    faithful?.close();
    unchecked?.close();
  });
  const run = async (url: string) =>
    (await testService(checkedModel(NO_UPDATE), { baseUrl: url, seed: 1 })).results
      .filter((r) => r.outcome === 'failed')
      .map((r) => [r.check, r.failure?.expected ?? '']);

  it('a faithful service passes; one storing any value fails on a value its items refuse', async () => {
    expect(await run(faithful.url)).toEqual([]);
    const failed = await run(unchecked.url);
    expect(failed.map((f) => f[0])).toContain('endpoints.invalid-requests');
    expect(failed.map((f) => f[1]).join('\n')).toMatch(/metadata\.key/);
  });
});
