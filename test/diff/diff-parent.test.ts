// `parent` in diff (docs/format.md, "Resources under a parent"): a parent added, removed or changed is breaking
// (resource-parent-changed); a parameter naming another field of the parent is a changed binding.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compareModels } from '../../src/diff/diff-rules.js';
import { compileSpecText } from '../../src/program.js';

const BASE = readFileSync(new URL('../fixtures/parent-resource.yaml', import.meta.url), 'utf8');

const model = (text: string) => {
  const c = compileSpecText(text);
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return c.model!;
};
const changes = (before: string, after: string) =>
  compareModels(model(before), model(after)).map((c) => `${c.impact} ${c.code} ${c.reason} @${c.new?.pointer ?? c.old?.pointer ?? ''}`);

// Notes no longer under a board: their operations go, the resource stays.
const LOOSE = BASE.replace('    parent: Board\n', '').replace(/ {4}(listNotes|createNote|getNote): .*\n/g, '');
const UNDER = LOOSE.replace('  Note:\n', '  Note:\n    parent: Board\n');

describe('diff of resources under a parent', () => {
  it('finds nothing between a spec and itself', () => {
    expect(changes(BASE, BASE)).toEqual([]);
  });

  it('a parent added or removed is breaking', () => {
    expect(changes(LOOSE, UNDER)).toEqual([
      'breaking resource-parent-changed Note now belongs to Board (was no parent): a path under a parent names other objects, and objects stored before name none @/resources/Note/parent',
    ]);
    expect(changes(UNDER, LOOSE).map((c) => c.split(' ').slice(0, 2).join(' '))).toEqual(['breaking resource-parent-changed']);
  });

  it('a parameter naming another field of the parent is a changed binding', () => {
    const byId = BASE.replace(
      "listComments: { method: GET, path: '/articles/{slug}/comments', action: list, resource: Comment, bind: { slug: Article.slug } }",
      "listComments: { method: GET, path: '/articles/{slug}/comments', action: list, resource: Comment, bind: { slug: Article.id } }",
    );
    expect(changes(BASE, byId).map((c) => c.split(' ').slice(0, 2).join(' '))).toEqual(['breaking path-binding-changed']);
  });
});
