import { parseDictionary, parseList } from 'structured-headers';
import type { SchemeModel, ServiceModel } from '../model/model-types.js';
import { fillMediaType } from '../model/model-media-type.js';
import { REAL_CLOCK, type Clock, type Waits } from './tester-pacing.js';
import type { SubjectCredentials } from './tester-types.js';

// The tester's HTTP client: every request goes to the one base URL it was given, is counted against the
// run's bounds, and can be shown as a curl command. Credentials are resolved per declared scheme.

export interface TestRequest {
  method: string;
  /** The path (with query), appended to the base URL; never an absolute URL. */
  path: string;
  headers?: Record<string, string>;
  /** A value sent as JSON, or a string sent as is. */
  body?: unknown;
  /** Send `body` as this exact text. */
  raw?: string;
  /** Send no If-Match even where the operation requires one (the tester otherwise sends `If-Match: *` there). */
  noIfMatch?: true;
  /** Name no version (the tester otherwise names the current one where the spec places it): the default applies. */
  noVersion?: true;
  /** request_envelope: `body` goes held by this one member (`{ "product": body }`); set by TestContext.prepare. */
  wrap?: string;
  /** Send `body` as it is where the operation wraps its request (the probe of an unwrapped body). */
  bare?: true;
  /** A built-in action's declared parameters to leave out (TestContext.prepare otherwise sends each required one). */
  omit?: readonly string[];
}

export interface TestResponse {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies of every declared shape
  body: any;
  text: string;
  /** An enveloped success answer's whole body; `body` is then its data field (tester-envelope.ts). */
  envelope?: unknown;
}

/** The service's declared rate limit asks for a longer wait than the tester gives one request. */
export class Throttled extends Error {
  constructor(readonly seconds: number) {
    super(`rate limited: Retry-After ${seconds} s`);
    this.name = 'Throttled';
  }
}

/**
 * What one answer's RateLimit header says of its partition's budget: the least remaining, when that policy is full
 * again, and when its next request is (`t` spread over the policy's quota `q` from RateLimit-Policy, as a
 * token bucket refills; without `q`, the full reset).
 */
export function readRateLimit(
  value: string | null,
  now: number,
  policy: string | null = null,
): { remaining: number; resetAt: number; nextAt: number } | undefined {
  const all = readRateLimits(value, now, policy);
  if (!all || all.length === 0) return undefined;
  const { name: _name, ...least } = all.reduce((a, b) => (b.remaining < a.remaining ? b : a));
  return least;
}

/** Each policy a RateLimit header names (an unnamed one for the earlier draft's dictionary), as readRateLimit reads it. */
export function readRateLimits(
  value: string | null,
  now: number,
  policy: string | null = null,
): { name: string; remaining: number; resetAt: number; nextAt: number }[] | undefined {
  if (value === null) return undefined;
  const quotas = new Map<string, number>();
  try {
    if (policy !== null)
      for (const [item, params] of parseList(policy)) if (typeof params.get('q') === 'number') quotas.set(String(item), params.get('q') as number);
  } catch {
    // no quotas: the full reset is waited for
  }
  const out: { name: string; remaining: number; resetAt: number; nextAt: number }[] = [];
  const take = (r: unknown, t: unknown, name = '') => {
    if (typeof r !== 'number' || typeof t !== 'number' || !Number.isFinite(r) || !Number.isFinite(t)) return;
    const q = quotas.get(name);
    out.push({ name, remaining: r, resetAt: now + t * 1000, nextAt: now + (t * 1000) / (q !== undefined && q > 0 ? q : 1) });
  };
  try {
    // draft-ietf-httpapi-ratelimit-headers: a list of `"policy";r=…;t=…`.
    for (const [item, params] of parseList(value)) take(params.get('r'), params.get('t'), String(item));
  } catch {
    try {
      // The earlier draft's dictionary: `limit=…, remaining=…, reset=…`.
      const d = parseDictionary(value);
      take(d.get('remaining')?.[0], d.get('reset')?.[0]);
    } catch {
      return undefined;
    }
  }
  return out;
}

/** The run's bounds were reached: the check in progress ends without a verdict. */
export class BoundReached extends Error {
  constructor(readonly bound: 'max-requests' | 'time-limit') {
    super(`bound reached: ${bound}`);
    this.name = 'BoundReached';
  }
}

