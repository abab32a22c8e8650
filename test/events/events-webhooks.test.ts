// Webhook registration and delivery against real receivers on 127.0.0.1. Signatures are verified by the
// independent `standardwebhooks` package. The spec declares retries [100ms, 200ms] and a 500 ms time-out.

import type { LookupAddress } from 'node:dns';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import type { Lookup } from '../../src/runtime/events/events-targets.js';
import { replayWebhookDeliveries } from '../../src/runtime/events/events-webhooks.js';
import { LOOPBACK, manualClock, startEventService, startReceiver, until, untilDeliveriesSettled, type EventService, type Receiver } from './helpers.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

async function setUp(
  options: Parameters<typeof startEventService>[0] = {},
  behaviour?: Parameters<typeof startReceiver>[0],
): Promise<{ s: EventService; r: Receiver }> {
  const r = await startReceiver(behaviour);
  const s = await startEventService(options);
  cleanup.push(
    () => r.close(),
    () => s.close(),
  );
  return { s, r };
}

async function register(s: EventService, body: Record<string, unknown>): Promise<{ id: string; secret: string; [k: string]: unknown }> {
  const res = await s.call('POST', '/webhooks', body, { 'x-api-key': s.adminKey });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- payloads of many shapes
function verify(secret: string, rec: { headers: Record<string, unknown>; body: string }): any {
  return new Webhook(secret).verify(rec.body, {
    'webhook-id': String(rec.headers['webhook-id']),
    'webhook-timestamp': String(rec.headers['webhook-timestamp']),
    'webhook-signature': String(rec.headers['webhook-signature']),
  });
}

describe('webhook registration operations', () => {
  it('are authenticated with the default scheme and the declared scopes', async () => {
    const { s, r } = await setUp();
    expect((await s.call('POST', '/webhooks', { url: r.url })).status).toBe(401);
    expect((await s.call('GET', '/webhooks', undefined, { 'x-api-key': 'nope' })).status).toBe(401);
    const forbidden = await s.call('POST', '/webhooks', { url: r.url }, { 'x-api-key': s.readerKey });
    expect(forbidden.status).toBe(403);
    expect(await s.storage.listWebhookEndpoints()).toEqual([]);
  });

  it('add, list, rotate and remove; the secret is shown only when created or rotated', async () => {
    const { s, r } = await setUp();
    const key = { 'x-api-key': s.adminKey };
    const added = await register(s, { url: r.url, kinds: ['ticket.created'], description: 'audit' });
    expect(added).toMatchObject({ url: r.url, kinds: ['ticket.created'], description: 'audit' });
    expect(added.id).toMatch(/^ep_[0-9a-f]{32}$/);
    expect(added.secret).toMatch(/^whsec_/);
    const all = await register(s, { url: r.url });
    expect(all.kinds).toBeNull();
    const list = await s.call('GET', '/webhooks', undefined, key);
    expect(list.status).toBe(200);
    expect(list.body.items.map((e: { id: string }) => e.id)).toEqual([added.id, all.id]);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    const rotated = await s.call('POST', `/webhooks/${added.id}/rotate`, undefined, key);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(added.secret);
    expect(Date.parse(rotated.body.previous_secret_expires_at)).toBeGreaterThan(Date.now());
    expect((await s.call('DELETE', `/webhooks/${added.id}`, undefined, key)).status).toBe(204);
    expect((await s.call('DELETE', `/webhooks/${added.id}`, undefined, key)).status).toBe(404);
    expect((await s.call('POST', '/webhooks/ep_0/rotate', {}, key)).status).toBe(404);
    expect((await s.call('GET', '/webhooks', undefined, key)).body.items).toHaveLength(1);
    expect((await s.call('PUT', '/webhooks', {}, key)).status).toBe(405);
  });

  it('refuses bad input with the declared validation error', async () => {
    const { s, r } = await setUp();
    const key = { 'x-api-key': s.adminKey };
    for (const body of [
      {},
      { url: 'not a url' },
      { url: r.url, kinds: ['ticket.exploded'] },
      { url: r.url, kinds: [] },
      { url: r.url, secret: 'short' },
      { url: r.url, extra: 1 },
      { url: 'ftp://127.0.0.1/x' },
    ]) {
      const res = await s.call('POST', '/webhooks', body, key);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toBe('invalid_request');
    }
    expect((await s.call('POST', '/webhooks', '{', key)).status).toBe(400);
    expect(await s.storage.listWebhookEndpoints()).toEqual([]);
  });

  it('refuses URLs at link-local, private and other non-public addresses without sending anything', async () => {
    const asked: string[] = [];
    const lookup: Lookup = (hostname, _o, cb) => {
      asked.push(hostname);
      cb(null, [{ address: hostname === 'metadata.test' ? '169.254.169.254' : '10.0.0.1', family: 4 } as LookupAddress]);
    };
    const { s } = await setUp({ webhooks: { allowTargets: ['127.0.0.0/8'], jitter: 0, lookup } });
    const key = { 'x-api-key': s.adminKey };
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/hook',
      'http://[::ffff:10.0.0.1]/',
      'http://[::1]:8080/',
      'http://metadata.test/',
      'http://internal.test/',
    ]) {
      const res = await s.call('POST', '/webhooks', { url }, key);
      expect(res.status, url).toBe(422);
      expect(res.body.errors[0].pointer).toBe('/url');
    }
    expect(asked).toEqual(['metadata.test', 'internal.test']);
    expect(await s.storage.listWebhookEndpoints()).toEqual([]);
  });
});

