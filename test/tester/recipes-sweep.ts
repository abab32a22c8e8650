// The Recipes sweep (round 11)'s harness: fixtures/recipes.openapi.yaml (FastAPI's own document) imported as
// `servicespec import openapi` makes it (nothing edited), and the tester run against fixtures/recipes-server.mjs (a
// hand-written node:http service imitating FastAPI's answers, in this process) with the named faults planted, as
// `servicespec test` runs with the team's token given (`--bearer …`, a JWT holding recipes:read and recipes:write) and
// a token holding the read scope only (`--limited-bearer … --limited-scopes recipes:read`), the sign-in left out
// (`--skip login_token_post`). Used by
// tester-recipes-faults.test.ts and bench/tester-recipes-sweep.ts.

import type { Server } from 'node:http';
import { createImportedSweep } from './imported-sweep.js';

export { failedChecks } from './imported-sweep.js';

interface RecipesModule {
  FAULTS: Record<string, string>;
  RECIPES_TOKEN: string;
  RECIPES_READER_TOKEN: string;
  createRecipesServer(o: { faults?: string[] }): Server;
}

const sweep = createImportedSweep<RecipesModule>({
  doc: new URL('./fixtures/recipes.openapi.yaml', import.meta.url),
  server: new URL('./fixtures/recipes-server.mjs', import.meta.url),
  create: (m, faults) => m.createRecipesServer({ faults }),
  options: (m) => ({
    credentials: { bearer: m.RECIPES_TOKEN },
    limited: { bearer: m.RECIPES_READER_TOKEN },
    limitedScopes: ['recipes:read'],
    // `--skip login_token_post`: the sign-in takes a user's name and password, which the tester is not given and
    // cannot draw; every valid body it sends is refused 401, and the operation would be reported not run.
    skip: ['login_token_post'],
  }),
});

export const RECIPES_DOC = sweep.doc;
export const loadRecipes = sweep.load;
export const importRecipes = sweep.importDoc;
export const runRecipes = sweep.run;
