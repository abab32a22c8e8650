// `paging.next_optional`: a list's next cursor left out of the last page (optional, not nullable: Google's
// `nextPageToken`), where the format's page holds it as null there. Imported documents said so became the format's
// null (import-approximated), so serve answered `nextPageToken: null` where the original allows only a string. Each
// reader of the shape is held here: the OpenAPI export, the typed client, the document, diff and the tester's judge
// (the runtime's answers: test/runtime/runtime-list-shapes.test.ts; import: test/import/import-said-page-key.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { generateClient } from '../../src/export/export-client.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';
import { diffModels } from '../../src/diff/diff-run.js';
import { testService } from '../../src/tester/tester-run.js';
import { isObject, readJson, startHandServer, type HandServer } from '../support/hand-server.js';
import { checkedModel } from '../support/specs.js';

const spec = (paging: string) => `servicespec: 1
resources:
  File:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string, maxLength: 20 }
endpoints:
  operations:
    createFile: { method: POST, path: /files, action: create, resource: File }
    listFiles: { method: GET, path: /files, action: list, resource: File, paging: ${paging} }
authentication:
  default: none
limits:
  page_size: { default: 10, max: 100 }
errors:
  codes:
    invalid: { status: 422, when: [validation, malformed_request, unsupported_media_type] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
`;
const LEFT_OUT = spec('{ items: files, next: nextPageToken, next_optional: true, params: { limit: pageSize, cursor: pageToken } }');
const NULL_LAST = spec('{ items: files, next: nextPageToken, params: { limit: pageSize, cursor: pageToken } }');

describe('paging.next_optional', () => {
  it('the OpenAPI export: an optional string, not required, not nullable; by default a required nullable string', () => {
    // The list's 200 answer schema, read by pointer through the exported document.
    const page = (text: string) => {
      let at: unknown = exportOpenApi(checkedModel(text)).document;
      for (const k of ['paths', '/files', 'get', 'responses', '200', 'content', 'application/json', 'schema']) at = (at as Record<string, unknown>)[k];
      return at as { required: string[]; properties: Record<string, { description: string }> };
    };
    expect(page(LEFT_OUT)).toMatchObject({ required: ['files'], properties: { nextPageToken: { type: 'string' } } });
    expect(page(LEFT_OUT).properties.nextPageToken!.description).toContain('left out on the last page');
    expect(page(NULL_LAST)).toMatchObject({ required: ['files', 'nextPageToken'], properties: { nextPageToken: { type: ['string', 'null'] } } });
  });

  it('the typed client: `nextPageToken?: string`, and its iterator follows it until left out', () => {
    const code = generateClient(checkedModel(LEFT_OUT)).code;
    expect(code).toContain('"nextPageToken"?: string');
    expect(code).toContain('until it is left out');
    expect(generateClient(checkedModel(NULL_LAST)).code).toContain('"nextPageToken": string | null');
  });

  it('the document says the cursor is left out on the last page', () => {
    expect(renderMarkdown(checkedModel(LEFT_OUT))).toContain('`nextPageToken` left out on the last page');
    expect(renderMarkdown(checkedModel(NULL_LAST))).not.toContain('left out on the last page');
  });

  it('diff: the next cursor turning from null to left out on the last page, or back, is breaking (list-paging-changed)', () => {
    const model = (t: string) => compileSpecText(t).model!;
    for (const [a, b] of [
      [NULL_LAST, LEFT_OUT],
      [LEFT_OUT, NULL_LAST],
    ] as const) {
      const changes = diffModels(model(a), model(b)).changes.filter((c) => c.code === 'list-paging-changed');
      expect(changes.map((c) => [c.code, c.impact])).toEqual([['list-paging-changed', 'breaking']]);
    }
    expect(diffModels(model(LEFT_OUT), model(LEFT_OUT)).changes).toEqual([]);
  });
});

describe('the tester holds a list to next_optional', () => {
  // nullLast: the service answers `nextPageToken: null` on the last page, which the spec says is left out there.
  function start(nullLast: boolean): Promise<HandServer> {
    const files: { id: string; name: string }[] = [];
    return startHandServer((req, reply) => {
      const url = new URL(req.url, 'http://127.0.0.1');
      if (req.method === 'GET' && url.pathname === '/files') {
        for (const k of url.searchParams.keys()) if (k !== 'pageSize' && k !== 'pageToken') return reply.problem(422, 'invalid');
        const size = Number(url.searchParams.get('pageSize') ?? '10');
        const from = Number(url.searchParams.get('pageToken') ?? '0');
        if (!Number.isInteger(size) || size < 1 || size > 100 || !Number.isInteger(from) || from < 0) return reply.problem(422, 'invalid');
        const page = files.slice(from, from + size);
        const more = from + size < files.length;
        return reply.json(200, { files: page, ...(more ? { nextPageToken: String(from + size) } : nullLast ? { nextPageToken: null } : {}) });
      }
      if (req.method !== 'POST' || url.pathname !== '/files') return reply.problem(404, 'not_found');
      const b = readJson(req);
      if (!isObject(b) || typeof b.name !== 'string' || [...b.name].length > 20 || Object.keys(b).length !== 1) return reply.problem(422, 'invalid');
      const f = { id: crypto.randomUUID(), name: b.name };
      files.push(f);
      reply.json(201, f, 'application/json', { location: `/files/${f.id}` });
    });
  }
  let faithful: HandServer;
  let nullLast: HandServer;
  beforeAll(async () => {
    faithful = await start(false);
    nullLast = await start(true);
  });
  afterAll(() => {
    faithful?.close();
    nullLast?.close();
  });
  const run = async (text: string, url: string) =>
    (await testService(checkedModel(text), { baseUrl: url, seed: 1, only: ['listFiles'] })).results
      .filter((r) => r.outcome === 'failed')
      .map((r) => [r.check, r.failure?.actual]);

  it('a service leaving the cursor out of the last page passes; one answering null there fails', async () => {
    expect(await run(LEFT_OUT, faithful.url)).toEqual([]);
    const failed = await run(LEFT_OUT, nullLast.url);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.map((f) => f[1])).toContainEqual(expect.stringMatching(/^nextPageToken null, not a string \(left out on the last page\)/));
  });

  it('held to the format default (null on the last page), a service leaving it out fails', async () => {
    expect((await run(NULL_LAST, faithful.url)).map((f) => f[1])).toContainEqual(
      expect.stringMatching(/^a page without nextPageToken \(a string, or null on the last page\)/),
    );
    expect(await run(NULL_LAST, nullLast.url)).toEqual([]);
  });
});
