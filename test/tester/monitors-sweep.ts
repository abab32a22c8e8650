// The Monitors sweep (round 6)'s harness: fixtures/monitors-server.mjs (a hand-written node:http service of
// fixtures/monitors.yaml, in this process) with one planted fault, and the tester run against it as `servicespec test
// fixtures/monitors.yaml --header 'X-API-Key: …' --other-header … --limited-header … --limited-scopes monitors:read
// --webhook-listen PORT` with SERVICESPEC_CALLBACK_SECRET set gives it. Used by tester-monitors-faults.test.ts and
// bench/tester-monitors-sweep.ts.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { CheckedModel } from '../../src/model/model-types.js';
import { compileSpecFile } from '../../src/program.js';
import { testService } from '../../src/tester/tester-run.js';
import type { TestOptions, TestReport } from '../../src/tester/tester-types.js';

export const MONITORS_SPEC = fileURLToPath(new URL('./fixtures/monitors.yaml', import.meta.url));
const SERVER_URL = new URL('./fixtures/monitors-server.mjs', import.meta.url).href;
/** The service's callback secret (SERVICESPEC_CALLBACK_SECRET), given to the tester as to receivers: out of band. */
export const CALLBACK_SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

interface MonitorsModule {
  FAULTS: Record<string, string>;
  createMonitorsServer(o: { keys: Record<string, { subject: string; scopes: string[] }>; callbackSecret: string; faults?: string[] }): Server;
}

const KEYS = {
  'key-main-0001': { subject: 'alice', scopes: ['monitors:read', 'monitors:write', 'webhooks:manage'] },
  'key-other-002': { subject: 'bob', scopes: ['monitors:read', 'monitors:write', 'webhooks:manage'] },
  'key-limited-3': { subject: 'carol', scopes: ['monitors:read'] },
};

export async function loadMonitors(): Promise<MonitorsModule> {
  return (await import(SERVER_URL)) as MonitorsModule;
}

export function compileMonitors(): CheckedModel {
  const c = compileSpecFile(MONITORS_SPEC);
  if (!c.checked) throw new Error(`monitors.yaml does not check: ${c.diagnostics.map((d) => d.code).join(', ')}`);
  return c.checked;
}

/** The options a user gives the CLI for this service: three subjects' keys, the receiver's port, the callback secret. */
export async function getMonitorsOptions(): Promise<Omit<TestOptions, 'baseUrl'>> {
  return {
    credentials: { headers: { 'X-API-Key': 'key-main-0001' } },
    other: { headers: { 'X-API-Key': 'key-other-002' } },
    limited: { headers: { 'X-API-Key': 'key-limited-3' } },
    limitedScopes: ['monitors:read'],
    webhookListen: 0,
    callbackSecret: CALLBACK_SECRET,
  };
}

/** One run of the tester against a fresh server with `faults` planted; the server is closed after. */
export async function runMonitors(faults: readonly string[], options: Omit<TestOptions, 'baseUrl'> = {}): Promise<TestReport> {
  const { createMonitorsServer } = await loadMonitors();
  const server = createMonitorsServer({ keys: KEYS, callbackSecret: CALLBACK_SECRET, faults: [...faults] });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  try {
    return await testService(compileMonitors(), { baseUrl: `http://127.0.0.1:${port}`, ...(await getMonitorsOptions()), ...options });
  } finally {
    server.closeAllConnections();
    await new Promise((ok) => server.close(ok));
  }
}

/** The checks that failed, by name, sorted. */
export function failedChecks(report: TestReport): string[] {
  return [...new Set(report.results.filter((r) => r.outcome === 'failed').map((r) => r.check))].sort();
}
