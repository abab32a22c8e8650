// The fault sweep on the Loans service (test/tester/fixtures/loans.yaml, served by the hand-written
// test/tester/fixtures/loans-server.mjs): every plantable fault, one at a time, under a default tester run (only
// the seed varies; three subjects' API keys, as `servicespec test` is given them). Prints, per fault and seed,
// whether the run failed and which checks failed, then the unfaulted server's verdict per seed. Too slow for the
// suite (about 7 s a run); tester-loans-faults.test.ts keeps what it found.
//
//   npx tsx bench/tester-loans-sweep.ts               # seed 1
//   SWEEP_SEEDS=1,2,3 SWEEP_FAULTS=tie-order,owner-list npx tsx bench/tester-loans-sweep.ts
//   SWEEP_RATE_LIMITS=1 …                             # also pass --rate-limits (the spec's budget is 100000 a minute)

import { printFaultSweep } from './lib/fault-sweep.js';
import { failedChecks, loadLoans, runLoans } from '../test/tester/loans-sweep.js';

const rateLimits = process.env.SWEEP_RATE_LIMITS === '1';
await printFaultSweep({ load: loadLoans, run: (faults, options) => runLoans(faults, { ...options, rateLimits }), failedChecks });
