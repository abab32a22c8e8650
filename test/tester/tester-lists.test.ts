// The contract tester pages through every list shape (docs/format.md, "List shapes"): offset, page and cursor
// lists, bare arrays, a Link header, envelopes with their own names and a total — all pass against the real
// runtime; a filter ignored, or a page size past the maximum or other than the default, on a list that states its
// paging fails (a proxy rewrites the requests; these checks ran only on the format's cursor envelope before).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startSpec, type OrdersServer } from './helpers.js';
import { json, startProxy, withJson, type MutantHooks } from './mutant-proxy.js';

const dir = mkdtempSync(join(tmpdir(), 'servicespec-tester-lists-'));
let s: OrdersServer;

beforeAll(async () => {
  const spec = join(dir, 'pets.yaml');
  writeFileSync(
    spec,
    `servicespec: 1
resources:
  Pet:
    fields:
      id: { type: integer, readOnly: true }
      name: { type: string, maxLength: 10 }
endpoints:
  operations:
    createPet: { method: POST, path: /pets, action: create, resource: Pet }
    listArrayLink: { method: GET, path: /a/pets, action: list, resource: Pet, sort: [name], paging: { body: array, link: true } }
    listOffset: { method: GET, path: /o/pets, action: list, resource: Pet, filter: [name], paging: { style: offset, items: data, total: total_count } }
    listPage: { method: GET, path: /p/pets, action: list, resource: Pet, paging: { style: page, body: array, link: true } }
    listNamed: { method: GET, path: /n/pets, action: list, resource: Pet, paging: { items: results, next: after, total: count, link: true } }
    listLimit: { method: GET, path: /l/pets, action: list, resource: Pet, paging: { style: limit, body: array } }
    listAll: { method: GET, path: /all/pets, action: list, resource: Pet, paging: { style: none, body: array } }
    listContinue: { method: GET, path: /k/pets, action: list, resource: Pet, sort: [name], paging: { link: true, params: { cursor: continue } } }
    listSkip: { method: GET, path: /s/pets, action: list, resource: Pet, paging: { style: offset, body: array, params: { offset: skip, limit: top } } }
    listStripe: { method: GET, path: /st/pets, action: list, resource: Pet, filter: [name], paging: { style: after, items: data, has_more: has_more } }
    listCounted: { method: GET, path: /c/pets, action: list, resource: Pet, filter: [name], paging: { style: page, body: array, link: true, total_header: X-Total-Count } }
authentication:
  default: none
errors:
  body: problem
  codes:
    invalid: { status: 422, when: [validation] }
    other: { status: 400, when: [malformed_request, route_not_found, method_not_allowed, headers_too_large, unsupported_media_type, body_too_large, internal, unique_conflict] }
limits:
  page_size: { default: 3, max: 100, over_max: reject }
`,
  );
  s = await startSpec(spec);
}, 60_000);
afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('pages every list shape: each object once, totals right, Link headers exactly while a next page exists', async () => {
  const r = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 3, only: ['endpoints'] });
  const failed = r.results.filter((x) => x.outcome === 'failed');
  expect(failed.map((f) => [f.target, f.failure?.expected, f.failure?.actual])).toEqual([]);
  const paging = r.results.filter((x) => x.check === 'endpoints.list-paging');
  expect(paging.map((x) => [x.target, x.outcome]).sort()).toEqual(
    ['listAll', 'listArrayLink', 'listContinue', 'listCounted', 'listLimit', 'listNamed', 'listOffset', 'listPage', 'listSkip', 'listStripe'].map((id) => [
      id,
      'passed',
    ]),
  );
}, 120_000);

it("passes a second run, against a service holding the first run's objects (a style limit list pages past them)", async () => {
  // The first test's objects are still there: the limit list asked for as many as this run made answered the
  // oldest, and the tester reported this run's objects missing.
  const r = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 4, only: ['endpoints.list-paging'] });
  expect(r.results.filter((x) => x.outcome === 'failed').map((f) => [f.target, f.failure?.actual])).toEqual([]);
}, 120_000);

