// A merge-patch update (RFC 7396) merges a map member by member: `{ "labels": { "key": null } }` removes the member
// `key` (docs/format.md, "Maps"). endpoints.invalid-requests sent that body as an invalid one (`labels.key null (not
// nullable)`) and failed a faithful service — `serve` itself — for taking it (an outside sweep's catalog server). And
// a service replacing the map whole with the patch's passed: the members it held and the patch did not name must be
// kept (the sweep's catalog patch-map-replaced).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { PLAIN_ERRORS } from '../support/specs.js';
import { startSpecText, type OrdersServer } from './helpers.js';
import { startProxy } from './mutant-proxy.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText(
    'boxes.yaml',
    `servicespec: 1
resources:
  Box:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string, minLength: 1, maxLength: 20 }
      labels: { type: map, items: { type: string, maxLength: 10 }, optional: true }
endpoints:
  operations:
    createBox: { method: POST, path: /boxes, action: create, resource: Box }
    getBox: { method: GET, path: "/boxes/{id}", action: read, resource: Box }
    patchBox: { method: PATCH, path: "/boxes/{id}", action: update, resource: Box, request_media_type: application/merge-patch+json }
authentication:
  default: none
${PLAIN_ERRORS}`,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

it("sends no null map member as an invalid merge patch, and passes serve's", async () => {
  const run = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 1, only: ['endpoints.invalid-requests'] });
  const patch = run.results.filter((r) => r.check === 'endpoints.invalid-requests' && r.target.startsWith('patchBox: '));
  expect(patch.map((r) => r.target)).not.toContain('patchBox: labels.key null (not nullable)');
  // Still sent: a member of the wrong type, or past its maxLength, and a null name.
  expect(patch.map((r) => r.target)).toEqual(expect.arrayContaining(['patchBox: labels.key of the wrong type', 'patchBox: name null (not nullable)']));
  expect(patch.filter((r) => r.outcome === 'failed')).toEqual([]);
});

it('fails a merge-patch update that replaces the map whole', async () => {
  // A patch naming labels: the map cleared first, then the patch applied, so only the members it names are left.
  const proxy = await startProxy(s.url, {
    response: async (res, req, send) => {
      if (req.method !== 'PATCH' || res.status !== 200) return res;
      const sent = JSON.parse(req.body.toString()) as Record<string, unknown>;
      if (sent.labels === null || typeof sent.labels !== 'object') return res;
      await send({ ...req, body: Buffer.from('{"labels":null}') });
      return send(req);
    },
  });
  try {
    const run = await testService(s.model, { baseUrl: proxy.url, ...s.options, seed: 1, only: ['endpoints.valid-requests'] });
    const patch = run.results.find((r) => r.check === 'endpoints.valid-requests' && r.target === 'patchBox');
    expect(patch?.outcome).toBe('failed');
    expect(patch?.failure?.expected).toMatch(/^labels\..+, left out of the merge patch, kept \(.*\)/);
  } finally {
    await proxy.close();
  }
});

it("passes serve's merge-patch update, which merges the map member by member", async () => {
  const run = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 1, only: ['endpoints.valid-requests'] });
  expect(run.results.filter((r) => r.check === 'endpoints.valid-requests' && r.outcome !== 'passed')).toEqual([]);
});
