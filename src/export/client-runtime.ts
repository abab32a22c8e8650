// The generated client's runtime: the request machinery, errors and the webhook verifier that every client
// `servicespec client` writes carries. This file is type-checked and tested as it is, and export-client.ts copies its
// text from the "runtime" marker on into each generated client (with the operations spliced in at their marker), so
// it must stay self-contained: no imports, nothing Node or the browser lacks (fetch, Headers, crypto.subtle,
// btoa/atob, TextEncoder), and ES2018 syntax apart from class private members.

// ---- stand-ins -------------------------------------------------------------------------------------------------
// What export-client.ts generates for a spec, here for a small example service so the runtime compiles and can be
// tested on its own. None of this is copied.

export type ErrorCode = 'not_found' | 'conflict' | 'invalid_request' | 'rate_limited';
export type ErrorBody = { code: ErrorCode; title: string; status: number; [key: string]: unknown };
export type Version = '2024-01-01' | '2025-01-01';
export const CURRENT_VERSION: Version | undefined = '2025-01-01';
export type WebhookEvent = { id: string; type: 'order.created'; timestamp: string; version?: string; data: { object: { id: string }; previous?: never } };
export interface Credentials {
  key?: string;
  staff?: { username: string; password: string };
  token?: string | (() => string | Promise<string>);
  machine?: { clientId: string; clientSecret: string; scopes?: readonly string[] };
}
export const STATUS_OF_CODE: Readonly<Record<string, number | string>> = { not_found: 404, conflict: 409, invalid_request: 400, rate_limited: 429 };
export const SCHEMES: Readonly<Record<string, { type: string; in?: string; name?: string; tokenPath?: string }>> = {
  key: { type: 'api_key', in: 'header', name: 'X-Api-Key' },
  staff: { type: 'basic' },
  token: { type: 'bearer' },
  machine: { type: 'oauth2_client_credentials', tokenPath: '/oauth/token' },
};
export const OPERATIONS: Readonly<
  Record<string, { auth: readonly string[] | null; errors: readonly string[]; form?: boolean; mediaType?: string; wrap?: string }>
> = {
  getOrder: { auth: ['machine', 'token', 'staff', 'key'], errors: ['not_found', 'rate_limited'] },
  createOrder: { auth: ['key'], errors: ['conflict', 'invalid_request'] },
  health: { auth: null, errors: [] },
};
export const VERSIONING: { kind: string; name?: string } = { kind: 'header', name: 'Api-Version' };
export const IDEMPOTENCY_HEADER = 'Request-Once-Key';

// ---- runtime ---------------------------------------------------------------------------------------------------

export interface ClientOptions {
  /** The service's address, such as `https://api.example.com` (the spec leaves it to deployment). */
  baseUrl: string;
  credentials?: Credentials;
  /** The version to speak; the one this client was generated for by default. */
  version?: Version;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** The fetch to use (the global one by default). */
  fetch?: typeof fetch;
}

export interface RequestOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
  version?: Version;
  /** Sent as `If-Match` (an object's ETag, or `*`): a change of a resource with ETags is made only while it matches. */
  ifMatch?: string;
  /** Sent as `If-None-Match` (an ETag held): a read of the object as it still is answers 304, thrown as `NotModified`. */
  ifNoneMatch?: string;
  /** Called with the headers of a success answer (or a 304) before the method returns: `headers.get('etag')` is its ETag. */
  onHeaders?: (headers: Headers) => void;
}

export interface IdempotentRequestOptions extends RequestOptions {
  /** Sent as the idempotency header (`IDEMPOTENCY_HEADER`): a retry with the same key gets the first answer instead of doing the work twice. */
  idempotencyKey?: string;
}
function titleOf(body: unknown): string {
  const title = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).title : undefined;
  return typeof title === 'string' ? `: ${title}` : '';
}

/** A declared error answer: its code (typed per operation), HTTP status and body. */
export class ServiceError<C extends string = ErrorCode> extends Error {
  constructor(
    readonly code: C,
    readonly status: number,
    readonly body: ErrorBody | undefined,
    readonly headers: Headers,
  ) {
    super(`${code} (${status})${titleOf(body)}`);
    this.name = 'ServiceError';
  }

  /** Seconds to wait before retrying, from `Retry-After`, when the service sent it. */
  get retryAfter(): number | undefined {
    const value = this.headers.get('retry-after');
    return value === null || !/^[0-9]+$/.test(value) ? undefined : Number(value);
  }
}

/** A 304 to a read sent with `ifNoneMatch`: the object is as the tag says; `etag` is its tag. */
export class NotModified extends Error {
  constructor(
    readonly etag: string | null,
    readonly headers: Headers,
  ) {
    super('not modified (304)');
    this.name = 'NotModified';
  }
}

