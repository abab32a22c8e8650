// Every answer is a declared error body, whichever layer produced it: Fastify's router, its content-type
// handling, its shutdown path, or Node's http server (issue 12, item 10). Raw sockets, so nothing is normalised.
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HS_SECRET, startAuthService } from '../auth/helpers.js';
import { until } from '../events/helpers.js';
import { sendRaw, type RawAnswer } from '../support/http.js';
import { loadModel, startService, TICKETS, type Running } from './helpers.js';

let s: Running;
beforeAll(async () => {
  s = await startService(loadModel(TICKETS), { handlers: { estimate: () => ({ points: 1 }) } });
});
afterAll(() => s.close());

/** Writes the bytes as given and reads until the server closes the connection. */
function raw(text: string, port = Number(new URL(s.url).port), during?: (write: (t: string) => void) => Promise<void>): Promise<RawAnswer[]> {
  return sendRaw(port, text, during);
}

async function one(text: string): Promise<RawAnswer> {
  const answers = await raw(text);
  expect(answers).toHaveLength(1);
  return answers[0]!;
}

function expectDeclared(a: RawAnswer, status: number, code: string) {
  expect(a.status).toBe(status);
  expect(a.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = JSON.parse(a.body) as { status: number; code: string; title: string };
  expect(body).toMatchObject({ status, code });
  expect(body.title).toEqual(expect.any(String));
  expect(a.body).not.toMatch(/FST_|ERR_|statusCode/);
}

const get = (target: string, headers = 'Host: x\r\n') => `GET ${target} HTTP/1.1\r\n${headers}Connection: close\r\n\r\n`;

describe('the router', () => {
  it('an identifier of 257+ characters → 404 not_found (was 414 FST_ERR_MAX_PARAM_LENGTH)', async () => {
    expectDeclared(await one(get(`/tickets/${'a'.repeat(300)}`)), 404, 'not_found');
    expectDeclared(await one(`POST /tickets/${'a'.repeat(10_000)}/start HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`), 404, 'not_found');
  });
  it('a long identifier is answered after authentication: 401 without a credential, not a framework 414', async () => {
    const auth = await startAuthService({ auth: { jwt: { secret: HS_SECRET } } });
    try {
      const r = await auth.call('GET', `/notes/${'a'.repeat(300)}`);
      expect([r.status, r.body.code]).toEqual([401, 'missing_credential']);
    } finally {
      await auth.close();
    }
  });
  it('a percent-encoding that does not decode → 400 malformed_request (was FST_ERR_BAD_URL)', async () => {
    expectDeclared(await one(get('/tickets/%E0%A4%A')), 400, 'malformed_request');
  });
  it('a method no route has, on a declared path → the declared not_found body', async () => {
    expectDeclared(await one(get('/tickets').replace('GET', 'OPTIONS')), 404, 'not_found');
  });
});

describe("Node's http server", () => {
  it('an HTTP/1.1 request without Host → 400 malformed_request (was an empty 400)', async () => {
    expectDeclared(await one('GET /tickets HTTP/1.1\r\nConnection: close\r\n\r\n'), 400, 'malformed_request');
  });
  it('a request with two Host headers → 400 malformed_request (RFC 9112 §3.2; Node would keep the first)', async () => {
    expectDeclared(await one(get('/tickets', 'Host: a.example\r\nhost: b.example\r\n')), 400, 'malformed_request');
  });
  it('an HTTP/1.0 request without Host is served', async () => {
    expect((await one('GET /tickets HTTP/1.0\r\n\r\n')).status).toBe(200);
  });
  it('an expectation other than 100-continue is ignored (was an empty 417)', async () => {
    const body = '{"title":"x"}';
    const a = await one(
      `POST /estimates HTTP/1.1\r\nHost: x\r\nExpect: something\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect([a.status, JSON.parse(a.body)]).toEqual([200, { points: 1 }]);
  });
  it('CONNECT → 404 not_found (was a dropped connection)', async () => {
    expectDeclared(await one('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'), 404, 'not_found');
  });
  it('an unreadable request line or conflicting framing → 400 malformed_request', async () => {
    expectDeclared(await one('HELLO\r\n\r\n'), 400, 'malformed_request');
    expectDeclared(
      await one('POST /tickets HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'),
      400,
      'malformed_request',
    );
  });
  it('headers over the limit → 431 headers_too_large', async () => {
    expectDeclared(await one(get('/tickets', `Host: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n`)), 431, 'headers_too_large');
  });
});

describe('content handling', () => {
  it('a Content-Type that is not a media type → 415 where a body is read, 400 malformed_request where none is', async () => {
    const send = (method: string, path: string) =>
      one(`${method} ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: not a type\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`);
    expectDeclared(await send('POST', '/tickets'), 415, 'unsupported_media_type');
    expectDeclared(await send('DELETE', '/tickets/01900000-0000-7000-8000-000000000000'), 400, 'malformed_request');
  });
});

describe('shutting down', () => {
  it('a request arriving on an open connection while the service closes is served, not answered with a framework 503', async () => {
    let release!: () => void;
    const started = new Promise<void>((r) => (release = r));
    // The first request's handler works until the second request has arrived (no fixed time).
    let finish!: () => void;
    const finished = new Promise<void>((r) => (finish = r));
    const slow = await startService(loadModel(TICKETS), {
      handlers: {
        estimate: async () => {
          release();
          await finished;
          return { points: 2 };
        },
      },
    });
    let received = 0;
    slow.app.server.on('connection', (socket: Socket) => socket.on('data', (d: Buffer) => (received += d.length)));
    const body = '{"title":"x"}';
    const first = `POST /estimates HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const second = 'GET /tickets HTTP/1.1\r\nHost: x\r\n\r\n';
    let closed: Promise<void> | undefined;
    const answers = await raw(first, Number(new URL(slow.url).port), async (write) => {
      await started;
      closed = slow.close();
      // The service is closing (it has stopped listening) when the second request is sent.
      await until(() => !slow.app.server.listening, 10_000, 'the service to stop listening');
      write(second);
      await until(() => received >= first.length + second.length, 10_000, 'the second request to arrive');
      finish();
    });
    await closed;
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(JSON.parse(answers[1]!.body)).toEqual({ items: [], next_cursor: null });
    expect(answers[1]!.headers.connection).toBe('close');
  });
});
