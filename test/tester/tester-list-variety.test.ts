// A sort or filter ignored must show even when every object the tester generates shares the value sorted or
// filtered on (a spec without unique fields: each generated body is the same but for its seed). Each case runs on a
// fresh service, so no earlier run's objects vary the values; the list is paged by offset.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startSpec } from './helpers.js';
import { startProxy, type MutantHooks } from './mutant-proxy.js';

const dir = mkdtempSync(join(tmpdir(), 'servicespec-tester-variety-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SPEC = `servicespec: 1
resources:
  Pet:
    fields:
      id: { type: integer, readOnly: true }
      name: { type: string, maxLength: 10 }
      kind: { type: enum, values: [cat, dog, fish] }
endpoints:
  operations:
    createPet: { method: POST, path: /pets, action: create, resource: Pet }
    listPets: { method: GET, path: /pets, action: list, resource: Pet, sort: [name], filter: [kind], paging: { style: offset, items: data } }
authentication:
  default: none
errors:
  body: problem
  codes:
    invalid: { status: 422, when: [validation] }
    other: { status: 400, when: [malformed_request, route_not_found, method_not_allowed, headers_too_large, unsupported_media_type, body_too_large, internal] }
`;

/** The list-paging failures of a run against a fresh service behind a proxy that rewrites requests. */
async function failuresBehind(name: string, request: MutantHooks['request']): Promise<string[]> {
  const spec = join(dir, `${name}.yaml`);
  writeFileSync(spec, SPEC);
  const s = await startSpec(spec);
  const proxy = await startProxy(s.url, { request });
  try {
    const r = await testService(s.model, { baseUrl: proxy.url, ...s.options, seed: 3, only: ['endpoints.list-paging'] });
    return r.results.filter((x) => x.outcome === 'failed').map((f) => `${f.target}: ${f.failure?.expected} | ${f.failure?.actual}`);
  } finally {
    await proxy.close();
    await s.close();
  }
}

const without =
  (param: string): MutantHooks['request'] =>
  (r) =>
    r.method === 'GET' ? { ...r, path: r.path.replace(new RegExp(`([?&])${param}=[^&]*&?`), '$1') } : r;

it('catches a sort ignored', async () => {
  expect(await failuresBehind('sort', without('sort'))).toEqual([expect.stringMatching(/^listPets: items ordered by -?name \| /)]);
}, 120_000);

it('catches a filter ignored', async () => {
  expect(await failuresBehind('filter', without('kind'))).toEqual([expect.stringMatching(/^listPets: only items with kind = \w+ \| an item with kind = /)]);
}, 120_000);

it('passes the faithful service', async () => {
  expect(await failuresBehind('faithful', (r) => r)).toEqual([]);
}, 120_000);
