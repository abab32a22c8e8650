// The Catalogue sweep (round 5)'s harness: fixtures/catalogue-server.mjs (a hand-written node:http service of fixtures/catalogue.yaml,
// in this process) with one planted fault, and the tester run against it, as `servicespec test fixtures/catalogue.yaml`
// gives it (the spec declares no credential). Used by tester-catalogue-faults.test.ts.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { CheckedModel } from '../../src/model/model-types.js';
import { compileSpecFile } from '../../src/program.js';
import { testService } from '../../src/tester/tester-run.js';
import type { TestOptions, TestReport } from '../../src/tester/tester-types.js';

export const CATALOGUE_SPEC = fileURLToPath(new URL('./fixtures/catalogue.yaml', import.meta.url));
const SERVER_URL = new URL('./fixtures/catalogue-server.mjs', import.meta.url).href;

interface CatalogueModule {
  FAULTS: Record<string, string>;
  createCatalogueServer(o: { faults?: string[] }): Server;
}

export async function loadCatalogue(): Promise<CatalogueModule> {
  return (await import(SERVER_URL)) as CatalogueModule;
}

export function compileCatalogue(): CheckedModel {
  const c = compileSpecFile(CATALOGUE_SPEC);
  if (!c.checked) throw new Error(`catalogue.yaml does not check: ${c.diagnostics.map((d) => d.code).join(', ')}`);
  return c.checked;
}

/** One run of the tester against a fresh server with `faults` planted; the server is closed after. */
export async function runCatalogue(faults: readonly string[], options: Omit<TestOptions, 'baseUrl'> = {}): Promise<TestReport> {
  const { createCatalogueServer } = await loadCatalogue();
  const server = createCatalogueServer({ faults: [...faults] });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  try {
    return await testService(compileCatalogue(), { baseUrl: `http://127.0.0.1:${port}`, ...options });
  } finally {
    server.closeAllConnections();
    await new Promise((ok) => server.close(ok));
  }
}

/** The checks that failed, by name, sorted. */
export function failedChecks(report: TestReport): string[] {
  return [...new Set(report.results.filter((r) => r.outcome === 'failed').map((r) => r.check))].sort();
}
