import type { FastifyReply, FastifyRequest } from 'fastify';
import { serializeItem, serializeList } from 'structured-headers';
import type { OperationModel, RateLimitModel, ServiceModel } from '../../model/model-types.js';
import { getRateLimitName } from '../../model/model-defaults.js';
import type { Principal } from '../runtime-context.js';
import { fromPluggable, isPending } from '../runtime-steps.js';
import { ServiceError } from '../runtime-errors.js';
import { RateLimitStoreUnavailable, type Decision, type RateLimitStore } from './limits-store.js';

/** A declared policy as served: its name in the headers and the bucket a request falls in. */
interface Policy {
  name: string;
  rate: RateLimitModel;
  windowSeconds: number;
}

/** Checks a request against the operation's policies: at once with an in-process store, else a promise. */
export type RateLimiter = (request: FastifyRequest, reply: FastifyReply) => void | Promise<void>;

function partition(policy: Policy, request: FastifyRequest, op: OperationModel): string {
  switch (policy.rate.by) {
    case 'credential':
      // Requests without a credential share a bucket per address.
      return request.principal ? `c:${request.principal.scheme}:${request.principal.subject}` : `a:${request.ip}`;
    case 'address':
      return `a:${request.ip}`;
    case 'operation':
      return `o:${op.id}`;
    default:
      return 'g';
  }
}

/**
 * A policy's parts of the headers, serialised once per declared policy (a spec with thousands of operations
 * under one policy builds them once, not per operation): its RateLimit-Policy item, and its `RateLimit` prefix.
 * `RateLimit` is a list of `"name";r=<int>;t=<int>`: the name a Structured Fields string; r and t non-negative
 * integers, written as decimals. A list's members are joined with ", " (RFC 8941 §4.1.1).
 */
const policyTexts = new WeakMap<RateLimitModel, { name: string; policy: string; prefix: string }>();
function getPolicyText(p: Policy): { policy: string; prefix: string } {
  const known = policyTexts.get(p.rate);
  if (known && known.name === p.name) return known;
  const text = {
    name: p.name,
    policy: serializeList([
      [
        p.name,
        new Map<string, number>([
          ['q', p.rate.requests],
          ['w', p.windowSeconds],
        ]),
      ],
    ]),
    prefix: `${serializeItem([p.name, new Map()])};r=`,
  };
  policyTexts.set(p.rate, text);
  return text;
}

/**
 * The limiter for one operation, or undefined when no policy covers it. Every response of a limited
 * operation carries RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers, as
 * Structured Fields); a refusal is 429 with Retry-After.
 */
export function createRateLimiter(model: ServiceModel, op: OperationModel, store: RateLimitStore): RateLimiter | undefined {
  const policies: Policy[] = (model.limits?.rate ?? [])
    .map((rate, i) => ({ name: getRateLimitName(rate, i), rate, windowSeconds: Math.max(1, Math.round(rate.per.ms / 1000)) }))
    .filter((p) => !p.rate.operations || p.rate.operations.includes(op.id));
  if (policies.length === 0) return undefined;
  const texts = policies.map((p) => getPolicyText(p));
  const policyHeader = texts.map((t) => t.policy).join(', ');
  const prefixes = texts.map((t) => t.prefix);
  // A caller's bucket keys are built once and kept: a string used again keeps its hash, so the store's map
  // lookup does not rehash a new string on every request.
  const callerKeys = new WeakMap<Principal, string[]>();
  const keyOf = (i: number, request: FastifyRequest): string => {
    const p = policies[i]!;
    const principal = request.principal;
    if (p.rate.by !== 'credential' || !principal) return `${p.name}|${partition(p, request, op)}`;
    let keys = callerKeys.get(principal);
    if (!keys) {
      keys = [];
      callerKeys.set(principal, keys);
    }
    return (keys[i] ??= `${p.name}|${partition(p, request, op)}`);
  };
  const tOf = (d: Decision) => Math.ceil((d.allowed ? d.resetMs : d.retryAfterMs) / 1000);
  const unavailable = (i: number, err: unknown) => {
    if (!(err instanceof RateLimitStoreUnavailable)) throw err;
    // The declared failure mode; open when the spec does not say (a logged gap when a shared store is used).
    if (policies[i]!.rate.onStoreFailure === 'closed')
      throw new ServiceError('rate_limited', 'the rate limit cannot be checked right now', undefined, { 'retry-after': '1' });
  };
  const finish = (reply: FastifyReply, header: string, refusal: Policy | undefined, retryAfterMs: number) => {
    reply.header('ratelimit', header);
    if (refusal) {
      const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
      throw new ServiceError(
        'rate_limited',
        `rate limit ${refusal.name} (${refusal.rate.requests} per ${refusal.rate.per.text}) reached; retry in ${seconds} s`,
        undefined,
        { 'retry-after': String(seconds) },
      );
    }
  };
  // Policies are taken in order. With a store that answers at once (the in-process one) this is one loop with
  // no promise; from the first decision that comes as a promise on, the rest follow it.
  const from = (
    start: number,
    request: FastifyRequest,
    reply: FastifyReply,
    headerSoFar: string,
    refusedSoFar: Policy | undefined,
    retrySoFar: number,
  ): void | Promise<void> => {
    let header = headerSoFar;
    let refusal = refusedSoFar;
    let retryAfterMs = retrySoFar;
    for (let i = start; i < policies.length; i++) {
      let d: Decision | Promise<Decision>;
      try {
        d = fromPluggable(store.take(keyOf(i, request), policies[i]!.rate.requests, policies[i]!.rate.per.ms));
      } catch (err) {
        unavailable(i, err);
        continue;
      }
      if (isPending(d)) {
        const at = i;
        const h = header;
        const r = refusal;
        const ms = retryAfterMs;
        return d.then(
          (decision) => {
            const refused = !decision.allowed && (!r || decision.retryAfterMs > ms);
            return from(
              at + 1,
              request,
              reply,
              `${h === '' ? '' : `${h}, `}${prefixes[at]!}${decision.remaining};t=${tOf(decision)}`,
              refused ? policies[at]! : r,
              refused ? decision.retryAfterMs : ms,
            );
          },
          (err: unknown) => {
            unavailable(at, err);
            return from(at + 1, request, reply, h, r, ms);
          },
        );
      }
      header += `${header === '' ? '' : ', '}${prefixes[i]!}${d.remaining};t=${tOf(d)}`;
      if (!d.allowed && (!refusal || d.retryAfterMs > retryAfterMs)) {
        refusal = policies[i]!;
        retryAfterMs = d.retryAfterMs;
      }
    }
    finish(reply, header, refusal, retryAfterMs);
  };
  return (request, reply) => {
    reply.header('ratelimit-policy', policyHeader);
    return from(0, request, reply, '', undefined, 0);
  };
}
