import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { startService, type Running } from './helpers.js';

// Response envelopes (docs/format.md, "Response envelopes"): giphy's { data, meta, pagination } around reads, lists,
// creates and updates, over real HTTP on the test database (SQLite, or PostgreSQL with SERVICESPEC_TEST_DB=postgres),
// on the fast paths and the plain ones. Error answers keep the declared error body.
const SPEC = `
servicespec: 1
resources:
  Gif:
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string }
      rating: { type: string, optional: true }
endpoints:
  idempotency: { header: Idempotency-Key, retention: 1h }
  envelope:
    data: data
    fields:
      meta:
        type: object
        fields:
          msg: { type: string }
          status: { type: integer }
          response_id: { type: string }
      pagination:
        type: object
        optional: true
        fields:
          total_count: { type: integer }
          count: { type: integer }
          offset: { type: integer }
    status: meta.status
    status_text: meta.msg
    request_id: meta.response_id
    total: pagination.total_count
    count: pagination.count
    offset: pagination.offset
  operations:
    createGif: { method: POST, path: /gifs, action: create, resource: Gif }
    getGif: { method: GET, path: '/gifs/{id}', action: read, resource: Gif }
    updateGif: { method: PATCH, path: '/gifs/{id}', action: update, resource: Gif }
    deleteGif: { method: DELETE, path: '/gifs/{id}', action: delete, resource: Gif }
    trending: { method: GET, path: /gifs, action: list, resource: Gif, filter: [rating], paging: { style: offset, body: array } }
    bare: { method: GET, path: /bare/gifs, action: list, resource: Gif, envelope: none }
    cursor:
      method: GET
      path: /c/gifs
      action: list
      resource: Gif
      paging: { body: array }
      envelope:
        data: results
        fields:
          ok: { type: boolean, default: true }
          next: { type: string, nullable: true }
          size: { type: integer }
          meta: { type: object, fields: { api: { type: string, default: v2 } } }
        next: next
        limit: size
    leases:
      method: GET
      path: /k/gifs
      action: list
      resource: Gif
      paging: { body: array, params: { cursor: continue } }
      envelope:
        data: items
        fields:
          kind: { type: string, optional: true }
          metadata: { type: object, optional: true, fields: { continue: { type: string, optional: true }, resourceVersion: { type: string, optional: true } } }
        next: metadata.continue
    jsonapi:
      method: GET
      path: /j/gifs
      action: list
      resource: Gif
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
    skipped:
      method: GET
      path: /o/gifs
      action: list
      resource: Gif
      paging: { style: offset, body: array }
      envelope: { data: data, fields: { meta: { type: object, fields: { first: { type: string }, next: { type: string, optional: true }, previous: { type: string, nullable: true } } } }, first_link: meta.first, next_link: meta.next, previous_link: meta.previous }
    tokens:
      method: GET
      path: /t/gifs
      action: list
      resource: Gif
      paging: { body: array, link: true }
      envelope: { data: data, fields: { meta: { type: object, fields: { url: { type: string }, first_page_url: { type: string }, next_page_url: { type: string, nullable: true } } } }, self_link: meta.url, first_link: meta.first_page_url, next_link: meta.next_page_url }
authentication:
  default: none
errors:
  body:
    fields:
      meta: { type: object, optional: true, fields: { msg: { type: string } } }
      message: { type: string }
      status: { type: integer }
  codes:
    invalid: { status: 400, when: [validation, malformed_request, unsupported_media_type] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
    other: { status: 500, when: [method_not_allowed, internal, unique_conflict, idempotency_conflict, idempotency_in_progress] }
limits:
  page_size: { default: 2, max: 3 }
`;

