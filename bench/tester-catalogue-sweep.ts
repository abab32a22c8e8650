// The fault sweep on the Catalogue service (test/tester/fixtures/catalogue.yaml, round 5, served by the hand-written
// test/tester/fixtures/catalogue-server.mjs): every plantable fault, one at a time, under a default tester run (only
// the seed varies; the spec declares no credential). Prints, per fault and seed, whether the run failed and which
// checks failed, then the unfaulted server's verdict per seed (about 1 s a run); tester-catalogue-faults.test.ts
// keeps what it found.
//
//   npx tsx bench/tester-catalogue-sweep.ts               # seed 1
//   SWEEP_SEEDS=1,2,3 SWEEP_FAULTS=etag-unchanged,total-counts-deleted npx tsx bench/tester-catalogue-sweep.ts

import { printFaultSweep } from './lib/fault-sweep.js';
import { failedChecks, loadCatalogue, runCatalogue } from '../test/tester/catalogue-sweep.js';

await printFaultSweep({ load: loadCatalogue, run: runCatalogue, failedChecks });
