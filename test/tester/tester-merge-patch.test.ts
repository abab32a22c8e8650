// An update whose request is a JSON merge patch (request_media_type: application/merge-patch+json, RFC 7396): the
// tester sends it as that type, holds what a patch leaves (objects merged, a null removing the field) and sends a
// null for each field that may be absent. A service that ignores the null, refuses it, keeps a required field's
// null, or takes the body as application/json where the spec says merge patch only, is caught.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startSpecText, type OrdersServer } from './helpers.js';
import { json, startProxy, withJson, type ProxyRequest } from './mutant-proxy.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText(
    'projects.yaml',
    `servicespec: 1
resources:
  Project:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string, maxLength: 20 }
      description: { type: string, nullable: true, maxLength: 20 }
      note: { type: string, optional: true, maxLength: 20 }
      homepage: { type: string, optional: true, nullable: true, maxLength: 20 }
      settings:
        type: object
        optional: true
        fields:
          color: { type: string, maxLength: 10 }
          icon: { type: string, optional: true, maxLength: 10 }
endpoints:
  operations:
    createProject: { method: POST, path: /projects, action: create, resource: Project }
    getProject: { method: GET, path: "/projects/{id}", action: read, resource: Project, errors: [missing] }
    patchProject: { method: PATCH, path: "/projects/{id}", action: update, resource: Project, request_media_type: application/merge-patch+json, errors: [invalid, missing, not_json] }
authentication:
  default: none
errors:
  body: problem
  codes:
    invalid: { status: 422, when: [validation] }
    missing: { status: 404, when: [missing_resource, route_not_found] }
    not_json: { status: 415, when: [unsupported_media_type] }
    other: { status: 400, when: [malformed_request, method_not_allowed, headers_too_large, body_too_large, internal] }
`,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const run = (baseUrl: string) => testService(s.model, { baseUrl, ...s.options, seed: 3, only: ['endpoints.valid-requests', 'endpoints.invalid-requests'] });
const failedOf = async (baseUrl: string) =>
  (await run(baseUrl)).results.filter((x) => x.outcome === 'failed').map((f) => `${f.check} ${f.target}: ${f.failure?.expected} | ${f.failure?.actual}`);
const patchBody = (r: ProxyRequest) =>
  r.method === 'PATCH' && r.body.length > 0 ? (JSON.parse(r.body.toString('utf8')) as Record<string, unknown>) : undefined;

it('passes the faithful service, every PATCH sent as application/merge-patch+json', async () => {
  const types = new Set<string>();
  const proxy = await startProxy(s.url, { observe: (req) => void (req.method === 'PATCH' && types.add(req.headers['content-type'] ?? '')) });
  try {
    const r = await run(proxy.url);
    expect(r.results.filter((x) => x.outcome === 'failed').map((f) => [f.target, f.failure?.expected, f.failure?.actual])).toEqual([]);
    expect(r.results.find((x) => x.check === 'endpoints.valid-requests' && x.target === 'patchProject')?.outcome).toBe('passed');
  } finally {
    await proxy.close();
  }
  // The JSON sent to see it refused, the malformed body as the stated type, the rest as the stated type.
  expect([...types].sort()).toEqual(['application/json', 'application/merge-patch+json', 'text/plain']);
}, 60_000);

it('passes a service answering null for an optional nullable field a null removed (GitHub answers `homepage: null`)', async () => {
  const proxy = await startProxy(s.url, {
    response: (res, req) => {
      if (!/^\/projects\/[^/]+$/.test(req.path) || res.status !== 200) return res;
      const b = json(res) as Record<string, unknown>;
      return 'homepage' in b ? res : withJson(res, { ...b, homepage: null });
    },
  });
  try {
    expect(await failedOf(proxy.url)).toEqual([]);
  } finally {
    await proxy.close();
  }
}, 60_000);

it('catches a service ignoring a null (the field kept)', async () => {
  const proxy = await startProxy(s.url, {
    request: (r) => {
      const b = patchBody(r);
      return b ? { ...r, body: Buffer.from(JSON.stringify(Object.fromEntries(Object.entries(b).filter(([, v]) => v !== null)))) } : r;
    },
  });
  try {
    expect(await failedOf(proxy.url)).toContainEqual(
      expect.stringMatching(/^endpoints\.valid-requests patchProject: (note|description) removed by a merge patch's null/),
    );
  } finally {
    await proxy.close();
  }
}, 60_000);

it('catches a service refusing a null on a field that may be absent', async () => {
  const proxy = await startProxy(s.url, {
    request: (r) =>
      Object.values(patchBody(r) ?? {}).includes(null)
        ? {
            status: 422,
            headers: { 'content-type': 'application/problem+json' },
            body: Buffer.from(JSON.stringify({ code: 'invalid', status: 422, title: 'Unprocessable Content' })),
          }
        : r,
  });
  try {
    expect(await failedOf(proxy.url)).toContainEqual(
      expect.stringMatching(/^endpoints\.valid-requests patchProject: status 200 for (note|description) removed/),
    );
  } finally {
    await proxy.close();
  }
}, 60_000);

it('catches a service taking application/json where the spec says merge patch only', async () => {
  const proxy = await startProxy(s.url, {
    request: (r) =>
      r.method === 'PATCH' && r.headers['content-type'] === 'application/json'
        ? { ...r, headers: { ...r.headers, 'content-type': 'application/merge-patch+json' } }
        : r,
  });
  try {
    expect(await failedOf(proxy.url)).toContainEqual(
      expect.stringMatching(/^endpoints\.invalid-requests patchProject: a body sent as application\/json where the request is application\/merge-patch\+json/),
    );
  } finally {
    await proxy.close();
  }
}, 60_000);
