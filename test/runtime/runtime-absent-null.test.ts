// An optional, nullable field: absent (never given, or cleared by a replace) and null (given as null) are kept
// apart everywhere the object is answered — create, read, list, update, replace, events — on either storage.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { openStream } from '../events/helpers.js';
import { startService, type Running } from './helpers.js';
import { PLAIN_ERRORS } from '../support/specs.js';

const SPEC = `
servicespec: 1
resources:
  Note:
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string }
      label: { type: string, optional: true, nullable: true }
      meta: { type: json, optional: true, nullable: true }
endpoints:
  operations:
    addNote: { method: POST, path: /notes, action: create, resource: Note }
    getNote: { method: GET, path: "/notes/{id}", action: read, resource: Note }
    listNotes: { method: GET, path: /notes, action: list, resource: Note, filter: [label, title], sort: [label] }
    editNote: { method: PATCH, path: "/notes/{id}", action: update, resource: Note }
    putNote: { method: PUT, path: "/notes/{id}", action: replace, resource: Note }
authentication:
  default: none
events:
  delivery:
    stream: { path: /stream, heartbeat: 10s }
  kinds:
    note.added: { resource: Note, on: [create] }
${PLAIN_ERRORS}limits:
  body_size: 16KiB
`;

let s: Running;
beforeAll(async () => {
  const c = compileSpecText(SPEC);
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  s = await startService(c.model!);
});
afterAll(() => s.close());

describe('absent and null, apart', () => {
  it('create, read, list and the event leave a field never given out, and answer a given null as null', async () => {
    const stream = await openStream(`${s.url}/stream`);
    const absent = await s.call('POST', '/notes', { title: 'absent' });
    const nulled = await s.call('POST', '/notes', { title: 'nulled', label: null, meta: null });
    expect(absent.body).toEqual({ id: absent.body.id, title: 'absent' });
    expect(nulled.body).toEqual({ id: nulled.body.id, title: 'nulled', label: null, meta: null });
    expect((await s.call('GET', `/notes/${absent.body.id as string}`)).body).toEqual(absent.body);
    expect((await s.call('GET', `/notes/${nulled.body.id as string}`)).body).toEqual(nulled.body);
    const list = await s.call('GET', '/notes?sort=label&limit=10');
    expect(list.body.items).toEqual(expect.arrayContaining([absent.body, nulled.body]));
    const events = await stream.waitFor(2);
    stream.close();
    expect(events.map((e) => (JSON.parse(e.data) as { data: { object: unknown } }).data.object)).toEqual([absent.body, nulled.body]);
  });

  it('a filter on null finds a null given, not a field never given', async () => {
    const absent = await s.call('POST', '/notes', { title: 'f-absent' });
    const nulled = await s.call('POST', '/notes', { title: 'f-nulled', label: null });
    const r = await s.call('GET', '/notes?label=null&limit=10');
    const ids = (r.body.items as { id: string }[]).map((i) => i.id);
    expect(ids).toContain(nulled.body.id);
    expect(ids).not.toContain(absent.body.id);
  });

  it('PATCH to null answers null; a replace that leaves the field out clears it to absent; a value in between is kept', async () => {
    const c = await s.call('POST', '/notes', { title: 'u' });
    const p = await s.call('PATCH', `/notes/${c.body.id as string}`, { label: null });
    expect(p.body).toEqual({ id: c.body.id, title: 'u', label: null });
    const v = await s.call('PATCH', `/notes/${c.body.id as string}`, { label: 'x' });
    expect(v.body).toEqual({ id: c.body.id, title: 'u', label: 'x' });
    const put = await s.call('PUT', `/notes/${c.body.id as string}`, { title: 'u2' });
    expect(put.body).toEqual({ id: c.body.id, title: 'u2' });
    expect((await s.call('GET', `/notes/${c.body.id as string}`)).body).toEqual({ id: c.body.id, title: 'u2' });
    const back = await s.call('PUT', `/notes/${c.body.id as string}`, { title: 'u3', label: null });
    expect(back.body).toEqual({ id: c.body.id, title: 'u3', label: null });
  });
});
