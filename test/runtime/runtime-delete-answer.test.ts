// A delete that answers the object it deleted (`response: { resource: Item }` on a delete, docs/format.md "Deletes
// that answer the deleted object"): 200 and the object as it was, on the test database (SQLite, or PostgreSQL with
// SERVICESPEC_TEST_DB=postgres), fast paths on and off, keyed or not. Carried through check, export, import, the
// document, the client, diff and the contract tester, which holds a hand-written server with planted faults to it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffModels } from '../../src/diff/diff-api.js';
import { generateClient } from '../../src/export/export-client.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';
import { testService } from '../../src/tester/tester-run.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';
import { startService, type Running } from './helpers.js';

const spec = (del: string, endpoints = '', ops = ''): string => `
servicespec: 1
resources:
  Item:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string, maxLength: 20 }
      note: { type: string, optional: true, maxLength: 20 }
      secret: { type: string, optional: true, writeOnly: true }
endpoints:
${endpoints}  operations:
    createItem: { method: POST, path: /items, action: create, resource: Item }
    readItem: { method: GET, path: '/items/{id}', action: read, resource: Item }
    deleteItem: { method: DELETE, path: '/items/{id}', action: delete, resource: Item${del} }${ops}
authentication:
  default: none
${PLAIN_ERRORS}`;

const ANSWERS = spec(', response: { resource: Item }');
const PLAIN = spec('');
// With an update and a replace: what each leaves out of its body is kept (update) or cleared (replace).
const CHANGES = spec(
  ', response: { resource: Item }',
  '',
  `
    updateItem: { method: PATCH, path: '/items/{id}', action: update, resource: Item }
    replaceItem: { method: PUT, path: '/items/{id}', action: replace, resource: Item }`,
);
const KEYED = spec(', response: { resource: Item }', '  idempotency: { header: Idempotency-Key, retention: 1h }\n');

for (const fastPaths of [true, false]) {
  describe(`a delete answering the deleted object (runtime, fast paths ${fastPaths ? 'on' : 'off'})`, () => {
    let s: Running;
    let keyed: Running;
    let plain: Running;
    beforeAll(async () => {
      s = await startService(checkedModel(ANSWERS), { fastPaths });
      keyed = await startService(checkedModel(KEYED), { fastPaths });
      plain = await startService(checkedModel(spec(', status: 200')), { fastPaths });
    });
    afterAll(async () => {
      await s?.close();
      await keyed?.close();
      await plain?.close();
    });

    it('answers 200 and the object as it was, write-only fields left out; then it is gone', async () => {
      const made = await s.call('POST', '/items', { name: 'a', secret: 'x' });
      expect(made.status).toBe(201);
      const gone = await s.call('DELETE', `/items/${made.body.id as string}`);
      expect(gone.status).toBe(200);
      expect(gone.headers.get('content-type')).toMatch(/^application\/json/);
      expect(gone.body).toEqual({ id: made.body.id, name: 'a' });
      expect((await s.call('GET', `/items/${made.body.id as string}`)).status).toBe(404);
      expect((await s.call('DELETE', `/items/${made.body.id as string}`)).status).toBe(404);
    });

    it('keyed: the repeated request gets the same object again, and deletes nothing more', async () => {
      const made = await keyed.call('POST', '/items', { name: 'k' }, { 'idempotency-key': 'make-k' });
      const first = await keyed.call('DELETE', `/items/${made.body.id as string}`, undefined, { 'idempotency-key': 'del-k' });
      const again = await keyed.call('DELETE', `/items/${made.body.id as string}`, undefined, { 'idempotency-key': 'del-k' });
      expect([first.status, again.status]).toEqual([200, 200]);
      expect(first.body).toEqual({ id: made.body.id, name: 'k' });
      expect(again.body).toEqual(first.body);
    });

    it('without `response` a delete answers no body, whatever its status', async () => {
      const made = await plain.call('POST', '/items', { name: 'b' });
      const gone = await plain.call('DELETE', `/items/${made.body.id as string}`);
      expect(gone.status).toBe(200);
      expect(gone.body).toBeUndefined();
    });
  });
}

