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

  it('parent-invalid: an upsert of the child; a parent with a parent of its own is a chain, no longer refused', () => {
    const chain = found(BASE.replace('  Board:\n    fields:', '  Board:\n    parent: Article\n    fields:'));
    expect(chain.filter((d) => d.code === 'parent-invalid')).toEqual([]);
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
      message: 'operation `listNotes`: path parameter {boardId} names a field of Board, which is not above resource `Note`: it has no parent',
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

const CHAIN = readFileSync(new URL('../fixtures/parent-chain.yaml', import.meta.url), 'utf8');

function diagnostics(text: string): { severity: string; code: string; pointer: string | undefined; message: string }[] {
  return compileSpecText(text).diagnostics.map((d) => ({ severity: d.severity, code: d.code, pointer: d.pointer, message: d.message }));
}

describe('resources under a chain of parents (check)', () => {
  it('accepts visits under a pet under an owner, naming both or the pet alone', () => {
    expect(diagnostics(CHAIN)).toEqual([]);
  });

  it('parent-binding-gap: a path naming the owner but not the pet between', () => {
    const out = found(
      CHAIN.replace(
        '    listPetVisits:',
        "    ownerVisits: { method: GET, path: '/owners/{ownerId}/visits', action: list, resource: Visit, bind: { ownerId: Owner.id } }\n    listPetVisits:",
      ),
    );
    expect(out).toEqual([
      {
        code: 'parent-binding-gap',
        pointer: '/endpoints/operations/ownerVisits/bind/ownerId',
        message:
          'operation `ownerVisits`: path parameter {ownerId} names Owner, above the Pet of resource `Visit`, but no parameter names the Pet: a Visit is found only under its own Pet',
      },
    ]);
    // A create naming only the owner: the gap, not parent-binding-missing besides.
    const create = found(
      CHAIN.replace(
        '    listPetVisits:',
        "    ownerVisit: { method: POST, path: '/owners/{ownerId}/visits', action: create, resource: Visit, bind: { ownerId: Owner.id } }\n    listPetVisits:",
      ),
    );
    expect(create.map((d) => d.code)).toEqual(['parent-binding-gap']);
  });

  it('parent-binding-without-parent under a chain says what is above the resource', () => {
    const out = found(
      CHAIN.replace('resources:\n', 'resources:\n  Vet:\n    fields:\n      id: { type: integer, readOnly: true }\n').replace(
        '    listPetVisits:',
        "    vetVisits: { method: GET, path: '/vets/{vetId}/visits', action: list, resource: Visit, bind: { vetId: Vet.id } }\n    listPetVisits:",
      ),
    ).filter((d) => d.code === 'parent-binding-without-parent');
    expect(out.map((d) => d.message)).toEqual([
      'operation `vetVisits`: path parameter {vetId} names a field of Vet, which is not above resource `Visit`: its parents are Pet, then Owner',
    ]);
  });

  it('a gap in a longer chain names the level left out', () => {
    const text = CHAIN.replace(
      '  Owner:\n    fields:',
      '  Clinic:\n    fields:\n      id: { type: integer, readOnly: true }\n  Owner:\n    parent: Clinic\n    fields:',
    )
      .replace(
        '    createOwner: { method: POST, path: /owners, action: create, resource: Owner }',
        "    createOwner: { method: POST, path: '/clinics/{c}/owners', action: create, resource: Owner, bind: { c: Clinic.id } }",
      )
      .replace(
        '    listPetVisits:',
        "    clinicVisits: { method: GET, path: '/clinics/{c}/pets/{p}/visits', action: list, resource: Visit, bind: { c: Clinic.id, p: Pet.id } }\n    listPetVisits:",
      );
    expect(found(text).map((d) => [d.code, d.pointer, d.message])).toEqual([
      [
        'parent-binding-gap',
        '/endpoints/operations/clinicVisits/bind/c',
        'operation `clinicVisits`: path parameter {c} names Clinic, above the Owner of resource `Visit`, but no parameter names the Owner: a Pet is found only under its own Owner',
      ],
    ]);
  });

  it('parent-binding-twice: two parameters naming the owner', () => {
    const out = found(
      CHAIN.replace(
        'bind: { ownerId: Owner.id, petId: Pet.id } }\n    createVisit',
        'bind: { ownerId: Owner.id, petId: Pet.id, o2: Owner.id } }\n    createVisit',
      ).replace("path: '/owners/{ownerId}/pets/{petId}/visits', action: list", "path: '/owners/{ownerId}/pets/{petId}/x/{o2}', action: list"),
    );
    expect(out.map((d) => [d.code, d.pointer])).toEqual([['parent-binding-twice', '/endpoints/operations/listVisits/bind/o2']]);
  });

  it('parent-binding-without-parent: an owner above a pet that has no parent', () => {
    const out = found(CHAIN.replace('  Pet:\n    parent: Owner\n', '  Pet:\n'));
    expect(out.find((d) => d.pointer === '/endpoints/operations/listVisits/bind/ownerId')).toEqual({
      code: 'parent-binding-without-parent',
      pointer: '/endpoints/operations/listVisits/bind/ownerId',
      message: 'operation `listVisits`: path parameter {ownerId} names a field of Owner, which is not above resource `Visit`: its parent is Pet',
    });
  });

  it('path-binding-field-invalid and parent-binding-not-unique reach a parent further up', () => {
    const field = found(
      CHAIN.replace('bind: { ownerId: Owner.id, petId: Pet.id } }\n    createVisit', 'bind: { ownerId: Owner.ident, petId: Pet.id } }\n    createVisit'),
    );
    expect(field.map((d) => [d.code, d.pointer])).toEqual([['path-binding-field-invalid', '/endpoints/operations/listVisits/bind/ownerId']]);
    const unique = found(
      CHAIN.replace('bind: { ownerId: Owner.id, petId: Pet.id } }\n    createVisit', 'bind: { ownerId: Owner.name, petId: Pet.id } }\n    createVisit'),
    );
    expect(unique.map((d) => [d.code, d.pointer])).toEqual([['parent-binding-not-unique', '/endpoints/operations/listVisits/bind/ownerId']]);
  });

  it('parent-cycle still: three resources going round', () => {
    const out = found(CHAIN.replace('  Owner:\n    fields:', '  Owner:\n    parent: Visit\n    fields:'));
    expect(out.filter((d) => d.code === 'parent-cycle').map((d) => d.message)).toContain(
      'resource `Visit`: its parents go round (Visit → Pet → Owner → Visit)',
    );
  });

  it('parent-address-unfilled: an answer whose path does not give the owner, which no visit keeps', () => {
    const text = CHAIN.replace(
      '      description: { type: string }\n',
      '      description: { type: string }\n      url: { type: string, readOnly: true, generated: address }\n',
    );
    expect(diagnostics(text).map((d) => [d.severity, d.code, d.pointer, d.message])).toEqual([
      [
        'warning',
        'parent-address-unfilled',
        '/endpoints/operations/listPetVisits',
        'operation `listPetVisits` answers a Visit, whose address (the path of read `getVisit`) names its Owner by `Owner.id`, which its path does not give: it answers no `url`. Bind the same `Owner.id` (a Visit keeps only its own Pet, not its Owner)',
      ],
    ]);
  });
});
