// The tester on a spec whose paths bind fields (`bind`): it fills each bound path parameter from the objects it
// made (a read by username, a repository under its owner), and every check passes against the runtime.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startSpec, type OrdersServer } from './helpers.js';

const SPEC = new URL('../fixtures/path-bindings.yaml', import.meta.url).pathname;

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpec(SPEC);
});
afterAll(async () => {
  await s?.close();
});

it('path-bindings.yaml: every check passes, and every operation is reached with a success answer', async () => {
  const report = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 5, runs: 5 });
  const failed = report.results.filter((r) => r.outcome === 'failed');
  expect(failed.map((r) => [r.check, r.target, r.failure?.expected, r.failure?.actual])).toEqual([]);
  const valid = report.results.filter((r) => r.check === 'endpoints.valid-requests');
  expect(valid.map((r) => [r.target, r.outcome]).sort()).toEqual(
    ['createRepo', 'createUser', 'deleteRepo', 'deleteUser', 'getRepo', 'getUser', 'listRepos', 'replaceRepo', 'updateUser'].map((t) => [t, 'passed']),
  );
}, 120_000);

// A create that binds a key (PUT /things/{id} with a client-given identifier): the tester puts each drawn identifier
// in both the body and the path, so every create succeeds and every read finds what it made.
const PUT_CREATE = `servicespec: 1
resources:
  Thing:
    identifier_source: client
    fields:
      id: { type: string, minLength: 3, maxLength: 30, pattern: '^[a-z0-9]+$' }
      label: { type: string, maxLength: 40 }
endpoints:
  operations:
    putThing: { method: PUT, path: '/things/{id}', action: create, resource: Thing, bind: { id: id } }
    getThing: { method: GET, path: '/things/{id}', action: read, resource: Thing }
authentication:
  default: none
errors:
  codes:
    not_found: { status: 404, when: [missing_resource, route_not_found] }
    invalid: { status: 400, when: [validation, malformed_request, unsupported_media_type, headers_too_large, body_too_large] }
    conflict: { status: 409, when: [unique_conflict, method_not_allowed] }
    failed: { status: 500, when: [internal] }
`;

it('a create binding a client-given identifier: every check passes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'servicespec-put-create-'));
  const file = join(dir, 'things.yaml');
  writeFileSync(file, PUT_CREATE);
  const t = await startSpec(file);
  try {
    const report = await testService(t.model, { baseUrl: t.url, ...t.options, seed: 2, runs: 5 });
    expect(report.results.filter((r) => r.outcome === 'failed').map((r) => [r.check, r.target, r.failure?.expected, r.failure?.actual])).toEqual([]);
    expect(report.results.find((r) => r.check === 'endpoints.valid-requests' && r.target === 'putThing')?.outcome).toBe('passed');
  } finally {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
