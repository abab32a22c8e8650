// Callbacks (endpoints.operations.<id>.callbacks): a create whose request gives a URL subscribes it to the named
// events about the object it created. Delivered by the webhook machinery: signed with the service's callback secret
// (verified by the independent `standardwebhooks` package), retried after a 500 with the same webhook-id, and
// refused by the SSRF guard at the request unless the target range is allowed. Real service, real receivers on
// 127.0.0.1.

import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { generateWebhookSecret } from '../../src/runtime/events/events-signing.js';
import { callbackSpecText } from '../support/callbacks.js';
import { startEventService, startReceiver, until, untilDeliveriesSettled, type Received } from './helpers.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

function callbackModel() {
  const c = compileSpecText(callbackSpecText(), 'events-callbacks.yaml');
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return c.model!;
}

const headersOf = (r: Received) => ({
  'webhook-id': String(r.headers['webhook-id']),
  'webhook-timestamp': String(r.headers['webhook-timestamp']),
  'webhook-signature': String(r.headers['webhook-signature']),
});

describe('callbacks', () => {
  it('deliver the named events about the created object to the URL its request gave: signed with the service secret, retried after a 500', async () => {
    const secret = generateWebhookSecret();
    const r = await startReceiver((n) => ({ status: n === 0 ? 500 : 204 }));
    const other = await startReceiver();
    const s = await startEventService({
      model: callbackModel(),
      webhooks: { allowTargets: ['127.0.0.0/8'], jitter: 0, pollIntervalMs: 200, callbackSecret: secret },
    });
    cleanup.push(
      () => r.close(),
      () => other.close(),
      () => s.close(),
    );
    const created = await s.call('POST', '/tickets', { title: 'called back', callback_url: r.url });
    expect(created.status).toBe(201);
    expect(created.body.callback_url).toBe(r.url);
    const a = created.body as { id: string };
    const b = (await s.call('POST', '/tickets', { title: 'another', callback_url: other.url })).body as { id: string };
    const c = (await s.call('POST', '/tickets', { title: 'no callback' })).body as { id: string };
    expect((await s.storage.listWebhookEndpoints()).map((e) => [e.url, e.kinds])).toEqual([
      [r.url, ['ticket.started', 'ticket.finished']],
      [other.url, ['ticket.started', 'ticket.finished']],
    ]);
    for (const t of [b, c, a]) expect((await s.call('POST', `/tickets/${t.id}/start`)).status).toBe(200);
    await s.call('PATCH', `/tickets/${a.id}`, { title: 'renamed' }); // ticket.updated: not a kind the callback names
    await s.call('POST', `/tickets/${a.id}/finish`);
    await until(() => r.received.length >= 3, 5000, 'a 500, its retry, and the finished event');
    await until(() => other.received.length >= 1, 5000, "the other ticket's started event");
    await untilDeliveriesSettled(s.storage, 3);
    const hook = new Webhook(secret);
    const bodies = r.received.map((x) => hook.verify(x.body, headersOf(x)) as { type: string; data: { object: { id: string } } });
    // Only A's events, and only the kinds named: started (refused with 500, then again with the same id), finished
    // (webhooks keep no order between events: the retry may come after it).
    expect(bodies[0]!.type).toBe('ticket.started');
    expect(bodies.map((x) => [x.type, x.data.object.id]).sort()).toEqual([
      ['ticket.finished', a.id],
      ['ticket.started', a.id],
      ['ticket.started', a.id],
    ]);
    const retry = r.received.find((x, i) => i > 0 && bodies[i]!.type === 'ticket.started')!;
    expect(retry.headers['webhook-id']).toBe(r.received[0]!.headers['webhook-id']);
    expect(other.received.map((x) => (hook.verify(x.body, headersOf(x)) as { data: { object: { id: string } } }).data.object.id)).toEqual([b.id]);
    const deliveries = await s.storage.listDeliveries({});
    expect(deliveries.filter((d) => d.status === 'delivered')).toHaveLength(3);
  });

  it('a callback URL the SSRF guard refuses is answered validation at its field, and nothing is created', async () => {
    const s = await startEventService({ model: callbackModel(), webhooks: { jitter: 0, pollIntervalMs: 200, callbackSecret: generateWebhookSecret() } });
    cleanup.push(() => s.close());
    for (const url of ['http://127.0.0.1:9/hook', 'http://169.254.169.254/latest/meta-data', 'http://[::1]/hook', 'http://10.0.0.1/hook']) {
      const res = await s.call('POST', '/tickets', { title: 'refused', callback_url: url });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('invalid_request');
      expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/callback_url' })]);
    }
    expect(await s.storage.readOutbox(0, 10)).toEqual([]);
    expect(await s.storage.listWebhookEndpoints()).toEqual([]);
    // Without a callback URL the create is a plain create.
    expect((await s.call('POST', '/tickets', { title: 'plain' })).status).toBe(201);
  });

  it('a create repeated with the same idempotency key subscribes once, and the answer waits for the subscription', async () => {
    const text = callbackSpecText().replace(
      '  base_url: "{base_url}"\n',
      '  base_url: "{base_url}"\n  idempotency: { header: Idempotency-Key, retention: 1h }\n',
    );
    expect(text).toContain('idempotency:');
    const model = compileSpecText(text, 'events-callbacks-keyed.yaml').model!;
    const s = await startEventService({
      model,
      webhooks: { allowTargets: ['127.0.0.0/8'], jitter: 0, pollIntervalMs: 200, callbackSecret: generateWebhookSecret() },
    });
    cleanup.push(() => s.close());
    const first = await s.call('POST', '/tickets', { title: 'keyed', callback_url: 'http://127.0.0.1:9/hook' }, { 'idempotency-key': 'k-1' });
    expect(first.status).toBe(201);
    expect((await s.storage.listWebhookEndpoints()).map((e) => e.description)).toEqual([`callback progress of createTicket for Ticket ${first.body.id}`]);
    const again = await s.call('POST', '/tickets', { title: 'keyed', callback_url: 'http://127.0.0.1:9/hook' }, { 'idempotency-key': 'k-1' });
    expect(again.body.id).toBe(first.body.id);
    expect(await s.storage.listWebhookEndpoints()).toHaveLength(1);
  });

  // A subscription is about one object: deleting the object removes it (and its queue) in the delete's transaction,
  // rather than leaving an endpoint row that will never again receive anything.
  it.each([
    ['uuid', (t: string) => t],
    [
      'integer',
      (t: string) =>
        t.replaceAll('id: { type: uuid, readOnly: true }', 'id: { type: integer, readOnly: true }').replace('id: { type: uuid }', 'id: { type: integer }'),
    ],
  ])('deleting an object removes the callback subscriptions about it, in the same transaction (%s identifier)', async (_kind, edit) => {
    const c = compileSpecText(edit(callbackSpecText()), 'events-callbacks-delete.yaml');
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const s = await startEventService({
      model: c.model!,
      webhooks: { allowTargets: ['127.0.0.0/8'], jitter: 0, pollIntervalMs: 200, callbackSecret: generateWebhookSecret() },
    });
    cleanup.push(() => s.close());
    const make = async (title: string, url?: string) =>
      (await s.call('POST', '/tickets', { title, ...(url ? { callback_url: url } : {}) })).body as { id: string | number };
    const a = await make('a', 'http://127.0.0.1:9/a');
    const a2 = await make('a again', 'http://127.0.0.1:9/a2');
    const b = await make('b', 'http://127.0.0.1:9/b');
    const plain = await make('plain');
    expect(await s.storage.listWebhookEndpoints()).toHaveLength(3);
    // An endpoint registered through the API is not a subscription about an object: a delete leaves it.
    const registered = await s.call('POST', '/webhooks', { url: 'http://127.0.0.1:9/all', kinds: ['ticket.deleted'] }, { 'x-api-key': s.adminKey });
    expect(registered.status).toBe(201);
    expect((await s.call('DELETE', `/tickets/${String(plain.id)}`)).status).toBe(204);
    expect(await s.storage.listWebhookEndpoints()).toHaveLength(4);
    expect((await s.call('DELETE', `/tickets/${String(a.id)}`)).status).toBe(204);
    expect((await s.storage.listWebhookEndpoints()).map((e) => e.url).sort()).toEqual([
      'http://127.0.0.1:9/a2',
      'http://127.0.0.1:9/all',
      'http://127.0.0.1:9/b',
    ]);
    expect((await s.call('DELETE', `/tickets/${String(a2.id)}`)).status).toBe(204);
    expect((await s.call('DELETE', `/tickets/${String(a2.id)}`)).status).toBe(404);
    expect((await s.storage.listWebhookEndpoints()).map((e) => e.url).sort()).toEqual(['http://127.0.0.1:9/all', 'http://127.0.0.1:9/b']);
    expect((await s.call('GET', `/tickets/${String(b.id)}`)).status).toBe(200);
  });

  it('a spec with callbacks does not start without a callback secret, or with one that is not whsec_', async () => {
    await expect(startEventService({ model: callbackModel() })).rejects.toThrow(/no secret signs them/);
    await expect(startEventService({ model: callbackModel(), webhooks: { callbackSecret: 'hunter2' } })).rejects.toThrow(/whsec_/);
  });
});