/** Whether `error` is a declared error answer (with one of `codes`, when given). */
export function isServiceError<C extends ErrorCode>(error: unknown, ...codes: C[]): error is ServiceError<C> {
  return error instanceof ServiceError && (codes.length === 0 || (codes as string[]).includes(error.code));
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

function fromBase64(text: string) {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

function utf8(text: string) {
  return new TextEncoder().encode(text);
}

interface CallInit {
  body?: unknown;
  query?: object;
  /** The operation's declared headers. */
  headers?: object;
  options: IdempotentRequestOptions;
  idempotent?: boolean;
}

/** The client for the service: one method per operation. */
export class ServiceClient {
  readonly #baseUrl: string;
  readonly #credentials: Credentials;
  readonly #version: Version | undefined;
  readonly #headers: Record<string, string>;
  readonly #fetch: typeof fetch;
  readonly #tokens = new Map<string, { token: string; expires: number }>();

  constructor(options: ClientOptions) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#credentials = options.credentials ?? {};
    this.#version = options.version ?? CURRENT_VERSION;
    this.#headers = options.headers ?? {};
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  // ---- operations ----

  async #token(
    scheme: string,
    credentials: { clientId: string; clientSecret: string; scopes?: readonly string[] },
    signal: AbortSignal | undefined,
  ): Promise<string> {
    const cached = this.#tokens.get(scheme);
    if (cached && cached.expires > Date.now()) return cached.token;
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (credentials.scopes && credentials.scopes.length > 0) form.set('scope', credentials.scopes.join(' '));
    const init: RequestInit = {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        authorization: `Basic ${base64(utf8(`${encodeURIComponent(credentials.clientId)}:${encodeURIComponent(credentials.clientSecret)}`))}`,
      },
      body: form.toString(),
    };
    if (signal) init.signal = signal;
    const response = await this.#fetch(`${this.#baseUrl}${SCHEMES[scheme]?.tokenPath ?? ''}`, init);
    const body = (await response.json().catch(() => undefined)) as { access_token?: unknown; expires_in?: unknown } | undefined;
    if (!response.ok || typeof body?.access_token !== 'string') throw this.#error('', response, body);
    const lifetime = typeof body.expires_in === 'number' ? body.expires_in : 60;
    this.#tokens.set(scheme, { token: body.access_token, expires: Date.now() + Math.max(0, lifetime - 30) * 1000 });
    return body.access_token;
  }

  async #authenticate(operation: string, headers: Headers, query: URLSearchParams, signal: AbortSignal | undefined): Promise<void> {
    const schemes = OPERATIONS[operation]?.auth;
    if (!schemes) return;
    const given = this.#credentials as Record<string, unknown>;
    for (const name of schemes) {
      const credential = given[name];
      const scheme = SCHEMES[name];
      if (credential === undefined || !scheme) continue;
      if (scheme.type === 'api_key' && typeof credential === 'string' && scheme.name !== undefined) {
        if (scheme.in === 'query') query.set(scheme.name, credential);
        else headers.set(scheme.name, credential);
      } else if (scheme.type === 'basic') {
        const c = credential as { username: string; password: string };
        headers.set('authorization', `Basic ${base64(utf8(`${c.username}:${c.password}`))}`);
      } else if (scheme.type === 'bearer') {
        const token = typeof credential === 'function' ? await (credential as () => string | Promise<string>)() : String(credential);
        headers.set('authorization', `Bearer ${token}`);
      } else if (scheme.type === 'oauth2_client_credentials') {
        headers.set(
          'authorization',
          `Bearer ${await this.#token(name, credential as { clientId: string; clientSecret: string; scopes?: readonly string[] }, signal)}`,
        );
      } else continue;
      return;
    }
  }

  #error(operation: string, response: Response, body: unknown): ServiceError {
    const declared = OPERATIONS[operation]?.errors ?? [];
    let code = typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'string' ? (body as { code: string }).code : undefined;
    if (code === undefined) {
      // A code's status, or its range (`4XX`): any status of the range.
      const byStatus = declared.filter((c) => {
        const s = STATUS_OF_CODE[c];
        return s === response.status || (typeof s === 'string' && s[0] === String(response.status)[0]);
      });
      code = byStatus.length === 1 ? byStatus[0] : `http_${response.status}`;
    }
    return new ServiceError(code as ErrorCode, response.status, body as ErrorBody | undefined, response.headers);
  }

  /** Sends one operation's request; the methods above are typed wrappers of it. */
  protected async request<T>(operation: string, method: string, path: (version: string) => string, init: CallInit): Promise<T> {
    const { options } = init;
    const version = options.version ?? this.#version;
    const headers = new Headers({ accept: 'application/json', ...this.#headers, ...options.headers });
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(init.query ?? {})) {
      if (value === undefined || value === null) continue;
      // An array is the parameter repeated (name=a&name=b), as the runtime reads a declared array parameter.
      if (Array.isArray(value)) for (const v of value) query.append(key, String(v));
      else query.set(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
    }
    for (const [key, value] of Object.entries(init.headers ?? {})) {
      if (value !== undefined && value !== null) headers.set(key, Array.isArray(value) ? value.join(', ') : String(value));
    }
    if (version !== undefined) {
      if (VERSIONING.kind === 'header' && VERSIONING.name) headers.set(VERSIONING.name, version);
      else if (VERSIONING.kind === 'query' && VERSIONING.name) query.set(VERSIONING.name, version);
      // The media type template (`name`) filled with the version: what the answer is asked as, and a body sent as.
      else if (VERSIONING.kind === 'media_type' && VERSIONING.name) headers.set('accept', VERSIONING.name.replace('{version}', version));
    }
    if (options.ifMatch !== undefined) headers.set('if-match', options.ifMatch);
    if (options.ifNoneMatch !== undefined) headers.set('if-none-match', options.ifNoneMatch);
    const key = options.idempotencyKey ?? (init.idempotent ? crypto.randomUUID() : undefined);
    if (key !== undefined) headers.set(IDEMPOTENCY_HEADER, key);
    await this.#authenticate(operation, headers, query, options.signal);
    const request: RequestInit = { method, headers };
    if (init.body !== undefined && OPERATIONS[operation]?.form === true) {
      // A form request (request.media_type): each field as text, a list as the name repeated, as the runtime reads it.
      const form = new URLSearchParams();
      for (const [name, value] of Object.entries(init.body as Record<string, unknown>))
        for (const v of Array.isArray(value) ? value : [value]) if (v !== undefined && v !== null) form.append(name, String(v));
      headers.set('content-type', 'application/x-www-form-urlencoded');
      request.body = form.toString();
    } else if (init.body !== undefined) {
      headers.set(
        'content-type',
        version !== undefined && VERSIONING.kind === 'media_type' && VERSIONING.name
          ? VERSIONING.name.replace('{version}', version)
          : (OPERATIONS[operation]?.mediaType ?? 'application/json'),
      );
      // request_envelope: the body goes held by its one member, `{ "product": body }`.
      const wrap = OPERATIONS[operation]?.wrap;
      request.body = JSON.stringify(wrap === undefined ? init.body : { [wrap]: init.body });
    }
    if (options.signal) request.signal = options.signal;
    const search = query.toString();
    const response = await this.#fetch(`${this.#baseUrl}${path(version ?? '')}${search === '' ? '' : `?${search}`}`, request);
    const text = await response.text();
    if (response.status === 304) {
      options.onHeaders?.(response.headers);
      throw new NotModified(response.headers.get('etag'), response.headers);
    }
    const type = response.headers.get('content-type') ?? '';
    let body: unknown = undefined;
    if (text !== '') {
      if (/json/i.test(type)) {
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
      } else body = text;
    }
    if (!response.ok) throw this.#error(operation, response, body);
    options.onHeaders?.(response.headers);
    return body as T;
  }
}

// ---- webhooks -------------------------------------------------------------------------------------------------

/** A webhook that did not verify: missing headers, a stale timestamp, or no matching signature. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/**
 * Verifies a webhook signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`)
 * and returns the event. `secret` is the endpoint's secret (`whsec_<base64>`, or the base64 alone); during a
 * secret rotation pass both. `body` must be the raw request body, exactly as received.
 */
export async function verifyWebhook(
  secret: string | readonly string[],
  headers: Headers | Record<string, string | readonly string[] | undefined>,
  body: string,
  options: { toleranceSeconds?: number; now?: Date } = {},
): Promise<WebhookEvent> {
  const get = (name: string): string | undefined => {
    if (headers instanceof Headers) return headers.get(name) ?? undefined;
    const entry = Object.entries(headers).find(([k]) => k.toLowerCase() === name);
    const value = entry?.[1];
    return Array.isArray(value) ? value[0] : (value as string | undefined);
  };
  const id = get('webhook-id');
  const timestamp = get('webhook-timestamp');
  const signatures = get('webhook-signature');
  if (id === undefined || timestamp === undefined || signatures === undefined)
    throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^[0-9]+$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not a number of seconds');
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (Math.abs(now - Number(timestamp)) > tolerance) throw new WebhookVerificationError('webhook-timestamp is outside the tolerance');
  const signed = utf8(`${id}.${timestamp}.${body}`);
  const offered = signatures
    .split(' ')
    .map((s) => s.split(','))
    .filter((p) => p[0] === 'v1' && p[1] !== undefined)
    .map((p) => p[1] as string);
  for (const s of typeof secret === 'string' ? [secret] : secret) {
    const key = await crypto.subtle.importKey('raw', fromBase64(s.startsWith('whsec_') ? s.slice(6) : s), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const expected = base64(new Uint8Array(await crypto.subtle.sign('HMAC', key, signed)));
    for (const o of offered) {
      if (o.length !== expected.length) continue;
      let diff = 0;
      for (let i = 0; i < o.length; i++) diff |= o.charCodeAt(i) ^ expected.charCodeAt(i);
      if (diff === 0) return JSON.parse(body) as WebhookEvent;
    }
  }
  throw new WebhookVerificationError('no signature matches');
}
