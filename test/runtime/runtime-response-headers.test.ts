import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { startService, type Running } from './helpers.js';
import { checkedModel } from '../support/specs.js';

// Declared response headers (operation.response_headers): the service sends one with a default; a custom
// operation's handler sets the others with ctx.header, and one required and left out, or set to a value its
// declaration refuses, is answered internal (500) and logged, never sent as a success.
const SPEC = `
servicespec: 1
resources:
  Item:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string }
endpoints:
  operations:
    createItem:
      method: POST
      path: /items
      action: create
      resource: Item
      response_headers:
        Cache-Control: { type: string, default: no-store }
        X-Seldom: { type: string, optional: true }
    readItem: { method: GET, path: '/items/{id}', action: read, resource: Item }
    quote:
      method: POST
      path: /quotes
      action: custom
      handler: quote
      request: { fields: { mode: { type: string } } }
      response: { fields: { ok: { type: boolean } } }
      response_headers:
        X-Cost: { type: integer, minimum: 0, description: What the quote cost. }
        X-Tags: { type: array, items: { type: string }, optional: true }
        X-Region: { type: enum, values: [eu, us], default: eu }
authentication:
  default: none
errors:
  body: problem
  codes:
    invalid: { status: 400, when: [validation, malformed_request, unsupported_media_type] }
    missing: { status: 404, when: [missing_resource, route_not_found] }
    other: { status: 405, when: [method_not_allowed] }
    broken: { status: 500, when: [internal] }
`;

const model = checkedModel;

let service: Running;
const logged: string[] = [];

beforeAll(async () => {
  service = await startService(model(SPEC), {
    handlers: {
      quote: (ctx) => {
        const mode = (ctx.body as { mode: string }).mode;
        if (mode === 'ok') {
          ctx.header('X-Cost', 3);
          ctx.header('x-tags', ['a', 'b']);
          ctx.header('X-Region', 'us');
          ctx.header('X-Undeclared', 'as set');
        }
        if (mode === 'bad') ctx.header('X-Cost', -1);
        if (mode === 'reserved') ctx.header('Content-Type', 'text/plain');
        if (mode === 'fail') {
          ctx.header('X-Cost', 1);
          ctx.fail('missing_resource');
        }
        return { ok: true };
      },
    },
    logger: { level: 'error', stream: { write: (line: string) => void logged.push(line) } },
  });
});
afterAll(() => service.close());

describe('declared response headers', () => {
  it('a built-in action sends a declared header with a default, and Location, on its success only', async () => {
    const r = await service.call('POST', '/items', { name: 'a' });
    expect(r.status).toBe(201);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('location')).toBe(`/items/${r.body.id as string}`);
    expect(r.headers.get('x-seldom')).toBeNull();
    const bad = await service.call('POST', '/items', { name: 1 });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('cache-control')).toBeNull();
  });

  it('a handler sets the others; lists are joined, undeclared ones passed as set', async () => {
    const r = await service.call('POST', '/quotes', { mode: 'ok' });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-cost')).toBe('3');
    expect(r.headers.get('x-tags')).toBe('a, b');
    expect(r.headers.get('x-region')).toBe('us');
    expect(r.headers.get('x-undeclared')).toBe('as set');
  });

  it('a required header the handler leaves out is answered internal and logged; a default fills its own', async () => {
    logged.length = 0;
    const r = await service.call('POST', '/quotes', { mode: 'none' });
    expect(r.status).toBe(500);
    expect(r.body.type ?? r.body.code).toBeDefined();
    expect(r.headers.get('x-region')).toBeNull();
    const line = logged.find((l) => l.includes('did not set the declared response headers'));
    expect(line).toBeDefined();
    expect(JSON.parse(line!).headers).toEqual([{ header: 'X-Cost', message: 'is required and the handler did not set it' }]);
  });

  it('a value its declaration refuses is answered internal, naming the header in the log', async () => {
    logged.length = 0;
    const r = await service.call('POST', '/quotes', { mode: 'bad' });
    expect(r.status).toBe(500);
    expect(JSON.parse(logged.find((l) => l.includes('declared response headers'))!).headers[0].header).toBe('X-Cost');
  });

  it('a header the service writes itself cannot be set by a handler; an error answer carries none of the declared', async () => {
    expect((await service.call('POST', '/quotes', { mode: 'reserved' })).status).toBe(500);
    const failed = await service.call('POST', '/quotes', { mode: 'fail' });
    expect(failed.status).toBe(404);
    expect(failed.headers.get('x-cost')).toBeNull();
  });
});

