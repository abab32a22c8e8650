// Each code's parameters are read off its message template by the type checker (diagnostics-catalogue.ts,
// `DiagnosticParams`): `npm run typecheck` covers this file, and each `@ts-expect-error` below fails it when the call
// under it compiles, so a parameter left out, misspelled or not in the template is a compile error.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createDiagnostic, type DiagnosticParams, type ParameterlessCode, type TemplateParams } from '../../src/diagnostics/diagnostics-catalogue.js';

describe('typed diagnostic parameters', () => {
  it("reads each code's parameter names off its template", () => {
    expectTypeOf<TemplateParams<'cannot read {path}: {reason}'>>().toEqualTypeOf<'path' | 'reason'>();
    // `{{placeholder}}` names `placeholder`; braces around anything but a word are text.
    expectTypeOf<TemplateParams<'`{{placeholder}}` in { a: 1 } and {} or {x-y}'>>().toEqualTypeOf<'placeholder'>();
    expectTypeOf<TemplateParams<'no parameter'>>().toEqualTypeOf<never>();
    expectTypeOf<DiagnosticParams<'file-unreadable'>>().toEqualTypeOf<{ readonly path: string | number; readonly reason: string | number }>();
    expectTypeOf<'invalid-utf8'>().toExtend<ParameterlessCode>();
    expectTypeOf<'file-not-found'>().not.toExtend<ParameterlessCode>();
  });

  it('refuses a parameter left out, misspelled or not in the template, at compile time', () => {
    const made = [
      createDiagnostic('file-unreadable', { path: 'a.yaml', reason: 'denied' }),
      createDiagnostic('invalid-utf8'),
      // @ts-expect-error -- `reason` left out
      createDiagnostic('file-unreadable', { path: 'a.yaml' }),
      // @ts-expect-error -- `reason` misspelled
      createDiagnostic('file-unreadable', { path: 'a.yaml', reson: 'denied' }),
      // @ts-expect-error -- `line` is not in the template
      createDiagnostic('file-not-found', { path: 'a.yaml', line: 3 }),
      // @ts-expect-error -- the parameters left out altogether
      createDiagnostic('file-not-found'),
    ];
    // At run time a parameter left out stays in the message as written.
    expect(made.map((d) => d.message)).toEqual([
      'cannot read a.yaml: denied',
      'the file is not valid UTF-8',
      'cannot read a.yaml: {reason}',
      'cannot read a.yaml: {reason}',
      'no such file: a.yaml',
      'no such file: {path}',
    ]);
  });
});
