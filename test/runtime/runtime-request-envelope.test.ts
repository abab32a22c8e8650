// A request wrapper (`request_envelope: { data: product }`, Rails-style): create, update (JSON and merge patch),
// replace and transition take `{ "product": { … } }`; a bare body, one holding other members, or a wrapped value
// that is not valid is validation, pointing into the wrapper. Served with the fast paths and without.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { startService, type Running } from './helpers.js';
import { WRAPPED_SPEC } from '../support/request-envelope.js';

const PATCH = { 'content-type': 'application/merge-patch+json' };

for (const fastPaths of [true, false]) {
  describe(`a request envelope served (fast paths ${fastPaths ? 'on' : 'off'})`, () => {
    let s: Running;
    beforeAll(async () => {
      const c = compileSpecText(WRAPPED_SPEC);
      expect(c.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
      s = await startService(c.model!, { fastPaths });
    });
    afterAll(() => s.close());

    const make = async (): Promise<string> => {
      const made = await s.call('POST', '/products', { product: { title: 'Lamp', vendor: 'Acme' } });
      expect(made.status).toBe(201);
      expect(made.body).toMatchObject({ product: { title: 'Lamp', vendor: 'Acme', status: 'draft' } });
      return made.body.product.id as string;
    };

    it('takes wrapped create, update, merge-patch update, replace and transition bodies', async () => {
      const id = await make();
      const updated = await s.call('PATCH', `/products/${id}`, { product: { title: 'Desk lamp' } });
      expect(updated.status).toBe(200);
      expect(updated.body.product).toMatchObject({ title: 'Desk lamp', vendor: 'Acme' });
      const patched = await s.call('PATCH', `/products/${id}/patch`, { product: { vendor: null } }, PATCH);
      expect(patched.status).toBe(200);
      expect(patched.body.product).not.toHaveProperty('vendor');
      const replaced = await s.call('PUT', `/products/${id}/whole`, { product: { title: 'Floor lamp' } });
      expect(replaced.status).toBe(200);
      expect(replaced.body.product).toMatchObject({ id, title: 'Floor lamp' });
      const published = await s.call('POST', `/products/${id}/publish`, { product: {} });
      expect(published.status).toBe(200);
      expect(published.body.product.status).toBe('active');
      expect((await s.call('GET', `/products/${id}`)).body.product).toMatchObject({ title: 'Floor lamp', status: 'active' });
    });

    it('a transition may still go without a body', async () => {
      const id = await make();
      expect((await s.call('POST', `/products/${id}/publish`)).status).toBe(200);
    });

    it('refuses a bare body, other members and a non-object as validation, and changes nothing', async () => {
      const id = await make();
      const cases: [string, string, unknown, string, Record<string, string>?][] = [
        ['POST', '/products', { title: 'Bare' }, '/title'],
        ['POST', '/products', { product: { title: 'Two' }, extra: 1 }, '/extra'],
        ['POST', '/products', [{ title: 'List' }], ''],
        ['POST', '/products', {}, '/product'],
        ['POST', '/products', { product: null }, '/product'],
        ['PATCH', `/products/${id}`, { title: 'Bare' }, '/title'],
        ['PATCH', `/products/${id}/patch`, { title: 'Bare' }, '/title', PATCH],
        ['PUT', `/products/${id}/whole`, { title: 'Bare' }, '/title'],
        ['POST', `/products/${id}/publish`, { other: {} }, '/other'],
      ];
      for (const [method, path, body, pointer, headers] of cases) {
        const r = await s.call(method, path, body, headers);
        expect(r.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(422);
        expect(r.body.code).toBe('invalid');
        expect(
          r.body.errors.map((e: { pointer: string }) => e.pointer),
          JSON.stringify(r.body),
        ).toContain(pointer);
      }
      expect((await s.call('GET', `/products/${id}`)).body.product).toMatchObject({ title: 'Lamp', status: 'draft' });
    });

    it('points a wrapped value that is not valid into the wrapper', async () => {
      const id = await make();
      const cases: [string, string, unknown, string, Record<string, string>?][] = [
        ['POST', '/products', { product: { title: 'x'.repeat(41) } }, '/product/title'],
        ['POST', '/products', { product: { vendor: 'Acme' } }, '/product/title'],
        ['POST', '/products', { product: { title: 'A', id: 5 } }, '/product/id'],
        ['PATCH', `/products/${id}`, { product: { title: 7 } }, '/product/title'],
        ['PATCH', `/products/${id}/patch`, { product: { title: null } }, '/product/title', PATCH],
        ['PUT', `/products/${id}/whole`, { product: {} }, '/product/title'],
      ];
      for (const [method, path, body, pointer, headers] of cases) {
        const r = await s.call(method, path, body, headers);
        expect(r.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(422);
        expect(
          r.body.errors.map((e: { pointer: string }) => e.pointer),
          JSON.stringify(r.body),
        ).toEqual([pointer]);
      }
    });
  });
}
