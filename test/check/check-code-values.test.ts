// errors.body.code_values: `names` or `unstated`, nothing else (invalid-value, at the key); `unstated` lists the
// value the runtime writes as a format default in gaps.
import { describe, expect, it } from 'vitest';
import { getGapReport } from '../../src/check/check-gaps.js';
import { compileSpecText } from '../../src/program.js';

const spec = (values: string) => `servicespec: 1
errors:
  body:
    fields:
      error: { type: object, fields: { code: { type: string }, message: { type: string } } }
    code: error.code
    message: error.message
    code_values: ${values}
  codes:
    missing: { status: 404 }
`;

describe('errors.body.code_values', () => {
  it('refuses a value that is neither names nor unstated, at the key', () => {
    const c = compileSpecText(spec('sometimes'), 'bad.yaml');
    expect(c.diagnostics.map((d) => [d.severity, d.code, d.pointer])).toEqual([['error', 'invalid-value', '/errors/body/code_values']]);
  });

  it('unstated: gaps names the value the service writes as a format default', () => {
    const c = compileSpecText(spec('unstated'), 'ok.yaml');
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const errors = getGapReport(c.model!).parts.find((p) => p.part === 'errors')!;
    expect(errors.defaults).toContainEqual(expect.objectContaining({ item: 'error code values', value: "each code's name in error.code" }));
  });
});

describe('errors.body.answer_members', () => {
  it('refuses a value that is neither named nor open, at the key', () => {
    const c = compileSpecText(spec('names').replace('    code_values: names', '    answer_members: sometimes'), 'bad.yaml');
    expect(c.diagnostics.map((d) => [d.severity, d.code, d.pointer])).toEqual([['error', 'invalid-value', '/errors/body/answer_members']]);
  });

  it('open is carried to the model; left out, it is the format default (named)', () => {
    const open = compileSpecText(spec('names').replace('    code_values: names', '    answer_members: open'), 'ok.yaml');
    expect(open.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(open.model!.errors!.body).toMatchObject({ kind: 'declared', answerMembers: 'open' });
    expect(compileSpecText(spec('names'), 'ok.yaml').model!.errors!.body).toMatchObject({ kind: 'declared', answerMembers: 'named' });
  });
});