for (const fastPaths of [true, false]) {
  describe(`response envelopes (fast paths ${fastPaths ? 'on' : 'off'})`, () => {
    let service: Running;
    let first: string;
    beforeAll(async () => {
      const c = compileSpecText(SPEC);
      expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      service = await startService(c.model!, { fastPaths });
      for (const [title, rating] of [
        ['a', 'g'],
        ['b', 'pg'],
        ['c', 'g'],
      ]) {
        const r = await service.call('POST', '/gifs', { title, rating });
        expect(r.status).toBe(201);
        first ??= r.body.data.id;
      }
    });
    afterAll(async () => service?.close());

    it('a create answers the object in data, with meta and no pagination', async () => {
      const r = await service.call('POST', '/gifs', { title: 'd' }, { 'x-request-id': 'req-1' });
      expect(r.status).toBe(201);
      expect(Object.keys(r.body)).toEqual(['data', 'meta']);
      expect(r.body.data.title).toBe('d');
      expect(r.body.meta).toEqual({ msg: 'Created', status: 201, response_id: 'req-1' });
      expect(r.headers.get('location')).toBe(`/gifs/${r.body.data.id}`);
    });

    it('a read and an update answer the object in data', async () => {
      const r = await service.call('GET', `/gifs/${first}`, undefined, { 'x-request-id': 'req-2' });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ data: { id: first, title: 'a', rating: 'g' }, meta: { msg: 'OK', status: 200, response_id: 'req-2' } });
      const u = await service.call('PATCH', `/gifs/${first}`, { rating: 'y' });
      expect(u.status).toBe(200);
      expect(u.body.data).toEqual({ id: first, title: 'a', rating: 'y' });
      expect(u.body.meta.status).toBe(200);
      await service.call('PATCH', `/gifs/${first}`, { rating: 'g' });
    });

    it('an offset list answers the page in data and its position in pagination', async () => {
      const r = await service.call('GET', '/gifs?limit=2&offset=1&rating=g');
      expect(r.status).toBe(200);
      expect(r.body.data.map((g: { title: string }) => g.title)).toEqual(['c']);
      expect(r.body.pagination).toEqual({ total_count: 2, count: 1, offset: 1 });
      expect(r.body.meta.msg).toBe('OK');
      const all = await service.call('GET', '/gifs');
      expect(all.body.pagination).toEqual({ total_count: 4, count: 2, offset: 0 });
    });

    it('a Kubernetes-like list: the cursor in metadata.continue, read back as `continue`, left out on the last page (not nullable)', async () => {
      const r = await service.call('GET', '/k/gifs?limit=3');
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['items', 'metadata']);
      expect(Object.keys(r.body.metadata)).toEqual(['continue']);
      expect(r.body.items).toHaveLength(3);
      const last = await service.call('GET', `/k/gifs?limit=3&continue=${encodeURIComponent(r.body.metadata.continue)}`);
      expect(last.status).toBe(200);
      // No next cursor: metadata holds nothing else written, so it is left out too, never {"continue": null}.
      expect(last.body).toEqual({ items: [expect.objectContaining({ title: 'd' })] });
    });

    it('a cursor list with its own envelope carries the next cursor, null on the last page, and its constants', async () => {
      const r = await service.call('GET', '/c/gifs?limit=3');
      // A field with a default is a constant, written on every answer, a nested one in its object.
      expect(Object.keys(r.body)).toEqual(['results', 'ok', 'next', 'size', 'meta']);
      expect(r.body.ok).toBe(true);
      expect(r.body.meta).toEqual({ api: 'v2' });
      expect(r.body.results).toHaveLength(3);
      expect(r.body.size).toBe(3);
      expect(typeof r.body.next).toBe('string');
      const last = await service.call('GET', `/c/gifs?limit=3&cursor=${encodeURIComponent(r.body.next)}`);
      expect(last.body).toEqual({ results: [expect.objectContaining({ title: 'd' })], ok: true, next: null, size: 3, meta: { api: 'v2' } });
    });

    it("JSON:API's links and meta: this page's, the first, next and previous pages' whole addresses, the total and the page count", async () => {
      const base = `http://${new URL(service.url).host}`;
      const r = await service.call('GET', '/j/gifs?page%5Bsize%5D=3');
      expect(r.status).toBe(200);
      expect(r.body.data).toHaveLength(3);
      expect(r.body.links).toEqual({
        self: `${base}/j/gifs?page%5Bsize%5D=3`,
        first: `${base}/j/gifs?page%5Bsize%5D=3&page%5Bnumber%5D=1`,
        next: `${base}/j/gifs?page%5Bsize%5D=3&page%5Bnumber%5D=2`,
        prev: null,
        last: `${base}/j/gifs?page%5Bsize%5D=3&page%5Bnumber%5D=2`,
      });
      expect(r.body.meta).toEqual({ total: 4, pages: 2 });
      const last = await service.call('GET', '/j/gifs?page%5Bsize%5D=3&page%5Bnumber%5D=2');
      expect(last.body.data).toHaveLength(1);
      expect(last.body.links).toEqual({
        self: `${base}/j/gifs?page%5Bsize%5D=3&page%5Bnumber%5D=2`,
        first: `${base}/j/gifs?page%5Bsize%5D=3&page%5Bnumber%5D=1`,
        next: null,
        prev: `${base}/j/gifs?page%5Bsize%5D=3&page%5Bnumber%5D=1`,
        last: `${base}/j/gifs?page%5Bsize%5D=3&page%5Bnumber%5D=2`,
      });
      // Past the end, the last page is still the one holding the last object; with nothing matching, the first.
      const past = await service.call('GET', '/j/gifs?page%5Bsize%5D=3&page%5Bnumber%5D=7');
      expect(past.body.links.last).toBe(`${base}/j/gifs?page%5Bsize%5D=3&page%5Bnumber%5D=2`);
      // Brackets sent unencoded (curl -g, a browser): this page's address is written encoded too, a URI as the others are.
      const raw = await fetch(`${service.url}/j/gifs?page[size]=3&page[number]=2`);
      expect(((await raw.json()) as { links: { self: string } }).links.self).toBe(`${base}/j/gifs?page%5Bsize%5D=3&page%5Bnumber%5D=2`);
    });

    it('an offset list: the first page at offset 0, the previous one moved back; an optional next left out on the last page', async () => {
      const base = `http://${new URL(service.url).host}`;
      const r = await service.call('GET', '/o/gifs?offset=1&limit=2');
      expect(r.body.meta).toEqual({
        first: `${base}/o/gifs?offset=0&limit=2`,
        next: `${base}/o/gifs?offset=3&limit=2`,
        previous: `${base}/o/gifs?offset=0&limit=2`,
      });
      const last = await service.call('GET', '/o/gifs?offset=3&limit=2');
      expect(last.body.meta).toEqual({ first: `${base}/o/gifs?offset=0&limit=2`, previous: `${base}/o/gifs?offset=1&limit=2` });
    });

    it('a cursor list: its first page asked with no cursor, its next one with the next cursor (as in the Link header)', async () => {
      const base = `http://${new URL(service.url).host}`;
      const r = await service.call('GET', '/t/gifs?limit=3');
      expect(r.body.meta.url).toBe(`${base}/t/gifs?limit=3`);
      expect(r.body.meta.first_page_url).toBe(`${base}/t/gifs?limit=3`);
      const link = /^<([^>]*)>; rel="next"$/.exec(r.headers.get('link') ?? '')![1]!;
      expect(r.body.meta.next_page_url).toBe(`${base}${link}`);
      const last = await service.call('GET', link);
      expect(last.body.meta.next_page_url).toBeNull();
      expect(last.body.meta.first_page_url).toBe(`${base}/t/gifs?limit=3`);
    });

    it('envelope: none answers bare, and a delete answers no body', async () => {
      const r = await service.call('GET', '/bare/gifs');
      expect(Object.keys(r.body)).toEqual(['items', 'next_cursor']);
      const made = await service.call('POST', '/gifs', { title: 'gone' });
      const d = await service.call('DELETE', `/gifs/${made.body.data.id}`);
      expect(d.status).toBe(204);
      expect(d.body).toBeUndefined();
    });

    it('errors keep the declared error body, not the envelope', async () => {
      const r = await service.call('GET', '/gifs/00000000-0000-7000-8000-000000000000');
      expect(r.status).toBe(404);
      expect(r.body.data).toBeUndefined();
      expect(r.body.status).toBe(404);
      const bad = await service.call('POST', '/gifs', { title: 3 });
      expect(bad.status).toBe(400);
      expect(bad.body.data).toBeUndefined();
    });

    it('a keyed create replays its first answer, envelope included', async () => {
      const key = { 'idempotency-key': `k-${fastPaths}`, 'x-request-id': 'first' };
      const a = await service.call('POST', '/gifs', { title: 'keyed' }, key);
      const b = await service.call('POST', '/gifs', { title: 'keyed' }, { ...key, 'x-request-id': 'second' });
      expect(a.status).toBe(201);
      expect(b.status).toBe(201);
      expect(b.body).toEqual(a.body);
      expect(a.body.meta.response_id).toBe('first');
      await service.call('DELETE', `/gifs/${a.body.data.id}`);
    });
  });
}
