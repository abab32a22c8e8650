// The Courses sweep (round 9)'s harness: fixtures/courses.openapi.yaml imported as `servicespec import openapi` makes
// it (nothing edited), and the tester run against fixtures/courses-server.mjs (a hand-written node:http service of
// the document, in this process) with the named faults planted, as `servicespec test` runs with the registrar's
// Basic credentials given (`--basic registrar:…`). Used by tester-courses-faults.test.ts and
// bench/tester-courses-sweep.ts.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { importOpenApiFile } from '../../src/import/import-openapi.js';
import type { CheckedModel } from '../../src/model/model-types.js';
import { testService } from '../../src/tester/tester-run.js';
import type { TestOptions, TestReport } from '../../src/tester/tester-types.js';

export const COURSES_DOC = fileURLToPath(new URL('./fixtures/courses.openapi.yaml', import.meta.url));
const SERVER_URL = new URL('./fixtures/courses-server.mjs', import.meta.url).href;

interface CoursesModule {
  FAULTS: Record<string, string>;
  COURSES_USER: string;
  COURSES_PASSWORD: string;
  createCoursesServer(o: { faults?: string[] }): Server;
}

export async function loadCourses(): Promise<CoursesModule> {
  return (await import(SERVER_URL)) as CoursesModule;
}

let imported: Promise<{ model: CheckedModel; text: string }> | undefined;

/** The document imported (once a process), its model and the spec's YAML. */
export function importCourses(): Promise<{ model: CheckedModel; text: string }> {
  imported ??= importOpenApiFile(COURSES_DOC).then((r) => {
    if (!r.compiled?.checked || r.text === undefined) throw new Error(`courses.openapi.yaml does not import: ${r.diagnostics.map((d) => d.code).join(', ')}`);
    return { model: r.compiled.checked, text: r.text };
  });
  return imported;
}

/** One run of the tester against a fresh server with `faults` planted; the server is closed after. */
export async function runCourses(faults: readonly string[], options: Omit<TestOptions, 'baseUrl'> = {}): Promise<TestReport> {
  const { createCoursesServer, COURSES_USER, COURSES_PASSWORD } = await loadCourses();
  const { model } = await importCourses();
  const server = createCoursesServer({ faults: [...faults] });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  try {
    return await testService(model, {
      baseUrl: `http://127.0.0.1:${port}`,
      credentials: { basic: { user: COURSES_USER, password: COURSES_PASSWORD } },
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
