// `generated: address` carried through the stages: a resource's own field the service sets to the object's read
// path (HAL's `_links.self.href`, JSON:API's `links.self`, GitHub's `url`). Before, the format had no such value: an
// imported self link was a gap (`source: service`, answered without it) or made its operations custom (501).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import SwaggerParser from '@apidevtools/swagger-parser';
import { compileSpecText } from '../../src/program.js';
import { diffModels } from '../../src/diff/diff-run.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { exportJsonSchemas } from '../../src/export/export-json-schema.js';
import { generateClient } from '../../src/export/export-client.js';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { importOpenApiDocument, importOpenApiFile } from '../../src/import/import-openapi.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';
import { checkedModel } from '../support/specs.js';
import { testService } from '../../src/tester/tester-run.js';
import { isObject, startHandServer } from '../support/hand-server.js';
import { getStoragePlan } from '../../src/runtime/storage/storage-plan.js';
import { startService, type Running } from '../runtime/helpers.js';
import { ADDRESS_SPEC } from '../support/address-spec.js';

const WITH_CHANGES = ADDRESS_SPEC(
  undefined,
  `    getOrder: { method: GET, path: '/orders/{id}', action: read, resource: Order }
    listOrders: { method: GET, path: /orders, action: list, resource: Order }
    patchOrder: { method: PATCH, path: '/orders/{id}', action: update, resource: Order }
    putOrder: { method: PUT, path: '/orders/{id}', action: replace, resource: Order }
    deleteOrder: { method: DELETE, path: '/orders/{id}', action: delete, resource: Order, response: { resource: Order } }`,
);
// Keyed creates and changes: the answer kept for the key is written in the change's transaction (its own paths).
const KEYED = WITH_CHANGES.replace('action: create, resource: Order }', 'action: create, resource: Order, idempotent: true }')
  .replace('action: update, resource: Order }', 'action: update, resource: Order, idempotent: true }')
  .replace('endpoints:\n', 'endpoints:\n  idempotency: { header: Idempotency-Key, retention: 24h }\n');
const VERSIONED = `${WITH_CHANGES}versioning: { scheme: integer, current: 2, placement: { path: '/v{version}' } }\n`;

describe('generated: address: storage', () => {
  it('has no column', () => {
    const plan = getStoragePlan(compileSpecText(ADDRESS_SPEC()).model!);
    expect(plan.tables[0]!.columns.map((c) => c.name)).toEqual(['id', 'total']);
  });
});

