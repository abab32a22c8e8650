// A list's paging (docs/format.md, "List shapes"): settings that contradict each other, paging outside a list, and
// the parameters each style reads meeting a filter's name.
import { describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { getRoutes } from '../../src/model/model-routes.js';
import { CATCH_ALL_ERRORS } from './helpers.js';

function spec(paging: string, extra = ''): string {
  return `servicespec: 1
resources:
  Pet:
    fields:
      id: { type: integer, readOnly: true }
      name: { type: string }
      page: { type: string }
      offset: { type: string }
endpoints:
  operations:
    listPets: { method: GET, path: /pets, action: list, resource: Pet${paging === '' ? '' : `, paging: ${paging}`}${extra} }
authentication:
  default: none
${CATCH_ALL_ERRORS}`;
}

function found(text: string): { code: string; pointer: string | undefined; message: string }[] {
  return compileSpecText(text)
    .diagnostics.filter((d) => d.severity === 'error' || d.code === 'misplaced-option')
    .map((d) => ({ code: d.code, pointer: d.pointer, message: d.message }));
}

describe('paging', () => {
  it.each([
    ['{ body: array }', '/endpoints/operations/listPets/paging/body', 'nowhere'],
    ['{ body: array, items: data, link: true }', '/endpoints/operations/listPets/paging/items', 'bare array'],
    ['{ style: offset, body: array, total: total }', '/endpoints/operations/listPets/paging/total', 'bare array'],
    ['{ style: page, next: next }', '/endpoints/operations/listPets/paging/next', 'cursor style'],
    ['{ items: next_cursor }', '/endpoints/operations/listPets/paging/next', 'twice'],
    ['{ style: offset, items: data, total: data }', '/endpoints/operations/listPets/paging/total', 'twice'],
    ['{ style: none, body: array, link: true }', '/endpoints/operations/listPets/paging/link', 'no next page'],
  ])('%s is paging-contradiction', (paging, pointer, words) => {
    const d = found(spec(paging));
    expect(d.map((x) => [x.code, x.pointer])).toEqual([['paging-contradiction', pointer]]);
    expect(d[0]!.message).toContain(words);
  });

  it.each([
    '',
    '{ body: array, link: true }',
    '{ style: offset, total: total }',
    '{ style: page, body: array }',
    '{ style: none, body: array }',
    '{ style: cursor, items: data, next: after, total: count, link: true }',
  ])('%s is accepted', (paging) => {
    expect(found(spec(paging))).toEqual([]);
  });

  it('paging outside a list is misplaced-option', () => {
    const text = spec('').replace(
      'listPets: { method: GET, path: /pets, action: list, resource: Pet',
      'readPet: { method: GET, path: "/pets/{id}", action: read, resource: Pet, paging: { style: offset }',
    );
    expect(found(text).map((x) => [x.code, x.pointer])).toEqual([['misplaced-option', '/endpoints/operations/readPet/paging']]);
  });

  it('a filter clashes with the parameters of its own style only', () => {
    expect(found(spec('{ style: offset }', ', filter: [offset]')).map((x) => x.code)).toEqual(['wire-name-clash']);
    expect(found(spec('{ style: page }', ', filter: [page]')).map((x) => x.code)).toEqual(['wire-name-clash']);
    expect(found(spec('{ style: page }', ', filter: [offset]'))).toEqual([]);
    expect(found(spec('', ', filter: [page, offset]'))).toEqual([]);
  });

  it('each style reads its own parameters', () => {
    const params = (paging: string) => {
      const route = getRoutes(compileSpecText(spec(paging)).model!)[0]!;
      return route.kind === 'operation' ? route.query.map((q) => `${q.name}:${q.kind}`) : [];
    };
    expect(params('')).toEqual(['limit:limit', 'cursor:cursor']);
    expect(params('{ style: offset }')).toEqual(['limit:limit', 'offset:offset']);
    expect(params('{ style: page }')).toEqual(['page:page', 'per_page:limit']);
    expect(params('{ style: none, body: array }')).toEqual([]);
  });
});
