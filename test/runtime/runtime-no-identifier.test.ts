// Resources without an identifier (docs/format.md, "Resources without an identifier"), served over real HTTP on the
// test database (SQLite, or PostgreSQL with SERVICESPEC_TEST_DB=postgres), with the fast paths and without: the
// storage keys their rows (lists page by that key, creates make it) and no answer shows it; an object is addressed
// by a unique field its path binds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecFile } from '../../src/program.js';
import { getStoragePlan, ROW_KEY } from '../../src/runtime/storage/storage-plan.js';
import { startService, loadModel, type Running } from './helpers.js';

const SPEC = new URL('../fixtures/no-identifier.yaml', import.meta.url).pathname;

describe('resources without an identifier: check and storage plan', () => {
  it('check accepts lists, creates and bound addressing on them', async () => {
    const c = await compileSpecFile(SPEC);
    expect(c.diagnostics).toEqual([]);
  });

  it('the storage keys their rows with a column no field can be named', () => {
    const plan = getStoragePlan(loadModel(SPEC));
    const note = plan.tables.find((t) => t.name === 'Note')!;
    expect(note.primaryKey).toBe(ROW_KEY);
    expect(note.columns[0]).toMatchObject({ name: ROW_KEY, type: 'integer', primaryKey: true, autoIncrement: true });
  });
});

for (const fastPaths of [true, false]) {
  describe(`resources without an identifier (fast paths ${fastPaths ? 'on' : 'off'})`, () => {
    let s: Running;
    beforeAll(async () => {
      s = await startService(loadModel(SPEC), { fastPaths });
    });
    afterAll(async () => s?.close());

    it('creates and lists objects page by page; no answer shows the row key', async () => {
      for (const text of ['a', 'b', 'c', 'd', 'e']) {
        const c = await s.call('POST', '/notes', { text });
        expect(c.status).toBe(201);
        expect(c.body).toEqual({ text, pinned: false });
        // No read operation: no Location to give.
        expect(c.headers.get('location')).toBeNull();
      }
      const seen: string[] = [];
      let path = '/notes';
      for (;;) {
        const page = await s.call('GET', path);
        expect(page.status).toBe(200);
        for (const item of page.body.items) expect(Object.keys(item).sort()).toEqual(['pinned', 'text']);
        seen.push(...page.body.items.map((n: { text: string }) => n.text));
        if (!page.body.next_cursor) break;
        path = `/notes?cursor=${encodeURIComponent(page.body.next_cursor)}`;
      }
      expect(seen).toEqual(['a', 'b', 'c', 'd', 'e']);
    });

    it('reads, updates, replaces and deletes an object by its unique bound field', async () => {
      const c = await s.call('POST', '/tags', { name: 'red', color: 'ff0000' });
      expect(c.status).toBe(201);
      expect(c.body).toEqual({ name: 'red', color: 'ff0000' });
      expect(c.headers.get('location')).toBe('/tags/red');
      expect((await s.call('POST', '/tags', { name: 'red' })).status).toBe(409);
      expect((await s.call('POST', '/tags', { name: 'blue' })).status).toBe(201);
      expect((await s.call('GET', '/tags/red')).body).toEqual({ name: 'red', color: 'ff0000' });
      expect((await s.call('GET', '/tags/green')).status).toBe(404);
      expect((await s.call('PATCH', '/tags/red', { color: 'f00' })).body).toEqual({ name: 'red', color: 'f00' });
      expect((await s.call('PUT', '/tags/blue', { name: 'blue', color: '00f' })).body).toEqual({ name: 'blue', color: '00f' });
      expect((await s.call('DELETE', '/tags/red')).status).toBe(204);
      expect((await s.call('GET', '/tags/red')).status).toBe(404);
      expect((await s.call('DELETE', '/tags/red')).status).toBe(404);
      expect((await s.call('GET', '/tags')).body.items).toEqual([{ name: 'blue', color: '00f' }]);
    });
  });
}
