// Conditional requests (`etag: true`): every one-object answer carries a strong ETag derived from the object; a read
// honours If-None-Match (304, the tag, no body); update, replace, delete and transition honour If-Match (412 when
// stale, nothing changed), compared in the change's own transaction; `if_match: required` refuses a change without
// it (428). A resource without etag answers no ETag. Both with the fast paths and without, on either storage.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ETAG_SPEC } from '../support/etag-spec.js';
import { checkedModel } from '../support/specs.js';
import { startService, type Running } from './helpers.js';

const TAG = /^"[A-Za-z0-9_-]{22}"$/;

for (const fastPaths of [true, false])
  describe(`etag (fast paths ${fastPaths ? 'on' : 'off'})`, () => {
    let s: Running;
    beforeAll(async () => {
      s = await startService(checkedModel(ETAG_SPEC()), { fastPaths });
    });
    afterAll(async () => {
      await s?.close();
    });

    it('answers one ETag per state of the object: create, read, update, replace, transition agree', async () => {
      const made = await s.call('POST', '/notes', { title: 'a', tags: ['x', 'y'], pin: '1234' });
      expect(made.status).toBe(201);
      const tag = made.headers.get('etag')!;
      expect(tag).toMatch(TAG);
      const read = await s.call('GET', `/notes/${made.body.id}`);
      expect(read.headers.get('etag')).toBe(tag);
      const updated = await s.call('PATCH', `/notes/${made.body.id}`, { body: 'b' });
      expect(updated.headers.get('etag')).toMatch(TAG);
      expect(updated.headers.get('etag')).not.toBe(tag);
      expect((await s.call('GET', `/notes/${made.body.id}`)).headers.get('etag')).toBe(updated.headers.get('etag'));
      const replaced = await s.call('PUT', `/notes/${made.body.id}`, { title: 'c' });
      expect(replaced.headers.get('etag')).not.toBe(updated.headers.get('etag'));
      expect((await s.call('GET', `/notes/${made.body.id}`)).headers.get('etag')).toBe(replaced.headers.get('etag'));
      const published = await s.call('POST', `/notes/${made.body.id}/publish`);
      expect(published.status).toBe(200);
      expect(published.headers.get('etag')).not.toBe(replaced.headers.get('etag'));
      expect((await s.call('GET', `/notes/${made.body.id}`)).headers.get('etag')).toBe(published.headers.get('etag'));
      // A list's answer carries many objects: no ETag.
      expect((await s.call('GET', '/notes')).headers.get('etag')).toBeNull();
    });

    it('If-None-Match: the current tag, a list holding it, its weak form or * answer 304 with the tag and no body; another tag 200', async () => {
      const made = await s.call('POST', '/notes', { title: 'n' });
      const tag = made.headers.get('etag')!;
      for (const inm of [tag, `"nope", ${tag}`, `W/${tag}`, '*']) {
        const r = await fetch(`${s.url}/notes/${made.body.id}`, { headers: { 'if-none-match': inm } });
        expect(r.status, inm).toBe(304);
        expect(r.headers.get('etag')).toBe(tag);
        expect(await r.text()).toBe('');
      }
      const other = await s.call('GET', `/notes/${made.body.id}`, undefined, { 'if-none-match': '"other"' });
      expect(other.status).toBe(200);
      expect(other.body.title).toBe('n');
      expect((await s.call('GET', '/notes/00000000-0000-7000-8000-000000000000', undefined, { 'if-none-match': '*' })).status).toBe(404);
    });

    it('If-Match: a stale or weak tag is 412 and changes nothing; the current tag or * goes through', async () => {
      const made = await s.call('POST', '/notes', { title: 'm' });
      const tag = made.headers.get('etag')!;
      const path = `/notes/${made.body.id}`;
      for (const [method, body] of [
        ['PATCH', { title: 'x' }],
        ['PUT', { title: 'x' }],
        ['POST', undefined],
        ['DELETE', undefined],
      ] as const) {
        for (const im of ['"stale"', `W/${tag}`, 'garbage']) {
          const r = await s.call(method, method === 'POST' ? `${path}/publish` : path, body, { 'if-match': im });
          expect(r.status, `${method} ${im}`).toBe(412);
          expect(r.body.code ?? r.body.type).toBeDefined();
        }
      }
      const after = await s.call('GET', path);
      expect(after.body).toEqual({ id: made.body.id, title: 'm', status: 'draft' });
      expect(after.headers.get('etag')).toBe(tag);
      const ok = await s.call('PATCH', path, { title: 'y' }, { 'if-match': `"old", ${tag}` });
      expect(ok.status).toBe(200);
      expect((await s.call('PATCH', path, { title: 'z' }, { 'if-match': tag })).status).toBe(412);
      const star = await s.call('POST', `${path}/publish`, undefined, { 'if-match': '*' });
      expect(star.status).toBe(200);
      expect((await s.call('DELETE', path, undefined, { 'if-match': star.headers.get('etag')! })).status).toBe(204);
      expect((await s.call('DELETE', path, undefined, { 'if-match': '*' })).status).toBe(404);
    });

    it('two changes racing with one tag: one wins, the other 412', async () => {
      const made = await s.call('POST', '/notes', { title: 'r' });
      const tag = made.headers.get('etag')!;
      const path = `/notes/${made.body.id}`;
      const both = await Promise.all(['p', 'q', 's', 't'].map((title) => s.call('PATCH', path, { title }, { 'if-match': tag })));
      expect(both.map((r) => r.status).sort()).toEqual([200, 412, 412, 412]);
    });

    it('if_match: required: a change without If-Match is 428, with the tag it goes through; a read needs none', async () => {
      const made = await s.call('POST', '/contracts', { title: 'c' });
      const tag = made.headers.get('etag')!;
      const path = `/contracts/${made.body.id}`;
      expect((await s.call('PATCH', path, { title: 'd' })).status).toBe(428);
      expect((await s.call('DELETE', path)).status).toBe(428);
      expect((await s.call('GET', path)).body.title).toBe('c');
      expect((await s.call('PATCH', path, { title: 'd' }, { 'if-match': '"x"' })).status).toBe(412);
      const ok = await s.call('PATCH', path, { title: 'd' }, { 'if-match': tag });
      expect(ok.status).toBe(200);
      expect((await s.call('DELETE', path, undefined, { 'if-match': ok.headers.get('etag')! })).status).toBe(204);
    });
  });

describe('etag: a resource without it', () => {
  let s: Running;
  beforeAll(async () => {
    s = await startService(checkedModel(ETAG_SPEC('plural: Notes', 'plural: Contracts').replace(/, if_match: required/g, '')));
  });
  afterAll(async () => {
    await s?.close();
  });

  it('answers no ETag and ignores If-Match and If-None-Match', async () => {
    const made = await s.call('POST', '/notes', { title: 'a' });
    expect(made.headers.get('etag')).toBeNull();
    const path = `/notes/${made.body.id}`;
    expect((await s.call('GET', path, undefined, { 'if-none-match': '*' })).status).toBe(200);
    expect((await s.call('PATCH', path, { title: 'b' }, { 'if-match': '"stale"' })).status).toBe(200);
  });
});
