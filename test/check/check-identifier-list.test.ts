// A list or a create of a resource with no identifier: the storage keys its rows (docs/format.md, "Resources without
// an identifier"), so both are served; an `id` that cannot be an identifier (optional) is an ordinary field then.
// An operation addressing one object by its one path parameter, without `bind`, needs the identifier: identifier-missing
// (or identifier-invalid, naming the `id` that cannot be one).
import { expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { CATCH_ALL_ERRORS } from './helpers.js';

const spec = (op: string) => `servicespec: 1
resources:
  Gif:
    fields:
      id: { type: string, optional: true }
      title: { type: string }
endpoints:
  operations:
    ${op}
authentication:
  default: none
${CATCH_ALL_ERRORS}`;

const errors = (text: string) =>
  compileSpecText(text)
    .diagnostics.filter((x) => x.severity === 'error')
    .map((x) => [x.code, x.pointer]);

it.each([
  ['a list', '{ method: GET, path: /gifs, action: list, resource: Gif, paging: { style: offset, body: array } }'],
  ['a create', '{ method: POST, path: /gifs, action: create, resource: Gif }'],
  ['a read binding a unique field', '{ method: GET, path: "/gifs/{title}", action: read, resource: Gif, bind: { title: title } }'],
])('%s of a resource with no identifier is served (the storage keys its rows)', (_n, op) => {
  const text = spec(`op: ${op}`).replace('title: { type: string }', 'title: { type: string, unique: true }');
  expect(errors(text)).toEqual([]);
});

it('a read by its one path parameter, without bind, is identifier-invalid on the optional id', () => {
  expect(errors(spec('op: { method: GET, path: "/gifs/{id}", action: read, resource: Gif }'))).toEqual([['identifier-invalid', '/resources/Gif/fields/id']]);
});

it('without an id field at all it is identifier-missing; a bound read of a field that is not unique is path-binding-not-unique', () => {
  const read = spec('op: { method: GET, path: "/gifs/{title}", action: read, resource: Gif }').replace('      id: { type: string, optional: true }\n', '');
  expect(errors(read)).toEqual([['identifier-missing', '/resources/Gif']]);
  expect(errors(read.replace('resource: Gif }', 'resource: Gif, bind: { title: title } }'))).toEqual([
    ['path-binding-not-unique', '/endpoints/operations/op/bind'],
  ]);
  const custom = read.replace('action: read, resource: Gif }', 'action: custom, handler: op, response: { resource: Gif } }');
  expect(errors(custom)).toEqual([]);
});
