// The fault sweep on the Courses service (test/tester/fixtures/courses.openapi.yaml, round 9: a registrar team's
// DRF-style OpenAPI 3.0 document, imported as `servicespec import openapi` makes it, served by the hand-written
// test/tester/fixtures/courses-server.mjs): every plantable fault, one at a time, under a default tester run (only
// the seed varies; the Basic credentials given as `--basic`). Prints, per fault and seed, whether the run failed and
// which checks failed, then the unfaulted server's verdict per seed; tester-courses-faults.test.ts keeps what it
// found.
//
//   SWEEP_SEEDS=1,2 npx tsx bench/tester-courses-sweep.ts
//   SWEEP_FAULTS=page-overlap,next-relative npx tsx bench/tester-courses-sweep.ts

import { printFaultSweep } from './lib/fault-sweep.js';
import { failedChecks, loadCourses, runCourses } from '../test/tester/courses-sweep.js';

await printFaultSweep({ load: loadCourses, run: runCourses, failedChecks });
