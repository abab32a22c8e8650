// The contract tester exercises the custom operations a user gave handlers for (issue 26): an imported OpenAPI
// document (USPTO's: a listing, a path binding {dataset}/{version}, a search) served with its handler file. Each
// operation is sent valid requests; a handler refusing a path that names no data set with the operation's declared
// 404 is a declared answer, not a failure, whether or not the operation takes a body. An operation whose every
// request was so refused had no answer judged: it is reported not run (the tester draws {dataset} as a word, and
// none it drew names one).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { importOpenApiFile } from '../../src/import/import-openapi.js';
import { testService } from '../../src/tester/tester-run.js';
import { OPENAPI_FIXTURES } from '../export/helpers.js';
import { startSpec, type OrdersServer } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'servicespec-tester-custom-'));
let s: OrdersServer;
let forms: OrdersServer;
const searched: unknown[] = [];

// A form request (request.media_type) with every error code declared: the tester sends its bodies as forms.
const FORM_SPEC = `servicespec: 1
endpoints:
  operations:
    search:
      method: POST
      path: /{dataset}/records
      action: custom
      handler: search
      request:
        media_type: application/x-www-form-urlencoded
        fields:
          criteria: { type: string, minLength: 1, maxLength: 40 }
          start: { type: integer, minimum: 0, optional: true }
          exact: { type: boolean, optional: true }
          tag: { type: array, items: { type: enum, values: [a, b] }, optional: true, maxItems: 2 }
      response: { fields: { hits: { type: integer } } }
authentication:
  default: none
errors:
  body: problem
  codes:
    invalid: { status: 422, when: [validation] }
    unreadable: { status: 400, when: [malformed_request, headers_too_large] }
    media: { status: 415, when: [unsupported_media_type] }
    missing: { status: 404, when: [route_not_found] }
    method: { status: 405, when: [method_not_allowed] }
    broken: { status: 500, when: [internal] }
`;

beforeAll(async () => {
  const imported = await importOpenApiFile(join(OPENAPI_FIXTURES, 'oai-uspto.yaml'));
  const spec = join(dir, 'uspto.yaml');
  writeFileSync(spec, imported.text!);
  s = await startSpec(spec, new URL('../fixtures/handlers/oai-uspto.ts', import.meta.url).href);
  const formSpec = join(dir, 'form.yaml');
  writeFileSync(formSpec, FORM_SPEC);
  const handlers = join(dir, 'form-handlers.mjs');
  writeFileSync(handlers, 'export const handlers = { search: (ctx) => { globalThis.__searched?.push(ctx.body); return { hits: 0 }; } };\n');
  (globalThis as { __searched?: unknown[] }).__searched = searched;
  forms = await startSpec(formSpec, pathToFileURL(handlers).href);
}, 60_000);
afterAll(async () => {
  await forms?.close();
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('exercises every custom operation with a handler; a declared refusal of the handler is no failure, and refusals alone are not run', async () => {
  const r = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 3, only: ['endpoints'] });
  expect(r.results.filter((x) => x.outcome === 'failed').map((f) => `${f.target}: ${f.failure?.expected} — ${f.failure?.actual}`)).toEqual([]);
  const valid = r.results.filter((x) => x.check === 'endpoints.valid-requests');
  expect(valid.map((x) => `${x.target} ${x.outcome}${x.notRun ? ` (not run: ${x.reason?.split(':')[0]})` : ''}`).sort()).toEqual([
    'list-data-sets passed',
    'list-searchable-fields skipped (not run: every valid request sent to list-searchable-fields was refused with a declared code (404))',
    'perform-search skipped (not run: every valid request sent to perform-search was refused with a declared code (404))',
  ]);
}, 60_000);

it('sends a form request as a form, valid and invalid, and holds the service to it: no failure', async () => {
  const r = await testService(forms.model, { baseUrl: forms.url, ...forms.options, seed: 5 });
  expect(r.results.filter((x) => x.outcome === 'failed').map((f) => `${f.check} ${f.target}: ${f.failure?.expected} — ${f.failure?.actual}`)).toEqual([]);
  const invalid = r.results.filter((x) => x.check === 'endpoints.invalid-requests' && x.outcome === 'passed').map((x) => x.target);
  expect(invalid).toContain('search: a JSON body where the request is a form (application/x-www-form-urlencoded)');
  expect(invalid.some((t) => /criteria missing/.test(t))).toBe(true);
  expect(r.results.find((x) => x.check === 'endpoints.valid-requests' && x.target === 'search')?.outcome).toBe('passed');
  // The handler got the form read as the declared fields: typed values, never text for a number or a boolean.
  expect(searched.length).toBeGreaterThan(0);
  for (const b of searched as Record<string, unknown>[]) {
    expect(typeof b.criteria).toBe('string');
    if (b.start !== undefined) expect(Number.isInteger(b.start)).toBe(true);
    if (b.exact !== undefined) expect(typeof b.exact).toBe('boolean');
  }
}, 120_000);
