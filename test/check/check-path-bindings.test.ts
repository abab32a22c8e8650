// `bind` (docs/format.md, "Path parameters bound to fields"): each binding the runtime could not serve is refused by
// check with its code, at the binding's pointer.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';

const BASE = readFileSync(new URL('../fixtures/path-bindings.yaml', import.meta.url), 'utf8');

/** The fixture with one operation added (YAML flow mapping text). */
function withOperation(id: string, operation: string): string {
  return BASE.replace('  operations:\n', `  operations:\n    ${id}: ${operation}\n`);
}

function found(text: string): { code: string; pointer: string | undefined; message: string }[] {
  return compileSpecText(text)
    .diagnostics.filter((d) => d.severity === 'error' || d.code === 'misplaced-option')
    .map((d) => ({ code: d.code, pointer: d.pointer, message: d.message }));
}

describe('path bindings (check)', () => {
  it('accepts the fixture: a unique key, a scope with the identifier, a scoped create and list', () => {
    expect(found(BASE)).toEqual([]);
  });

  it('path-binding-unknown-param: a key that is no parameter of the path', () => {
    const out = found(
      withOperation('x', "{ method: GET, path: '/x/{username}', action: read, resource: User, bind: { username: username, usename: username } }"),
    );
    expect(out).toEqual([
      {
        code: 'path-binding-unknown-param',
        pointer: '/endpoints/operations/x/bind/usename',
        message: 'operation `x`: `bind` names {usename}, which is not a parameter of its path; did you mean `username`?',
      },
    ]);
  });

  it('path-binding-field-invalid: no such field, nested, a type no segment carries, bound twice, not writable by a create', () => {
    const cases: [string, string][] = [
      [
        "{ method: GET, path: '/x/{u}', action: read, resource: User, bind: { u: usernam } }",
        'names field `usernam`, which User does not have; did you mean `username`?',
      ],
      [
        "{ method: GET, path: '/x/{u}', action: read, resource: User, bind: { u: meta.name } }",
        'names the nested field `meta.name`, which User does not have (each segment a field of an object field)',
      ],
      ["{ method: GET, path: '/x/{s}', action: list, resource: Repo, bind: { s: stars } }", ''],
      [
        "{ method: GET, path: '/x/{a}/{b}', action: read, resource: User, bind: { a: username, b: username } }",
        'names field `username`, which {a} names already',
      ],
      [
        "{ method: POST, path: '/x/{i}', action: create, resource: Repo, bind: { i: id } }",
        'names field `id`, which a create cannot write (the server sets it)',
      ],
    ];
    for (const [op, detail] of cases) {
      const out = found(withOperation('x', op));
      if (detail === '') {
        // stars is an integer: bindable, so this one is accepted.
        expect(out, op).toEqual([]);
        continue;
      }
      expect(
        out.map((d) => d.code),
        op,
      ).toEqual(['path-binding-field-invalid']);
      expect(out[0]!.pointer).toMatch(/^\/endpoints\/operations\/x\/bind\//);
      expect(out[0]!.message).toContain(detail);
    }
  });

  it('path-binding-field-invalid: a type a path segment cannot carry', () => {
    const text = withOperation('x', "{ method: GET, path: '/x/{t}', action: list, resource: Thing, bind: { t: tags } }").replace(
      'resources:\n',
      'resources:\n  Thing:\n    fields:\n      id: { type: uuid, readOnly: true }\n      tags: { type: array, items: { type: string } }\n',
    );
    const out = found(text);
    expect(out.map((d) => d.code)).toEqual(['path-binding-field-invalid']);
    expect(out[0]!.message).toContain('names field `tags` of type array, which a path segment cannot carry');
  });

  it('path-binding-not-unique: an addressing action binding only fields several objects share', () => {
    const out = found(withOperation('x', "{ method: GET, path: '/x/{u}/{s}', action: read, resource: Repo, bind: { u: owner, s: slug } }"));
    expect(out).toEqual([
      {
        code: 'path-binding-not-unique',
        pointer: '/endpoints/operations/x/bind',
        message: 'operation `x` (read) binds owner, slug, which can name several objects: it must bind the identifier or a unique field (here: id)',
      },
    ]);
  });

  it('unbound-path-parameter: a path parameter bind leaves out', () => {
    const out = found(withOperation('x', "{ method: GET, path: '/x/{u}/{id}', action: read, resource: Repo, bind: { id: id } }"));
    expect(out).toEqual([
      {
        code: 'unbound-path-parameter',
        pointer: '/endpoints/operations/x/path',
        message: 'operation `x`: path parameter {u} names no field: `bind` must bind every path parameter',
      },
    ]);
  });

  it('misplaced-option: bind on a custom operation', () => {
    const out = found(
      withOperation('x', "{ method: GET, path: '/x/{u}', action: custom, handler: x, response: { fields: { u: { type: string } } }, bind: { u: username } }"),
    );
    expect(out.map((d) => [d.code, d.pointer])).toEqual([['misplaced-option', '/endpoints/operations/x/bind']]);
  });

  it('a dotted value outside the schema pattern is a structural error', () => {
    const out = compileSpecText(withOperation('x', "{ method: GET, path: '/x/{u}', action: read, resource: User, bind: { u: 'a..b' } }")).diagnostics;
    expect(out.some((d) => d.severity === 'error' && d.pointer === '/endpoints/operations/x/bind/u')).toBe(true);
  });

  it('nested fields and keys unique together: accepted where they name one object, refused where they cannot', () => {
    const nested = readFileSync(new URL('../fixtures/nested-bindings.yaml', import.meta.url), 'utf8');
    expect(found(nested)).toEqual([]);
    // Without the key, namespace and name name no one Lease.
    const noKey = found(nested.replace('    unique_keys:\n      - [metadata.namespace, metadata.name]\n', ''));
    expect(noKey.map((d) => [d.code, d.pointer])).toEqual(
      ['readLease', 'replaceLease', 'deleteLease'].map((o) => ['path-binding-not-unique', `/endpoints/operations/${o}/bind`]),
    );
    // Through a field that is no object, or to an object: no path segment carries it.
    const through = found(nested.replace('bind: { namespace: metadata.namespace } }', 'bind: { namespace: kind.namespace } }'));
    expect(through.map((d) => [d.code, d.pointer, d.message])).toEqual([
      [
        'path-binding-field-invalid',
        '/endpoints/operations/listLeases/bind/namespace',
        expect.stringContaining('names the nested field `kind.namespace`, which Lease does not have'),
      ],
    ]);
  });

  it('unique-key-invalid: a key field that does not exist, or that a key cannot hold', () => {
    const nested = readFileSync(new URL('../fixtures/nested-bindings.yaml', import.meta.url), 'utf8');
    const out = found(nested.replace('[metadata.namespace, metadata.name]', '[metadata.namespace, metadata.nam, spec]'));
    expect(out.filter((d) => d.code === 'unique-key-invalid')).toEqual([
      {
        code: 'unique-key-invalid',
        pointer: '/resources/Lease/unique_keys/0',
        message: 'resource Lease: unique key field `metadata.nam` names no field of Lease (a nested field through object fields, one dotted segment each)',
      },
      {
        code: 'unique-key-invalid',
        pointer: '/resources/Lease/unique_keys/0',
        message: expect.stringContaining('resource Lease: unique key field `spec` has type object'),
      },
    ]);
  });
});