/** The tester's failures against the runtime behind a proxy that rewrites requests. */
async function failuresBehind(request: MutantHooks['request'], only: string[]): Promise<string[]> {
  const proxy = await startProxy(s.url, { request });
  try {
    const r = await testService(s.model, { baseUrl: proxy.url, ...s.options, seed: 3, only });
    return r.results.filter((x) => x.outcome === 'failed').map((f) => `${f.check} ${f.target}: ${f.failure?.expected} | ${f.failure?.actual}`);
  } finally {
    await proxy.close();
  }
}

it('catches a filter ignored on an offset list (every generated object may share the filtered value)', async () => {
  const failed = await failuresBehind(
    (r) => (r.path.startsWith('/o/pets?') ? { ...r, path: r.path.replace(/([?&])name=[^&]*&?/, '$1') } : r),
    ['endpoints.list-paging'],
  );
  expect(failed).toEqual([expect.stringMatching(/^endpoints\.list-paging listOffset: only items with name = .* \| an item with name = /)]);
}, 120_000);

it('catches a total that ignores the filter (the total of every object) on an offset list', async () => {
  const proxy = await startProxy(s.url, {
    async response(r, req, send) {
      if (req.method !== 'GET' || !/^\/o\/pets\?(.*&)?name=/.test(req.path)) return r;
      const all = json(await send({ ...req, path: '/o/pets' })) as { total_count: number };
      return withJson(r, { ...(json(r) as object), total_count: all.total_count });
    },
  });
  try {
    const r = await testService(s.model, { baseUrl: proxy.url, ...s.options, seed: 3, only: ['endpoints.list-paging'] });
    const failed = r.results.filter((x) => x.outcome === 'failed').map((f) => `${f.target}: ${f.failure?.expected} | ${f.failure?.actual}`);
    expect(failed).toEqual([expect.stringMatching(/^listOffset: the total `total_count` equal to the objects with name = .* \| \d+, but \d+ listed$/)]);
  } finally {
    await proxy.close();
  }
}, 120_000);

it('catches has_more true on the last page of a style after list (Stripe)', async () => {
  const proxy = await startProxy(s.url, {
    response: (r, req) => (req.method === 'GET' && req.path.startsWith('/st/pets') ? withJson(r, { ...(json(r) as object), has_more: true }) : r),
  });
  try {
    const r = await testService(s.model, { baseUrl: proxy.url, ...s.options, seed: 3, only: ['endpoints.list-paging'] });
    const failed = r.results.filter((x) => x.outcome === 'failed').map((f) => `${f.target}: ${f.failure?.expected} | ${f.failure?.actual}`);
    expect(failed).toEqual([expect.stringMatching(/^listStripe: `has_more` true only while objects follow \| true, but the page after it holds none/)]);
  } finally {
    await proxy.close();
  }
}, 120_000);

it('catches a total header (paging.total_header) that counts the page, or ignores the filter, or is missing on a page', async () => {
  const run = async (response: MutantHooks['response']) => {
    const proxy = await startProxy(s.url, { response });
    try {
      const r = await testService(s.model, { baseUrl: proxy.url, ...s.options, seed: 3, only: ['endpoints.list-paging', 'endpoints.answer-shape'] });
      return r.results.filter((x) => x.outcome === 'failed').map((f) => `${f.check} ${f.target}: ${f.failure?.expected} | ${f.failure?.actual}`);
    } finally {
      await proxy.close();
    }
  };
  const counted = (req: { method: string; path: string }) => req.method === 'GET' && req.path.startsWith('/c/pets');
  // X-Total-Count the page's length (tasks-server's total-count-wrong).
  const pageLength = await run(async (r, req) =>
    counted(req) ? { ...r, headers: { ...r.headers, 'x-total-count': String((json(r) as unknown[]).length) } } : r,
  );
  expect(pageLength).toContainEqual(
    expect.stringMatching(
      /^endpoints\.list-paging listCounted: the `X-Total-Count` header equal to the objects listed, on every page \| \d+ on page 1, but \d+ listed in all$/,
    ),
  );
  // Filtered, the total of every object.
  const unfiltered = await run(async (r, req, send) => {
    if (!counted(req) || !req.path.includes('name=')) return r;
    const all = await send({ ...req, path: '/c/pets' });
    return { ...r, headers: { ...r.headers, 'x-total-count': all.headers['x-total-count']! } };
  });
  expect(unfiltered).toEqual([
    expect.stringMatching(/^endpoints\.list-paging listCounted: the `X-Total-Count` header equal to the objects with name = .* \| \d+, but \d+ listed$/),
  ]);
  // Left out of a page after the first.
  const missing = await run(async (r, req) => {
    if (!counted(req) || !/[?&]page=[2-9]/.test(req.path)) return r;
    const headers = { ...r.headers };
    delete headers['x-total-count'];
    return { ...r, headers };
  });
  expect(missing).toContainEqual(
    expect.stringMatching(/^endpoints\.list-paging listCounted: the total in a `X-Total-Count` header on every page \| no X-Total-Count header$/),
  );
}, 120_000);

