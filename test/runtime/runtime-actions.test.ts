import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel, startService, TICKETS, type Running } from './helpers.js';

let s: Running;
let projectId: string;

beforeAll(async () => {
  s = await startService(loadModel(TICKETS), {
    allowGaps: false,
    handlers: {
      estimate: ({ body }) => ({ points: String((body as { title: string }).title).length % 13 }),
    },
  });
  const p = await s.call('POST', '/projects', { slug: 'core', name: 'Core' });
  expect(p.status).toBe(201);
  projectId = p.body.id;
});
afterAll(() => s.close());

const ticket = (extra: Record<string, unknown> = {}) => ({ project: projectId, title: 'Broken', reporter: 'ann@example.com', ...extra });

describe('create', () => {
  it('assigns a UUIDv7 identifier, the initial state, defaults and generated times', async () => {
    const r = await s.call('POST', '/tickets', ticket());
    expect(r.status).toBe(201);
    expect(r.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(r.body).toMatchObject({ status: 'open', priority: 'normal', title: 'Broken', project: projectId });
    expect(Date.parse(r.body.created_at)).not.toBeNaN();
    expect(r.body.created_at).toBe(r.body.updated_at);
    expect(r.body).not.toHaveProperty('points');
    expect(r.headers.get('location')).toBe(`/tickets/${r.body.id}`);
    expect(r.headers.get('x-request-id')).toBeTruthy();
  });

  it('keeps nested objects and arrays as sent', async () => {
    const r = await s.call('POST', '/tickets', ticket({ labels: ['ui', 'bug'], meta: { source: 'mail', weight: 0.5 }, points: 3 }));
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ labels: ['ui', 'bug'], meta: { source: 'mail', weight: 0.5 }, points: 3 });
    const back = await s.call('GET', `/tickets/${r.body.id}`);
    expect(back.body).toEqual(r.body);
  });

  it('refuses a reference to an object that does not exist', async () => {
    const r = await s.call('POST', '/tickets', ticket({ project: '01900000-0000-7000-8000-000000000000' }));
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('invalid_request');
  });

  it('refuses a duplicate unique value with the declared conflict', async () => {
    const r = await s.call('POST', '/projects', { slug: 'core', name: 'Again' });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: 'conflict', status: 409, errors: [{ pointer: '/slug' }] });
  });
});

