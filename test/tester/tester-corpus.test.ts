// The tester on imported real-world documents: each OpenAPI document of the public corpus (test/fixtures/openapi,
// the same files as ../shared/openapi-corpus) is imported as `servicespec import openapi` does, served by the real
// runtime (gaps allowed, a credential for every scheme it declares), and tested at the default settings through
// a counting proxy. The test asserts that the operations which received requests TODAY, as measured, still do
// (issue 25 item 9 wants every operation to receive traffic): losing one fails here; an operation that starts
// getting traffic is printed as newly reached, to be added to TRAFFIC_TODAY and to the table in docs/testing.md.
// The per-operation counts are printed.

import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importOpenApiFile } from '../../src/import/import-openapi.js';
import type { ServiceModel } from '../../src/model/model-types.js';
import { testService } from '../../src/tester/tester-run.js';
import { OPENAPI_FIXTURES } from '../export/helpers.js';
import { startSpec } from './helpers.js';
import { startProxy } from './mutant-proxy.js';

const dir = mkdtempSync(join(tmpdir(), 'servicespec-tester-corpus-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Operations with traffic today, per document (measured on seed 1, 2026-11-25; every other operation got none). */
const TRAFFIC_TODAY: Record<string, readonly string[]> = {
  'adyen-dispute-v30.json': ['post-acceptDispute', 'post-defendDispute', 'post-deleteDisputeDefenseDocument', 'post-downloadDisputeDefenseDocument', 'post-retrieveApplicableDefenseReasons', 'post-supplyDefenseDocument'],
  'kubernetes-coordination-v1.json': ['getCoordinationV1APIResources', 'listCoordinationV1LeaseForAllNamespaces', 'watchCoordinationV1LeaseListForAllNamespaces'],
  'oai-callback-example.yaml': ['postStreams'],
  'oai-link-example.yaml': [],
  'oai-petstore-expanded.yaml': ['findPets', 'addPet', 'find pet by id', 'deletePet'],
  'oai-petstore.yaml': ['listPets', 'createPets'],
  'oai-uspto.yaml': ['list-data-sets'],
  'oai-webhook-example.yaml': ['listPets'],
};

/** Which declared operation a request went to (the runtime serves the paths at its root; `{x}` is one segment). */
function operationMatcher(model: ServiceModel): (method: string, path: string) => string | undefined {
  const esc = (s: string) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  const routes = (model.endpoints?.operations ?? []).map((o) => ({ id: o.id, method: o.method, re: new RegExp(`^${o.path.split(/\{[^}]+\}/).map(esc).join('[^/]+')}$`) }));
  return (method, path) => {
    const p = path.split('?')[0]!;
    return routes.find((r) => r.method === method && r.re.test(p))?.id;
  };
}

const files = readdirSync(OPENAPI_FIXTURES).filter((f) => /\.(ya?ml|json)$/.test(f)).sort();
const table: string[] = [];

describe('the tester on served imports of the OpenAPI corpus (default settings, seed 1)', () => {
  for (const file of files) {
    it(`${file}: the operations that receive traffic today`, async () => {
      const imported = await importOpenApiFile(join(OPENAPI_FIXTURES, file), { specFile: `${file}.servicespec.yaml` });
      expect(imported.text).toBeDefined();
      const spec = join(dir, `${file}.servicespec.yaml`);
      writeFileSync(spec, imported.text!);
      const s = await startSpec(spec);
      const match = operationMatcher(s.model);
      const counts = new Map<string, number>((s.model.endpoints?.operations ?? []).map((o) => [o.id, 0]));
      let other = 0;
      const proxy = await startProxy(s.url, {
        observe(req) {
          const id = match(req.method, req.path);
          if (id === undefined) other++;
          else counts.set(id, (counts.get(id) ?? 0) + 1);
        },
      });
      try {
        const report = await testService(s.model, { baseUrl: proxy.url, ...s.options, seed: 1 });
        const row = [...counts].map(([id, n]) => `${id}: ${n}`).join(', ');
        table.push(`| ${file} | ${report.requests} | ${other} | ${row} |`);
        console.log(`${file}: ${report.requests} requests (${other} to no declared operation); ${row}`);
        const got = [...counts].filter(([, n]) => n > 0).map(([id]) => id);
        const today = TRAFFIC_TODAY[file] ?? [];
        const reached = got.filter((id) => !today.includes(id));
        if (reached.length > 0) console.log(`${file}: newly reached (add to TRAFFIC_TODAY): ${reached.join(', ')}`);
        expect(today.filter((id) => !got.includes(id)), 'operations that received traffic before and none now').toEqual([]);
        expect(other, 'requests to no declared operation').toBe(0);
      } finally {
        await proxy.close();
        await s.close();
      }
    }, 120_000);
  }
  afterAll(() => console.log(['| document | requests | to no operation | requests per operation |', '|---|---:|---:|---|', ...table].join('\n')));
});
