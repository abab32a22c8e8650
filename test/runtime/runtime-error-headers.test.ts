// ci: postgres
// Headers of error answers (errors.headers, errors.codes.<code>.headers; docs/format.md "Headers of error answers"):
// every error answer carries the declared ones with a `default`, whichever layer answers it — an action, Fastify's
// router (no route, another method, a malformed URL), its content handling (malformed JSON, another media type, a
// body too large), Node's http server (no Host, two Hosts, CONNECT, an unreadable request, headers too large) and an
// Idempotency-Key's replay of a kept error answer. Raw sockets, so nothing is normalised; the fast paths on and off.
// And a declared body's request_id on the answers Node's http server or the socket get: the X-Request-Id's value.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import type { CheckedModel } from '../../src/model/model-types.js';
import { sendRaw, type RawAnswer } from '../support/http.js';
import { startService, type Running } from './helpers.js';

const SPEC = `
servicespec: 1
resources:
  Note:
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string, maxLength: 20 }
endpoints:
  idempotency: { header: Idempotency-Key, retention: 1h }
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note }
    listNotes: { method: GET, path: /notes, action: list, resource: Note }
    getNote: { method: GET, path: "/notes/{id}", action: read, resource: Note }
    deleteNote: { method: DELETE, path: "/notes/{id}", action: delete, resource: Note }
authentication:
  default: none
errors:
  body: problem
  headers:
    Cache-Control: { type: string, default: no-store }
    X-Trace-Hint: { type: string, optional: true }
  codes:
    invalid: { status: 422, when: [validation, idempotency_conflict] }
    malformed: { status: 400, when: [malformed_request], headers: { X-Error-Kind: { type: string, default: malformed } } }
    unsupported: { status: 415, when: [unsupported_media_type], headers: { X-Error-Kind: { type: string, default: unsupported } } }
    not_found: { status: 404, when: [missing_resource, route_not_found], headers: { X-Error-Kind: { type: string, default: not-found } } }
    method: { status: 405, when: [method_not_allowed], headers: { X-Error-Kind: { type: string, default: method } } }
    too_large: { status: 413, when: [body_too_large], headers: { X-Error-Kind: { type: string, default: too-large } } }
    headers_too_large: { status: 431, when: [headers_too_large], headers: { X-Error-Kind: { type: string, default: headers } } }
    in_progress: { status: 409, when: [idempotency_in_progress] }
    internal: { status: 500, when: [internal] }
limits:
  body_size: 200
  header_size: 2KiB
`;

function compile(text: string): CheckedModel {
  const c = compileSpecText(text);
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return c.checked!;
}

/** Writes the bytes as given and reads until the server closes the connection: the one answer. */
async function raw(url: string, text: string): Promise<RawAnswer> {
  const answers = await sendRaw(Number(new URL(url).port), text);
  if (answers.length !== 1) throw new Error(`expected one answer, got ${answers.length}`);
  return answers[0]!;
}

const request = (method: string, target: string, headers = '', body = '') =>
  `${method} ${target} HTTP/1.1\r\nHost: x\r\n${headers}${body === '' ? '' : `Content-Length: ${Buffer.byteLength(body)}\r\n`}Connection: close\r\n\r\n${body}`;
const json = 'Content-Type: application/json\r\n';
const UNKNOWN = '01900000-0000-7000-8000-000000000000';

/** The answer is the declared code's, with errors.headers and the code's own declared headers (undefined: none). */
function expectHeaders(a: RawAnswer, status: number, code: string, kind: string | undefined) {
  expect([a.status, (JSON.parse(a.body) as { code: string }).code]).toEqual([status, code]);
  expect(a.headers['cache-control']).toBe('no-store');
  expect(a.headers['x-error-kind']).toBe(kind);
  // Declared without a default: the service has no value to send.
  expect(a.headers['x-trace-hint']).toBeUndefined();
}

