// endpoints.envelope: the judge reads an enveloped answer as its data (every other check sees the object or the
// page) and holds the envelope to its fields and values. Against the real runtime it passes; a proxy that writes a
// wrong status, miscounts a page, answers bare or writes another value in a constant (`success: true`) is caught.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import type { TestReport } from '../../src/tester/tester-types.js';
import { startSpec, type OrdersServer } from './helpers.js';
import { startProxy, type Mutant, type ProxyResponse } from './mutant-proxy.js';

const dir = mkdtempSync(join(tmpdir(), 'servicespec-tester-envelope-'));
let s: OrdersServer;

beforeAll(async () => {
  const spec = join(dir, 'gifs.yaml');
  writeFileSync(
    spec,
    `servicespec: 1
resources:
  Gif:
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string, maxLength: 20 }
endpoints:
  envelope:
    data: data
    fields:
      success: { type: boolean, default: true }
      meta: { type: object, fields: { msg: { type: string }, status: { type: integer }, response_id: { type: string } } }
      pagination: { type: object, optional: true, fields: { total_count: { type: integer }, count: { type: integer }, offset: { type: integer } } }
    status: meta.status
    status_text: meta.msg
    request_id: meta.response_id
    total: pagination.total_count
    count: pagination.count
    offset: pagination.offset
  operations:
    createGif: { method: POST, path: /gifs, action: create, resource: Gif }
    getGif: { method: GET, path: '/gifs/{id}', action: read, resource: Gif }
    listGifs: { method: GET, path: /gifs, action: list, resource: Gif, paging: { style: offset, body: array } }
authentication:
  default: none
errors:
  body: problem
  codes:
    invalid: { status: 400, when: [validation, malformed_request, unsupported_media_type, body_too_large, headers_too_large] }
    missing: { status: 404, when: [missing_resource, route_not_found] }
    other: { status: 405, when: [method_not_allowed] }
    broken: { status: 500, when: [internal] }
limits:
  page_size: { default: 2, max: 5 }
`,
  );
  s = await startSpec(spec);
}, 60_000);
afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

const ONLY = ['endpoints.valid-requests', 'endpoints.list-paging', 'endpoints.envelope', 'endpoints.answer-shape', 'endpoints.location'];
const run = (baseUrl: string): Promise<TestReport> => testService(s.model, { baseUrl, ...s.options, seed: 3, runs: 2, only: ONLY });

it('against the runtime: every check passes, the envelope read as its data', async () => {
  const r = await run(s.url);
  expect(r.results.filter((x) => x.outcome === 'failed').map((x) => [x.check, x.target, x.failure?.actual])).toEqual([]);
  expect(
    r.results
      .filter((x) => x.check === 'endpoints.envelope')
      .map((x) => [x.target, x.outcome])
      .sort(),
  ).toEqual([
    ['createGif', 'passed'],
    ['getGif', 'passed'],
    ['listGifs', 'passed'],
  ]);
});

const rewrite = (r: ProxyResponse, change: (body: Record<string, unknown>) => unknown): ProxyResponse => {
  if (r.status >= 300 || !r.headers['content-type']?.includes('json')) return r;
  const body = Buffer.from(JSON.stringify(change(JSON.parse(r.body.toString()) as Record<string, unknown>)));
  return { ...r, headers: { ...r.headers, 'content-length': String(body.length) }, body };
};

const MUTANTS: (Mutant & { op: string; actual: string })[] = [
  {
    name: 'a wrong status in meta',
    caughtBy: 'endpoints.envelope',
    only: [],
    op: 'getGif',
    actual: "`meta.status` 299, not the answer's status 200",
    response: (r) => rewrite(r, (b) => ({ ...b, meta: { ...(b.meta as object), status: r.status === 201 ? 201 : 299 } })),
  },
  {
    name: 'a page miscounted',
    caughtBy: 'endpoints.envelope',
    only: [],
    op: 'listGifs',
    actual: '`pagination.count` 99, not the',
    response: (r) => rewrite(r, (b) => (b.pagination ? { ...b, pagination: { ...(b.pagination as object), count: 99 } } : b)),
  },
  {
    name: 'a constant with another value',
    caughtBy: 'endpoints.envelope',
    only: [],
    op: 'getGif',
    actual: '`success` false, not its constant true',
    response: (r) => rewrite(r, (b) => (b.pagination === undefined && r.status === 200 ? { ...b, success: false } : b)),
  },
  {
    name: 'the answer without its envelope',
    caughtBy: 'endpoints.envelope',
    only: [],
    op: 'getGif',
    actual: 'an envelope without its data field `data`',
    response: (r) => rewrite(r, (b) => (b.pagination === undefined && r.status === 200 ? b.data : b)),
  },
];

it.each(MUTANTS.map((m) => [m.name, m] as const))(
  'mutant: %s is caught',
  async (_n, mutant) => {
    const proxy = await startProxy(s.url, mutant);
    try {
      const r = await run(proxy.url);
      const hit = r.results.filter((x) => x.check === mutant.caughtBy && x.target === mutant.op && x.outcome === 'failed');
      expect(hit.map((x) => x.failure!.actual.split(';')[0]!.slice(0, mutant.actual.length))).toEqual([mutant.actual]);
    } finally {
      await proxy.close();
    }
  },
  120_000,
);
