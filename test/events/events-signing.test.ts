import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, isWebhookSecret, signWebhook, verifyWebhook, WebhookVerificationError } from '../../src/runtime/events/events-signing.js';

const secret = generateWebhookSecret();
const body = JSON.stringify({
  id: '0190a3c2-7b1e-7000-8000-000000000001',
  type: 'ticket.created',
  timestamp: '2026-01-01T00:00:00.000Z',
  data: { object: { title: 'ünïcode ✓' } },
});
const id = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';
const nowMs = 1_767_225_600_000; // 2026-01-01T00:00:00Z
const now = () => nowMs;
const ts = nowMs / 1000;

function flip(text: string, at: number): string {
  const c = text.charCodeAt(at);
  return `${text.slice(0, at)}${String.fromCharCode(c ^ 1)}${text.slice(at + 1)}`;
}

describe('signWebhook and verifyWebhook (Standard Webhooks 1.0)', () => {
  it('signs what the independent standardwebhooks package verifies, and verifies what it signs', () => {
    const headers = signWebhook(secret, id, ts, body);
    expect(headers['webhook-id']).toBe(id);
    expect(headers['webhook-timestamp']).toBe(String(ts));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);
    // The reference library checks timestamps against the real clock: sign for now.
    const live = signWebhook(secret, id, new Date(), body);
    expect(new Webhook(secret).verify(body, { ...live })).toEqual(JSON.parse(body));
    const theirs = new Webhook(secret).sign(id, new Date(nowMs), body);
    expect(theirs).toBe(headers['webhook-signature']);
    expect(verifyWebhook(secret, { 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': theirs }, body, { now })).toEqual(JSON.parse(body));
  });

  it('accepts headers as a Headers object, in any case, and bodies as bytes', () => {
    const h = signWebhook(secret, id, ts, body);
    expect(verifyWebhook(secret, new Headers({ ...h }), Buffer.from(body), { now })).toEqual(JSON.parse(body));
    expect(
      verifyWebhook(
        secret,
        { 'Webhook-Id': h['webhook-id'], 'WEBHOOK-TIMESTAMP': h['webhook-timestamp'], 'webhook-signature': h['webhook-signature'] },
        new TextEncoder().encode(body),
        { now },
      ),
    ).toBeTruthy();
  });

  it('rejects a body, id or timestamp altered by one byte', () => {
    const h = signWebhook(secret, id, ts, body);
    for (let at = 0; at < body.length; at += 7) expect(() => verifyWebhook(secret, h, flip(body, at), { now })).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(secret, h, `${body} `, { now })).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(secret, { ...h, 'webhook-id': flip(id, 5) }, body, { now })).toThrow(/no matching signature/);
    expect(() => verifyWebhook(secret, { ...h, 'webhook-timestamp': String(ts + 1) }, body, { now })).toThrow(/no matching signature/);
    const sig = h['webhook-signature'];
    expect(() => verifyWebhook(secret, { ...h, 'webhook-signature': flip(sig, 10) }, body, { now })).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(generateWebhookSecret(), h, body, { now })).toThrow(/no matching signature/);
    // and the independent library agrees the altered messages are bad
    const live = signWebhook(secret, id, new Date(), body);
    expect(() => new Webhook(secret).verify(flip(body, 3), { ...live })).toThrow();
  });

  it('rejects timestamps outside the tolerance in either direction (301 s off with the default 300 s)', () => {
    for (const off of [301, -301, 3600, -86_400]) {
      const h = signWebhook(secret, id, ts + off, body);
      expect(() => verifyWebhook(secret, h, body, { now }), `${off} s`).toThrow(off > 0 ? /future/ : /too old/);
    }
    for (const off of [300, -300, 0]) expect(verifyWebhook(secret, signWebhook(secret, id, ts + off, body), body, { now })).toBeTruthy();
    expect(() => verifyWebhook(secret, signWebhook(secret, id, ts - 61, body), body, { now, tolerance: 60 })).toThrow(/too old/);
  });

  it('carries one signature per secret during a rotation; either secret verifies', () => {
    const next = generateWebhookSecret();
    const h = signWebhook([next, secret], id, ts, body);
    expect(h['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifyWebhook(secret, h, body, { now })).toBeTruthy();
    expect(verifyWebhook(next, h, body, { now })).toBeTruthy();
    expect(verifyWebhook([generateWebhookSecret(), next], h, body, { now })).toBeTruthy();
    const live = signWebhook([next, secret], id, new Date(), body);
    expect(new Webhook(secret).verify(body, { ...live })).toBeTruthy();
    expect(new Webhook(next).verify(body, { ...live })).toBeTruthy();
  });

  it('rejects missing or malformed headers and non-JSON bodies', () => {
    const h = signWebhook(secret, id, ts, body);
    expect(() => verifyWebhook(secret, { 'webhook-id': id, 'webhook-timestamp': h['webhook-timestamp'] }, body, { now })).toThrow(/missing/);
    expect(() => verifyWebhook(secret, { ...h, 'webhook-timestamp': '1e9' }, body, { now })).toThrow(/not a number/);
    expect(() => verifyWebhook(secret, { ...h, 'webhook-signature': h['webhook-signature'].replace('v1,', 'v2,') }, body, { now })).toThrow(/no matching/);
    expect(() => verifyWebhook(secret, { ...h, 'webhook-id': [id, id] }, body, { now })).toThrow(/more than once/);
    const text = 'not json';
    expect(() => verifyWebhook(secret, signWebhook(secret, id, ts, text), text, { now })).toThrow(/not JSON/);
  });

  it('issues and accepts only whsec_ secrets of 24 to 64 bytes', () => {
    expect(isWebhookSecret(secret)).toBe(true);
    expect(isWebhookSecret(`whsec_${Buffer.alloc(24, 1).toString('base64')}`)).toBe(true);
    expect(isWebhookSecret(`whsec_${Buffer.alloc(16, 1).toString('base64')}`)).toBe(false);
    expect(isWebhookSecret(`whsec_${Buffer.alloc(65, 1).toString('base64')}`)).toBe(false);
    expect(isWebhookSecret(secret.slice(6))).toBe(false);
    expect(isWebhookSecret('whsec_not base64!')).toBe(false);
  });
});
