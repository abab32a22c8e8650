import { createHmac, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateClient } from '../../src/export/export-client.js';
import { checkedModel } from '../support/specs.js';
import { loadClient } from './client-loader.js';
import { EXAMPLE_NAMES, exampleModel, ROOT, tempDir, tsc } from './helpers.js';

const tmp = tempDir('servicespec-client-');
afterAll(() => tmp.remove());

type Json = Record<string, unknown>;
interface Call {
  url: string;
  method: string;
  headers: Headers;
  body?: string;
}

/** A fetch that records each request and answers from a script (no service: this checks what the client sends). */
function scripted(answers: ((call: Call) => Response)[]): { fetch: typeof fetch; calls: Call[] } {
  const calls: Call[] = [];
  const f = async (input: string | URL | Request, init?: RequestInit) => {
    const call: Call = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      ...(typeof init?.body === 'string' ? { body: init.body } : {}),
    };
    calls.push(call);
    const answer = answers.shift();
    if (!answer) throw new Error(`unexpected request ${call.method} ${call.url}`);
    return answer(call);
  };
  return { fetch: f as typeof fetch, calls };
}

const json = (status: number, body: unknown, type = 'application/json', headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': type, ...headers } });

describe('generated client: compiles under tsc --strict', () => {
  it("every example's client compiles with the DOM library and with Node's types, with no errors", async () => {
    const files: string[] = [];
    for (const name of EXAMPLE_NAMES) {
      const { code } = generateClient(exampleModel(name));
      writeFileSync(join(tmp.path, `${name}.ts`), code);
      files.push(`${name}.ts`);
    }
    const strictest = {
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      noImplicitOverride: true,
      noUnusedLocals: true,
      noUnusedParameters: true,
    };
    const dom = await tsc(tmp.path, files, {
      target: 'ES2022',
      lib: ['ES2022', 'DOM', 'DOM.Iterable'],
      module: 'ES2022',
      moduleResolution: 'bundler',
      types: [],
      ...strictest,
    });
    expect(dom.stdout + dom.stderr).toBe('');
    expect(dom.code).toBe(0);
    const node = await tsc(tmp.path, files, {
      target: 'ES2022',
      lib: ['ES2022'],
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      typeRoots: [join(ROOT, 'node_modules', '@types')],
      types: ['node'],
      ...strictest,
    });
    expect(node.stdout + node.stderr).toBe('');
    expect(node.code).toBe(0);
  }, 120_000);
});

describe('generated client: what it sends and how it answers', () => {
  it('sends the credential, the version header and an Idempotency-Key, and returns the typed body', async () => {
    const mod = await loadClient<Json>(generateClient(exampleModel('orders')).code, tmp.path, 'orders-a');
    const { fetch, calls } = scripted([() => json(201, { id: 'c1', name: 'Ada' })]);
    const Client = mod.ServiceClient as new (o: Json) => Record<string, (...a: unknown[]) => Promise<unknown>>;
    const client = new Client({ baseUrl: 'http://svc.test/', credentials: { key: 'sk_123' }, fetch });
    const created = await client.createCustomer!({ name: 'Ada', email: 'ada@example.com' });
    expect(created).toEqual({ id: 'c1', name: 'Ada' });
    expect(calls[0]).toMatchObject({ url: 'http://svc.test/customers', method: 'POST', body: '{"name":"Ada","email":"ada@example.com"}' });
    expect(calls[0]!.headers.get('x-api-key')).toBe('sk_123');
    expect(calls[0]!.headers.get('service-version')).toBe('2026-11-01');
    expect(calls[0]!.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(calls[0]!.headers.get('content-type')).toBe('application/json');
  });

  it('iterates every page of a list, following next_cursor', async () => {
    const mod = await loadClient<Json>(generateClient(exampleModel('orders')).code, tmp.path, 'orders-b');
    const { fetch, calls } = scripted([
      () => json(200, { items: [{ id: 'a' }, { id: 'b' }], next_cursor: 'c2' }),
      () => json(200, { items: [{ id: 'c' }], next_cursor: null }),
    ]);
    const Client = mod.ServiceClient as new (o: Json) => Record<string, (...a: unknown[]) => AsyncIterable<Json>>;
    const client = new Client({ baseUrl: 'http://svc.test', credentials: { bearer: () => 'tok' }, fetch });
    const seen: unknown[] = [];
    for await (const o of client.listOrdersAll!({ status: 'paid', limit: 2 })) seen.push(o.id);
    expect(seen).toEqual(['a', 'b', 'c']);
    expect(calls.map((c) => c.url)).toEqual(['http://svc.test/orders?status=paid&limit=2', 'http://svc.test/orders?status=paid&limit=2&cursor=c2']);
    expect(calls[0]!.headers.get('authorization')).toBe('Bearer tok');
  });

  it('throws a ServiceError with the declared code, status and body; isServiceError narrows it', async () => {
    const mod = await loadClient<Json>(generateClient(exampleModel('orders')).code, tmp.path, 'orders-c');
    const problem = { title: 'The order cannot make that change from its current state', status: 409, code: 'invalid_transition' };
    const { fetch } = scripted([
      () => json(409, problem, 'application/problem+json'),
      () => json(429, { title: 'Too many requests', status: 429, code: 'rate_limited' }, 'application/problem+json', { 'retry-after': '7' }),
    ]);
    const Client = mod.ServiceClient as new (o: Json) => Record<string, (...a: unknown[]) => Promise<unknown>>;
    const isServiceError = mod.isServiceError as (e: unknown, ...codes: string[]) => boolean;
    const client = new Client({ baseUrl: 'http://svc.test', credentials: { key: 'k' }, fetch });
    const err = (await client.cancelOrder!('o1').catch((e: unknown) => e)) as Json;
    expect(err).toBeInstanceOf(mod.ServiceError as new () => unknown);
    expect(err).toMatchObject({ code: 'invalid_transition', status: 409, body: problem });
    expect(isServiceError(err, 'invalid_transition')).toBe(true);
    expect(isServiceError(err, 'not_found')).toBe(false);
    const limited = (await client.getOrder!('o1').catch((e: unknown) => e)) as Json;
    expect(limited).toMatchObject({ code: 'rate_limited', retryAfter: 7 });
  });

  it('gets a client-credentials token once, form-encoded with HTTP Basic, and reuses it', async () => {
    const mod = await loadClient<Json>(generateClient(exampleModel('orders')).code, tmp.path, 'orders-d');
    const { fetch, calls } = scripted([
      () => json(200, { access_token: 'T1', token_type: 'Bearer', expires_in: 3600 }),
      () => json(200, { id: 'o1', status: 'paid' }),
      () => json(200, { id: 'o2', status: 'paid' }),
    ]);
    const Client = mod.ServiceClient as new (o: Json) => Record<string, (...a: unknown[]) => Promise<unknown>>;
    const client = new Client({ baseUrl: 'http://svc.test', credentials: { payments: { clientId: 'psp', clientSecret: 's3cret' } }, fetch });
    await client.payOrder!('o1');
    await client.payOrder!('o2');
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'POST http://svc.test/oauth/token',
      'POST http://svc.test/orders/o1/pay',
      'POST http://svc.test/orders/o2/pay',
    ]);
    expect(calls[0]!.body).toBe('grant_type=client_credentials');
    expect(calls[0]!.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(calls[0]!.headers.get('authorization')).toBe(`Basic ${Buffer.from('psp:s3cret').toString('base64')}`);
    expect(calls[1]!.headers.get('authorization')).toBe('Bearer T1');
    expect(calls[2]!.headers.get('authorization')).toBe('Bearer T1');
  });

  it('puts the version in the path where the spec places it there (library), and HTTP Basic for staff', async () => {
    const mod = await loadClient<Json>(generateClient(exampleModel('library')).code, tmp.path, 'library-a');
    const { fetch, calls } = scripted([() => new Response(null, { status: 204 })]);
    const Client = mod.ServiceClient as new (o: Json) => Record<string, (...a: unknown[]) => Promise<unknown>>;
    const client = new Client({ baseUrl: 'http://lib.test', credentials: { staff: { username: 'desk', password: 'pw' } }, fetch });
    await expect(client.deleteBook!('b 1')).resolves.toBeUndefined();
    expect(calls[0]).toMatchObject({ url: 'http://lib.test/v2/books/b%201', method: 'DELETE' });
    expect(calls[0]!.headers.get('authorization')).toBe(`Basic ${Buffer.from('desk:pw').toString('base64')}`);
  });
});

describe('generated client: the webhook verifier', () => {
  const secretBytes = randomBytes(32);
  const secret = `whsec_${secretBytes.toString('base64')}`;
  const sign = (id: string, ts: string, body: string, key = secretBytes) => `v1,${createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64')}`;

  it('accepts a Standard Webhooks signature and returns the event; refuses a wrong one or a stale timestamp', async () => {
    const mod = await loadClient<Json>(generateClient(exampleModel('orders')).code, tmp.path, 'orders-w');
    const verify = mod.verifyWebhook as (s: string | string[], h: unknown, b: string, o?: Json) => Promise<Json>;
    const body = JSON.stringify({ type: 'order.paid', timestamp: '2026-11-02T10:00:00Z', data: { id: 'o1', status: 'paid' } });
    const ts = String(Math.floor(Date.now() / 1000));
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': ts, 'webhook-signature': `v1,bogus ${sign('msg_1', ts, body)}` };
    await expect(verify(secret, headers, body)).resolves.toMatchObject({ type: 'order.paid', data: { id: 'o1' } });
    await expect(verify(secret, new Headers(headers), body)).resolves.toMatchObject({ type: 'order.paid' });
    // during a rotation both secrets verify
    await expect(verify([`whsec_${randomBytes(32).toString('base64')}`, secret], headers, body)).resolves.toBeDefined();
    await expect(verify(secret, headers, body.replace('o1', 'o2'))).rejects.toThrow('no signature matches');
    const old = String(Math.floor(Date.now() / 1000) - 3600);
    await expect(verify(secret, { ...headers, 'webhook-timestamp': old, 'webhook-signature': sign('msg_1', old, body) }, body)).rejects.toThrow('tolerance');
    await expect(verify(secret, { 'webhook-id': 'x' }, body)).rejects.toThrow('missing');
  });
});

describe('a form request none of whose fields is required', () => {
  const SPEC = `servicespec: 1
authentication:
  default: none
endpoints:
  operations:
    configure:
      method: POST
      path: /configuration
      action: custom
      handler: configure
      request:
        media_type: application/x-www-form-urlencoded
        fields: { enabled: { type: boolean, optional: true }, webhook: { type: uri, optional: true } }
      response: { fields: { enabled: { type: boolean } } }
    search:
      method: POST
      path: /search
      action: custom
      handler: search
      request:
        media_type: application/x-www-form-urlencoded
        fields: { criteria: { type: string }, start: { type: integer, optional: true } }
      response: { fields: { hits: { type: integer } } }
`;

  it('may be left out of the call (served, an absent form reads as no fields); one with a required field may not', async () => {
    const model = checkedModel(SPEC);
    const { code } = generateClient(model);
    expect(code).toMatch(/\n {2}configure\(body: \w+ = \{\}, options: /);
    expect(code).toMatch(/\n {2}search\(body: \w+, options: /);
    const mod = await loadClient<Json>(code, tmp.path, 'forms');
    const { fetch, calls } = scripted([() => json(200, { enabled: true })]);
    const Client = mod.ServiceClient as new (o: Json) => Record<string, (...a: unknown[]) => Promise<unknown>>;
    const client = new Client({ baseUrl: 'http://svc.test', fetch });
    expect(await client.configure!()).toEqual({ enabled: true });
    expect(calls.map((c) => [c.method, c.url, c.headers.get('content-type'), c.body])).toEqual([
      ['POST', 'http://svc.test/configuration', 'application/x-www-form-urlencoded', ''],
    ]);
  });
});