/**
 * Thrown once the first answer at the base URL was not HTTP (a database's or a TLS port): the run stops, and the
 * report says so in one line instead of failing every check with the same parse error.
 */
export class NotHttp extends Error {
  constructor(readonly code: string) {
    super(`not an HTTP answer (${code})`);
    this.name = 'NotHttp';
  }
}

/**
 * fetch's cause when the connection gave no HTTP answer: bytes no HTTP parser reads (undici's llhttp codes,
 * HPE_*) or a connection closed or reset before any answer.
 */
export function getTransportCode(err: unknown): string | undefined {
  const cause = (err as { cause?: { code?: unknown; name?: unknown } } | undefined)?.cause;
  const code = cause?.code;
  // Node 24's undici names its parse error without a code (HTTPParserError, code undefined); Node 20's gives HPE_*.
  if (cause?.name === 'HTTPParserError') return typeof code === 'string' ? code : 'HTTPParserError';
  if (typeof code !== 'string') return undefined;
  return code.startsWith('HPE_') || code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' ? code : undefined;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A run of this many spaces or more at a body's end is written as a printf width (the padded body-size probes). */
const PAD_RUN = 32;
/** The characters printf's `%b` is given as octal escapes: backslash and every control character, NUL included. */
// eslint-disable-next-line no-control-regex -- control characters are what must be escaped
const OCTAL_ESCAPED = /[\\\x00-\x1f\x7f]/g;
/** Past this many bytes a body is piped from printf (a shell builtin: no argument-length limit) instead of passed as curl's argument. */
const ARG_BYTES = 64 * 1024;

/**
 * The shell words that make curl send `text` byte for byte: never cut, whatever its size. Control characters are
 * written with ANSI-C quoting (`$'…'`) so that every request stays on one line of the report; a NUL (no shell word
 * holds one) and very long bodies come from printf through process substitution. The script is bash.
 */
function bodyWords(text: string): string {
  const bytes = Buffer.byteLength(text);
  const pad = /( +)$/.exec(text)?.[1]?.length ?? 0;
  if (text.includes('\0'))
    return `--data-binary @<(printf '%b' ${shellQuote(text.replace(OCTAL_ESCAPED, (c) => (c === '\\' ? '\\\\' : `\\0${c.charCodeAt(0).toString(8).padStart(3, '0')}`)))})`;
  // eslint-disable-next-line no-control-regex -- control characters are what must be escaped
  const quote = (s: string) => (/[\x01-\x1f\x7f]/.test(s) ? ansiQuote(s) : shellQuote(s));
  const printf = pad >= PAD_RUN ? `printf '%s%*s' ${quote(text.slice(0, text.length - pad))} ${pad} ''` : `printf '%s' ${quote(text)}`;
  if (bytes > ARG_BYTES) return `--data-binary @<(${printf})`;
  // Command substitution drops trailing newlines only: a body ending in spaces keeps them.
  if (pad >= PAD_RUN) return `--data-binary "$(${printf})"`;
  return `--data-binary ${quote(text)}`;
}

/** Bash ANSI-C quoting: control characters, backslash and quote escaped; everything else as is. */
function ansiQuote(s: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what must be escaped
  return `$'${s.replace(/[\\'\x01-\x1f\x7f]/g, (c) => (c === '\\' ? '\\\\' : c === "'" ? "\\'" : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`))}'`;
}

/**
 * One request as a curl command that sends it as it was sent: method, headers, the whole body byte for byte (see
 * bodyWords) and the URL; `-i` shows the answer's status and headers.
 */
export function toCurl(baseUrl: string, r: TestRequest): string {
  const parts = ['curl', '-i', '-X', r.method];
  for (const [k, v] of Object.entries(r.headers ?? {})) parts.push('-H', shellQuote(`${k}: ${v}`));
  const text = bodyText(r);
  if (text !== undefined) {
    if (!Object.keys(r.headers ?? {}).some((k) => k.toLowerCase() === 'content-type')) parts.push('-H', shellQuote('content-type: application/json'));
    parts.push(bodyWords(text));
  }
  parts.push(shellQuote(`${baseUrl}${r.path}`));
  return parts.join(' ');
}

