// The OpenAPI-first sweep's harness: fixtures/shipments.openapi.yaml imported as `servicespec import openapi` does
// (importOpenApiFile, nothing edited after), and the tester run against fixtures/shipments-server.mjs (a
// hand-written node:http service of the OpenAPI document, in this process) with one planted fault, as
// `servicespec test shipments.spec.yaml --header 'X-API-Key: key-main'` runs it. Used by
// tester-shipments-faults.test.ts and bench/tester-shipments-sweep.ts.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { importOpenApiFile } from '../../src/import/import-openapi.js';
import type { CheckedModel } from '../../src/model/model-types.js';
import { testService } from '../../src/tester/tester-run.js';
import type { TestOptions, TestReport } from '../../src/tester/tester-types.js';

export const SHIPMENTS_OPENAPI = fileURLToPath(new URL('./fixtures/shipments.openapi.yaml', import.meta.url));
const SERVER_URL = new URL('./fixtures/shipments-server.mjs', import.meta.url).href;

interface ShipmentsModule {
  FAULTS: Record<string, string>;
  createShipmentsServer(o: { keys: string[]; faults?: string[] }): Server;
}

export async function loadShipments(): Promise<ShipmentsModule> {
  return (await import(SERVER_URL)) as ShipmentsModule;
}

let imported: Promise<CheckedModel> | undefined;

/** The spec the import makes of shipments.openapi.yaml, compiled (once). */
export function importShipments(): Promise<CheckedModel> {
  imported ??= importOpenApiFile(SHIPMENTS_OPENAPI).then((r) => {
    const checked = r.compiled?.checked;
    if (!checked) throw new Error(`shipments.openapi.yaml does not import: ${r.diagnostics.map((d) => d.code).join(', ')}`);
    return checked;
  });
  return imported;
}

/** One run of the tester against a fresh server with `faults` planted; the server is closed after. */
export async function runShipments(faults: readonly string[], options: Omit<TestOptions, 'baseUrl'> = {}): Promise<TestReport> {
  const { createShipmentsServer } = await loadShipments();
  const server = createShipmentsServer({ keys: ['key-main'], faults: [...faults] });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  try {
    return await testService(await importShipments(), {
      baseUrl: `http://127.0.0.1:${port}`,
      credentials: { headers: { 'X-API-Key': 'key-main' } },
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
