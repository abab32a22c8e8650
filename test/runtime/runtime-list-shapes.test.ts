import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { startService, type Running } from './helpers.js';

// List shapes (operation.paging): a bare array, limit/offset, page/per_page, a Link header (RFC 8288) and a total,
// served over real HTTP on the test database (SQLite, or PostgreSQL with SERVICESPEC_TEST_DB=postgres).
const SPEC = `
servicespec: 1
resources:
  Pet:
    fields:
      id: { type: integer, readOnly: true }
      name: { type: string }
      tag: { type: string, optional: true }
endpoints:
  operations:
    createPet: { method: POST, path: /pets, action: create, resource: Pet }
    listCursor: { method: GET, path: /pets, action: list, resource: Pet, filter: [tag], sort: [name] }
    listArrayLink: { method: GET, path: /a/pets, action: list, resource: Pet, filter: [tag], paging: { body: array, link: true } }
    listOffset: { method: GET, path: /o/pets, action: list, resource: Pet, filter: [tag], sort: [name], paging: { style: offset, items: data, total: total_count } }
    listPage: { method: GET, path: /p/pets, action: list, resource: Pet, paging: { style: page, body: array, link: true } }
    listAll: { method: GET, path: /all/pets, action: list, resource: Pet, filter: [tag], paging: { style: none, body: array } }
    listContinue: { method: GET, path: /k/pets, action: list, resource: Pet, filter: [tag], paging: { link: true, params: { cursor: continue } } }
    listToken: { method: GET, path: /g/pets, action: list, resource: Pet, sort: [name], paging: { items: pets, next: nextPageToken, params: { limit: pageSize, cursor: pageToken } } }
    listTokenLeftOut: { method: GET, path: /go/pets, action: list, resource: Pet, paging: { items: pets, next: nextPageToken, next_optional: true, params: { limit: pageSize, cursor: pageToken } } }
    listSkip: { method: GET, path: /s/pets, action: list, resource: Pet, paging: { style: offset, body: array, link: true, params: { offset: skip, limit: top } } }
    listNumbered: { method: GET, path: /n/pets, action: list, resource: Pet, paging: { style: page, body: array, link: true, params: { page: page_number, limit: page_size } } }
    listCounted: { method: GET, path: /t/pets, action: list, resource: Pet, filter: [tag], paging: { style: page, body: array, link: true, total_header: X-Total-Count } }
    listAfter: { method: GET, path: /st/pets, action: list, resource: Pet, filter: [tag], paging: { style: after, items: data, has_more: has_more } }
    listAfterArray: { method: GET, path: /sa/pets, action: list, resource: Pet, paging: { style: after, body: array, link: true, params: { cursor: after } } }
    listShop: { method: GET, path: /sh/pets, action: list, resource: Pet, filter: [tag], paging: { items: products, next: false, link: true, params: { cursor: page_info } } }
    listCountedBoth: { method: GET, path: /tb/pets, action: list, resource: Pet, filter: [tag], paging: { total: total, total_header: X-Total } }
authentication:
  default: none
errors:
  body: problem
  codes:
    invalid: { status: 422, when: [validation] }
    other: { status: 400, when: [malformed_request, route_not_found, method_not_allowed, unsupported_media_type, internal, missing_resource, unique_conflict] }
limits:
  page_size: { default: 2, max: 3 }
`;

let service: Running;

beforeAll(async () => {
  const c = compileSpecText(SPEC);
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  // CORS on: a browser client reads the total header only where it is exposed.
  service = await startService(c.model!, { cors: { origins: ['*'] } });
  for (const [name, tag] of [
    ['a', 'x'],
    ['b', 'y'],
    ['c', 'x'],
    ['d', 'x'],
    ['e', 'y'],
  ])
    expect((await service.call('POST', '/pets', { name, tag })).status).toBe(201);
});
afterAll(async () => service?.close());

const names = (items: { name: string }[]) => items.map((p) => p.name);
const nextOf = (link: string | null) => (link === null ? null : (/^<([^>]*)>; rel="next"$/.exec(link)?.[1] ?? 'malformed'));

