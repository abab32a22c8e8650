// An older version's writes are validated in that version's own shape, then upgraded to the current one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecFile } from '../../src/program.js';
import { loadModel, startService, type Running } from './helpers.js';

const SPEC = new URL('./fixtures/versioned.yaml', import.meta.url).pathname;
const ACTIONS = new URL('./fixtures/versioned-actions.yaml', import.meta.url).pathname;
const PAGE_NAMED = new URL('./fixtures/versioned-page-fields.yaml', import.meta.url).pathname;

describe('requests of an older version', { timeout: 60_000 }, () => {
  let s: Running;
  beforeAll(async () => {
    s = await startService(loadModel(SPEC));
  });
  afterAll(async () => s.close());

  it('creates without a field added later with a default, and reads back in the old shape', async () => {
    const r = await s.call('POST', '/v1/books', { name: 'Emma', pages: 474 });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ id: expect.any(String), name: 'Emma', pages: 474 });
    const v1 = await s.call('GET', `/v1/books/${r.body.id as string}`);
    expect(v1.status).toBe(200);
    expect(v1.body).toEqual({ id: r.body.id, name: 'Emma', pages: 474 });
    // The current version sees the declared default.
    const v2 = await s.call('GET', `/v2/books/${r.body.id as string}`);
    expect(v2.body).toEqual({ id: r.body.id, title: 'Emma', language: 'en', pages: 474 });
  });

  it('replaces and updates in the old shape', async () => {
    const { body } = await s.call('POST', '/v2/books', { title: 'Persuasion', language: 'nl' });
    const put = await s.call('PUT', `/v1/books/${body.id as string}`, { name: 'Persuasion', pages: 249 });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ id: body.id, name: 'Persuasion', pages: 249 });
    const patch = await s.call('PATCH', `/v1/books/${body.id as string}`, { name: 'Persuasion (2nd)' });
    expect(patch.status).toBe(200);
    expect(patch.body.name).toBe('Persuasion (2nd)');
    // A field version 1 does not have is left as stored by its replace, not reset.
    const v2 = await s.call('GET', `/v2/books/${body.id as string}`);
    expect(v2.body).toEqual({ id: body.id, title: 'Persuasion (2nd)', language: 'nl', pages: 249 });
  });

  it('refuses a field only a newer version has as an unknown field', async () => {
    for (const [method, path] of [
      ['POST', '/v1/books'],
      ['PATCH', '/v1/books/00000000-0000-7000-8000-000000000000'],
    ] as const) {
      const r = await s.call(method, path, { name: 'Emma', language: 'nl' });
      expect(r.status, `${method} ${path}`).toBe(422);
      expect(r.body.code).toBe('invalid_request');
      expect(r.body.errors).toEqual([{ pointer: '/language', message: 'unknown field language' }]);
    }
    // The current name is not the old version's either.
    const r = await s.call('POST', '/v1/books', { title: 'Emma' });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual(
      expect.arrayContaining([
        { pointer: '/title', message: 'unknown field title' },
        { pointer: '/name', message: 'is required' },
      ]),
    );
  });

  it('refuses a create that needs a field added later with no default, naming it', async () => {
    const r = await s.call('POST', '/v1/shelves', { room: 'Reading room' });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('invalid_request');
    expect(r.body.detail).toMatch(/version 1 request cannot create a Shelf: code came after version 1/);
    expect(r.body.errors).toEqual([{ pointer: '/code', message: 'is required since a later version and has no default; version 1 does not have it' }]);
    // The current version creates it; version 1 may still update what it has.
    const made = await s.call('POST', '/v2/shelves', { room: 'Reading room', code: 'A1' });
    expect(made.status).toBe(201);
    const patch = await s.call('PATCH', `/v1/shelves/${made.body.id as string}`, { room: 'Annex' });
    expect(patch.status).toBe(200);
    expect(patch.body).toEqual({ id: made.body.id, room: 'Annex' });
  });
});

