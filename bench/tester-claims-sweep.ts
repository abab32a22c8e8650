// The fault sweep on the Claims service (test/tester/fixtures/claims.yaml, served by the hand-written
// test/tester/fixtures/claims-server.mjs): every plantable fault, one at a time, under a default tester run (the spec
// declares no credential; only the seed varies). Prints, per fault and seed, whether the run failed and which checks
// failed, then the unfaulted server's verdict per seed; tester-claims-faults.test.ts keeps what it found.
//
//   npx tsx bench/tester-claims-sweep.ts               # seed 1
//   SWEEP_SEEDS=1,2 SWEEP_FAULTS=delete-in-use npx tsx bench/tester-claims-sweep.ts

import { printFaultSweep } from './lib/fault-sweep.js';
import { failedChecks, loadClaims, runClaims } from '../test/tester/claims-sweep.js';

await printFaultSweep({ load: loadClaims, run: runClaims, failedChecks });