describe('read, update, replace, delete', () => {
  it('reads, patches, replaces and deletes one object', async () => {
    const created = (await s.call('POST', '/tickets', ticket({ points: 5 }))).body;
    const read = await s.call('GET', `/tickets/${created.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created);

    const patched = await s.call('PATCH', `/tickets/${created.id}`, { title: 'Still broken' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ title: 'Still broken', points: 5, reporter: 'ann@example.com' });

    const replaced = await s.call('PUT', `/tickets/${created.id}`, { project: projectId, title: 'Replaced', priority: 'high' });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ title: 'Replaced', priority: 'high', reporter: 'ann@example.com', status: 'open' });
    expect(replaced.body).not.toHaveProperty('points');

    const del = await s.call('DELETE', `/tickets/${created.id}`);
    expect(del.status).toBe(204);
    expect(del.body).toBeUndefined();
    const gone = await s.call('GET', `/tickets/${created.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('not_found');
  });

  it('refuses writeOnce fields after create', async () => {
    const created = (await s.call('POST', '/tickets', ticket())).body;
    const r = await s.call('PATCH', `/tickets/${created.id}`, { reporter: 'bob@example.com' });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([{ pointer: '/reporter', message: 'reporter can be set only when the object is created' }]);
  });

  it('refuses to delete an object others still refer to', async () => {
    const p = (await s.call('POST', '/projects', { slug: 'used', name: 'Used' })).body;
    await s.call('POST', '/tickets', ticket({ project: p.id }));
    const r = await s.call('DELETE', `/projects/${p.id}`);
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('in_use');
    expect((await s.call('GET', `/projects/${p.id}`)).status).toBe(200);
  });
});

describe('transitions', () => {
  it('moves through the state machine and stamps the time', async () => {
    const t = (await s.call('POST', '/tickets', ticket())).body;
    const started = await s.call('POST', `/tickets/${t.id}/start`);
    expect(started.status).toBe(200);
    expect(started.body.status).toBe('in_progress');
    const missing = await s.call('POST', `/tickets/${t.id}/resolve`, {});
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([{ pointer: '/resolution', message: 'is required by this transition' }]);
    const resolved = await s.call('POST', `/tickets/${t.id}/resolve`, { resolution: 'fixed' });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ status: 'resolved', resolution: 'fixed' });
    expect(Date.parse(resolved.body.resolved_at)).not.toBeNaN();
    const again = await s.call('POST', `/tickets/${t.id}/reject`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('invalid_transition');
    expect(again.body.detail).toContain('terminal');
  });

  it('records the events the spec attaches, in the same transaction', async () => {
    const before = await s.storage.readEvents(0, 100_000);
    const t = (await s.call('POST', '/tickets', ticket())).body;
    await s.call('POST', `/tickets/${t.id}/start`);
    await s.call('PATCH', `/tickets/${t.id}`, { points: 8 });
    await s.call('POST', `/tickets/${t.id}/stop`);
    const after = await s.storage.readEvents(before.at(-1)?.seq ?? 0, 100);
    expect(after.map((e) => e.type)).toEqual(['ticket.created', 'ticket.started', 'ticket.updated']);
    expect(after[2]!.data).toMatchObject({ object: { id: t.id, points: 8 }, previous: { points: null } });
    expect(after[0]!.version).toBe('2');
  });
});

describe('list', () => {
  it('pages with an opaque cursor until every object is seen once', async () => {
    const p = (await s.call('POST', '/projects', { slug: 'paging', name: 'Paging' })).body;
    const ids = new Set<string>();
    for (let i = 0; i < 23; i++) ids.add((await s.call('POST', '/tickets', ticket({ project: p.id, points: i % 4 }))).body.id);
    for (const sort of [undefined, 'points', '-points', '-created_at']) {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const q = new URLSearchParams({ project: p.id, limit: '7' });
        if (sort) q.set('sort', sort);
        if (cursor) q.set('cursor', cursor);
        const r = await s.call('GET', `/tickets?${q}`);
        expect(r.status).toBe(200);
        seen.push(...r.body.items.map((x: { id: string }) => x.id));
        cursor = r.body.next_cursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(4);
      expect(new Set(seen)).toEqual(ids);
      expect(seen).toHaveLength(23);
    }
  });

  it('sorts by a declared field with nulls last', async () => {
    const p = (await s.call('POST', '/projects', { slug: 'sorting', name: 'Sorting' })).body;
    for (const points of [5, undefined, 1, 9]) await s.call('POST', '/tickets', ticket(points === undefined ? { project: p.id } : { project: p.id, points }));
    const asc = (await s.call('GET', `/tickets?project=${p.id}&sort=points`)).body.items.map((x: { points?: number }) => x.points);
    expect(asc).toEqual([1, 5, 9, undefined]);
    const desc = (await s.call('GET', `/tickets?project=${p.id}&sort=-points`)).body.items.map((x: { points?: number }) => x.points);
    expect(desc).toEqual([9, 5, 1, undefined]);
  });

  it('filters on declared fields and uses the declared default page size', async () => {
    const p = (await s.call('POST', '/projects', { slug: 'filter', name: 'Filter' })).body;
    for (let i = 0; i < 12; i++) await s.call('POST', '/tickets', ticket({ project: p.id, priority: i % 3 === 0 ? 'high' : 'low' }));
    const high = await s.call('GET', `/tickets?project=${p.id}&priority=high`);
    expect(high.body.items).toHaveLength(4);
    const all = await s.call('GET', `/tickets?project=${p.id}`);
    expect(all.body.items).toHaveLength(10);
    expect(all.body.next_cursor).toEqual(expect.any(String));
  });
});

describe('custom operations', () => {
  it('serves the handler with its declared request and response shapes', async () => {
    const r = await s.call('POST', '/estimates', { title: 'abc' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ points: 3 });
    const bad = await s.call('POST', '/estimates', { title: 'abc', extra: 1 });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('invalid_request');
  });
});

describe('versions', () => {
  it('answers with the version asked for and refuses unknown ones', async () => {
    const r = await s.call('GET', `/projects/${projectId}`, undefined, { 'api-version': '1' });
    expect(r.status).toBe(200);
    expect(r.headers.get('api-version')).toBe('1');
    expect(r.headers.get('deprecation')).toBe(`@${Date.parse('2026-01-01') / 1000}`);
    const dflt = await s.call('GET', `/projects/${projectId}`);
    expect(dflt.headers.get('api-version')).toBe('2');
    const old = await s.call(
      'POST',
      '/tickets',
      { project: projectId, summary: 'Old name', reporter: 'v1@example.com', labels: undefined },
      { 'api-version': '1' },
    );
    expect(old.status).toBe(201);
    expect(old.body.summary).toBe('Old name');
    expect(old.body).not.toHaveProperty('title');
    const now = await s.call('PATCH', `/tickets/${old.body.id}`, { labels: ['new'] });
    expect(now.body).toMatchObject({ title: 'Old name', labels: ['new'] });
    const listedOld = await s.call('GET', `/tickets?project=${projectId}&limit=50`, undefined, { 'api-version': '1' });
    const mine = listedOld.body.items.find((x: { id: string }) => x.id === old.body.id);
    expect(mine).toMatchObject({ summary: 'Old name' });
    expect(mine).not.toHaveProperty('labels');
    expect(old.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(listedOld.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const oldRead = await s.call('GET', `/tickets/${old.body.id}`, undefined, { 'api-version': '1' });
    expect([oldRead.status, oldRead.headers.get('content-type'), oldRead.body.summary]).toEqual([200, 'application/json; charset=utf-8', 'Old name']);
    // An error in an older version keeps the problem type.
    const missing = await s.call('GET', '/tickets/01900000-0000-7000-8000-000000000000', undefined, { 'api-version': '1' });
    expect([missing.status, missing.headers.get('content-type'), missing.body.code]).toEqual([
      404,
      expect.stringMatching(/^application\/problem\+json/),
      'not_found',
    ]);
    const gone = await s.call('DELETE', `/tickets/${old.body.id}`, undefined, { 'api-version': '1' });
    expect([gone.status, gone.body]).toEqual([204, undefined]);
    const bad = await s.call('GET', `/projects/${projectId}`, undefined, { 'api-version': '7' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('unsupported_version');
  });
});
