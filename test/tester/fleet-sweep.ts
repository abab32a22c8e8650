// The Fleet sweep (round 8)'s harness: fixtures/fleet.openapi.yaml imported as `servicespec import openapi` makes it
// (nothing edited), and the tester run against fixtures/fleet-server.mjs (a hand-written node:http service of the
// document, in this process) with the named faults planted, as `servicespec test` runs with the fleet key given
// (`--header 'X-Fleet-Key: …'`). Used by tester-fleet-faults.test.ts and bench/tester-fleet-sweep.ts.

import type { Server } from 'node:http';
import { createImportedSweep } from './imported-sweep.js';

export { failedChecks } from './imported-sweep.js';

/** The fleet key the server takes (it takes fleet-key-other too). */
export const FLEET_KEY = 'fleet-key-main';

interface FleetModule {
  FAULTS: Record<string, string>;
  createFleetServer(o: { faults?: string[] }): Server;
}

const sweep = createImportedSweep<FleetModule>({
  doc: new URL('./fixtures/fleet.openapi.yaml', import.meta.url),
  server: new URL('./fixtures/fleet-server.mjs', import.meta.url),
  create: (m, faults) => m.createFleetServer({ faults }),
  options: () => ({ credentials: { headers: { 'X-Fleet-Key': FLEET_KEY } } }),
});

export const FLEET_DOC = sweep.doc;
export const loadFleet = sweep.load;
export const importFleet = sweep.importDoc;
export const runFleet = sweep.run;
