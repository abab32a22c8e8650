// `paging.first_page` and `paging.members`: Spring Data's `Page<T>` (springdoc: `{content, totalElements,
// totalPages, number (from 0), size, numberOfElements, first, last, empty, pageable: {pageNumber, pageSize, offset}}`
// paged by `?page=&size=`, the page numbered from 0) and Laravel's paginator (`{data, current_page, last_page,
// per_page, total, from, to}` paged by `?page=&per_page=`). Both were custom operations: the importer read neither
// page, so serve answered them 501 and the tester checked them as custom operations. Each reader of the shape is
// held here: check, the OpenAPI export, the typed client, the document, diff, import, the runtime over HTTP (both
// answers) and the tester.
import { describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';

const spec = (paging: string) => `servicespec: 1
resources:
  Product:
    fields:
      id: { type: integer, readOnly: true }
      name: { type: string, maxLength: 200 }
endpoints:
  operations:
    createProduct: { method: POST, path: /products, action: create, resource: Product }
    listProducts: { method: GET, path: /products, action: list, resource: Product, filter: [name], paging: ${paging} }
    getProduct: { method: GET, path: '/products/{id}', action: read, resource: Product }
authentication:
  default: none
limits:
  page_size: { default: 20, max: 100 }
errors:
  codes:
    invalid: { status: 422, when: [validation, malformed_request, unsupported_media_type] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
`;
const SPRING_MEMBERS =
  '{ page: [number, pageable.pageNumber], size: [size, pageable.pageSize], pages: totalPages, count: numberOfElements, first: first, last: last, empty: empty, offset: pageable.offset }';
export const SPRING = spec(`{ style: page, first_page: 0, items: content, total: totalElements, params: { limit: size }, members: ${SPRING_MEMBERS} }`);
export const LARAVEL = spec(
  '{ style: page, items: data, total: total, members: { page: current_page, last_page: last_page, size: per_page, from: from, to: to } }',
);

const found = (text: string) =>
  compileSpecText(text)
    .diagnostics.filter((d) => d.severity === 'error' || d.code === 'paging-contradiction')
    .map((d) => [d.code, d.pointer]);

describe('paging.first_page and paging.members: check', () => {
  const at = (key: string) => `/endpoints/operations/listProducts/paging/${key}`;
  it('Spring’s and Laravel’s pages are clean', () => {
    expect(found(SPRING)).toEqual([]);
    expect(found(LARAVEL)).toEqual([]);
  });
  it('first_page on a style without page numbers, or a value other than 0 and 1', () => {
    expect(found(spec('{ style: offset, first_page: 0 }'))).toEqual([['paging-contradiction', at('first_page')]]);
    expect(found(spec('{ style: page, first_page: 2 }'))).toEqual([['invalid-value', at('first_page')]]);
  });
  it('a role on a style that cannot answer it, or with a bare array', () => {
    expect(found(spec('{ style: offset, members: { page: number } }'))).toEqual([['paging-contradiction', at('members/page')]]);
    expect(found(spec('{ members: { size: size } }'))).toEqual([['paging-contradiction', at('members/size')]]);
    expect(found(spec('{ style: limit, members: { last: last } }'))).toEqual([['paging-contradiction', at('members/last')]]);
    expect(found(spec('{ style: page, body: array, link: true, members: { count: count } }'))).toEqual([['paging-contradiction', at('members')]]);
    // count and empty are any page's.
    expect(found(spec('{ members: { count: count, empty: empty } }'))).toEqual([]);
  });
  it('a name twice, a clash with items or total, a member inside another', () => {
    expect(found(spec('{ style: page, members: { page: number, size: number } }'))).toEqual([['paging-contradiction', at('members/size')]]);
    expect(found(spec('{ style: page, items: content, members: { count: content } }'))).toEqual([['paging-contradiction', at('members/count')]]);
    expect(found(spec('{ style: page, total: total, members: { pages: total } }'))).toEqual([['paging-contradiction', at('members/pages')]]);
    expect(found(spec('{ style: page, items: data, members: { size: data.size } }'))).toEqual([['paging-contradiction', at('members/size')]]);
    expect(found(spec('{ style: page, members: { offset: pageable, page: pageable.pageNumber } }'))).toEqual([['paging-contradiction', at('members/offset')]]);
    expect(found(spec('{ style: page, members: { page: [number, number] } }'))).toEqual([['invalid-value', at('members/page')]]);
    expect(found(spec('{ style: page, members: { page: a..b } }'))).toEqual([['invalid-value', at('members/page')]]);
  });
});
