import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDefaultItem, formatGapItem, getGapReport } from '../../src/check/check-gaps.js';
import { compileSpecText } from '../../src/program.js';
import type { CheckedModel } from '../../src/model/model-types.js';
import { ServiceError } from '../../src/runtime/runtime-errors.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import type { Authenticator } from '../../src/runtime/runtime-context.js';
import { createPostgresStorage } from '../../src/runtime/storage/storage-postgres.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import type { Storage } from '../../src/runtime/storage/storage-types.js';
import { callJson } from '../support/http.js';
import { dropTestSchema, getTestSchemaUrl } from '../support/postgres.js';

// Declared error bodies (errors.body with code/status/message and media_type): every answer the runtime makes —
// validation, not found, no route, another method, a body too large, headers too large, rate limited, a missing
// credential — is in the declared shape with the declared media type, over real HTTP on SQLite and PostgreSQL.

// petstore's Error: { code: integer, message: string }, both required: the code field gets each code's status.
const PETSTORE = `
servicespec: 1
resources:
  Pet:
    fields:
      id: { type: integer, readOnly: true }
      name: { type: string, maxLength: 10 }
endpoints:
  operations:
    createPet: { method: POST, path: /pets, action: create, resource: Pet }
    listPets: { method: GET, path: /pets, action: list, resource: Pet, paging: { style: limit, body: array } }
    showPet: { method: GET, path: "/pets/{id}", action: read, resource: Pet }
    deletePet: { method: DELETE, path: "/pets/{id}", action: delete, resource: Pet, auth: { schemes: [key] } }
authentication:
  default: none
  schemes:
    key: { type: api_key, name: X-Api-Key }
errors:
  body:
    fields:
      code: { type: integer }
      message: { type: string }
    media_type: application/vnd.pets.error+json
  codes:
    invalid: { status: 422, when: [validation] }
    bad: { status: 400, when: [malformed_request, unsupported_media_type] }
    missing: { status: 404, when: [missing_resource, route_not_found] }
    method: { status: 405, when: [method_not_allowed] }
    unauthorized: { status: 401, when: [missing_credential, invalid_credential] }
    too_large: { status: 413, when: [body_too_large] }
    headers: { status: 431, when: [headers_too_large] }
    slow_down: { status: 429, when: [rate_limited] }
    conflict: { status: 409, when: [unique_conflict, in_use] }
    broken: { status: 500, when: [internal] }
limits:
  body_size: 200
  header_size: 2KiB
  page_size: { default: 10, max: 10 }
  rate:
    - { name: lists, requests: 2, per: 1h, by: global, operations: [listPets] }
`;

// Named fields: the code as text in `error_code`, the status in `http_status`, the message in `description`.
const NAMED = `
servicespec: 1
resources:
  Pet:
    fields:
      id: { type: integer, readOnly: true }
      name: { type: string, maxLength: 10 }
endpoints:
  operations:
    createPet: { method: POST, path: /pets, action: create, resource: Pet }
    showPet: { method: GET, path: "/pets/{id}", action: read, resource: Pet }
authentication:
  default: none
errors:
  body:
    fields:
      error_code: { type: enum, values: [invalid, missing, bad, method, broken, conflict] }
      http_status: { type: integer }
      description: { type: string }
      errors: { type: json, optional: true }
    code: error_code
    status: http_status
    message: description
  codes:
    invalid: { status: 422, when: [validation] }
    bad: { status: 400, when: [malformed_request, unsupported_media_type] }
    missing: { status: 404, when: [missing_resource, route_not_found] }
    method: { status: 405, when: [method_not_allowed] }
    conflict: { status: 409, when: [unique_conflict] }
    broken: { status: 500, when: [internal] }
`;

