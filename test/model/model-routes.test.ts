import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  getErrorCodes,
  getRouteHeads,
  getRoutes,
  getUndeclaredConditions,
  LIST_PARAMS,
  PAGE_FIELDS,
  type OperationRoute,
} from '../../src/model/model-routes.js';
import { compileSpecFile, compileSpecText } from '../../src/program.js';
import { yaml } from '../check/helpers.js';

const orders = compileSpecFile('examples/orders.yaml').model!;
const library = compileSpecFile('examples/library.yaml').model!;

// Conditions every authenticated, rate-limited, time-limited, versioned route of orders.yaml can produce.
const AUTH = ['missing_credential', 'invalid_credential', 'expired_credential', 'missing_scope'];
const BODY = ['validation', 'unsupported_media_type', 'body_too_large'];
const IDEM = ['idempotency_conflict', 'idempotency_in_progress'];
// Conditions every operation route can produce.
// A request the server cannot read (malformed URL, no Host, oversized headers) can be sent to any route.
const ANY = ['internal', 'headers_too_large', 'malformed_request'];

describe('getRoutes on orders.yaml', () => {
  const routes = getRoutes(orders);

  it('serves exactly these method/path pairs, in spec order, then the token and stream routes', () => {
    expect(routes.map((r) => `${r.kind} ${r.method} ${r.path}`)).toEqual([
      'operation POST /customers',
      'operation GET /customers/{id}',
      'operation GET /customers',
      'operation POST /orders',
      'operation GET /orders/{id}',
      'operation GET /orders',
      'operation PATCH /orders/{id}',
      'operation PUT /orders/{id}',
      'operation DELETE /orders/{id}',
      'operation POST /orders/{id}/pay',
      'operation POST /orders/{id}/ship',
      'operation POST /orders/{id}/cancel',
      'operation POST /quotes',
      'token POST /oauth/token',
      'stream GET /events',
      'webhooks POST /webhooks',
      'webhooks GET /webhooks',
      'webhooks DELETE /webhooks/{id}',
      'webhooks POST /webhooks/{id}/rotate',
    ]);
    expect(routes.map((r) => r.routerPath)).toContain('/orders/:id/pay');
    // The webhook registration uses the default requirement with the declared scopes; the stream the default.
    expect(routes.find((r) => r.kind === 'webhooks')).toMatchObject({ auth: { kind: 'required', schemes: ['key', 'bearer'], scopes: ['webhooks:manage'] } });
    expect(routes.find((r) => r.kind === 'stream')).toMatchObject({ auth: { kind: 'required', schemes: ['key', 'bearer'], scopes: ['orders:read'] } });
  });

  it('names the conditions each route can produce', () => {
    const byRoute = Object.fromEntries(routes.map((r) => [`${r.method} ${r.path}`, [...r.conditions].sort()]));
    const expected: Record<string, string[]> = {
      'POST /customers': [...ANY, ...BODY, ...AUTH, 'rate_limited', 'timeout', 'unique_conflict', 'unsupported_version', ...IDEM],
      'GET /customers/{id}': [...ANY, 'missing_resource', ...AUTH, 'rate_limited', 'timeout', 'unsupported_version'],
      'GET /customers': [...ANY, 'validation', ...AUTH, 'rate_limited', 'timeout', 'unsupported_version'],
      'POST /orders': [...ANY, ...BODY, ...AUTH, 'rate_limited', 'timeout', 'reference_not_found', 'unsupported_version', ...IDEM],
      'GET /orders/{id}': [...ANY, 'missing_resource', ...AUTH, 'not_owner', 'rate_limited', 'timeout', 'unsupported_version'],
      'GET /orders': [...ANY, 'validation', ...AUTH, 'rate_limited', 'timeout', 'unsupported_version'],
      'PATCH /orders/{id}': [
        ...ANY,
        ...BODY,
        'missing_resource',
        ...AUTH,
        'not_owner',
        'rate_limited',
        'timeout',
        'reference_not_found',
        'unsupported_version',
        ...IDEM,
      ],
      'PUT /orders/{id}': [
        ...ANY,
        ...BODY,
        'missing_resource',
        ...AUTH,
        'not_owner',
        'rate_limited',
        'timeout',
        'reference_not_found',
        'unsupported_version',
        ...IDEM,
      ],
      'DELETE /orders/{id}': [...ANY, 'body_too_large', 'missing_resource', ...AUTH, 'not_owner', 'rate_limited', 'timeout', 'unsupported_version', ...IDEM],
      'POST /orders/{id}/pay': [
        ...ANY,
        ...BODY,
        'missing_resource',
        'illegal_transition',
        ...AUTH,
        'not_owner',
        'rate_limited',
        'timeout',
        'unsupported_version',
        ...IDEM,
      ],
      'POST /orders/{id}/ship': [
        ...ANY,
        ...BODY,
        'missing_resource',
        'illegal_transition',
        ...AUTH,
        'not_owner',
        'rate_limited',
        'timeout',
        'unsupported_version',
        ...IDEM,
      ],
      'POST /orders/{id}/cancel': [
        ...ANY,
        ...BODY,
        'missing_resource',
        'illegal_transition',
        ...AUTH,
        'not_owner',
        'rate_limited',
        'timeout',
        'unsupported_version',
        ...IDEM,
      ],
      'POST /quotes': [...ANY, ...BODY, 'not_implemented', 'rate_limited', 'timeout', 'unsupported_version', ...IDEM],
      'POST /oauth/token': ['validation', 'malformed_request', 'invalid_credential', 'missing_scope', 'rate_limited', 'internal', 'headers_too_large'],
      'GET /events': [...ANY, 'validation', ...AUTH, 'rate_limited', 'unsupported_version'],
      'POST /webhooks': [...ANY, ...BODY, ...AUTH, 'rate_limited', 'unsupported_version'],
      'GET /webhooks': [...ANY, ...AUTH, 'rate_limited', 'unsupported_version'],
      'DELETE /webhooks/{id}': [...ANY, 'body_too_large', 'missing_resource', ...AUTH, 'rate_limited', 'unsupported_version'],
      'POST /webhooks/{id}/rotate': [...ANY, ...BODY, 'missing_resource', ...AUTH, 'rate_limited', 'unsupported_version'],
    };
    expect(byRoute).toEqual(Object.fromEntries(Object.entries(expected).map(([k, v]) => [k, [...v].sort()])));
  });

  it('operation routes carry the operation, its resource, machine, transition, body flag and success status', () => {
    const pay = routes.find((r): r is OperationRoute => r.kind === 'operation' && r.operation.id === 'payOrder')!;
    expect(pay.resource?.name).toBe('Order');
    expect(pay.machine?.resource).toBe('Order');
    expect(pay.transition?.name).toBe('pay');
    expect(pay.hasBody).toBe(true);
    expect(pay.successStatus).toBe(200);
    expect(pay.pathParams).toEqual(['id']);
    const del = routes.find((r): r is OperationRoute => r.kind === 'operation' && r.operation.id === 'deleteOrder')!;
    expect([del.hasBody, del.successStatus]).toEqual([false, 204]);
  });

  it('list routes take limit and cursor, the declared filters, and sort when sort fields are declared', () => {
    expect(LIST_PARAMS).toEqual({ limit: 'limit', cursor: 'cursor', sort: 'sort', offset: 'offset', page: 'page', perPage: 'per_page' });
    expect(PAGE_FIELDS).toEqual({ items: 'items', next: 'next_cursor' });
    const list = routes.find((r): r is OperationRoute => r.kind === 'operation' && r.operation.id === 'listOrders')!;
    expect(list.query.map((q) => `${q.kind}:${q.name}${q.field ? `(${q.field.type})` : ''}`)).toEqual([
      'limit:limit',
      'cursor:cursor',
      'filter:status(state)',
      'filter:currency(string)',
      'sort:sort',
    ]);
    const read = routes.find((r): r is OperationRoute => r.kind === 'operation' && r.operation.id === 'getOrder')!;
    expect(read.query).toEqual([]);
  });

  it('maps conditions to the declared codes', () => {
    const get = routes.find((r) => r.method === 'GET' && r.path === '/orders/{id}')!;
    expect(getErrorCodes(orders, get)).toEqual([
      { condition: 'internal', code: 'internal', status: 500 },
      { condition: 'headers_too_large', code: 'headers_too_large', status: 431 },
      { condition: 'malformed_request', code: 'malformed_request', status: 400 },
      { condition: 'unsupported_version', code: 'unsupported_version', status: 400 },
      { condition: 'missing_credential', code: 'unauthenticated', status: 401 },
      { condition: 'invalid_credential', code: 'unauthenticated', status: 401 },
      { condition: 'rate_limited', code: 'rate_limited', status: 429 },
      { condition: 'expired_credential', code: 'unauthenticated', status: 401 },
      { condition: 'missing_scope', code: 'forbidden', status: 403 },
      { condition: 'missing_resource', code: 'not_found', status: 404 },
      { condition: 'not_owner', code: 'forbidden', status: 403 },
      { condition: 'timeout', code: 'timeout', status: 503 },
    ]);
    expect(getUndeclaredConditions(orders)).toEqual([]);
  });
});

