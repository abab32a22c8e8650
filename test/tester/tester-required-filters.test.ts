// A list's required filters (required_filters): the tester sends each on every list request — a ref's value an
// object it made (a Project), another field's a valid value drawn once, which the objects it makes hold, so the list
// has items — and checks that a list without one is refused (endpoints.invalid-requests). The faithful runtime
// passes; a service answering such a list (200) fails there, and only there.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startSpecText, type OrdersServer } from './helpers.js';
import { startProxy } from './mutant-proxy.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText(
    'labels.yaml',
    `servicespec: 1
resources:
  Project:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string, maxLength: 20 }
  Label:
    fields:
      id: { type: uuid, readOnly: true }
      project_id: { type: ref, to: Project }
      kind: { type: enum, values: [bug, feature, chore] }
      name: { type: string, maxLength: 20 }
endpoints:
  operations:
    createProject: { method: POST, path: /projects, action: create, resource: Project }
    getProject: { method: GET, path: "/projects/{id}", action: read, resource: Project }
    createLabel: { method: POST, path: /labels, action: create, resource: Label }
    getLabel: { method: GET, path: "/labels/{id}", action: read, resource: Label }
    listLabels: { method: GET, path: /labels, action: list, resource: Label, filter: [project_id, kind, name], required_filters: [project_id, kind] }
authentication:
  default: none
errors:
  body: problem
  codes:
    invalid: { status: 422, when: [validation, reference_not_found] }
    missing: { status: 404, when: [missing_resource, route_not_found] }
    other: { status: 400, when: [malformed_request, method_not_allowed, headers_too_large, unsupported_media_type, body_too_large, internal] }
`,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const only = ['endpoints.valid-requests', 'endpoints.invalid-requests', 'endpoints.list-edges', 'endpoints.list-paging'];

it('passes the faithful service, each list request carrying both required filters, the list holding items', async () => {
  const lists: string[] = [];
  const proxy = await startProxy(s.url, {
    observe: (req, res) =>
      void (req.method === 'GET' && /^\/labels(\?|$)/.test(req.path) && lists.push(`${res.status} ${req.path} ${res.body.toString('utf8')}`)),
  });
  try {
    const r = await testService(s.model, { baseUrl: proxy.url, ...s.options, seed: 3, only });
    expect(r.results.filter((x) => x.outcome === 'failed').map((x) => [x.check, x.target, x.failure?.actual])).toEqual([]);
    const targets = r.results.filter((x) => x.target.startsWith('listLabels')).map((x) => `${x.check} ${x.target} ${x.outcome}`);
    expect(targets).toEqual(
      expect.arrayContaining([
        'endpoints.valid-requests listLabels passed',
        'endpoints.list-edges listLabels passed',
        'endpoints.invalid-requests listLabels: project_id missing (required filter) passed',
        'endpoints.invalid-requests listLabels: kind missing (required filter) passed',
      ]),
    );
    // Only the two requests leaving one out on purpose lack either.
    const lacking = lists.filter((x) => !/[?&]project_id=/.test(x) || !/[?&]kind=/.test(x));
    expect(lacking.map((x) => x.split(' ')[0])).toEqual(['422', '422']);
    // The project_id sent names a Project the run made, and pages hold the Labels it made.
    const project = /[?&]project_id=([0-9a-f-]{36})/.exec(lists.find((x) => x.startsWith('200 '))!)![1]!;
    expect((await fetch(`${s.url}/projects/${project}`)).status).toBe(200);
    expect(lists.some((x) => x.startsWith('200 ') && x.includes(`"project_id":"${project}"`))).toBe(true);
  } finally {
    await proxy.close();
  }
}, 120_000);

it('fails a service that answers a list without a required filter', async () => {
  // The mutant fills a missing kind in before the service sees it: the list is answered (200) where it must be refused.
  const proxy = await startProxy(s.url, {
    request: (req) =>
      req.method === 'GET' && /^\/labels(\?|$)/.test(req.path) && !/[?&]kind=/.test(req.path)
        ? { ...req, path: `${req.path}${req.path.includes('?') ? '&' : '?'}kind=bug` }
        : req,
  });
  try {
    const r = await testService(s.model, { baseUrl: proxy.url, ...s.options, seed: 3, only });
    const failed = r.results.filter((x) => x.outcome === 'failed');
    expect(failed.map((x) => [x.check, x.target])).toEqual([['endpoints.invalid-requests', 'listLabels: kind missing (required filter)']]);
    expect(failed[0]!.failure?.actual).toMatch(/^status 200/);
  } finally {
    await proxy.close();
  }
}, 120_000);
