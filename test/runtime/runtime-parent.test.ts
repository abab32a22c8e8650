// Resources under a parent (`parent`, docs/format.md "Resources under a parent"): comments under the article they
// belong to (/articles/{slug}/comments), which no field of a comment shows, addressed by the article's unique slug;
// notes under a board named by its identifier. The storage keeps the parent's identifier in a hidden column, a real
// reference: a create under a missing parent, a list under one, and an object asked for under another parent are
// missing_resource (404); a parent with children is not deleted (in_use), as for a ref. Served on the test database
// (SQLite, or PostgreSQL with SERVICESPEC_TEST_DB=postgres), fast paths on and off.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCreateLocation, getOperationRoute } from '../../src/model/model-routes.js';
import { compileSpecText } from '../../src/program.js';
import { diffStoragePlans, getStoragePlan } from '../../src/runtime/storage/storage-plan.js';
import { loadModel, startService, type Running } from './helpers.js';

const SPEC = new URL('../fixtures/parent-resource.yaml', import.meta.url).pathname;
const NONE = '0190a0b0-0000-7000-8000-0000000000ff';
// The same with idempotency keys: a keyed create takes its own paths.
const KEYED = compileSpecText(
  readFileSync(SPEC, 'utf8').replace('endpoints:\n  operations:', 'endpoints:\n  idempotency: { header: Idempotency-Key, retention: 1h }\n  operations:'),
).checked!;

// With self addresses (`generated: address`), a create naming the article's slug under another parameter name than
// the read's, one naming the article by its identifier, and a flat list of notes.
const ADDRESSED_TEXT = readFileSync(SPEC, 'utf8')
  .replace(
    '      body: { type: string, minLength: 1 }\n',
    '      body: { type: string, minLength: 1 }\n      url: { type: string, readOnly: true, generated: address }\n',
  )
  .replace('      text: { type: string }\n', '      text: { type: string }\n      url: { type: string, readOnly: true, generated: address }\n')
  .replace(
    "createComment: { method: POST, path: '/articles/{slug}/comments', action: create, resource: Comment, bind: { slug: Article.slug } }",
    "createComment: { method: POST, path: '/articles/{article}/comments', action: create, resource: Comment, bind: { article: Article.slug } }\n" +
      "    createCommentById: { method: POST, path: '/articles-by-id/{articleId}/comments', action: create, resource: Comment, bind: { articleId: Article.id } }\n" +
      '    listAllNotes: { method: GET, path: /notes, action: list, resource: Note }',
  );

it("the storage keeps the parent's identifier in a hidden column referring to the parent; migrate refuses to add it over stored objects", () => {
  const after = getStoragePlan(loadModel(SPEC));
  const comment = after.tables.find((t) => t.name === 'Comment')!;
  expect(comment.columns.find((c) => c.name === '$parent')).toMatchObject({ type: 'integer', notNull: true, references: { table: 'Article', column: 'id' } });
  expect(after.tables.find((t) => t.name === 'Note')!.columns.find((c) => c.name === '$parent')).toMatchObject({
    type: 'text',
    references: { table: 'Board', column: 'id' },
  });
  expect(after.tables.find((t) => t.name === 'Article')!.columns.some((c) => c.name === '$parent')).toBe(false);
  const older = { tables: after.tables.map((t) => ({ ...t, columns: t.columns.filter((c) => c.name !== '$parent') })) };
  expect(diffStoragePlans(older, after).refusals.map((r) => r.reason)).toEqual([
    'Comment newly has a parent; its stored objects name none',
    'Note newly has a parent; its stored objects name none',
  ]);
  // Removing `parent` is refused too, and said so: `$parent` is no field.
  expect(diffStoragePlans(after, older).refusals.map((r) => r.reason)).toEqual([
    'Comment no longer has a parent; its stored objects name one',
    'Note no longer has a parent; its stored objects name one',
  ]);
});

// Another parent: the stored objects name the old parent's objects, which a rebuild cannot tell from the new one's of
// the same identifier (comments moved onto unrelated boards): refused, where it had been a rebuild.
it("migrate refuses a changed parent, whose stored objects name the old parent's objects", () => {
  const after = getStoragePlan(loadModel(SPEC));
  const older = {
    tables: after.tables.map((t) =>
      t.name !== 'Comment' ? t : { ...t, columns: t.columns.map((c) => (c.name === '$parent' ? { ...c, references: { table: 'Board', column: 'id' } } : c)) },
    ),
  };
  expect(diffStoragePlans(older, after).refusals.map((r) => r.reason)).toEqual([
    "Comment's parent changed from Board to Article; its stored objects name their Board",
  ]);
});

