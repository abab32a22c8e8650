// ambiguous-route says two paths match the same requests. A literal beside a parameter whose field cannot hold it
// (`/devices/search` beside `/devices/{uuid}` of a uuid identifier) matches none of the parameter's requests: the
// literal is routed first, and no value equal to it exists, so nothing is said. Before, every such pair was warned.
import { describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';

const spec = (id: string, literal: string, extra = '') => `
servicespec: 1
resources:
  Device:
    fields:
      id: ${id}
      name: { type: string }
      kind: { type: enum, values: [sensor, gateway] }
endpoints:
  operations:
    getDevice: { method: GET, path: "/devices/{id}", action: read, resource: Device }
    other: { method: GET, path: "/devices/${literal}", action: custom, handler: other, response: { fields: { n: { type: integer } } } }
${extra}`;

const ambiguous = (text: string) =>
  compileSpecText(text)
    .diagnostics.filter((d) => d.code === 'ambiguous-route')
    .map((d) => d.message);

describe('ambiguous-route', () => {
  it.each([
    ['a uuid identifier beside a word', '{ type: uuid, readOnly: true }', 'search'],
    ['an integer identifier beside a word', '{ type: integer, readOnly: true }', 'summary'],
    ['a patterned identifier the word does not match', '{ type: string, pattern: "^dev_[0-9]+$", readOnly: true }', 'search'],
    ['an identifier shorter than the word', '{ type: string, maxLength: 4, readOnly: true }', 'search'],
  ])('%s: nothing said', (_name, id, literal) => {
    expect(ambiguous(spec(id, literal))).toEqual([]);
  });

  it.each([
    ['a string identifier', '{ type: string, readOnly: true }', 'search'],
    ['an integer identifier beside a number', '{ type: integer, readOnly: true }', '42'],
    ['a uuid identifier beside a uuid', '{ type: uuid, readOnly: true }', '0b5e3c5e-9d3b-4c8e-a7d2-2f9a1c3e4b5d'],
  ])('%s: said', (_name, id, literal) => {
    expect(ambiguous(spec(id, literal))).toEqual([
      `operations \`getDevice\` and \`other\` have paths /devices/{id} and /devices/${literal} that match the same requests`,
    ]);
  });

  it('a parameter bound to an enum field: only a literal among its values is said', () => {
    const bound = (literal: string) =>
      spec(
        '{ type: uuid, readOnly: true }',
        'x',
        `    listKind: { method: GET, path: "/kinds/{kind}", action: list, resource: Device, bind: { kind: kind } }
    kindInfo: { method: GET, path: "/kinds/${literal}", action: custom, handler: info, response: { fields: { n: { type: integer } } } }`,
      );
    expect(ambiguous(bound('all'))).toEqual([]);
    expect(ambiguous(bound('sensor'))).toHaveLength(1);
  });

  it('a custom operation`s path parameter (no field) still pairs with any literal', () => {
    const text = spec(
      '{ type: uuid, readOnly: true }',
      'x',
      `    byName: { method: GET, path: "/names/{name}", action: custom, handler: byName, response: { fields: { n: { type: integer } } } }
    search: { method: GET, path: "/names/search", action: custom, handler: search, response: { fields: { n: { type: integer } } } }`,
    );
    expect(ambiguous(text)).toHaveLength(1);
  });
});
