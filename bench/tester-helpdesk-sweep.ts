// The fault sweep on the Helpdesk service (test/tester/fixtures/helpdesk-drf.openapi.yaml, round 12: a Django REST
// Framework service's document as drf-spectacular generates it, imported as `servicespec import openapi` makes it,
// served by the hand-written test/tester/fixtures/helpdesk-drf-server.mjs imitating DRF's answers): every plantable
// fault, one at a time, under a default tester run (only the seed varies; the agent's token given as
// `--header 'Authorization: Token …'`). Prints, per fault and seed, whether the run failed and which checks failed,
// then the unfaulted server's verdict per seed; tester-helpdesk-faults.test.ts keeps what it found.
//
//   SWEEP_SEEDS=1,2 npx tsx bench/tester-helpdesk-sweep.ts
//   SWEEP_FAULTS=ordering-ignored,patch-replaces npx tsx bench/tester-helpdesk-sweep.ts

import { printFaultSweep } from './lib/fault-sweep.js';
import { failedChecks, loadHelpdesk, runHelpdesk } from '../test/tester/helpdesk-sweep.js';

await printFaultSweep({ load: loadHelpdesk, run: runHelpdesk, failedChecks });
