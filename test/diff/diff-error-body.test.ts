import { describe, expect, it } from 'vitest';
import { compareModels } from '../../src/diff/diff-rules.js';
import { compileSpecText } from '../../src/program.js';

// A declared error body whose code, status or message moves to another field, or whose media type changes, breaks
// every client reading its errors: error-body-changed, breaking.
const spec = (body: string) =>
  compileSpecText(`
servicespec: 1
errors:
  body:
    fields:
      code: { type: string }
      error_code: { type: string, optional: true }
      message: { type: string }
${body}
  codes:
    missing: { status: 404 }
`).model!;

describe('diff: a declared error body\u2019s roles and media type', () => {
  it('the code moved to another field, or another media type, is error-body-changed (breaking)', () => {
    const base = spec('');
    // code_values: unstated takes back the promise of each code's name: a client matching on it breaks.
    for (const changed of ['    code: error_code', '    media_type: application/vnd.x.error+json', '    code_values: unstated']) {
      const changes = compareModels(base, spec(changed));
      expect(changes.map((c) => [c.code, c.impact])).toEqual([['error-body-changed', 'breaking']]);
    }
  });

  it('naming the field the format already found is no change', () => {
    expect(compareModels(spec(''), spec('    code: code\n    media_type: application/json\n    code_values: names'))).toEqual([]);
  });
});
