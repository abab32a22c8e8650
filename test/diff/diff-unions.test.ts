// Unions in diff: a variant removed breaks; added, it breaks where clients send the union and is additive where they
// only read it; a tag or the discriminator changed breaks; a kept variant's fields are compared as fields.
import { describe, expect, it } from 'vitest';
import { compareModels } from '../../src/diff/diff-rules.js';
import { compileSpecText } from '../../src/program.js';
import { UNION_SPEC } from '../support/unions.js';

const model = (text: string) => {
  const c = compileSpecText(text);
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return c.model!;
};
const changes = (next: string) => compareModels(model(UNION_SPEC), model(next)).map((c) => `${c.impact} ${c.code} ${c.reason}`);

describe('diff of unions', () => {
  it('finds nothing between a spec and itself', () => {
    expect(changes(UNION_SPEC)).toEqual([]);
  });

  it('a variant removed is breaking; a tag changed is breaking', () => {
    const removed = UNION_SPEC.replace(
      ['bank_transfer:', 'tag: bank', 'fields:', 'iban: { type: string, minLength: 15 }'].map((l, i) => `${' '.repeat([10, 12, 12, 14][i]!)}${l}\n`).join(''),
      '',
    );
    expect(changes(removed)).toEqual([
      'breaking union-variant-removed Payment.method: variant bank_transfer was removed; values of that shape are no longer accepted or sent',
    ]);
    expect(changes(UNION_SPEC.replace('tag: bank', 'tag: sepa'))).toEqual([
      'breaking union-variant-tag-changed Payment.method: variant bank_transfer is now tagged sepa (was bank)',
    ]);
    expect(changes(UNION_SPEC.replace('discriminator: kind', 'discriminator: method_kind'))).toEqual([
      'breaking union-discriminator-changed Payment.method: the union is now told apart by method_kind (was kind)',
    ]);
  });

  it('a variant added is breaking in a union clients send and additive in one they only read', () => {
    const field = UNION_SPEC.replace(
      '          bank_transfer:\n',
      '          wallet:\n            fields: { wallet_id: { type: string } }\n          bank_transfer:\n',
    );
    expect(changes(field)).toEqual([
      'breaking request-union-variant-added Payment.method: variant wallet was added to a union clients send; a client that builds the union from its variants is out of date',
    ]);
    const response = UNION_SPEC.replace(
      '          Refusal:\n',
      '          Offer:\n            tag: offer\n            fields: { until: { type: date } }\n          Refusal:\n',
    );
    expect(changes(response)).toEqual(['non-breaking response-union-variant-added quote response: responses may now carry variant Offer']);
  });

  it("compares a kept variant's fields as fields", () => {
    const tightened = UNION_SPEC.replace('iban: { type: string, minLength: 15 }', 'iban: { type: string, minLength: 20 }');
    expect(changes(tightened).map((c) => c.split(' ').slice(0, 3).join(' '))).toEqual([
      'breaking request-field-constraint-tightened Payment.method<bank_transfer>.iban:',
    ]);
  });
});
