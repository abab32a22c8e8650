// The language server reads a `bind` value as a field of the operation's resource: go to definition, references and
// rename reach it as they reach a filter's field.
import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { expect, it } from 'vitest';
import { getNameKindAt, getNameSites } from '../../src/lsp/lsp-names.js';
import { createYamlOutline } from '../../src/lsp/lsp-yaml.js';

it('a bind value is a field of the operation’s resource', () => {
  const data = load(readFileSync(new URL('../fixtures/path-bindings.yaml', import.meta.url), 'utf8'));
  expect(getNameKindAt('/endpoints/operations/getRepo/bind/username', data)).toEqual({ kind: 'field', owner: 'Repo' });
  expect(getNameKindAt('/endpoints/operations/getUser/bind/username', data)).toEqual({ kind: 'field', owner: 'User' });
});

it('a request_fields entry is a field of the operation’s resource', () => {
  const data = load(
    [
      'servicespec: 1',
      'resources: { User: { fields: { id: { type: uuid, readOnly: true }, name: { type: string } } } }',
      'endpoints: { operations: { addUser: { method: POST, path: /users, action: create, resource: User, request_fields: [name] } } }',
    ].join('\n'),
  );
  expect(getNameKindAt('/endpoints/operations/addUser/request_fields/0', data)).toEqual({ kind: 'field', owner: 'User' });
});

it('a required_filters entry is a field of the operation’s resource', () => {
  const data = load(
    [
      'servicespec: 1',
      'resources: { Label: { fields: { id: { type: uuid, readOnly: true }, project_id: { type: uuid } } } }',
      'endpoints: { operations: { listLabels: { method: GET, path: /labels, action: list, resource: Label, filter: [project_id], required_filters: [project_id] } } }',
    ].join('\n'),
  );
  expect(getNameKindAt('/endpoints/operations/listLabels/required_filters/0', data)).toEqual({ kind: 'field', owner: 'Label' });
});

it('a resource’s parent names a resource', () => {
  const data = load(readFileSync(new URL('../fixtures/parent-resource.yaml', import.meta.url), 'utf8'));
  expect(getNameKindAt('/resources/Comment/parent', data)).toEqual({ kind: 'resource' });
});

it('a bind value naming a parent further up a chain (`Owner.id` of a Visit under a Pet) is that resource and its field', () => {
  const outline = createYamlOutline(readFileSync(new URL('../fixtures/parent-chain.yaml', import.meta.url), 'utf8'));
  const at = getNameSites(outline).filter((s) => s.pointer === '/endpoints/operations/listVisits/bind/ownerId');
  expect(at.map((s) => [s.kind, s.name, s.owner])).toEqual([
    ['resource', 'Owner', undefined],
    ['field', 'id', 'Owner'],
  ]);
});
