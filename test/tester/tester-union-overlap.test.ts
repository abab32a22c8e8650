// Untagged unions whose variants one value can fit (InfluxDB's ExportTemplate: TemplateExportByID and
// TemplateExportByName, every top-level member optional and named alike, told apart only by their `resources[]`
// items; PagerDuty's overlapping object variants). A union is a oneOf: serve refuses a value two variants take. The
// tester drew such values (`{}`, `{ stackID }`) as valid, serve refused them ('must match exactly one of the
// variants'), and valid-requests and union-variants failed against a correct service.

import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { getUnionVariantMatches, unionArbitrary } from '../../src/tester/tester-arbitraries.js';
import { testService } from '../../src/tester/tester-run.js';
import { PLAIN_ERRORS } from '../support/specs.js';
import { startSpecText, type OrdersServer } from './helpers.js';

const TEMPLATE = `
        variants:
          by_id:
            fields:
              stackID: { type: string, optional: true }
              orgIDs: { type: array, optional: true, items: { type: string } }
              resources:
                type: array
                optional: true
                items: { type: object, fields: { id: { type: string }, kind: { type: string }, name: { type: string, optional: true } } }
          by_name:
            fields:
              stackID: { type: string, optional: true }
              orgIDs: { type: array, optional: true, items: { type: string } }
              resources:
                type: array
                optional: true
                items: { type: object, fields: { kind: { type: string }, name: { type: string } } }`;

const SPEC = `servicespec: 1
shapes:
  ExportTemplate:${TEMPLATE.replace(/\n {8}/g, '\n    ')}
resources:
  Export:
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string, maxLength: 20 }
      template: { type: union, shape: ExportTemplate }
      value:
        type: union
        optional: true
        variants:
          text: { fields: { label: { type: string, optional: true } } }
          labelled: { fields: { label: { type: string, optional: true }, note: { type: string, optional: true } } }
endpoints:
  operations:
    createExport: { method: POST, path: /exports, action: create, resource: Export }
    getExport: { method: GET, path: '/exports/{id}', action: read, resource: Export }
    updateExport: { method: PATCH, path: '/exports/{id}', action: update, resource: Export }
    export_template:
      method: POST
      path: /templates/export
      action: custom
      request: { shape: ExportTemplate }
      response: { fields: { ok: { type: boolean } } }
      handler: export_template
    # Two variants of the same members: no value is one of them alone, so none is valid (the oneOf refuses each).
    tag_either:
      method: POST
      path: /tags/either
      action: custom
      request:
        variants:
          plain: { fields: { label: { type: string, maxLength: 10, optional: true } } }
          same: { fields: { label: { type: string, maxLength: 10, optional: true } } }
      response: { fields: { ok: { type: boolean } } }
      handler: tag_either
authentication:
  default: none
${PLAIN_ERRORS}`;

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText('export-template.yaml', SPEC);
}, 60_000);
afterAll(async () => {
  await s?.close();
});

it('check warns union-indistinguishable for both unions (the spec is taken)', () => {
  const d = compileSpecText(SPEC, 'export-template.yaml')
    .diagnostics.filter((x) => x.code === 'union-indistinguishable')
    .map((x) => x.pointer);
  expect(d).toEqual([
    '/resources/Export/fields/template/variants/by_name',
    '/resources/Export/fields/value/variants/labelled',
    '/endpoints/operations/export_template/request/variants/by_name',
    '/endpoints/operations/tag_either/request/variants/same',
  ]);
});

it('draws, for each untagged union, only values exactly one variant takes (as serve validates them)', () => {
  const union = s.model.endpoints!.operations!.find((o) => o.id === 'export_template')!.request!.union!;
  const value = s.model.resources[0]!.fields.find((f) => f.name === 'value')!.union!;
  for (const u of [union, value]) {
    const drawn = fc.sample(unionArbitrary(s.model, u), { seed: 7, numRuns: 200 });
    const ambiguous = drawn.filter((v) => getUnionVariantMatches(s.model, u, v).length !== 1);
    expect(ambiguous).toEqual([]);
  }
});

it('tester against serve: no false failure on overlapping untagged variants', async () => {
  for (const seed of [1, 2]) {
    const report = await testService(s.model, {
      baseUrl: s.url,
      ...s.options,
      seed,
      only: ['endpoints.valid-requests', 'endpoints.input-space', 'endpoints.union-variants', 'endpoints.invalid-requests'],
    });
    expect(report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}: ${r.failure?.actual}`)).toEqual([]);
    expect(report.results.filter((r) => r.outcome === 'passed').length).toBeGreaterThan(0);
    // The union no value tells apart is said, not sent.
    const either = report.results.find((r) => r.check === 'endpoints.valid-requests' && r.target === 'tag_either');
    expect(either).toMatchObject({ outcome: 'skipped', notRun: true });
    expect(either?.reason).toContain('union-indistinguishable');
  }
}, 120_000);
