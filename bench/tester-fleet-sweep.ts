// The fault sweep on the Fleet service (test/tester/fixtures/fleet.openapi.yaml, round 8: the fleet team's own OpenAPI
// 3.1 document, imported as `servicespec import openapi` makes it, served by the hand-written
// test/tester/fixtures/fleet-server.mjs): every plantable fault, one at a time, under a default tester run (only the
// seed varies; the fleet key given as `--header`). Prints, per fault and seed, whether the run failed and which checks
// failed, then the unfaulted server's verdict per seed (about 2–4 s a run); tester-fleet-faults.test.ts keeps what
// it found.
//
//   SWEEP_SEEDS=1,2 npx tsx bench/tester-fleet-sweep.ts
//   SWEEP_FAULTS=link-drops-filter,offset-past-end-500 npx tsx bench/tester-fleet-sweep.ts

import { printFaultSweep } from './lib/fault-sweep.js';
import { failedChecks, loadFleet, runFleet } from '../test/tester/fleet-sweep.js';

await printFaultSweep({ load: loadFleet, run: runFleet, failedChecks });
