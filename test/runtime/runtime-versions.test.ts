// An older version's writes are validated in that version's own shape, then upgraded to the current one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecFile } from '../../src/program.js';
import { loadModel, startService, type Running } from './helpers.js';

const SPEC = new URL('./fixtures/versioned.yaml', import.meta.url).pathname;

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
    for (const [method, path] of [['POST', '/v1/books'], ['PATCH', '/v1/books/00000000-0000-7000-8000-000000000000']] as const) {
      const r = await s.call(method, path, { name: 'Emma', language: 'nl' });
      expect(r.status, `${method} ${path}`).toBe(422);
      expect(r.body.code).toBe('invalid_request');
      expect(r.body.errors).toEqual([{ pointer: '/language', message: 'unknown field language' }]);
    }
    // The current name is not the old version's either.
    const r = await s.call('POST', '/v1/books', { title: 'Emma' });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual(expect.arrayContaining([{ pointer: '/title', message: 'unknown field title' }, { pointer: '/name', message: 'is required' }]));
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

describe('check on a field added after a served version', () => {
  it('warns that the older version cannot create the resource: version-field-required', () => {
    const found = compileSpecFile(SPEC).diagnostics.map((d) => [d.code, d.severity, d.message, d.line]);
    expect(found).toEqual([['version-field-required', 'warning', 'version `1` clients cannot create Shelf: code came after version `1`, is required and has no default', 19]]);
  });
});

