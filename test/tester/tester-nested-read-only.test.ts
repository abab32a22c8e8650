// A read-only member of a nested object or of an array's items (Shopify's `variants[].id`, `image.created_at`) is
// the service's to set: no request sends it, so the tester neither asks its absence refused nor breaks its type.
// Before, `variants[0].id missing (required)` was sent as invalid and a faithful service's 201 failed (a shop
// sweep: 75 false failures).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';

const SPEC = `servicespec: 1
resources:
  Product:
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string, minLength: 1, maxLength: 20 }
      variants:
        type: array
        maxItems: 3
        items:
          type: object
          fields:
            id: { type: integer, readOnly: true }
            price: { type: string, pattern: '^[0-9]+\\.[0-9]{2}$' }
endpoints:
  operations:
    createProduct: { method: POST, path: /products, action: create, resource: Product, errors: [invalid] }
authentication:
  default: none
${PLAIN_ERRORS}`;

/** Products by hand: variant ids are the service's; `fault`: a variant's price pattern is not enforced. */
function start(fault: boolean): Promise<{ url: string; server: Server }> {
  let next = 1;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      const answer = (status: number, body: unknown, type = 'application/problem+json') => {
        res.writeHead(status, { 'content-type': type });
        res.end(JSON.stringify(body));
      };
      const problem = (status: number, code: string) => answer(status, { type: 'about:blank', title: code, status, code });
      if (req.method !== 'POST' || req.url !== '/products') return problem(404, 'not_found');
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return problem(415, 'not_json');
      let b: unknown;
      try {
        b = JSON.parse(text);
      } catch {
        return problem(400, 'bad_body');
      }
      const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
      if (!isObj(b)) return problem(422, 'invalid');
      const { title, variants, ...rest } = b;
      if (Object.keys(rest).length > 0) return problem(422, 'invalid');
      if (typeof title !== 'string' || [...title].length < 1 || [...title].length > 20) return problem(422, 'invalid');
      if (!Array.isArray(variants) || variants.length > 3) return problem(422, 'invalid');
      for (const v of variants) {
        if (!isObj(v)) return problem(422, 'invalid');
        const { price, ...more } = v;
        if (Object.keys(more).length > 0 || typeof price !== 'string' || (!fault && !/^[0-9]+\.[0-9]{2}$/.test(price))) return problem(422, 'invalid');
      }
      const p = { id: crypto.randomUUID(), title, variants: variants.map((v: Record<string, unknown>) => ({ id: next++, price: v.price })) };
      res.setHeader('location', `/products/${p.id}`);
      return answer(201, p, 'application/json');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

describe('a nested read-only member', () => {
  let faithful: { url: string; server: Server };
  let faulty: { url: string; server: Server };
  beforeAll(async () => {
    faithful = await start(false);
    faulty = await start(true);
  });
  afterAll(() => {
    faithful?.server.close();
    faulty?.server.close();
  });
  const run = (url: string) => testService(checkedModel(SPEC), { baseUrl: url, seed: 1, only: ['endpoints.invalid-requests', 'endpoints.valid-requests'] });

  it('is neither asked for nor broken: a faithful service passes', async () => {
    const r = await run(faithful.url);
    expect(r.results.filter((x) => x.outcome === 'failed').map((x) => [x.target, x.failure?.actual])).toEqual([]);
    expect(r.results.filter((x) => x.target.includes('variants[0].id'))).toEqual([]);
    expect(r.results.some((x) => x.outcome === 'passed' && x.target.startsWith('createProduct: variants[0].price not matching pattern'))).toBe(true);
  }, 60_000);

  it("a service not enforcing the writable member's pattern still fails", async () => {
    const r = await run(faulty.url);
    expect(r.results.filter((x) => x.outcome === 'failed').some((x) => x.target.startsWith('createProduct: variants[0].price not matching pattern'))).toBe(
      true,
    );
  }, 60_000);
});
