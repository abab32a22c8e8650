// The Stockroom sweep (round 10)'s harness: fixtures/stockroom.openapi.yaml imported as `servicespec import openapi`
// makes it (nothing edited), and the tester run against fixtures/stockroom-server.mjs (a hand-written node:http
// service of the document, in this process) with the named faults planted, as `servicespec test` runs with the
// team's key given (`--header X-Api-Key:…`) and a key holding the read role only (`--limited-header X-Api-Key:…
// --limited-scopes inventory:read`). Used by tester-stockroom-faults.test.ts and bench/tester-stockroom-sweep.ts.

import type { Server } from 'node:http';
import { createImportedSweep } from './imported-sweep.js';

export { failedChecks } from './imported-sweep.js';

interface StockroomModule {
  FAULTS: Record<string, string>;
  STOCKROOM_KEY: string;
  STOCKROOM_READER_KEY: string;
  createStockroomServer(o: { faults?: string[] }): Server;
}

const sweep = createImportedSweep<StockroomModule>({
  doc: new URL('./fixtures/stockroom.openapi.yaml', import.meta.url),
  server: new URL('./fixtures/stockroom-server.mjs', import.meta.url),
  create: (m, faults) => m.createStockroomServer({ faults }),
  options: (m) => ({
    credentials: { headers: { 'X-Api-Key': m.STOCKROOM_KEY } },
    limited: { headers: { 'X-Api-Key': m.STOCKROOM_READER_KEY } },
    limitedScopes: ['inventory:read'],
  }),
});

export const STOCKROOM_DOC = sweep.doc;
export const loadStockroom = sweep.load;
export const importStockroom = sweep.importDoc;
export const runStockroom = sweep.run;
