import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateClient } from '../../src/export/export-client.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { compileSpecText } from '../../src/program.js';
import type { ServiceModel } from '../../src/model/model-types.js';
import { loadClient } from '../export/client-loader.js';
import { startService, type Running } from './helpers.js';

// Custom operations held to their contract by the runtime (issue 26): a handler refuses with one of its operation's
// declared error codes in the declared error body; a name it does not declare is the handler's fault (internal);
// its answer is JSON whatever it returns; and with an Idempotency-Key (claimed before the work) a handler that fails
// before writing anything leaves the key free for a retry, while one that wrote keeps its answer.
const SPEC = `
servicespec: 1
resources:
  Note:
    fields:
      id: { type: uuid, readOnly: true }
      text: { type: string }
endpoints:
  idempotency: { retention: 1h }
  operations:
    readNote: { method: GET, path: '/notes/{id}', action: read, resource: Note }
    fields:
      method: GET
      path: /{dataset}/{version}/fields
      action: custom
      handler: fields
      errors: [unknown_dataset]
    charge:
      method: POST
      path: /charges
      action: custom
      handler: charge
      request: { fields: { mode: { type: string } } }
      response: { fields: { attempt: { type: integer } } }
    search:
      method: POST
      path: /{dataset}/records
      action: custom
      handler: search
      request:
        media_type: application/x-www-form-urlencoded
        fields:
          criteria: { type: string, minLength: 1 }
          start: { type: integer, minimum: 0, optional: true, default: 0 }
          exact: { type: boolean, optional: true }
          tag: { type: array, items: { type: enum, values: [a, b] }, optional: true }
      response: { fields: { got: { type: json } } }
    bulk:
      method: POST
      path: /notes/bulk
      action: custom
      handler: bulk
      request: { list: true, fields: { text: { type: string } } }
      response: { fields: { count: { type: integer } } }
authentication:
  default: none
errors:
  body:
    fields:
      errorCode: { type: string }
      message: { type: string, optional: true }
      status: { type: integer, optional: true }
    code: errorCode
    message: message
    status: status
  codes:
    unknown_dataset: { status: 404, title: No such data set. }
    broken: { status: 500, when: [internal] }
`;

function model(text: string): ServiceModel {
  const c = compileSpecText(text);
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return c.model!;
}

let service: Running;
const logged: string[] = [];
let attempts = 0;

beforeAll(async () => {
  service = await startService(model(SPEC), {
    handlers: {
      fields: (ctx) => {
        if (ctx.params.dataset === 'oa_citations') return 'patent_id, examiner';
        if (ctx.params.dataset === 'typo') ctx.fail('unknwn_dataset');
        ctx.fail('unknown_dataset', `no data set ${ctx.params.dataset}`);
      },
      charge: async (ctx) => {
        attempts++;
        const { mode } = ctx.body as { mode: string };
        if (mode === 'flaky' && attempts % 2 === 1) throw new Error('the payment provider did not answer');
        if (mode === 'wrote-then-failed') {
          await ctx.storage.transaction((tx) => tx.insert('Note', { id: randomUUID(), text: 'charged' }));
          throw new Error('failed after charging');
        }
        return { attempt: attempts };
      },
      search: (ctx) => ({ got: ctx.body }),
      bulk: (ctx) => ({ count: (ctx.body as unknown[]).length }),
    },
    logger: { level: 'error', stream: { write: (line: string) => void logged.push(line) } },
  });
});
afterAll(() => service.close());

describe('a custom handler refusing with its declared error codes', () => {
  it("answers ctx.fail('unknown_dataset') with that code's status and title in the declared error body", async () => {
    const res = await service.call('GET', '/gone/v1/fields');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual({ errorCode: 'unknown_dataset', message: 'no data set gone', status: 404 });
  });

  it('answers a name the operation does not declare as internal, and logs the handler fault', async () => {
    const res = await service.call('GET', '/typo/v1/fields');
    expect(res.status).toBe(500);
    expect(res.body.errorCode).toBe('broken');
    expect(logged.join('\n')).toMatch(/ctx\.fail\('unknwn_dataset'\).*operation fields.*unknown_dataset/);
  });
});

