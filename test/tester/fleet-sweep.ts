// The Fleet sweep (round 8)'s harness: fixtures/fleet.openapi.yaml imported as `servicespec import openapi` makes it
// (nothing edited), and the tester run against fixtures/fleet-server.mjs (a hand-written node:http service of the
// document, in this process) with the named faults planted, as `servicespec test` runs with the fleet key given
// (`--header 'X-Fleet-Key: …'`). Used by tester-fleet-faults.test.ts and bench/tester-fleet-sweep.ts.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { importOpenApiFile } from '../../src/import/import-openapi.js';
import type { CheckedModel } from '../../src/model/model-types.js';
import { testService } from '../../src/tester/tester-run.js';
import type { TestOptions, TestReport } from '../../src/tester/tester-types.js';

export const FLEET_DOC = fileURLToPath(new URL('./fixtures/fleet.openapi.yaml', import.meta.url));
const SERVER_URL = new URL('./fixtures/fleet-server.mjs', import.meta.url).href;
/** The fleet key the server takes (it takes fleet-key-other too). */
export const FLEET_KEY = 'fleet-key-main';

interface FleetModule {
  FAULTS: Record<string, string>;
  createFleetServer(o: { faults?: string[] }): Server;
}

export async function loadFleet(): Promise<FleetModule> {
  return (await import(SERVER_URL)) as FleetModule;
}

let imported: Promise<{ model: CheckedModel; text: string }> | undefined;

/** The document imported (once a process), its model and the spec's YAML. */
export function importFleet(): Promise<{ model: CheckedModel; text: string }> {
  imported ??= importOpenApiFile(FLEET_DOC).then((r) => {
    if (!r.compiled?.checked || r.text === undefined) throw new Error(`fleet.openapi.yaml does not import: ${r.diagnostics.map((d) => d.code).join(', ')}`);
    return { model: r.compiled.checked, text: r.text };
  });
  return imported;
}

/** One run of the tester against a fresh server with `faults` planted; the server is closed after. */
export async function runFleet(faults: readonly string[], options: Omit<TestOptions, 'baseUrl'> = {}): Promise<TestReport> {
  const { createFleetServer } = await loadFleet();
  const { model } = await importFleet();
  const server = createFleetServer({ faults: [...faults] });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  try {
    return await testService(model, { baseUrl: `http://127.0.0.1:${port}`, credentials: { headers: { 'X-Fleet-Key': FLEET_KEY } }, ...options });
  } finally {
    server.closeAllConnections();
    await new Promise((ok) => server.close(ok));
  }
}

/** The checks that failed, by name, sorted. */
export function failedChecks(report: TestReport): string[] {
  return [...new Set(report.results.filter((r) => r.outcome === 'failed').map((r) => r.check))].sort();
}
