// The fault sweep on the Stockroom service (test/tester/fixtures/stockroom.openapi.yaml, round 10: a stockroom team's
// Go-style OpenAPI 3.1 document, imported as `servicespec import openapi` makes it, served by the hand-written
// test/tester/fixtures/stockroom-server.mjs): every plantable fault, one at a time, under a default tester run (only
// the seed varies; the team's key given as `--header`, a read-only key as `--limited-header`). Prints, per fault and
// seed, whether the run failed and which checks failed, then the unfaulted server's verdict per seed;
// tester-stockroom-faults.test.ts keeps what it found.
//
//   SWEEP_SEEDS=1,2 npx tsx bench/tester-stockroom-sweep.ts
//   SWEEP_FAULTS=sort-ignored,link-prev-missing npx tsx bench/tester-stockroom-sweep.ts

import { printFaultSweep } from './lib/fault-sweep.js';
import { failedChecks, loadStockroom, runStockroom } from '../test/tester/stockroom-sweep.js';

await printFaultSweep({ load: loadStockroom, run: runStockroom, failedChecks });