describe('a custom operation whose request is a list (request: { list: true })', () => {
  // readme's oas-examples schema-types `POST /anything/arrays/top-level-payloads`, an array of objects: every array
  // was refused, "the body must be a JSON object", and the object the schema refuses was the only body let through.
  it('takes an array of the declared objects, and refuses an object, an array of something else and no body', async () => {
    const ok = await service.call('POST', '/notes/bulk', [{ text: 'a' }, { text: 'b' }]);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ count: 2 });
    expect((await service.call('POST', '/notes/bulk', [])).body).toEqual({ count: 0 });
    const object = await service.call('POST', '/notes/bulk', { text: 'a' });
    // validation (422: no code of this spec declares it) and malformed_request (400), the format's defaults.
    expect(object.status).toBe(422);
    expect(object.body.errorCode).toBe('validation');
    expect((await service.call('POST', '/notes/bulk', [1])).status).toBe(422);
    const none = await fetch(`${service.url}/notes/bulk`, { method: 'POST' });
    expect(none.status).toBe(400);
  });
});

describe('a custom handler answering a string', () => {
  it('sends it as a JSON string, application/json, not as plain text', async () => {
    const res = await fetch(`${service.url}/oa_citations/v1/fields`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.text()).toBe('"patent_id, examiner"');
  });
});

describe('an Idempotency-Key on a custom operation whose handler fails', () => {
  it('is released when the handler failed before writing: the retry with the same key runs and succeeds', async () => {
    attempts = 0;
    const headers = { 'Idempotency-Key': 'flaky-1' };
    const first = await service.call('POST', '/charges', { mode: 'flaky' }, headers);
    expect(first.status).toBe(500);
    const retry = await service.call('POST', '/charges', { mode: 'flaky' }, headers);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ attempt: 2 });
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    // Its success is the key's answer from then on.
    const again = await service.call('POST', '/charges', { mode: 'flaky' }, headers);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ attempt: 2 });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(attempts).toBe(2);
  });

  it('keeps the failure when the handler wrote before failing: the retry is replayed, never applied twice', async () => {
    attempts = 0;
    const headers = { 'Idempotency-Key': 'wrote-1' };
    const first = await service.call('POST', '/charges', { mode: 'wrote-then-failed' }, headers);
    expect(first.status).toBe(500);
    const retry = await service.call('POST', '/charges', { mode: 'wrote-then-failed' }, headers);
    expect(retry.status).toBe(500);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(attempts).toBe(1);
  });
});

describe('a custom operation whose request is a form (request.media_type: application/x-www-form-urlencoded)', () => {
  const post = (body: string, type = 'application/x-www-form-urlencoded') =>
    fetch(`${service.url}/oa_citations/records`, { method: 'POST', headers: { 'content-type': type }, body }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as Record<string, unknown>,
    }));

  it('hands the handler the form read as the declared fields: numbers, booleans, a repeated name as a list', async () => {
    const r = await post('criteria=patent_id%3A5231234+OR+*&start=10&exact=true&tag=a&tag=b');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ got: { criteria: 'patent_id:5231234 OR *', start: 10, exact: true, tag: ['a', 'b'] } });
    expect((await post('criteria=x; charset=UTF-8'.replace('; charset=UTF-8', ''), 'application/x-www-form-urlencoded; charset=UTF-8')).status).toBe(200);
  });

  it('validates it against the declared shape: a bad value, a missing field, a name given twice, an undeclared name', async () => {
    const bad = await post('criteria=x&start=ten');
    expect(bad.status).toBe(422);
    expect(bad.body.errorCode).toBe('validation');
    expect((await post('start=1')).status).toBe(422);
    expect((await post('criteria=x&criteria=y')).status).toBe(422);
    expect((await post('criteria=x&start=-1')).status).toBe(422);
    expect((await post('criteria=x&tag=c')).status).toBe(422);
    expect((await post('criteria=x&other=1')).status).toBe(422);
  });

  it('refuses a JSON body, and another charset, as unsupported_media_type (415)', async () => {
    expect((await post(JSON.stringify({ criteria: 'x' }), 'application/json')).status).toBe(415);
    expect((await post('criteria=x', 'application/x-www-form-urlencoded; charset=latin1')).status).toBe(415);
    expect((await post('criteria=x', 'text/plain')).status).toBe(415);
  });
});

describe('the form request in the OpenAPI export', () => {
  it('is documented as application/x-www-form-urlencoded, with the declared fields', () => {
    const doc = exportOpenApi(model(SPEC)).document as unknown as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>>;
    };
    expect(Object.keys(doc.paths['/{dataset}/records']!.post!.requestBody!.content)).toEqual(['application/x-www-form-urlencoded']);
    expect(Object.keys(doc.paths['/charges']!.post!.requestBody!.content)).toEqual(['application/json']);
  });
});

