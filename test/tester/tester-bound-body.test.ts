// The tester on a spec whose update, replace and transition paths bind fields (nested ones under a key unique
// together, a unique field, a scope): every body it sends to a change holds the path's values, as a correct server
// requires (a body naming another value is refused, docs/format.md "Path parameters bound to fields"), so every
// check passes against the runtime, every operation reached with a success answer.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startSpec, type OrdersServer } from './helpers.js';
import { startProxy, type ProxyRequest } from './mutant-proxy.js';

const SPEC = new URL('../fixtures/bound-body.yaml', import.meta.url).pathname;

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpec(SPEC);
});
afterAll(async () => {
  await s?.close();
});

it('bound-body.yaml: every check passes, and every operation is reached with a success answer', async () => {
  const report = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 5, runs: 5 });
  const failed = report.results.filter((r) => r.outcome === 'failed');
  expect(failed.map((r) => [r.check, r.target, r.failure?.expected, r.failure?.actual])).toEqual([]);
  const valid = report.results.filter((r) => r.check === 'endpoints.valid-requests');
  // Transitions are walked by the states part: the one here, which requires the bound owner, among them.
  const ops = s.model.endpoints!.operations.filter((o) => o.action !== 'transition').map((o) => o.id);
  expect(valid.map((r) => [r.target, r.outcome]).sort()).toEqual(ops.sort().map((t) => [t, 'passed']));
  expect(report.results.filter((r) => r.check === 'states.pairs').map((r) => [r.target, r.outcome])).toEqual([['Repo in open', 'passed']]);
  // Each bound field an update or replace writes, given another value than the path's: refused, as the format says.
  const disagreeing = report.results.filter((r) => r.check === 'endpoints.invalid-requests' && r.target.includes(" other than the path's "));
  expect(disagreeing.map((r) => [r.target, r.outcome]).sort()).toEqual(
    [
      "replaceLease: metadata.name other than the path's {name}",
      "replaceLease: metadata.namespace other than the path's {namespace}",
      "replaceRepo: owner other than the path's {username}",
      "replaceTag: name other than the path's {name}",
      "updateLease: metadata.name other than the path's {name}",
      "updateLease: metadata.namespace other than the path's {namespace}",
      "updateRepo: owner other than the path's {username}",
      "updateTag: name other than the path's {name}",
    ].map((t) => [t, 'passed']),
  );
}, 180_000);

// A service that takes a change whose body renames the object (here: the body's name dropped, so the change is
// accepted) is caught by the check above.
it('mutant: a replace or update whose body names another tag is accepted, and caught', async () => {
  const proxy = await startProxy(s.url, {
    request: (r: ProxyRequest) => {
      const m = /^\/tags\/([^/?]+)$/.exec(r.path);
      if (!m || (r.method !== 'PUT' && r.method !== 'PATCH')) return r;
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(r.body.toString('utf8')) as Record<string, unknown>;
      } catch {
        return r;
      }
      // Only a valid other name (one breaking the field's pattern is still refused, as it would be).
      if (typeof body.name !== 'string' || !/^[a-z0-9-]+$/.test(body.name) || body.name === decodeURIComponent(m[1]!)) return r;
      delete body.name;
      return { ...r, body: Buffer.from(JSON.stringify(body)) };
    },
  });
  try {
    const report = await testService(s.model, { baseUrl: proxy.url, ...s.options, seed: 5, runs: 5 });
    const failed = report.results.filter((r) => r.outcome === 'failed').map((r) => r.target);
    expect(failed.sort()).toEqual(["replaceTag: name other than the path's {name}", "updateTag: name other than the path's {name}"]);
  } finally {
    await proxy.close();
  }
}, 180_000);
