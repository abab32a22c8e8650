// The tester against `servicespec serve examples/orders.yaml` in a child process, with its declared rate budget
// (100 requests a minute per credential): the checks that fit the budget pass.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiKey, createClient } from '../../src/runtime/auth/auth-credentials.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { testService } from '../../src/tester/tester-run.js';
import type { TestOptions } from '../../src/tester/tester-types.js';
import { startChildServer, type ChildServer } from '../runtime/child-server.js';
import { compileOrders, ORDERS } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'servicespec-tester-serve-'));
const db = join(dir, 'orders.db');
let server: ChildServer;
let options: Omit<TestOptions, 'baseUrl'>;
const compiled = compileOrders();

beforeAll(async () => {
  server = await startChildServer([ORDERS, '--db', `sqlite:${db}`, '--handlers', 'examples/orders-handlers.js']);
  const storage = createSqliteStorage({ path: db });
  const all = ['orders:read', 'orders:write', 'customers:read', 'customers:write'];
  const alice = await createApiKey(storage, compiled.model, { subject: 'alice', scopes: all });
  const bob = await createApiKey(storage, compiled.model, { subject: 'bob', scopes: all });
  const carol = await createApiKey(storage, compiled.model, { subject: 'carol', scopes: ['orders:read'] });
  const pay = await createClient(storage, compiled.model, { subject: 'alice', scopes: ['orders:write'] });
  await storage.close();
  options = {
    credentials: { headers: { 'X-API-Key': alice.key }, clientId: pay.clientId, clientSecret: pay.clientSecret },
    other: { headers: { 'X-API-Key': bob.key } },
    limited: { headers: { 'X-API-Key': carol.key } },
    limitedScopes: ['orders:read'],
    sourceMap: compiled.sourceMap,
    specText: readFileSync(ORDERS, 'utf8'),
  };
}, 60_000);

afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
  rmSync(dir, { recursive: true, force: true });
});

it('passes the state machine, credential, limit and version checks against servicespec serve', async () => {
  const report = await testService(compiled.model, {
    baseUrl: server.url,
    ...options,
    seed: 2,
    runs: 3,
    only: ['states', 'authentication.no-credential', 'authentication.missing-scope', 'limits.body-size', 'versioning.unsupported'],
  });
  expect(report.results.filter((r) => r.outcome === 'failed').map((r) => [r.check, r.target, r.failure?.actual])).toEqual([]);
  expect(report.stoppedBy).toBeUndefined();
  // Four reachable states (states.pairs, every transition tried in each: 4 × 3 pairs) and the random sequences.
  expect(report.parts.find((p) => p.part === 'states')!.passed).toBe(5);
  expect(report.statePairs).toEqual({ tried: 12, total: 12 });
  expect(report.parts.find((p) => p.part === 'authentication')!.passed).toBeGreaterThanOrEqual(20);
}, 90_000);
