// The language server reads a `bind` value as a field of the operation's resource: go to definition, references and
// rename reach it as they reach a filter's field.
import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { expect, it } from 'vitest';
import { getNameKindAt } from '../../src/lsp/lsp-names.js';

it('a bind value is a field of the operation’s resource', () => {
  const data = load(readFileSync(new URL('../fixtures/path-bindings.yaml', import.meta.url), 'utf8'));
  expect(getNameKindAt('/endpoints/operations/getRepo/bind/username', data)).toEqual({ kind: 'field', owner: 'Repo' });
  expect(getNameKindAt('/endpoints/operations/getUser/bind/username', data)).toEqual({ kind: 'field', owner: 'User' });
});
