// Many stateless instances: two `servicespec serve` processes on one PostgreSQL database (a schema of its own).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey } from '../../src/runtime/auth/auth-credentials.js';
import { createPostgresStorage, type PostgresStorage } from '../../src/runtime/storage/storage-postgres.js';
import { EVENTS_SPEC, openStream, startReceiver, until, untilDeliveriesSettled, type Receiver } from '../events/helpers.js';
import { loadModel } from '../runtime/helpers.js';
import { startChildServer, type ChildServer } from '../runtime/child-server.js';
import { callJson } from '../support/http.js';
import { dropTestSchemas, getPostgresSkipReason, getTestSchemaUrl } from '../support/postgres.js';

const skip = await getPostgresSkipReason();

describe.skipIf(skip !== undefined)('two serve processes on one PostgreSQL database', () => {
  const model = loadModel(EVENTS_SPEC);
  let url: string;
  let admin: PostgresStorage;
  let a: ChildServer;
  let b: ChildServer;
  let adminKey: string;
  let readerKey: string;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    url = getTestSchemaUrl();
    admin = createPostgresStorage({ url, poolSize: 2 });
    adminKey = (await createApiKey(admin, model, { subject: 'admin', scopes: ['tickets:read', 'webhooks:manage'] })).key;
    readerKey = (await createApiKey(admin, model, { subject: 'reader', scopes: ['tickets:read'] })).key;
    const args = [EVENTS_SPEC, '--db', url, '--allow-gaps', '--allow-webhook-target', '127.0.0.0/8'];
    // Started together: the migration runs once, under the advisory lock, and both serve the same tables.
    [a, b] = await Promise.all([startChildServer(args), startChildServer(args)]);
  }, 90_000);

  afterAll(async () => {
    for (const c of [a, b]) {
      if (c && c.child.exitCode === null) {
        c.child.kill('SIGTERM');
        await c.exited;
      }
    }
    await Promise.all(receivers.map((r) => r.close()));
    await admin?.close();
    await dropTestSchemas();
  });

  const call = (s: ChildServer, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    callJson(s.url, method, path, body, headers);
  const create = async (s: ChildServer, title: string): Promise<string> => {
    const res = await call(s, 'POST', '/tickets', { title });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  };

  it('racing transitions on one object have exactly one winner across instances', async () => {
    const id = await create(a, 'race');
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => call(i % 2 === 0 ? a : b, 'POST', `/tickets/${id}/finish`)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(15);
    expect(answers.find((r) => r.status === 409)!.body.type ?? answers.find((r) => r.status === 409)!.body.title).toBeTruthy();
    expect((await call(b, 'GET', `/tickets/${id}`)).body.status).toBe('done');
  });

  it('an SSE client on A sees events written through B, and resumes with Last-Event-ID on either', async () => {
    const stream = await openStream(`${a.url}/events`, { 'x-api-key': readerKey });
    expect(stream.status).toBe(200);
    const id1 = await create(b, 'from B');
    // Heard through NOTIFY or the one-second poll: which one, the PostgreSQL storage's watch test shows
    // (storage-conformance.test.ts, "another instance's outbox appends ring this one's watch").
    const [first] = await stream.waitFor(1, 10_000);
    expect(first!.event).toBe('ticket.created');
    expect(JSON.parse(first!.data).data.object.id).toBe(id1);
    stream.close();
    const id2 = await create(a, 'from A');
    const id3 = await create(b, 'from B again');
    for (const [server, name] of [
      [b, 'B'],
      [a, 'A'],
    ] as const) {
      const resumed = await openStream(`${server.url}/events`, { 'x-api-key': readerKey, 'last-event-id': first!.id! });
      const got = await resumed.waitFor(2, 10_000);
      expect(
        got.map((e) => JSON.parse(e.data).data.object.id),
        `resumed on ${name}`,
      ).toEqual([id2, id3]);
      resumed.close();
    }
  });

  it('a revoked key is refused by every instance, once the revocation is heard', async () => {
    const issued = await createApiKey(admin, model, { subject: 'temp', scopes: ['tickets:read'] });
    const headers = { 'x-api-key': issued.key };
    // Both instances know (and have cached) the key.
    for (let i = 0; i < 3; i++) {
      expect((await call(a, 'GET', '/webhooks', undefined, headers)).status).toBe(403);
      expect((await call(b, 'GET', '/webhooks', undefined, headers)).status).toBe(403);
    }
    expect(await revokeApiKey(admin, issued.id)).toBe(true);
    // No timer drops the cached key: only the revocation's NOTIFY does, so without it this waits out its bound (a
    // generous one, not a latency figure: a loaded machine hears it late, never not at all).
    await Promise.all([a, b].map((s) => until(async () => (await call(s, 'GET', '/webhooks', undefined, headers)).status === 401, 10_000, 'the revocation')));
  });

  it('each event is delivered once per webhook endpoint, whichever instance wrote it', async () => {
    const one = await startReceiver();
    const two = await startReceiver();
    receivers.push(one, two);
    const endpoints = new Map<Receiver, string>();
    for (const r of [one, two]) {
      const res = await call(a, 'POST', '/webhooks', { url: r.url, kinds: ['ticket.created'] }, { 'x-api-key': adminKey });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      endpoints.set(r, res.body.id as string);
    }
    const ids: string[] = [];
    await Promise.all(Array.from({ length: 20 }, async (_, i) => ids.push(await create(i % 2 === 0 ? a : b, `hook ${i}`))));
    for (const r of [one, two]) {
      await until(() => r.received.length >= 20, 20_000, '20 deliveries');
    }
    // Both instances run a delivery worker: every delivery settled (none pending).
    await untilDeliveriesSettled(admin, 40, 20_000);
    const deliveries = await admin.listDeliveries({});
    for (const r of [one, two]) {
      const webhookIds = r.received.map((x) => String(x.headers['webhook-id']));
      expect(new Set(webhookIds).size).toBe(20);
      expect(new Set(r.received.map((x) => JSON.parse(x.body).data.object.id as string))).toEqual(new Set(ids));
      // Each event arrives once per attempt the database recorded, never more: two workers sending one delivery
      // would show as copies over its attempts. A second attempt is the spec's own retry, after an attempt that
      // outlived the spec's 500 ms timeout (a loaded machine), and may reach the receiver too: at least once.
      for (const d of deliveries.filter((x) => x.endpointId === endpoints.get(r))) {
        const copies = webhookIds.filter((id) => id === d.eventId).length;
        expect(copies, `${d.eventId}: ${copies} copies, ${d.attempts} attempts`).toBeGreaterThanOrEqual(1);
        expect(copies, `${d.eventId}: ${copies} copies, ${d.attempts} attempts`).toBeLessThanOrEqual(d.attempts);
        expect(d.status).toBe('delivered');
      }
      expect(deliveries.filter((x) => x.endpointId === endpoints.get(r))).toHaveLength(20);
    }
  });

  it('SIGKILL of one instance under load: no acknowledged write lost, every event read and delivered', async () => {
    const r = await startReceiver();
    receivers.push(r);
    expect((await call(b, 'POST', '/webhooks', { url: r.url, kinds: ['ticket.created'] }, { 'x-api-key': adminKey })).status).toBe(201);
    // A reader on B from before the load: it must see every acknowledged write's event once, in increasing
    // positions, including those A committed and had not yet given positions to when it died.
    const stream = await openStream(`${b.url}/events`, { 'x-api-key': readerKey });
    expect(stream.status).toBe(200);
    const acknowledged: string[] = [];
    let stop = false;
    let refusedByA = 0;
    // Four clients on each instance, each sending its next create as soon as the last is answered.
    const load = Promise.all(
      [a, b, a, b, a, b, a, b].map(async (s) => {
        while (!stop) {
          try {
            const res = await call(s, 'POST', '/tickets', { title: 'load' });
            if (res.status === 201) acknowledged.push(res.body.id as string);
          } catch {
            if (s !== a) throw new Error('B failed a request');
            refusedByA++; // A was killed: its in-flight requests were not acknowledged.
            return;
          }
        }
      }),
    );
    await until(() => acknowledged.length > 5, 20_000, 'the load under way');
    const beforeKill = acknowledged.length;
    a.child.kill('SIGKILL');
    await a.exited;
    await until(() => acknowledged.length > beforeKill, 20_000, 'B acknowledging writes after the kill');
    stop = true;
    await load;
    expect(beforeKill).toBeGreaterThan(5);
    expect(acknowledged.length).toBeGreaterThan(beforeKill);
    expect(refusedByA).toBeGreaterThan(0);
    for (const id of acknowledged) expect((await call(b, 'GET', `/tickets/${id}`)).status).toBe(200);
    const created = await admin.readOutbox(0, 100_000, ['ticket.created']);
    const createdIds = new Set(created.map((e) => (e.data as { object: { id: string } }).object.id));
    for (const id of acknowledged) expect(createdIds.has(id)).toBe(true);
    const ids = (events: { data: string }[]) => events.map((e) => JSON.parse(e.data).data.object.id as string);
    await until(() => acknowledged.every((id) => ids(stream.events).includes(id)), 10_000, "every acknowledged write's event on B's stream");
    stream.close();
    const streamed = ids(stream.events);
    expect(new Set(streamed).size).toBe(streamed.length);
    const positions = stream.events.map((e) => Number(e.id));
    expect(positions).toEqual([...positions].sort((x, y) => x - y));
    // B's worker delivers every event, including those A wrote and had leased before it died.
    // Waits for the acknowledged ones: a count would also take events of writes A committed but never acknowledged.
    await until(
      () => {
        const got = new Set(r.received.map((x) => JSON.parse(x.body).data.object.id as string));
        return acknowledged.every((id) => got.has(id));
      },
      30_000,
      'deliveries after the kill',
    );
    const delivered = new Set(r.received.map((x) => JSON.parse(x.body).data.object.id as string));
    for (const id of acknowledged) expect(delivered.has(id)).toBe(true);
  }, 60_000);
});

