// Events respect ownership and scopes (issue 12 item 1), on examples/orders.yaml over real HTTP: a stream reader and
// an API-registered webhook get only the events whose object that credential could read with GET; an operator's
// endpoint gets every event. Orders are owned (`owner`, owner_access: forbidden, override `orders:all`); customers
// need `customers:read`.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey } from '../../src/runtime/auth/auth-credentials.js';
import { createAuthenticator } from '../../src/runtime/auth/auth-authenticator.js';
import { addWebhookEndpoint } from '../../src/runtime/events/events-webhooks.js';
import { parseTargetPolicy } from '../../src/runtime/events/events-targets.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import type { OutboxEntry, Storage } from '../../src/runtime/storage/storage-types.js';
import { loadModel } from '../runtime/helpers.js';
import { callJson } from '../support/http.js';
import { LOOPBACK, openStream, openTestStorage, startReceiver, until, type Receiver, type SseEvent } from './helpers.js';

const ORDERS = new URL('../../examples/orders.yaml', import.meta.url).pathname;
const model = loadModel(ORDERS);

let app: FastifyInstance;
let storage: Storage;
let dropStorage: () => Promise<void> = async () => undefined;
let url: string;
let dir: string;
const keys: Record<string, { key: string; id: string }> = {};
const receivers: Receiver[] = [];

async function key(name: string, subject: string, scopes: string[]): Promise<void> {
  const k = await createApiKey(storage, model, { subject, scopes });
  keys[name] = { key: k.key, id: k.id };
}
const as = (name: string) => ({ 'x-api-key': keys[name]!.key });
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies of many shapes
const call = (method: string, path: string, body: unknown, who: string): Promise<{ status: number; headers: Headers; body: any }> =>
  callJson(url, method, path, body, as(who));

let customerId: string;
async function createOrder(who: string, note: string): Promise<{ id: string; owner: string }> {
  const res = await call(
    'POST',
    '/orders',
    {
      customer: customerId,
      items: [{ sku: 'MUG-BLUE-350', quantity: 1, unit_price: 100 }],
      amount: 100,
      currency: 'EUR',
      note,
      shipping_address: { line1: 'Main St 1', city: 'Delft', postal_code: '2611', country: 'NL' },
    },
    who,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const objectOf = (e: SseEvent) => (JSON.parse(e.data) as { data: { object: Record<string, unknown> } }).data.object;
const outbox = (): Promise<OutboxEntry[]> => storage.readOutbox(0, 100_000);
const ownerOf = (e: OutboxEntry) => (e.data as { object: { owner?: string } }).object.owner;

/** Opens a stream and waits until it has sent `fence`'s event: everything committed before it has been read. */
async function readUntil(who: string, fenceWriter: string, position = '0') {
  const stream = await openStream(`${url}/events`, { ...as(who), 'last-event-id': position });
  expect(stream.status).toBe(200);
  const fence = await createOrder(fenceWriter, 'fence');
  await until(() => stream.events.some((e) => e.event === 'order.created' && objectOf(e).id === fence.id), 10_000, `${who} to see the fence`);
  stream.close();
  return { events: stream.events, fence };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'servicespec-visibility-'));
  ({ storage, drop: dropStorage } = await openTestStorage(dir));
  const authenticator = await createAuthenticator(model, storage, { allowGaps: true });
  await key('alice', 'alice', ['orders:read', 'orders:write', 'webhooks:manage']);
  await key('bobReader', 'bob', ['orders:read']);
  await key('bob', 'bob', ['orders:read', 'orders:write', 'webhooks:manage']);
  await key('bob2', 'bob', ['orders:read', 'orders:write']);
  await key('support', 'support', ['orders:read', 'orders:all']);
  await key('backOffice', 'back-office', ['orders:read', 'orders:write', 'customers:read', 'customers:write']);
  app = await createService(model, {
    storage,
    allowGaps: true,
    authenticator,
    handlers: { quote: () => ({ amount: 1, currency: 'EUR', valid_until: new Date().toISOString() }) },
    webhooks: { allowTargets: LOOPBACK, jitter: 0, pollIntervalMs: 200 },
  });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
  const customer = await call('POST', '/customers', { name: 'Ada Lovelace', email: 'ada@example.com' }, 'backOffice');
  expect(customer.status).toBe(201);
  customerId = customer.body.id;
  await createOrder('alice', 'alice 1');
});
afterAll(async () => {
  for (const r of receivers) await r.close();
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
  await dropStorage();
});