it('pages by the names paging.params gives: a service that ignores `continue` or `skip` is caught', async () => {
  // The runtime refuses a parameter the list does not read: the first test passing shows the tester sends these
  // names. Here a proxy drops them, as a service reading `cursor` and `offset` would not see them.
  const failed = await failuresBehind(
    (r) => (/^\/(k|s)\/pets\?/.test(r.path) ? { ...r, path: r.path.replace(/([?&])(continue|skip)=[^&]*&?/, '$1').replace(/[?&]$/, '') } : r),
    ['endpoints.list-paging'],
  );
  expect(failed.map((f) => f.split(':')[0]).sort()).toEqual(['endpoints.list-paging listContinue', 'endpoints.list-paging listSkip']);
}, 120_000);

it('catches a sort ignored on a list that states its paging (every generated object may share the sorted value)', async () => {
  const failed = await failuresBehind(
    (r) => (r.path.startsWith('/a/pets?') ? { ...r, path: r.path.replace(/([?&])sort=[^&]*&?/, '$1') } : r),
    ['endpoints.list-paging'],
  );
  expect(failed).toEqual([expect.stringMatching(/^endpoints\.list-paging listArrayLink: items ordered by -?name \| /)]);
}, 120_000);

it('catches a page size over the maximum served, on a list that states its paging', async () => {
  const failed = await failuresBehind((r) => ({ ...r, path: r.path.replace(/([?&](limit|per_page))=101\b/, '$1=100') }), ['limits.page-size']);
  // Every list asked for its page size is asked for the maximum and one more: each one served over it fails.
  expect(failed.length).toBeGreaterThan(1);
  for (const f of failed) expect(f).toMatch(/^limits\.page-size \w+ max 100: invalid for (limit|per_page)=101 \(over_max: reject\) \| status 200/);
}, 120_000);

it('catches a default page size other than the declared one, on a list that states its paging', async () => {
  // Lists asked without a page size get 4 items a page rather than the declared 3.
  const failed = await failuresBehind(
    (r) =>
      r.method === 'GET' && /^\/(a|o|n|l)\/pets(\?|$)/.test(r.path) && !/[?&]limit=/.test(r.path)
        ? { ...r, path: `${r.path}${r.path.includes('?') ? '&' : '?'}limit=4` }
        : r,
    ['limits.page-size'],
  );
  expect(failed).toEqual([expect.stringMatching(/^limits\.page-size \w+ default 3: 3 items by default \(page_size\.default\) when more exist \| 4 items/)]);
}, 120_000);

it('a create answered 200 for its declared 201 stops the paging check, rather than creating until the run is bounded', async () => {
  // The check made objects until five were kept; a 200 keeps none, so it created until --max-requests (3000
  // requests, every later check not run).
  const proxy = await startProxy(s.url, { response: (r, req) => (req.method === 'POST' && r.status === 201 ? { ...r, status: 200 } : r) });
  try {
    const r = await testService(s.model, { baseUrl: proxy.url, ...s.options, seed: 3, only: ['endpoints.list-paging'], maxRequests: 500 });
    expect(r.stoppedBy).toBeUndefined();
    expect(r.results.filter((x) => x.check === 'endpoints.list-paging').map((x) => [x.outcome, x.reason])).toContainEqual([
      'skipped',
      'cannot create Pet objects to page through',
    ]);
  } finally {
    await proxy.close();
  }
}, 120_000);
