// A list whose envelope holds the objects alone, the next page's cursor only in the Link header (`paging.next:
// false`, Shopify's `{products: [...]}` paged by `page_info`): the tester follows the Link header, holds it present
// exactly while a next page exists, and sends altered and forged cursors it read from there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startHandServer, takeObject, type HandServer } from '../support/hand-server.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';
import { startService } from '../runtime/helpers.js';

const SPEC = `servicespec: 1
resources:
  Product:
    fields:
      id: { type: integer, readOnly: true }
      title: { type: string, maxLength: 40 }
endpoints:
  operations:
    createProduct: { method: POST, path: /products, action: create, resource: Product }
    listProducts:
      method: GET
      path: /products
      action: list
      resource: Product
      paging: { items: products, next: false, link: true, params: { cursor: page_info } }
authentication:
  default: none
limits:
  page_size: { default: 2, max: 5 }
${PLAIN_ERRORS}`;

type Fault = 'none' | 'no-link' | 'limit-ignored' | 'forged-500';

function start(fault: Fault): Promise<HandServer> {
  const products: { id: number; title: string }[] = [];
  return startHandServer((req, reply) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname !== '/products') return reply.problem(404, 'not_found');
    if (req.method === 'POST') {
      const b = takeObject(req, reply);
      if (!b) return;
      const { title, ...rest } = b;
      if (Object.keys(rest).length > 0 || typeof title !== 'string' || [...title].length > 40) return reply.problem(422, 'invalid');
      const p = { id: products.length + 1, title };
      products.push(p);
      return reply.json(201, p, 'application/json', { location: `/products/${p.id}` });
    }
    if (req.method !== 'GET') return reply.notAllowed('GET, POST');
    const q = url.searchParams;
    for (const k of q.keys()) if (k !== 'limit' && k !== 'page_info') return reply.problem(422, 'invalid');
    const limitText = q.get('limit') ?? '2';
    if (!/^[0-9]+$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > 5) return reply.problem(422, 'invalid');
    const limit = fault === 'limit-ignored' ? 5 : Number(limitText);
    let start = 0;
    const info = q.get('page_info');
    if (info !== null) {
      const m = /^after-([0-9]+)$/.exec(Buffer.from(info, 'base64url').toString());
      if (!m) return fault === 'forged-500' ? reply.json(500, { oops: true }) : reply.problem(422, 'invalid');
      start = products.findIndex((p) => p.id > Number(m[1]));
      if (start < 0) start = products.length;
    }
    const page = products.slice(start, start + limit);
    const more = start + limit < products.length;
    const headers: Record<string, string> = {};
    const last = page.at(-1);
    if (more && fault !== 'no-link')
      headers.link = `</products?limit=${limit}&page_info=${Buffer.from(`after-${last!.id}`).toString('base64url')}>; rel="next"`;
    reply.json(200, { products: page }, 'application/json', headers);
  });
}

describe('a list paged by the Link header alone (next: false)', () => {
  const servers = new Map<Fault, HandServer>();
  beforeAll(async () => {
    for (const f of ['none', 'no-link', 'limit-ignored', 'forged-500'] as const) servers.set(f, await start(f));
  });
  afterAll(() => {
    for (const s of servers.values()) s.close();
  });
  const failed = async (url: string) =>
    (await testService(checkedModel(SPEC), { baseUrl: url, seed: 5, only: ['endpoints'] })).results
      .filter((x) => x.outcome === 'failed')
      .map((x) => `${x.check}: ${x.failure?.expected ?? ''} / ${x.failure?.actual ?? ''}`);

  it('a faithful service passes', async () => {
    expect(await failed(servers.get('none')!.url)).toEqual([]);
  }, 60_000);

  it.each([
    ['no-link', 'endpoints.list-paging', 'missing after 2 items'],
    ['limit-ignored', 'endpoints.list-edges', 'at most 1 item for limit=1'],
    ['forged-500', 'endpoints.', 'status 500'],
  ] as const)(
    'a service with %s fails %s',
    async (fault, check, words) => {
      const f = await failed(servers.get(fault)!.url);
      expect(f.some((x) => x.startsWith(check) && x.includes(words))).toBe(true);
    },
    60_000,
  );

  it('servicespec serve pages it so: its own answers pass', async () => {
    const s = await startService(checkedModel(SPEC));
    try {
      expect(await failed(s.url)).toEqual([]);
    } finally {
      await s.close();
    }
  }, 60_000);
});
