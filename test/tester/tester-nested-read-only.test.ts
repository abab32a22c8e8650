// A read-only member of a nested object or of an array's items (Shopify's `variants[].id`, `image.created_at`) is
// the service's to set: no request sends it, so the tester neither asks its absence refused nor breaks its type.
// Before, `variants[0].id missing (required)` was sent as invalid and a faithful service's 201 failed (a shop
// sweep: 75 false failures).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { codePoints, isObject, startHandServer, takeObject, type HandServer } from '../support/hand-server.js';
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
function start(fault: boolean): Promise<HandServer> {
  let next = 1;
  return startHandServer((req, reply) => {
    if (req.method !== 'POST' || req.url !== '/products') return reply.problem(404, 'not_found');
    const b = takeObject(req, reply);
    if (!b) return;
    const { title, variants, ...rest } = b;
    if (Object.keys(rest).length > 0 || codePoints(title) < 1 || codePoints(title) > 20) return reply.problem(422, 'invalid');
    if (!Array.isArray(variants) || variants.length > 3) return reply.problem(422, 'invalid');
    for (const v of variants) {
      if (!isObject(v)) return reply.problem(422, 'invalid');
      const { price, ...more } = v;
      if (Object.keys(more).length > 0 || typeof price !== 'string' || (!fault && !/^[0-9]+\.[0-9]{2}$/.test(price))) return reply.problem(422, 'invalid');
    }
    const p = { id: crypto.randomUUID(), title, variants: variants.map((v: Record<string, unknown>) => ({ id: next++, price: v.price })) };
    reply.json(201, p, 'application/json', { location: `/products/${p.id}` });
  });
}

describe('a nested read-only member', () => {
  let faithful: HandServer;
  let faulty: HandServer;
  beforeAll(async () => {
    faithful = await start(false);
    faulty = await start(true);
  });
  afterAll(() => {
    faithful?.close();
    faulty?.close();
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
