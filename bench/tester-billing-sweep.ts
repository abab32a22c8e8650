// The fault sweep on the Billing service (test/tester/fixtures/billing.yaml, round 7, served by the hand-written
// test/tester/fixtures/billing-server.mjs): every plantable fault, one at a time, under a default tester run with what a user gives
// it (three subjects' API keys; only the seed varies). Prints, per fault and
// seed, whether the run failed and which checks failed, then the unfaulted server's verdict per seed (about 2 s a run); tester-billing-faults.test.ts
// keeps what it found.
//
//   npx tsx bench/tester-billing-sweep.ts               # seed 1
//   SWEEP_SEEDS=1,2,3 SWEEP_FAULTS=sunset-date-wrong,idem-key-global npx tsx bench/tester-billing-sweep.ts

import { printFaultSweep } from './lib/fault-sweep.js';
import { failedChecks, loadBilling, runBilling } from '../test/tester/billing-sweep.js';

await printFaultSweep({ load: loadBilling, run: runBilling, failedChecks });
