import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { importOpenApiDocument, importOpenApiFile } from '../../src/import/import-openapi.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { OPENAPI_FIXTURES } from '../export/helpers.js';
import { callJson } from '../support/http.js';

// Declared error bodies through import: an OpenAPI error schema becomes errors.body (with the fields that carry the
// code, status and message), a `default` response is kept (the export writes it on every operation), and the
// imported petstore answers its errors as its document declares them: { code: <integer>, message }.

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const deref = (root: Json, n: unknown): unknown => {
  for (let i = 0; i < 16 && isObj(n) && typeof n.$ref === 'string'; i++)
    n = n.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>((x, t) => (isObj(x) ? x[t.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), root);
  return n;
};
const read = (file: string): Json => {
  const text = readFileSync(join(OPENAPI_FIXTURES, file), 'utf8');
  return (file.endsWith('.json') ? JSON.parse(text) : parseYaml(text)) as Json;
};
/** Every operation's `default` response: `METHOD path` → the response object (dereferenced). */
const defaults = (doc: Json): Map<string, Json> => {
  const out = new Map<string, Json>();
  for (const [path, item] of Object.entries(isObj(doc.paths) ? doc.paths : {})) {
    for (const [m, op] of Object.entries(deref(doc, item) as Json)) {
      if (isObj(op) && isObj(op.responses) && op.responses.default !== undefined)
        out.set(`${m.toUpperCase()} ${path}`, deref(doc, op.responses.default) as Json);
    }
  }
  return out;
};
const files = readdirSync(OPENAPI_FIXTURES).filter((f) => /\.(ya?ml|json)$/.test(f));

describe('error bodies through import', () => {
  it('petstore: the Error schema becomes the declared body; every `default` is kept, with that schema, and nothing is reported dropped', async () => {
    const r = await importOpenApiFile(join(OPENAPI_FIXTURES, 'oai-petstore.yaml'));
    // Its `code: integer` lists no values: which one each code writes is petstore's own (code_values: unstated); its
    // schema leaves the object open (answer_members: open). Its `format: int32` is the range it states.
    expect(r.document!.errors!.body).toEqual({
      fields: { code: { type: 'integer', minimum: -2147483648, maximum: 2147483647 }, message: { type: 'string' } },
      code_values: 'unstated',
      answer_members: 'open',
    });
    expect(r.diagnostics.filter((d) => d.pointer?.endsWith('/responses/default'))).toEqual([]);
    const out = exportOpenApi(r.compiled!.checked!).document as Json;
    const back = defaults(out);
    expect([...back.keys()].sort()).toEqual(['GET /pets', 'GET /pets/{petId}', 'POST /pets']);
    for (const response of back.values()) {
      const content = response.content as Json;
      expect(Object.keys(content)).toEqual(['application/json']);
      const schema = deref(out, (content['application/json'] as Json).schema) as Json;
      expect(schema.type).toBe('object');
      expect(schema.required).toEqual(['code', 'message']);
      expect((schema.properties as Json).code).toMatchObject({ type: 'integer' });
      expect((schema.properties as Json).message).toMatchObject({ type: 'string' });
    }
  });

  for (const file of files) {
    it(`${file}: every \`default\` response comes back from import → export`, async () => {
      const source = defaults(read(file));
      const r = await importOpenApiFile(join(OPENAPI_FIXTURES, file));
      const back = defaults(exportOpenApi(r.compiled!.checked!).document as Json);
      for (const key of source.keys()) expect(back.has(key), key).toBe(true);
      expect(r.diagnostics.filter((d) => d.pointer?.endsWith('/responses/default'))).toEqual([]);
    });
  }

  it('adyen: the field that carries the code is named (errorCode), the status and message fields are found by their names', async () => {
    const r = await importOpenApiFile(join(OPENAPI_FIXTURES, 'adyen-dispute-v30.json'));
    const body = r.document!.errors!.body as unknown as Json;
    expect(body.code).toBe('errorCode');
    expect(body.status).toBeUndefined();
    expect(body.message).toBeUndefined();
    expect(Object.keys(body.fields as Json)).toEqual(expect.arrayContaining(['errorCode', 'message', 'status']));
  });

  it('the imported petstore, served, answers its errors as { code: <integer status>, message }', async () => {
    const r = await importOpenApiFile(join(OPENAPI_FIXTURES, 'oai-petstore.yaml'));
    const dir = mkdtempSync(join(tmpdir(), 'servicespec-petstore-'));
    const app = await createService(r.compiled!.checked!, {
      storage: createSqliteStorage({ path: join(dir, 'pets.db'), synchronous: 'normal' }),
      allowGaps: true,
    });
    try {
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      const missing = await callJson(url, 'GET', '/pets/12345');
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(Object.keys(missing.body)).toEqual(['code', 'message']);
      expect(missing.body.code).toBe(404);
      const invalid = await callJson(url, 'POST', '/pets', { id: 'not a number', name: 1 });
      expect(invalid.status).toBe(422);
      expect(Object.keys(invalid.body)).toEqual(['code', 'message']);
      expect(invalid.body.code).toBe(422);
      const nowhere = await callJson(url, 'DELETE', '/nowhere');
      expect(nowhere.body).toEqual({ code: 404, message: nowhere.body.message });
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a nested error object ({ error: { code, message } }, as Stripe, Google and Microsoft answer) names its roles by path, and is served as declared', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'servicespec-nested-error-'));
    const error = { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    const doc = {
      openapi: '3.0.3',
      info: { title: 'Todo', version: '1' },
      paths: {
        '/todos/{id}': {
          get: {
            operationId: 'getTodo',
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            responses: { '200': { description: 'OK', content: { 'application/json': { schema: { $ref: '#/components/schemas/Todo' } } } }, '404': error },
          },
        },
      },
      components: {
        schemas: {
          Todo: { type: 'object', required: ['id', 'title'], properties: { id: { type: 'string', readOnly: true }, title: { type: 'string' } } },
          Error: {
            type: 'object',
            required: ['error'],
            properties: {
              error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } },
            },
          },
        },
      },
    };
    writeFileSync(join(dir, 'todo.json'), JSON.stringify(doc));
    const r = await importOpenApiFile(join(dir, 'todo.json'));
    const body = r.document!.errors!.body as unknown as Json;
    expect(body.code).toBe('error.code');
    expect(body.message).toBe('error.message');
    expect(r.compiled!.diagnostics.filter((d) => d.code.startsWith('error-body'))).toEqual([]);
    const app = await createService(r.compiled!.checked!, {
      storage: createSqliteStorage({ path: join(dir, 'todo.db'), synchronous: 'normal' }),
      allowGaps: true,
    });
    try {
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      const missing = await callJson(url, 'GET', '/todos/nope');
      expect(missing.status).toBe(404);
      expect(Object.keys(missing.body)).toEqual(['error']);
      expect(Object.keys(missing.body.error)).toEqual(['code', 'message']);
      // The document's one 404 code answers missing_resource (docs/import.md, "Error responses"), where the code was
      // the condition's name (the document says no code's condition).
      expect(missing.body.error.code).toBe('not_found');
      expect(typeof missing.body.error.message).toBe('string');
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("served, an invalid body is answered with the document's one 400, not the format's 422 it never lists", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'servicespec-import-400-'));
    const bad = { description: 'Bad request', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    const todo = { 'application/json': { schema: { $ref: '#/components/schemas/Todo' } } };
    const doc = {
      openapi: '3.0.3',
      info: { title: 'Todo', version: '1' },
      paths: {
        '/todos': {
          post: {
            operationId: 'createTodo',
            requestBody: { required: true, content: todo },
            responses: { '201': { description: 'Made', content: todo }, '400': bad },
          },
        },
        '/todos/{id}': {
          get: {
            operationId: 'getTodo',
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            responses: { '200': { description: 'OK', content: todo } },
          },
        },
      },
      components: {
        schemas: {
          Todo: { type: 'object', required: ['id', 'title'], properties: { id: { type: 'string', readOnly: true }, title: { type: 'string', maxLength: 10 } } },
          Error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } },
        },
      },
    };
    writeFileSync(join(dir, 'todo.json'), JSON.stringify(doc));
    const r = await importOpenApiFile(join(dir, 'todo.json'));
    expect(r.document!.errors!.codes).toEqual({
      bad_request: {
        status: 400,
        title: 'Bad request',
        when: ['validation', 'malformed_request', 'reference_not_found', 'unsupported_version', 'idempotency_conflict'],
      },
    });
    const app = await createService(r.compiled!.checked!, {
      storage: createSqliteStorage({ path: join(dir, 'todo.db'), synchronous: 'normal' }),
      allowGaps: true,
    });
    try {
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      for (const body of [{ title: 'far too long a title' }, {}, { title: 7 }]) {
        const res = await callJson(url, 'POST', '/todos', body);
        expect([res.status, res.body.code], JSON.stringify(body)).toEqual([400, 'bad_request']);
      }
      expect((await callJson(url, 'POST', '/todos', { title: 'ok' })).status).toBe(201);
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the values of an imported code field', () => {
  const doc = (code: Json) => ({
    openapi: '3.1.0',
    info: { title: 'Helpdesk', version: '1' },
    paths: {
      '/tickets/{id}': {
        get: {
          operationId: 'getTicket',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
          responses: {
            '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Ticket' } } } },
            '404': { $ref: '#/components/responses/NotFound' },
          },
        },
      },
    },
    components: {
      schemas: {
        Ticket: { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid', readOnly: true } } },
        Error: {
          type: 'object',
          required: ['error'],
          properties: { error: { type: 'object', required: ['code', 'message'], properties: { code, message: { type: 'string' } } } },
        },
      },
      responses: { NotFound: { description: 'no such ticket', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } } },
    },
  });

  it('are unstated where the document lists none (a string), and the names where it lists them (an enum)', async () => {
    const free = await importOpenApiDocument(doc({ type: 'string' }));
    expect(free.document!.errors!.body).toMatchObject({ code: 'error.code', code_values: 'unstated' });
    expect(free.compiled!.model!.errors!.body).toMatchObject({ kind: 'declared', codeValues: 'unstated' });
    const listed = await importOpenApiDocument(doc({ type: 'string', enum: ['not_found'] }));
    expect(listed.document!.errors!.body).toMatchObject({ code: 'error.code' });
    expect((listed.document!.errors!.body as { code_values?: string }).code_values).toBeUndefined();
  });
});

describe('an error code field listing the document own values', () => {
  it('that are not the names the import gives the codes: a string whose values are not stated, said, not a refused import', async () => {
    const error = {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string', enum: ['validation_failed', 'no_such_book'] }, message: { type: 'string' } },
    };
    const err = (d: string) => ({ description: d, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
    const r = await importOpenApiDocument(
      {
        openapi: '3.0.3',
        info: { title: 'Library', version: '1' },
        paths: {
          '/books/{id}': {
            get: {
              operationId: 'getBook',
              parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
              responses: {
                '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' } } } } } },
                '404': err('No such book'),
                '422': err('Invalid'),
              },
            },
          },
        },
        components: { schemas: { Error: error } },
      },
      'library.json',
    );
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.document!.errors!.body).toMatchObject({ fields: { code: { type: 'string' } }, code_values: 'unstated' });
    const said = r.diagnostics.find((d) => d.code === 'import-approximated' && d.message.startsWith("the error body's code field `code`"));
    expect(said?.message).toContain(
      '(an enum of "validation_failed", "no_such_book") is imported as a string whose value for each code the spec does not state',
    );
  });
});
