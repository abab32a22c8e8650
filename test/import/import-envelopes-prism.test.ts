// giphy's lists served in their response envelope, with objects in them, judged by Prism's validation proxy built
// from the document. giphy's `Gif.id` is optional (no identifier: every operation stays custom), so here it is the
// one change made to the document: `required: [id]`. Gifs are put in storage directly (giphy has no create), then
// GET /gifs/trending and GET /gifs pass through `prism proxy <that document> <served> --errors=false`.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { importOpenApiFile } from '../../src/import/import-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { createAuthenticator } from '../../src/runtime/auth/auth-authenticator.js';
import { createApiKey } from '../../src/runtime/auth/auth-credentials.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { OPENAPI_FIXTURES } from '../export/helpers.js';

const require = createRequire(import.meta.url);
const PRISM = join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');
const dir = mkdtempSync(join(tmpdir(), 'servicespec-envelope-prism-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

async function startPrism(document: string, upstream: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [PRISM, 'proxy', document, upstream, '--errors=false', '-p', String(port), '-h', '127.0.0.1', '-v', 'warn'], {
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`prism exited ${child.exitCode}`);
    try {
      await fetch(`${url}/`, { method: 'HEAD' });
      return { url, child };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  child.kill();
  throw new Error('prism did not start');
}

it('giphy: enveloped pages holding Gifs pass Prism with no response violation', async () => {
  const doc = parse(readFileSync(join(OPENAPI_FIXTURES, 'giphy-v1.yaml'), 'utf8')) as { components: { schemas: { Gif: { required?: string[] } } } };
  doc.components.schemas.Gif.required = ['id'];
  const original = join(dir, 'giphy-id-required.yaml');
  writeFileSync(original, stringify(doc));
  const imported = await importOpenApiFile(original);
  const model = compileSpecText(imported.text!).checked!;
  expect(model.endpoints!.operations.filter((o) => o.envelope).map((o) => [o.id, o.action, o.paging?.style])).toEqual([
    ['getGifsById', 'list', 'none'],
    ['searchGifs', 'list', 'offset'],
    ['trendingGifs', 'list', 'offset'],
    ['getGifById', 'read', undefined],
    ['searchStickers', 'list', 'offset'],
    ['trendingStickers', 'list', 'offset'],
  ]);
  const storage = createSqliteStorage({ path: join(dir, 'giphy.db'), synchronous: 'normal' });
  const authenticator = await createAuthenticator(model, storage, { allowGaps: true });
  const app = await createService(model, { storage, authenticator, allowGaps: true });
  const served = await app.listen({ port: 0, host: '127.0.0.1' });
  const key = (await createApiKey(storage, model, { subject: 'alice', scopes: [] })).key;
  for (const [i, rating] of ['g', 'pg', 'g'].entries())
    await storage.transaction((tx) =>
      tx.insert('Gif', { id: `gif${i}`, title: `a gif ${i}`, rating, tags: ['x'], images: { original: { url: 'https://x/1.gif' } } }),
    );
  const prism = await startPrism(original, served);
  try {
    const get = async (path: string) => {
      const res = await fetch(`${prism.url}${path}${path.includes('?') ? '&' : '?'}api_key=${key}`);
      return { status: res.status, body: (await res.json()) as Record<string, any>, violations: res.headers.get('sl-violations') }; // eslint-disable-line @typescript-eslint/no-explicit-any -- read by path
    };
    const page = await get('/gifs/trending?limit=1&offset=1&rating=g');
    expect([page.status, page.violations]).toEqual([200, null]);
    expect(page.body.data.map((g: { id: string }) => g.id)).toEqual(['gif2']);
    expect(page.body.pagination).toEqual({ total_count: 2, count: 1, offset: 1 });
    expect(page.body.meta).toEqual({ msg: 'OK', status: 200, response_id: expect.any(String) });
    // The read: its path parameter is an int32 in the document (Prism flags the request, not the answer).
    const one = await get('/gifs/gif1');
    const responseViolations = (JSON.parse(one.violations ?? '[]') as { location?: string[] }[]).filter((v) => v.location?.[0] === 'response');
    expect([one.status, responseViolations, one.body.data.id, Object.keys(one.body)]).toEqual([200, [], 'gif1', ['data', 'meta']]);
    const all = await get('/gifs');
    expect([all.status, all.violations, all.body.data.length, all.body.pagination]).toEqual([200, null, 3, { total_count: 3, count: 3, offset: 0 }]);
  } finally {
    prism.child.kill();
    await app.close();
  }
}, 60_000);