describe('list shapes', () => {
  it('the default stays the cursor envelope', async () => {
    const r = await service.call('GET', '/pets');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['items', 'next_cursor']);
    expect(names(r.body.items)).toEqual(['a', 'b']);
    expect(r.headers.get('link')).toBeNull();
  });

  it('a bare array with the next page in the Link header, followed to the end', async () => {
    const seen: string[] = [];
    let path: string | null = '/a/pets?tag=x';
    let pages = 0;
    while (path !== null) {
      const r = await service.call('GET', path);
      expect(r.status).toBe(200);
      expect(Array.isArray(r.body)).toBe(true);
      seen.push(...names(r.body));
      path = nextOf(r.headers.get('link'));
      pages++;
    }
    expect(seen).toEqual(['a', 'c', 'd']);
    expect(pages).toBe(2);
  });

  it('next: false: an envelope holding the objects alone, the next cursor only in the Link header (Shopify)', async () => {
    const seen: string[] = [];
    let path: string | null = '/sh/pets?tag=x';
    let pages = 0;
    while (path !== null) {
      const r = await service.call('GET', path);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['products']);
      seen.push(...names(r.body.products));
      path = nextOf(r.headers.get('link'));
      if (path !== null) expect(path).toMatch(/^\/sh\/pets\?tag=x&page_info=[^&]+$/);
      pages++;
    }
    expect(seen).toEqual(['a', 'c', 'd']);
    expect(pages).toBe(2);
  });

  it('limit/offset in an envelope with its own names and a total', async () => {
    const r = await service.call('GET', '/o/pets?limit=2&offset=1&sort=-name');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: [expect.objectContaining({ name: 'd' }), expect.objectContaining({ name: 'c' })], total_count: 5 });
    const x = await service.call('GET', '/o/pets?tag=x&offset=2');
    expect(x.body).toEqual({ data: [expect.objectContaining({ name: 'd' })], total_count: 3 });
    const past = await service.call('GET', '/o/pets?offset=50');
    expect(past.body).toEqual({ data: [], total_count: 5 });
  });

  it('page/per_page with Link', async () => {
    const r1 = await service.call('GET', '/p/pets?per_page=3');
    expect(names(r1.body)).toEqual(['a', 'b', 'c']);
    expect(nextOf(r1.headers.get('link'))).toBe('/p/pets?per_page=3&page=2');
    const r2 = await service.call('GET', '/p/pets?per_page=3&page=2');
    expect(names(r2.body)).toEqual(['d', 'e']);
    expect(r2.headers.get('link')).toBeNull();
  });

  it('paging.total_header: a bare array with the total of every match in X-Total-Count, on every page', async () => {
    const r1 = await service.call('GET', '/t/pets?per_page=2');
    expect(names(r1.body)).toEqual(['a', 'b']);
    expect(r1.headers.get('x-total-count')).toBe('5');
    const r3 = await service.call('GET', '/t/pets?per_page=2&page=3');
    expect(names(r3.body)).toEqual(['e']);
    expect(r3.headers.get('x-total-count')).toBe('5');
    const past = await service.call('GET', '/t/pets?per_page=2&page=9');
    expect(past.body).toEqual([]);
    expect(past.headers.get('x-total-count')).toBe('5');
    const x = await service.call('GET', '/t/pets?tag=x&per_page=1');
    expect(names(x.body)).toEqual(['a']);
    expect(x.headers.get('x-total-count')).toBe('3');
    const browser = await service.call('GET', '/t/pets', undefined, { origin: 'https://app.example' });
    expect(browser.headers.get('access-control-expose-headers')?.split(', ')).toEqual(expect.arrayContaining(['location', 'x-total-count', 'x-total']));
    // The default cursor list names no total header: none is sent.
    expect((await service.call('GET', '/pets')).headers.get('x-total-count')).toBeNull();
  });

  it("style after (Stripe): { data, has_more }, the next page asked with starting_after the last id, in the identifier's order", async () => {
    const seen: string[] = [];
    const more: boolean[] = [];
    let path = '/st/pets?limit=2';
    for (let i = 0; i < 5; i++) {
      const r = await service.call('GET', path);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['data', 'has_more']);
      seen.push(...names(r.body.data));
      more.push(r.body.has_more);
      if (!r.body.has_more) break;
      path = `/st/pets?limit=2&starting_after=${r.body.data.at(-1).id}`;
    }
    expect(seen).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(more).toEqual([true, true, false]);
    // Filtered: has_more counts the matches only.
    const x = await service.call('GET', '/st/pets?tag=x&limit=3');
    expect([names(x.body.data), x.body.has_more]).toEqual([['a', 'c', 'd'], false]);
    // The last object named: an empty last page.
    const last = x.body.data.at(-1).id;
    expect((await service.call('GET', `/st/pets?tag=x&starting_after=${last}`)).body).toEqual({ data: [], has_more: false });
  });

  it('style after: an identifier of no object of the list, or not an identifier, is validation naming the parameter', async () => {
    for (const bad of ['999', 'abc']) {
      const r = await service.call('GET', `/st/pets?starting_after=${bad}`);
      expect(r.status).toBe(422);
      expect(JSON.stringify(r.body)).toContain('starting_after');
    }
  });

  it('style after as a bare array renamed `after`, its Link header naming the last id', async () => {
    const r1 = await service.call('GET', '/sa/pets?limit=3');
    expect(names(r1.body)).toEqual(['a', 'b', 'c']);
    expect(nextOf(r1.headers.get('link'))).toBe(`/sa/pets?limit=3&after=${r1.body[2].id}`);
    const r2 = await service.call('GET', nextOf(r1.headers.get('link'))!);
    expect(names(r2.body)).toEqual(['d', 'e']);
    expect(r2.headers.get('link')).toBeNull();
  });

  it('paging.total_header beside an envelope total: the same count in both', async () => {
    const r = await service.call('GET', '/tb/pets?tag=y');
    expect(r.body).toEqual({ items: [expect.objectContaining({ name: 'b' }), expect.objectContaining({ name: 'e' })], next_cursor: null, total: 2 });
    expect(r.headers.get('x-total')).toBe('2');
  });

  it('style none answers every matching object at once, up to the largest page (page_size.max)', async () => {
    const r = await service.call('GET', '/all/pets?tag=x');
    expect([r.status, names(r.body)]).toEqual([200, ['a', 'c', 'd']]);
  });

  it('style none refuses, never cuts, a list with more objects than the largest page', async () => {
    const r = await service.call('GET', '/all/pets');
    expect([r.status, r.body.code, r.body.detail]).toEqual([
      422,
      'invalid',
      'more than 3 objects match: a list without paging answers at most 3 (limits.page_size.max); narrow it with its filters',
    ]);
  });

  it('paging.params: a cursor read as `continue`, its Link header naming `continue`, followed to the end', async () => {
    const seen: string[] = [];
    let path: string | null = '/k/pets?tag=x';
    const links: string[] = [];
    while (path !== null) {
      const r = await service.call('GET', path);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['items', 'next_cursor']);
      seen.push(...names(r.body.items));
      path = nextOf(r.headers.get('link'));
      if (path !== null) links.push(path);
      // The Link header and the envelope give one cursor.
      expect(path === null ? null : new URLSearchParams(path.slice(path.indexOf('?') + 1)).get('continue')).toBe(r.body.next_cursor);
    }
    expect(seen).toEqual(['a', 'c', 'd']);
    expect(links).toEqual([expect.stringMatching(/^\/k\/pets\?tag=x&continue=[^&]+$/)]);
  });

  it('paging.params: pageSize and pageToken, the envelope named too, every sort', async () => {
    for (const [sort, want] of [
      ['', ['a', 'b', 'c', 'd', 'e']],
      ['&sort=-name', ['e', 'd', 'c', 'b', 'a']],
    ] as const) {
      const seen: string[] = [];
      let token: string | null = null;
      do {
        const r = await service.call('GET', `/g/pets?pageSize=2${sort}${token === null ? '' : `&pageToken=${encodeURIComponent(token)}`}`);
        expect(r.status).toBe(200);
        expect(Object.keys(r.body)).toEqual(['pets', 'nextPageToken']);
        expect(r.body.pets.length).toBeLessThanOrEqual(2);
        seen.push(...names(r.body.pets));
        token = r.body.nextPageToken;
      } while (token !== null);
      expect(seen).toEqual(want);
    }
  });

  it("paging.next_optional: the next cursor is left out of the last page (Google's nextPageToken), never null", async () => {
    const seen: string[] = [];
    const shapes: string[][] = [];
    let token: string | undefined;
    do {
      const r = await service.call('GET', `/go/pets?pageSize=2${token === undefined ? '' : `&pageToken=${encodeURIComponent(token)}`}`);
      expect(r.status).toBe(200);
      shapes.push(Object.keys(r.body));
      seen.push(...names(r.body.pets));
      token = r.body.nextPageToken;
      expect(token === undefined || typeof token === 'string').toBe(true);
    } while (token !== undefined);
    expect(seen).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(shapes).toEqual([['pets', 'nextPageToken'], ['pets', 'nextPageToken'], ['pets']]);
  });

  it('paging.params: offset as skip and top, page as page_number and page_size, each Link naming them', async () => {
    const r1 = await service.call('GET', '/s/pets?top=2&skip=1');
    expect(names(r1.body)).toEqual(['b', 'c']);
    expect(nextOf(r1.headers.get('link'))).toBe('/s/pets?top=2&skip=3');
    const r2 = await service.call('GET', '/s/pets?top=2&skip=3');
    expect(names(r2.body)).toEqual(['d', 'e']);
    const n1 = await service.call('GET', '/n/pets?page_size=3');
    expect(names(n1.body)).toEqual(['a', 'b', 'c']);
    expect(nextOf(n1.headers.get('link'))).toBe('/n/pets?page_size=3&page_number=2');
    const n2 = await service.call('GET', '/n/pets?page_size=3&page_number=2');
    expect(names(n2.body)).toEqual(['d', 'e']);
    expect(n2.headers.get('link')).toBeNull();
  });

  it.each([
    ['/k/pets?cursor=abc', 'cursor'],
    ['/k/pets?continue=abc', 'continue'],
    ['/g/pets?limit=2', 'limit'],
    ['/g/pets?pageSize=4', 'pageSize'],
    ['/g/pets?pageSize=0', 'pageSize'],
    ['/s/pets?offset=1', 'offset'],
    ['/s/pets?skip=-1', 'skip'],
    ['/n/pets?page=2', 'page'],
    ['/n/pets?per_page=2', 'per_page'],
    ['/n/pets?page_number=0', 'page_number'],
  ])('paging.params: %s is refused naming %s', async (path, parameter) => {
    const r = await service.call('GET', path);
    expect(r.status).toBe(422);
    expect(r.body.invalid_params ?? r.body.errors ?? r.body).toEqual(expect.arrayContaining([expect.objectContaining({ parameter })]));
  });

  it.each([
    ['/o/pets?offset=-1', 'offset'],
    ['/o/pets?offset=x', 'offset'],
    ['/o/pets?cursor=abc', 'cursor'],
    ['/p/pets?page=0', 'page'],
    ['/p/pets?page=99999999999999999999', 'page'],
    ['/p/pets?per_page=4', 'per_page'],
    ['/p/pets?limit=2', 'limit'],
    ['/all/pets?limit=2', 'limit'],
  ])('%s is refused naming %s', async (path, parameter) => {
    const r = await service.call('GET', path);
    expect(r.status).toBe(422);
    expect(r.body.invalid_params ?? r.body.errors ?? r.body).toEqual(expect.arrayContaining([expect.objectContaining({ parameter })]));
  });
});
