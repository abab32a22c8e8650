// The fault sweep on the Shipments service (test/tester/fixtures/shipments.openapi.yaml, imported as `servicespec import openapi` does, served by the hand-written
// test/tester/fixtures/shipments-server.mjs): every plantable fault, one at a time, under a default tester run (only
// the seed varies; the API key given as `servicespec test --header` gives it). Prints, per fault and seed,
// whether the run failed and which checks failed, then the unfaulted server's verdict per seed. Too slow for the
// suite (a few seconds a run); tester-shipments-faults.test.ts keeps what it found.
//
//   npx tsx bench/tester-shipments-sweep.ts               # seed 1
//   SWEEP_SEEDS=1,2,3 SWEEP_FAULTS=create-200,total-wrong npx tsx bench/tester-shipments-sweep.ts

import { printFaultSweep } from './lib/fault-sweep.js';
import { failedChecks, loadShipments, runShipments } from '../test/tester/shipments-sweep.js';

await printFaultSweep({ load: loadShipments, run: runShipments, failedChecks });
