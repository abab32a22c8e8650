// The second OpenAPI-first sweep's harness: fixtures/tasks.openapi.yaml (OpenAPI 3.1, projects and their tasks:
// bearer auth, a page/per_page list answering a bare array with X-Total-Count and Link, nested task paths, a
// Stripe-style `{data, has_more}` list, an RPC transition, a discriminated union, RFC 9457 problems) imported as
// `servicespec import openapi` does (importOpenApiFile, nothing edited after), and the tester run against
// fixtures/tasks-server.mjs (a hand-written node:http service of the document, in this process) with planted faults,
// as `servicespec test tasks.spec.yaml --bearer token-main` runs it. Used by bench/tester-tasks-sweep.ts.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { importOpenApiFile } from '../../src/import/import-openapi.js';
import type { CheckedModel } from '../../src/model/model-types.js';
import { testService } from '../../src/tester/tester-run.js';
import type { TestOptions, TestReport } from '../../src/tester/tester-types.js';

export const TASKS_OPENAPI = fileURLToPath(new URL('./fixtures/tasks.openapi.yaml', import.meta.url));
const SERVER_URL = new URL('./fixtures/tasks-server.mjs', import.meta.url).href;

interface TasksModule {
  FAULTS: Record<string, string>;
  createTasksServer(o: { tokens: string[]; faults?: string[]; codes?: boolean }): Server;
}

export async function loadTasks(): Promise<TasksModule> {
  return (await import(SERVER_URL)) as TasksModule;
}

let imported: Promise<CheckedModel> | undefined;

/** The spec the import makes of tasks.openapi.yaml, compiled (once). */
export function importTasks(): Promise<CheckedModel> {
  imported ??= importOpenApiFile(TASKS_OPENAPI).then((r) => {
    const checked = r.compiled?.checked;
    if (!checked) throw new Error(`tasks.openapi.yaml does not import: ${r.diagnostics.map((d) => d.code).join(', ')}`);
    return checked;
  });
  return imported;
}

/**
 * One run of the tester against a fresh server with `faults` planted; the server is closed after. `codes`: the
 * server's problems carry a `code` extension member (the imported code's name), which the document does not ask.
 */
export async function runTasks(
  faults: readonly string[],
  options: Omit<TestOptions, 'baseUrl'> = {},
  { codes = false }: { codes?: boolean } = {},
): Promise<TestReport> {
  const { createTasksServer } = await loadTasks();
  const server = createTasksServer({ tokens: ['token-main'], faults: [...faults], codes });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  try {
    return await testService(await importTasks(), {
      baseUrl: `http://127.0.0.1:${port}`,
      credentials: { bearer: 'token-main' },
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