/**
 * A sequence of requests as one script: each request's curl command, after the comment that says why it is there
 * (a note of '' says nothing). Reproductions that need more than one request (the pages before a repeat) use it.
 */
export function toCurlSequence(baseUrl: string, steps: readonly { note?: string; req: TestRequest }[]): string {
  return steps.flatMap((s) => [...(s.note ? [`# ${s.note}`] : []), toCurl(baseUrl, s.req)]).join('\n');
}

function bodyText(r: TestRequest): string | undefined {
  if (r.raw !== undefined) return r.raw;
  if (r.body === undefined) return undefined;
  if (typeof r.body === 'string') return r.body;
  return JSON.stringify(r.wrap === undefined ? r.body : { [r.wrap]: r.body });
}

export interface ClientOptions {
  baseUrl: string;
  maxRequests: number;
  deadline: number;
  /** The version every request names where the spec places it, unless the request names one itself. */
  version?: VersionNaming;
  /**
   * The query parameters of `api_key` schemes placed `in: query`: a credential for one is given (and held) as a
   * header of that name, and sent as the query parameter.
   */
  queryCredentials?: readonly string[];
  /** The headers that carry credentials (`authorization` always): a rate budget is kept per credential. */
  credentialHeaders?: readonly string[];
  clock?: Clock;
  /** How long one request may take, answer and body (default REQUEST_TIMEOUT_MS); real time, as the network's is. */
  requestTimeoutMs?: number;
}

/** How long the tester waits for one answer (`--request-timeout`): a service that never answers fails that check, the run goes on. */
export const REQUEST_TIMEOUT_MS = 10_000;

/** Where a request names its version (a header, a query parameter, or the media type), and which. */
export interface VersionNaming {
  kind: 'header' | 'query' | 'media_type';
  /** The header or query parameter; for `media_type`, the template (`{version}` where the version goes). */
  name: string;
  value: string;
}

/** `r` with each header named like a query credential moved to the query. */
export function withQueryCredentials(r: TestRequest, names: readonly string[] | undefined): TestRequest {
  if (!names || names.length === 0 || !r.headers) return r;
  const wanted = new Set(names.map((n) => n.toLowerCase()));
  const moved = Object.entries(r.headers).filter(([k]) => wanted.has(k.toLowerCase()));
  if (moved.length === 0) return r;
  const headers = Object.fromEntries(Object.entries(r.headers).filter(([k]) => !wanted.has(k.toLowerCase())));
  const query = moved.map(([k, v]) => `${encodeURIComponent(names.find((n) => n.toLowerCase() === k.toLowerCase()) ?? k)}=${encodeURIComponent(v)}`).join('&');
  return { ...r, headers, path: `${r.path}${r.path.includes('?') ? '&' : '?'}${query}` };
}

/** `r` naming `v` where the spec places it, unless it already names a version there. */
export function withVersion(r: TestRequest, v: VersionNaming | undefined): TestRequest {
  if (!v || r.noVersion === true) return r;
  const headers = r.headers ?? {};
  const has = (name: string) => Object.keys(headers).some((k) => k.toLowerCase() === name.toLowerCase());
  if (v.kind === 'header') return has(v.name) ? r : { ...r, headers: { ...headers, [v.name]: v.value } };
  if (v.kind === 'media_type') {
    // Accept names the version of the answer; a body is sent as that version's media type.
    const type = fillMediaType(v.name, v.value);
    const add: Record<string, string> = {};
    if (!has('accept')) add.accept = type;
    if (bodyText(r) !== undefined && !has('content-type')) add['content-type'] = type;
    return Object.keys(add).length === 0 ? r : { ...r, headers: { ...headers, ...add } };
  }
  const q = r.path.indexOf('?');
  if (q >= 0 && new URLSearchParams(r.path.slice(q + 1)).has(v.name)) return r;
  return { ...r, path: `${r.path}${q >= 0 ? '&' : '?'}${encodeURIComponent(v.name)}=${encodeURIComponent(v.value)}` };
}

