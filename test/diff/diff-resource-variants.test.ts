// diff on a resource of several shapes (docs/diff.md): a variant removed is breaking, one added needs review, and a
// kept variant's own fields are compared as the variant's (`Pet<Dog>.breed`), not as fields every object holds.
import { describe, expect, it } from 'vitest';
import { diffModels } from '../../src/diff/diff-run.js';
import { compileSpecText } from '../../src/program.js';
import { PET_VARIANTS_SPEC } from '../support/resource-variants.js';

const model = (text: string) => compileSpecText(text).model!;
const NO_DOG = PET_VARIANTS_SPEC.replace(
  / {6}Dog:\n {8}fields:\n {10}breed: \{ type: string, minLength: 1 \}\n {10}good_boy: \{ type: boolean, optional: true \}\n/,
  '',
);
const changes = (a: string, b: string) => diffModels(model(a), model(b)).changes.map((c) => `${c.impact} ${c.code} ${c.reason}`);

describe('diff of a resource of several shapes', () => {
  it('a variant removed is breaking; added, it needs review (no field of it read as required of every object)', () => {
    expect(NO_DOG).not.toContain('Dog:');
    expect(changes(PET_VARIANTS_SPEC, NO_DOG)).toEqual([
      'breaking resource-variant-removed Pet: variant Dog was removed; objects of that shape are no longer created or answered',
      'breaking request-field-enum-value-removed Pet.kind: value Dog is no longer accepted in requests',
    ]);
    expect(changes(NO_DOG, PET_VARIANTS_SPEC)).toEqual([
      'needs-review resource-variant-added Pet: variant Dog was added; answers may now hold objects of a shape a client telling them apart by their tag does not know',
      'needs-review response-field-enum-value-added Pet.kind: responses may now carry Dog; strict clients may reject it',
    ]);
  });

  it("compares a kept variant's own fields as the variant's", () => {
    const tighter = PET_VARIANTS_SPEC.replace('breed: { type: string, minLength: 1 }', 'breed: { type: string, minLength: 1, maxLength: 20 }');
    expect(changes(PET_VARIANTS_SPEC, tighter).map((c) => c.split(':')[0])).toEqual(['breaking request-field-constraint-tightened Pet<Dog>.breed']);
  });
});