// Nested, as Stripe answers: { error: { code, message, details, request_id } } beside a top-level `status`; the
// roles are named by their paths, and the extras are filled by name inside the object the roles are in.
const NESTED = `
servicespec: 1
resources:
  Pet:
    fields:
      id: { type: integer, readOnly: true }
      name: { type: string, maxLength: 10 }
endpoints:
  operations:
    createPet: { method: POST, path: /pets, action: create, resource: Pet }
    showPet: { method: GET, path: "/pets/{id}", action: read, resource: Pet }
authentication:
  default: none
errors:
  body:
    fields:
      error:
        type: object
        fields:
          code: { type: string }
          message: { type: string }
          details: { type: json, optional: true }
          request_id: { type: string, optional: true }
      status: { type: integer }
    code: error.code
    message: error.message
  codes:
    invalid: { status: 422, when: [validation] }
    bad: { status: 400, when: [malformed_request, unsupported_media_type] }
    missing: { status: 404, when: [missing_resource, route_not_found] }
    method: { status: 405, when: [method_not_allowed] }
    conflict: { status: 409, when: [unique_conflict] }
    broken: { status: 500, when: [internal] }
`;

function compile(text: string): CheckedModel {
  const c = compileSpecText(text);
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return c.checked!;
}

interface Served {
  url: string;
  close(): Promise<void>;
}

async function serve(model: CheckedModel, db: 'sqlite' | 'postgres'): Promise<Served> {
  const dir = mkdtempSync(join(tmpdir(), 'servicespec-errbody-'));
  const schema = db === 'postgres' ? getTestSchemaUrl() : undefined;
  const storage: Storage =
    schema !== undefined ? createPostgresStorage({ url: schema, poolSize: 2 }) : createSqliteStorage({ path: join(dir, 'service.db'), synchronous: 'normal' });
  // The key scheme's credentials are checked by a stand-in that refuses every request: only its refusal's body is tested.
  const authenticator: Authenticator = {
    authenticate(request) {
      throw new ServiceError(request.headers['x-api-key'] === undefined ? 'missing_credential' : 'invalid_credential', 'no such key');
    },
  };
  const app = await createService(model, { storage, allowGaps: true, authenticator });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    async close() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
      if (schema !== undefined) await dropTestSchema(schema);
    },
  };
}

