// `unknown_fields` (docs/format.md): `ignore` accepts a create, update or replace body holding members its request
// does not name and drops them (never stored, never answered); `refuse`, the format's, refuses them. On SQLite with
// the fast paths on and off, and on PostgreSQL where it answers.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { getPostgresSkipReason } from '../support/postgres.js';
import { checkedModel } from '../support/specs.js';
import { UNKNOWN_SPEC } from '../support/unknown-fields-spec.js';
import { startService, type Running } from './helpers.js';

const pgSkip = await getPostgresSkipReason();
const runs: { name: string; db?: 'postgres'; fastPaths: boolean }[] = [
  { name: 'SQLite, fast paths', fastPaths: true },
  { name: 'SQLite, SERVICESPEC_FAST_PATHS=off', fastPaths: false },
  ...(pgSkip === undefined ? [{ name: 'PostgreSQL', db: 'postgres' as const, fastPaths: true }] : []),
];

describe.each(runs)('unknown_fields on $name', ({ db, fastPaths }) => {
  let s: Running;
  beforeAll(async () => {
    const before = process.env.SERVICESPEC_TEST_DB;
    if (db) process.env.SERVICESPEC_TEST_DB = db;
    try {
      s = await startService(checkedModel(UNKNOWN_SPEC), { fastPaths });
    } finally {
      if (before === undefined) delete process.env.SERVICESPEC_TEST_DB;
      else process.env.SERVICESPEC_TEST_DB = before;
    }
  });
  afterAll(() => s.close());

  it('ignore: a create and a replace drop the members they do not name, never stored nor answered', async () => {
    const made = await s.call('POST', '/notes', { title: 'a', colour: 'red', id: '0190b3c4-0000-7000-8000-000000000000' });
    expect(made.status).toBe(201);
    expect(made.body).not.toHaveProperty('colour');
    expect(made.body.id).not.toBe('0190b3c4-0000-7000-8000-000000000000');
    const id = made.body.id as string;
    const read = await s.call('GET', `/notes/${id}`);
    expect(Object.keys(read.body).sort()).toEqual(['id', 'title']);
    const replaced = await s.call('PUT', `/notes/${id}`, { title: 'b', colour: 'blue' });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({ id, title: 'b' });
    expect((await s.call('GET', `/notes/${id}`)).body).toEqual({ id, title: 'b' });
    // A read-only member (the identifier) is one the request does not name: dropped, never written.
    const other = '0190b3c4-0000-7000-8000-000000000001';
    expect((await s.call('PUT', `/notes/${id}`, { title: 'c', id: other })).body).toEqual({ id, title: 'c' });
    expect((await s.call('GET', `/notes/${id}`)).body).toEqual({ id, title: 'c' });
    expect((await s.call('GET', `/notes/${other}`)).status).toBe(404);
    // A nested object's members are its field's shape: closed, whatever the operation says.
    const nested = await s.call('POST', '/notes', { title: 'c', meta: { tag: 't', extra: 1 } });
    expect(nested.status).toBe(422);
    // What the request names is validated as before.
    expect((await s.call('POST', '/notes', { title: 1, colour: 'red' })).status).toBe(422);
  });

  it('refuse (stated, or the format default) refuses an unknown member with the validation condition', async () => {
    const id = (await s.call('POST', '/notes', { title: 'a' })).body.id as string;
    const patched = await s.call('PATCH', `/notes/${id}`, { colour: 'red' });
    expect(patched.status).toBe(422);
    expect(patched.body.code).toBe('invalid');
    expect((await s.call('GET', `/notes/${id}`)).body).toEqual({ id, title: 'a' });
  });
});

describe('unknown_fields in check', () => {
  it('on an action other than create, update and replace it is misplaced-option', () => {
    const c = compileSpecText(UNKNOWN_SPEC.replace('action: read, resource: Note }', 'action: read, resource: Note, unknown_fields: ignore }'));
    const d = c.diagnostics.filter((x) => x.code === 'misplaced-option');
    expect(d.map((x) => x.pointer)).toEqual(['/endpoints/operations/readNote/unknown_fields']);
  });

  it('a value other than refuse or ignore is a schema error', () => {
    const c = compileSpecText(UNKNOWN_SPEC.replace('unknown_fields: refuse', 'unknown_fields: drop'));
    expect(c.diagnostics.some((x) => x.severity === 'error' && x.pointer === '/endpoints/operations/updateNote/unknown_fields')).toBe(true);
  });
});
