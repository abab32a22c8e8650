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

// A built-in action's declared parameters (validated, not otherwise used) by the same rules: one rule set.
const action = (headers: string) => {
  const c = compileSpecText(`servicespec: 1
resources:
  Invoice:
    fields:
      id: { type: uuid }
endpoints:
  operations:
    readInvoice:
      method: GET
      path: /invoices/{id}
      action: read
      resource: Invoice
${headers === '' ? '' : `      headers:\n${headers}`}
`);
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return c.model!;
};

describe("diff of a built-in action's declared parameters", () => {
  it('a new required header is breaking, a new optional one is not, a removed one is', () => {
    const tenant = '        Xero-Tenant-Id: { type: uuid }';
    const optional = '        X-Request-Source: { type: string, optional: true }';
    expect(compareModels(action(''), action(tenant)).map((c) => `${c.impact} ${c.code}`)).toEqual(['breaking request-field-added-required']);
    expect(compareModels(action(''), action(optional)).map((c) => `${c.impact} ${c.code}`)).toEqual(['non-breaking request-field-added']);
    expect(compareModels(action(`${tenant}\n${optional}`), action(tenant)).map((c) => `${c.impact} ${c.code}`)).toEqual(['breaking request-field-removed']);
  });
});
