// Raw event payloads (events.kinds.<kind>.body: raw): the webhook body and the stream's data are the payload itself,
// still signed (verified by the independent `standardwebhooks` package) and retried with the same webhook-id; kinds
// that do not say keep the envelope. Real service, real receiver on 127.0.0.1.

import { readFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { EVENTS_SPEC, openStream, startEventService, startReceiver, until } from './helpers.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

function rawModel() {
  const text = readFileSync(EVENTS_SPEC, 'utf8').replace(
    'ticket.created: { payload: { resource: Ticket }, on: [create] }',
    'ticket.created: { payload: { resource: Ticket }, on: [create], body: raw }',
  );
  expect(text).toContain('body: raw');
  const c = compileSpecText(text, 'events-raw.yaml');
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return c.model!;
}

describe('a kind whose body is raw', () => {
  it('is delivered as its payload alone, signed, retried with the same webhook-id; other kinds keep the envelope', async () => {
    const r = await startReceiver((n) => ({ status: n === 0 ? 500 : 204 }));
    const s = await startEventService({ model: rawModel() });
    cleanup.push(
      () => r.close(),
      () => s.close(),
    );
    const ep = (await s.call('POST', '/webhooks', { url: r.url, kinds: ['ticket.created', 'ticket.started'] }, { 'x-api-key': s.adminKey })).body as {
      secret: string;
    };
    const t = (await s.call('POST', '/tickets', { title: 'raw', points: 2 })).body as { id: string };
    await until(() => r.received.length >= 2, 5000, 'the created event and its retry');
    await s.call('POST', `/tickets/${t.id}/start`);
    await until(() => r.received.length >= 3, 5000, 'the started event');
    const [first, retry, started] = r.received;
    const hook = new Webhook(ep.secret);
    const verify = (rec: typeof first) =>
      hook.verify(rec!.body, {
        'webhook-id': String(rec!.headers['webhook-id']),
        'webhook-timestamp': String(rec!.headers['webhook-timestamp']),
        'webhook-signature': String(rec!.headers['webhook-signature']),
      }) as Record<string, unknown>;
    const body = verify(first);
    expect(body).toMatchObject({ id: t.id, title: 'raw', points: 2, status: 'open' });
    expect(Object.keys(body)).not.toContain('data');
    expect(verify(retry)).toEqual(body);
    const outbox = await s.storage.readOutbox(0, 10);
    expect(first!.headers['webhook-id']).toBe(outbox[0]!.id);
    expect(retry!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(verify(started)).toMatchObject({ type: 'ticket.started', data: { object: { id: t.id, status: 'in_progress' }, previous: { status: 'open' } } });
  });

  it('is the stream event data alone, its kind in the event line', async () => {
    const s = await startEventService({ model: rawModel() });
    cleanup.push(() => s.close());
    const stream = await openStream(`${s.url}/events`, { 'x-api-key': s.adminKey });
    cleanup.push(() => stream.close());
    expect(stream.status).toBe(200);
    const t = (await s.call('POST', '/tickets', { title: 'streamed' })).body as { id: string };
    await s.call('POST', `/tickets/${t.id}/start`);
    const [created, started] = await stream.waitFor(2, 5000);
    expect(created!.event).toBe('ticket.created');
    expect(Object.keys(JSON.parse(created!.data) as object)).not.toContain('data');
    expect(JSON.parse(created!.data)).toMatchObject({ id: t.id, title: 'streamed', status: 'open' });
    expect(JSON.parse(started!.data)).toMatchObject({ type: 'ticket.started', data: { object: { id: t.id } } });
  });
});
