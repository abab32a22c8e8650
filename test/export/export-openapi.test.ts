import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { exportOpenApi, type OpenApiVersion } from '../../src/export/export-openapi.js';
import { NOT_SHOWN } from '../../src/model/model-defaults.js';
import { RULES_HEADING, serializeDocument, type JsonObject } from '../../src/export/export-shared.js';
import { getRoutes } from '../../src/model/model-routes.js';
import { compileSpecText } from '../../src/program.js';
import { getVersionDocumentModel } from '../../src/model/model-served-versions.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { EXAMPLE_NAMES, exampleModel, redoclyLint, ROOT, tempDir } from './helpers.js';

const VERSIONS: readonly OpenApiVersion[] = ['3.1', '3.0'];
const METHOD_KEYS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const tmp = tempDir();
afterAll(() => tmp.remove());

type Doc = JsonObject & { paths: Record<string, Record<string, JsonObject>>; components: JsonObject & { schemas: Record<string, JsonObject> } };

function exported(name: string, version: OpenApiVersion = '3.1') {
  const model = exampleModel(name);
  const r = exportOpenApi(model, { openapi: version });
  return { model, doc: r.document as Doc, diagnostics: r.diagnostics };
}

function op(doc: Doc, id: string): JsonObject {
  for (const item of Object.values(doc.paths)) for (const m of METHOD_KEYS) if (item[m]?.operationId === id) return item[m]!;
  throw new Error(`no operation ${id}`);
}

function deref(doc: Doc, node: unknown): JsonObject {
  let n = node as JsonObject;
  while (typeof n.$ref === 'string') {
    const parts = n.$ref.slice(2).split('/');
    n = parts.reduce<unknown>((acc, p) => (acc as JsonObject)[p.replace(/~1/g, '/').replace(/~0/g, '~')], doc) as JsonObject;
  }
  return n;
}

/** Every schema object in a document (anything under a `schema`, `schemas`, `properties`, `items`, …). */
function walk(node: unknown, visit: (n: JsonObject) => void): void {
  if (Array.isArray(node)) node.forEach((n) => walk(n, visit));
  else if (node && typeof node === 'object') {
    visit(node as JsonObject);
    for (const v of Object.values(node)) walk(v, visit);
  }
}

