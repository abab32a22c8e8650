import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { importOpenApiDocument, importOpenApiFile, specToYaml } from '../../src/import/import-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { toEventKindName, toFieldName, toIdentifier, toOperationId, toResourceName } from '../../src/import/import-names.js';
import { OPENAPI_FIXTURES, tempDir } from '../export/helpers.js';
import { runCli } from '../cli/cli-helpers.js';

const tmp = tempDir('servicespec-import-');
afterAll(() => tmp.remove());

type Json = Record<string, unknown>;

function doc(extra: Json = {}, version = '3.1.0'): Json {
  return { openapi: version, info: { title: 'Things', version: '1.0.0' }, paths: {}, ...extra };
}

const thing = {
  type: 'object',
  required: ['id', 'name'],
  properties: {
    id: { type: 'string', format: 'uuid', readOnly: true },
    name: { type: 'string', minLength: 1, maxLength: 50 },
    size: { type: 'integer', minimum: 0, default: 1 },
  },
};
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonBody = (schema: unknown) => ({ content: { 'application/json': { schema } } });

/** A small CRUD API whose shapes are exactly the format's actions. */
const crud = doc({
  paths: {
    '/things': {
      get: {
        operationId: 'listThings',
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', maximum: 50, default: 10 } },
          { name: 'cursor', in: 'query', schema: { type: 'string' } },
          { name: 'name', in: 'query', schema: { type: 'string' } },
          { name: 'sort', in: 'query', schema: { type: 'string', enum: ['name', '-name'] } },
        ],
        responses: {
          '200': {
            description: 'ok',
            ...jsonBody({ type: 'object', properties: { items: { type: 'array', items: ref('Thing') }, next_cursor: { type: ['string', 'null'] } } }),
          },
        },
      },
      post: {
        operationId: 'createThing',
        requestBody: jsonBody(ref('NewThing')),
        responses: { '201': { description: 'made', ...jsonBody(ref('Thing')) }, '422': { $ref: '#/components/responses/Invalid' } },
      },
    },
    '/things/{thingId}': {
      get: {
        operationId: 'getThing',
        parameters: [{ name: 'thingId', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': { description: 'ok', ...jsonBody(ref('Thing')) },
          '404': { description: 'Not here', content: { 'application/problem+json': { schema: { type: 'object' } } } },
        },
      },
      put: {
        operationId: 'replaceThing',
        parameters: [{ name: 'thingId', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: jsonBody(ref('NewThing')),
        responses: { '200': { description: 'ok', ...jsonBody(ref('Thing')) } },
      },
      patch: {
        operationId: 'updateThing',
        parameters: [{ name: 'thingId', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: jsonBody({ type: 'object', properties: { size: { type: 'integer' } } }),
        responses: { '200': { description: 'ok', ...jsonBody(ref('Thing')) } },
      },
      delete: {
        operationId: 'deleteThing',
        parameters: [{ name: 'thingId', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '204': { description: 'gone' } },
      },
    },
    '/things/{thingId}/polish': {
      post: {
        operationId: 'polish thing',
        parameters: [{ name: 'thingId', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'ok', ...jsonBody(ref('Thing')) } },
      },
    },
  },
  components: {
    schemas: {
      Thing: thing,
      NewThing: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, size: { type: 'integer' } } },
    },
    responses: { Invalid: { description: 'The thing is not valid', content: { 'application/problem+json': { schema: { type: 'object' } } } } },
  },
});

describe('import: operations become actions where their shapes allow', () => {
  it('maps list, create, read, replace, update and delete, and anything else to a custom operation', async () => {
    const r = await importOpenApiDocument(crud, 'crud.json');
    const ops = r.document!.endpoints!.operations!;
    expect(ops.listThings).toMatchObject({ method: 'GET', path: '/things', action: 'list', resource: 'Thing', filter: ['name'], sort: ['name'] });
    expect(ops.createThing).toMatchObject({ action: 'create', resource: 'Thing', errors: ['invalid'] });
    expect(ops.getThing).toMatchObject({ action: 'read', resource: 'Thing', path: '/things/{thingId}', errors: ['not_found'] });
    expect(ops.replaceThing).toMatchObject({ action: 'replace', resource: 'Thing' });
    expect(ops.updateThing).toMatchObject({ action: 'update', resource: 'Thing' });
    expect(ops.deleteThing).toMatchObject({ action: 'delete', resource: 'Thing' });
    expect(ops['polish thing']).toMatchObject({ action: 'custom', handler: 'polishThing', response: { resource: 'Thing' } });
    // `limit`'s maximum: a request over it breaks the parameter's schema, refused (over_max: reject).
    expect(r.document!.limits).toEqual({ page_size: { default: 10, max: 50, over_max: 'reject' } });
    expect(r.document!.errors).toEqual({
      body: 'problem',
      // Each code answers the conditions of its status (docs/import.md, "Error responses"); the one 422 an unreadable
      // body too, where no 400 is declared.
      codes: {
        invalid: { status: 422, title: 'The thing is not valid', when: ['validation', 'malformed_request', 'reference_not_found', 'idempotency_conflict'] },
        not_found: { status: 404, title: 'Not here', when: ['missing_resource', 'route_not_found'] },
      },
    });
    const messages = r.diagnostics.map((d) => d.message);
    expect(messages.filter((m) => m.includes('query parameter'))).toEqual([]);
    expect(r.diagnostics.filter((d) => d.code === 'import-renamed')).toEqual([]);
    // nothing invented: no states, no versioning, no rate limits, no base address
    const shown = Object.fromEntries(r.gaps!.parts.map((p) => [p.part, p.status]));
    expect(shown).toMatchObject({ states: 'not shown', versioning: 'not shown', events: 'not shown', authentication: 'not shown' });
    expect(r.document!.endpoints!.base_url).toBeUndefined();
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('reads fields with their types, constraints, read-only flags and optionality', async () => {
    const r = await importOpenApiDocument(crud, 'crud.json');
    expect(r.document!.resources!.Thing).toEqual({
      // Thing leaves its object open: an answer may carry other members.
      answer_members: 'open',
      fields: {
        id: { type: 'uuid', readOnly: true },
        name: { type: 'string', minLength: 1, maxLength: 50 },
        size: { type: 'integer', optional: true, default: 1, minimum: 0 },
      },
    });
    // NewThing is only the create's request body: no resource of its own
    expect(r.document!.resources!.NewThing).toBeUndefined();
  });
});

describe('import: query and header parameters', () => {
  const pageOf = (item: unknown) =>
    jsonBody({ type: 'object', properties: { items: { type: 'array', items: item }, next_cursor: { type: ['string', 'null'] } } });
  const withParams = doc({
    paths: {
      '/things': {
        get: {
          operationId: 'listThings',
          parameters: [
            { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 } },
            { name: 'per_page', in: 'query', schema: { type: 'integer', maximum: 100, default: 30 } },
          ],
          responses: { '200': { description: 'ok', ...pageOf(ref('Thing')) } },
        },
      },
      '/things/search': {
        get: {
          operationId: 'searchThings',
          parameters: [
            { name: 'labelSelector', in: 'query', description: 'Only things whose labels match.', schema: { type: 'string' } },
            { name: 'watch', in: 'query', deprecated: true, schema: { type: 'boolean', default: false } },
            { name: 'tag', in: 'query', required: true, schema: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } } },
            { name: 'ids', in: 'query', style: 'form', explode: false, schema: { type: 'array', items: { type: 'integer' } } },
            { name: 'filter', in: 'query', content: { 'application/json': { schema: { type: 'object', properties: { q: { type: 'string' } } } } } },
            { name: 'deep', in: 'query', style: 'deepObject', schema: { type: 'object', properties: { q: { type: 'string' } } } },
            { name: 'X-Request-Id', in: 'header', schema: { type: 'integer', minimum: 1 }, example: 0 },
            { name: 'x-request-id', in: 'header', schema: { type: 'string' } },
            { name: 'Accept', in: 'header', schema: { type: 'string' } },
            { name: 'Idempotency-Key', in: 'header', schema: { type: 'string' } },
            { name: 'api_key', in: 'query', schema: { type: 'string' } },
            { name: 'session', in: 'cookie', schema: { type: 'string' } },
          ],
          responses: { '200': { description: 'ok', ...jsonBody({ type: 'array', items: ref('Thing') }) } },
        },
      },
    },
    components: { schemas: { Thing: thing }, securitySchemes: { key: { type: 'apiKey', in: 'query', name: 'api_key' } } },
  });

  it("keeps a custom operation's query and header parameters by their names, with types and constraints", async () => {
    const r = await importOpenApiDocument(withParams, 'params.json');
    const op = r.document!.endpoints!.operations!.searchThings!;
    expect(op.query).toEqual({
      labelSelector: { type: 'string', description: 'Only things whose labels match.', optional: true },
      watch: { type: 'boolean', optional: true, default: false, deprecated: true },
      tag: { type: 'array', items: { type: 'enum', values: ['a', 'b'] } },
      ids: { type: 'array', optional: true, items: { type: 'integer' } },
      filter: { type: 'string', optional: true },
    });
    expect(op.headers).toEqual({ 'X-Request-Id': { type: 'integer', optional: true, minimum: 1 } });
    const messages = r.diagnostics.map((d) => d.message);
    for (const m of [
      'operation searchThings: query parameter `deep` has no place in a servicespec and is left out: its schema (object) cannot be written as the text of a query parameter',
      'operation searchThings: header parameter `x-request-id` has no place in a servicespec and is left out: another header of the operation has the same name in another case (header names are compared without regard to case)',
      'operation searchThings: header parameter `Accept` has no place in a servicespec and is left out: the runtime reads it itself (credentials, content negotiation, framing)',
      'operation searchThings: cookie parameter `session` has no place in a servicespec and is left out: the format has no cookie parameters',
      'operation searchThings: query parameter `ids` is imported as a repeated parameter (name=a&name=b): style form, explode false has no equivalent',
      'operation searchThings: query parameter `filter` is imported as type string: a parameter whose value is a JSON document reaches the handler as its text',
      'operation searchThings: header parameter `X-Request-Id`: example 0 has no place in a servicespec and is left out: it breaks its own schema (below minimum 1)',
    ])
      expect(messages).toContain(m);
    // the API key and the idempotency key are carried by authentication and endpoints.idempotency
    expect(messages.filter((m) => m.includes('api_key') || m.includes('Idempotency-Key'))).toEqual([]);
    expect(r.document!.endpoints!.idempotency).toEqual({ header: 'Idempotency-Key' });
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('lists whose limit defaults or maximums differ keep each its own (paging.page_size); what they share is limits.page_size', async () => {
    const pageOf = (item: unknown) =>
      jsonBody({ type: 'object', properties: { items: { type: 'array', items: item }, next_cursor: { type: ['string', 'null'] } } });
    const list = (id: string, d: number, max: number) => ({
      get: {
        operationId: id,
        parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', default: d, maximum: max } }],
        responses: { '200': { description: 'ok', ...pageOf(ref('Thing')) } },
      },
    });
    const r = await importOpenApiDocument(
      doc({ paths: { '/things': list('listThings', 10, 50), '/other': list('listOther', 20, 50) }, components: { schemas: { Thing: thing } } }),
      'limits.json',
    );
    expect(r.document!.limits).toEqual({ page_size: { max: 50, over_max: 'reject' } });
    const ops = r.document!.endpoints!.operations!;
    expect([ops.listThings!.paging?.page_size, ops.listOther!.paging?.page_size]).toEqual([{ default: 10 }, { default: 20 }]);
    expect(r.diagnostics.filter((d) => d.message.includes('page size'))).toEqual([]);
  });

  it('a page holding a next cursor, paged by page and per_page, becomes a custom operation keeping them, and says why', async () => {
    const r = await importOpenApiDocument(withParams, 'params.json');
    const op = r.document!.endpoints!.operations!.listThings!;
    expect(op).toMatchObject({
      action: 'custom',
      query: { page: { type: 'integer', optional: true, minimum: 1 }, per_page: { type: 'integer', optional: true, maximum: 100, default: 30 } },
    });
    expect(r.diagnostics.map((d) => d.message)).toContain(
      'operation `listThings` is imported as a custom operation: its page holds `next_cursor`, a next cursor, but it takes no `cursor` parameter',
    );
    expect(r.document!.limits).toBeUndefined();
  });
});

describe('import: error responses', () => {
  const problem = (description: string) => ({
    description,
    content: { 'application/json': { schema: { type: 'object', properties: { message: { type: 'string' } } } } },
  });
  const errorsDoc = doc({
    paths: {
      '/a': {
        get: {
          operationId: 'getA',
          responses: {
            '200': { description: 'ok' },
            '404': problem('No such A.'),
            '409': problem('Busy.'),
            '401': { $ref: '#/components/responses/Unauthorized' },
          },
        },
      },
      '/b': {
        get: {
          operationId: 'getB',
          responses: {
            '200': { description: 'ok' },
            '404': problem('No such B.'),
            '409': problem('Busy.'),
            '401': { $ref: '#/components/responses/Unauthorized' },
          },
        },
      },
      '/c': {
        get: {
          operationId: 'getC',
          responses: {
            '200': { description: 'ok' },
            '400': { description: 'Bad.', content: { 'application/json': { schema: { type: 'object', properties: { code: { type: 'integer' } } } } } },
          },
        },
      },
    },
    components: { responses: { Unauthorized: problem('Who are you?') } },
  });

  it("keeps each operation's own error descriptions; shares codes the document shares; reports every merge", async () => {
    const r = await importOpenApiDocument(errorsDoc, 'errors.json');
    const ops = r.document!.endpoints!.operations!;
    expect(r.document!.errors!.codes).toStrictEqual({
      not_found: { status: 404, title: 'No such A.' },
      conflict: { status: 409, title: 'Busy.', when: ['illegal_transition', 'unique_conflict', 'in_use', 'idempotency_in_progress'] },
      unauthorized: { status: 401, title: 'Who are you?', when: ['missing_credential', 'invalid_credential', 'expired_credential'] },
      not_found_2: { status: 404, title: 'No such B.' },
      // No 422 is declared: the one 400 code answers an invalid request too.
      bad_request: {
        status: 400,
        title: 'Bad.',
        when: ['validation', 'malformed_request', 'reference_not_found', 'unsupported_version', 'idempotency_conflict'],
      },
    });
    expect(ops.getA!.errors).toEqual(['unauthorized', 'not_found', 'conflict']);
    expect(ops.getB!.errors).toEqual(['unauthorized', 'not_found_2', 'conflict']);
    const merged = r.diagnostics.filter((d) => d.code === 'import-errors-merged').map((d) => d.message);
    expect(merged).toEqual([
      'the error body at /paths/~1c/get/responses/400: merged into the one at /paths/~1a/get/responses/401 (a spec has one error body for every error code; this one differs from it)',
      'the inline 409 responses of operations getA, getB: merged into error code conflict (they have the same status and description, “Busy.”)',
    ]);
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
});

describe('import: schemas', () => {
  it('reads 3.0 nullable and boolean exclusive bounds, 3.1 type arrays and anyOf-with-null, merges allOf', async () => {
    const schemas = {
      A: {
        type: 'object',
        properties: {
          n30: { type: 'string', nullable: true },
          ex30: { type: 'number', minimum: 0, exclusiveMinimum: true },
          e30: { type: 'string', enum: ['a', 'b', null], nullable: true },
        },
      },
    };
    const r30 = await importOpenApiDocument({ ...doc({}, '3.0.3'), components: { schemas } }, 'a.json');
    expect(r30.document!.resources!.A!.fields).toEqual({
      n30: { type: 'string', optional: true, nullable: true },
      ex30: { type: 'number', optional: true, exclusiveMinimum: 0 },
      e30: { type: 'enum', optional: true, nullable: true, values: ['a', 'b'] },
    });
    const r31 = await importOpenApiDocument(
      doc({
        components: {
          schemas: {
            Base: { type: 'object', required: ['a'], properties: { a: { type: 'string' } } },
            B: {
              allOf: [
                ref('Base'),
                {
                  type: 'object',
                  required: ['b'],
                  properties: { b: { type: ['integer', 'null'], examples: [3] }, c: { anyOf: [ref('Base'), { type: 'null' }] } },
                },
              ],
            },
          },
        },
      }),
      'b.json',
    );
    expect(r31.document!.resources!.B!.fields).toEqual({
      a: { type: 'string' },
      b: { type: 'integer', nullable: true, example: 3 },
      c: { type: 'object', optional: true, nullable: true, fields: { a: { type: 'string' } } },
    });
  });

  it('turns what has no field type into json and says why: a self-reference, a oneOf; a map of one value schema is a map', async () => {
    const r = await importOpenApiDocument(
      doc({
        components: {
          schemas: {
            Node: {
              type: 'object',
              properties: {
                child: ref('Node'),
                labels: { type: 'object', additionalProperties: { type: 'string' } },
                either: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
              },
            },
          },
        },
      }),
      'n.json',
    );
    expect(r.document!.resources!.Node!.fields).toEqual({
      child: { type: 'json', optional: true },
      labels: { type: 'map', items: { type: 'string' }, optional: true },
      either: { type: 'json', optional: true },
    });
    const why = r.diagnostics.filter((d) => d.code === 'import-approximated').map((d) => d.message);
    expect(why).toEqual([expect.stringContaining('refers back to itself'), expect.stringContaining('a choice of schemas (oneOf)')]);
  });

  it('keeps names on the wire exactly (camelCase fields, webhook kinds, lowercase schemas), checking with name-style warnings only', async () => {
    const r = await importOpenApiDocument(
      doc({
        webhooks: { 'paymentMethod.created': { post: { requestBody: jsonBody(ref('pullrequest')), responses: { '200': { description: 'ok' } } } } },
        components: {
          schemas: {
            pullrequest: {
              type: 'object',
              required: ['apiVersion'],
              properties: { apiVersion: { type: 'string' }, createdAt: { type: 'string', format: 'date-time' }, _links: { type: 'string' } },
            },
          },
        },
      }),
      'w.json',
    );
    expect(r.diagnostics.filter((d) => d.code === 'import-renamed')).toEqual([]);
    expect(r.document!.resources!.pullrequest!.fields).toEqual({
      apiVersion: { type: 'string' },
      createdAt: { type: 'datetime', optional: true },
      _links: { type: 'string', optional: true },
    });
    expect(Object.keys(r.document!.events!.kinds!)).toEqual(['paymentMethod.created']);
    const checked = r.compiled!.diagnostics;
    expect(checked.filter((d) => d.severity === 'error')).toEqual([]);
    // The API's own names: said once by the import, and the spec turns name-style off, so check says nothing of them.
    expect(checked.filter((d) => d.code === 'name-style')).toEqual([]);
    expect(r.document!.check).toEqual({ disable: ['name-style'] });
    expect(r.diagnostics.filter((d) => d.code === 'import-names-kept').map((d) => d.message)).toEqual([
      "names not in the format's naming style (4: `pullrequest`, `apiVersion`, `createdAt`, …) are the API's names on the wire: kept as written, with the name-style warning turned off (check: { disable: [name-style] })",
    ]);
    const again = compileSpecText(specToYaml({ ...r.document!, check: {} }));
    expect(again.diagnostics.filter((d) => d.code === 'name-style').map((d) => d.message)).toEqual([
      "pullrequest: resource name `pullrequest` is not PascalCase, the format's naming style; it is kept as written (it is the name on the wire)",
      "pullrequest.apiVersion: field name `apiVersion` is not snake_case, the format's naming style; it is kept as written (it is the name on the wire)",
      "pullrequest.createdAt: field name `createdAt` is not snake_case, the format's naming style; it is kept as written (it is the name on the wire)",
      "event paymentMethod.created: event kind name `paymentMethod.created` is not lowercase dot-separated segments, the format's naming style; it is kept as written (it is the name on the wire)",
    ]);
  });

  it('renames only what the format cannot hold, and reports every change that reaches the wire', async () => {
    const r = await importOpenApiDocument(
      doc({ components: { schemas: { 'io.example.v1.Widget': { type: 'object', properties: { 'created-at': { type: 'string', format: 'date-time' } } } } } }),
      'w.json',
    );
    expect(r.document!.resources!['io.example.v1.Widget']!.fields).toEqual({ created_at: { type: 'datetime', optional: true } });
    expect(r.diagnostics.filter((d) => d.code === 'import-renamed').length).toBe(1);
    expect(toResourceName('pet-store')).toBe('pet-store');
    expect(toResourceName('_links')).toBe('Links');
    expect(toOperationId('find pets by id')).toBe('find pets by id');
    expect(toOperationId(' find\tpets ')).toBe('findPets');
    expect(toResourceName('pullrequest')).toBe('pullrequest');
    expect(toFieldName('HTTPStatus')).toBe('HTTPStatus');
    expect(toFieldName('Content-Type')).toBe('content_type');
    expect(toFieldName('2fa')).toBe('_2fa');
    expect(toFieldName('__proto__')).toBe('proto');
    expect(toIdentifier('find pets by id')).toBe('findPetsById');
    expect(toEventKindName('Order.Paid')).toBe('Order.Paid');
    expect(toEventKindName('order-paid')).toBe('order_paid');
  });
});

describe('import: authentication', () => {
  it('maps API keys, HTTP basic and bearer, client credentials, and approximates other OAuth2 flows as bearer', async () => {
    const r = await importOpenApiDocument(
      doc({
        security: [{ key: [] }, { oauth: ['things:read'] }],
        paths: { '/x': { get: { operationId: 'x', security: [], responses: { '200': { description: 'ok' } } } } },
        components: {
          securitySchemes: {
            key: { type: 'apiKey', in: 'header', name: 'X-Key' },
            cookie: { type: 'apiKey', in: 'cookie', name: 'sid' },
            basic: { type: 'http', scheme: 'basic' },
            jwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
            m2m: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/oauth/token', scopes: { 'things:write': 'Write things' } } } },
            oauth: {
              type: 'oauth2',
              flows: {
                authorizationCode: {
                  authorizationUrl: 'https://id.example.com/auth',
                  tokenUrl: 'https://id.example.com/token',
                  scopes: { 'things:read': 'Read things' },
                },
              },
            },
          },
        },
      }),
      's.json',
    );
    const auth = r.document!.authentication!;
    expect(auth.schemes).toEqual({
      key: { type: 'api_key', in: 'header', name: 'X-Key' },
      basic: { type: 'basic' },
      jwt: { type: 'bearer', token: 'jwt' },
      m2m: { type: 'oauth2_client_credentials', token_path: '/oauth/token' },
      oauth: { type: 'bearer' },
    });
    expect(auth.scopes).toEqual({ 'things:write': 'Write things', 'things:read': 'Read things' });
    expect(auth.default).toEqual({ schemes: ['key', 'oauth'], scopes: ['things:read'] });
    expect(r.document!.endpoints!.operations!.x!.auth).toBe('none');
    const codes = r.diagnostics.map((d) => `${d.code} ${d.message}`);
    expect(codes.some((c) => c.startsWith('import-dropped security scheme cookie'))).toBe(true);
    expect(codes.some((c) => c.startsWith('import-approximated security scheme oauth'))).toBe(true);
  });
});

describe('import: files, references and bad input', () => {
  it('reads YAML and JSON, and bundles $refs to other files', async () => {
    const dir = join(tmp.path, 'multi');
    mkdirSync(join(dir, 'schemas'), { recursive: true });
    writeFileSync(join(dir, 'schemas', 'thing.yaml'), stringify(thing));
    const main = {
      ...crud,
      components: {
        ...(crud.components as Json),
        schemas: { Thing: { $ref: './schemas/thing.yaml' }, NewThing: (crud.components as { schemas: Json }).schemas.NewThing },
      },
    };
    writeFileSync(join(dir, 'api.yaml'), stringify(main));
    writeFileSync(join(dir, 'api.json'), JSON.stringify(main));
    for (const f of ['api.yaml', 'api.json']) {
      const r = await importOpenApiFile(join(dir, f));
      expect(r.diagnostics.filter((d) => d.severity === 'error' || d.code === 'import-invalid-openapi')).toEqual([]);
      expect(r.document!.endpoints!.operations!.getThing).toMatchObject({ action: 'read', resource: 'Thing' });
      expect(Object.keys(r.document!.resources!.Thing!.fields!)).toEqual(['id', 'name', 'size']);
    }
  });

  it('refuses what is not OpenAPI 3 with one clear diagnostic, never a stack trace', async () => {
    const cases: [string, string, string][] = [
      ['swagger.yaml', 'swagger: "1.2"\ninfo: { title: x, version: "1" }\npaths: {}\n', 'it is Swagger 1.2; Swagger 2.0 and OpenAPI 3.0 and 3.1 are read'],
      ['old.yaml', 'openapi: 2.5.0\ninfo: { title: x, version: "1" }\npaths: {}\n', 'OpenAPI 2.5.0 is not supported'],
      ['list.yaml', '- a\n- b\n', 'not a mapping'],
      ['noversion.yaml', 'info: { title: x }\n', 'no `openapi` version field'],
      ['broken.json', '{ "openapi": "3.1.0", ', 'neither YAML nor JSON'],
    ];
    for (const [name, text, expected] of cases) {
      writeFileSync(join(tmp.path, name), text);
      const r = await importOpenApiFile(join(tmp.path, name));
      expect(r.document).toBeUndefined();
      expect(r.diagnostics).toHaveLength(1);
      expect(r.diagnostics[0]).toMatchObject({ code: expect.stringMatching(/^import-not-openapi$/), severity: 'error' });
      expect(r.diagnostics[0]!.message).toContain(expected);
    }
    expect((await importOpenApiFile(join(tmp.path, 'missing.yaml'))).diagnostics[0]!.code).toBe('file-not-found');
    expect((await importOpenApiFile(tmp.path)).diagnostics[0]!.code).toBe('file-is-directory');
  });

  it('imports what it can from an invalid document, saying it does not validate', async () => {
    const r = await importOpenApiDocument(
      { openapi: '3.1.0', info: { title: 'No version' }, paths: { '/a': { get: { operationId: 'a', responses: { '200': { description: 'ok' } } } } } },
      'bad.json',
    );
    expect(r.diagnostics[0]).toMatchObject({ code: 'import-invalid-openapi', severity: 'warning' });
    expect(r.document!.endpoints!.operations!.a).toMatchObject({ method: 'GET', path: '/a', action: 'custom' });
  });

  it('never follows a $ref over the network: nothing is imported, and the error names the reference and where it is', async () => {
    const file = join(tmp.path, 'remote.yaml');
    writeFileSync(file, stringify(doc({ components: { schemas: { Remote: { $ref: 'http://127.0.0.1:9/remote.yaml' }, Local: thing } } })));
    const r = await importOpenApiFile(file);
    expect(r.document).toBeUndefined();
    expect(r.diagnostics).toEqual([
      {
        code: 'import-unresolved-ref',
        severity: 'error',
        message:
          'the $ref `http://127.0.0.1:9/remote.yaml` at /components/schemas/Remote cannot be followed (a reference over the network is not followed: save the file beside the document and point the $ref at it); nothing was imported, as what it points to would be left out',
        file,
        pointer: '/components/schemas/Remote',
      },
    ]);
  });

  it('a $ref to a file that is not there, or to a fragment its file lacks: an error per reference, nothing imported (exit 1, nothing written)', async () => {
    const dir = join(tmp.path, 'broken-refs');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'thing.yaml'), stringify({ Thing: thing }));
    const main = doc({
      paths: {
        '/things': {
          get: {
            operationId: 'listThings',
            responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: './missing.yaml#/Thing' } } } } },
          },
        },
        '/things/{id}': { $ref: './paths/thing.yaml' },
      },
    });
    writeFileSync(join(dir, 'api.yaml'), stringify(main));
    const r = await importOpenApiFile(join(dir, 'api.yaml'));
    expect(r.document).toBeUndefined();
    expect(r.diagnostics.map((d) => [d.code, d.pointer, d.message.match(/\(([^)]*)\)/)?.[1]])).toEqual([
      ['import-unresolved-ref', '/paths/~1things/get/responses/200/content/application~1json/schema', `no file ${join(dir, 'missing.yaml')}`],
      ['import-unresolved-ref', '/paths/~1things~1{id}', `no file ${join(dir, 'paths', 'thing.yaml')}`],
    ]);
    // A fragment the file does not hold: the bundler's own words, still an error.
    writeFileSync(join(dir, 'api2.yaml'), stringify(doc({ components: { schemas: { T: { $ref: './thing.yaml#/Nothing' } } } })));
    const r2 = await importOpenApiFile(join(dir, 'api2.yaml'));
    expect(r2.document).toBeUndefined();
    expect(r2.diagnostics).toHaveLength(1);
    expect(r2.diagnostics[0]).toMatchObject({ code: 'import-unresolved-ref', severity: 'error' });
    expect(r2.diagnostics[0]!.message).toContain('Nothing');
    // The CLI: exit 1, the output not written.
    const out = join(dir, 'out.yaml');
    const cli = await runCli(['import', 'openapi', join(dir, 'api.yaml'), '-o', out]);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain('error import-unresolved-ref');
    expect(existsSync(out)).toBe(false);
  });

  it('--quiet prints errors only: no gap report, no warnings, no summary', async () => {
    const out = join(tempDir('import-quiet-').path, 'out.yaml');
    const loud = await runCli(['import', 'openapi', join(OPENAPI_FIXTURES, 'oai-petstore.yaml'), '-o', out]);
    expect(loud.code).toBe(0);
    expect(loud.stdout).toContain('parts shown');
    const quiet = await runCli(['import', 'openapi', join(OPENAPI_FIXTURES, 'oai-petstore.yaml'), '-o', out, '-q']);
    expect(quiet.code).toBe(0);
    expect([quiet.stdout, quiet.stderr]).toEqual(['', '']);
    expect(existsSync(out)).toBe(true);
  });

  it('ignores an x-servicespec-* extension that does not fit the format, and says so', async () => {
    const r = await importOpenApiDocument(doc({ 'x-servicespec-limits': { page_size: { default: 'lots' } } }), 'x.json');
    expect(r.document!.limits).toBeUndefined();
    expect(r.diagnostics.find((d) => d.code === 'import-extension-invalid')?.message).toContain('x-servicespec-limits');
  });
});
