// A resource the spec gives no create operation (an imported read beside nothing that makes the object): the checks
// that need one of its objects say so — not that a create "did not succeed", which there is none of.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startSpecText, type OrdersServer } from './helpers.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText(
    'gifs.yaml',
    `servicespec: 1
resources:
  Gif:
    fields:
      id: { type: string, readOnly: true }
      title: { type: string, maxLength: 40 }
endpoints:
  operations:
    getGif: { method: GET, path: "/gifs/{id}", action: read, resource: Gif, errors: [missing] }
authentication:
  default: { schemes: [key] }
  schemes:
    key: { type: api_key, in: header, name: X-API-Key, description: Keys issued by hand. }
errors:
  body: problem
  codes:
    missing: { status: 404, when: [missing_resource, route_not_found] }
    nokey: { status: 401, when: [missing_credential, invalid_credential] }
    other: { status: 400, when: [validation, malformed_request, method_not_allowed, headers_too_large, unsupported_media_type, body_too_large, internal] }
`,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

it('the checks that need a Gif say the spec has no create operation for it', async () => {
  const r = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 1, only: ['authentication', 'endpoints.valid-requests'] });
  const reasons = new Set(r.results.filter((x) => x.target === 'getGif' && x.outcome === 'skipped').map((x) => x.reason));
  const said = 'no Gif to address: the spec has no create operation for Gif, and the tester makes objects only through one';
  expect(r.results.find((x) => x.check === 'authentication.no-credential')?.reason).toBe(said);
  expect(r.results.find((x) => x.check === 'authentication.bad-credential')?.reason).toBe(said);
  expect([...reasons].some((x) => x?.includes('did not succeed'))).toBe(false);
  expect(r.results.filter((x) => x.outcome === 'failed')).toEqual([]);
}, 60_000);
