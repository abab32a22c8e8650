// The Claims sweep's harness: fixtures/claims-server.mjs (a hand-written node:http service of fixtures/claims.yaml,
// in this process) with one planted fault, and the tester run against it, as `servicespec test fixtures/claims.yaml`
// gives it (the spec declares no credential). Used by tester-claims-faults.test.ts.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { CheckedModel } from '../../src/model/model-types.js';
import { compileSpecFile } from '../../src/program.js';
import { testService } from '../../src/tester/tester-run.js';
import type { TestOptions, TestReport } from '../../src/tester/tester-types.js';

export const CLAIMS_SPEC = fileURLToPath(new URL('./fixtures/claims.yaml', import.meta.url));
const SERVER_URL = new URL('./fixtures/claims-server.mjs', import.meta.url).href;

interface ClaimsModule {
  FAULTS: Record<string, string>;
  createClaimsServer(o: { faults?: string[] }): Server;
}

export async function loadClaims(): Promise<ClaimsModule> {
  return (await import(SERVER_URL)) as ClaimsModule;
}

export function compileClaims(): CheckedModel {
  const c = compileSpecFile(CLAIMS_SPEC);
  if (!c.checked) throw new Error(`claims.yaml does not check: ${c.diagnostics.map((d) => d.code).join(', ')}`);
  return c.checked;
}

/** One run of the tester against a fresh server with `faults` planted; the server is closed after. */
export async function runClaims(faults: readonly string[], options: Omit<TestOptions, 'baseUrl'> = {}): Promise<TestReport> {
  const { createClaimsServer } = await loadClaims();
  const server = createClaimsServer({ faults: [...faults] });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  try {
    return await testService(compileClaims(), { baseUrl: `http://127.0.0.1:${port}`, ...options });
  } finally {
    server.closeAllConnections();
    await new Promise((ok) => server.close(ok));
  }
}

/** The checks that failed, by name, sorted. */
export function failedChecks(report: TestReport): string[] {
  return [...new Set(report.results.filter((r) => r.outcome === 'failed').map((r) => r.check))].sort();
}