/** An answer's body: its JSON, undefined when empty, else the text as it came. */
function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export class TestClient {
  requests = 0;
  throttled = 0;
  readonly baseUrl: string;
  /** While true, a 429 is returned as is (the rate-limit check wants it). */
  rawRateLimits = false;
  /** Called with every answer and the request as sent (the judge: tester-judge.ts). */
  onAnswer: ((req: TestRequest, res: TestResponse) => void) | undefined;
  /**
   * Called with each 429 the client waits out and sends again (no check sees it), before the wait: the run judges it
   * where the spec declares Retry-After on it (tester-run.ts).
   */
  onThrottled: ((req: TestRequest, res: TestResponse) => void) | undefined;

  /** The waits for the service's rate budget so far. */
  readonly waits: Waits = { ms: 0, count: 0, byReason: {} };
  readonly clock: Clock;
  /** Per credential (its header values), the budget the last answer's RateLimit header showed. */
  private readonly budgets = new Map<string, { remaining: number; nextAt: number }>();
  /** Per credential and route, the policies its last answer named: only those pace its next request. */
  private readonly policiesSeen = new Map<string, string[]>();
  /** The route a request goes to (its path template), so that a per-operation policy paces only that operation. */
  routeKey: ((req: TestRequest) => string) | undefined;
  private readonly credentialHeaders: Set<string>;
  /** HTTP answers so far: a parse error before the first one says the port does not speak HTTP. */
  private httpAnswers = 0;
  /** Set when the base URL answered in something other than HTTP: every later request throws NotHttp. */
  notHttp: string | undefined;

  constructor(readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.clock = options.clock ?? REAL_CLOCK;
    this.credentialHeaders = new Set(['authorization', ...(options.credentialHeaders ?? []), ...(options.queryCredentials ?? [])].map((h) => h.toLowerCase()));
  }

  private guard(): void {
    if (this.notHttp !== undefined) throw new NotHttp(this.notHttp);
    if (this.requests >= this.options.maxRequests) throw new BoundReached('max-requests');
    if (this.clock.now() >= this.options.deadline) throw new BoundReached('time-limit');
  }

  /** The rate-limit partition of a request: the credentials it carries (none: the caller's address). */
  private partition(r: TestRequest): string {
    return JSON.stringify(
      Object.entries(r.headers ?? {})
        .filter(([k]) => this.credentialHeaders.has(k.toLowerCase()))
        .map(([k, v]) => [k.toLowerCase(), v])
        .sort(),
    );
  }

  /** Waits `ms` for the service's budget, counted under `reason`; past the deadline the run stops instead. */
  private async wait(ms: number, reason: string, seconds?: number): Promise<void> {
    if (this.clock.now() + ms >= this.options.deadline) {
      if (seconds !== undefined) throw new Throttled(seconds);
      throw new BoundReached('time-limit');
    }
    this.waits.ms += ms;
    this.waits.count++;
    const r = (this.waits.byReason[reason] ??= { ms: 0, count: 0 });
    r.ms += ms;
    r.count++;
    await this.clock.sleep(ms);
  }

  /**
   * Paces the run on the service's own RateLimit headers: when the last answers to this credential on this route
   * said a policy has nothing left, the next request waits for its refill instead of being refused (and waited out
   * with Retry-After). A wait past the time limit skips the check (Throttled) instead.
   */
  private async pace(cred: string, route: string): Promise<void> {
    const names = this.policiesSeen.get(`${cred}\u0000${route}`) ?? [];
    let until = 0;
    for (const name of names) {
      const b = this.budgets.get(`${cred}\u0000${name}`);
      if (!b) continue;
      if (b.remaining > 0) b.remaining--;
      else {
        until = Math.max(until, b.nextAt);
        this.budgets.delete(`${cred}\u0000${name}`);
      }
    }
    const ms = until - this.clock.now();
    if (ms > 0) await this.wait(Math.ceil(ms) + 20, "the RateLimit header said the credential's budget was spent: waited for its refill", Math.ceil(ms / 1000));
  }

  private observe(cred: string, route: string, headers: Headers): void {
    const all = readRateLimits(headers.get('ratelimit'), this.clock.now(), headers.get('ratelimit-policy'));
    if (!all) return;
    this.policiesSeen.set(
      `${cred}\u0000${route}`,
      all.map((b) => b.name),
    );
    for (const b of all) this.budgets.set(`${cred}\u0000${b.name}`, { remaining: b.remaining, nextAt: b.nextAt });
  }

  /** Forgets what was known of a credential's budgets after a refusal: its answer's headers are read afresh. */
  private forget(cred: string): void {
    for (const k of this.budgets.keys()) if (k.startsWith(`${cred}\u0000`)) this.budgets.delete(k);
  }

  /** A curl command for `r` as it is sent (with the version it names). */
  curl(r: TestRequest): string {
    return toCurl(this.baseUrl, this.prepare(r));
  }

  /** curl commands for a sequence of requests as they are sent, each after its note (toCurlSequence). */
  curlSequence(steps: readonly { note?: string; req: TestRequest }[]): string {
    return toCurlSequence(
      this.baseUrl,
      steps.map((s) => ({ ...s, req: this.prepare(s.req) })),
    );
  }

  /**
   * The pages of a list up to and including the one that shows item `at` (its index across the pages, in order),
   * each request as it was sent (cursors as they were sent), the last after `note`: the sequence that shows a repeat
   * or a misordering again.
   */
  curlPages(pages: readonly { req: TestRequest; count: number }[], at: number, note: string): string {
    let end = 0;
    for (let shown = 0; end < pages.length - 1 && shown + pages[end]!.count <= at; end++) shown += pages[end]!.count;
    return this.curlSequence(pages.slice(0, end + 1).map((p, i) => ({ note: i === end ? `page ${i + 1}: ${note}` : `page ${i + 1}`, req: p.req })));
  }

  /** A request as it is sent: its version named and its query credentials in the query. */
  prepare(r: TestRequest): TestRequest {
    return withQueryCredentials(withVersion(r, this.options.version), this.options.queryCredentials);
  }

  url(path: string): string {
    if (!path.startsWith('/') || path.startsWith('//')) throw new Error(`the tester only sends paths under the base URL, not ${path}`);
    return `${this.baseUrl}${path}`;
  }

  async send(request: TestRequest): Promise<TestResponse> {
    const r = this.prepare(request);
    const key = this.partition(request);
    const route = this.routeKey?.(request) ?? request.path.split('?')[0] ?? '';
    for (let attempt = 0; ; attempt++) {
      this.guard();
      if (!this.rawRateLimits) await this.pace(key, route);
      this.guard();
      this.requests++;
      const headers: Record<string, string> = { ...(r.headers ?? {}) };
      const text = bodyText(r);
      if (text !== undefined && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
      const { res, bodyTextOut } = await this.fetchText(r.path, {
        method: r.method,
        headers,
        ...(text !== undefined ? { body: text } : {}),
        redirect: 'manual',
      });
      this.observe(key, route, res.headers);
      if (res.status === 429 && !this.rawRateLimits && attempt < 5) {
        // Not the rate-limit check: a throttled request is waited out (Retry-After) and sent again.
        this.onThrottled?.(r, { status: res.status, headers: res.headers, body: parseBody(bodyTextOut), text: bodyTextOut });
        const seconds = Number(res.headers.get('retry-after') ?? '1') || 1;
        this.throttled++;
        this.forget(key);
        await this.wait(seconds * 1000, 'refused with 429: waited out its Retry-After', seconds);
        continue;
      }
      const answer: TestResponse = { status: res.status, headers: res.headers, body: parseBody(bodyTextOut), text: bodyTextOut };
      this.onAnswer?.(r, answer);
      return answer;
    }
  }

  /**
   * One request and its whole body within the request time-out. An answer that does not come in time is an error
   * naming the time-out (the check sending it fails with it); one cut short by the run's --time-limit stops the run.
   */
  private async fetchText(path: string, init: RequestInit): Promise<{ res: Response; bodyTextOut: string }> {
    const wait = this.answerWait();
    const signal = AbortSignal.timeout(wait.ms);
    try {
      const res = await fetch(this.url(path), { ...init, signal });
      this.httpAnswers++;
      return { res, bodyTextOut: await res.text() };
    } catch (err) {
      if (signal.aborted) throw wait.error();
      if (this.httpAnswers === 0 && getTransportCode(err) !== undefined) {
        // No HTTP answer yet: a bare GET of the base URL tells a port that is not HTTP (a database's closes the
        // connection, a TLS one answers bytes no parser reads) from a service failing on this one request.
        const code = await this.probeHttp();
        if (code !== undefined) throw new NotHttp((this.notHttp = code));
      }
      throw err;
    }
  }

  /** undefined when a GET of the base URL gets an HTTP answer (of any status), else the transport's error code. */
  private async probeHttp(): Promise<string | undefined> {
    this.requests++;
    try {
      const res = await fetch(`${this.baseUrl}/`, { redirect: 'manual', signal: AbortSignal.timeout(this.options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS) });
      await res.text().catch(() => undefined);
      this.httpAnswers++;
      return undefined;
    } catch (err) {
      return getTransportCode(err) ?? 'no HTTP answer';
    }
  }

  /**
   * How long an answer may take (real time, as the network's): the request time-out, or what is left of the run
   * where that is less. The run's deadline is on the run's clock, so it caps the wait only when that clock is the
   * real one; otherwise guard() keeps it between requests.
   */
  private answerWait(): { ms: number; error: () => Error } {
    const limit = this.options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
    const left = this.clock === REAL_CLOCK ? this.options.deadline - this.clock.now() : Infinity;
    if (left < limit) return { ms: Math.max(1, left), error: () => new BoundReached('time-limit') };
    return { ms: limit, error: () => new Error(`no answer within ${limit / 1000} s (--request-timeout)`) };
  }

  /** Opens the event stream and collects its events until closed. */
  async openStream(path: string, headers: Record<string, string>): Promise<EventStream> {
    const key = this.partition({ method: 'GET', path, headers });
    const route = `stream ${path}`;
    // The stream answers text/event-stream, its events in the current version: it names no version in its type.
    const r = this.prepare({ method: 'GET', path, headers: { accept: 'text/event-stream', ...headers } });
    let controller = new AbortController();
    let res: Response;
    for (let attempt = 0; ; attempt++) {
      this.guard();
      await this.pace(key, route);
      this.requests++;
      controller = new AbortController();
      // The stream's headers within the request time-out; its events then come as they come.
      const wait = this.answerWait();
      const timer = setTimeout(() => controller.abort(), wait.ms);
      try {
        res = await fetch(this.url(r.path), { headers: r.headers, signal: controller.signal });
      } catch (err) {
        throw controller.signal.aborted ? wait.error() : err;
      } finally {
        clearTimeout(timer);
      }
      this.observe(key, route, res.headers);
      if (res.status !== 429 || attempt >= 5) break;
      await res.text().catch(() => undefined);
      const seconds = Number(res.headers.get('retry-after') ?? '1') || 1;
      this.throttled++;
      this.forget(key);
      await this.wait(seconds * 1000, 'refused with 429: waited out its Retry-After', seconds);
    }
    const stream = new EventStream(res.status, controller, this.clock);
    if (res.status === 200 && res.body) void stream.pump(res.body);
    else await res.text().catch(() => undefined);
    return stream;
  }
}

export interface StreamEvent {
  id?: string;
  event?: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the envelope as sent
  data: any;
}

export class EventStream {
  readonly events: StreamEvent[] = [];
  /** Whether the stream sent its first line (it is then listening). */
  opened = false;
  private waiters: (() => void)[] = [];

  constructor(
    readonly status: number,
    private readonly controller: AbortController,
    private readonly clock: Clock = REAL_CLOCK,
  ) {}

  async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        this.opened = true;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const e: { id?: string; event?: string; data: string[] } = { data: [] };
          for (const line of block.split('\n')) {
            const colon = line.indexOf(':');
            if (colon <= 0) continue;
            const name = line.slice(0, colon);
            const value = line.slice(colon + 1).replace(/^ /, '');
            if (name === 'id') e.id = value;
            else if (name === 'event') e.event = value;
            else if (name === 'data') e.data.push(value);
          }
          if (e.data.length > 0) {
            let data: unknown = e.data.join('\n');
            try {
              data = JSON.parse(data as string);
            } catch {
              // kept as text
            }
            this.events.push({ ...(e.id !== undefined ? { id: e.id } : {}), ...(e.event !== undefined ? { event: e.event } : {}), data });
          }
        }
        this.wake();
      }
    } catch {
      // aborted or cut off
    }
    this.wake();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** Waits until `test` holds or `ms` pass; answers whether it held. */
  async waitFor(test: () => boolean, ms: number): Promise<boolean> {
    // On the run's clock: an event wakes the wait at once, else it looks again every 50 ms until `ms` pass.
    const end = this.clock.now() + ms;
    while (!test()) {
      const left = end - this.clock.now();
      if (left <= 0) return false;
      await Promise.race([this.clock.sleep(Math.min(left, 50)), new Promise<void>((resolve) => this.waiters.push(resolve))]);
    }
    return true;
  }

  close(): void {
    this.controller.abort();
  }
}

