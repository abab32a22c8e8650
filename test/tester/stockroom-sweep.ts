// The Stockroom sweep (round 10)'s harness: fixtures/stockroom.openapi.yaml imported as `servicespec import openapi`
// makes it (nothing edited), and the tester run against fixtures/stockroom-server.mjs (a hand-written node:http
// service of the document, in this process) with the named faults planted, as `servicespec test` runs with the
// team's key given (`--header X-Api-Key:…`) and a key holding the read role only (`--limited-header X-Api-Key:…
// --limited-scopes inventory:read`). Used by tester-stockroom-faults.test.ts and bench/tester-stockroom-sweep.ts.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { importOpenApiFile } from '../../src/import/import-openapi.js';
import type { CheckedModel } from '../../src/model/model-types.js';
import { testService } from '../../src/tester/tester-run.js';
import type { TestOptions, TestReport } from '../../src/tester/tester-types.js';

export const STOCKROOM_DOC = fileURLToPath(new URL('./fixtures/stockroom.openapi.yaml', import.meta.url));
const SERVER_URL = new URL('./fixtures/stockroom-server.mjs', import.meta.url).href;

interface StockroomModule {
  FAULTS: Record<string, string>;
  STOCKROOM_KEY: string;
  STOCKROOM_READER_KEY: string;
  createStockroomServer(o: { faults?: string[] }): Server;
}

export async function loadStockroom(): Promise<StockroomModule> {
  return (await import(SERVER_URL)) as StockroomModule;
}

let imported: Promise<{ model: CheckedModel; text: string }> | undefined;

/** The document imported (once a process), its model and the spec's YAML. */
export function importStockroom(): Promise<{ model: CheckedModel; text: string }> {
  imported ??= importOpenApiFile(STOCKROOM_DOC).then((r) => {
    if (!r.compiled?.checked || r.text === undefined) throw new Error(`stockroom.openapi.yaml does not import: ${r.diagnostics.map((d) => d.code).join(', ')}`);
    return { model: r.compiled.checked, text: r.text };
  });
  return imported;
}

/** One run of the tester against a fresh server with `faults` planted; the server is closed after. */
export async function runStockroom(faults: readonly string[], options: Omit<TestOptions, 'baseUrl'> = {}): Promise<TestReport> {
  const { createStockroomServer, STOCKROOM_KEY, STOCKROOM_READER_KEY } = await loadStockroom();
  const { model } = await importStockroom();
  const server = createStockroomServer({ faults: [...faults] });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  try {
    return await testService(model, {
      baseUrl: `http://127.0.0.1:${port}`,
      credentials: { headers: { 'X-Api-Key': STOCKROOM_KEY } },
      limited: { headers: { 'X-Api-Key': STOCKROOM_READER_KEY } },
      limitedScopes: ['inventory:read'],
      ...options,
    });
  } finally {
    server.closeAllConnections();
    await new Promise((ok) => server.close(ok));
  }
}

/** The checks that failed, by name, sorted. */
export function failedChecks(report: TestReport): string[] {
  return [...new Set(report.results.filter((r) => r.outcome === 'failed').map((r) => r.check))].sort();
}
