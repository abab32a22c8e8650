// Standard Webhooks 1.0 signing (https://www.standardwebhooks.com): the sender's side (`signWebhook`) and the
// receiver's (`verifyWebhook`). The signed content is `{webhook-id}.{webhook-timestamp}.{body}`; the signature is
// `v1,` + base64(HMAC-SHA256(key, content)), where the key is the base64 after a `whsec_` prefix. During a secret
// rotation a message carries one signature per secret, separated by spaces; a receiver accepts any one of them.

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** How far a message's timestamp may be from the receiver's clock, either way, by default (seconds). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

const MIN_KEY_BYTES = 24;
const MAX_KEY_BYTES = 64;
const BASE64_RE = /^[A-Za-z0-9+/]+={0,2}$/;

/** Why a received message was rejected. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** A new `whsec_` secret of 32 random bytes. */
export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** Whether `secret` is `whsec_` + base64 of 24 to 64 bytes (the form the service issues and accepts). */
export function isWebhookSecret(secret: string): boolean {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) return false;
  const b64 = secret.slice(WEBHOOK_SECRET_PREFIX.length);
  if (!BASE64_RE.test(b64) || b64.length % 4 !== 0) return false;
  const n = Buffer.from(b64, 'base64').length;
  return n >= MIN_KEY_BYTES && n <= MAX_KEY_BYTES;
}

/** The key bytes of a secret; the `whsec_` prefix is optional, as in the reference libraries. */
function keyOf(secret: string): Buffer {
  const b64 = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret;
  if (b64 === '' || !BASE64_RE.test(b64)) throw new TypeError('a webhook secret is `whsec_` followed by base64');
  return Buffer.from(b64, 'base64');
}

function toBytes(body: string | Uint8Array): Buffer {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

function sign(key: Buffer, id: string, timestamp: string, body: Buffer): Buffer {
  return createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
}

export type WebhookHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/**
 * The three Standard Webhooks headers for one attempt. `timestamp` is the attempt's time (a Date, or seconds since
 * the epoch); with several secrets (rotation), one `v1,` signature per secret, in the order given.
 */
export function signWebhook(secrets: string | readonly string[], id: string, timestamp: Date | number, body: string | Uint8Array): WebhookHeaders {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  if (list.length === 0) throw new TypeError('signWebhook needs at least one secret');
  const ts = String(typeof timestamp === 'number' ? Math.floor(timestamp) : Math.floor(timestamp.getTime() / 1000));
  const bytes = toBytes(body);
  const signature = list.map((s) => `v1,${sign(keyOf(s), id, ts, bytes).toString('base64')}`).join(' ');
  return { 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': signature };
}

export type HeaderSource = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function' && typeof (headers as Headers).has === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const v = key === undefined ? undefined : record[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new WebhookVerificationError(`the ${name} header is given more than once`);
  return v;
}

export interface VerifyOptions {
  /** Seconds a timestamp may differ from now, in either direction (default 300). */
  tolerance?: number;
  /** The receiver's clock, in milliseconds since the epoch (default Date.now). */
  now?: () => number;
}

/**
 * Checks a received webhook: the signature (with any one of `secret`, when several are given), and that the
 * timestamp is within `tolerance` seconds of now either way (which bounds replays). Returns the parsed JSON body;
 * throws WebhookVerificationError when anything does not match.
 */
export function verifyWebhook(secret: string | readonly string[], headers: HeaderSource, body: string | Uint8Array, options: VerifyOptions = {}): unknown {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (id === undefined || id === '' || timestamp === undefined || signatures === undefined)
    throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^[0-9]{1,15}$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not a number of seconds');
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE_SECONDS;
  const now = Math.floor((options.now ?? Date.now)() / 1000);
  const ts = Number(timestamp);
  if (now - ts > tolerance) throw new WebhookVerificationError('the message timestamp is too old');
  if (ts - now > tolerance) throw new WebhookVerificationError('the message timestamp is too far in the future');
  const bytes = toBytes(body);
  const keys = (typeof secret === 'string' ? [secret] : secret).map(keyOf);
  const expected = keys.map((k) => sign(k, id, timestamp, bytes));
  let ok = false;
  for (const part of signatures.split(' ')) {
    const comma = part.indexOf(',');
    if (comma < 0 || part.slice(0, comma) !== 'v1') continue;
    const given = Buffer.from(part.slice(comma + 1), 'base64');
    for (const e of expected) if (given.length === e.length && timingSafeEqual(given, e)) ok = true;
  }
  if (!ok) throw new WebhookVerificationError('no matching signature');
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    throw new WebhookVerificationError('the body is not JSON');
  }
}
