// The generated client's runtime as the module it is (src/export/client-runtime.ts), against its stand-in tables;
// export-client.test.ts and client-e2e.test.ts hold the generated clients that carry it.
import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ServiceClient,
  ServiceError,
  isServiceError,
  verifyWebhook,
  VERSIONING,
  WebhookVerificationError,
  type IdempotentRequestOptions,
} from '../../src/export/client-runtime.js';
import { compileSpecText } from '../../src/program.js';
import { generateClient, getClientRuntime } from '../../src/export/export-client.js';
import { EXAMPLE_NAMES, exampleModel } from './helpers.js';

interface Call {
  url: string;
  method: string;
  headers: Headers;
  body?: string;
}

function scripted(answers: (() => Response)[]): { fetch: typeof fetch; calls: Call[] } {
  const calls: Call[] = [];
  const f = async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({
      url: String(input),
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      ...(typeof init?.body === 'string' ? { body: init.body } : {}),
    });
    const answer = answers.shift();
    if (!answer) throw new Error('unexpected request');
    return answer();
  };
  return { fetch: f as typeof fetch, calls };
}

const MEDIA_SPEC = `
servicespec: 1
resources:
  Bed: { fields: { id: { type: uuid, readOnly: true }, label: { type: string } } }
endpoints:
  operations:
    getBed: { method: GET, path: "/beds/{id}", action: read, resource: Bed, auth: none }
versioning:
  scheme: integer
  current: 2
  placement: { media_type: "application/vnd.garden.v{version}+json" }
  supported: [{ version: 1 }]
`;

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** What a generated client adds: typed methods over `request`. */
class Client extends ServiceClient {
  getOrder(id: string, options: IdempotentRequestOptions = {}) {
    return this.request<{ id: string }>('getOrder', 'GET', () => `/orders/${encodeURIComponent(id)}`, { options });
  }
  createOrder(body: object, options: IdempotentRequestOptions = {}) {
    return this.request<{ id: string }>('createOrder', 'POST', () => '/orders', { body, options, idempotent: true });
  }
  health(query: object = {}) {
    return this.request<string>('health', 'GET', (v) => `/health/${v}`, { query, options: {} });
  }
}

describe('client runtime: the text copied into every client', () => {
  it('imports nothing, and every generated client carries it with its operations spliced in', () => {
    const text = getClientRuntime();
    expect(text).not.toMatch(/^\s*import\s/m);
    expect(text).not.toContain('stand-in');
    for (const name of EXAMPLE_NAMES) {
      const code = generateClient(exampleModel(name)).code;
      expect(code).not.toContain('// ---- operations ----');
      // everything after the operations comes over unchanged
      const tail = text.slice(text.indexOf('  async #token('));
      expect(code.endsWith(tail)).toBe(true);
    }
  });
});