for (const fastPaths of [true, false]) {
  describe(`resources under a parent (runtime, fast paths ${fastPaths ? 'on' : 'off'})`, () => {
    let s: Running;
    beforeAll(async () => {
      s = await startService(loadModel(SPEC), { fastPaths });
      expect((await s.call('POST', '/articles', { slug: 'first', title: 'First' })).status).toBe(201);
      expect((await s.call('POST', '/articles', { slug: 'second', title: 'Second' })).status).toBe(201);
    });
    afterAll(async () => s?.close());

    it('a create under an article stores it there: the answer shows no parent, the Location fills the slug', async () => {
      const r = await s.call('POST', '/articles/first/comments', { body: 'hello' });
      expect(r.status).toBe(201);
      expect(r.body).toEqual({ id: r.body.id, body: 'hello' });
      expect(r.headers.get('location')).toBe(`/articles/first/comments/${r.body.id}`);
      const read = await s.call('GET', `/articles/first/comments/${r.body.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ id: r.body.id, body: 'hello' });
      // The stored row keeps the article's identifier, not its slug.
      const article = (await s.call('GET', '/articles/first')).body;
      const row = await s.storage.read((tx) => tx.get('Comment', r.body.id));
      expect(row?.['$parent']).toBe(article.id);
    });

    it('a create under an article that does not exist is missing_resource, and stores nothing', async () => {
      const before = (await s.call('GET', '/comments')).body.items.length;
      for (const slug of ['nothing-here', 'NOT A SLUG']) {
        const r = await s.call('POST', `/articles/${encodeURIComponent(slug)}/comments`, { body: 'x' });
        expect(r.status, slug).toBe(404);
        expect(r.body.code).toBe('not_found');
      }
      expect((await s.call('GET', '/comments')).body.items.length).toBe(before);
      // The body may not name a parent: it is no field.
      expect((await s.call('POST', '/articles/first/comments', { body: 'x', $parent: 2 })).status).toBe(400);
    });

    it("a list answers only the article's comments; under a missing article it is missing_resource", async () => {
      await s.call('POST', '/articles/second/comments', { body: 'on second' });
      const first = await s.call('GET', '/articles/first/comments');
      expect(first.status).toBe(200);
      expect(first.body.items.map((c: { body: string }) => c.body)).not.toContain('on second');
      const second = await s.call('GET', '/articles/second/comments');
      expect(second.body.items.map((c: { body: string }) => c.body)).toEqual(['on second']);
      expect(Object.keys(second.body.items[0]).sort()).toEqual(['body', 'id']);
      const missing = await s.call('GET', '/articles/nothing-here/comments');
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe('not_found');
      const empty = await s.call('POST', '/articles', { slug: 'empty', title: 'Empty' });
      expect(empty.status).toBe(201);
      const none = await s.call('GET', '/articles/empty/comments');
      expect(none.status).toBe(200);
      expect(none.body.items).toEqual([]);
    });

    it('read, update, replace and delete find a comment only under its own article', async () => {
      const c = (await s.call('POST', '/articles/first/comments', { body: 'mine' })).body;
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { body: 'moved' }],
        ['PUT', { body: 'moved' }],
        ['DELETE', undefined],
      ] as const) {
        for (const slug of ['second', 'nothing-here']) {
          const r = await s.call(method, `/articles/${slug}/comments/${c.id}`, body);
          expect(r.status, `${method} under ${slug}`).toBe(404);
          expect(r.body.code).toBe('not_found');
        }
      }
      expect((await s.call('GET', `/articles/first/comments/${c.id}`)).body.body).toBe('mine');
      // Said in the spec's terms, not the storage's hidden column ("no Comment with those parent, id").
      for (const method of ['GET', 'DELETE'] as const)
        expect((await s.call(method, `/articles/second/comments/${c.id}`)).body.detail, method).toBe('no Comment with that id under that Article');
      const patched = await s.call('PATCH', `/articles/first/comments/${c.id}`, { body: 'edited' });
      expect(patched.status).toBe(200);
      expect(patched.body).toEqual({ id: c.id, body: 'edited' });
      const replaced = await s.call('PUT', `/articles/first/comments/${c.id}`, { body: 'replaced' });
      expect(replaced.status).toBe(200);
      expect(replaced.body).toEqual({ id: c.id, body: 'replaced' });
      // Still under its article after both.
      expect((await s.call('GET', `/articles/first/comments/${c.id}`)).body.body).toBe('replaced');
      expect((await s.call('DELETE', `/articles/first/comments/${c.id}`)).status).toBe(204);
      expect((await s.call('GET', `/articles/first/comments/${c.id}`)).status).toBe(404);
    });

    it('an article with comments is not deleted (in_use, as for a ref); without them it is', async () => {
      const a = await s.call('POST', '/articles', { slug: 'busy', title: 'Busy' });
      const c = (await s.call('POST', '/articles/busy/comments', { body: 'c' })).body;
      const refused = await s.call('DELETE', '/articles/busy');
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('conflict');
      expect((await s.call('DELETE', `/articles/busy/comments/${c.id}`)).status).toBe(204);
      expect((await s.call('DELETE', '/articles/busy')).status).toBe(204);
      expect((await s.call('POST', '/articles/busy/comments', { body: 'c' })).status).toBe(404);
      expect(a.status).toBe(201);
    });

    it('a parent named by its identifier: notes under a board', async () => {
      const board = (await s.call('POST', '/boards', { name: 'b' })).body.id as string;
      const other = (await s.call('POST', '/boards', { name: 'o' })).body.id as string;
      const n = await s.call('POST', `/boards/${board}/notes`, { text: 't' });
      expect(n.status).toBe(201);
      expect(n.body).toEqual({ id: n.body.id, text: 't' });
      expect(n.headers.get('location')).toBe(`/boards/${board}/notes/${n.body.id}`);
      expect((await s.call('GET', `/boards/${board}/notes/${n.body.id}`)).status).toBe(200);
      expect((await s.call('GET', `/boards/${other}/notes/${n.body.id}`)).status).toBe(404);
      expect((await s.call('GET', `/boards/${other}/notes`)).body.items).toEqual([]);
      for (const id of [NONE, 'not-a-uuid']) {
        expect((await s.call('POST', `/boards/${id}/notes`, { text: 't' })).status, id).toBe(404);
        expect((await s.call('GET', `/boards/${id}/notes`)).status, id).toBe(404);
      }
    });

    it('a keyed create (Idempotency-Key) under a missing article is missing_resource; under one that exists, created', async () => {
      const k = await startService(KEYED, { fastPaths });
      try {
        expect((await k.call('POST', '/articles', { slug: 'a', title: 'A' }, { 'idempotency-key': 'a1' })).status).toBe(201);
        const missing = await k.call('POST', '/articles/none/comments', { body: 'x' }, { 'idempotency-key': 'c1' });
        expect(missing.status).toBe(404);
        const ok = await k.call('POST', '/articles/a/comments', { body: 'x' }, { 'idempotency-key': 'c2' });
        expect(ok.status).toBe(201);
        expect(ok.headers.get('location')).toBe(`/articles/a/comments/${ok.body.id}`);
        expect((await k.call('GET', '/articles/a/comments')).body.items).toEqual([ok.body]);
        // Replayed after the comment and its article are deleted: the key names a request already done, so its first
        // answer comes again (Stripe's keys, the IETF Idempotency-Key draft), not a 404 for the parent gone since,
        // and nothing is made under a parent that is not there.
        expect((await k.call('DELETE', `/articles/a/comments/${ok.body.id}`)).status).toBe(204);
        expect((await k.call('DELETE', '/articles/a')).status).toBe(204);
        const replay = await k.call('POST', '/articles/a/comments', { body: 'x' }, { 'idempotency-key': 'c2' });
        expect(replay.status).toBe(201);
        expect(replay.body).toEqual(ok.body);
        expect(replay.headers.get('idempotent-replayed')).toBe('true');
        expect((await k.call('GET', '/comments')).body.items).toEqual([]);
        // A new key under the deleted article is a new request: missing.
        expect((await k.call('POST', '/articles/a/comments', { body: 'x' }, { 'idempotency-key': 'c3' })).status).toBe(404);
      } finally {
        await k.close();
      }
    });
  });
}

for (const fastPaths of [true, false]) {
  describe(`addresses of resources under a parent (runtime, fast paths ${fastPaths ? 'on' : 'off'})`, () => {
    let s: Running;
    beforeAll(async () => {
      s = await startService(compileSpecText(ADDRESSED_TEXT).checked!, { fastPaths });
      expect((await s.call('POST', '/articles', { slug: 'first', title: 'First' })).status).toBe(201);
    });
    afterAll(async () => s?.close());

    it("a create naming the article's slug under another parameter name fills the read's by binding: Location and address", async () => {
      const r = await s.call('POST', '/articles/first/comments', { body: 'hello' });
      expect(r.status).toBe(201);
      expect(r.headers.get('location')).toBe(`/articles/first/comments/${r.body.id}`);
      expect(r.body.url).toBe(`/articles/first/comments/${r.body.id}`);
      const read = await s.call('GET', `/articles/first/comments/${r.body.id}`);
      expect(read.body.url).toBe(`/articles/first/comments/${r.body.id}`);
      const listed = await s.call('GET', '/articles/first/comments');
      expect(listed.body.items.map((c: { url: string }) => c.url)).toContain(`/articles/first/comments/${r.body.id}`);
    });

    it('where nothing the request gives holds the slug (a flat list, a create by the identifier): no address and no Location, never an empty segment', async () => {
      const article = (await s.call('GET', '/articles/first')).body;
      const byId = await s.call('POST', `/articles-by-id/${article.id}/comments`, { body: 'by id' });
      expect(byId.status).toBe(201);
      expect(byId.headers.get('location')).toBeNull();
      expect(byId.body).toEqual({ id: byId.body.id, body: 'by id' });
      const all = await s.call('GET', '/comments');
      expect(all.status).toBe(200);
      expect(all.body.items.length).toBeGreaterThan(0);
      expect(JSON.stringify(all.body)).not.toContain('//');
      for (const c of all.body.items) expect(c).not.toHaveProperty('url');
    });

    it("a read binding the parent's identifier takes it from the stored object: addresses listed flat name the board", async () => {
      const board = (await s.call('POST', '/boards', { name: 'b' })).body.id as string;
      const n = await s.call('POST', `/boards/${board}/notes`, { text: 't' });
      expect(n.headers.get('location')).toBe(`/boards/${board}/notes/${n.body.id}`);
      expect(n.body.url).toBe(`/boards/${board}/notes/${n.body.id}`);
      const all = await s.call('GET', '/notes');
      expect(all.body.items).toContainEqual({ id: n.body.id, text: 't', url: `/boards/${board}/notes/${n.body.id}` });
    });
  });
}

it('check warns where an answer cannot carry the address of a resource under a parent (parent-address-unfilled)', () => {
  const warnings = compileSpecText(ADDRESSED_TEXT).diagnostics.filter((d) => d.code === 'parent-address-unfilled');
  expect(warnings.map((d) => [d.severity, d.pointer, d.message])).toEqual([
    [
      'warning',
      '/endpoints/operations/createCommentById',
      'operation `createCommentById` answers a Comment, whose address (the path of read `getComment`) names its Article by `Article.slug`, which its path does not give: it answers no Location and no `url`. Bind the same `Article.slug`, or the read to `Article.id`',
    ],
    [
      'warning',
      '/endpoints/operations/listAllComments',
      'operation `listAllComments` answers a Comment, whose address (the path of read `getComment`) names its Article by `Article.slug`, which its path does not give: it answers no `url`. Bind the same `Article.slug`, or the read to `Article.id`',
    ],
  ]);
  // The export and the tester are told the same (getCreateLocation): no Location where the create's path lacks the slug.
  const model = compileSpecText(ADDRESSED_TEXT).checked!;
  expect(getCreateLocation(model, getOperationRoute(model, 'createCommentById')!)).toBeUndefined();
  expect(getCreateLocation(model, getOperationRoute(model, 'createComment')!)).toBe('/articles/{slug}/comments/{id}');
  // The fixture has no address and every create names the slug: nothing to say.
  expect(compileSpecText(readFileSync(SPEC, 'utf8')).diagnostics.filter((d) => d.code === 'parent-address-unfilled')).toEqual([]);
});
