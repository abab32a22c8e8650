// A tagged union's variants are closed: a member another variant has, sent under this variant's tag, is refused. A
// service that checks the tag and takes any variant's members (an outside sweep's discriminator-loose: an assignee
// `{ kind: user, slug }` stored) is caught by endpoints.invalid-requests. Before, the tester sent an unknown tag and a
// variant without a required member only, and the fault escaped on every seed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startService, type Running } from '../runtime/helpers.js';
import { checkedModel } from '../support/specs.js';
import { startProxy, type ProxyRequest } from './mutant-proxy.js';

const SPEC = `
servicespec: 1
resources:
  Issue:
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string, maxLength: 40 }
      assignee:
        type: union
        discriminator: kind
        variants:
          user: { fields: { login: { type: string, maxLength: 20 } } }
          team: { fields: { slug: { type: string, maxLength: 20 } } }
endpoints:
  operations:
    createIssue: { method: POST, path: /issues, action: create, resource: Issue }
    getIssue: { method: GET, path: '/issues/{id}', action: read, resource: Issue }
authentication:
  default: none
errors:
  codes:
    invalid: { status: 400, when: [validation, malformed_request, unsupported_media_type] }
    missing: { status: 404, when: [missing_resource, route_not_found] }
`;

/** The members of the other variant dropped before the service sees them: what a service taking any of them stores. */
function loose(r: ProxyRequest): ProxyRequest {
  if (r.method !== 'POST') return r;
  try {
    const b = JSON.parse(r.body.toString('utf8')) as { assignee?: Record<string, unknown> };
    const a = b.assignee;
    if (!a || typeof a !== 'object') return r;
    const keep = a.kind === 'user' ? 'login' : a.kind === 'team' ? 'slug' : undefined;
    if (keep === undefined || !(keep in a)) return r;
    const assignee = { kind: a.kind, [keep]: a[keep] };
    return { ...r, body: Buffer.from(JSON.stringify({ ...b, assignee })) };
  } catch {
    return r;
  }
}

const failures = (report: Awaited<ReturnType<typeof testService>>) => report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}`);

let s: Running;
beforeAll(async () => {
  s = await startService(checkedModel(SPEC));
});
afterAll(() => s.close());

describe("a tagged union's variant with another variant's member", () => {
  it('is refused by the faithful service, and a service taking it is caught on every seed', async () => {
    const lax = await startProxy(s.url, { request: loose });
    try {
      for (const seed of [1, 2, 3]) {
        expect(failures(await testService(checkedModel(SPEC), { baseUrl: s.url, seed, only: ['endpoints'] }))).toEqual([]);
        expect(failures(await testService(checkedModel(SPEC), { baseUrl: lax.url, seed, only: ['endpoints'] }))).toEqual(
          expect.arrayContaining([
            "endpoints.invalid-requests createIssue: assignee (variant user, sent team's slug) with an unknown field",
            "endpoints.invalid-requests createIssue: assignee (variant team, sent user's login) with an unknown field",
          ]),
        );
      }
    } finally {
      await lax.close();
    }
  }, 90_000);
});