/** A request whose headers are larger than the limit, answered by Node's http server (the raw path). */
function bigHeaders(url: string): Promise<{ status: number; type: string; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/pets`, { method: 'GET', headers: { 'x-filler': 'a'.repeat(4096) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

for (const db of ['sqlite', 'postgres'] as const) {
  describe(`declared error bodies (${db})`, () => {
    let pets: Served;
    let named: Served;
    let nested: Served;
    beforeAll(async () => {
      pets = await serve(compile(PETSTORE), db);
      named = await serve(compile(NAMED), db);
      nested = await serve(compile(NESTED), db);
    });
    afterAll(async () => {
      await pets?.close();
      await named?.close();
      await nested?.close();
    });

    it('petstore: every built-in answer is { code: <status>, message } as the declared media type', async () => {
      const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => callJson(pets.url, method, path, body, headers);
      const cases: [Promise<Awaited<ReturnType<typeof call>>>, number, string][] = [
        [call('POST', '/pets', { name: 'much too long a name' }), 422, 'the request body is not valid'],
        [call('GET', '/pets/99'), 404, ''],
        [call('GET', '/nowhere'), 404, ''],
        [call('PATCH', '/pets/1'), 405, ''],
        [call('DELETE', '/pets/1'), 401, ''],
        [call('POST', '/pets', '{"name": '), 400, ''],
        [call('POST', '/pets', 'x', { 'content-type': 'text/plain' }), 400, ''],
        [call('POST', '/pets', { name: 'x'.repeat(300) }), 413, ''],
      ];
      for (const [pending, status] of cases) {
        const r = await pending;
        expect(r.status).toBe(status);
        expect(r.headers.get('content-type')).toBe('application/vnd.pets.error+json; charset=utf-8');
        expect(Object.keys(r.body)).toEqual(['code', 'message']);
        expect(r.body.code).toBe(status);
        expect(typeof r.body.message).toBe('string');
      }
      const invalid = await call('POST', '/pets', { name: 'much too long a name' });
      expect(invalid.body).toEqual({ code: 422, message: invalid.body.message });
      expect(invalid.body.message.length).toBeGreaterThan(0);
    });

    it('petstore: rate limited and headers too large are in the declared shape too', async () => {
      expect((await callJson(pets.url, 'GET', '/pets')).status).toBe(200);
      expect((await callJson(pets.url, 'GET', '/pets')).status).toBe(200);
      const limited = await callJson(pets.url, 'GET', '/pets');
      expect(limited.status).toBe(429);
      expect(limited.headers.get('content-type')).toBe('application/vnd.pets.error+json; charset=utf-8');
      expect(Object.keys(limited.body)).toEqual(['code', 'message']);
      expect(limited.body.code).toBe(429);
      const big = await bigHeaders(pets.url);
      expect(big.status).toBe(431);
      expect(big.type).toBe('application/vnd.pets.error+json');
      expect(big.body).toEqual({ code: 431, message: 'the request headers are too large' });
    });

    it('named fields: the code as text, the status and the message where the spec says', async () => {
      const missing = await callJson(named.url, 'GET', '/pets/7');
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(missing.body).toEqual({ error_code: 'missing', http_status: 404, description: missing.body.description });
      const invalid = await callJson(named.url, 'POST', '/pets', { name: 'much too long a name' });
      expect(invalid.status).toBe(422);
      expect(invalid.body).toMatchObject({ error_code: 'invalid', http_status: 422 });
      expect(invalid.body.errors).toEqual([expect.objectContaining({ pointer: '/name' })]);
      const method = await callJson(named.url, 'PUT', '/pets/7', { name: 'a' });
      expect(method.status).toBe(405);
      expect(method.body).toEqual({ error_code: 'method', http_status: 405, description: method.body.description });
    });

    it('nested fields: the code and message inside `error` (error.code, error.message), the extras by name beside them', async () => {
      const missing = await callJson(nested.url, 'GET', '/pets/7');
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ error: { code: 'missing', message: missing.body.error.message, request_id: expect.any(String) }, status: 404 });
      expect(missing.body.error.request_id).toBe(missing.headers.get('x-request-id'));
      const invalid = await callJson(nested.url, 'POST', '/pets', { name: 'much too long a name' });
      expect(invalid.status).toBe(422);
      expect(invalid.body).toMatchObject({ error: { code: 'invalid' }, status: 422 });
      expect(invalid.body.error.details).toEqual([expect.objectContaining({ pointer: '/name' })]);
      const route = await callJson(nested.url, 'GET', '/nowhere');
      expect(route.body).toMatchObject({ error: { code: 'missing' }, status: 404 });
      const malformed = await callJson(nested.url, 'POST', '/pets', '{"name": ');
      expect(malformed.status).toBe(400);
      expect(Object.keys(malformed.body)).toEqual(['error', 'status']);
      expect(malformed.body.error.code).toBe('bad');
    });
  });
}

// RFC 9457's members, as a document without a `code` member declares them: `type` with its default is written with
// it on every answer (no role or name-filled field holds it), and check does not call it unfilled.
describe('a declared problem body whose type has a default', () => {
  const SPEC = `
servicespec: 1
resources:
  Note:
    fields:
      id: { type: uuid, readOnly: true }
      text: { type: string }
endpoints:
  operations:
    readNote: { method: GET, path: "/notes/{id}", action: read, resource: Note }
authentication:
  default: none
errors:
  body:
    media_type: application/problem+json
    fields:
      type: { type: string, default: about:blank }
      title: { type: string }
      status: { type: integer }
      detail: { type: string, optional: true }
  codes:
    not_found: { status: 404, when: [missing_resource, route_not_found] }
    invalid: { status: 422, when: [validation, malformed_request, unsupported_media_type] }
`;
  it('answers type: about:blank beside the title and status', async () => {
    const c = compileSpecText(SPEC);
    expect(c.diagnostics.map((d) => d.code)).not.toContain('error-body-field-unfilled');
    const app = await createService(c.checked!, { storage: createSqliteStorage({ path: ':memory:' }), allowGaps: true });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      for (const path of ['/notes/00000000-0000-4000-8000-000000000000', '/nowhere']) {
        const r = await callJson(url, 'GET', path);
        expect(r.status).toBe(404);
        expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(r.body).toMatchObject({ type: 'about:blank', title: expect.any(String), status: 404 });
      }
    } finally {
      await app.close();
    }
  });
});

// The same body with `type` required and no default (Airflow's problem schema): RFC 9457 §3.1.1 says a problem
// without a type has type about:blank, so the service writes that, and neither check nor gaps call it unstated.
// Before, it was a gap: serve answered every error without the required member, which the document's own
// validators (and the contract tester) refuse. A body of another media type, or a type that cannot hold
// about:blank, stays the spec's to say.
describe('a declared problem body requiring type with no default', () => {
  const spec = (type: string, mediaType = 'application/problem+json') => `
servicespec: 1
resources:
  Note:
    fields:
      id: { type: uuid, readOnly: true }
      text: { type: string }
endpoints:
  operations:
    readNote: { method: GET, path: "/notes/{id}", action: read, resource: Note }
authentication:
  default: none
errors:
  body:
    media_type: ${mediaType}
    fields:
      type: ${type}
      title: { type: string }
      status: { type: integer }
      detail: { type: string, optional: true }
  codes:
    not_found: { status: 404, when: [missing_resource, route_not_found] }
    invalid: { status: 422, when: [validation, malformed_request, unsupported_media_type] }
`;
  const gapsOf = (text: string) => {
    const errors = getGapReport(compileSpecText(text).checked!).parts.find((p) => p.part === 'errors')!;
    return { missing: errors.missing.map(formatGapItem), defaults: errors.defaults.map(formatDefaultItem) };
  };

  it('answers type: about:blank, the value RFC 9457 gives a problem without one; no gap', async () => {
    for (const type of ['{ type: string }', '{ type: uri }', '{ type: enum, values: [about:blank, https://example.com/probs/x] }']) {
      const c = compileSpecText(spec(type));
      expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect(c.diagnostics.map((d) => d.code)).not.toContain('error-body-field-unfilled');
      expect(gapsOf(spec(type)).missing.filter((g) => g.includes('type'))).toEqual([]);
      expect(gapsOf(spec(type)).defaults).toContain('value of error body field (type): format default, about:blank (RFC 9457)');
      const app = await createService(c.checked!, { storage: createSqliteStorage({ path: ':memory:' }), allowGaps: true });
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      try {
        for (const path of ['/notes/00000000-0000-4000-8000-000000000000', '/nowhere']) {
          const r = await callJson(url, 'GET', path);
          expect(r.status).toBe(404);
          expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
          expect(Object.keys(r.body)[0]).toBe('type');
          expect(r.body).toMatchObject({ type: 'about:blank', status: 404 });
        }
      } finally {
        await app.close();
      }
    }
  });

  it('stays unfilled where the media type is not problem details, or the field cannot hold about:blank', () => {
    for (const text of [
      spec('{ type: string }', 'application/json'),
      spec("{ type: string, pattern: '^https://' }"),
      spec('{ type: string, maxLength: 5 }'),
      spec('{ type: enum, values: [https://example.com/probs/x] }'),
    ]) {
      expect(compileSpecText(text).diagnostics.map((d) => d.code)).toContain('error-body-field-unfilled');
      expect(gapsOf(text).missing).toContain('value of error body field (type): not shown');
    }
  });
});