describe('a delete answering the deleted object, through check, export, import, document, client and diff', () => {
  it('check: any response but its own resource, or a status without a body, is delete-response-invalid', () => {
    const codes = (text: string) =>
      compileSpecText(text)
        .diagnostics.filter((d) => d.severity === 'error')
        .map((d) => [d.code, d.pointer]);
    const at = '/endpoints/operations/deleteItem';
    expect(codes(spec(', response: { resource: Item }, status: 204'))).toEqual([['delete-response-invalid', `${at}/status`]]);
    expect(codes(spec(', response: { resource: Item, list: true }'))).toEqual([['delete-response-invalid', `${at}/response`]]);
    expect(codes(spec(', response: { fields: { deleted: { type: boolean } } }'))).toEqual([['delete-response-invalid', `${at}/response`]]);
    const other = spec(', response: { resource: Other }').replace(
      'resources:\n',
      'resources:\n  Other:\n    fields:\n      id: { type: uuid, readOnly: true }\n',
    );
    expect(codes(other)).toEqual([['delete-response-invalid', `${at}/response`]]);
    expect(codes(spec(', response: { resource: Item }, status: 202'))).toEqual([]);
    expect(checkedModel(ANSWERS).endpoints!.operations.find((o) => o.id === 'deleteItem')!.status).toBe(200);
  });

  it('the OpenAPI export declares the resource on the 200; a plain import gives the delete back, not a custom operation', async () => {
    type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>> };
    const doc = exportOpenApi(checkedModel(ANSWERS)).document as Doc;
    const del = doc.paths['/items/{id}']!.delete!;
    expect(Object.keys(del.responses).filter((k) => k.startsWith('2'))).toEqual(['200']);
    expect(del.responses['200']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/Item' });
    for (const plainDoc of [false, true]) {
      const d = structuredClone(doc);
      if (plainDoc)
        for (const item of Object.values(d.paths)) for (const op of Object.values(item)) delete (op as Record<string, unknown>)['x-servicespec-operation'];
      const back = await importOpenApiDocument(d, 'items.json');
      const o = back.document!.endpoints!.operations!.deleteItem!;
      expect([o.action, o.response, o.status], `plain: ${plainDoc}`).toEqual(['delete', { resource: 'Item' }, undefined]);
    }
  });

  it('import: a DELETE answering another body stays custom, and says why', async () => {
    type Op = Record<string, unknown> & { responses: Record<string, { content: Record<string, { schema: unknown }> }> };
    const doc = exportOpenApi(checkedModel(ANSWERS)).document as { paths: Record<string, Record<string, Op>> };
    for (const item of Object.values(doc.paths)) for (const op of Object.values(item)) delete op['x-servicespec-operation'];
    doc.paths['/items/{id}']!.delete!.responses['200']!.content['application/json']!.schema = {
      type: 'object',
      properties: { id: { type: 'string' }, deleted: { type: 'boolean' } },
      required: ['id', 'deleted'],
    };
    const back = await importOpenApiDocument(doc, 'items.json');
    expect(back.document!.endpoints!.operations!.deleteItem!.action).toBe('custom');
    expect(back.diagnostics.some((d) => d.message.includes('a body other than the object it deletes'))).toBe(true);
  });

  it('the document says what the delete answers; the client returns the Item', () => {
    expect(renderMarkdown(checkedModel(ANSWERS))).toContain('200, the deleted `Item`');
    expect(renderMarkdown(checkedModel(PLAIN))).not.toContain('the deleted');
    const client = generateClient(checkedModel(ANSWERS)).code;
    expect(client).toMatch(/deleteItem\([^)]*\): Promise<Item>/);
  });

  it('diff: the answer added is not breaking, removed is', () => {
    const added = diffModels(checkedModel(spec(', status: 200')), checkedModel(ANSWERS)).changes;
    expect(added.map((c) => [c.code, c.impact])).toEqual([['delete-response-added', 'non-breaking']]);
    const removed = diffModels(checkedModel(ANSWERS), checkedModel(spec(', status: 200'))).changes;
    expect(removed.map((c) => [c.code, c.impact, c.reason])).toEqual([
      ['delete-response-removed', 'breaking', 'operation deleteItem no longer answers the Item it deleted; clients reading it find no body'],
    ]);
  });
});

