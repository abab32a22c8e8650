// An envelope's page addresses and page count (docs/format.md, "Response envelopes": self_link, first_link,
// next_link, previous_link, pages; JSON:API's { data, links: { self, first, next, prev }, meta: { total, pages } }):
// against the runtime every check passes; a proxy that points a page's next address at the page itself, writes a
// previous page before the first, miscounts the pages or drops a parameter from the page's own address is caught.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import type { TestReport } from '../../src/tester/tester-types.js';
import { startSpec, type OrdersServer } from './helpers.js';
import { startProxy, type Mutant, type ProxyResponse } from './mutant-proxy.js';

const dir = mkdtempSync(join(tmpdir(), 'servicespec-tester-envelope-links-'));
let s: OrdersServer;

beforeAll(async () => {
  const spec = join(dir, 'articles.yaml');
  writeFileSync(
    spec,
    `servicespec: 1
resources:
  Article:
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string, maxLength: 20 }
endpoints:
  operations:
    createArticle: { method: POST, path: /articles, action: create, resource: Article }
    getArticle: { method: GET, path: '/articles/{id}', action: read, resource: Article }
    listArticles:
      method: GET
      path: /articles
      action: list
      resource: Article
      paging: { style: page, body: array, params: { page: 'page[number]', limit: 'page[size]' } }
      envelope:
        data: data
        fields:
          links: { type: object, fields: { self: { type: uri }, first: { type: uri }, next: { type: uri, nullable: true }, prev: { type: uri, nullable: true }, last: { type: uri } } }
          meta: { type: object, fields: { total: { type: integer }, pages: { type: integer } } }
        total: meta.total
        pages: meta.pages
        self_link: links.self
        first_link: links.first
        next_link: links.next
        previous_link: links.prev
        last_link: links.last
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

const ONLY = ['endpoints.valid-requests', 'endpoints.list-paging', 'endpoints.envelope', 'endpoints.answer-shape'];
const run = (baseUrl: string): Promise<TestReport> => testService(s.model, { baseUrl, ...s.options, seed: 3, runs: 2, only: ONLY });

it('against the runtime: every check passes', async () => {
  const r = await run(s.url);
  expect(r.results.filter((x) => x.outcome === 'failed').map((x) => [x.check, x.target, x.failure?.actual])).toEqual([]);
  expect(r.results.filter((x) => x.check === 'endpoints.envelope' && x.target === 'listArticles').map((x) => x.outcome)).toEqual(['passed']);
});

type Page = { data: unknown[]; links: Record<string, string | null>; meta: Record<string, number> };
const rewrite = (r: ProxyResponse, change: (body: Page) => unknown): ProxyResponse => {
  if (r.status >= 300 || !r.headers['content-type']?.includes('json')) return r;
  const page = JSON.parse(r.body.toString()) as Page;
  if (page.links === undefined) return r;
  const body = Buffer.from(JSON.stringify(change(page)));
  return { ...r, headers: { ...r.headers, 'content-length': String(body.length) }, body };
};

const MUTANTS: (Mutant & { actual: string })[] = [
  {
    name: "a next page's address naming the page itself",
    caughtBy: 'endpoints.envelope',
    only: [],
    actual: '`links.next`',
    response: (r) => rewrite(r, (b) => ({ ...b, links: { ...b.links, next: b.links.next === null ? null : b.links.self } })),
  },
  {
    name: 'a previous page on the first page',
    caughtBy: 'endpoints.envelope',
    only: [],
    actual: '`links.prev`',
    response: (r) => rewrite(r, (b) => ({ ...b, links: { ...b.links, prev: b.links.prev ?? b.links.self } })),
  },
  {
    name: "the last page's address naming the first page",
    caughtBy: 'endpoints.envelope',
    only: [],
    actual: '`links.last`',
    response: (r) => rewrite(r, (b) => ({ ...b, links: { ...b.links, last: (b.meta.pages ?? 0) > 1 ? b.links.first : b.links.last } })),
  },
  {
    name: 'the pages miscounted',
    caughtBy: 'endpoints.envelope',
    only: [],
    actual: '`meta.pages`',
    response: (r) => rewrite(r, (b) => ({ ...b, meta: { ...b.meta, pages: (b.meta.pages ?? 0) + 1 } })),
  },
  {
    name: "the page's own address without its page size",
    caughtBy: 'endpoints.envelope',
    only: [],
    actual: '`links.self`',
    response: (r) =>
      rewrite(r, (b) => {
        const self = new URL(b.links.self!);
        self.searchParams.delete('page[size]');
        return { ...b, links: { ...b.links, self: self.href } };
      }),
  },
];

it.each(MUTANTS.map((m) => [m.name, m] as const))(
  'mutant: %s is caught',
  async (_n, mutant) => {
    const proxy = await startProxy(s.url, mutant);
    try {
      const r = await run(proxy.url);
      const hit = r.results.filter((x) => x.check === mutant.caughtBy && x.target === 'listArticles' && x.outcome === 'failed');
      expect(hit.map((x) => x.failure!.actual.slice(0, mutant.actual.length))).toEqual([mutant.actual]);
    } finally {
      await proxy.close();
    }
  },
  120_000,
);
