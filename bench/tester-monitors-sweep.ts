// The fault sweep on the Monitors service (test/tester/fixtures/monitors.yaml, round 6, served by the hand-written
// test/tester/fixtures/monitors-server.mjs): every plantable fault, one at a time, under a default tester run with what a user gives
// it (three subjects' API keys, --webhook-listen, the callback secret; only the seed varies). Prints, per fault and
// seed, whether the run failed and which checks failed, then the unfaulted server's verdict per seed (about 5 s a run); tester-monitors-faults.test.ts
// keeps what it found.
//
//   npx tsx bench/tester-monitors-sweep.ts               # seed 1
//   SWEEP_SEEDS=1,2,3 SWEEP_FAULTS=timestamp-ms,raw-missing-field npx tsx bench/tester-monitors-sweep.ts

import { printFaultSweep } from './lib/fault-sweep.js';
import { failedChecks, loadMonitors, runMonitors } from '../test/tester/monitors-sweep.js';

await printFaultSweep({ load: loadMonitors, run: runMonitors, failedChecks });
