// A service keeping a value unique that its spec does not say is (OpenAPI has no word for it: a project's key, a
// label's name), answering a repeated one with the conflict its create declares. The tester draws fresh values and
// sends again, rather than failing the service for a value it drew twice: before, an outside sweep's faithful issue
// tracker failed endpoints.valid-requests and endpoints.input-space on every seed (409 "a project with key … exists"),
// and with one project made, paging and other-scope checks did not run. A service answering every create with the
// conflict still fails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startService, type Running } from '../runtime/helpers.js';
import { checkedModel } from '../support/specs.js';
import { startProxy, type ProxyRequest, type ProxyResponse } from './mutant-proxy.js';

const SPEC = (taken: string) => `
servicespec: 1
resources:
  Project:
    fields:
      id: { type: uuid, readOnly: true }
      key: { type: string, pattern: '^[A-Z]{2}$' }
      name: { type: string, minLength: 1, maxLength: 40 }
endpoints:
  operations:
    createProject: { method: POST, path: /projects, action: create, resource: Project, errors: [taken] }
    getProject: { method: GET, path: '/projects/{id}', action: read, resource: Project }
    listProjects: { method: GET, path: /projects, action: list, resource: Project }
authentication:
  default: none
errors:
  codes:
    invalid: { status: 400, when: [validation, malformed_request, unsupported_media_type] }
    missing: { status: 404, when: [missing_resource, route_not_found] }
    taken: { status: 409${taken} }
`;

const conflict = (): ProxyResponse => ({
  status: 409,
  headers: { 'content-type': 'application/problem+json' },
  body: Buffer.from(JSON.stringify({ type: 'about:blank', title: 'Taken', status: 409, code: 'taken' })),
});

/** A create whose key or name another project holds is refused with the declared conflict; `all`: every create is. */
function keepsUnique(all = false) {
  const keys = new Set<string>();
  const names = new Set<string>();
  return (r: ProxyRequest): ProxyRequest | ProxyResponse => {
    if (r.method !== 'POST' || r.path.split('?')[0] !== '/projects') return r;
    try {
      const b = JSON.parse(r.body.toString('utf8')) as { key?: unknown; name?: unknown };
      // A body the service refuses for itself (validation before uniqueness, as services check).
      const valid = Object.keys(b).every((k) => k === 'key' || k === 'name') && typeof b.key === 'string' && typeof b.name === 'string';
      if (!valid || !/^[A-Z]{2}$/.test(b.key as string) || [...(b.name as string)].length > 40 || (b.name as string).length < 1) return r;
      const [key, name] = [b.key as string, b.name as string];
      if (all || keys.has(key) || names.has(name)) return conflict();
      keys.add(key);
      names.add(name);
    } catch {
      // not JSON: the service refuses it itself
    }
    return r;
  };
}

const failures = (report: Awaited<ReturnType<typeof testService>>) =>
  report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}: ${r.failure?.expected} // ${r.failure?.actual.slice(0, 80)}`);

let s: Running;
beforeAll(async () => {
  s = await startService(checkedModel(SPEC('')));
});
afterAll(() => s.close());

describe('a value the service keeps unique without the spec saying so', () => {
  for (const [label, taken] of [
    ['the conflict an operation lists (an import)', ''],
    ['the declared unique_conflict condition', ', when: [unique_conflict]'],
  ] as const)
    it(`answered with ${label}: fresh values are drawn, nothing fails; every create refused still fails`, async () => {
      const unique = await startProxy(s.url, { request: keepsUnique() });
      const refusing = await startProxy(s.url, { request: keepsUnique(true) });
      try {
        for (const seed of [1, 2, 3]) {
          const report = await testService(checkedModel(SPEC(taken)), { baseUrl: unique.url, seed, only: ['endpoints'] });
          expect(failures(report)).toEqual([]);
        }
        const refused = await testService(checkedModel(SPEC(taken)), { baseUrl: refusing.url, seed: 1, only: ['endpoints'] });
        expect(failures(refused).some((f) => f.startsWith('endpoints.valid-requests createProject'))).toBe(true);
      } finally {
        await unique.close();
        await refusing.close();
      }
    }, 120_000);
});