describe("an older version's transitions and custom operations", { timeout: 60_000 }, () => {
  let s: Running;
  const seen: unknown[] = [];
  const v1 = { 'api-version': '1' };
  beforeAll(async () => {
    s = await startService(loadModel(ACTIONS), {
      handlers: {
        preview: ({ body }) => {
          seen.push(body);
          return [{ id: '00000000-0000-7000-8000-000000000001', status: 'packed', ...(body as object) }];
        },
      },
    });
  });
  afterAll(async () => s.close());

  it('runs a transition with the body in the old shape, and refuses the current names', async () => {
    const made = await s.call('POST', '/parcels', { weight: 3 }, v1);
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    const current = await s.call('POST', `/parcels/${id}/ship`, { tracking_number: 'T1' }, v1);
    expect(current.status).toBe(422);
    expect(current.body.errors).toEqual([{ pointer: '/tracking_number', message: 'unknown field tracking_number' }]);
    const later = await s.call('POST', `/parcels/${id}/ship`, { tracking: 'T1', carrier: 'DHL' }, v1);
    expect(later.status).toBe(422);
    expect(later.body.errors).toEqual([{ pointer: '/carrier', message: 'unknown field carrier' }]);
    const shipped = await s.call('POST', `/parcels/${id}/ship`, { tracking: 'T1' }, v1);
    expect(shipped.status).toBe(200);
    expect(shipped.body).toEqual({ id, status: 'shipped', weight: 3, tracking: 'T1' });
    expect((await s.call('GET', `/parcels/${id}`)).body).toEqual({ id, status: 'shipped', weight: 3, tracking_number: 'T1' });
  });

  it('answers a keyed create of the old version once in its shape, and replays the same answer', async () => {
    const headers = { ...v1, 'idempotency-key': 'parcel-key-1' };
    const first = await s.call('POST', '/parcels', { weight: 5, tracking: 'K1' }, headers);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ id: expect.any(String), status: 'packed', weight: 5, tracking: 'K1' });
    const again = await s.call('POST', '/parcels', { weight: 5, tracking: 'K1' }, headers);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await s.call('GET', `/parcels/${first.body.id as string}`, undefined, v1)).body).toEqual(first.body);
  });

  it("names a transition's missing field as the old version calls it", async () => {
    const made = await s.call('POST', '/parcels', { weight: 2 }, v1);
    const r = await s.call('POST', `/parcels/${made.body.id as string}/ship`, {}, v1);
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([{ pointer: '/tracking', message: 'is required by this transition' }]);
    // The current version is told its own name.
    const now = await s.call('POST', `/parcels/${made.body.id as string}/ship`, {}, { 'api-version': '2' });
    expect(now.body.errors).toEqual([{ pointer: '/tracking_number', message: 'is required by this transition' }]);
  });

  it("checks a custom operation's declared request shape in the old version and answers in it", async () => {
    seen.length = 0;
    const r = await s.call('POST', '/parcel-previews', { weight: 4, tracking: 'T9' }, v1);
    expect(r.status).toBe(200);
    // The handler sees the current shape; the list it returns is answered in version 1's names.
    expect(seen).toEqual([{ weight: 4, tracking_number: 'T9' }]);
    expect(r.body).toEqual([{ id: '00000000-0000-7000-8000-000000000001', status: 'packed', weight: 4, tracking: 'T9' }]);
    for (const body of [
      { weight: 4, tracking_number: 'T9' },
      { weight: 4, carrier: 'DHL' },
    ]) {
      const refused = await s.call('POST', '/parcel-previews', body, v1);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(refused.body.errors[0].message).toMatch(/^unknown field (tracking_number|carrier)$/);
    }
    expect(seen).toHaveLength(1);
    const now = await s.call('POST', '/parcel-previews', { weight: 4, tracking_number: 'T9', carrier: 'DHL' });
    expect(now.status).toBe(200);
    expect(now.body).toEqual([{ id: '00000000-0000-7000-8000-000000000001', status: 'packed', weight: 4, tracking_number: 'T9', carrier: 'DHL' }]);
  });
});

describe("an older version's answers that are objects with a page's field names", { timeout: 60_000 }, () => {
  let s: Running;
  beforeAll(async () => {
    s = await startService(loadModel(PAGE_NAMED));
  });
  afterAll(async () => s.close());

  it('renames an object with items and next_cursor fields as an object; only a list answer is a page', async () => {
    const made = await s.call('POST', '/v1/lists', { name: 'Summer', items: ['Emma'], next_cursor: 'p2' });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({ id: expect.any(String), name: 'Summer', items: ['Emma'], next_cursor: 'p2' });
    const read = await s.call('GET', `/v1/lists/${made.body.id as string}`);
    expect(read.body).toEqual(made.body);
    expect((await s.call('GET', `/v2/lists/${made.body.id as string}`)).body).toEqual({
      id: made.body.id,
      title: 'Summer',
      items: ['Emma'],
      next_cursor: 'p2',
    });
    // The list is a page: its objects are renamed, its own paging fields kept.
    const page = await s.call('GET', '/v1/lists');
    expect(page.body.items).toEqual([made.body]);
    expect(page.body).toHaveProperty('next_cursor');
  });
});

describe('check on a field added after a served version', () => {
  it('warns that the older version cannot create the resource: version-field-required', () => {
    const found = compileSpecFile(SPEC).diagnostics.map((d) => [d.code, d.severity, d.message, d.line]);
    expect(found).toEqual([
      ['version-field-required', 'warning', 'version `1` clients cannot create Shelf: code came after version `1`, is required and has no default', 19],
    ]);
  });
});
