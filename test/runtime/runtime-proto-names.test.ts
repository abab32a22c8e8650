// Field names that are members of Object.prototype (constructor, toString, valueOf, hasOwnProperty, ...) are field
// names like any other: left out of a request, they are absent, not read from the prototype; given, they are kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel, startService, type Running } from './helpers.js';

const SPEC = new URL('./fixtures/proto-names.yaml', import.meta.url).pathname;
let s: Running;
beforeAll(async () => {
  s = await startService(loadModel(SPEC));
});
afterAll(async () => {
  await s?.close();
});

describe('fields named after Object.prototype members', () => {
  it('a create that leaves them out is accepted, and they are absent (or their default)', async () => {
    // Before: 422 "/constructor must be string", "/toString must be integer", ... (the prototype's functions validated).
    const made = await s.call('POST', '/cars', { name: 'plain' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ name: 'plain', propertyIsEnumerable: 'keep', status: 'parked' });
    for (const name of ['constructor', 'toString', 'hasOwnProperty'])
      expect(Object.hasOwn(made.body, name) ? made.body[name] : undefined, name).toBeUndefined();
    // Optional and nullable, and left out: absent, not null (as for any such field).
    expect(Object.hasOwn(made.body, 'valueOf')).toBe(false);
    const read = await s.call('GET', `/cars/${made.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(made.body);
  });

  it('given, they are stored and answered as sent; update, replace, filter and a transition that requires one work', async () => {
    const made = await s.call('POST', '/cars', { name: 'full', constructor: 'Ferrari', toString: 3, valueOf: null, hasOwnProperty: { isPrototypeOf: 'no' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ constructor: 'Ferrari', toString: 3, valueOf: null, hasOwnProperty: { isPrototypeOf: 'no' } });
    const id = made.body.id as string;
    const patched = await s.call('PATCH', `/cars/${id}`, { name: 'renamed' });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ name: 'renamed', constructor: 'Ferrari', toString: 3 });
    // Before: a list with no query was refused, its filters `constructor` and `toString` "must be given once".
    const all = await s.call('GET', '/cars');
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    const listed = await s.call('GET', '/cars?constructor=Ferrari');
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.items.map((c: { id: string }) => c.id)).toEqual([id]);
    const byNumber = await s.call('GET', '/cars?toString=3');
    expect(byNumber.body.items.map((c: { id: string }) => c.id)).toEqual([id]);
    const raced = await s.call('POST', `/cars/${id}/race`, {});
    expect(raced.status, JSON.stringify(raced.body)).toBe(200);
    expect(raced.body.status).toBe('racing');
    const replaced = await s.call('PUT', `/cars/${id}`, { name: 'replaced' });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body).toMatchObject({ name: 'replaced', propertyIsEnumerable: 'keep' });
    expect(Object.hasOwn(replaced.body, 'constructor') ? replaced.body.constructor : undefined).toBeUndefined();
  });

  it("a transition that requires a field left out is refused as validation, not given the prototype's value", async () => {
    const made = await s.call('POST', '/cars', { name: 'no maker' });
    const raced = await s.call('POST', `/cars/${made.body.id}/race`, {});
    expect(raced.status).toBe(422);
    expect(raced.body.code).toBe('invalid');
  });

  it('wrong types for them are refused with the field named', async () => {
    const bad = await s.call('POST', '/cars', { name: 'x', constructor: 1 });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ pointer: '/constructor', message: 'must be string' }]);
  });
});