describe('generated: address: served (fast paths on and off, byte for byte)', () => {
  const services: Record<string, Running[]> = {};
  beforeAll(async () => {
    for (const [key, text] of [
      ['plain', WITH_CHANGES],
      ['versioned', VERSIONED],
      ['keyed', KEYED],
    ] as const) {
      expect(compileSpecText(text).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      services[key] = [];
      for (const fastPaths of [true, false]) services[key].push(await startService(compileSpecText(text).model!, { fastPaths }));
    }
  });
  afterAll(async () => {
    for (const list of Object.values(services)) for (const s of list) await s.close();
  });

  /** One request to the fast and the plain service, the answers' texts equal; the status and body. */
  async function both(key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const answers = await Promise.all(
      services[key]!.map((s) =>
        fetch(`${s.url}${path}`, {
          method,
          headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      ),
    );
    // A uri address is whole (the request's scheme and Host before the path): each service's own origin, named alike.
    const texts = await Promise.all(answers.map(async (a, i) => (await a.text()).replaceAll(services[key]![i]!.url, 'http://api.example')));
    expect(texts[1], texts.join(' | ')).toBe(texts[0]);
    return {
      status: answers[0]!.status,
      body: texts[0] === '' ? undefined : (JSON.parse(texts[0]!) as Record<string, unknown>),
      location: answers[0]!.headers.get('location'),
    };
  }

  it('create, read, list, update, replace and delete answer the read path', async () => {
    const made = await both('plain', 'POST', '/orders', { id: 'ord_1', total: 3 });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({ id: 'ord_1', total: 3, url: 'http://api.example/orders/ord_1' });
    expect(made.location).toBe('/orders/ord_1');
    expect((await both('plain', 'GET', '/orders/ord_1')).body).toEqual({ id: 'ord_1', total: 3, url: 'http://api.example/orders/ord_1' });
    await both('plain', 'POST', '/orders', { id: 'a b/c', total: 4 });
    const list = await both('plain', 'GET', '/orders');
    expect((list.body!.items as unknown[]).map((o) => (o as { url: string }).url).sort()).toEqual([
      'http://api.example/orders/a%20b%2Fc',
      'http://api.example/orders/ord_1',
    ]);
    expect((await both('plain', 'PATCH', '/orders/ord_1', { total: 5 })).body).toEqual({ id: 'ord_1', total: 5, url: 'http://api.example/orders/ord_1' });
    expect((await both('plain', 'PUT', '/orders/ord_1', { total: 6 })).body).toEqual({ id: 'ord_1', total: 6, url: 'http://api.example/orders/ord_1' });
    expect((await both('plain', 'DELETE', '/orders/ord_1')).body).toEqual({ id: 'ord_1', total: 6, url: 'http://api.example/orders/ord_1' });
  });

  it('an idempotent create and update keep the answer with its address', async () => {
    const key = { 'idempotency-key': 'k1' };
    const first = await both('keyed', 'POST', '/orders', { id: 'ord_k', total: 1 }, key);
    expect(first.body).toEqual({ id: 'ord_k', total: 1, url: 'http://api.example/orders/ord_k' });
    expect(await both('keyed', 'POST', '/orders', { id: 'ord_k', total: 1 }, key)).toEqual(first);
    const patched = await both('keyed', 'PATCH', '/orders/ord_k', { total: 2 }, { 'idempotency-key': 'k2' });
    expect(patched.body).toEqual({ id: 'ord_k', total: 2, url: 'http://api.example/orders/ord_k' });
  });

  it('is refused in a request, as any read-only field', async () => {
    const sent = await both('plain', 'POST', '/orders', { id: 'ord_2', total: 3, url: '/elsewhere' });
    expect(sent.status).toBe(422);
  });

  it("under a path version prefix, the answering request's version", async () => {
    expect((await both('versioned', 'POST', '/v2/orders', { id: 'ord_v', total: 1 })).body).toEqual({
      id: 'ord_v',
      total: 1,
      url: 'http://api.example/v2/orders/ord_v',
    });
    const list = await both('versioned', 'GET', '/v2/orders');
    expect(list.body!.items).toEqual([{ id: 'ord_v', total: 1, url: 'http://api.example/v2/orders/ord_v' }]);
  });
});

describe('generated: address: export, client, document, diff', () => {
  for (const version of ['3.1', '3.0'] as const) {
    it(`OpenAPI ${version}: a required read-only uri in answers, in no request; the key carried; imported back as written`, async () => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- read by path
      const doc = exportOpenApi(checkedModel(WITH_CHANGES), { openapi: version }).document as Record<string, any>;
      const order = doc.components.schemas.Order;
      expect(order.properties.url).toEqual({ type: 'string', format: 'uri', readOnly: true, 'x-servicespec-field': { generated: 'address' } });
      expect(order.required).toContain('url');
      for (const [name, s] of Object.entries(doc.components.schemas as Record<string, { properties?: object }>))
        if (name !== 'Order') expect(Object.keys(s.properties ?? {})).not.toContain('url');
      await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
      const back = await importOpenApiDocument(doc);
      expect(back.document!.resources!.Order!.fields!.url).toEqual({ type: 'uri', readOnly: true, generated: 'address' });
      expect(back.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    });
  }

  it('JSON Schema: in the answer, not in a request view', () => {
    const files = exportJsonSchemas(checkedModel(WITH_CHANGES)).files;
    const props = (view: string) => Object.keys((files.find((f) => f.view === view)!.schema.properties ?? {}) as object);
    expect(props('response')).toContain('url');
    expect(props('create')).not.toContain('url');
    expect(props('replace')).not.toContain('url');
  });

  it('the typed client reads it; the document says what it holds', () => {
    expect(generateClient(checkedModel(WITH_CHANGES)).code).toContain('readonly url: string;');
    expect(renderMarkdown(checkedModel(WITH_CHANGES))).toContain("| `url` | uri | yes | read-only; the object's own address (its read operation's path) |");
  });

  it('diff: added, a member answers gain (non-breaking); removed, one they lose (breaking)', () => {
    const without = WITH_CHANGES.replace('      url: { type: uri, readOnly: true, generated: address }\n', '');
    const codes = (a: string, b: string) => diffModels(compileSpecText(a).model!, compileSpecText(b).model!).changes.map((c) => [c.code, c.impact]);
    expect(codes(without, WITH_CHANGES)).toEqual([['response-field-added', 'non-breaking']]);
    expect(codes(WITH_CHANGES, without)).toEqual([['response-field-removed', 'breaking']]);
  });
});

describe('generated: address: import', () => {
  const fixture = new URL('../fixtures/self-address/orders-url.yaml', import.meta.url).pathname;

  it('a read-only required `url` the description calls its self link is the address, not a gap (before: source: service)', async () => {
    const r = await importOpenApiFile(fixture);
    expect(r.document!.resources!.Order!.fields!.url).toEqual({
      type: 'uri',
      description: 'The API address of this order (its self link).',
      readOnly: true,
      generated: 'address',
    });
    expect(r.diagnostics.filter((d) => d.code === 'import-approximated').map((d) => d.message)).toEqual([
      "resource Order field url (read-only and required) is imported as the object's own address, its read operation's path (`generated: address`): its name or description says it is the address of the object itself (its read path, after the request's origin on a uri; the document may show another host)",
    ]);
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    // Before, the field was a named gap (`value of a read-only field the service sets`): now none is left.
    expect(JSON.stringify(r.gaps)).not.toContain('url');
    const served = await startService(r.compiled!.model!);
    try {
      const made = await served.call('POST', '/orders', { total: 2 });
      expect(made.status).toBe(201);
      const id = (made.body as { id: string }).id;
      expect(made.body).toEqual({ id, total: 2, url: `${served.url}/orders/${id}` });
    } finally {
      await served.close();
    }
  });

  it('left as today where the document does not say so: a writable url, another name, or no read to address', async () => {
    const doc = parse(readFileSync(fixture, 'utf8')) as {
      paths: Record<string, unknown>;
      components: { schemas: { Order: { properties: Record<string, Record<string, unknown>> } } };
    };
    // Not read-only in the document (import reads it so only as no request writes it), and no description saying so.
    const writable = structuredClone(doc);
    delete writable.components.schemas.Order.properties.url!.readOnly;
    delete writable.components.schemas.Order.properties.url!.description;
    expect((await importOpenApiDocument(writable)).document!.resources!.Order!.fields!.url).toMatchObject({ readOnly: true, source: 'service' });
    const other = structuredClone(doc);
    other.components.schemas.Order.properties.link = { type: 'string', readOnly: true, description: 'a link to the shop' };
    (other.components.schemas.Order as unknown as { required: string[] }).required.push('link');
    expect((await importOpenApiDocument(other)).document!.resources!.Order!.fields!.link).toMatchObject({ source: 'service' });
    // A `url` saying nothing more may be a download or a page: an example elsewhere keeps it a gap; one whose path is
    // the read's (GitHub's API url) is the address.
    const download = structuredClone(doc);
    delete download.components.schemas.Order.properties.url!.description;
    download.components.schemas.Order.properties.url!.example = 'https://cdn.example.com/receipts/ord_1.pdf';
    expect((await importOpenApiDocument(download)).document!.resources!.Order!.fields!.url).toMatchObject({ readOnly: true, source: 'service' });
    const bare = structuredClone(download);
    delete bare.components.schemas.Order.properties.url!.example;
    expect((await importOpenApiDocument(bare)).document!.resources!.Order!.fields!.url).toMatchObject({ readOnly: true, source: 'service' });
    const api = structuredClone(download);
    api.components.schemas.Order.properties.url!.example = 'https://api.example.com/orders/ord_1';
    expect((await importOpenApiDocument(api)).document!.resources!.Order!.fields!.url).toMatchObject({ generated: 'address' });
    const noRead = structuredClone(doc);
    delete noRead.paths['/orders/{id}'];
    const r = await importOpenApiDocument(noRead);
    expect(r.document!.resources!.Order!.fields!.url).toMatchObject({ readOnly: true, source: 'service' });
  });
});

describe('generated: address: the contract tester', () => {
  const failures = async (baseUrl: string) =>
    (await testService(checkedModel(WITH_CHANGES), { baseUrl, seed: 1 })).results
      .filter((r) => r.outcome === 'failed')
      .map((r) => `${r.check} ${r.target}: ${r.failure?.actual ?? ''}`);

  it('serve passes', async () => {
    const service = await startService(compileSpecText(WITH_CHANGES).model!);
    try {
      expect(await failures(service.url)).toEqual([]);
    } finally {
      await service.close();
    }
  });

  it('a service answering another address fails endpoints.answer-shape, on reads, list items and creates', async () => {
    const service = await startService(compileSpecText(WITH_CHANGES).model!);
    // serve behind a proxy putting the collection's address where each object's own goes.
    const wrong = (v: unknown): unknown => (isObject(v) && typeof v.url === 'string' ? { ...v, url: 'http://elsewhere.example/orders' } : v);
    const proxy = await startHandServer((req, reply) => {
      void (async () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
        const res = await fetch(`${service.url}${req.url}`, { method: req.method, headers, body: req.text === '' ? undefined : req.text });
        const text = await res.text();
        const out: Record<string, string> = {};
        res.headers.forEach((v, k) => {
          if (!['content-type', 'content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(k)) out[k] = v;
        });
        const type = res.headers.get('content-type') ?? 'application/json';
        let body: unknown = text === '' ? undefined : (JSON.parse(text) as unknown);
        if (Array.isArray(body)) body = body.map(wrong);
        else if (isObject(body) && Array.isArray(body.items)) body = { ...body, items: body.items.map(wrong) };
        else body = wrong(body);
        reply.json(res.status, body, type, out);
      })();
    });
    try {
      const failed = await failures(proxy.url);
      expect(failed.length).toBeGreaterThan(0);
      for (const f of failed)
        expect(f).toMatch(/^[\w.-]+ \w+: url "http:\/\/elsewhere\.example\/orders", not the object's own address \(its read's path, \/orders\/[^)]+\)/);
      const shape = failed.filter((f) => f.startsWith('endpoints.answer-shape ')).map((f) => f.split(' ')[1]!.replace(':', ''));
      expect(new Set(shape)).toEqual(new Set(['createOrder', 'getOrder', 'listOrders', 'patchOrder', 'putOrder', 'deleteOrder']));
    } finally {
      proxy.close();
      await service.close();
    }
  });
});