describe.skipIf(skip !== undefined)('a SIGKILLed instance holding leased deliveries', () => {
  const dir = mkdtempSync(join(tmpdir(), 'servicespec-lease-'));
  const model = loadModel(EVENTS_SPEC);
  const started: ChildServer[] = [];
  let receiver: Receiver | undefined;
  let admin: PostgresStorage | undefined;

  afterAll(async () => {
    for (const c of started) {
      if (c.child.exitCode === null && c.child.signalCode === null) {
        c.child.kill('SIGTERM');
        await c.exited;
      }
    }
    await receiver?.close();
    await admin?.close();
    rmSync(dir, { recursive: true, force: true });
    await dropTestSchemas();
  });

  it('are delivered by another instance once the leases run out: every event, none before its lease ends', async () => {
    // Each attempt may take 3 s, so a lease lasts 4 s (the time-out and a margin): long enough to kill A mid-attempt.
    const spec = join(dir, 'events.yaml');
    writeFileSync(spec, readFileSync(EVENTS_SPEC, 'utf8').replace('timeout: 500ms', 'timeout: 3s'));
    const url = getTestSchemaUrl();
    admin = createPostgresStorage({ url, poolSize: 2 });
    const adminKey = (await createApiKey(admin, model, { subject: 'admin', scopes: ['tickets:read', 'webhooks:manage'] })).key;
    const args = [spec, '--db', url, '--allow-gaps', '--allow-webhook-target', '127.0.0.0/8'];
    const a = await startChildServer(args);
    started.push(a);
    // The receiver stalls every attempt while A lives: A's worker claims each delivery and waits on it.
    let stalled = true;
    receiver = await startReceiver(() => (stalled ? 'hang' : { status: 200 }));
    const r = receiver;
    const endpoint = await callJson(a.url, 'POST', '/webhooks', { url: r.url, kinds: ['ticket.created'] }, { 'x-api-key': adminKey });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    const endpointId = endpoint.body.id as string;
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await callJson(a.url, 'POST', '/tickets', { title: `leased ${i}` });
      expect(res.status).toBe(201);
      ids.push(res.body.id as string);
    }
    await until(() => r.received.length >= 8, 10_000, "A's eight attempts");
    const leased = await admin.listDeliveries({ endpointId });
    expect(leased).toHaveLength(8);
    for (const d of leased) {
      expect(d.status).toBe('pending');
      expect(d.nextAttemptAt).toBeGreaterThan(Date.now());
    }
    const leaseEnds = new Map(leased.map((d) => [d.eventId, d.nextAttemptAt]));
    a.child.kill('SIGKILL');
    await a.exited;
    stalled = false;
    const before = r.received.length;
    // B starts while A's leases still hold: it must leave those deliveries alone until they run out.
    const b = await startChildServer(args);
    started.push(b);
    await until(() => new Set(r.received.slice(before).map((x) => String(x.headers['webhook-id']))).size >= 8, 30_000, "B's deliveries");
    const byB = r.received.slice(before);
    for (const x of byB) expect(x.at, 'attempted before its lease ran out').toBeGreaterThanOrEqual(leaseEnds.get(String(x.headers['webhook-id']))! - 50);
    const events = await admin.readOutbox(0, 100, ['ticket.created']);
    expect(new Set(byB.map((x) => String(x.headers['webhook-id'])))).toEqual(new Set(events.map((e) => e.id)));
    expect(new Set(byB.map((x) => JSON.parse(x.body).data.object.id as string))).toEqual(new Set(ids));
    await until(
      async () => (await admin!.listDeliveries({ endpointId })).every((d) => d.status === 'delivered'),
      10_000,
      'every delivery recorded as delivered',
    );
    const done = await admin.listDeliveries({ endpointId });
    expect(done).toHaveLength(8);
    // Each counts A's lost attempt or not, but none is dead and none was delivered twice by B.
    expect(byB).toHaveLength(8);
    for (const id of ids) expect((await callJson(b.url, 'GET', `/tickets/${id}`)).status).toBe(200);
  }, 60_000);
});

