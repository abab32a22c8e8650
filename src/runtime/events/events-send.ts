// One delivery attempt: a POST to the endpoint through node:http(s), with the target policy enforced at connect
// time (events-targets.ts), the whole attempt (redirects included) bounded by the declared time-out, and only
// method-preserving redirects (307, 308) followed, each to a re-checked target.

import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { SYSTEM_CLOCK, type SchedulerClock } from './events-scheduler.js';
import { checkAddress, checkUrlForm, createGuardedLookup, hostOf, resolveAll, UnsafeTargetError, type Lookup, type TargetPolicy } from './events-targets.js';

export interface AttemptResult {
  /** The final HTTP status, when the receiver answered. */
  status?: number;
  /** The receiver's Retry-After, in milliseconds, when it sent one. */
  retryAfterMs?: number;
  /** Why the attempt failed without an answer (time-out, refused target, connection error). */
  error?: string;
  /** The target was refused by the policy: nothing was sent. */
  refused?: boolean;
}

export interface Sender {
  send(url: string, headers: Readonly<Record<string, string>>, body: string, timeoutMs: number): Promise<AttemptResult>;
  close(): void;
}

const MAX_REDIRECTS = 3;
const USER_AGENT = 'servicespec-webhooks/1';

/** `Retry-After: <seconds>` or an HTTP date, as a delay from `now` (never negative). */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^[0-9]{1,10}$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** `clock` times each attempt out and dates a Retry-After (the worker's clock: tests move it). */
export function createSender(policy: TargetPolicy, resolver?: Lookup, clock: SchedulerClock = SYSTEM_CLOCK): Sender {
  const lookup = createGuardedLookup(policy, resolver);
  // One keep-alive agent per origin: a pooled socket is only ever reused for the host whose address was checked
  // when it connected (Node 24's shared agent was seen handing a socket to another host name, skipping the check).
  const agents = new Map<string, HttpAgent>();
  const agentFor = (url: URL, address: string): HttpAgent => {
    const key = `${url.origin}|${address}`;
    let agent = agents.get(key);
    if (!agent) {
      if (agents.size >= 256) {
        const [oldest, a] = agents.entries().next().value as [string, HttpAgent];
        a.destroy();
        agents.delete(oldest);
      }
      agent = url.protocol === 'https:' ? new HttpsAgent({ keepAlive: true, maxSockets: 32 }) : new HttpAgent({ keepAlive: true, maxSockets: 32 });
      agents.set(key, agent);
    }
    return agent;
  };

  function once(
    url: URL,
    pinned: LookupAddress | undefined,
    headers: Readonly<Record<string, string>>,
    body: string,
    signal: AbortSignal,
  ): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const https = url.protocol === 'https:';
      const request = https ? httpsRequest : httpRequest;
      // A name is resolved and checked before the attempt, and the socket is pinned to the checked address (a pooled
      // socket is only reused for the same origin and address); the guarded lookup stays as a second line.
      const pinnedLookup = pinned
        ? (_h: string, o: { all?: boolean }, cb: (...a: unknown[]) => void) => (o.all ? cb(null, [pinned]) : cb(null, pinned.address, pinned.family))
        : lookup;
      const req = request(
        url,
        {
          method: 'POST',
          agent: agentFor(url, pinned?.address ?? hostOf(url)),
          lookup: pinnedLookup as never,
          signal,
          headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': USER_AGENT },
        },
        resolve,
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  return {
    async send(target, headers, body, timeoutMs) {
      const timeout = new AbortController();
      const timer = clock.setTimer(() => timeout.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
      try {
        return await attempt(target, headers, body, timeoutMs, timeout.signal);
      } finally {
        clock.clearTimer(timer);
      }
    },
    close() {
      for (const a of agents.values()) a.destroy();
      agents.clear();
    },
  };

  async function attempt(
    target: string,
    headers: Readonly<Record<string, string>>,
    body: string,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<AttemptResult> {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return { error: 'the endpoint URL is not valid', refused: true };
    }
    for (let hop = 0; ; hop++) {
      const form = checkUrlForm(url);
      if (form !== undefined) return { error: form, refused: true };
      const host = hostOf(url);
      if (isIP(host) !== 0) {
        const why = checkAddress(host, policy);
        if (why !== undefined) return { error: `refused: ${why}`, refused: true };
      }
      let pinned: LookupAddress | undefined;
      if (isIP(host) === 0) {
        let addresses: LookupAddress[];
        try {
          addresses = await resolveAll(host, resolver);
        } catch (err) {
          return { error: `${host} cannot be resolved (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
        }
        if (addresses.length === 0) return { error: `refused: ${host} resolves to no address`, refused: true };
        for (const a of addresses) {
          const why = checkAddress(a.address, policy);
          if (why !== undefined) return { error: `refused: ${host} resolves to ${why}`, refused: true };
        }
        pinned = addresses[0];
      }
      let res: IncomingMessage;
      try {
        res = await once(url, pinned, headers, body, signal);
      } catch (err) {
        if (err instanceof UnsafeTargetError || (err as { cause?: unknown }).cause instanceof UnsafeTargetError)
          return { error: `refused: ${(err as Error).message}`, refused: true };
        if (signal.aborted) return { error: `no answer within ${timeoutMs} ms` };
        return { error: (err as NodeJS.ErrnoException).code ?? (err as Error).message };
      }
      const status = res.statusCode ?? 0;
      // The body is not needed; read it (so the socket can be reused) until the attempt's time runs out.
      try {
        res.resume();
        await new Promise<void>((done, fail) => {
          res.on('end', done);
          res.on('error', fail);
          res.on('close', done);
        });
      } catch {
        if (signal.aborted) return { error: `no complete answer within ${timeoutMs} ms` };
      }
      const location = res.headers.location;
      if ((status === 307 || status === 308) && typeof location === 'string') {
        if (hop >= MAX_REDIRECTS) return { status, error: `more than ${MAX_REDIRECTS} redirects` };
        try {
          url = new URL(location, url);
        } catch {
          return { status, error: 'the redirect names no valid URL' };
        }
        continue;
      }
      const out: AttemptResult = { status };
      if (status >= 300 && status < 400) out.error = `redirect ${status} not followed (only 307 and 308 are)`;
      const ra = parseRetryAfter(typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : undefined, clock.now());
      if (ra !== undefined) out.retryAfterMs = ra;
      return out;
    }
  }
}
