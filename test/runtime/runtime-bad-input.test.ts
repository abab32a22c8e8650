import { request as httpRequest } from 'node:http';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { servicespecPlugin } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { loadModel, startService, TICKETS, type Running } from './helpers.js';

let s: Running;
let projectId: string;
let ticketId: string;

beforeAll(async () => {
  s = await startService(loadModel(TICKETS), { handlers: { estimate: () => ({ points: 1 }) } });
  projectId = (await s.call('POST', '/projects', { slug: 'bad', name: 'Bad' })).body.id;
  ticketId = (await s.call('POST', '/tickets', { project: projectId, title: 'x', reporter: 'a@b.co' })).body.id;
});
afterAll(() => s.close());

/** Every refusal has the declared shape: problem+json, status equal to the HTTP status, a code, no internals. */
function expectProblem(r: Awaited<ReturnType<Running['call']>>, status: number, code: string) {
  expect(r.status).toBe(status);
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(r.body.status).toBe(status);
  expect(r.body.code).toBe(code);
  expect(r.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  const text = JSON.stringify(r.body);
  expect(text).not.toMatch(/SQLITE|sqlite|\.ts:|\.js:|node_modules|at [A-Za-z]+ \(|SELECT|INSERT/);
}

const valid = () => ({ project: projectId, title: 'ok', reporter: 'a@b.co' });

describe('request bodies', () => {
  it('malformed JSON → 400 malformed_request', async () => {
    expectProblem(await s.call('POST', '/tickets', '{"title": '), 400, 'malformed_request');
  });
  it('wrong content type → 415 unsupported_media_type', async () => {
    expectProblem(await s.call('POST', '/tickets', JSON.stringify(valid()), { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
  });
  it('empty body with a JSON content type → 400 malformed_request', async () => {
    expectProblem(await s.call('POST', '/tickets', '', { 'content-type': 'application/json' }), 400, 'malformed_request');
  });
  it('no body at all → 400 malformed_request', async () => {
    expectProblem(await s.call('POST', '/tickets'), 400, 'malformed_request');
  });
  it('a JSON array instead of an object → 422 invalid_request', async () => {
    expectProblem(await s.call('POST', '/tickets', '[]'), 422, 'invalid_request');
  });
  for (const [name, body] of [
    ['__proto__ at the top', '{"__proto__": {"admin": true}, "title": "x"}'],
    ['__proto__ deep', '{"meta": {"source": "x", "x": [{"__proto__": {"a": 1}}]}}'],
    ['constructor.prototype', '{"meta": {"constructor": {"prototype": {"a": 1}}}}'],
  ] as const) {
    it(`${name} → 400 malformed_request, and nothing is polluted`, async () => {
      expectProblem(await s.call('POST', '/tickets', body), 400, 'malformed_request');
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
    });
  }
  it('10,000-deep nesting → 400 malformed_request', async () => {
    expectProblem(await s.call('POST', '/tickets', `{"meta":${'['.repeat(10_000)}${']'.repeat(10_000)}}`), 400, 'malformed_request');
  });
  it('1e400 → 422 invalid_request', async () => {
    expectProblem(await s.call('POST', '/tickets', `{"project":"${projectId}","title":"x","reporter":"a@b.co","points":1e400}`), 422, 'invalid_request');
  });
  it('2^53+1 → 422 invalid_request', async () => {
    const r = await s.call('PATCH', `/tickets/${ticketId}`, '{"points": 9007199254740993}');
    expectProblem(r, 422, 'invalid_request');
  });
  it('a string over maxLength → 422 with the field pointer', async () => {
    const r = await s.call('POST', '/tickets', { ...valid(), title: 'x'.repeat(121) });
    expectProblem(r, 422, 'invalid_request');
    expect(r.body.errors).toEqual([{ pointer: '/title', message: 'must NOT have more than 120 characters' }]);
  });
  it('a pattern miss → 422 with the field pointer', async () => {
    const r = await s.call('POST', '/projects', { slug: 'Not A Slug', name: 'x' });
    expectProblem(r, 422, 'invalid_request');
    expect(r.body.errors[0].pointer).toBe('/slug');
  });
  it('an unknown field is rejected, not dropped', async () => {
    const r = await s.call('POST', '/tickets', { ...valid(), colour: 'red' });
    expectProblem(r, 422, 'invalid_request');
    expect(r.body.errors).toEqual([{ pointer: '/colour', message: 'unknown field colour' }]);
  });
  it('read-only, state and identifier fields are rejected on write', async () => {
    const r = await s.call('POST', '/tickets', { ...valid(), id: ticketId, status: 'resolved', created_at: '2020-01-01T00:00:00Z' });
    expectProblem(r, 422, 'invalid_request');
    expect(r.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(['/created_at', '/id', '/status']);
  });
  it('no type coercion: "5" is not an integer', async () => {
    expectProblem(await s.call('PATCH', `/tickets/${ticketId}`, { points: '5' }), 422, 'invalid_request');
  });
  it('a body over the declared size → 413', async () => {
    expectProblem(await s.call('POST', '/tickets', { ...valid(), title: 'x', meta: { source: 'y'.repeat(65 * 1024) } }), 413, 'payload_too_large');
  });
});

describe('request ids', () => {
  it('a plain request id is echoed; anything else is replaced by a new UUID', async () => {
    expect((await s.call('GET', `/tickets/${ticketId}`, undefined, { 'x-request-id': 'trace-1.a:b_c' })).headers.get('x-request-id')).toBe('trace-1.a:b_c');
    expect((await s.call('GET', '/nothing/here', undefined, { 'x-request-id': 'trace-2' })).headers.get('x-request-id')).toBe('trace-2');
    for (const bad of ['has space', 'x'.repeat(129), 'quote"d', '']) {
      const id = (await s.call('GET', `/tickets/${ticketId}`, undefined, { 'x-request-id': bad })).headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });
});

describe('identifiers and routes', () => {
  it('a malformed identifier → 404 not_found, and the export declares the parameter as any string', async () => {
    expectProblem(await s.call('GET', '/tickets/not-a-uuid'), 404, 'not_found');
    expectProblem(await s.call('DELETE', '/tickets/not-a-uuid'), 404, 'not_found');
    expectProblem(await s.call('POST', '/tickets/not-a-uuid/start'), 404, 'not_found');
    const doc = exportOpenApi(loadModel(TICKETS)).document as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string; schema: Record<string, unknown>; description?: string }[] }>>;
    };
    for (const [path, method] of [
      ['/tickets/{id}', 'get'],
      ['/tickets/{id}', 'delete'],
      ['/tickets/{id}/start', 'post'],
    ] as const) {
      const id = doc.paths[path]![method]!.parameters!.find((p) => p.in === 'path' && p.name === 'id')!;
      expect(id.schema).toEqual({ type: 'string' });
      expect(id.description).toMatch(/a UUID.*404 `not_found`/);
    }
  });
  it('an unknown identifier → 404 not_found', async () => {
    expectProblem(await s.call('GET', '/tickets/01900000-0000-7000-8000-000000000000'), 404, 'not_found');
  });
  it('an undeclared route → 404 not_found', async () => {
    expectProblem(await s.call('GET', '/nothing/here'), 404, 'not_found');
  });
  it('an undeclared method → 405 with Allow', async () => {
    const r = await s.call('DELETE', '/tickets');
    expectProblem(r, 405, 'method_not_allowed');
    expect(r.headers.get('allow')).toBe('GET, HEAD, POST');
  });
  it('HEAD: a GET route answers it with the status and headers of GET and no body; a path without GET refuses it 405', async () => {
    await s.call('POST', '/tickets', {
      project: (await s.call('POST', '/projects', { slug: 'head-1', name: 'H' })).body.id,
      title: 'h',
      reporter: 'a@example.com',
    });
    for (const path of ['/tickets', '/tickets?limit=1', '/tickets/01900000-0000-7000-8000-000000000000']) {
      const get = await raw('GET', path);
      const head = await raw('HEAD', path);
      expect(head.status).toBe(get.status);
      expect(head.body).toBe('');
      expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.body)));
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
    }
    const refused = await raw('HEAD', '/tickets/01900000-0000-7000-8000-000000000000/start');
    expect([refused.status, refused.headers.allow, refused.body]).toEqual([405, 'POST', '']);
  });
  it('in a host app with exposeHeadRoutes off, the plugin serves no HEAD either (as a route per method did)', async () => {
    const app = Fastify({ exposeHeadRoutes: false });
    await app.register(servicespecPlugin, { model: loadModel(TICKETS), storage: createSqliteStorage({ path: ':memory:' }), allowGaps: true });
    try {
      expect((await app.inject({ method: 'GET', url: '/tickets' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'HEAD', url: '/tickets' })).statusCode).toBe(404);
      expect((await app.inject({ method: 'HEAD', url: '/projects' })).statusCode).toBe(404);
      expect((await app.inject({ method: 'DELETE', url: '/tickets' })).statusCode).toBe(405);
    } finally {
      await app.close();
    }
  });
  it('every undeclared method of a path → 405 with its Allow, whichever route answers it', async () => {
    for (const m of ['PUT', 'PATCH', 'DELETE']) expect((await raw(m, '/tickets')).headers.allow).toBe('GET, HEAD, POST');
    for (const m of ['GET', 'PUT', 'PATCH', 'DELETE']) {
      const r = await s.call(m, '/tickets/01900000-0000-7000-8000-000000000000/start');
      expectProblem(r, 405, 'method_not_allowed');
      expect(r.headers.get('allow')).toBe('POST');
    }
    const r = await s.call('POST', '/tickets/01900000-0000-7000-8000-000000000000', { title: 'x' });
    expectProblem(r, 405, 'method_not_allowed');
    expect(r.headers.get('allow')).toBe('DELETE, GET, HEAD, PATCH, PUT');
    expectProblem(await s.call('OPTIONS', '/tickets'), 404, 'not_found');
  });
  it('a malformed URL → 400 malformed_request', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const u = new URL(s.url);
      const req = httpRequest({ host: u.hostname, port: u.port, path: '/tickets/%E0%A4%A', method: 'GET' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(400); // the body's code: runtime-framework-errors.test.ts
  });
});

describe('lists', () => {
  it('a tampered cursor → 422 invalid_request', async () => {
    await s.call('POST', '/tickets', valid());
    await s.call('POST', '/tickets', valid());
    const page = await s.call('GET', '/tickets?limit=1');
    const cursor: string = page.body.next_cursor;
    const [data, mac] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(data!, 'base64url').toString()), p: { id: '0' } })).toString('base64url');
    // The MAC's last character changed (to 'A', or to 'B' where it was 'A': one run in 64 it was, and nothing changed).
    const changed = `${mac!.slice(0, -1)}${mac!.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [`${forged}.${mac}`, `${data}.${changed}`, 'garbage', `${data}`]) {
      const r = await s.call('GET', `/tickets?limit=1&cursor=${encodeURIComponent(bad)}`);
      expectProblem(r, 422, 'invalid_request');
      expect(r.body.errors).toEqual([{ parameter: 'cursor', in: 'query', message: 'is not a cursor this service issued for this query' }]);
    }
  });
  it('a cursor replayed against another query → 422', async () => {
    const page = await s.call('GET', '/tickets?limit=1');
    expectProblem(await s.call('GET', `/tickets?limit=1&priority=high&cursor=${page.body.next_cursor}`), 422, 'invalid_request');
  });
  it('a page size over the maximum → 422 (over_max: reject)', async () => {
    const r = await s.call('GET', '/tickets?limit=51');
    expectProblem(r, 422, 'invalid_request');
    expect(r.body.errors[0]).toMatchObject({ parameter: 'limit' });
  });
  it('an unknown query parameter, a bad filter value or sort → 422', async () => {
    for (const q of ['colour=red', 'priority=urgent', 'sort=title', 'limit=0', 'limit=abc', 'status=open&status=open']) {
      expectProblem(await s.call('GET', `/tickets?${q}`), 422, 'invalid_request');
    }
  });
  it('a filter value no object can hold (an unknown state, a malformed reference) → 422 naming the parameter, not an empty page', async () => {
    for (const [q, parameter] of [
      ['status=bogus', 'status'],
      ['status=', 'status'],
      ['project=not-a-uuid', 'project'],
      ['project=01900000-0000-7000-8000-00000000000', 'project'],
    ] as const) {
      const r = await s.call('GET', `/tickets?${q}`);
      expectProblem(r, 422, 'invalid_request');
      expect(r.body.errors).toEqual([{ parameter, in: 'query', message: expect.any(String) }]);
    }
    // well-formed values are taken (an unknown object is simply not matched)
    expect((await s.call('GET', '/tickets?status=open&project=01900000-0000-7000-8000-000000000000')).status).toBe(200);
    expect((await s.call('GET', `/tickets?status=in_progress&project=${projectId}`)).status).toBe(200);
  });
});

describe('transitions', () => {
  it('an illegal transition → 409 invalid_transition', async () => {
    const t = (await s.call('POST', '/tickets', valid())).body;
    expectProblem(await s.call('POST', `/tickets/${t.id}/stop`), 409, 'invalid_transition');
  });
  it('a transition on a terminal state → 409 invalid_transition', async () => {
    const t = (await s.call('POST', '/tickets', valid())).body;
    await s.call('POST', `/tickets/${t.id}/reject`);
    for (const name of ['start', 'stop', 'reject']) expectProblem(await s.call('POST', `/tickets/${t.id}/${name}`), 409, 'invalid_transition');
    expectProblem(await s.call('POST', `/tickets/${t.id}/resolve`, { resolution: 'x' }), 409, 'invalid_transition');
  });
  it('a transition on an unknown object → 404', async () => {
    expectProblem(await s.call('POST', '/tickets/01900000-0000-7000-8000-000000000000/start'), 404, 'not_found');
  });
});

describe('custom operations', () => {
  it('a handler that returns a body outside its declared shape → 500 internal, nothing leaked', async () => {
    const bad = await startService(loadModel(TICKETS), { handlers: { estimate: () => ({ points: -1, secret: 'x' }) } });
    try {
      const r = await bad.call('POST', '/estimates', { title: 'x' });
      expectProblem(r, 500, 'internal');
      expect(JSON.stringify(r.body)).not.toContain('secret');
    } finally {
      await bad.close();
    }
  });
  it('a handler that throws → 500 internal with no stack', async () => {
    const bad = await startService(loadModel(TICKETS), {
      handlers: {
        estimate: () => {
          throw new Error('SELECT * FROM secrets at /srv/app.js:1');
        },
      },
    });
    try {
      expectProblem(await bad.call('POST', '/estimates', { title: 'x' }), 500, 'internal');
    } finally {
      await bad.close();
    }
  });
});

/** One request as sent on the wire (fetch hides a HEAD answer's Content-Length). */
function raw(method: string, path: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(s.url);
    const req = httpRequest({ host: u.hostname, port: u.port, path, method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