describe('client runtime: requests', () => {
  it("sends the first credential given among the operation's schemes, the version header and the idempotency key", async () => {
    const { fetch, calls } = scripted([() => json(200, { id: 'o1' }), () => json(201, { id: 'o2' }), () => json(201, { id: 'o3' })]);
    const client = new Client({ baseUrl: 'http://svc.test///', credentials: { key: 'k1', token: async () => 't1' }, fetch });
    await expect(client.getOrder('a/b')).resolves.toEqual({ id: 'o1' });
    expect(calls[0]!.url).toBe('http://svc.test/orders/a%2Fb');
    expect(calls[0]!.headers.get('authorization')).toBe('Bearer t1');
    expect(calls[0]!.headers.get('x-api-key')).toBeNull();
    expect(calls[0]!.headers.get('api-version')).toBe('2025-01-01');
    await client.createOrder({ n: 1 }, { idempotencyKey: 'same', version: '2024-01-01' });
    expect(calls[1]!.headers.get('x-api-key')).toBe('k1');
    expect(calls[1]!.headers.get('request-once-key')).toBe('same');
    expect(calls[1]!.headers.get('api-version')).toBe('2024-01-01');
    expect(calls[1]!.body).toBe('{"n":1}');
    await client.createOrder({});
    expect(calls[2]!.headers.get('request-once-key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('with the version in the media type, names it as Accept, and sends a body as that type (the template filled in)', async () => {
    const saved = { ...VERSIONING };
    Object.assign(VERSIONING, { kind: 'media_type', name: 'application/vnd.shop.v{version}+json' });
    try {
      const { fetch, calls } = scripted([
        () => json(200, { id: 'o1' }, { 'content-type': 'application/vnd.shop.v2025-01-01+json; charset=utf-8' }),
        () => json(201, { id: 'o2' }),
      ]);
      const client = new Client({ baseUrl: 'http://svc.test', credentials: { key: 'k1', token: async () => 't1' }, fetch });
      await expect(client.getOrder('a')).resolves.toEqual({ id: 'o1' });
      expect(calls[0]!.headers.get('accept')).toBe('application/vnd.shop.v2025-01-01+json');
      expect(calls[0]!.headers.get('api-version')).toBeNull();
      await client.createOrder({ n: 1 }, { version: '2024-01-01' });
      expect(calls[1]!.headers.get('accept')).toBe('application/vnd.shop.v2024-01-01+json');
      expect(calls[1]!.headers.get('content-type')).toBe('application/vnd.shop.v2024-01-01+json');
    } finally {
      Object.assign(VERSIONING, saved);
    }
    const code = generateClient(compileSpecText(MEDIA_SPEC, 'media.yaml').model!).code;
    expect(code).toContain('const VERSIONING: { kind: string; name?: string } = {"kind":"media_type","name":"application/vnd.garden.v{version}+json"};');
  });

  it('sends no credential where the operation needs none; query values as strings or JSON, null and undefined left out', async () => {
    const { fetch, calls } = scripted([() => new Response('ok', { status: 200, headers: { 'content-type': 'text/plain' } })]);
    const client = new Client({ baseUrl: 'http://svc.test', credentials: { key: 'k1' }, fetch, version: '2024-01-01' });
    await expect(client.health({ a: 1, b: null, c: undefined, d: { x: true } })).resolves.toBe('ok');
    expect(calls[0]!.url).toBe('http://svc.test/health/2024-01-01?a=1&d=%7B%22x%22%3Atrue%7D');
    expect(calls[0]!.headers.get('x-api-key')).toBeNull();
  });
});

describe('client runtime: errors', () => {
  it('takes the code from the body, else the one declared code with that status, else http_<status>', async () => {
    const { fetch } = scripted([
      () => json(409, { code: 'conflict', title: 'Taken', status: 409 }),
      () => new Response('gone', { status: 404 }),
      () => json(429, {}, { 'retry-after': '7' }),
      () => json(503, {}, { 'retry-after': 'Wed, 21 Oct 2026 07:28:00 GMT' }),
    ]);
    const client = new Client({ baseUrl: 'http://svc.test', credentials: { key: 'k' }, fetch });
    const conflict = await client.createOrder({}).catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(ServiceError);
    expect(conflict).toMatchObject({ code: 'conflict', status: 409, message: 'conflict (409): Taken' });
    expect(isServiceError(conflict, 'conflict')).toBe(true);
    expect(isServiceError(conflict, 'not_found')).toBe(false);
    expect(isServiceError(new Error('x'))).toBe(false);
    await expect(client.getOrder('x')).rejects.toMatchObject({ code: 'not_found', status: 404, body: 'gone' });
    await expect(client.getOrder('x')).rejects.toMatchObject({ code: 'rate_limited', retryAfter: 7 });
    await expect(client.getOrder('x')).rejects.toMatchObject({ code: 'http_503', retryAfter: undefined });
  });
});

describe('client runtime: credentials', () => {
  it('HTTP Basic, and a client-credentials token fetched once and reused until it expires', async () => {
    const { fetch, calls } = scripted([
      () => json(200, { id: 'o1' }),
      () => json(200, { access_token: 'T1', expires_in: 3600 }),
      () => json(200, { id: 'o2' }),
      () => json(200, { id: 'o3' }),
    ]);
    const basic = new Client({ baseUrl: 'http://svc.test', credentials: { staff: { username: 'desk', password: 'pä' } }, fetch });
    await basic.getOrder('1');
    expect(calls[0]!.headers.get('authorization')).toBe(`Basic ${Buffer.from('desk:pä').toString('base64')}`);
    const machine = new Client({ baseUrl: 'http://svc.test', credentials: { machine: { clientId: 'c', clientSecret: 's', scopes: ['a', 'b'] } }, fetch });
    await machine.getOrder('2');
    await machine.getOrder('3');
    expect(calls.map((c) => `${c.method} ${c.url}`).slice(1)).toEqual([
      'POST http://svc.test/oauth/token',
      'GET http://svc.test/orders/2',
      'GET http://svc.test/orders/3',
    ]);
    expect(calls[1]!.body).toBe('grant_type=client_credentials&scope=a+b');
    expect(calls[3]!.headers.get('authorization')).toBe('Bearer T1');
  });

  it('a token endpoint that refuses becomes a ServiceError', async () => {
    const { fetch } = scripted([() => json(401, { error: 'invalid_client' })]);
    const client = new Client({ baseUrl: 'http://svc.test', credentials: { machine: { clientId: 'c', clientSecret: 'bad' } }, fetch });
    await expect(client.getOrder('1')).rejects.toMatchObject({ code: 'http_401', status: 401 });
  });
});

describe('client runtime: webhooks', () => {
  const key = randomBytes(24);
  const secret = `whsec_${key.toString('base64')}`;
  const sign = (id: string, ts: string, body: string) => `v1,${createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64')}`;

  it('verifies at a given time with the bare base64 secret and array header values; refuses outside the tolerance', async () => {
    const body = '{"id":"e1","type":"order.created","timestamp":"2026-01-01T00:00:00Z","data":{"id":"o1"}}';
    const now = new Date('2026-01-01T00:00:00Z');
    const ts = String(now.getTime() / 1000);
    const headers = { 'Webhook-Id': ['m1'], 'webhook-timestamp': ts, 'webhook-signature': sign('m1', ts, body) };
    await expect(verifyWebhook(key.toString('base64'), headers, body, { now })).resolves.toMatchObject({ type: 'order.created' });
    const late = new Date(now.getTime() + 301_000);
    await expect(verifyWebhook(secret, headers, body, { now: late })).rejects.toThrow(WebhookVerificationError);
    await expect(verifyWebhook(secret, headers, body, { now: late, toleranceSeconds: 400 })).resolves.toBeDefined();
    await expect(verifyWebhook(secret, { ...headers, 'webhook-timestamp': '1e9' }, body, { now })).rejects.toThrow('not a number');
  });
});