describe('the event stream', () => {
  it("shows bob (orders:read) none of alice's events, though `after=0` starts before them", async () => {
    // bob cannot read alice's order...
    const alices = (await outbox()).find((e) => e.type === 'order.created' && ownerOf(e) === 'alice')!;
    const read = await call('GET', `/orders/${(alices.data as { object: { id: string } }).object.id}`, undefined, 'bobReader');
    expect({ status: read.status, code: read.body.code }).toEqual({ status: 403, code: 'forbidden' });
    // ...so his stream from the start shows only his own order, not hers and not the customer.
    const { events, fence } = await readUntil('bobReader', 'bob');
    expect(events.map((e) => [e.event, objectOf(e).owner])).toEqual([['order.created', 'bob']]);
    expect(objectOf(events[0]!).id).toBe(fence.id);
  });

  it('shows customer events only to a key with customers:read', async () => {
    const alice = await readUntil('alice', 'alice');
    expect(alice.events.filter((e) => e.event === 'customer.created')).toEqual([]);
    expect(alice.events.every((e) => objectOf(e).owner === 'alice')).toBe(true);
    const office = await readUntil('backOffice', 'backOffice');
    expect(office.events.filter((e) => e.event === 'customer.created').map((e) => objectOf(e).id)).toEqual([customerId]);
    // back-office's own orders, none of alice's or bob's
    expect(office.events.filter((e) => e.event !== 'customer.created').every((e) => objectOf(e).owner === 'back-office')).toBe(true);
  });

  it('refuses to be asked for kinds the key can never see, saying why', async () => {
    const res = await call('GET', '/events?kinds=order.created,customer.created', undefined, 'alice');
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 422, code: 'invalid_request' });
    expect(res.body.errors).toEqual([{ parameter: 'kinds', in: 'query', message: 'reading Customer needs key or bearer with customers:read' }]);
    const allowed = await openStream(`${url}/events?kinds=customer.created`, as('backOffice'));
    allowed.close();
    expect(allowed.status).toBe(200);
  });

  it('shows every order event to a holder of the owner-override scope (orders:all), and no customer events', async () => {
    const { events } = await readUntil('support', 'alice');
    const expected = (await outbox()).filter((e) => e.type.startsWith('order.')).map((e) => String(e.seq));
    expect(events.map((e) => e.id)).toEqual(expected);
    expect(new Set(events.map((e) => objectOf(e).owner))).toEqual(new Set(['alice', 'bob', 'back-office']));
  });

  it('shows every kind of key exactly the events whose object the same key can GET', async () => {
    await key('carol', 'carol', ['orders:read', 'orders:write']);
    const writers: Record<string, string> = { alice: 'alice', bob: 'bob', carol: 'carol' };
    for (const subject of ['alice', 'bob', 'carol']) {
      for (const extra of [[], ['orders:all'], ['customers:read'], ['orders:all', 'customers:read']]) {
        const who = `${subject}+${extra.join('+')}`;
        await key(who, subject, ['orders:read', ...extra]);
        const { events } = await readUntil(who, writers[subject]!);
        const shown = new Set(events.map((e) => e.id));
        const last = Number(events[events.length - 1]!.id);
        for (const e of await outbox()) {
          if (e.seq > last) continue;
          const object = (e.data as { object: { id: string } }).object;
          const read = await call('GET', `/${e.type.startsWith('order.') ? 'orders' : 'customers'}/${object.id}`, undefined, who);
          expect([200, 403]).toContain(read.status);
          expect({ who, seq: e.seq, readable: read.status === 200 }).toEqual({ who, seq: e.seq, readable: shown.has(String(e.seq)) });
        }
      }
    }
  });

  it('resumes with Last-Event-ID without a gap or a duplicate while hidden events are interleaved', async () => {
    const start = await storage.lastOutboxSeq();
    const seen: number[] = [];
    let position = String(start);
    for (let round = 0; round < 5; round++) {
      const stream = await openStream(`${url}/events`, { ...as('bobReader'), 'last-event-id': position });
      // Hidden events before and after bob's, written while the stream is open...
      await createOrder('alice', `round ${round} a`);
      const bobs = await createOrder('bob', `round ${round}`);
      await createOrder('alice', `round ${round} b`);
      await until(() => stream.events.some((e) => objectOf(e).id === bobs.id), 10_000, `bob's order of round ${round}`);
      stream.close();
      await stream.ended;
      for (const e of stream.events) seen.push(Number(e.id));
      position = stream.events[stream.events.length - 1]!.id!;
      // ...and one while it is closed.
      await createOrder('alice', `round ${round} c`);
    }
    const { events } = await readUntil('bobReader', 'bob', position);
    seen.push(...events.map((e) => Number(e.id)));
    const bobs = (await outbox()).filter((e) => e.seq > start && ownerOf(e) === 'bob').map((e) => e.seq);
    expect(seen).toEqual(bobs);
    expect(seen).toHaveLength(6);
  });

  it('ends when the credential reading it is revoked', async () => {
    await key('bobRevoked', 'bob', ['orders:read']);
    const stream = await openStream(`${url}/events`, as('bobRevoked'));
    await createOrder('bob', 'before revocation');
    await stream.waitFor(1);
    await revokeApiKey(storage, keys.bobRevoked!.id);
    await createOrder('bob', 'after revocation');
    await stream.ended;
    expect(stream.events).toHaveLength(1);
  });
});

