// The Courses sweep (round 9)'s harness: fixtures/courses.openapi.yaml imported as `servicespec import openapi` makes
// it (nothing edited), and the tester run against fixtures/courses-server.mjs (a hand-written node:http service of
// the document, in this process) with the named faults planted, as `servicespec test` runs with the registrar's
// Basic credentials given (`--basic registrar:…`). Used by tester-courses-faults.test.ts and
// bench/tester-courses-sweep.ts.

import type { Server } from 'node:http';
import { createImportedSweep } from './imported-sweep.js';

export { failedChecks } from './imported-sweep.js';

interface CoursesModule {
  FAULTS: Record<string, string>;
  COURSES_USER: string;
  COURSES_PASSWORD: string;
  createCoursesServer(o: { faults?: string[] }): Server;
}

const sweep = createImportedSweep<CoursesModule>({
  doc: new URL('./fixtures/courses.openapi.yaml', import.meta.url),
  server: new URL('./fixtures/courses-server.mjs', import.meta.url),
  create: (m, faults) => m.createCoursesServer({ faults }),
  options: (m) => ({ credentials: { basic: { user: m.COURSES_USER, password: m.COURSES_PASSWORD } } }),
});

export const COURSES_DOC = sweep.doc;
export const loadCourses = sweep.load;
export const importCourses = sweep.importDoc;
export const runCourses = sweep.run;
