// Callbacks through OpenAPI (docs/import.md, "Callbacks"): a spec modelled on OpenAPI's callback example (a
// subscription whose create request gives the URL) exports `callbacks` on the create with the runtime expression
// `{$request.body#/callbackUrl}` and the kinds' delivery bodies, and imports back unchanged; a callback the format
// cannot keep is said at its JSON pointer.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { importOpenApiDocument, importOpenApiFile } from '../../src/import/import-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { OPENAPI_FIXTURES } from '../export/helpers.js';
import { CALLBACK_SPEC as SPEC } from '../support/callbacks.js';

type Json = Record<string, unknown>;

function model() {
  const c = compileSpecText(SPEC, 'streams.yaml');
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return c.model!;
}

describe('callbacks in OpenAPI', () => {
  it.each(['3.1', '3.0'] as const)('export %s: `callbacks` on the create, keyed by the body field expression, one delivery body per kind', (openapi) => {
    const doc = exportOpenApi(model(), { openapi }).document as Json;
    const op = ((doc.paths as Json)['/streams'] as Json).post as Json;
    const item = (op.callbacks as Json).onData as Json;
    expect(Object.keys(item)).toEqual(['{$request.body#/callbackUrl}']);
    const post = (item['{$request.body#/callbackUrl}'] as Json).post as Json;
    expect(post['x-servicespec-callback']).toEqual({
      url: 'callbackUrl',
      events: ['subscription.updated', 'subscription.cancelled'],
      description: 'Data about the subscription.',
    });
    expect((post.parameters as Json[]).map((p) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    const schema = (((post.requestBody as Json).content as Json)['application/json'] as Json).schema as Json;
    const [envelope, raw] = schema.oneOf as Json[];
    expect((envelope!.properties as Json).type).toEqual({ type: 'string', enum: ['subscription.updated'] });
    // The raw kind's delivery is the Subscription itself, as under `webhooks`.
    expect(JSON.stringify(raw)).toContain('Subscription');
    if (openapi === '3.1')
      expect(raw).toEqual(
        ((((((doc.webhooks as Json)['subscription.cancelled'] as Json).post as Json).requestBody as Json).content as Json)['application/json'] as Json).schema,
      );
  });

  it('under a request wrapper (request_envelope) the expression names the field inside it, and reads back', async () => {
    const text = SPEC.replace(/( {4}subscribe:\n(?: {6}.*\n)*? {6}action: create\n)/, '$1      request_envelope: { data: stream }\n');
    expect(text).toContain('request_envelope');
    const c = compileSpecText(text, 'streams.yaml');
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    for (const openapi of ['3.1', '3.0'] as const) {
      const doc = exportOpenApi(c.model!, { openapi }).document as Json;
      const op = ((doc.paths as Json)['/streams'] as Json).post as Json;
      expect(Object.keys((op.callbacks as Json).onData as Json)).toEqual(['{$request.body#/stream/callbackUrl}']);
      const r = await importOpenApiDocument(doc, 'streams.json');
      expect(r.document!.endpoints!.operations!.subscribe!.callbacks).toEqual({
        onData: { url: 'callbackUrl', events: ['subscription.updated', 'subscription.cancelled'], description: 'Data about the subscription.' },
      });
      expect(r.document!.endpoints!.operations!.subscribe!.request_envelope).toEqual({ data: 'stream' });
    }
  });

  it('import of the export gives the callbacks back unchanged, and the spec checks clean', async () => {
    for (const openapi of ['3.1', '3.0'] as const) {
      const r = await importOpenApiDocument(exportOpenApi(model(), { openapi }).document, 'streams.json');
      const ops = r.document!.endpoints!.operations!;
      expect(ops.subscribe!.callbacks).toEqual({
        onData: { url: 'callbackUrl', events: ['subscription.updated', 'subscription.cancelled'], description: 'Data about the subscription.' },
      });
      expect(r.diagnostics.filter((d) => d.message.includes('callback') && d.code !== 'import-names-kept')).toEqual([]);
      const again = compileSpecText(r.text!, 'imported.yaml');
      expect(again.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect(again.model!.endpoints!.operations.find((o) => o.id === 'subscribe')!.callbacks).toEqual(
        model().endpoints!.operations.find((o) => o.id === 'subscribe')!.callbacks,
      );
    }
  });

  it("OpenAPI's own callback example (a URL from a query parameter, a message of its own) is said at its pointer", async () => {
    const r = await importOpenApiFile(join(OPENAPI_FIXTURES, 'oai-callback-example.yaml'));
    const d = r.diagnostics.filter((x) => x.message.includes('callback onData'));
    expect(d.map((x) => [x.code, x.pointer])).toEqual([['import-dropped', '/paths/~1streams/post/callbacks/onData']]);
    expect(r.document!.endpoints!.operations!['post /streams'] ?? Object.values(r.document!.endpoints!.operations!)[0]).not.toHaveProperty('callbacks');
  });

  it('a foreign callback on a create, or one whose extension was edited, is said at its pointer', async () => {
    const doc = exportOpenApi(model(), { openapi: '3.1' }).document as Json;
    const post = (((((doc.paths as Json)['/streams'] as Json).post as Json).callbacks as Json).onData as Json)['{$request.body#/callbackUrl}'] as Json;
    const edited = structuredClone(doc);
    const editedPost = (((((edited.paths as Json)['/streams'] as Json).post as Json).callbacks as Json).onData as Json)['{$request.body#/callbackUrl}'] as Json;
    ((editedPost.post as Json)['x-servicespec-callback'] as Json).url = 'topic';
    const r1 = await importOpenApiDocument(edited, 'edited.json');
    expect(r1.document!.endpoints!.operations!.subscribe).not.toHaveProperty('callbacks');
    expect(r1.diagnostics.filter((x) => x.code === 'import-extension-invalid').map((x) => x.pointer)).toEqual([
      '/paths/~1streams/post/callbacks/onData/{$request.body#~1callbackUrl}/post/x-servicespec-callback',
    ]);
    expect(r1.diagnostics.filter((x) => x.code === 'import-dropped' && x.message.includes('callback onData')).map((x) => x.pointer)).toEqual([
      '/paths/~1streams/post/callbacks/onData/{$request.body#~1callbackUrl}/post/requestBody',
    ]);
    const foreign = structuredClone(doc);
    const foreignOp = ((foreign.paths as Json)['/streams'] as Json).post as Json;
    foreignOp.callbacks = {
      onQuery: { '{$request.query.callbackUrl}/data': { post: { requestBody: (post.post as Json).requestBody, responses: { '202': { description: 'ok' } } } } },
    };
    const r2 = await importOpenApiDocument(foreign, 'foreign.json');
    const d = r2.diagnostics.filter((x) => x.message.includes('callback onQuery'));
    expect(d.map((x) => [x.code, x.pointer])).toEqual([['import-dropped', '/paths/~1streams/post/callbacks/onQuery/{$request.query.callbackUrl}~1data']]);
    expect(d[0]!.message).toContain('request body field');
  });

  it('property: random callbacks round-trip spec → export → import → the same callbacks', async () => {
    const KINDS = ['subscription.updated', 'subscription.cancelled'];
    const callback = fc.record(
      {
        url: fc.constantFrom('callbackUrl', 'notifyUrl'),
        events: fc.shuffledSubarray(KINDS, { minLength: 1 }),
        description: fc.stringMatching(/^[A-Za-z][A-Za-z .,]{0,30}$/),
      },
      { requiredKeys: ['url', 'events'] },
    );
    const callbacks = fc.dictionary(fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,11}$/), callback, { minKeys: 1, maxKeys: 3 });
    const base = SPEC.replace('      topic: { type: string }\n', '      topic: { type: string }\n      notifyUrl: { type: uri, optional: true }\n');
    await fc.assert(
      fc.asyncProperty(callbacks, fc.constantFrom('3.1' as const, '3.0' as const), async (cbs, openapi) => {
        const text = base.replace(/ {6}callbacks:\n(?: {8,}.*\n)+/, `      callbacks: ${JSON.stringify(cbs)}\n`);
        const c = compileSpecText(text, 'random.yaml');
        expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        const r = await importOpenApiDocument(exportOpenApi(c.model!, { openapi }).document, 'random.json');
        expect(r.document!.endpoints!.operations!.subscribe!.callbacks).toEqual(cbs);
      }),
      { numRuns: 12, seed: 26 },
    );
  }, 60_000);

  // OpenAPI's callback example (test/fixtures/openapi/oai-callback-example.yaml, OAI/OpenAPI-Specification
  // examples/v3.0/callback-example.yaml) made expressible: the subscription is created from a body carrying the URL,
  // and the callback sends the subscription (with its id) plus the example's own properties.
  function subscriptionDocument(): Json {
    const doc = parseYaml(readFileSync(join(OPENAPI_FIXTURES, 'oai-callback-example.yaml'), 'utf8')) as Json;
    const post = ((doc.paths as Json)['/streams'] as Json).post as Json;
    delete post.parameters;
    post.operationId = 'subscribe';
    post.requestBody = { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NewSubscription' } } } };
    post.responses = {
      '201': { description: 'subscription successfully created', content: { 'application/json': { schema: { $ref: '#/components/schemas/Subscription' } } } },
    };
    const onData = (post.callbacks as Json).onData as Json;
    const cbPost = (onData['{$request.query.callbackUrl}/data'] as Json).post as Json;
    (cbPost.requestBody as Json).content = { 'application/json': { schema: { $ref: '#/components/schemas/Subscription' } } };
    post.callbacks = { onData: { '{$request.body#/callbackUrl}': { post: cbPost } } };
    const fields = { callbackUrl: { type: 'string', format: 'uri' }, timestamp: { type: 'string', format: 'date-time' }, userData: { type: 'string' } };
    doc.components = {
      schemas: {
        NewSubscription: { type: 'object', required: ['callbackUrl'], properties: fields },
        Subscription: { type: 'object', required: ['id', 'callbackUrl'], properties: { id: { type: 'string', format: 'uuid', readOnly: true }, ...fields } },
      },
    };
    doc.paths = {
      ...(doc.paths as Json),
      '/streams/{id}': {
        get: {
          operationId: 'getSubscription',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
          responses: { '200': { description: 'the subscription', content: { 'application/json': { schema: { $ref: '#/components/schemas/Subscription' } } } } },
        },
      },
    };
    return doc;
  }

  it("another document's callback sending the created resource is kept: its message an event kind of its own, every property in place", async () => {
    const original = subscriptionDocument();
    const r = await importOpenApiDocument(original, 'callback-subscription.json');
    const op = r.document!.endpoints!.operations!.subscribe!;
    expect(op.action).toBe('create');
    expect(op.callbacks).toEqual({ onData: { url: 'callbackUrl', events: ['Subscription.onData'] } });
    expect(r.document!.events!.kinds!['Subscription.onData']).toEqual({ payload: { resource: 'Subscription' }, body: 'raw' });
    expect(r.diagnostics.filter((d) => d.message.includes('callback onData')).map((d) => [d.code, d.pointer])).toEqual([
      ['import-approximated', '/paths/~1streams/post/callbacks/onData/{$request.body#~1callbackUrl}'],
    ]);
    const c = compileSpecText(r.text!, 'imported.yaml');
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    // The callback's body comes back at its place with the same properties.
    const props = (doc: Json) => {
      const cb = (((((doc.paths as Json)['/streams'] as Json).post as Json).callbacks as Json).onData as Json)['{$request.body#/callbackUrl}'] as Json;
      let schema = ((((cb.post as Json).requestBody as Json).content as Json)['application/json'] as Json).schema as Json;
      while (typeof schema.$ref === 'string') schema = ((doc.components as Json).schemas as Json)[schema.$ref.split('/').pop()!] as Json;
      return Object.keys(schema.properties as Json).sort();
    };
    expect(props(exportOpenApi(c.model!, { openapi: '3.0' }).document as Json)).toEqual(props(original));
  });

  it("another document's callback whose message does not carry the created object is said at its request body", async () => {
    const doc = subscriptionDocument();
    const cb = ((((((doc.paths as Json)['/streams'] as Json).post as Json).callbacks as Json).onData as Json)['{$request.body#/callbackUrl}'] as Json)
      .post as Json;
    (cb.requestBody as Json).content = {
      'application/json': { schema: { type: 'object', properties: { timestamp: { type: 'string', format: 'date-time' }, userData: { type: 'string' } } } },
    };
    const r = await importOpenApiDocument(doc, 'callback-foreign.json');
    expect(r.document!.endpoints!.operations!.subscribe).not.toHaveProperty('callbacks');
    expect(r.diagnostics.filter((d) => d.message.includes('callback onData')).map((d) => [d.code, d.pointer])).toEqual([
      ['import-dropped', '/paths/~1streams/post/callbacks/onData/{$request.body#~1callbackUrl}/post/requestBody'],
    ]);
  });
});
