// `generated: address` carried through the stages: a resource's own field the service sets to the object's read
// path (HAL's `_links.self.href`, JSON:API's `links.self`, GitHub's `url`). Before, the format had no such value: an
// imported self link was a gap (`source: service`, answered without it) or made its operations custom (501).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { getStoragePlan } from '../../src/runtime/storage/storage-plan.js';
import { startService, type Running } from '../runtime/helpers.js';
import { ADDRESS_SPEC } from '../support/address-spec.js';

const WITH_CHANGES = ADDRESS_SPEC(
  undefined,
  `    getOrder: { method: GET, path: '/orders/{id}', action: read, resource: Order }
    listOrders: { method: GET, path: /orders, action: list, resource: Order }
    patchOrder: { method: PATCH, path: '/orders/{id}', action: update, resource: Order }
    putOrder: { method: PUT, path: '/orders/{id}', action: replace, resource: Order }
    deleteOrder: { method: DELETE, path: '/orders/{id}', action: delete, resource: Order, response: { resource: Order } }`,
);
// Keyed creates and changes: the answer kept for the key is written in the change's transaction (its own paths).
const KEYED = WITH_CHANGES.replace('action: create, resource: Order }', 'action: create, resource: Order, idempotent: true }')
  .replace('action: update, resource: Order }', 'action: update, resource: Order, idempotent: true }')
  .replace('endpoints:\n', 'endpoints:\n  idempotency: { header: Idempotency-Key, retention: 24h }\n');
const VERSIONED = `${WITH_CHANGES}versioning: { scheme: integer, current: 2, placement: { path: '/v{version}' } }\n`;

describe('generated: address: storage', () => {
  it('has no column', () => {
    const plan = getStoragePlan(compileSpecText(ADDRESS_SPEC()).model!);
    expect(plan.tables[0]!.columns.map((c) => c.name)).toEqual(['id', 'total']);
  });
});

describe('generated: address: served (fast paths on and off, byte for byte)', () => {
  const services: Record<string, Running[]> = {};
  beforeAll(async () => {
    for (const [key, text] of [
      ['plain', WITH_CHANGES],
      ['versioned', VERSIONED],
      ['keyed', KEYED],
    ] as const) {
      expect(compileSpecText(text).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      services[key] = [];
      for (const fastPaths of [true, false]) services[key].push(await startService(compileSpecText(text).model!, { fastPaths }));
    }
  });
  afterAll(async () => {
    for (const list of Object.values(services)) for (const s of list) await s.close();
  });

  /** One request to the fast and the plain service, the answers' texts equal; the status and body. */
  async function both(key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const answers = await Promise.all(
      services[key]!.map((s) =>
        fetch(`${s.url}${path}`, {
          method,
          headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      ),
    );
    const texts = await Promise.all(answers.map((a) => a.text()));
    expect(texts[1]).toBe(texts[0]);
    return {
      status: answers[0]!.status,
      body: texts[0] === '' ? undefined : (JSON.parse(texts[0]!) as Record<string, unknown>),
      location: answers[0]!.headers.get('location'),
    };
  }

  it('create, read, list, update, replace and delete answer the read path', async () => {
    const made = await both('plain', 'POST', '/orders', { id: 'ord_1', total: 3 });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({ id: 'ord_1', total: 3, url: '/orders/ord_1' });
    expect(made.location).toBe('/orders/ord_1');
    expect((await both('plain', 'GET', '/orders/ord_1')).body).toEqual({ id: 'ord_1', total: 3, url: '/orders/ord_1' });
    await both('plain', 'POST', '/orders', { id: 'a b/c', total: 4 });
    const list = await both('plain', 'GET', '/orders');
    expect((list.body!.items as unknown[]).map((o) => (o as { url: string }).url).sort()).toEqual(['/orders/a%20b%2Fc', '/orders/ord_1']);
    expect((await both('plain', 'PATCH', '/orders/ord_1', { total: 5 })).body).toEqual({ id: 'ord_1', total: 5, url: '/orders/ord_1' });
    expect((await both('plain', 'PUT', '/orders/ord_1', { total: 6 })).body).toEqual({ id: 'ord_1', total: 6, url: '/orders/ord_1' });
    expect((await both('plain', 'DELETE', '/orders/ord_1')).body).toEqual({ id: 'ord_1', total: 6, url: '/orders/ord_1' });
  });

  it('an idempotent create and update keep the answer with its address', async () => {
    const key = { 'idempotency-key': 'k1' };
    const first = await both('keyed', 'POST', '/orders', { id: 'ord_k', total: 1 }, key);
    expect(first.body).toEqual({ id: 'ord_k', total: 1, url: '/orders/ord_k' });
    expect(await both('keyed', 'POST', '/orders', { id: 'ord_k', total: 1 }, key)).toEqual(first);
    const patched = await both('keyed', 'PATCH', '/orders/ord_k', { total: 2 }, { 'idempotency-key': 'k2' });
    expect(patched.body).toEqual({ id: 'ord_k', total: 2, url: '/orders/ord_k' });
  });

  it('is refused in a request, as any read-only field', async () => {
    const sent = await both('plain', 'POST', '/orders', { id: 'ord_2', total: 3, url: '/elsewhere' });
    expect(sent.status).toBe(422);
  });

  it("under a path version prefix, the answering request's version", async () => {
    expect((await both('versioned', 'POST', '/v2/orders', { id: 'ord_v', total: 1 })).body).toEqual({ id: 'ord_v', total: 1, url: '/v2/orders/ord_v' });
    const list = await both('versioned', 'GET', '/v2/orders');
    expect(list.body!.items).toEqual([{ id: 'ord_v', total: 1, url: '/v2/orders/ord_v' }]);
  });
});
