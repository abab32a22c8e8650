// paging.previous_link on a list numbered by page (Django REST Framework's PageNumberPagination): serve passes, and a
// service whose previous address asks two pages back fails endpoints (the planted fault behind a proxy).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startSpecText, type OrdersServer } from './helpers.js';
import { startProxy, type RunningProxy } from './mutant-proxy.js';

const SPEC = `servicespec: 1
resources:
  Book:
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string, maxLength: 40 }
endpoints:
  operations:
    createBook: { method: POST, path: /books, action: create, resource: Book }
    readBook: { method: GET, path: '/books/{id}', action: read, resource: Book }
    listBooks: { method: GET, path: /books, action: list, resource: Book, paging: { style: page, items: results, total: count, next_link: next, previous_link: previous } }
authentication:
  default: none
errors:
  codes:
    invalid: { status: 422, when: [validation, malformed_request, unsupported_media_type, body_too_large, headers_too_large] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
    method: { status: 405, when: [method_not_allowed] }
    internal: { status: 500, when: [internal] }
limits:
  page_size: { default: 2, max: 50 }
`;

describe('previous_link of a list numbered by page', () => {
  let served: OrdersServer;
  let proxy: RunningProxy;
  beforeAll(async () => {
    served = await startSpecText('books.yaml', SPEC);
    for (let i = 0; i < 7; i++)
      await fetch(`${served.url}/books`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: `b${i}` }) });
    // The planted fault: a page's previous address asks two pages back (page=1 stays, as the first page's).
    proxy = await startProxy(served.url, {
      response(r, req) {
        if (req.method !== 'GET' || !req.path.startsWith('/books?') || r.status !== 200) return r;
        const page = JSON.parse(r.body.toString('utf8')) as { previous: string | null };
        if (typeof page.previous === 'string') {
          const at = new URL(page.previous);
          const n = Number(at.searchParams.get('page') ?? '1');
          if (n > 1) at.searchParams.set('page', String(n - 1));
          page.previous = at.toString();
        }
        const body = Buffer.from(JSON.stringify(page));
        return { ...r, headers: { ...r.headers, 'content-length': String(body.length) }, body };
      },
    });
  });
  afterAll(async () => {
    await proxy?.close();
    await served?.close();
  });

  const failures = async (url: string) =>
    (await testService(served.model, { ...served.options, baseUrl: url, seed: 1 })).results
      .filter((r) => r.outcome === 'failed')
      .map((r) => `${r.check} ${r.target}: ${r.failure?.actual ?? ''}`);

  it('serve passes', async () => {
    expect(await failures(served.url)).toEqual([]);
  }, 60_000);

  it('a previous address two pages back fails, the request naming no page size', async () => {
    const failed = await failures(proxy.url);
    expect(failed.some((f) => f.includes('previous') && f.includes("not the previous page's address"))).toBe(true);
  }, 60_000);
});
