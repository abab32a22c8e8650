// The generated client over response envelopes (docs/format.md, "Response envelopes"): each answer typed as the
// envelope with the object or page in its data field, the offset list and the cursor list whose next cursor is in
// the envelope iterated to the end; compiled by tsc --strict and run against the real runtime.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateClient } from '../../src/export/export-client.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { startService, type Running } from '../runtime/helpers.js';
import { buildDriver, tempDir } from './helpers.js';

const SPEC = `
servicespec: 1
resources:
  Gif:
    fields:
      id: { type: integer, readOnly: true }
      title: { type: string }
endpoints:
  envelope:
    data: data
    fields:
      ok: { type: boolean, default: true }
      meta: { type: object, fields: { msg: { type: string }, status: { type: integer } } }
      pagination: { type: object, optional: true, fields: { total_count: { type: integer }, offset: { type: integer } } }
    status: meta.status
    status_text: meta.msg
    total: pagination.total_count
    offset: pagination.offset
  operations:
    createGif: { method: POST, path: /gifs, action: create, resource: Gif }
    getGif: { method: GET, path: '/gifs/{id}', action: read, resource: Gif }
    listGifs: { method: GET, path: /gifs, action: list, resource: Gif, paging: { style: offset, body: array } }
    listCursor:
      method: GET
      path: /c/gifs
      action: list
      resource: Gif
      paging: { body: array }
      envelope: { data: results, fields: { paging: { type: object, fields: { next: { type: string, nullable: true } } } }, next: paging.next }
authentication:
  default: none
errors:
  codes:
    bad: { status: 422, when: [validation] }
    other: { status: 400, when: [malformed_request, route_not_found, method_not_allowed, unsupported_media_type, internal, unique_conflict, missing_resource] }
`;

const DRIVER = `
import { ServiceClient } from './client.js';

export async function drive(baseUrl: string): Promise<Record<string, unknown>> {
  const client = new ServiceClient({ baseUrl });
  let id = 0;
  for (const title of ['a', 'b', 'c']) id = (await client.createGif({ title })).data.id;
  const one = await client.getGif(id);
  const status: number = one.meta.status;
  // A constant is typed as its one value.
  const ok: true = one.ok;
  const title: string = one.data.title;
  const offset: string[] = [];
  for await (const g of client.listGifsAll({ limit: 2 })) offset.push(g.title);
  const page = await client.listGifs({ limit: 1, offset: 1 });
  const cursor: string[] = [];
  for await (const g of client.listCursorAll({ limit: 2 })) cursor.push(g.title);
  return { ok, status, title, msg: one.meta.msg, offset, total: page.pagination?.total_count, at: page.pagination?.offset, cursor };
}
`;

describe('the generated client over response envelopes', () => {
  const tmp = tempDir('servicespec-client-envelope-');
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

  it('types each answer as its envelope and iterates the lists to the end', async () => {
    writeFileSync(join(tmp.path, 'driver.ts'), DRIVER);
    const { output, driver } = await buildDriver<{ drive: (url: string) => Promise<Record<string, unknown>> }>(tmp.path, ['client.ts', 'driver.ts']);
    expect(output).toBe('');
    expect(await driver.drive(service.url)).toEqual({
      ok: true,
      status: 200,
      title: 'c',
      msg: 'OK',
      offset: ['a', 'b', 'c'],
      total: 3,
      at: 1,
      cursor: ['a', 'b', 'c'],
    });
  }, 120_000);

  it('exports a constant as the one value it is (enum), beside its default', () => {
    const doc = exportOpenApi(compileSpecText(SPEC).model!).document as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    const answer = doc.paths['/gifs/{id}']!.get!.responses['200'] as { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
    expect(answer.content['application/json']!.schema.properties.ok).toMatchObject({ type: 'boolean', default: true, enum: [true] });
  });
});