/** One subject's headers per declared scheme; client credentials are exchanged for a token once. */
export class Subject {
  private tokens = new Map<string, string>();

  constructor(
    readonly role: 'main' | 'other' | 'limited',
    readonly credentials: SubjectCredentials | undefined,
    private readonly model: ServiceModel,
    private readonly client: TestClient,
  ) {}

  /** Every credential value this subject sends (to keep them out of reports). */
  secrets(): string[] {
    const c = this.credentials;
    if (!c) return [];
    // A header value may be sent in the query (an API key `in: query`), percent-encoded.
    const out = [...Object.values(c.headers ?? {}).flatMap((v) => [v, encodeURIComponent(v)]), ...this.tokens.values()];
    if (c.bearer !== undefined) out.push(c.bearer);
    if (c.basic) out.push(Buffer.from(`${c.basic.user}:${c.basic.password}`).toString('base64'));
    if (c.clientId !== undefined && c.clientSecret !== undefined) out.push(c.clientSecret, Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64'));
    return out.filter((s) => s.length >= 4);
  }

  /** Whether this subject holds a credential for one of `schemes`. */
  has(schemes: readonly string[]): boolean {
    return schemes.some((s) => this.staticHeaders(s) !== undefined || this.canExchange(s));
  }

  private scheme(name: string): SchemeModel | undefined {
    return this.model.authentication?.schemes.find((s) => s.name === name);
  }

  private canExchange(name: string): boolean {
    const s = this.scheme(name);
    return (
      s?.type === 'oauth2_client_credentials' &&
      s.tokenPath !== undefined &&
      this.credentials?.clientId !== undefined &&
      this.credentials.clientSecret !== undefined
    );
  }

  private staticHeaders(name: string): Record<string, string> | undefined {
    const s = this.scheme(name);
    const c = this.credentials;
    if (!s || !c) return undefined;
    if (s.type === 'api_key' && s.credentialName !== undefined) {
      const hit = Object.entries(c.headers ?? {}).find(([k]) => k.toLowerCase() === s.credentialName!.toLowerCase());
      return hit ? { [hit[0]]: hit[1] } : undefined;
    }
    if (s.type === 'basic' && c.basic) return { authorization: `Basic ${Buffer.from(`${c.basic.user}:${c.basic.password}`).toString('base64')}` };
    if (s.type === 'bearer' && c.bearer !== undefined) return { authorization: `Bearer ${c.bearer}` };
    const auth = Object.entries(c.headers ?? {}).find(
      ([k, v]) => k.toLowerCase() === 'authorization' && ((s.type === 'basic' && /^basic /i.test(v)) || (s.type === 'bearer' && /^bearer /i.test(v))),
    );
    return auth ? { authorization: auth[1] } : undefined;
  }

  /** The headers that authenticate this subject for one of `schemes`, or undefined when it has none. */
  async headersFor(schemes: readonly string[]): Promise<Record<string, string> | undefined> {
    for (const s of schemes) {
      const h = this.staticHeaders(s);
      if (h) return h;
    }
    for (const s of schemes) {
      if (!this.canExchange(s)) continue;
      let token = this.tokens.get(s);
      if (token === undefined) {
        const scheme = this.scheme(s)!;
        const c = this.credentials!;
        const res = await this.client.send({
          method: 'POST',
          path: scheme.tokenPath!,
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}`,
          },
          raw: 'grant_type=client_credentials',
        });
        if (res.status !== 200 || typeof res.body?.access_token !== 'string') return undefined;
        token = res.body.access_token as string;
        this.tokens.set(s, token);
      }
      return { authorization: `Bearer ${token}` };
    }
    return undefined;
  }
}
