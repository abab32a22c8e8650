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
    ['{ style: page, body: array, link: true, total_header: link }', '/endpoints/operations/listPets/paging/total_header', "the format's Link"],
    ['{ style: after, body: array, has_more: more }', '/endpoints/operations/listPets/paging/has_more', 'bare array'],
    ['{ style: after, items: data, has_more: data }', '/endpoints/operations/listPets/paging/has_more', 'twice'],
    ['{ style: after, next: after }', '/endpoints/operations/listPets/paging/next', 'cursor style'],
    ['{ style: page, body: array, total_header: X-Request-Id }', '/endpoints/operations/listPets/paging/total_header', 'request id'],
    ['{ items: products, next: false }', '/endpoints/operations/listPets/paging/next', 'nothing else carries it'],
    ['{ style: offset, next: false, link: true }', '/endpoints/operations/listPets/paging/next', 'cursor style'],
    ['{ body: array, link: true, next_optional: true }', '/endpoints/operations/listPets/paging/next_optional', 'no next cursor field'],
    ['{ style: offset, next_optional: true }', '/endpoints/operations/listPets/paging/next_optional', 'no next cursor field'],
    ['{ next: false, link: true, next_optional: true }', '/endpoints/operations/listPets/paging/next_optional', 'no next cursor field'],
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
    '{ style: page, body: array, link: true, total_header: X-Total-Count }',
    '{ style: offset, total: total, total_header: X-Total }',
    '{ style: limit, body: array, total_header: X-Total-Count }',
    '{ style: after, items: data, has_more: has_more }',
    '{ style: after, body: array, link: true, params: { cursor: after_id } }',
    '{ style: offset, items: data, has_more: more }',
    '{ items: products, next: false, link: true, params: { cursor: page_info } }',
  ])('%s is accepted', (paging) => {
    expect(found(spec(paging))).toEqual([]);
  });

  it.each([
    ['true', 'wrong-type'],
    ['5', 'wrong-type'],
    ["''", 'invalid-value'],
  ])('next: %s (neither a field name nor false) is %s', (next, code) => {
    expect(found(spec(`{ next: ${next}, link: true }`)).map((d) => [d.code, d.pointer])).toEqual([[code, '/endpoints/operations/listPets/paging/next']]);
  });

  it("a response header of the total header's name is response-header-reserved; a name that is no header name, invalid-value", () => {
    const declared = found(
      spec('{ style: page, body: array, total_header: X-Total-Count }', ', response_headers: { x-total-count: { type: integer, optional: true } }'),
    );
    expect(declared.map((x) => [x.code, x.pointer])).toEqual([['response-header-reserved', '/endpoints/operations/listPets/response_headers/x-total-count']]);
    expect(declared[0]!.message).toContain('paging.total_header');
    expect(found(spec("{ style: page, body: array, total_header: 'X Total' }")).map((x) => x.code)).toEqual(['invalid-value']);
  });

  it('style after with sort, or on a resource without an identifier, is paging-contradiction (the cursor is the identifier)', () => {
    const sorted = found(spec('{ style: after, items: data, has_more: has_more }', ', sort: [name]'));
    expect(sorted.map((x) => [x.code, x.pointer])).toEqual([['paging-contradiction', '/endpoints/operations/listPets/paging/style']]);
    expect(sorted[0]!.message).toContain("identifier's order");
    const noId = found(spec('{ style: after, items: data, has_more: has_more }').replace('      id: { type: integer, readOnly: true }\n', ''));
    expect(noId.map((x) => x.code)).toEqual(['paging-contradiction']);
    expect(noId[0]!.message).toContain('has none');
  });

  it('style after reads limit and starting_after by default', () => {
    const model = compileSpecText(spec('{ style: after, items: data, has_more: has_more }')).model!;
    expect(
      getRoutes(model)
        .find((r) => r.kind === 'operation')!
        .query.filter((q) => q.kind !== 'filter')
        .map((q) => q.name),
    ).toEqual(['limit', 'starting_after']);
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

  it('paging.params renames the parameters each style reads', () => {
    const params = (paging: string) => {
      const route = getRoutes(compileSpecText(spec(paging)).model!)[0]!;
      return route.kind === 'operation' ? route.query.map((q) => `${q.name}:${q.kind}`) : [];
    };
    expect(params('{ params: { cursor: continue } }')).toEqual(['limit:limit', 'continue:cursor']);
    expect(params('{ params: { limit: pageSize, cursor: pageToken } }')).toEqual(['pageSize:limit', 'pageToken:cursor']);
    expect(params('{ style: offset, params: { offset: skip, limit: top } }')).toEqual(['top:limit', 'skip:offset']);
    expect(params('{ style: page, params: { limit: page_size, page: page_number } }')).toEqual(['page_number:page', 'page_size:limit']);
    expect(params('{ style: limit, body: array, params: { limit: max } }')).toEqual(['max:limit']);
    expect(found(spec('{ params: { cursor: continue, limit: limit } }'))).toEqual([]);
  });

  it.each([
    ['{ params: { offset: skip } }', 'offset', 'style cursor reads limit and cursor'],
    ['{ style: offset, params: { cursor: after } }', 'cursor', 'style offset reads limit and offset'],
    ['{ style: page, params: { offset: skip } }', 'offset', 'style page reads page and limit'],
    ['{ style: none, body: array, params: { limit: size } }', 'limit', 'style none reads no paging parameter'],
    ['{ params: { cursor: "" } }', 'cursor', 'not a query parameter name'],
    ['{ params: { cursor: "a b" } }', 'cursor', 'not a query parameter name'],
    ['{ params: { cursor: "a&b" } }', 'cursor', 'not a query parameter name'],
    ['{ params: { limit: __proto__ } }', 'limit', 'not a query parameter name'],
  ])('%s is paging-param-invalid', (paging, role, words) => {
    const d = found(spec(paging));
    expect(d.map((x) => [x.code, x.pointer])).toEqual([['paging-param-invalid', `/endpoints/operations/listPets/paging/params/${role}`]]);
    expect(d[0]!.message).toContain(words);
  });

  it('a renamed paging parameter that another parameter of the operation has is wire-name-clash, at its name', () => {
    // Two roles under one name: one request cannot carry both.
    let d = found(spec('{ params: { cursor: limit } }'));
    expect(d.map((x) => [x.code, x.pointer])).toEqual([['wire-name-clash', '/endpoints/operations/listPets/paging/params/cursor']]);
    expect(d[0]!.message).toBe(
      'query parameter `limit` is both the list parameter limit of operation listPets and the paging parameter cursor (limit) of operation listPets: one request cannot carry both',
    );
    // A filter of the renamed name.
    d = found(spec('{ params: { cursor: name } }', ', filter: [name]'));
    expect(d.map((x) => [x.code, x.pointer])).toEqual([['wire-name-clash', '/endpoints/operations/listPets/filter/0']]);
    // sort, the list's own parameter.
    d = found(spec('{ style: offset, params: { offset: sort } }', ', sort: [name]'));
    expect(d.map((x) => x.code)).toEqual(['wire-name-clash']);
    // The default name freed by a rename no longer clashes with a filter of that name.
    expect(found(spec('{ style: offset, params: { offset: skip } }', ', filter: [offset]'))).toEqual([]);
  });

  it('an unknown key of paging.params is refused by the schema', () => {
    const d = compileSpecText(spec('{ params: { token: t } }')).diagnostics.filter((x) => x.severity === 'error');
    expect(d.length).toBeGreaterThan(0);
    expect(d.every((x) => x.pointer?.startsWith('/endpoints/operations/listPets/paging/params') === true)).toBe(true);
  });
});
