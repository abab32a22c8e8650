// A PUT that creates or replaces under the client's identifier (PUT /patients/{patientId} answering 201 for a new id
// and 200 for an existing one) imported: a replace with `upsert: true` on a resource whose identifier the client
// gives, the id's pattern kept. Before, it was a plain replace ("201 dropped"), the resource had no create at all,
// and the pattern was dropped as the server's to make.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { compileSpecText } from '../../src/program.js';

const patient = {
  type: 'object',
  required: ['patientId', 'name'],
  properties: { patientId: { type: 'string', pattern: '^P[0-9]{6}$' }, name: { type: 'string' } },
};
const json = (schema: unknown) => ({ 'application/json': { schema } });
const PATIENTS = (put: Record<string, unknown>) => ({
  openapi: '3.1.0',
  info: { title: 'Patients', version: '1' },
  paths: {
    '/patients/{patientId}': {
      parameters: [{ name: 'patientId', in: 'path', required: true, schema: { type: 'string', pattern: '^P[0-9]{6}$' } }],
      get: {
        operationId: 'getPatient',
        responses: { '200': { description: 'the patient', content: json({ $ref: '#/components/schemas/Patient' }) }, '404': { description: 'none' } },
      },
      put: { operationId: 'putPatient', requestBody: { required: true, content: json({ $ref: '#/components/schemas/Patient' }) }, responses: put },
    },
  },
  components: { schemas: { Patient: patient } },
});
const answered = { description: 'the patient', content: json({ $ref: '#/components/schemas/Patient' }) };

describe('import: a PUT answering 201 and 200', () => {
  it('is a replace with upsert; the identifier is the client’s, its pattern kept', async () => {
    const r = await importOpenApiDocument(PATIENTS({ '200': answered, '201': answered, '404': { description: 'none' } }), 'patients.json');
    expect(r.document!.endpoints!.operations!.putPatient).toMatchObject({ action: 'replace', resource: 'Patient', upsert: true });
    const p = r.document!.resources!.Patient!;
    expect(p.identifier_source).toBe('client');
    expect(p.fields!.patientId).toMatchObject({ pattern: '^P[0-9]{6}$' });
    // Kept as the document says it: nothing dropped nor approximated about the 201 or the identifier's pattern.
    expect(r.diagnostics.filter((d) => /201|pattern|server makes/.test(d.message))).toEqual([]);
    const c = compileSpecText(stringify(r.document));
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(c.model!.endpoints!.operations.find((o) => o.id === 'putPatient')).toMatchObject({ upsert: true, status: 200 });
  });

  it('a PUT answering 204 and 201: a replace with upsert, its status 204 (before 2026-11-29 a custom operation, its 201 dropped)', async () => {
    // A PUT answering no body is the change of the object its path names (import-read-only-identifier.test.ts).
    const r = await importOpenApiDocument(PATIENTS({ '204': { description: 'replaced' }, '201': answered }), 'patients.json');
    expect(r.document!.endpoints!.operations!.putPatient).toMatchObject({ action: 'replace', resource: 'Patient', upsert: true, status: 204 });
    expect(r.diagnostics.filter((d) => d.code === 'import-dropped' && d.message.includes('201'))).toEqual([]);
    const c = compileSpecText(stringify(r.document));
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('a PUT answering 200 alone stays a plain replace', async () => {
    const r = await importOpenApiDocument(PATIENTS({ '200': answered, '404': { description: 'none' } }), 'patients.json');
    expect(r.document!.endpoints!.operations!.putPatient!.upsert).toBeUndefined();
  });
});

describe('import: an upsert of an outside sweep (a clinic’s patients)', () => {
  // The id read-only in the schema (no body sends it), a payment method of two variants, a 201 with no Location.
  const card = { type: 'object', required: ['type', 'last4'], properties: { type: { const: 'card' }, last4: { type: 'string', pattern: '^[0-9]{4}$' } } };
  const insurance = { type: 'object', required: ['type', 'policy'], properties: { type: { const: 'insurance' }, policy: { type: 'string', maxLength: 20 } } };
  const doc = (location: boolean) => {
    const d = PATIENTS({});
    const schemas = (d.components as { schemas: Record<string, unknown> }).schemas;
    schemas.Patient = {
      type: 'object',
      required: ['patientId', 'name', 'payment'],
      properties: {
        patientId: { type: 'string', pattern: '^P[0-9]{6}$', readOnly: true },
        name: { type: 'string', maxLength: 40 },
        payment: { oneOf: [{ $ref: '#/components/schemas/Card' }, { $ref: '#/components/schemas/Insurance' }], discriminator: { propertyName: 'type' } },
      },
    };
    schemas.Card = card;
    schemas.Insurance = insurance;
    const made = { ...answered, ...(location ? { headers: { Location: { schema: { type: 'string' } } } } : {}) };
    (d.paths as unknown as Record<string, Record<string, { responses: unknown }>>)['/patients/{patientId}']!.put!.responses = {
      '200': answered,
      '201': made,
      '404': { description: 'none' },
    };
    return d;
  };

  it('a read-only id is the client’s all the same; a 201 declaring no Location is location: false; the spec checks clean', async () => {
    for (const location of [false, true]) {
      const r = await importOpenApiDocument(doc(location), 'patients.json');
      expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      const p = r.document!.resources!.Patient!;
      expect([p.identifier_source, p.fields!.patientId!.readOnly]).toEqual(['client', undefined]);
      expect(r.document!.endpoints!.operations!.putPatient!.location).toBe(location ? undefined : false);
      expect(compileSpecText(r.text!).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    }
  });

  it('served and tested: the 201 answers no Location where none is declared, and the tester passes it (its union bodies send no id)', async () => {
    const { startService } = await import('../runtime/helpers.js');
    const { testService } = await import('../../src/tester/tester-run.js');
    const r = await importOpenApiDocument(doc(false), 'patients.json');
    const checked = compileSpecText(r.text!).checked!;
    const s = await startService(checked, { fastPaths: true });
    try {
      const made = await s.call('PUT', '/patients/P000001', { name: 'Ada', payment: { type: 'card', last4: '1234' } });
      expect([made.status, made.headers.get('location')]).toEqual([201, null]);
      const report = await testService(checked, { baseUrl: s.url, seed: 1 });
      expect(report.results.filter((x) => x.outcome === 'failed').map((x) => [x.check, x.target, x.failure?.actual])).toEqual([]);
      expect(report.results.find((x) => x.check === 'endpoints.union-variants' && x.target === 'putPatient')?.outcome).toBe('passed');
    } finally {
      await s.close();
    }
  }, 120_000);
});