describe('webhooks', () => {
  it("deliver to an API-registered endpoint only what its registering key may read; the operator's gets every event", async () => {
    const [ra, rb, ro] = [await startReceiver(), await startReceiver(), await startReceiver()];
    receivers.push(ra, rb, ro);
    const a = await call('POST', '/webhooks', { url: ra.url }, 'alice');
    const b = await call('POST', '/webhooks', { url: rb.url }, 'bob');
    expect([a.status, b.status]).toEqual([201, 201]);
    const operator = await addWebhookEndpoint({ storage, model, policy: parseTargetPolicy(LOOPBACK) }, { url: ro.url });
    const customer = await call('POST', '/customers', { name: 'Grace Hopper', email: 'grace@example.com' }, 'backOffice');
    const alices = await createOrder('alice', 'alice webhook');
    const bobs = await createOrder('bob', 'bob webhook');
    const ids = (r: Receiver) => r.received.map((x) => (JSON.parse(x.body) as { data: { object: { id: string } } }).data.object.id);
    await until(() => ra.received.length >= 1 && rb.received.length >= 1 && ro.received.length >= 3, 10_000, 'the deliveries');
    // Nothing pending is left for any endpoint: what was not queued for bob's will never be sent.
    await until(async () => (await storage.listDeliveries({ status: 'pending' })).length === 0, 10_000, 'no pending deliveries');
    expect(ids(ra)).toEqual([alices.id]);
    expect(ids(rb)).toEqual([bobs.id]);
    expect(ids(ro)).toEqual([customer.body.id, alices.id, bobs.id]);
    expect((await storage.listDeliveries({ endpointId: b.body.id })).map((d) => d.eventType)).toEqual(['order.created']);
    expect((JSON.parse(ra.received[0]!.body) as { data: { object: Record<string, unknown> } }).data.object).toMatchObject({
      owner: 'alice',
      shipping_address: { city: 'Delft' },
    });
    expect(operator.endpoint.id).toMatch(/^ep_/);
  });

  it('refuse a registration for kinds the key can never receive, saying why', async () => {
    const res = await call('POST', '/webhooks', { url: 'http://127.0.0.1:9/hook', kinds: ['customer.created'] }, 'alice');
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 422, code: 'invalid_request' });
    expect(res.body.errors).toEqual([
      { pointer: '/kinds', message: 'this endpoint would receive none of these: reading Customer needs key or bearer with customers:read' },
    ]);
  });

  it('stop for an endpoint whose registering key is revoked (the endpoint is disabled, saying why)', async () => {
    await key('bobHooks', 'bob', ['orders:read', 'webhooks:manage']);
    const r = await startReceiver();
    receivers.push(r);
    const ep = await call('POST', '/webhooks', { url: r.url }, 'bobHooks');
    await createOrder('bob2', 'delivered');
    await until(async () => (await storage.listDeliveries({ endpointId: ep.body.id, status: 'delivered' })).length === 1, 10_000, 'the first delivery');
    await revokeApiKey(storage, keys.bobHooks!.id);
    await createOrder('bob2', 'not delivered');
    const disabled = await until(async () => (await storage.getWebhookEndpoint(ep.body.id))?.disabledReason, 10_000, 'the endpoint disabled');
    expect(disabled).toBe('the credential that registered it was revoked');
    expect(r.received).toHaveLength(1);
    expect((await storage.listDeliveries({ endpointId: ep.body.id, status: 'dead' })).map((d) => d.lastError)).toEqual([
      'endpoint disabled: the credential that registered it was revoked',
    ]);
  });
});
