// The contract tester exercises the custom operations a user gave handlers for (issue 26): an imported OpenAPI
// document (USPTO's: a listing, a path binding {dataset}/{version}, a search) served with its handler file. Each
// operation is sent valid requests and passes; a handler refusing a path that names no data set with the operation's
// declared 404 is a declared answer, not a failure, whether or not the operation takes a body.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { importOpenApiFile } from '../../src/import/import-openapi.js';
import { testService } from '../../src/tester/tester-run.js';
import { OPENAPI_FIXTURES } from '../export/helpers.js';
import { startSpec, type OrdersServer } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'servicespec-tester-custom-'));
let s: OrdersServer;

beforeAll(async () => {
  const imported = await importOpenApiFile(join(OPENAPI_FIXTURES, 'oai-uspto.yaml'));
  const spec = join(dir, 'uspto.yaml');
  writeFileSync(spec, imported.text!);
  s = await startSpec(spec, new URL('../fixtures/handlers/oai-uspto.ts', import.meta.url).href);
}, 60_000);
afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('exercises every custom operation with a handler, and passes a declared refusal of the handler', async () => {
  const r = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 3, only: ['endpoints'] });
  expect(r.results.filter((x) => x.outcome === 'failed').map((f) => `${f.target}: ${f.failure?.expected} — ${f.failure?.actual}`)).toEqual([]);
  const valid = r.results.filter((x) => x.check === 'endpoints.valid-requests');
  expect(valid.map((x) => `${x.target} ${x.outcome}`).sort()).toEqual(['list-data-sets passed', 'list-searchable-fields passed', 'perform-search passed']);
}, 60_000);
