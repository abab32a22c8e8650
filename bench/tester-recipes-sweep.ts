// The fault sweep on the Recipes service (test/tester/fixtures/recipes.openapi.yaml, round 11: a recipes team's
// OpenAPI 3.1 document exactly as FastAPI (pydantic v2) generates it, imported as `servicespec import openapi` makes
// it, served by the hand-written test/tester/fixtures/recipes-server.mjs imitating FastAPI's answers): every plantable
// fault, one at a time, under a default tester run (only the seed varies; the team's token given as `--bearer`, a
// read-only token as `--limited-bearer`). Prints, per fault and seed, whether the run failed and which checks failed,
// then the unfaulted server's verdict per seed; tester-recipes-faults.test.ts keeps what it found.
//
//   SWEEP_SEEDS=1,2 npx tsx bench/tester-recipes-sweep.ts
//   SWEEP_FAULTS=pages-floor,order-by-ignored npx tsx bench/tester-recipes-sweep.ts

import { printFaultSweep } from './lib/fault-sweep.js';
import { failedChecks, loadRecipes, runRecipes } from '../test/tester/recipes-sweep.js';

await printFaultSweep({ load: loadRecipes, run: runRecipes, failedChecks });