for (const fastPaths of [true, false]) {
  describe(`declared error headers on every error answer (fast paths ${fastPaths ? 'on' : 'off'})`, () => {
    let s: Running;
    beforeAll(async () => {
      s = await startService(compile(SPEC), { fastPaths });
    });
    afterAll(() => s?.close());

    it('an action: a missing object → 404 with errors.headers and the code’s own', async () => {
      expectHeaders(await raw(s.url, request('GET', `/notes/${UNKNOWN}`)), 404, 'not_found', 'not-found');
    });
    it('an action: an invalid body → 422 with errors.headers (the code declares none of its own)', async () => {
      expectHeaders(await raw(s.url, request('POST', '/notes', json, '{"title":"much too long a title, really"}')), 422, 'invalid', undefined);
    });

    it("Fastify's router: no route, at one level and deeper", async () => {
      expectHeaders(await raw(s.url, request('GET', '/nowhere')), 404, 'not_found', 'not-found');
      expectHeaders(await raw(s.url, request('GET', `/notes/${UNKNOWN}/more/deeper`)), 404, 'not_found', 'not-found');
    });
    it("Fastify's router: another method, on a path with a GET and one without", async () => {
      const put = await raw(s.url, request('PUT', '/notes', json, '{}'));
      expectHeaders(put, 405, 'method', 'method');
      expect(put.headers.allow).toBe('GET, HEAD, POST');
      expectHeaders(await raw(s.url, request('PATCH', `/notes/${UNKNOWN}`, json, '{}')), 405, 'method', 'method');
    });
    it("Fastify's router: a percent-encoding that does not decode (its frameworkErrors) → 400", async () => {
      expectHeaders(await raw(s.url, request('GET', '/notes/%E0%A4%A')), 400, 'malformed', 'malformed');
    });

    it('content handling: malformed JSON, an empty JSON body → 400', async () => {
      expectHeaders(await raw(s.url, request('POST', '/notes', json, '{"title": ')), 400, 'malformed', 'malformed');
      expectHeaders(await raw(s.url, request('POST', '/notes', `${json}Content-Length: 0\r\n`)), 400, 'malformed', 'malformed');
    });
    it('content handling: another media type, a charset other than UTF-8, a Content-Type that is no media type → 415', async () => {
      expectHeaders(await raw(s.url, request('POST', '/notes', 'Content-Type: text/plain\r\n', 'x')), 415, 'unsupported', 'unsupported');
      expectHeaders(await raw(s.url, request('POST', '/notes', 'Content-Type: application/json; charset=latin1\r\n', '{}')), 415, 'unsupported', 'unsupported');
      expectHeaders(await raw(s.url, request('POST', '/notes', 'Content-Type: not a type\r\n', '{}')), 415, 'unsupported', 'unsupported');
    });
    it('content handling: a body over limits.body_size → 413', async () => {
      expectHeaders(await raw(s.url, request('POST', '/notes', json, JSON.stringify({ title: 'x'.repeat(300) }))), 413, 'too_large', 'too-large');
    });

    it("Node's http server: no Host, two Hosts → 400", async () => {
      expectHeaders(await raw(s.url, 'GET /notes HTTP/1.1\r\nConnection: close\r\n\r\n'), 400, 'malformed', 'malformed');
      expectHeaders(await raw(s.url, 'GET /notes HTTP/1.1\r\nHost: a.example\r\nhost: b.example\r\nConnection: close\r\n\r\n'), 400, 'malformed', 'malformed');
    });
    it("Node's http server: CONNECT → 404", async () => {
      const a = await raw(s.url, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
      expectHeaders(a, 404, 'not_found', 'not-found');
      // As every other answer of the service: nosniff and a request id (createService's server).
      expect(a.headers['x-content-type-options']).toBe('nosniff');
      expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });
    it("Node's http server: an unreadable request, conflicting framing → 400; headers over limits.header_size → 431", async () => {
      expectHeaders(await raw(s.url, 'HELLO\r\n\r\n'), 400, 'malformed', 'malformed');
      expectHeaders(
        await raw(s.url, 'POST /notes HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'),
        400,
        'malformed',
        'malformed',
      );
      const big = await raw(s.url, request('GET', '/notes', `X-Big: ${'a'.repeat(4096)}\r\n`));
      expectHeaders(big, 431, 'headers_too_large', 'headers');
      expect(big.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('an Idempotency-Key: the kept error answer replayed, and the key reused with another request', async () => {
      const key = `Idempotency-Key: err-${String(fastPaths)}\r\n`;
      const first = await raw(s.url, request('POST', '/notes', `${json}${key}`, '{"title":"much too long a title, really"}'));
      expectHeaders(first, 422, 'invalid', undefined);
      const again = await raw(s.url, request('POST', '/notes', `${json}${key}`, '{"title":"much too long a title, really"}'));
      expect([again.headers['idempotent-replayed'], again.body]).toEqual(['true', first.body]);
      expectHeaders(again, 422, 'invalid', undefined);
      expectHeaders(await raw(s.url, request('POST', '/notes', `${json}${key}`, '{"title":"other"}')), 422, 'invalid', undefined);
    });
  });
}

// A declared body with a request_id field (docs/format.md "Declared error bodies"): a raw answer — written by Node's
// http server or straight to the socket — carries in it the same id as its X-Request-Id header, as every other answer.
const WITH_REQUEST_ID = `
servicespec: 1
resources:
  Note:
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string, maxLength: 20 }
endpoints:
  operations:
    getNote: { method: GET, path: "/notes/{id}", action: read, resource: Note }
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
          request_id: { type: string, optional: true }
      request_id: { type: string, optional: true }
    code: error.code
    message: error.message
  codes:
    malformed: { status: 400, when: [malformed_request] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
    headers_too_large: { status: 431, when: [headers_too_large] }
limits:
  header_size: 2KiB
`;

for (const fastPaths of [true, false]) {
  describe(`the declared body's request_id on a raw answer (fast paths ${fastPaths ? 'on' : 'off'})`, () => {
    let s: Running;
    beforeAll(async () => {
      s = await startService(compile(WITH_REQUEST_ID), { fastPaths });
    });
    afterAll(() => s?.close());

    /** The answer is the code's, and its body's request_id fields (the body's own, the nested one) hold its X-Request-Id. */
    function expectRequestId(a: RawAnswer, status: number, code: string) {
      const body = JSON.parse(a.body) as { error: { code: string; request_id?: string }; request_id?: string };
      expect([a.status, body.error.code]).toEqual([status, code]);
      expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect([body.request_id, body.error.request_id]).toEqual([a.headers['x-request-id'], a.headers['x-request-id']]);
    }

    it('an answer through Fastify (the reference): a missing object', async () => {
      expectRequestId(await raw(s.url, request('GET', `/notes/${UNKNOWN}`)), 404, 'not_found');
    });
    it("Node's http server: no Host, two Hosts → 400", async () => {
      expectRequestId(await raw(s.url, 'GET /notes HTTP/1.1\r\nConnection: close\r\n\r\n'), 400, 'malformed');
      expectRequestId(await raw(s.url, 'GET /notes HTTP/1.1\r\nHost: a.example\r\nhost: b.example\r\nConnection: close\r\n\r\n'), 400, 'malformed');
    });
    it('the socket: a bad request line → 400, headers too large → 431, CONNECT → 404', async () => {
      expectRequestId(await raw(s.url, 'HELLO\r\n\r\n'), 400, 'malformed');
      expectRequestId(await raw(s.url, request('GET', '/notes', `X-Big: ${'a'.repeat(4096)}\r\n`)), 431, 'headers_too_large');
      expectRequestId(await raw(s.url, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'), 404, 'not_found');
    });
    it('each raw answer has its own id', async () => {
      const [a, b] = [await raw(s.url, 'HELLO\r\n\r\n'), await raw(s.url, 'HELLO\r\n\r\n')];
      expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    });
  });
}