describe('webhook delivery', () => {
  it('delivers each event of the kinds an endpoint wants, signed, with the declared envelope', async () => {
    const { s, r } = await setUp();
    const created = await register(s, { url: r.url, kinds: ['ticket.created', 'ticket.started'] });
    const t = (await s.call('POST', '/tickets', { title: 'first', points: 3 })).body;
    await s.call('PATCH', `/tickets/${t.id}`, { points: 5 });
    await s.call('POST', `/tickets/${t.id}/start`);
    await until(() => r.received.length >= 2, 5000, 'two deliveries');
    await untilDeliveriesSettled(s.storage, 2);
    expect(await s.storage.listDeliveries({})).toHaveLength(2);
    expect(r.received).toHaveLength(2);
    const [first, second] = r.received.map((rec) => verify(created.secret, rec));
    expect(first).toMatchObject({ type: 'ticket.created', data: { object: { id: t.id, title: 'first', points: 3, status: 'open' } } });
    expect(second).toMatchObject({ type: 'ticket.started', data: { object: { id: t.id, status: 'in_progress', points: 5 }, previous: { status: 'open' } } });
    expect(Object.keys(first).sort()).toEqual(['data', 'id', 'timestamp', 'type']);
    expect(r.received[0]!.headers['webhook-id']).toBe(first.id);
    expect(r.received[0]!.headers['content-type']).toBe('application/json');
    const outbox = await s.storage.readOutbox(0, 100);
    expect(outbox.map((e) => e.type)).toEqual(['ticket.created', 'ticket.updated', 'ticket.started']);
    expect(outbox[0]!.id).toBe(first.id);
  });

  // On the injected clock: each retry is due exactly its declared delay after the attempt before it, and is made
  // only once the clock gets there (no wall-clock gap compared with a threshold).
  const onClock = (clock: ReturnType<typeof manualClock>, more: Record<string, unknown> = {}) => ({
    webhooks: { allowTargets: LOOPBACK, jitter: 0, pollIntervalMs: 3_600_000, clock, ...more },
  });
  const outcomeOf = (s: EventService, attempts: number) =>
    until(
      async () => {
        const [d] = await s.storage.listDeliveries({});
        return d?.attempts === attempts ? d : undefined;
      },
      5000,
      `the outcome of attempt ${attempts}`,
    );

  it('retries a receiver that answers 500 twice, on the declared schedule, with the same webhook-id', async () => {
    // Started at the real time: the receiver's signature check refuses a timestamp far from it.
    const clock = manualClock(Date.now());
    const { s, r } = await setUp(onClock(clock), (n) => ({ status: n < 2 ? 500 : 204 }));
    const ep = await register(s, { url: r.url });
    const t0 = clock.now();
    await s.call('POST', '/tickets', { title: 'retry me' });
    // retries: [100ms, 200ms]
    expect((await outcomeOf(s, 1)).nextAttemptAt).toBe(t0 + 100);
    clock.advance(99);
    expect(r.received).toHaveLength(1);
    clock.advance(1);
    expect((await outcomeOf(s, 2)).nextAttemptAt).toBe(t0 + 100 + 200);
    expect(r.received).toHaveLength(2);
    clock.advance(200);
    await until(async () => (await s.storage.listDeliveries({ status: 'delivered' })).length === 1, 5000, 'delivered');
    expect(r.received).toHaveLength(3);
    expect(new Set(r.received.map((x) => x.headers['webhook-id'])).size).toBe(1);
    for (const rec of r.received) expect(verify(ep.secret, rec)).toMatchObject({ type: 'ticket.created' });
    const [d] = await s.storage.listDeliveries({});
    expect(d).toMatchObject({ status: 'delivered', attempts: 3, lastStatus: 204 });
  });

  it('scales each retry delay by the jitter factor', async () => {
    const clock = manualClock(Date.parse('2026-01-01T00:00:00Z'));
    const { s, r } = await setUp(onClock(clock, { jitter: 0.5, random: () => 0.999 }), (n) => ({ status: n < 1 ? 503 : 200 }));
    await register(s, { url: r.url });
    const t0 = clock.now();
    await s.call('POST', '/tickets', { title: 'jittered' });
    // 100 ms × (1 + 0.5 × (2 × 0.999 − 1)) ≈ 150 ms
    const due = (await outcomeOf(s, 1)).nextAttemptAt - t0;
    expect(due).toBeGreaterThanOrEqual(149);
    expect(due).toBeLessThanOrEqual(150);
    clock.advance(due);
    await until(() => r.received.length >= 2, 5000, 'the retry');
  });

  it('gives up on an attempt after the time-out, dead-letters after the last retry, and replays', async () => {
    let healthy = false;
    // Started at the real time: the receiver's signature check refuses a timestamp far from it.
    const clock = manualClock(Date.now());
    const { s, r } = await setUp(onClock(clock), () => (healthy ? { status: 200 } : 'hang'));
    await register(s, { url: r.url });
    const t0 = clock.now();
    await s.call('POST', '/tickets', { title: 'slow receiver' });
    // Each attempt is cut off when the clock reaches its 500 ms time-out, then waits its delay (100 ms, 200 ms).
    await until(() => r.received.length === 1, 5000, 'the first attempt');
    clock.advance(499);
    expect((await s.storage.listDeliveries({}))[0]!.attempts).toBe(0);
    clock.advance(1);
    expect(await outcomeOf(s, 1)).toMatchObject({ nextAttemptAt: t0 + 500 + 100, lastError: 'no answer within 500 ms' });
    clock.advance(99);
    expect(r.received).toHaveLength(1);
    clock.advance(1);
    await until(() => r.received.length === 2, 5000, 'the second attempt');
    clock.advance(500);
    expect((await outcomeOf(s, 2)).nextAttemptAt).toBe(t0 + 600 + 500 + 200);
    clock.advance(200);
    await until(() => r.received.length === 3, 5000, 'the third attempt');
    clock.advance(500);
    const dead = await until(async () => (await s.storage.listDeliveries({ status: 'dead' }))[0], 5000, 'a dead delivery');
    expect(dead).toMatchObject({ attempts: 3, lastError: 'no answer within 500 ms' });
    expect(r.received).toHaveLength(3);
    healthy = true;
    expect(await replayWebhookDeliveries(s.storage, { eventId: dead.eventId }, () => new Date(clock.now()))).toBe(1);
    // A replay is written by another process (the CLI): the worker finds it at its next poll.
    clock.advance(3_600_000);
    await until(() => r.received.length >= 4, 5000, 'the replayed delivery');
    expect(r.received[3]!.headers['webhook-id']).toBe(dead.eventId);
    expect(await until(async () => (await s.storage.listDeliveries({ status: 'delivered' }))[0], 3000, 'delivered')).toMatchObject({
      attempts: 1,
      lastStatus: 200,
    });
  });

  it('disables an endpoint that answers 410 Gone', async () => {
    const { s, r } = await setUp({}, () => ({ status: 410 }));
    const ep = await register(s, { url: r.url });
    await s.call('POST', '/tickets', { title: 'gone' });
    await until(async () => (await s.storage.getWebhookEndpoint(ep.id))?.disabledAt, 5000, 'the endpoint disabled');
    // A second endpoint, registered now, hears the next event: fan-out has passed it for the disabled one too.
    const witness = await startReceiver();
    cleanup.push(() => witness.close());
    await register(s, { url: witness.url });
    await s.call('POST', '/tickets', { title: 'not sent' });
    await until(() => witness.received.length >= 1, 5000, "the witness's delivery");
    expect(r.received).toHaveLength(1);
    const list = await s.call('GET', '/webhooks', undefined, { 'x-api-key': s.adminKey });
    expect(list.body.items[0]).toMatchObject({ id: ep.id, disabled_reason: 'the receiver answered 410 Gone' });
    expect(await s.storage.listDeliveries({ status: 'dead' })).toHaveLength(1);
  });

  it('honours Retry-After on 429 (and 502/504) instead of the schedule', async () => {
    const clock = manualClock(Date.now());
    const { s, r } = await setUp(onClock(clock), (n) =>
      n === 0 ? { status: 429, headers: { 'retry-after': '1' } } : n === 1 ? { status: 503, headers: { 'retry-after': '0' } } : { status: 200 },
    );
    await register(s, { url: r.url });
    const t0 = clock.now();
    await s.call('POST', '/tickets', { title: 'busy' });
    // Retry-After: 1 (not the schedule's 100 ms): due a second after the first attempt, and not sent before.
    expect((await outcomeOf(s, 1)).nextAttemptAt).toBe(t0 + 1000);
    clock.advance(999);
    expect(r.received).toHaveLength(1);
    clock.advance(1);
    // Retry-After: 0 (not the schedule's 200 ms): sent at once, the clock not moved again.
    await until(async () => (await s.storage.listDeliveries({ status: 'delivered' })).length === 1, 5000, 'delivered');
    expect(r.received).toHaveLength(3);
    expect(clock.now() - t0).toBe(1000);
  });

  it('signs with both secrets while a rotation is in its grace period', async () => {
    const { s, r } = await setUp();
    const ep = await register(s, { url: r.url });
    const rotated = (await s.call('POST', `/webhooks/${ep.id}/rotate`, {}, { 'x-api-key': s.adminKey })).body;
    await s.call('POST', '/tickets', { title: 'rotating' });
    await until(() => r.received.length >= 1, 5000, 'a delivery');
    expect(String(r.received[0]!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(ep.secret, r.received[0]!)).toMatchObject({ type: 'ticket.created' });
    expect(verify(rotated.secret, r.received[0]!)).toMatchObject({ type: 'ticket.created' });
  });

  it('refuses a redirect to a private address, and a name that now resolves to one, without connecting', async () => {
    const resolved: string[] = [];
    let rebound = false;
    const lookup: Lookup = (hostname, _o, cb) => {
      resolved.push(hostname);
      cb(null, [{ address: rebound ? '10.0.0.1' : '127.0.0.1', family: 4 } as LookupAddress]);
    };
    const { s, r } = await setUp({ webhooks: { allowTargets: ['127.0.0.0/8'], jitter: 0, lookup } }, (n) =>
      n === 0 ? { status: 307, headers: { location: 'http://10.0.0.1/steal' } } : { status: 200 },
    );
    await register(s, { url: r.url });
    await s.call('POST', '/tickets', { title: 'redirected' });
    const d = await until(async () => (await s.storage.listDeliveries({})).find((x) => x.attempts >= 1), 5000, 'an attempt');
    expect(d.lastError).toContain('refused: 10.0.0.1 is a private address');
    expect(r.received).toHaveLength(1);

    // A name that resolved to loopback at registration and to a private address at delivery time.
    const port = new URL(r.url).port;
    const namedEndpoint = await register(s, { url: `http://hooks.test:${port}/named`, kinds: ['ticket.deleted'] });
    rebound = true;
    const t = (await s.call('POST', '/tickets', { title: 'to delete' })).body;
    await s.call('DELETE', `/tickets/${t.id}`);
    // The first endpoint takes every kind, so it gets a ticket.deleted delivery too: pick the named endpoint's.
    const named = await until(
      async () => (await s.storage.listDeliveries({})).find((x) => x.endpointId === namedEndpoint.id && x.attempts >= 1),
      5000,
      'the named attempt',
    );
    expect(named.lastError).toContain('hooks.test resolves to 10.0.0.1');
    expect(r.received.filter((x) => x.path === '/named')).toHaveLength(0);
    expect(resolved.filter((h) => h === 'hooks.test').length).toBeGreaterThanOrEqual(2);
  });

  it('delivers only events committed after the endpoint was registered', async () => {
    const { s, r } = await setUp();
    await s.call('POST', '/tickets', { title: 'before' });
    // The event has its outbox position (PostgreSQL gives positions just after the commit) before the registration.
    await until(async () => (await s.storage.readOutbox(0, 10)).length >= 1, 5000, 'the first event positioned');
    await register(s, { url: r.url });
    await s.call('POST', '/tickets', { title: 'after' });
    await until(() => r.received.length >= 1, 5000, 'a delivery');
    await untilDeliveriesSettled(s.storage, 1);
    expect(await s.storage.listDeliveries({})).toHaveLength(1);
    expect(r.received.map((x) => JSON.parse(x.body).data.object.title)).toEqual(['after']);
  });
});