/** A hand-written items service answering its deletes with the object, with one fault planted at a time. */
type Fault = 'none' | 'empty-body' | 'other-name' | 'no-body' | 'not-deleted' | 'patch-drops' | 'put-keeps' | 'delete-stale';
function startItems(fault: Fault): Promise<{ url: string; server: Server }> {
  type Item = { id: string; name: string; note?: string };
  const items = new Map<string, Item>();
  const made = new Map<string, Item>();
  let n = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body?: unknown) => {
        if (body === undefined) return void res.writeHead(status).end();
        res.writeHead(status, { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' }).end(JSON.stringify(body));
      };
      const problem = (status: number, code: string) => send(status, { type: 'about:blank', title: code, status, code });
      // The body as JSON, checked as the spec says (a create and a replace require name); undefined once refused.
      const readBody = (whole: boolean): Record<string, unknown> | undefined => {
        if (!/^application\/json/.test(req.headers['content-type'] ?? '')) return void problem(415, 'not_json');
        let b: unknown;
        try {
          b = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          return void problem(400, 'bad_body');
        }
        const o = b as Record<string, unknown>;
        const keys = typeof o === 'object' && o !== null && !Array.isArray(o) ? Object.keys(o) : undefined;
        const text = (v: unknown, required: boolean, max = 20) => (v === undefined ? !required : typeof v === 'string' && [...v].length <= max);
        if (
          !keys ||
          !text(o.name, whole) ||
          !text(o.note, false) ||
          !text(o.secret, false, Infinity) ||
          keys.some((k) => !['name', 'note', 'secret'].includes(k))
        )
          return void problem(422, 'invalid');
        return o;
      };
      const url = new URL(req.url ?? '/', 'http://x');
      const m = /^\/items(?:\/([^/]+))?$/.exec(url.pathname);
      if (!m) return problem(404, 'not_found');
      const notAllowed = (allow: string) => (res.setHeader('allow', allow), problem(405, 'not_allowed'));
      const id = m[1] === undefined ? undefined : decodeURIComponent(m[1]);
      if (id === undefined) {
        if (req.method !== 'POST') return notAllowed('POST');
        const b = readBody(true);
        if (!b) return;
        const item: Item = { id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`, name: b.name as string };
        if (typeof b.note === 'string') item.note = b.note;
        items.set(item.id, item);
        made.set(item.id, { ...item });
        res.setHeader('location', `/items/${item.id}`);
        return send(201, item);
      }
      if (!['GET', 'DELETE', 'PATCH', 'PUT'].includes(req.method ?? '')) return notAllowed('DELETE, GET, PATCH, PUT');
      const item = items.get(id);
      if (req.method === 'GET') return item ? send(200, item) : problem(404, 'not_found');
      if (!item) return problem(404, 'not_found');
      if (req.method === 'PATCH' || req.method === 'PUT') {
        const b = readBody(req.method === 'PUT');
        if (!b) return;
        // PATCH keeps what it is not sent, PUT clears it; each fault does the other.
        const keeps = req.method === 'PATCH' ? fault !== 'patch-drops' : fault === 'put-keeps';
        const changed: Item = keeps ? { ...item } : { id, name: item.name };
        if (typeof b.name === 'string') changed.name = b.name;
        if (typeof b.note === 'string') changed.note = b.note;
        items.set(id, changed);
        return send(200, changed);
      }
      if (fault !== 'not-deleted') items.delete(id);
      if (fault === 'empty-body') return send(200, {});
      if (fault === 'other-name') return send(200, { ...item, name: `${item.name}!` });
      if (fault === 'no-body') return send(204);
      if (fault === 'delete-stale') return send(200, made.get(id));
      return send(200, item);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

describe('the contract tester and a delete answering the deleted object', () => {
  it.each<[Fault, string[]]>([
    ['none', []],
    ['empty-body', ['endpoints.answer-shape']],
    ['other-name', ['endpoints.valid-requests']],
    ['no-body', ['endpoints.status', 'endpoints.valid-requests']],
    ['not-deleted', ['endpoints.valid-requests']],
    // An update dropping what it was not sent, a replace keeping it, a delete answering the object as first made.
    ['patch-drops', ['endpoints.valid-requests']],
    ['put-keeps', ['endpoints.valid-requests']],
    ['delete-stale', ['endpoints.valid-requests']],
  ])(
    'against a hand-written server with %s',
    async (fault, failing) => {
      const { url, server } = await startItems(fault);
      try {
        const report = await testService(checkedModel(CHANGES), { baseUrl: url, seed: 1, only: ['endpoints'] });
        const failed = [...new Set(report.results.filter((r) => r.outcome === 'failed').map((r) => r.check))].sort();
        if (fault === 'none') expect(report.results.filter((r) => r.outcome === 'failed')).toEqual([]);
        else for (const check of failing) expect(failed, JSON.stringify(report.results.filter((r) => r.outcome === 'failed'))).toContain(check);
      } finally {
        server.close();
      }
    },
    60_000,
  );

  it('the runtime itself passes', async () => {
    const s = await startService(checkedModel(CHANGES));
    try {
      const report = await testService(checkedModel(CHANGES), { baseUrl: s.url, seed: 2, only: ['endpoints'] });
      expect(report.results.filter((r) => r.outcome === 'failed')).toEqual([]);
    } finally {
      await s.close();
    }
  }, 60_000);
});
