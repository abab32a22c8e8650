// `upsert: true` on a replace: a PUT naming an identifier no object has creates it (201), one naming an existing
// object replaces it (200). Before, the option did not exist: the schema refused it (an unknown property).
import { describe, expect, it } from 'vitest';
import { getGapReport } from '../../src/check/check-gaps.js';
import { modelToSpec } from '../../src/export/model-to-spec.js';
import { compileSpecText } from '../../src/program.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';
import { UPSERT_SPEC } from '../support/upsert-spec.js';

const codes = (text: string) => compileSpecText(text).diagnostics.map((d) => `${d.severity} ${d.code} ${d.pointer ?? ''}`);

describe('upsert', () => {
  it('is taken on a replace of a client-given identifier: no diagnostic, in the model and back in the spec', () => {
    const c = compileSpecText(UPSERT_SPEC());
    expect(codes(UPSERT_SPEC())).toEqual([]);
    const put = c.model!.endpoints!.operations.find((o) => o.id === 'putPatient')!;
    expect(put.upsert).toBe(true);
    expect(modelToSpec(c.model!).endpoints!.operations!.putPatient).toMatchObject({ action: 'replace', upsert: true });
    expect(JSON.stringify(getGapReport(c.model!).parts.flatMap((p) => p.missing))).not.toContain('Patient');
  });

  it('needs identifier_source: client (upsert-needs-client-identifier)', () => {
    expect(codes(UPSERT_SPEC('', 'identifier_source: server'))).toEqual(['error upsert-needs-client-identifier /endpoints/operations/putPatient/upsert']);
  });

  it('on another action is misplaced-option; not a boolean is invalid', () => {
    const onRead = UPSERT_SPEC().replace('action: read, resource: Patient }', 'action: read, resource: Patient, upsert: true }');
    expect(codes(onRead)).toEqual(['warning misplaced-option /endpoints/operations/getPatient/upsert']);
    const word = UPSERT_SPEC().replace('upsert: true', 'upsert: yes');
    expect(compileSpecText(word).diagnostics.some((d) => d.severity === 'error' && d.pointer === '/endpoints/operations/putPatient/upsert')).toBe(true);
  });

  it('is said in the document', () => {
    const m = compileSpecText(UPSERT_SPEC()).model!;
    expect(renderMarkdown(m)).toContain('creates the object when none has the identifier: 201');
  });
});
