// The service's own routes under /_servicespec: health (always), the OpenAPI and AsyncAPI documents and the
// console (with `docs`), and `check` refusing a spec path that would collide with them.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { getRoutes, getServiceRoutes, SERVICE_PATHS } from '../../src/model/model-routes.js';
import { createRedisStore } from '../../src/runtime/limits/limits-store.js';
import { yaml } from '../check/helpers.js';
import { startExample, type ConsoleServer } from './console-helpers.js';

describe('with docs: true', () => {
  let s: ConsoleServer;
  beforeAll(async () => {
    s = await startExample('orders.yaml');
  });
  afterAll(async () => s.close());

  it('serves the OpenAPI document of exactly the routes it serves', async () => {
    const r = await s.call('GET', SERVICE_PATHS.openapi);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.body.openapi).toMatch(/^3\.1/);
    const documented = Object.entries(r.body.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
    );
    for (const route of getRoutes(s.model)) expect(documented).toContain(`${route.method} ${route.path}`);
    // The service's own routes are not part of the spec's interface.
    expect(Object.keys(r.body.paths as object).some((p) => p.startsWith('/_servicespec'))).toBe(false);
  });

  it('serves the AsyncAPI document', async () => {
    const r = await s.call('GET', SERVICE_PATHS.asyncapi);
    expect(r.status).toBe(200);
    expect(r.body.asyncapi).toMatch(/^3\./);
    expect(JSON.stringify(r.body)).toContain('order.created');
  });

  it('serves the console as one page that loads nothing from elsewhere', async () => {
    const res = await fetch(`${s.url}${SERVICE_PATHS.docs}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('content-security-policy')).toContain("connect-src 'self'");
    const html = await res.text();
    expect(html).toContain('<!doctype html>');
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=["']?https?:/i);
  });

  it('answers health: the database is reachable', async () => {
    const r = await s.call('GET', SERVICE_PATHS.health);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ok', checks: { database: 'ok' } });
  });

  it('leaves other methods on its own paths to the declared not-found answer', async () => {
    const r = await s.call('POST', SERVICE_PATHS.health, {});
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ code: 'not_found', title: 'Not found', status: 404 });
  });
});

describe('without docs', () => {
  let s: ConsoleServer;
  beforeAll(async () => {
    s = await startExample('library.yaml', { docs: false });
  });
  afterAll(async () => s.close());

  it('serves health but not the documents or the console: those answer the declared not-found body', async () => {
    expect((await s.call('GET', SERVICE_PATHS.health)).status).toBe(200);
    const unknown = await s.call('GET', '/no-such-path');
    expect(unknown.status).toBe(404);
    for (const route of getServiceRoutes().filter((r) => r.docsOnly)) {
      const r = await s.call('GET', route.path);
      // The declared route_not_found answer, like any path the service does not serve.
      expect(r.status).toBe(404);
      expect(r.headers.get('content-type')).toBe(unknown.headers.get('content-type'));
      expect(r.body).toEqual({ ...unknown.body, message: `no operation at GET ${route.path}` });
    }
  });
});

describe('health reports what it cannot reach', () => {
  it('the database: 503 naming it', async () => {
    const s = await startExample('library.yaml', { docs: false });
    try {
      const storage = s.storage as { getSetting: (k: string) => Promise<string | undefined> };
      storage.getSetting = () => Promise.reject(new Error('disk gone'));
      const r = await s.call('GET', SERVICE_PATHS.health);
      expect(r.status).toBe(503);
      expect(r.body).toEqual({ status: 'unavailable', checks: { database: 'unavailable' } });
    } finally {
      await s.close();
    }
  });

  it('Redis, when rate limits are kept there: ok when it answers, 503 when it does not', async () => {
    const up = await startExample('orders.yaml', { docs: false, rateLimitStore: createRedisStore({ url: 'redis://127.0.0.1:6379' }) });
    try {
      const r = await up.call('GET', SERVICE_PATHS.health);
      expect(r.body).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'ok' } });
      expect(r.status).toBe(200);
    } finally {
      await up.close();
    }
    // Nothing listens on port 1.
    const down = await startExample('orders.yaml', { docs: false, rateLimitStore: createRedisStore({ url: 'redis://127.0.0.1:1' }) });
    try {
      const r = await down.call('GET', SERVICE_PATHS.health);
      expect(r.status).toBe(503);
      expect(r.body).toEqual({ status: 'unavailable', checks: { database: 'ok', redis: 'unavailable' } });
    } finally {
      await down.close();
    }
  }, 20_000);
});

describe('check: a spec path under the reserved prefix', () => {
  const spec = (path: string, stream = '/events') => yaml`
    servicespec: 1
    resources:
      Note:
        fields:
          id: { type: uuid, readOnly: true }
    endpoints:
      operations:
        listNotes: { method: GET, path: ${path}, action: list, resource: Note, auth: none }
    events:
      delivery:
        stream: { path: ${stream} }
      kinds:
        note.created: { on: [create], payload: { resource: Note } }
  `;
  it('is reported as reserved-path, with its place', () => {
    const c = compileSpecText(spec('/_servicespec/health'));
    const d = c.diagnostics.filter((x) => x.code === 'reserved-path');
    expect(d).toHaveLength(1);
    expect(d[0]!.severity).toBe('error');
    expect(d[0]!.pointer).toBe('/endpoints/operations/listNotes/path');
    expect(d[0]!.line).toBeGreaterThan(0);
    const stream = compileSpecText(spec('/notes', '/_SERVICESPEC/events')).diagnostics.filter((x) => x.code === 'reserved-path');
    expect(stream.map((x) => x.pointer)).toEqual(['/events/delivery/stream/path']);
  });
  it('is not reported for paths that only look alike', () => {
    expect(compileSpecText(spec('/_servicespecs')).diagnostics.filter((x) => x.code === 'reserved-path')).toEqual([]);
  });
});