describe('declared response headers and idempotency', () => {
  it('a retry with the same Idempotency-Key gets the declared headers again', async () => {
    const spec = SPEC.replace('endpoints:\n  operations:', 'endpoints:\n  idempotency: { retention: 1h }\n  operations:');
    let calls = 0;
    const keyed = await startService(model(spec), {
      handlers: {
        quote: (ctx) => {
          calls++;
          ctx.header('X-Cost', calls);
          return { ok: true };
        },
      },
    });
    try {
      const first = await keyed.call('POST', '/quotes', { mode: 'ok' }, { 'idempotency-key': 'k-1' });
      const again = await keyed.call('POST', '/quotes', { mode: 'ok' }, { 'idempotency-key': 'k-1' });
      expect([first.status, again.status]).toEqual([200, 200]);
      expect(calls).toBe(1);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect([first.headers.get('x-cost'), again.headers.get('x-cost')]).toEqual(['1', '1']);
      expect(again.headers.get('x-region')).toBe('eu');
    } finally {
      await keyed.close();
    }
  });
});

describe('check of response headers', () => {
  const codes = (ops: string) =>
    compileSpecText(`servicespec: 1
resources:
  Item: { fields: { id: { type: uuid, readOnly: true } } }
endpoints:
  operations:
${ops}
`).diagnostics.map((d) => `${d.code} ${d.pointer ?? ''}`);

  it('refuses Location on a create, a required header a built-in action cannot send, duplicates and non-text types', () => {
    expect(codes(`    createItem: { method: POST, path: /items, action: create, resource: Item, response_headers: { location: { type: string } } }`)).toContain(
      'response-header-reserved /endpoints/operations/createItem/response_headers/location',
    );
    expect(codes(`    readItem: { method: GET, path: '/items/{id}', action: read, resource: Item, response_headers: { ETag: { type: string } } }`)).toContain(
      'response-header-unproducible /endpoints/operations/readItem/response_headers/ETag',
    );
    expect(
      codes(
        `    readItem: { method: GET, path: '/items/{id}', action: read, resource: Item, response_headers: { ETag: { type: string, optional: true }, X-Rate: { type: string, default: a } } }`,
      ).filter((c) => c.startsWith('response-header')),
    ).toEqual([]);
    expect(
      codes(
        `    q: { method: GET, path: /q, action: custom, handler: q, response: { fields: {} }, response_headers: { X-A: { type: string }, x-a: { type: string } } }`,
      ),
    ).toContain('param-duplicate /endpoints/operations/q/response_headers/x-a');
    expect(
      codes(`    q: { method: GET, path: /q, action: custom, handler: q, response: { fields: {} }, response_headers: { X-A: { type: object } } }`),
    ).toContain('param-type-invalid /endpoints/operations/q/response_headers/X-A/type');
    expect(
      codes(`    q: { method: GET, path: /q, action: custom, handler: q, response: { fields: {} }, response_headers: { X-Request-Id: { type: string } } }`),
    ).toContain('response-header-reserved /endpoints/operations/q/response_headers/X-Request-Id');
  });

  it('refuses a default no header can carry (a line break would split the answer; Node refuses it), and only that', () => {
    const read = (value: string) =>
      codes(
        `    readItem: { method: GET, path: '/items/{id}', action: read, resource: Item, response_headers: { X-Region: { type: string, default: ${value} } } }`,
      );
    expect(read('"eu\\nSet-Cookie: a=b"')).toContain('response-header-default-invalid /endpoints/operations/readItem/response_headers/X-Region/default');
    expect(read('"caf\\u0100"')).toContain('response-header-default-invalid /endpoints/operations/readItem/response_headers/X-Region/default');
    expect(read('"eu-west\\t1 é"').filter((c) => c.startsWith('response-header'))).toEqual([]);
  });
});
