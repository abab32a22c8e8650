// The generated client over every paging style (docs/format.md, "List shapes"): compiled by tsc --strict with a
// typed driver that reads each answer by its own type and iterates the offset, page, named-cursor and
// after (Stripe's starting_after) lists to the end, against the real runtime on SQLite.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateClient } from '../../src/export/export-client.js';
import { compileSpecText } from '../../src/program.js';
import { startService, type Running } from '../runtime/helpers.js';
import { buildDriver, tempDir } from './helpers.js';

const SPEC = `
servicespec: 1
resources:
  Pet:
    fields:
      id: { type: integer, readOnly: true }
      name: { type: string }
endpoints:
  operations:
    createPet: { method: POST, path: /pets, action: create, resource: Pet }
    listPets: { method: GET, path: /pets, action: list, resource: Pet }
    listNamed: { method: GET, path: /n/pets, action: list, resource: Pet, paging: { items: data, next: after, total: count } }
    listOffset: { method: GET, path: /o/pets, action: list, resource: Pet, paging: { style: offset, items: data, total: total } }
    listPages: { method: GET, path: /p/pets, action: list, resource: Pet, paging: { style: page, body: array, link: true } }
    listAll: { method: GET, path: /all/pets, action: list, resource: Pet, paging: { style: none, body: array } }
    listTokens: { method: GET, path: /t/pets, action: list, resource: Pet, paging: { items: pets, next: nextPageToken, params: { limit: pageSize, cursor: pageToken } } }
    listSkip: { method: GET, path: /s/pets, action: list, resource: Pet, paging: { style: offset, body: array, params: { offset: skip, limit: top } } }
    listNumbered: { method: GET, path: /nb/pets, action: list, resource: Pet, paging: { style: page, body: array, params: { page: page_number, limit: page_size } } }
    listAfter: { method: GET, path: /a/pets, action: list, resource: Pet, paging: { style: after, items: data, has_more: has_more } }
    listAfterBare: { method: GET, path: /ab/pets, action: list, resource: Pet, paging: { style: after, body: array } }
    listTenant:
      method: GET
      path: /tenant/pets
      action: list
      resource: Pet
      paging: { style: offset, body: array }
      headers: { X-Tenant: { type: uuid } }
      query: { hint: { type: integer, optional: true } }
    readPet: { method: GET, path: "/pets/{id}", action: read, resource: Pet, headers: { X-Tenant: { type: uuid } } }
authentication:
  default: none
errors:
  codes:
    bad: { status: 422, when: [validation] }
    other: { status: 400, when: [malformed_request, route_not_found, method_not_allowed, unsupported_media_type, internal, unique_conflict] }
`;

const DRIVER = `
import { ServiceClient } from './client.js';

const TENANT = '0190a7e4-5b0c-7000-8000-000000000001';

export async function drive(baseUrl: string): Promise<Record<string, unknown>> {
  const client = new ServiceClient({ baseUrl });
  for (const name of ['a', 'b', 'c', 'd', 'e']) await client.createPet({ name });
  const named: string[] = [];
  for await (const p of client.listNamedAll({ limit: 2 })) named.push(p.name);
  const offset: string[] = [];
  for await (const p of client.listOffsetAll({ limit: 2 })) offset.push(p.name);
  const pages: string[] = [];
  for await (const p of client.listPagesAll({ per_page: 2 })) pages.push(p.name);
  const first = await client.listOffset({ limit: 2, offset: 3 });
  const total: number = first.total;
  const all: { id: number; name: string }[] = await client.listAll();
  const tokens: string[] = [];
  for await (const p of client.listTokensAll({ pageSize: 2 })) tokens.push(p.name);
  const skip: string[] = [];
  for await (const p of client.listSkipAll({ top: 2 })) skip.push(p.name);
  const numbered: string[] = [];
  for await (const p of client.listNumberedAll({ page_size: 2 })) numbered.push(p.name);
  const after1: string[] = [];
  for await (const p of client.listAfterAll({ limit: 2 })) after1.push(p.name);
  const afterBare: string[] = [];
  for await (const p of client.listAfterBareAll({ limit: 2 })) afterBare.push(p.name);
  const one = await client.listTokens({ pageSize: 1 });
  const token: string | null = one.nextPageToken;
  const second = await client.listTokens({ pageSize: 1, pageToken: token ?? undefined });
  // A built-in action's declared headers (operation.headers): a required argument, sent with every page.
  const tenant: string[] = [];
  for await (const p of client.listTenantAll({ limit: 2, hint: 1 }, { 'X-Tenant': TENANT })) tenant.push(p.name);
  const read = await client.readPet(all[0]!.id, { 'X-Tenant': TENANT });
  const n = await client.listNamed({ limit: 1 });
  const after: string | null = n.after;
  return { named, offset, pages, firstPage: first.data.map((p) => p.name), total, all: all.map((p) => p.name), count: n.count, after: typeof after, tokens, skip, numbered, second: second.pets.map((p) => p.name), after1, afterBare, tenant, read: read.name };
}
`;

describe('the generated client over list shapes', () => {
  const tmp = tempDir('servicespec-client-lists-');
  let service: Running;
  beforeAll(async () => {
    const c = compileSpecText(SPEC);
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    service = await startService(c.model!);
    writeFileSync(join(tmp.path, 'client.ts'), generateClient(c.model!).code);
  });
  afterAll(async () => {
    await service?.close();
    tmp.remove();
  });

  it('types each answer and iterates offset, page, named-cursor and after lists to the end, a list declaring headers too', async () => {
    writeFileSync(join(tmp.path, 'driver.ts'), DRIVER);
    const { output, driver } = await buildDriver<{ drive: (url: string) => Promise<Record<string, unknown>> }>(tmp.path, ['client.ts', 'driver.ts']);
    expect(output).toBe('');
    expect(await driver.drive(service.url)).toEqual({
      named: ['a', 'b', 'c', 'd', 'e'],
      offset: ['a', 'b', 'c', 'd', 'e'],
      pages: ['a', 'b', 'c', 'd', 'e'],
      firstPage: ['d', 'e'],
      total: 5,
      all: ['a', 'b', 'c', 'd', 'e'],
      count: 5,
      after: 'string',
      tokens: ['a', 'b', 'c', 'd', 'e'],
      skip: ['a', 'b', 'c', 'd', 'e'],
      numbered: ['a', 'b', 'c', 'd', 'e'],
      second: ['b'],
      after1: ['a', 'b', 'c', 'd', 'e'],
      afterBare: ['a', 'b', 'c', 'd', 'e'],
      tenant: ['a', 'b', 'c', 'd', 'e'],
      read: 'a',
    });
  }, 120_000);
});
