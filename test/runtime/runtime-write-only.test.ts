// A write-only field (a password): accepted in requests and stored, but no answer carries it — create, read, list,
// update, replace, transition, an envelope, a keyed replay, event payloads — on either storage and either path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { openStream } from '../events/helpers.js';
import { startService, type Running } from './helpers.js';
import { PLAIN_ERRORS } from '../support/specs.js';

const SPEC = `
servicespec: 1
resources:
  User:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string }
      password: { type: string, writeOnly: true, minLength: 4 }
      status: { type: state }
states:
  User:
    field: status
    initial: active
    states:
      active: {}
      locked: {}
    transitions:
      lock: { from: active, to: locked }
endpoints:
  idempotency: { header: Idempotency-Key, retention: 1h }
  operations:
    addUser: { method: POST, path: /users, action: create, resource: User }
    getUser: { method: GET, path: "/users/{id}", action: read, resource: User }
    listUsers: { method: GET, path: /users, action: list, resource: User }
    wrapped: { method: GET, path: /wrapped/users, action: list, resource: User, paging: { body: array }, envelope: { data: results, fields: { next: { type: string, nullable: true } }, next: next } }
    editUser: { method: PATCH, path: "/users/{id}", action: update, resource: User }
    putUser: { method: PUT, path: "/users/{id}", action: replace, resource: User }
    lockUser: { method: POST, path: "/users/{id}/lock", action: transition, resource: User, transition: lock }
    leaky: { method: GET, path: /leaky, action: custom, handler: leaky, response: { resource: User } }
authentication:
  default: none
events:
  delivery:
    stream: { path: /stream, heartbeat: 10s }
  kinds:
    user.added: { resource: User, on: [create] }
    user.changed: { resource: User, on: [update] }
${PLAIN_ERRORS}`;

const SECRETS = ['hunter22', 'changed-1', 'replaced-2'];
const leaks = (value: unknown) => SECRETS.some((p) => JSON.stringify(value).includes(p)) || JSON.stringify(value).includes('"password"');

const LEAKY_ID = '7f1e8a52-2f7a-4c5e-9b43-0a1b2c3d4e5f';
let s: Running;
beforeAll(async () => {
  const c = compileSpecText(SPEC);
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  s = await startService(c.model!, { handlers: { leaky: () => ({ id: LEAKY_ID, name: 'eve', status: 'active', password: 'hunter22' }) } });
});
afterAll(() => s.close());

describe('a write-only field', () => {
  it('is stored but left out of every answer and event payload', async () => {
    const stream = await openStream(`${s.url}/stream`);
    const created = await s.call('POST', '/users', { name: 'ann', password: 'hunter22' }, { 'idempotency-key': 'k1' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(created.body).toEqual({ id, name: 'ann', status: 'active' });
    const stored = await s.storage.transaction((tx) => tx.get('User', id));
    expect(stored?.password).toBe('hunter22');

    const replay = await s.call('POST', '/users', { name: 'ann', password: 'hunter22' }, { 'idempotency-key': 'k1' });
    expect(replay.body).toEqual(created.body);
    expect((await s.call('GET', `/users/${id}`)).body).toEqual(created.body);
    const list = await s.call('GET', '/users');
    expect(list.body.items).toEqual([created.body]);
    const wrapped = await s.call('GET', '/wrapped/users');
    expect(wrapped.body.results).toEqual([created.body]);

    const edited = await s.call('PATCH', `/users/${id}`, { password: 'changed-1' });
    expect(edited.status).toBe(200);
    expect(edited.body).toEqual(created.body);
    expect((await s.storage.transaction((tx) => tx.get('User', id)))?.password).toBe('changed-1');
    const put = await s.call('PUT', `/users/${id}`, { name: 'bea', password: 'replaced-2' });
    expect(put.body).toEqual({ id, name: 'bea', status: 'active' });
    const locked = await s.call('POST', `/users/${id}/lock`);
    expect(locked.body).toEqual({ id, name: 'bea', status: 'locked' });

    const events = await stream.waitFor(3);
    stream.close();
    expect(events).toHaveLength(3);
    for (const e of events) expect(leaks(JSON.parse(e.data)), e.data).toBe(false);
    for (const answer of [created, replay, edited, put, locked, list, wrapped]) expect(leaks(answer.body)).toBe(false);
  });

  it('is validated in requests like any writable field', async () => {
    const r = await s.call('POST', '/users', { name: 'cy', password: 'x' });
    expect(r.status).toBe(422);
    expect(leaks(r.body)).toBe(false);
    const missing = await s.call('POST', '/users', { name: 'cy' });
    expect(missing.status).toBe(422);
  });

  it('a custom handler answering it gets the internal answer, never the password', async () => {
    const r = await s.call('GET', '/leaky');
    expect(r.status).toBe(500);
    expect(leaks(r.body)).toBe(false);
  });
});
