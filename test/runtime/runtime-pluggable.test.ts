// The pluggable parts may answer at once or through a promise: a storage without the synchronous reads (as one
// over the network would be), a rate-limit store and an authenticator that answer with promises or with another
// library's thenables. The runtime serves the same answers either way.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { createApiKey } from '../../src/runtime/auth/auth-credentials.js';
import { createAuthenticator } from '../../src/runtime/auth/auth-authenticator.js';
import { createMemoryStore, type RateLimitStore } from '../../src/runtime/limits/limits-store.js';
import type { Authenticator, Principal } from '../../src/runtime/runtime-context.js';
import { ServiceError } from '../../src/runtime/runtime-errors.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import type { Storage } from '../../src/runtime/storage/storage-types.js';
import { callJson } from '../support/http.js';
import { loadModel } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'servicespec-pluggable-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A thenable that is not a native promise, as promise libraries make. */
function thenable<T>(value: T): PromiseLike<T> {
  return { then: (ok, fail) => Promise.resolve(value).then(ok, fail) };
}

/** The SQLite storage with its synchronous reads hidden: every read goes through a promise. */
function promiseOnly(storage: Storage): Storage {
  return new Proxy(storage, {
    get(target, key) {
      if (key === 'readNow' || key === 'findCredentialNow') return undefined;
      const v = Reflect.get(target, key, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

describe('examples/orders.yaml on a storage that answers only through promises, with a thenable rate-limit store', () => {
  it('creates, reads and lists as on the synchronous path; refuses a bad key with the declared code; counts rate limits', async () => {
    const model = loadModel(fileURLToPath(new URL('../../examples/orders.yaml', import.meta.url)));
    const storage = promiseOnly(createSqliteStorage({ path: join(dir, 'orders.db'), synchronous: 'normal' }));
    const memory = createMemoryStore();
    const rateLimitStore: RateLimitStore = {
      kind: 'memory',
      take: (key, requests, windowMs) => thenable(memory.take(key, requests, windowMs) as ReturnType<typeof memory.take> & object) as never,
      close: () => memory.close(),
    };
    const authenticator = await createAuthenticator(model, storage, { allowGaps: true });
    const app = await createService(model, { storage, authenticator, rateLimitStore, allowGaps: true, handlers: { quote: () => ({}) } });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { key } = await createApiKey(storage, model, { subject: 'ann', scopes: ['orders:read', 'orders:write', 'customers:write'] });
      const headers = { 'x-api-key': key };
      const customer = await callJson(url, 'POST', '/customers', { name: 'Ann', email: 'ann@example.com' }, headers);
      expect(customer.status).toBe(201);
      const body = {
        customer: customer.body.id,
        items: [{ sku: 'MUG-BLUE-350', quantity: 1, unit_price: 1299 }],
        amount: 1299,
        currency: 'EUR',
        shipping_address: { line1: 'Keizersgracht 1', city: 'Amsterdam', postal_code: '1015 CJ', country: 'NL' },
      };
      const order = await callJson(url, 'POST', '/orders', body, headers);
      expect(order.status).toBe(201);
      const read = await callJson(url, 'GET', `/orders/${order.body.id}`, undefined, headers);
      expect({ status: read.status, id: read.body.id, owner: read.body.owner }).toEqual({ status: 200, id: order.body.id, owner: 'ann' });
      expect(read.headers.get('ratelimit')).toMatch(/^"per_credential";r=\d+;t=\d+, "per_address";r=\d+;t=\d+$/);
      const list = await callJson(url, 'GET', '/orders?limit=1', undefined, headers);
      expect(list.status).toBe(200);
      expect(list.body.items.map((o: { id: string }) => o.id)).toEqual([order.body.id]);
      const bad = await callJson(url, 'GET', `/orders/${order.body.id}`, undefined, {
        'x-api-key': `${key.slice(0, -1)}A` === key ? `${key.slice(0, -1)}B` : `${key.slice(0, -1)}A`,
      });
      expect({ status: bad.status, code: bad.body.code }).toEqual({ status: 401, code: 'unauthenticated' });
    } finally {
      await app.close();
    }
  });
});

describe('an authenticator of the embedding application', () => {
  const SPEC = `
servicespec: 1
purpose: { name: Pluggable }
resources:
  Item:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string, maxLength: 50 }
endpoints:
  operations:
    whoami: { method: GET, path: /whoami, action: custom, handler: whoami, auth: { schemes: [key], scopes: [read] }, response: { fields: { subject: { type: string } } } }
authentication:
  schemes:
    key: { type: api_key, in: header, name: X-Who }
  scopes: { read: Read. }
errors:
  body: problem
  codes:
    not_found: { status: 404, when: [missing_resource, route_not_found] }
    unauthenticated: { status: 401, when: [missing_credential, invalid_credential, expired_credential] }
    forbidden: { status: 403, when: [missing_scope] }
    invalid: { status: 422, when: [validation] }
    not_allowed: { status: 405, when: [method_not_allowed] }
    headers_too_large: { status: 431, when: [headers_too_large] }
    malformed: { status: 400, when: [malformed_request] }
    internal: { status: 500, when: [internal] }
    too_many: { status: 429, when: [rate_limited] }
limits:
  failed_auth: { attempts: 10, per: 1m }
`;

  it('may answer at once, with a promise or with another library\u2019s thenable; its refusals get the declared codes', async () => {
    const model = compileSpecText(SPEC, 'pluggable.yaml').checked!;
    const principal = (subject: string, scopes: string[] = ['read']): Principal => ({ subject, scopes, scheme: 'key' });
    const authenticator: Authenticator = {
      authenticate(request) {
        const who = request.headers['x-who'];
        if (who === 'now') return principal('now');
        if (who === 'promise') return Promise.resolve(principal('promise'));
        if (who === 'thenable') return thenable(principal('thenable')) as Promise<Principal>;
        if (who === 'no-scope')
          return Promise.resolve(principal('x', [])).then((p) =>
            p.scopes.includes('read') ? p : Promise.reject(new ServiceError('missing_scope', 'needs read')),
          );
        if (who === 'rejects') return Promise.reject(new ServiceError('invalid_credential', 'no'));
        throw new ServiceError('missing_credential', 'who are you?');
      },
    };
    const app = await createService(model, {
      storage: createSqliteStorage({ path: join(dir, 'custom.db'), synchronous: 'normal' }),
      authenticator,
      handlers: { whoami: ({ principal: p }) => ({ subject: p?.subject ?? '' }) },
    });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      for (const who of ['now', 'promise', 'thenable']) {
        const r = await callJson(url, 'GET', '/whoami', undefined, { 'x-who': who });
        expect({ status: r.status, body: r.body }).toEqual({ status: 200, body: { subject: who } });
      }
      const refused = await Promise.all(['no-scope', 'rejects', 'nobody'].map(async (who) => callJson(url, 'GET', '/whoami', undefined, { 'x-who': who })));
      expect(refused.map((r) => [r.status, r.body.code])).toEqual([
        [403, 'forbidden'],
        [401, 'unauthenticated'],
        [401, 'unauthenticated'],
      ]);
    } finally {
      await app.close();
    }
  });
});
