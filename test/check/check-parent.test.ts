// `parent` (docs/format.md, "Resources under a parent"): each use the runtime could not serve is refused by check
// with its code, at its pointer.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';

const BASE = readFileSync(new URL('../fixtures/parent-resource.yaml', import.meta.url), 'utf8');

function found(text: string): { code: string; pointer: string | undefined; message: string }[] {
  return compileSpecText(text)
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => ({ code: d.code, pointer: d.pointer, message: d.message }));
}

describe('resources under a parent (check)', () => {
  it('accepts the fixture', () => {
    expect(found(BASE)).toEqual([]);
  });

  it('parent-unknown: a parent that is no resource', () => {
    const out = found(BASE.replace('    parent: Board', '    parent: Bord'));
    expect(out[0]).toEqual({
      code: 'parent-unknown',
      pointer: '/resources/Note/parent',
      message: 'resource `Note` names parent `Bord`, which is no resource; did you mean `Board`?',
    });
  });

  it('parent-cycle: a resource its own parent, or two each other’s', () => {
    const self = found(BASE.replace('    parent: Board', '    parent: Note'));
    expect(self.map((d) => [d.code, d.pointer])).toContainEqual(['parent-cycle', '/resources/Note/parent']);
    expect(self.find((d) => d.code === 'parent-cycle')!.message).toBe('resource `Note`: its parents go round (Note → Note)');
    const two = found(BASE.replace('  Board:\n    fields:', '  Board:\n    parent: Note\n    fields:'));
    expect(two.filter((d) => d.code === 'parent-cycle').map((d) => d.message)).toEqual([
      'resource `Board`: its parents go round (Board → Note → Board)',
      'resource `Note`: its parents go round (Note → Board → Note)',
    ]);
  });

  it('parent-invalid: a parent with a parent of its own, one with no identifier, an upsert of the child', () => {
    const chain = found(BASE.replace('  Board:\n    fields:', '  Board:\n    parent: Article\n    fields:'));
    expect(chain.filter((d) => d.code === 'parent-invalid')).toEqual([
      {
        code: 'parent-invalid',
        pointer: '/resources/Note/parent',
        message: 'resource `Note`: parent `Board` has a parent of its own (Article); one level of parent is served',
      },
    ]);
    const upsert = found(
      BASE.replace(
        '    deleteComment:',
        "    upsertComment: { method: PUT, path: '/x/{slug}/comments/{id}', action: replace, upsert: true, resource: Comment, bind: { slug: Article.slug, id: id } }\n    deleteComment:",
      ),
    );
    expect(upsert.map((d) => d.code)).toContain('parent-invalid');
    expect(upsert.find((d) => d.code === 'parent-invalid')!.message).toBe(
      'resource `Comment`: parent `Article` cannot be set by operation upsertComment, a replace that creates (upsert)',
    );
  });

  it('parent-binding-not-unique: a field of the parent several parents may share', () => {
    const out = found(
      BASE.replace(
        "listComments: { method: GET, path: '/articles/{slug}/comments', action: list, resource: Comment, bind: { slug: Article.slug } }",
        "listComments: { method: GET, path: '/articles/{slug}/comments', action: list, resource: Comment, bind: { slug: Article.title } }",
      ),
    );
    expect(out).toEqual([
      {
        code: 'parent-binding-not-unique',
        pointer: '/endpoints/operations/listComments/bind/slug',
        message:
          'operation `listComments`: path parameter {slug} names Article.title, which is neither the identifier of Article nor unique, so it can name several parents',
      },
    ]);
  });

  it('parent-binding-twice: two parameters naming the parent, the second of which would go unread', () => {
    const out = found(
      BASE.replace(
        "listComments: { method: GET, path: '/articles/{slug}/comments', action: list, resource: Comment, bind: { slug: Article.slug } }",
        "listComments: { method: GET, path: '/articles/{slug}/{aid}/comments', action: list, resource: Comment, bind: { slug: Article.slug, aid: Article.id } }",
      ),
    );
    expect(out).toEqual([
      {
        code: 'parent-binding-twice',
        pointer: '/endpoints/operations/listComments/bind/aid',
        message: 'operation `listComments`: path parameter {aid} names Article again, which {slug} names already: one parameter names the parent',
      },
    ]);
  });

  it('path-binding-field-invalid: a field the parent does not have', () => {
    const out = found(BASE.replace('bind: { boardId: Board.id } }\n    createNote', 'bind: { boardId: Board.ident } }\n    createNote'));
    expect(out.map((d) => [d.code, d.pointer])).toEqual([['path-binding-field-invalid', '/endpoints/operations/listNotes/bind/boardId']]);
    expect(out[0]!.message).toContain('names field `ident` of the parent Board, which Board does not have');
  });

  it('parent-binding-without-parent: a field of a resource the operation’s resource does not name as its parent', () => {
    const out = found(BASE.replace('    parent: Board\n', ''));
    expect(out.map((d) => d.code)).toEqual(['parent-binding-without-parent', 'parent-binding-without-parent', 'parent-binding-without-parent']);
    expect(out[0]).toEqual({
      code: 'parent-binding-without-parent',
      pointer: '/endpoints/operations/listNotes/bind/boardId',
      message: 'operation `listNotes`: path parameter {boardId} names a field of Board, but resource `Note` declares parent none',
    });
  });

  it('parent-binding-missing: a create of a child that names no parent', () => {
    const out = found(
      BASE.replace('    listAllComments:', '    createLoose: { method: POST, path: /comments, action: create, resource: Comment }\n    listAllComments:'),
    );
    expect(out).toEqual([
      {
        code: 'parent-binding-missing',
        pointer: '/endpoints/operations/createLoose',
        message:
          'operation `createLoose` creates a `Comment`, which belongs to a `Article`, but binds no path parameter to a field of it (`Article.<field>` in `bind`)',
      },
    ]);
  });

  it('path-binding-not-unique: an addressing operation binding only the parent', () => {
    const out = found(
      BASE.replace(
        '    listAllComments:',
        "    firstComment: { method: GET, path: '/x/{slug}', action: read, resource: Comment, bind: { slug: Article.slug } }\n    listAllComments:",
      ),
    );
    expect(out.map((d) => [d.code, d.pointer])).toEqual([['path-binding-not-unique', '/endpoints/operations/firstComment/bind']]);
  });
});
