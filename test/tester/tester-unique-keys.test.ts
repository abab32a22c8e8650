// endpoints.unique holds keys unique together (unique_keys) too: a second bin with the same code in the same
// warehouse answers the declared unique_conflict. Before, the check covered unique fields and client identifiers
// only, so a warehouse service that stored duplicate bins passed (an outside sweep's bin_dup_ok).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { testService } from '../../src/tester/tester-run.js';
import { startService, type Running } from '../runtime/helpers.js';
import { startProxy } from './mutant-proxy.js';

const SPEC = `
servicespec: 1
resources:
  Warehouse:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string, maxLength: 40 }
  Bin:
    unique_keys: [[warehouse_id, code]]
    fields:
      warehouse_id: { type: ref, to: Warehouse }
      code: { type: string, pattern: '^[A-Z]{2}-[0-9]{3}$' }
      capacity: { type: integer, minimum: 1, maximum: 1000 }
endpoints:
  operations:
    createWarehouse: { method: POST, path: /warehouses, action: create, resource: Warehouse }
    getWarehouse: { method: GET, path: '/warehouses/{id}', action: read, resource: Warehouse }
    createBin: { method: POST, path: '/warehouses/{warehouseId}/bins', action: create, resource: Bin, bind: { warehouseId: warehouse_id } }
    getBin: { method: GET, path: '/warehouses/{warehouseId}/bins/{code}', action: read, resource: Bin, bind: { warehouseId: warehouse_id, code: code } }
authentication:
  default: none
errors:
  body: problem
  codes:
    invalid: { status: 422, when: [validation, reference_not_found] }
    unreadable: { status: 400, when: [malformed_request, unsupported_media_type] }
    missing: { status: 404, when: [missing_resource, route_not_found] }
    taken: { status: 409, when: [unique_conflict] }
`;

describe('endpoints.unique and keys unique together', () => {
  let s: Running;
  const compiled = compileSpecText(SPEC);
  beforeAll(async () => {
    expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    s = await startService(compiled.checked!, { fastPaths: true });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('passes the served spec: the second bin with the same code in the same warehouse is refused', async () => {
    const report = await testService(compiled.checked!, { baseUrl: s.url, seed: 1, only: ['endpoints.unique'] });
    expect(report.results.filter((r) => r.check === 'endpoints.unique' && r.target === 'createBin').map((r) => r.outcome)).toEqual(['passed']);
  }, 60_000);

  it('fails a service that stores the duplicate', async () => {
    // The mutant answers a refused duplicate bin as made (201, the object sent).
    const proxy = await startProxy(s.url, {
      response: (res, req) =>
        req.method === 'POST' && /\/bins$/.test(req.path) && res.status === 409
          ? {
              status: 201,
              headers: { 'content-type': 'application/json' },
              body: Buffer.from(JSON.stringify({ ...JSON.parse(req.body.toString('utf8')), warehouse_id: req.path.split('/')[2] })),
            }
          : res,
    });
    try {
      const report = await testService(compiled.checked!, { baseUrl: proxy.url, seed: 1, only: ['endpoints.unique'] });
      const failed = report.results.filter((r) => r.outcome === 'failed');
      expect(failed.map((r) => [r.check, r.target])).toEqual([['endpoints.unique', 'createBin']]);
      expect(failed[0]!.failure?.expected).toMatch(/same warehouse_id and code .* unique together/);
    } finally {
      await proxy.close();
    }
  }, 60_000);
});