describe.skipIf(skip !== undefined)('two serve processes on one PostgreSQL database and one Redis', () => {
  let a: ChildServer;
  let b: ChildServer;
  const dir = mkdtempSync(join(tmpdir(), 'servicespec-instances-'));
  // A policy name of its own, so no other run shares its Redis budget.
  const policy = `shared-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    const spec = readFileSync(new URL('../limits/fixtures/limited.yaml', import.meta.url), 'utf8')
      .replace(/\n {4}slow:[\s\S]*?(?=\nerrors:)/, '\n')
      .replace(/ {2}rate:\n[\s\S]*?(?=\n {2}body_size)/, `  rate:\n    - { name: ${policy}, requests: 6, per: 1m, by: operation, operations: [listItems] }`)
      .replace('timeout: 300ms', 'timeout: 10s');
    const file = join(dir, 'limited.yaml');
    writeFileSync(file, spec);
    const args = [file, '--db', getTestSchemaUrl(), '--allow-gaps', '--redis', 'redis://127.0.0.1:6379'];
    [a, b] = await Promise.all([startChildServer(args), startChildServer(args)]);
  }, 90_000);

  afterAll(async () => {
    for (const c of [a, b]) {
      if (c && c.child.exitCode === null) {
        c.child.kill('SIGTERM');
        await c.exited;
      }
    }
    rmSync(dir, { recursive: true, force: true });
    await dropTestSchemas();
  });

  it('share one rate-limit budget: 6 a minute in all, whichever instance is asked', async () => {
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await callJson((i % 2 === 0 ? a : b).url, 'GET', '/items'));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 429, 429, 429, 429]);
    expect(answers[9]!.body.code).toBe('rate_limited');
  });

  it('answer a retried Idempotency-Key once, on either instance', async () => {
    const key = { 'idempotency-key': `k-${randomBytes(6).toString('hex')}` };
    const first = await callJson(a.url, 'POST', '/items', { name: 'once' }, key);
    expect(first.status).toBe(201);
    const again = await callJson(b.url, 'POST', '/items', { name: 'once' }, key);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    const other = await callJson(b.url, 'POST', '/items', { name: 'different' }, key);
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_conflict');
  });
});
