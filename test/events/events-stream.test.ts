// The event stream over a real socket: authentication, filtering, heartbeats, and resuming with Last-Event-ID
// across disconnects while events keep being written (no gap, no duplicate).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStream, startEventService, until, type EventService } from './helpers.js';

let s: EventService;
beforeAll(async () => {
  s = await startEventService();
});
afterAll(async () => {
  await s.close();
});

const key = () => ({ 'x-api-key': s.readerKey });

describe('event stream', () => {
  it('is authenticated like any operation and refuses bad positions and kinds', async () => {
    expect((await s.call('GET', '/events')).status).toBe(401);
    expect((await s.call('GET', '/events?kinds=ticket.nope', undefined, key())).status).toBe(422);
    expect((await s.call('GET', '/events?unknown=1', undefined, key())).status).toBe(422);
    const bad = await s.call('GET', '/events', undefined, { ...key(), 'last-event-id': 'abc' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0]).toMatchObject({ parameter: 'Last-Event-ID', in: 'header' });
    expect((await s.call('GET', '/events?after=999999999', undefined, key())).status).toBe(422);
    expect((await s.call('POST', '/events', {}, key())).status).toBe(405);
    const head = await fetch(`${s.url}/events`, { method: 'HEAD', headers: key() });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  });

  it('sends each new event with its outbox position as id, its kind as event, the envelope as data', async () => {
    const stream = await openStream(`${s.url}/events`, key());
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers.get('cache-control')).toBe('no-store, no-transform'); // what it carries depends on the credential
    // The stream's position is fixed before its headers are sent: what is written from now on comes after it.
    const t = (await s.call('POST', '/tickets', { title: 'streamed' })).body;
    await s.call('POST', `/tickets/${t.id}/start`);
    const [a, b] = await stream.waitFor(2);
    stream.close();
    const outbox = await s.storage.readOutbox(0, 10_000);
    const last2 = outbox.slice(-2);
    expect([a!.id, b!.id]).toEqual(last2.map((e) => String(e.seq)));
    expect([a!.event, b!.event]).toEqual(['ticket.created', 'ticket.started']);
    const envelope = JSON.parse(a!.data);
    expect(envelope).toEqual({ id: last2[0]!.id, type: 'ticket.created', timestamp: last2[0]!.timestamp, data: { object: t } });
  });

  it('keeps only the kinds asked for, and sends heartbeats when idle', async () => {
    const stream = await openStream(`${s.url}/events?kinds=ticket.finished`, key());
    const t = (await s.call('POST', '/tickets', { title: 'filtered' })).body;
    await s.call('PATCH', `/tickets/${t.id}`, { points: 1 });
    await s.call('POST', `/tickets/${t.id}/finish`);
    const [e] = await stream.waitFor(1);
    expect(e!.event).toBe('ticket.finished');
    await until(() => stream.comments.filter((c) => c === 'heartbeat').length >= 2, 3000, 'two heartbeats');
    expect(stream.events).toHaveLength(1);
    stream.close();
  });

  it('resumes after a disconnect from Last-Event-ID (or ?after=) with no gap and no duplicate', async () => {
    const from = await s.storage.lastOutboxSeq();
    let writing = true;
    const writer = (async () => {
      let n = 0;
      while (writing) {
        await s.call('POST', '/tickets', { title: `w${n++}` });
      }
      return n;
    })();
    const seen: number[] = [];
    let position = String(from);
    for (let round = 0; round < 6; round++) {
      const stream = await openStream(`${s.url}/events?kinds=ticket.created`, { ...key(), 'last-event-id': position });
      await stream.waitFor(3 + round);
      stream.close();
      await stream.ended;
      for (const e of stream.events) seen.push(Number(e.id));
      position = stream.events.at(-1)!.id!;
      // Events keep coming while no one listens: at least one is positioned past the last one seen.
      await until(async () => (await s.storage.lastOutboxSeq()) > Number(position), 5000, 'an event written while no one listens');
    }
    writing = false;
    const written = await writer;
    // Every event written has its outbox position (PostgreSQL gives them just after the commit).
    await until(async () => (await s.storage.readOutbox(from, 100_000, ['ticket.created'])).length >= written, 5000, 'the written events positioned');
    const tail = await openStream(`${s.url}/events?kinds=ticket.created&after=${position}`, key());
    const created = (await s.storage.readOutbox(from, 100_000, ['ticket.created'])).map((e) => e.seq);
    await tail.waitFor(created.length - seen.length);
    tail.close();
    for (const e of tail.events) seen.push(Number(e.id));
    expect(written).toBe(created.length);
    expect(seen).toEqual(created);
  });

  it('ends open streams when the service closes', async () => {
    const other = await startEventService();
    const stream = await openStream(`${other.url}/events`, { 'x-api-key': other.readerKey });
    let ended = false;
    void stream.ended.then(() => (ended = true));
    await other.close();
    await until(() => ended, 3000, 'the stream ended');
  });
});
