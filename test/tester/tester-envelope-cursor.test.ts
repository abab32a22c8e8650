// A list whose next cursor is in its response envelope beside a bare array (Kubernetes' `{ items, metadata:
// { continue } }`, docs/format.md "Response envelopes": `next`). The tester read the page's next cursor only from a
// page envelope or a Link header, so it never asked for a second page of such a list: a service losing objects after
// the first page passed endpoints.list-paging.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startService, type Running } from '../runtime/helpers.js';
import { checkedModel } from '../support/specs.js';
import { json, startProxy, withJson } from './mutant-proxy.js';

const SPEC = `
servicespec: 1
resources:
  Lease:
    fields:
      id: { type: uuid, readOnly: true }
      holder: { type: string, minLength: 1, maxLength: 30 }
endpoints:
  operations:
    createLease: { method: POST, path: /leases, action: create, resource: Lease, envelope: none }
    getLease: { method: GET, path: '/leases/{id}', action: read, resource: Lease, envelope: none }
    listLeases:
      method: GET
      path: /leases
      action: list
      resource: Lease
      paging: { body: array, params: { cursor: continue } }
      envelope:
        data: items
        fields:
          metadata: { type: object, fields: { continue: { type: string, optional: true } } }
        next: metadata.continue
authentication:
  default: none
errors:
  codes:
    invalid: { status: 422, when: [validation, malformed_request, unsupported_media_type] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
limits:
  page_size: { default: 10, max: 100 }
`;

let service: Running;
beforeAll(async () => {
  service = await startService(checkedModel(SPEC));
});
afterAll(async () => service?.close());

const failed = async (url: string) =>
  (await testService(checkedModel(SPEC), { baseUrl: url, seed: 1, only: ['endpoints.list-paging'] })).results
    .filter((r) => r.outcome === 'failed')
    .map((r) => `${r.check}: ${r.failure?.expected} / ${r.failure?.actual}`);

describe('a list paged by a cursor in its response envelope', () => {
  it('the runtime passes; a service dropping the first object of every later page fails endpoints.list-paging', async () => {
    expect(await failed(service.url)).toEqual([]);
    const lossy = await startProxy(service.url, {
      response: (r, req) => (req.method === 'GET' && req.path.includes('continue=') && r.status === 200 ? withJson(r, dropFirst(json(r))) : r),
    });
    try {
      expect((await failed(lossy.url)).join('\n')).toContain('endpoints.list-paging: every object of the caller across pages');
    } finally {
      await lossy.close();
    }
  });
});

function dropFirst(body: unknown): unknown {
  const b = body as { items: unknown[] };
  return { ...b, items: b.items.slice(1) };
}
