// `etag: true` on a resource and `if_match: required` on its one-object changes (docs/format.md, "Conditional
// requests"). Before, neither existed: the schema refused both (unknown properties).
import { describe, expect, it } from 'vitest';
import { getGapReport } from '../../src/check/check-gaps.js';
import { modelToSpec } from '../../src/export/model-to-spec.js';
import { getOperationRoute, getUndeclaredConditions } from '../../src/model/model-routes.js';
import { compileSpecText } from '../../src/program.js';
import { PLAIN_ERRORS } from '../support/specs.js';
import { ETAG_SPEC } from '../support/etag-spec.js';

const codes = (text: string) => compileSpecText(text).diagnostics.map((d) => `${d.severity} ${d.code} ${d.pointer ?? ''}`);

describe('etag and if_match', () => {
  it('are taken on a resource and its changes: no diagnostic, in the model and back in the spec', () => {
    expect(codes(ETAG_SPEC())).toEqual([]);
    const m = compileSpecText(ETAG_SPEC()).model!;
    expect(m.resources.find((r) => r.name === 'Note')!.etag).toBe(true);
    expect(m.endpoints!.operations.find((o) => o.id === 'updateContract')!.ifMatch).toBe('required');
    const spec = modelToSpec(m);
    expect(spec.resources!.Note!.etag).toBe(true);
    expect(spec.endpoints!.operations!.updateContract!.if_match).toBe('required');
    expect(spec.endpoints!.operations!.updateNote!.if_match).toBeUndefined();
    expect(JSON.stringify(getGapReport(m))).not.toContain('precondition');
  });

  it('make precondition_failed producible on one-object changes, precondition_required where required', () => {
    const m = compileSpecText(ETAG_SPEC()).model!;
    const conditions = (id: string) => getOperationRoute(m, id)!.conditions;
    for (const id of ['updateNote', 'replaceNote', 'deleteNote', 'publishNote', 'updateContract', 'deleteContract'])
      expect(conditions(id), id).toContain('precondition_failed');
    for (const id of ['getNote', 'createNote', 'listNotes']) expect(conditions(id), id).not.toContain('precondition_failed');
    expect(conditions('updateContract')).toContain('precondition_required');
    expect(conditions('updateNote')).not.toContain('precondition_required');
  });

  it('undeclared, the conditions warn (undeclared-condition) and are gaps; without etag they are not producible', () => {
    const illegal = '    illegal: { status: 409, when: [illegal_transition] }\n';
    const undeclared = compileSpecText(ETAG_SPEC(undefined, undefined, PLAIN_ERRORS + illegal));
    expect(undeclared.diagnostics.filter((d) => d.code === 'undeclared-condition').map((d) => d.message)).toEqual([
      expect.stringContaining('precondition_failed'),
      expect.stringContaining('precondition_required'),
    ]);
    expect(getUndeclaredConditions(undeclared.model!)).toEqual(expect.arrayContaining(['precondition_failed', 'precondition_required']));
    const missing = getGapReport(undeclared.model!)
      .parts.find((p) => p.part === 'errors')!
      .missing.map((x) => x.where);
    expect(missing).toEqual(expect.arrayContaining(['condition precondition_failed', 'condition precondition_required']));
    const plain = compileSpecText(ETAG_SPEC('plural: Notes', 'plural: Contracts', PLAIN_ERRORS + illegal).replace(/, if_match: required/g, ''));
    expect(plain.diagnostics.map((d) => d.code)).toEqual([]);
  });

  it('if_match on a resource without etag is if-match-needs-etag; on a read, create or list misplaced-option', () => {
    expect(codes(ETAG_SPEC('etag: true', 'plural: Contracts'))).toEqual([
      'error if-match-needs-etag /endpoints/operations/updateContract/if_match',
      'error if-match-needs-etag /endpoints/operations/deleteContract/if_match',
    ]);
    const onRead = ETAG_SPEC().replace('action: read, resource: Note }', 'action: read, resource: Note, if_match: optional }');
    expect(codes(onRead)).toEqual(['warning misplaced-option /endpoints/operations/getNote/if_match']);
  });

  it("an ETag declared in response_headers of an answer that carries the format's is response-header-reserved", () => {
    const declared = ETAG_SPEC().replace(
      'action: read, resource: Note }',
      "action: read, resource: Note, response_headers: { ETag: { type: string, default: 'x' } } }",
    );
    expect(codes(declared)).toEqual(['error response-header-reserved /endpoints/operations/getNote/response_headers/ETag']);
  });

  it.each(['Servicespec-Unset-Fields', 'servicespec-undeclared-condition'])(
    "serve's gap marker %s declared in response_headers is response-header-reserved",
    (name) => {
      const declared = ETAG_SPEC().replace(
        'action: read, resource: Note }',
        `action: read, resource: Note, response_headers: { ${name}: { type: string, default: 'x' } } }`,
      );
      expect(codes(declared)).toEqual([`error response-header-reserved /endpoints/operations/getNote/response_headers/${name}`]);
    },
  );

  it('etag anywhere but a resource, or not a boolean, and if_match not required/optional, are refused by the schema', () => {
    const onOperation = ETAG_SPEC().replace('action: read, resource: Note }', 'action: read, resource: Note, etag: true }');
    expect(compileSpecText(onOperation).diagnostics.some((d) => d.severity === 'error' && d.pointer?.startsWith('/endpoints/operations/getNote'))).toBe(true);
    expect(compileSpecText(ETAG_SPEC('etag: yes')).diagnostics.some((d) => d.severity === 'error' && d.pointer === '/resources/Note/etag')).toBe(true);
    const word = ETAG_SPEC().replace('if_match: required', 'if_match: always');
    expect(compileSpecText(word).diagnostics.some((d) => d.severity === 'error' && d.pointer === '/endpoints/operations/updateContract/if_match')).toBe(true);
  });
});
