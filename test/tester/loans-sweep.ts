// The fault sweep's harness: fixtures/loans-server.mjs (a hand-written node:http service of fixtures/loans.yaml,
// in this process) with one planted fault, and the tester run against it with three subjects' API keys, as
// `servicespec test fixtures/loans.yaml --header 'X-API-Key: …' --other-header … --limited-header …
// --limited-scopes loans:read` gives them. Used by tester-loans-faults.test.ts and bench/tester-loans-sweep.ts.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { CheckedModel } from '../../src/model/model-types.js';
import { compileSpecFile, compileSpecText } from '../../src/program.js';
import { testService } from '../../src/tester/tester-run.js';
import type { TestOptions, TestReport } from '../../src/tester/tester-types.js';

export const LOANS_SPEC = fileURLToPath(new URL('./fixtures/loans.yaml', import.meta.url));
const SERVER_URL = new URL('./fixtures/loans-server.mjs', import.meta.url).href;

interface LoansModule {
  FAULTS: Record<string, string>;
  createLoansServer(o: { keys: Record<string, { subject: string; scopes: string[] }>; faults?: string[]; rate?: number }): Server;
}

const KEYS = {
  'key-main': { subject: 'alice', scopes: ['loans:read', 'loans:write'] },
  'key-other': { subject: 'bob', scopes: ['loans:read', 'loans:write'] },
  'key-limited': { subject: 'carol', scopes: ['loans:read'] },
};

export async function loadLoans(): Promise<LoansModule> {
  return (await import(SERVER_URL)) as LoansModule;
}

/** loans.yaml compiled, or a variant of its text (a smaller rate budget). */
export function compileLoans(text?: string): CheckedModel {
  const c = text === undefined ? compileSpecFile(LOANS_SPEC) : compileSpecText(text, LOANS_SPEC);
  if (!c.checked) throw new Error(`loans.yaml does not check: ${c.diagnostics.map((d) => d.code).join(', ')}`);
  return c.checked;
}

/** One run of the tester against a fresh server with `faults` planted; the server is closed after. */
export async function runLoans(
  faults: readonly string[],
  options: Omit<TestOptions, 'baseUrl'> = {},
  serve: { rate?: number; model?: CheckedModel } = {},
): Promise<TestReport> {
  const { createLoansServer } = await loadLoans();
  const server = createLoansServer({ keys: KEYS, faults: [...faults], ...(serve.rate !== undefined ? { rate: serve.rate } : {}) });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  try {
    return await testService(serve.model ?? compileLoans(), {
      baseUrl: `http://127.0.0.1:${port}`,
      credentials: { headers: { 'X-API-Key': 'key-main' } },
      other: { headers: { 'X-API-Key': 'key-other' } },
      limited: { headers: { 'X-API-Key': 'key-limited' } },
      limitedScopes: ['loans:read'],
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