describe('OpenAPI export: the tools we did not write accept every example', () => {
  for (const name of EXAMPLE_NAMES) {
    for (const version of VERSIONS) {
      it(`${name} as OpenAPI ${version} validates with swagger-parser and lints with Redocly without errors`, async () => {
        const { doc } = exported(name, version);
        const file = join(tmp.path, `${name}-${version}.yaml`);
        writeFileSync(file, serializeDocument(doc, 'yaml'));
        await expect(SwaggerParser.validate(file)).resolves.toBeDefined();
        const lint = await redoclyLint(file);
        expect(lint.errors.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`)).toEqual([]);
      }, 60_000);
    }
  }
});

/** examples/orders.yaml with its version in the media type instead of a header. */
function ordersInMediaType(): ReturnType<typeof compileSpecText> {
  const text = readFileSync(join(ROOT, 'examples', 'orders.yaml'), 'utf8').replace(
    'placement: { header: Service-Version }',
    'placement: { media_type: "application/vnd.orders.v{version}+json" }',
  );
  const c = compileSpecText(text, 'orders-media.yaml');
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return c;
}

describe('OpenAPI export: a version in the media type', () => {
  for (const version of VERSIONS) {
    it(`documents requests and answers as the version's media type, and validates (swagger-parser, Redocly) as OpenAPI ${version}`, async () => {
      const c = ordersInMediaType();
      const doc = exportOpenApi(c.model!, { openapi: version }).document as Doc;
      const current = c.model!.versioning!.current!;
      const type = `application/vnd.orders.v${current}+json`;
      const create = op(doc, 'createOrder');
      expect(Object.keys((create.requestBody as { content: JsonObject }).content)).toEqual([type]);
      const responses = create.responses as Record<string, JsonObject>;
      expect(Object.keys(responses['201']!.content as JsonObject)).toEqual([type]);
      // Errors keep their own type; no version header is documented.
      const errors = Object.entries(responses)
        .filter(([status]) => status.startsWith('4'))
        .map(([, r]) => deref(doc, r));
      expect(errors.length).toBeGreaterThan(0);
      for (const e of errors) expect(Object.keys(e.content as JsonObject)).not.toContain(type);
      expect(JSON.stringify(doc.paths)).not.toContain('Service-Version');
      expect((doc.info as JsonObject).description).toContain('application/vnd.orders.v{version}+json');
      // Another served version's document names its own type.
      const old = exportOpenApi(getVersionDocumentModel(c.model!, '2026-06-01')!, { openapi: version }).document as Doc;
      expect(Object.keys((op(old, 'createOrder').requestBody as { content: JsonObject }).content)).toEqual(['application/vnd.orders.v2026-06-01+json']);
      const file = join(tmp.path, `orders-media-${version}.yaml`);
      writeFileSync(file, serializeDocument(doc, 'yaml'));
      await expect(SwaggerParser.validate(file)).resolves.toBeDefined();
      const lint = await redoclyLint(file);
      expect(lint.errors.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`)).toEqual([]);
    }, 60_000);
  }
});

it('an export with the version in the media type imports back with the same template and no diagnostic', async () => {
  const c = ordersInMediaType();
  const r = await importOpenApiDocument(JSON.parse(JSON.stringify(exportOpenApi(c.model!, { openapi: '3.1' }).document)));
  expect(r.diagnostics).toEqual([]);
  const back = compileSpecText(r.text ?? '', 'back.yaml');
  expect(back.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  expect(back.model?.versioning?.placement).toEqual({ kind: 'media_type', template: 'application/vnd.orders.v{version}+json' });
});

describe('OpenAPI export: built from the routes the runtime serves', () => {
  for (const name of EXAMPLE_NAMES) {
    it(`${name}: the paths are exactly getRoutes(model), method by method`, () => {
      const { model, doc } = exported(name);
      const served = getRoutes(model)
        .map((r) => `${r.method} ${r.path}`)
        .sort();
      const documented = Object.entries(doc.paths)
        .flatMap(([path, item]) => METHOD_KEYS.filter((m) => item[m] !== undefined).map((m) => `${m.toUpperCase()} ${path}`))
        .sort();
      expect(documented).toEqual(served);
    });
  }

  it('documents every operation with its parameters, bodies and declared responses (orders)', () => {
    const { doc } = exported('orders');
    const create = op(doc, 'createOrder');
    expect((create.requestBody as JsonObject).required).toBe(true);
    expect(deref(doc, (create.requestBody as JsonObject).content).constructor).toBeDefined();
    const createSchema = deref(doc, ((create.requestBody as JsonObject).content as JsonObject)['application/json']);
    expect(createSchema.schema).toEqual({ $ref: '#/components/schemas/OrderCreate' });
    const orderCreate = doc.components.schemas.OrderCreate!;
    // read-only fields, the identifier, the owner and the state are not written by a client
    expect(Object.keys(orderCreate.properties as JsonObject)).not.toContain('id');
    expect(Object.keys(orderCreate.properties as JsonObject)).not.toContain('status');
    expect(Object.keys(orderCreate.properties as JsonObject)).not.toContain('owner');
    // the response view marks them readOnly
    const order = doc.components.schemas.Order!;
    expect((order.properties as Record<string, JsonObject>).id!.readOnly).toBe(true);
    expect((order.properties as Record<string, JsonObject>).status!.readOnly).toBe(true);
    expect((order.properties as Record<string, JsonObject>).amount).toMatchObject({ type: 'integer', minimum: 1 });
    expect((order.properties as Record<string, JsonObject>).currency).toMatchObject({ pattern: '^[A-Z]{3}$' });
    expect(Object.keys(create.responses as JsonObject)).toContain('201');
  });

  it('uses RFC 9457 problem details where errors.body is problem, and the declared body otherwise', () => {
    const orders = exported('orders').doc;
    const notFound = deref(orders, (op(orders, 'getOrder').responses as JsonObject)['404']);
    expect(Object.keys(notFound.content as JsonObject)).toEqual(['application/problem+json']);
    const problem = orders.components.schemas.ProblemDetails!;
    expect(Object.keys(problem.properties as JsonObject)).toEqual(expect.arrayContaining(['type', 'title', 'status', 'detail', 'instance', 'code', 'errors']));
    const library = exported('library').doc;
    const lnf = deref(library, (op(library, 'getBook').responses as JsonObject)['404']);
    expect(Object.keys(lnf.content as JsonObject)).toEqual(['application/json']);
    expect(Object.keys(library.components.schemas.ErrorBody!.properties as JsonObject)).toEqual(['code', 'message', 'status', 'details']);
  });

  it('answers each declared error of an operation, grouped by status, with the codes named', () => {
    const { doc } = exported('orders');
    const pay = op(doc, 'payOrder');
    const r409 = deref(doc, (pay.responses as JsonObject)['409']);
    expect(r409['x-servicespec-codes']).toEqual(['invalid_transition', 'idempotency_in_progress']);
    expect(String(r409.description)).toContain('`invalid_transition`');
    expect(Object.keys(pay.responses as JsonObject)).toEqual(expect.arrayContaining(['200', '401', '403', '404', '409', '429', '500']));
  });

  it('has the pagination parameters on list operations, with the page size limits', () => {
    const { doc } = exported('orders');
    const params = (op(doc, 'listOrders').parameters as JsonObject[]).map((p) => deref(doc, p));
    const byName = Object.fromEntries(params.map((p) => [p.name, p]));
    expect(byName.limit).toMatchObject({ in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } });
    expect(byName.cursor).toMatchObject({ in: 'query', schema: { type: 'string' } });
    expect(byName.sort).toMatchObject({ schema: { enum: ['created_at', '-created_at', 'amount', '-amount'] } });
    expect(byName.status).toMatchObject({ in: 'query', schema: { enum: ['pending', 'paid', 'shipped', 'cancelled'] } });
    const page = ((deref(doc, (op(doc, 'listOrders').responses as JsonObject)['200']).content as JsonObject)['application/json'] as JsonObject)
      .schema as JsonObject;
    expect(page).toMatchObject({ required: ['items', 'next_cursor'], properties: { items: { type: 'array', items: { $ref: '#/components/schemas/Order' } } } });
    // clamp: the limit above the maximum is lowered, so no maximum in the schema (library)
    const lib = exported('library').doc;
    const limit = (op(lib, 'listBooks').parameters as JsonObject[]).map((p) => deref(lib, p)).find((p) => p.name === 'limit')!;
    expect((limit.schema as JsonObject).maximum).toBeUndefined();
    expect(String(limit.description)).toContain('50');
  });

  it('has RateLimit headers on rate-limited answers and Retry-After on 429', () => {
    const { doc } = exported('orders');
    const ok = deref(doc, (op(doc, 'getOrder').responses as JsonObject)['200']);
    expect(Object.keys(ok.headers as JsonObject)).toEqual(['RateLimit', 'RateLimit-Policy']);
    const limited = deref(doc, (op(doc, 'getOrder').responses as JsonObject)['429']);
    expect(Object.keys(limited.headers as JsonObject)).toEqual(['RateLimit', 'RateLimit-Policy', 'Retry-After']);
  });

  it('documents RateLimit only where a rate policy applies; Retry-After on every 429 rate_limited', () => {
    // The failed-credential bound makes rate_limited possible on every authenticated route, but the runtime sends
    // the quota headers only where a declared policy applies (limits-rate.ts).
    const spec = `
servicespec: 1
resources:
  Ticket:
    fields:
      id: { type: integer, readOnly: true }
      subject: { type: string }
endpoints:
  operations:
    createTicket: { method: POST, path: /tickets, action: create, resource: Ticket }
    getTicket: { method: GET, path: "/tickets/{id}", action: read, resource: Ticket }
authentication:
  schemes:
    key: { type: api_key, in: header, name: X-Key }
  default: { scopes: [] }
errors:
  codes:
    slow_down: { status: 429, when: [rate_limited] }
limits:
  rate: [ { name: writes, requests: 5, per: 1m, by: credential, operations: [createTicket] } ]
`;
    const doc = exportOpenApi(compileSpecText(spec).model!).document as Doc;
    const headers = (id: string, status: string) =>
      Object.keys((deref(doc, (op(doc, id).responses as JsonObject)[status]).headers as JsonObject | undefined) ?? {});
    expect(headers('createTicket', '201')).toEqual(['Location', 'RateLimit', 'RateLimit-Policy']);
    expect(headers('createTicket', '429')).toEqual(['RateLimit', 'RateLimit-Policy', 'Retry-After']);
    expect(headers('getTicket', '200')).toEqual([]);
    expect(headers('getTicket', '429')).toEqual(['Retry-After']);
  });

  it('writes an undescribed version change as a sentence in info.description', () => {
    const spec = `
servicespec: 1
resources:
  Ticket:
    fields:
      id: { type: integer, readOnly: true }
      subject: { type: string }
      severity: { type: integer, optional: true }
endpoints:
  operations:
    listTickets: { method: GET, path: /tickets, action: list, resource: Ticket, auth: none }
versioning:
  scheme: integer
  current: 3
  placement: { header: Api-Version }
  supported:
    - version: 2
      changes:
        - rename_field: { resource: Ticket, from: title, to: subject }
    - version: 1
      changes:
        - add_field: { resource: Ticket, field: severity }
`;
    const info = (exportOpenApi(compileSpecText(spec).model!).document as { info: { description: string } }).info.description;
    expect(info).toContain('Also served: `2`. Renamed `Ticket.title` to `subject`.');
    expect(info).toContain('Also served: `1`. Added `Ticket.severity`.');
  });

  it('has the Idempotency-Key header where declared, and the version where the spec places it', () => {
    const { doc } = exported('orders');
    const names = (id: string) =>
      ((op(doc, id).parameters as JsonObject[] | undefined) ?? []).map((p) => deref(doc, p)).map((p) => `${String(p.in)}:${String(p.name)}`);
    expect(names('createOrder')).toContain('header:Idempotency-Key');
    expect(names('getOrder')).not.toContain('header:Idempotency-Key');
    expect(names('getOrder')).toContain('header:Service-Version');
    const lib = exported('library').doc;
    expect(Object.keys(lib.paths)).toContain('/v{version}/books/{id}');
    const p = (op(lib, 'getBook').parameters as JsonObject[]).map((x) => deref(lib, x)).find((x) => x.name === 'version')!;
    expect(p).toMatchObject({ in: 'path', required: true, schema: { enum: ['2', '1'] } });
  });

  it("has the security schemes and each operation's schemes and scopes", () => {
    const { doc } = exported('orders');
    const schemes = doc.components.securitySchemes as Record<string, JsonObject>;
    expect(schemes.key).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(schemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(schemes.payments).toMatchObject({ type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/oauth/token' } } });
    // scopes only on OAuth2 requirements (3.1 too: linters take role names for undeclared scopes); the rest in
    // x-servicespec-required-scopes
    expect(doc.security).toEqual([{ key: [] }, { bearer: [] }]);
    expect(doc['x-servicespec-required-scopes']).toEqual(['orders:read']);
    expect(op(doc, 'payOrder').security).toEqual([{ payments: ['orders:write'] }]);
    expect(op(doc, 'quote').security).toEqual([]);
    for (const d of [doc, exported('orders', '3.0').doc]) {
      expect(op(d, 'createCustomer').security).toEqual([{ key: [] }, { bearer: [] }]);
      expect(op(d, 'createCustomer')['x-servicespec-required-scopes']).toEqual(['customers:write']);
    }
  });

  it('documents the token endpoint and the event stream the runtime serves', () => {
    const { doc } = exported('orders');
    expect(doc.paths['/oauth/token']?.post?.['x-servicespec-route']).toBe('token');
    expect(Object.keys((doc.paths['/oauth/token']!.post!.requestBody as JsonObject).content as JsonObject)).toEqual(['application/x-www-form-urlencoded']);
    expect(doc.paths['/events']?.get?.['x-servicespec-route']).toBe('stream');
    expect((doc.paths['/events']!.get!.parameters as JsonObject[]).map((p) => p.name)).toEqual(expect.arrayContaining(['Last-Event-ID', 'after', 'kinds']));
    expect(doc.paths['/webhooks']?.post?.['x-servicespec-route']).toBe('webhooks');
  });

  it('has webhooks for the event kinds (3.1), signed with the Standard Webhooks headers', () => {
    const { doc } = exported('orders');
    const hooks = doc.webhooks as Record<string, { post: JsonObject }>;
    expect(Object.keys(hooks)).toEqual(['order.created', 'order.paid', 'order.shipped', 'order.cancelled', 'customer.created']);
    const post = hooks['order.paid']!.post;
    expect((post.parameters as JsonObject[]).map((p) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    const body = (((post.requestBody as JsonObject).content as JsonObject)['application/json'] as JsonObject).schema as JsonObject;
    expect(body).toMatchObject({
      required: ['id', 'type', 'timestamp', 'data'],
      properties: {
        type: { enum: ['order.paid'] },
        data: { required: ['object'], properties: { object: { $ref: '#/components/schemas/Order' }, previous: { properties: { status: {} } } } },
      },
    });
    expect(Object.keys(hooks['order.created']!.post.requestBody as JsonObject)).toContain('content');
    const created = (
      (((hooks['order.created']!.post.requestBody as JsonObject).content as JsonObject)['application/json'] as JsonObject).schema as {
        properties: { data: { properties: JsonObject } };
      }
    ).properties.data;
    expect(Object.keys(created.properties)).toEqual(['object']); // a create sends no previous
    expect(exported('orders', '3.0').doc.webhooks).toBeUndefined();
  });

  it('writes a base address supplied at deployment, or not shown, as the relative `/` with no variable defaults', () => {
    expect(exported('orders').doc.servers).toEqual([expect.objectContaining({ url: '/', 'x-servicespec-base-url': '{base_url}' })]);
    expect(exported('empty').doc.servers).toEqual([expect.objectContaining({ url: '/', 'x-servicespec-not-shown': true })]);
    for (const name of EXAMPLE_NAMES) expect((exported(name).doc.servers as JsonObject[])[0]!.variables).toBeUndefined();
    const shown = exportOpenApi(compileSpecText('servicespec: 1\nendpoints:\n  base_url: https://api.example.com/v2\n', 's.yaml').model!).document as Doc;
    expect(shown.servers).toEqual([{ url: 'https://api.example.com/v2', description: 'The address the service is deployed at.' }]);
  });

  it('writes "not shown" where OpenAPI requires a value the spec does not show, and says so', () => {
    const { doc, diagnostics } = exported('empty');
    expect(doc.info).toMatchObject({ title: NOT_SHOWN, version: NOT_SHOWN });
    expect(diagnostics.map((d) => d.code)).toEqual(['export-not-shown', 'export-not-shown']);
  });

  it('uses the OpenAPI 3.0 schema dialect for 3.0: nullable, boolean exclusive bounds, example', () => {
    const { doc } = exported('orders', '3.0');
    walk(doc.components, (n) => {
      expect(Array.isArray(n.type)).toBe(false);
      expect(n.examples === undefined || !Array.isArray(n.examples)).toBe(true);
      expect(typeof n.exclusiveMinimum === 'number').toBe(false);
    });
    const props = doc.components.schemas.Order!.properties as Record<string, JsonObject>;
    expect(props.tracking_number).toMatchObject({ type: 'string', nullable: true });
    expect(props.weight_kg).toMatchObject({ minimum: 0, exclusiveMinimum: true });
    expect(props.amount).toMatchObject({ example: 2599 });
  });
});

describe('OpenAPI export: what OpenAPI cannot express is an extension and a diagnostic, never dropped', () => {
  it("puts state machines, limits, versioning and errors' conditions into x-servicespec-* and lists each item", () => {
    const { doc, diagnostics } = exported('orders');
    expect(Object.keys(doc)).toEqual(
      expect.arrayContaining([
        'x-servicespec-states',
        'x-servicespec-limits',
        'x-servicespec-versioning',
        'x-servicespec-errors',
        'x-servicespec-events',
        'x-servicespec-idempotency',
        'x-servicespec-scopes',
      ]),
    );
    const items = diagnostics.filter((d) => d.code === 'export-extension').map((d) => d.message);
    const expectItem = (text: string) =>
      expect(
        items.some((m) => m.includes(text)),
        text,
      ).toBe(true);
    expectItem('the Order state machine');
    expectItem('rate limit per_credential');
    expectItem('rate limit per_address');
    expectItem('limits.body_size');
    expectItem('limits.timeout');
    expectItem('the versioning rules');
    expectItem('error code invalid_request: the conditions that produce it');
    expectItem('endpoints.idempotency');
    expectItem('events.delivery.webhook');
    expectItem('scheme bearer');
    expectItem('field Order.customer: reference to Customer');
    expectItem('field Customer.email: unique');
    expectItem('operation payOrder: Transition `pay`');
    expect(diagnostics.every((d) => d.severity === 'info' && d.file !== undefined)).toBe(true);
  });

  it('writes the same rules into the descriptions, under one heading', () => {
    const { doc } = exported('orders');
    const ship = String(op(doc, 'shipOrder').description);
    expect(ship).toContain(RULES_HEADING);
    expect(ship).toContain('Transition `ship` of Order: from `paid` to `shipped`. The request must set `tracking_number`. Emits `order.shipped`.');
    const info = String((doc.info as JsonObject).description);
    expect(info).toContain('Rate limit `per_credential`: 100 requests per 1m per credential, on every operation.');
    // a policy that names operations is stated on those operations (library: loan_requests on createLoan)
    const lib = exported('library').doc;
    expect(String(op(lib, 'createLoan').description)).toContain('Rate limit `loan_requests`: 10 requests per 1h per credential.');
    expect(String(op(lib, 'getLoan').description ?? '')).not.toContain('loan_requests');
    expect(info).toContain('Compatibility: Clients must ignore response fields and event kinds they do not know.');
    expect(info).toContain('Also served: `2026-06-01` (deprecated 2026-11-01, sunset 2027-05-01).');
  });

  it('every x-servicespec-* key it writes is one docs/extensions.md documents', async () => {
    const { readFileSync } = await import('node:fs');
    const documented = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'extensions.md'), 'utf8');
    for (const name of EXAMPLE_NAMES) {
      for (const version of VERSIONS) {
        const keys = new Set<string>();
        walk(exported(name, version).doc, (n) =>
          Object.keys(n)
            .filter((k) => k.startsWith('x-servicespec'))
            .forEach((k) => keys.add(k)),
        );
        for (const k of keys) expect(documented, k).toContain(`\`${k}\``);
      }
    }
  });
});

describe('OpenAPI export: bad and unusual models', () => {
  it('never throws on a model with dangling references, and documents each route once', () => {
    const c = compileSpecText(
      [
        'servicespec: 1',
        'endpoints:',
        '  operations:',
        '    a: { method: GET, path: "/x/{id}", action: read, resource: Missing }',
        '    b: { method: GET, path: "/x/{key}", action: read, resource: Missing }',
        '    c: { method: POST, path: /y, action: custom, request: { resource: Nope } }',
        'authentication:',
        '  default: { schemes: [ghost] }',
      ].join('\n'),
    );
    const r = exportOpenApi(c.model!);
    const doc = r.document as Doc;
    expect(Object.keys(doc.paths)).toEqual(['/x/{id}', '/y']);
    const skipped = r.diagnostics.filter((d) => d.code === 'export-skipped').map((d) => d.message);
    expect(skipped).toHaveLength(3);
    expect(skipped).toEqual(
      expect.arrayContaining([
        expect.stringContaining('operation b'),
        expect.stringContaining('scheme ghost'),
        expect.stringContaining('names no declared scheme'),
      ]),
    );
  });
});

it("an older version's document offers the filter and sort fields that version has, under their current names", () => {
  const spec = `
servicespec: 1
resources:
  Ticket:
    fields:
      id: { type: integer, readOnly: true }
      subject: { type: string }
      severity: { type: integer, optional: true }
endpoints:
  operations:
    listTickets: { method: GET, path: /tickets, action: list, resource: Ticket, filter: [subject, severity], sort: [subject, severity], auth: none }
versioning:
  scheme: integer
  current: 3
  placement: { header: Api-Version }
  supported:
    - version: 2
      changes:
        - rename_field: { resource: Ticket, from: title, to: subject }
    - version: 1
      changes:
        - add_field: { resource: Ticket, field: severity }
`;
  const m = compileSpecText(spec).model!;
  const params = (v: string) => {
    const doc = exportOpenApi(getVersionDocumentModel(m, v)!).document as Doc;
    return (op(doc, 'listTickets').parameters as JsonObject[]).map((p) => deref(doc, p));
  };
  const shown = (v: string) => ({ names: params(v).map((p) => p.name), sort: (params(v).find((p) => p.name === 'sort')?.schema as JsonObject).enum });
  // version 2 calls subject `title`; the query keeps the current name, as the runtime reads it
  expect(shown('2')).toMatchObject({ names: expect.arrayContaining(['subject', 'severity']), sort: ['subject', '-subject', 'severity', '-severity'] });
  expect(shown('1').names).toContain('subject');
  expect(shown('1').names).not.toContain('severity');
  expect(shown('1').sort).toEqual(['subject', '-subject']);
});

it("the version parameter of the current version's document says whose bodies it shows and where an older version's are", () => {
  const model = compileSpecText(readFileSync(join(import.meta.dirname, '../../examples/library.yaml'), 'utf8'), 'library.yaml').model!;
  const doc = exportOpenApi(model).document as JsonObject;
  const text = JSON.stringify(doc);
  expect(text).toContain("The bodies in this document are version 2's; version 1 has its own document (`servicespec export openapi --api-version 1`).");
  // The document of version 1 serves that version only: no such sentence.
  expect(JSON.stringify(exportOpenApi(getVersionDocumentModel(model, '1')!).document)).not.toContain('The bodies in this document');
});
