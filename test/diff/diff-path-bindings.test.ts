// `bind` in diff: a path parameter that now names another field addresses other objects with the same URL (breaking);
// stating what the format already said (`bind: { id: id }` on a read), or renaming a parameter, changes nothing.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compareModels } from '../../src/diff/diff-rules.js';
import { compileSpecText } from '../../src/program.js';

const BASE = readFileSync(new URL('../fixtures/path-bindings.yaml', import.meta.url), 'utf8');

const model = (text: string) => {
  const c = compileSpecText(text);
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return c.model!;
};
const changes = (before: string, after: string) =>
  compareModels(model(before), model(after)).map((c) => `${c.impact} ${c.code} ${c.reason} @${c.new?.pointer ?? c.old?.pointer ?? ''}`);

const GET_USER = "getUser: { method: GET, path: '/users/{username}', action: read, resource: User, bind: { username: username } }";

describe('diff of path bindings', () => {
  it('finds nothing between a spec and itself', () => {
    expect(changes(BASE, BASE)).toEqual([]);
  });

  it('a parameter that names another field is breaking', () => {
    const byId = BASE.replace(GET_USER, "getUser: { method: GET, path: '/users/{username}', action: read, resource: User, bind: { username: id } }");
    expect(changes(BASE, byId)).toEqual([
      'breaking path-binding-changed operation getUser: its path parameters now name username → id (was username → username); the same URL addresses other objects @/endpoints/operations/getUser/bind',
    ]);
    // Without bind, a read's one parameter is the identifier: the same as binding it.
    const implicit = BASE.replace(GET_USER, "getUser: { method: GET, path: '/users/{username}', action: read, resource: User }");
    expect(changes(byId, implicit)).toEqual([]);
    expect(changes(implicit, BASE).map((c) => c.split(' ')[1])).toEqual(['path-binding-changed']);
  });

  it('a parameter renamed, naming the same field, is not a binding change', () => {
    const renamed = BASE.replace(GET_USER, "getUser: { method: GET, path: '/users/{login}', action: read, resource: User, bind: { login: username } }");
    expect(changes(BASE, renamed).map((c) => c.split(' ')[1])).toEqual(['path-parameter-renamed']);
  });

  it('a key unique together added is breaking, removed needs review; nested bindings compare as written', () => {
    const nested = readFileSync(new URL('../fixtures/nested-bindings.yaml', import.meta.url), 'utf8');
    expect(changes(nested, nested)).toEqual([]);
    const wider = nested.replace('      - [metadata.namespace, metadata.name]\n', '      - [metadata.namespace, metadata.name]\n      - [spec.holder]\n');
    expect(changes(nested, wider)).toEqual([
      'breaking unique-key-added Lease: spec.holder are now unique together: a create or change repeating them is refused @/resources/Lease',
    ]);
    expect(changes(wider, nested).map((c) => c.split(' ').slice(0, 2).join(' '))).toEqual(['needs-review unique-key-removed']);
  });
});
