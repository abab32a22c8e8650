// A member of a nested object, or of a list's object items, with a default (Shopify's variants[].requires_shipping:
// true) takes it where a create, a replace or an update writing the object leaves it out, as a field of the resource
// does: the answers hold it, as their schema requires. Before, it was stored without it, and serve's own answers broke
// its declared shape (a shop sweep: `/variants/0 must have required property 'requires_shipping'`).
import { describe, expect, it } from 'vitest';
import { checkedModel } from '../support/specs.js';
import { startService } from './helpers.js';

const SPEC = `servicespec: 1
resources:
  Product:
    fields:
      id: { type: uuid, readOnly: true }
      variants:
        type: array
        items:
          type: object
          fields:
            price: { type: string }
            requires_shipping: { type: boolean, default: true }
      seo:
        type: object
        optional: true
        fields:
          slug: { type: string }
          indexed: { type: boolean, default: false }
          tags: { type: array, items: { type: string }, default: [] }
endpoints:
  operations:
    createProduct: { method: POST, path: /products, action: create, resource: Product }
    getProduct: { method: GET, path: '/products/{id}', action: read, resource: Product }
    updateProduct: { method: PATCH, path: '/products/{id}', action: update, resource: Product }
    replaceProduct: { method: PUT, path: '/products/{id}', action: replace, resource: Product }
authentication:
  default: none
`;

describe('defaults of nested members', () => {
  for (const fastPaths of [true, false])
    it(`are filled where a request leaves them out (fast paths ${fastPaths ? 'on' : 'off'})`, async () => {
      const s = await startService(checkedModel(SPEC), { fastPaths });
      try {
        const made = await s.call('POST', '/products', { variants: [{ price: '1' }, { price: '2', requires_shipping: false }], seo: { slug: 'a' } });
        expect([made.status, made.body.variants, made.body.seo]).toEqual([
          201,
          [
            { price: '1', requires_shipping: true },
            { price: '2', requires_shipping: false },
          ],
          { slug: 'a', indexed: false, tags: [] },
        ]);
        const id = made.body.id as string;
        expect((await s.call('GET', `/products/${id}`)).body.variants).toEqual(made.body.variants);
        const updated = await s.call('PATCH', `/products/${id}`, { variants: [{ price: '3' }] });
        expect([updated.status, updated.body.variants]).toEqual([200, [{ price: '3', requires_shipping: true }]]);
        const replaced = await s.call('PUT', `/products/${id}`, { variants: [], seo: { slug: 'b', indexed: true } });
        expect([replaced.status, replaced.body.seo]).toEqual([200, { slug: 'b', indexed: true, tags: [] }]);
      } finally {
        await s.close();
      }
    });
});
