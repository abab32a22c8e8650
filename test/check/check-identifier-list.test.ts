// A list (or a create) of a resource with no identifier: the service stores and pages objects by their identifier,
// so serving it could only fail (it answered 500 before). check says identifier-missing, as for a read.
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

it.each([
  ['a list', '{ method: GET, path: /gifs, action: list, resource: Gif, paging: { style: offset, body: array } }'],
  ['a create', '{ method: POST, path: /gifs, action: create, resource: Gif }'],
])('%s of a resource with no identifier is identifier-invalid on its optional id', (_n, op) => {
  const d = compileSpecText(spec(`op: ${op}`)).diagnostics.filter((x) => x.severity === 'error');
  expect(d.map((x) => [x.code, x.pointer])).toEqual([['identifier-invalid', '/resources/Gif/fields/id']]);
});

it('without an id field at all it is identifier-missing; a custom operation needs none', () => {
  const list = spec('op: { method: GET, path: /gifs, action: list, resource: Gif }').replace('      id: { type: string, optional: true }\n', '');
  expect(
    compileSpecText(list)
      .diagnostics.filter((x) => x.severity === 'error')
      .map((x) => [x.code, x.pointer]),
  ).toEqual([['identifier-missing', '/resources/Gif']]);
  const custom = list.replace('action: list, resource: Gif }', 'action: custom, handler: op, response: { resource: Gif, list: true } }');
  expect(compileSpecText(custom).diagnostics.filter((x) => x.severity === 'error')).toEqual([]);
});