describe('getRoutes: versions and built-in routes', () => {
  it('a path placement prefixes every operation and the stream', () => {
    const routes = getRoutes(library);
    expect(routes[0]!.path).toBe('/v{version}/books');
    expect(routes[0]!.routerPath).toBe('/v:version/books');
    expect(routes[0]!.pathParams).toEqual(['version']);
    expect(routes.find((r) => r.kind === 'stream')).toMatchObject({ path: '/v{version}/events' });
    expect(routes.filter((r) => r.kind === 'webhooks').map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v{version}/webhooks',
      'GET /v{version}/webhooks',
      'DELETE /v{version}/webhooks/{id}',
      'POST /v{version}/webhooks/{id}/rotate',
    ]);
  });

  it('a query placement adds the version parameter to every operation', () => {
    const m = compileSpecText(yaml`
      servicespec: 1
      endpoints:
        operations:
          ping: { method: GET, path: /ping, action: custom, handler: ping, response: { fields: { ok: { type: boolean } } } }
      versioning: { scheme: integer, current: 1, placement: { query: v } }
    `).model!;
    const [route] = getRoutes(m) as OperationRoute[];
    expect(route!.query).toEqual([{ name: 'v', kind: 'version' }]);
    expect(route!.conditions).toContain('unsupported_version');
  });

  it('a spec with no endpoints serves no routes and can produce no conditions', () => {
    const m = compileSpecFile('examples/empty.yaml').model!;
    expect(getRoutes(m)).toEqual([]);
    expect(getUndeclaredConditions(m)).toEqual([]);
  });

  it('conditions that no code declares are listed', () => {
    const m = compileSpecText(
      'servicespec: 1\nresources:\n  A:\n    fields:\n      id: { type: uuid }\nendpoints:\n  operations:\n    getA: { method: GET, path: "/a/{id}", action: read, resource: A }\n',
    ).model!;
    expect(getUndeclaredConditions(m).sort()).toEqual([
      'headers_too_large',
      'internal',
      'malformed_request',
      'method_not_allowed',
      'missing_resource',
      'route_not_found',
    ]);
  });
});

describe('getRouteHeads', () => {
  // check reads the heads alone (reserved paths, producible conditions); the routes are built from them.
  const files = readdirSync('examples', { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => join('examples', f));
  it.each(files)('%s: one head per route, in order, with its kind, method, path and (the same) conditions', (file) => {
    const model = compileSpecFile(file).model;
    if (!model) return;
    const heads = getRouteHeads(model);
    const routes = getRoutes(model);
    expect(heads.map((h) => [h.kind, h.method, h.path])).toEqual(routes.map((r) => [r.kind, r.method, r.path]));
    heads.forEach((h, i) => expect(routes[i]!.conditions).toBe(h.conditions));
  });
});