describe('the form request through the generated client', () => {
  it('is sent as a form: the handler receives the declared fields, typed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'servicespec-form-client-'));
    try {
      const { ServiceClient } = await loadClient<{
        ServiceClient: new (o: { baseUrl: string }) => { search(dataset: string, body: Record<string, unknown>): Promise<unknown> };
      }>(generateClient(model(SPEC)).code, dir, 'client');
      const client = new ServiceClient({ baseUrl: service.url });
      expect(await client.search('oa_citations', { criteria: 'a b&c=d', start: 2, exact: false, tag: ['b', 'a'] })).toEqual({
        got: { criteria: 'a b&c=d', start: 2, exact: false, tag: ['b', 'a'] },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('check: request-media-type-invalid', () => {
  const codes = (operations: string) =>
    compileSpecText(`servicespec: 1
resources:
  Note: { fields: { id: { type: uuid, readOnly: true }, text: { type: string } } }
endpoints:
  operations:
${operations}
authentication: { default: none }
`)
      .diagnostics.filter((d) => d.code === 'request-media-type-invalid')
      .map((d) => d.pointer)
      .sort();

  it("refuses it on a read or a custom operation's form, a type that is not JSON, JSON Patch, and a merge patch on a create or replace", () => {
    expect(
      codes(`    add: { method: POST, path: /notes, action: create, resource: Note, request_media_type: application/merge-patch+json }
    get: { method: GET, path: '/notes/{id}', action: read, resource: Note, request_media_type: application/json }
    put: { method: PUT, path: '/notes/{id}', action: replace, resource: Note, request_media_type: text/plain }
    put2: { method: PUT, path: '/notes2/{id}', action: replace, resource: Note, request_media_type: 'application/json; charset=utf-8' }
    jsonPatch: { method: PATCH, path: '/notes/{id}', action: update, resource: Note, request_media_type: application/json-patch+json }
    rpc: { method: POST, path: /rpc, action: custom, handler: rpc, request: { media_type: application/x-www-form-urlencoded, fields: { a: { type: string } } }, request_media_type: application/json }`),
    ).toEqual([
      '/endpoints/operations/add/request_media_type',
      '/endpoints/operations/get/request_media_type',
      '/endpoints/operations/jsonPatch/request_media_type',
      '/endpoints/operations/put/request_media_type',
      '/endpoints/operations/put2/request_media_type',
      '/endpoints/operations/rpc/request_media_type',
    ]);
  });

  it("takes a merge patch on an update, a JSON type on a create or replace, and either on a custom operation's JSON request", () => {
    expect(
      codes(`    add: { method: POST, path: /notes, action: create, resource: Note, request_media_type: application/vnd.notes+json }
    rpc: { method: POST, path: /rpc, action: custom, handler: rpc, request: { fields: { a: { type: string } } }, request_media_type: application/merge-patch+json }
    patch: { method: PATCH, path: '/notes/{id}', action: update, resource: Note, request_media_type: application/merge-patch+json }
    put: { method: PUT, path: '/notes/{id}', action: replace, resource: Note, request_media_type: application/json }`),
    ).toEqual([]);
  });
});

describe('check: request-form-invalid', () => {
  const codes = (operations: string) =>
    compileSpecText(`servicespec: 1
resources:
  Note: { fields: { id: { type: uuid, readOnly: true }, text: { type: string } } }
endpoints:
  operations:
${operations}
authentication: { default: none }
`)
      .diagnostics.filter((d) => d.code === 'request-form-invalid')
      .map((d) => `${d.pointer}: ${d.message}`)
      .sort();

  it('refuses media_type on a response, on a built-in action, and a form of fields a form cannot carry', () => {
    expect(
      codes(`    a:
      method: POST
      path: /a
      action: custom
      handler: a
      request: { media_type: application/x-www-form-urlencoded, fields: { n: { type: object, fields: { x: { type: string } } } } }
      response: { media_type: application/x-www-form-urlencoded, fields: { ok: { type: boolean } } }
    b:
      method: POST
      path: /notes
      action: create
      resource: Note
      request: { media_type: application/x-www-form-urlencoded, resource: Note }
    c:
      method: POST
      path: /c
      action: custom
      handler: c
      request: { media_type: application/x-www-form-urlencoded, resource: Note }
      response: { fields: { ok: { type: boolean } } }`),
    ).toEqual([
      '/endpoints/operations/a/request/fields/n: operation `a`: form field `n` of type object cannot be sent as form text',
      '/endpoints/operations/a/response/media_type: operation `a`: `media_type` is for a request, not a response (answers are JSON)',
      '/endpoints/operations/b/request/media_type: operation `b`: `media_type` is for custom operations; the built-in create action reads JSON',
      '/endpoints/operations/c/request/media_type: operation `c`: a form request is written-out `fields` (not a resource, a union or a list)',
    ]);
  });
});
