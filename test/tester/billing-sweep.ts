// The Billing sweep (round 7)'s harness: fixtures/billing-server.mjs (a hand-written node:http service of
// fixtures/billing.yaml, in this process) with one planted fault, and the tester run against it as `servicespec test
// fixtures/billing.yaml --header 'X-API-Key: …' --other-header … --limited-header … --limited-scopes billing:read`
// gives it. Used by tester-billing-faults.test.ts and bench/tester-billing-sweep.ts.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { CheckedModel } from '../../src/model/model-types.js';
import { compileSpecFile } from '../../src/program.js';
import { testService } from '../../src/tester/tester-run.js';
import type { TestOptions, TestReport } from '../../src/tester/tester-types.js';

export const BILLING_SPEC = fileURLToPath(new URL('./fixtures/billing.yaml', import.meta.url));
const SERVER_URL = new URL('./fixtures/billing-server.mjs', import.meta.url).href;

interface BillingModule {
  FAULTS: Record<string, string>;
  createBillingServer(o: { keys: Record<string, { subject: string; scopes: string[] }>; faults?: string[] }): Server;
}

const KEYS = {
  'key-main-0001': { subject: 'alice', scopes: ['billing:read', 'billing:write'] },
  'key-other-002': { subject: 'bob', scopes: ['billing:read', 'billing:write'] },
  'key-limited-3': { subject: 'carol', scopes: ['billing:read'] },
};

export async function loadBilling(): Promise<BillingModule> {
  return (await import(SERVER_URL)) as BillingModule;
}

export function compileBilling(): CheckedModel {
  const c = compileSpecFile(BILLING_SPEC);
  if (!c.checked) throw new Error(`billing.yaml does not check: ${c.diagnostics.map((d) => d.code).join(', ')}`);
  return c.checked;
}

/** The options a user gives the CLI for this service: three subjects' keys. */
export const BILLING_OPTIONS: Omit<TestOptions, 'baseUrl'> = {
  credentials: { headers: { 'X-API-Key': 'key-main-0001' } },
  other: { headers: { 'X-API-Key': 'key-other-002' } },
  limited: { headers: { 'X-API-Key': 'key-limited-3' } },
  limitedScopes: ['billing:read'],
};

/** One run of the tester against a fresh server with `faults` planted; the server is closed after. */
export async function runBilling(faults: readonly string[], options: Omit<TestOptions, 'baseUrl'> = {}): Promise<TestReport> {
  const { createBillingServer } = await loadBilling();
  const server = createBillingServer({ keys: KEYS, faults: [...faults] });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  try {
    return await testService(compileBilling(), { baseUrl: `http://127.0.0.1:${port}`, ...BILLING_OPTIONS, ...options });
  } finally {
    server.closeAllConnections();
    await new Promise((ok) => server.close(ok));
  }
}

/** The checks that failed, by name, sorted. */
export function failedChecks(report: TestReport): string[] {
  return [...new Set(report.results.filter((r) => r.outcome === 'failed').map((r) => r.check))].sort();
}
