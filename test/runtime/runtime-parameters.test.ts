import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HandlerContext } from '../../src/runtime/runtime-context.js';
import { startService, type Running } from './helpers.js';
import { checkedModel } from '../support/specs.js';

// Query parameters and headers a custom operation declares (operation.query, operation.headers): read as their
// type, checked, answered `validation` naming the parameter, and handed to the handler typed.
const SPEC = `
servicespec: 1
endpoints:
  operations:
    listPods:
      method: GET
      path: /pods
      action: custom
      handler: listPods
      response: { fields: { seen: { type: json } } }
      query:
        labelSelector: { type: string, optional: true, maxLength: 20 }
        limit: { type: integer, minimum: 1, maximum: 500 }
        watch: { type: boolean, optional: true, default: false }
        order: { type: enum, values: [name, age], optional: true }
        tag: { type: array, items: { type: string }, optional: true, maxItems: 3 }
        page[size]: { type: integer, optional: true }
      headers:
        X-Trace-Id: { type: uuid, optional: true }
        X-Shards: { type: array, items: { type: integer }, optional: true }
    notWritten:
      method: POST
      path: /later
      action: custom
      handler: notWritten
      request: { fields: { a: { type: string } } }
      response: { fields: { b: { type: string } } }
authentication:
  default: none
errors:
  body: problem
  codes:
    invalid: { status: 422, title: Invalid request, when: [validation] }
    not_yet: { status: 501, title: Not implemented yet, when: [not_implemented] }
    other: { status: 400, when: [malformed_request, route_not_found, method_not_allowed, headers_too_large, body_too_large, unsupported_media_type, internal] }
limits:
  body_size: 1KiB
`;

const model = checkedModel;

let service: Running;
let seen: Pick<HandlerContext, 'query' | 'headers'> | undefined;

beforeAll(async () => {
  service = await startService(model(SPEC), {
    allowGaps: true,
    handlers: {
      listPods: (ctx) => {
        seen = { query: ctx.query, headers: ctx.headers };
        return { seen: { query: ctx.query, headers: ctx.headers } };
      },
    },
  });
});
afterAll(() => service.close());

describe('declared query parameters and headers of a custom operation', () => {
  it('hands them to the handler typed, with defaults, undeclared ones as sent', async () => {
    const id = '0190a7e4-5b0c-7000-8000-000000000001';
    const r = await service.call('GET', '/pods?limit=10&labelSelector=app%3Dweb&order=age&tag=a&tag=b&page%5Bsize%5D=5&other=x', undefined, {
      'x-trace-id': id,
      'X-Shards': '1, 2',
    });
    expect(r.status).toBe(200);
    expect(seen?.query).toEqual({ limit: 10, labelSelector: 'app=web', watch: false, order: 'age', tag: ['a', 'b'], 'page[size]': 5, other: 'x' });
    expect(seen?.headers).toEqual({ 'X-Trace-Id': id, 'X-Shards': [1, 2] });
  });

  it('answers a bad value, a missing required one and a repeated scalar with validation, naming each', async () => {
    const r = await service.call('GET', '/pods?limit=0&watch=yes&order=size&tag=a&tag=b&tag=c&tag=d', undefined, { 'X-Trace-Id': 'nope' });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('invalid');
    const byName = Object.fromEntries(
      (r.body.errors as { parameter: string; in: string; message: string }[]).map((e) => [`${e.in} ${e.parameter}`, e.message]),
    );
    expect(Object.keys(byName).sort()).toEqual(['header X-Trace-Id', 'query limit', 'query order', 'query tag', 'query watch']);
    expect(byName['query watch']).toBe('must be true or false');
    expect(byName['query order']).toBe('must be one of name, age');

    const missing = await service.call('GET', '/pods');
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([{ parameter: 'limit', in: 'query', message: 'is required' }]);

    const twice = await service.call('GET', '/pods?limit=1&limit=2');
    expect(twice.body.errors).toEqual([{ parameter: 'limit', in: 'query', message: 'must be given once' }]);

    const long = await service.call('GET', `/pods?limit=1&labelSelector=${'x'.repeat(21)}`);
    expect(long.status).toBe(422);
    expect(long.body.errors[0]).toMatchObject({ parameter: 'labelSelector', in: 'query' });
  });

  it('answers a custom operation served without its handler with the declared not_implemented code', async () => {
    const r = await service.call('POST', '/later', { a: 'x' });
    expect(r.status).toBe(501);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(r.body).toMatchObject({ code: 'not_yet', status: 501, title: 'Not implemented yet' });
    expect(r.body.detail).toContain('notWritten');
  });

  it('checks a request to an operation without its handler against the spec first: a bad body is the declared validation error, not 501', async () => {
    const r = await service.call('POST', '/later', { a: 1 });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ code: 'invalid' });
  });
});
