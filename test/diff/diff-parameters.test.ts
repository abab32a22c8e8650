// Declared query parameters and headers of custom operations are compared as request fields: a new required one
// is breaking, a removed or retyped one too, a new optional one is not.
import { describe, expect, it } from 'vitest';
import { compareModels } from '../../src/diff/diff-rules.js';
import { compileSpecText } from '../../src/program.js';

const spec = (query: string, headers = '') => {
  const c = compileSpecText(`servicespec: 1
endpoints:
  operations:
    search:
      method: GET
      path: /search
      action: custom
      handler: search
      response: { fields: { n: { type: integer } } }
      query:
${query}
${headers === '' ? '' : `      headers:\n${headers}`}
`);
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return c.model!;
};

const codes = (a: string, b: string, ha = '', hb = '') => compareModels(spec(a, ha), spec(b, hb)).map((c) => `${c.impact} ${c.code}`);

describe('diff of declared parameters', () => {
  const base = '        q: { type: string, optional: true }';
  it('a new required query parameter is breaking; a new optional one is not', () => {
    expect(codes(base, `${base}\n        limit: { type: integer }`)).toEqual(['breaking required-parameter-added']);
    expect(codes(base, `${base}\n        limit: { type: integer, optional: true }`)).toEqual(['non-breaking request-field-added']);
  });

  it('a retyped or removed parameter, and a new required header, are reported', () => {
    expect(codes(base, '        q: { type: integer, optional: true }').some((c) => c.includes('request-field-type-changed'))).toBe(true);
    expect(codes(`${base}\n        old: { type: string, optional: true }`, base)).toEqual(['breaking request-field-removed']);
    expect(codes(base, base, '        X-Tag: { type: string, optional: true }', '        X-Tag: { type: string }')).toEqual([
      'breaking request-field-became-required',
    ]);
  });
});
