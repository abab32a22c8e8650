// A replace with `upsert: true` exported: the OpenAPI PUT lists the 201 a new identifier answers (the object, a
// Location header) beside its 200, the path's id keeps its pattern, x-servicespec-operation carries `upsert`, and the
// document imported back is the same spec. Before, the export listed the 200 alone.
import { describe, expect, it } from 'vitest';
import { generateClient } from '../../src/export/export-client.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { stringify } from 'yaml';
import { UPSERT_SPEC } from '../support/upsert-spec.js';

type Op = {
  parameters?: { name: string; in: string; schema?: { pattern?: string } }[];
  responses: Record<string, Record<string, unknown>>;
  'x-servicespec-operation'?: Record<string, unknown>;
};

describe('upsert exported', () => {
  const model = compileSpecText(UPSERT_SPEC()).checked!;
  const doc = exportOpenApi(model).document as unknown as { paths: Record<string, Record<string, Op>> };
  const put = doc.paths['/patients/{id}']!.put!;

  it('the PUT answers 201 with Location and the object, and 200; the id keeps its pattern', () => {
    expect(Object.keys(put.responses).filter((k) => k.startsWith('2'))).toEqual(['200', '201']);
    expect(put.responses['201']!.headers).toMatchObject({ Location: { schema: { type: 'string', format: 'uri-reference' } } });
    expect(put.responses['201']!.content).toEqual(put.responses['200']!.content);
    expect(put.responses['200']!.headers).toBeUndefined();
    expect(put.parameters!.find((p) => p.in === 'path')!.schema!.pattern).toBe('^P[0-9]{6}$');
    expect(put['x-servicespec-operation']).toMatchObject({ action: 'replace', upsert: true });
  });

  it('the typed client says the 201', () => {
    expect(generateClient(model).code).toContain('→ 200, or 201 when no object had the identifier: it creates it (upsert).');
  });

  it('imported back: the same replace with upsert, the resource client-given, no diagnostic', async () => {
    const back = await importOpenApiDocument(structuredClone(doc) as unknown, 'export.json');
    expect(back.document!.endpoints!.operations!.putPatient).toMatchObject({ action: 'replace', upsert: true });
    expect(back.document!.resources!.Patient!.identifier_source).toBe('client');
    const again = compileSpecText(stringify(back.document));
    expect(again.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(again.model!.endpoints!.operations.find((o) => o.id === 'putPatient')!.upsert).toBe(true);
  });
});
