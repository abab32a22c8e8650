// The shipped examples, served with their schemes exactly as declared.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { createApiKey, createBasicUser, createClient } from '../../src/runtime/auth/auth-credentials.js';
import { basic, bearer, EXAMPLES, makeRsaKey, startAuthService, writeJwks, type AuthServer, type RsaKey } from './helpers.js';

describe('examples/orders.yaml: api_key X-API-Key (sk_), bearer RS256/ES256 from an identity provider, oauth2 payments', () => {
  let s: AuthServer;
  let idp: RsaKey;
  let jwks: { path: string; remove: () => void };
  let key: string;
  const idpToken = (sub: string, scope: string, extra: Record<string, unknown> = {}) =>
    new SignJWT({ scope, ...extra })
      .setProtectedHeader({ alg: 'RS256', kid: idp.kid })
      .setSubject(sub)
      .setIssuer('https://id.example.com/')
      .setAudience('https://orders.example.com')
      .setIssuedAt(s.clock.seconds())
      .setExpirationTime(s.clock.seconds() + 3600)
      .sign(idp.privateKey);

  beforeAll(async () => {
    idp = await makeRsaKey('idp-1');
    jwks = writeJwks([idp]);
    s = await startAuthService({
      spec: join(EXAMPLES, 'orders.yaml'),
      auth: { jwt: { jwksFile: jwks.path } },
      handlers: { quote: () => ({ amount: 1, currency: 'EUR', valid_until: new Date().toISOString() }) },
    });
    key = (await createApiKey(s.storage, s.model, { subject: 'back-office', scopes: ['customers:read', 'customers:write', 'orders:read'] })).key;
    expect(key.startsWith('sk_')).toBe(true);
  });
  afterAll(async () => {
    await s.close();
    jwks.remove();
  });

  it('serves every scheme: key, identity-provider token, service-issued payments token', async () => {
    const customer = await s.call('POST', '/customers', { body: { name: 'Ada', email: 'ada@example.com' }, headers: { 'x-api-key': key } });
    expect(customer.status).toBe(201);
    const order = {
      customer: customer.body.id,
      items: [{ sku: 'MUG-BLUE-350', quantity: 1, unit_price: 2599 }],
      amount: 2599,
      currency: 'EUR',
      shipping_address: { line1: 'Main St 1', city: 'Delft', postal_code: '2611', country: 'NL' },
    };
    const alice = bearer(await idpToken('alice', 'orders:read orders:write'));
    const created = await s.call('POST', '/orders', { body: order, headers: alice });
    expect(created.status).toBe(201);
    expect(created.body.owner).toBe('alice');
    // Another subject (the back-office key) is told the order is forbidden, as orders.yaml declares.
    const other = await s.call('GET', `/orders/${created.body.id as string}`, { headers: { 'x-api-key': key } });
    expect({ status: other.status, code: other.body.code }).toEqual({ status: 403, code: 'forbidden' });
    // payOrder accepts only the payments scheme: an identity-provider token is not one of its tokens.
    const wrong = await s.call('POST', `/orders/${created.body.id as string}/pay`, { headers: alice });
    expect({ status: wrong.status, code: wrong.body.code }).toEqual({ status: 401, code: 'unauthenticated' });
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer realm="Orders", error="invalid_token"');
    const c = await createClient(s.storage, s.model, { subject: 'alice', scopes: ['orders:write'] });
    const tokenRes = await fetch(`${s.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...basic(c.clientId, c.clientSecret) },
      body: 'grant_type=client_credentials',
    });
    const issued = (await tokenRes.json()) as { access_token: string; expires_in: number };
    expect(issued.expires_in).toBe(3600);
    const paid = await s.call('POST', `/orders/${created.body.id as string}/pay`, { headers: bearer(issued.access_token) });
    expect({ status: paid.status, state: paid.body.status }).toEqual({ status: 200, state: 'paid' });
  });

  it('honours the declared 30 s clock tolerance and 1 h lifetime', async () => {
    const base = { iss: 'https://id.example.com/', aud: 'https://orders.example.com', sub: 'alice', scope: 'orders:read' };
    const sign = (claims: Record<string, unknown>) => new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: idp.kid }).sign(idp.privateKey);
    const now = s.clock.seconds();
    const call = async (claims: Record<string, unknown>) => {
      const r = await s.call('GET', '/orders', { headers: bearer(await sign({ ...base, ...claims })) });
      return { status: r.status, code: r.body.code as string | undefined };
    };
    expect(await call({ iat: now - 3600, exp: now - 29 })).toEqual({ status: 200, code: undefined });
    expect(await call({ iat: now - 3600, exp: now - 31 })).toEqual({ status: 401, code: 'unauthenticated' });
    expect(await call({ iat: now, exp: now + 3600 + 30 })).toEqual({ status: 200, code: undefined });
    expect(await call({ iat: now, exp: now + 3600 + 31 })).toEqual({ status: 401, code: 'unauthenticated' });
    // ES256 is declared too, but the identity provider's key set holds no EC key.
    expect(
      (
        await s.call('GET', '/orders', {
          headers: bearer(
            await new SignJWT(base)
              .setProtectedHeader({ alg: 'HS256' })
              .setExpirationTime(now + 60)
              .sign(new Uint8Array(32)),
          ),
        })
      ).status,
    ).toBe(401);
  });
});

describe('examples/library.yaml: basic staff and api_key app', () => {
  let s: AuthServer;
  beforeAll(async () => {
    s = await startAuthService({
      spec: join(EXAMPLES, 'library.yaml'),
      handlers: { bookAvailability: () => ({ book: '00000000-0000-4000-8000-000000000000', copies_available: 0, next_due: null }) },
    });
    await createBasicUser(s.storage, s.model, { username: 'frontdesk', password: 'open sesame 42', scopes: ['catalog:read', 'catalog:write'] });
  });
  afterAll(() => s.close());

  it('staff sign in with Basic; the app key goes in X-Library-Key; public reads need nothing', async () => {
    const book = { isbn: '9780141439518', title: 'Pride and Prejudice', authors: ['Jane Austen'], language: 'en', copies: 2 };
    const none = await s.call('POST', '/v2/books', { body: book });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Basic realm="Lending Library", charset="UTF-8"');
    const created = await s.call('POST', '/v2/books', { body: book, headers: basic('frontdesk', 'open sesame 42') });
    expect(created.status).toBe(201);
    expect((await s.call('GET', `/v2/books/${created.body.id as string}`)).status).toBe(200);
    const app = (await createApiKey(s.storage, s.model, { subject: 'members-app', scopes: ['catalog:read'] })).key;
    expect(app).toMatch(/^[0-9A-Za-z]{12}_/);
    // createBook names only staff: the app key is no credential for it.
    const wrongScheme = await s.call('POST', '/v2/books', { body: book, headers: { 'x-library-key': app } });
    expect(wrongScheme.status).toBe(401);
  });

  it('a version 1 client creates a book without language (v1 has none): validated in its own shape, the default fills it', async () => {
    const staff = basic('frontdesk', 'open sesame 42');
    const v1Book = { isbn: '9780141439525', title: 'Emma', authors: ['Jane Austen'], copies: 1 };
    // Unauthenticated, the credential is refused before the body is looked at.
    expect((await s.call('POST', '/v1/books', { body: { ...v1Book, language: 'en' } })).status).toBe(401);
    const created = await s.call('POST', '/v1/books', { body: v1Book, headers: staff });
    expect(created.status).toBe(201);
    expect(created.body).not.toHaveProperty('language');
    expect((await s.call('GET', `/v1/books/${created.body.id as string}`)).body).toEqual(created.body);
    expect((await s.call('GET', `/v2/books/${created.body.id as string}`)).body.language).toBe('en');
    // language is not a field of version 1.
    const unknown = await s.call('POST', '/v1/books', { body: { ...v1Book, isbn: '9780141439532', language: 'nl' }, headers: staff });
    expect(unknown.status).toBe(422);
    expect(unknown.body.code).toBe('validation_failed');
    expect(unknown.body.details).toEqual([{ pointer: '/language', message: 'unknown field language' }]);
  });
});
