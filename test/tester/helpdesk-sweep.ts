// The Helpdesk sweep (round 12)'s harness: fixtures/helpdesk-drf.openapi.yaml (a Django REST Framework service's
// document as drf-spectacular generates it) imported as `servicespec import openapi` makes it (nothing edited), and
// the tester run against fixtures/helpdesk-drf-server.mjs (a hand-written node:http service imitating DRF's answers,
// in this process) with the named faults planted, as `servicespec test` runs with the agent's DRF token given
// (`--header 'Authorization: Token …'`). Used by tester-helpdesk-faults.test.ts and bench/tester-helpdesk-sweep.ts.

import type { Server } from 'node:http';
import { createImportedSweep } from './imported-sweep.js';

export { failedChecks } from './imported-sweep.js';

interface HelpdeskModule {
  FAULTS: Record<string, string>;
  HELPDESK_TOKEN: string;
  createHelpdeskServer(o: { faults?: string[] }): Server;
}

const sweep = createImportedSweep<HelpdeskModule>({
  doc: new URL('./fixtures/helpdesk-drf.openapi.yaml', import.meta.url),
  server: new URL('./fixtures/helpdesk-drf-server.mjs', import.meta.url),
  create: (m, faults) => m.createHelpdeskServer({ faults }),
  options: (m) => ({ credentials: { headers: { Authorization: `Token ${m.HELPDESK_TOKEN}` } } }),
});

export const HELPDESK_DOC = sweep.doc;
export const loadHelpdesk = sweep.load;
export const importHelpdesk = sweep.importDoc;
export const runHelpdesk = sweep.run;
