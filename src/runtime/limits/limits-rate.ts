import type { FastifyReply, FastifyRequest } from 'fastify';
import { serializeItem, serializeList } from 'structured-headers';
import type { OperationModel, RateLimitModel, ServiceModel } from '../../model/model-types.js';
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

/** The name a policy goes by in RateLimit-Policy: its declared name, else its place in the list. */
export function getPolicyName(rate: RateLimitModel, index: number): string {
  return rate.name ?? `rate${index}`;
}

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
 * The limiter for one operation, or undefined when no policy covers it. Every response of a limited
 * operation carries RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers, as
 * Structured Fields); a refusal is 429 with Retry-After.
 */
export function createRateLimiter(model: ServiceModel, op: OperationModel, store: RateLimitStore): RateLimiter | undefined {
  const policies: Policy[] = (model.limits?.rate ?? [])
    .map((rate, i) => ({ name: getPolicyName(rate, i), rate, windowSeconds: Math.max(1, Math.round(rate.per.ms / 1000)) }))
    .filter((p) => !p.rate.operations || p.rate.operations.includes(op.id));
  if (policies.length === 0) return undefined;
  const policyHeader = serializeList(policies.map((p) => [p.name, new Map<string, number>([['q', p.rate.requests], ['w', p.windowSeconds]])]));
  // `RateLimit` is a list of `"name";r=<int>;t=<int>`: the names are serialised once (Structured Fields strings);
  // r and t are non-negative integers, written as decimals.
  const prefixes = policies.map((p) => `${serializeItem([p.name, new Map()])};r=`);
  return (request, reply) => {
    reply.header('ratelimit-policy', policyHeader);
    let header = '';
    let refusal: { policy: Policy; retryAfterMs: number } | undefined;
    const record = (i: number, d: Decision) => {
      const t = Math.ceil((d.allowed ? d.resetMs : d.retryAfterMs) / 1000);
      header += `${header === '' ? '' : ', '}${prefixes[i]!}${d.remaining};t=${t}`;
      if (!d.allowed && (!refusal || d.retryAfterMs > refusal.retryAfterMs)) refusal = { policy: policies[i]!, retryAfterMs: d.retryAfterMs };
    };
    const unavailable = (i: number, err: unknown) => {
      if (!(err instanceof RateLimitStoreUnavailable)) throw err;
      // The declared failure mode; open when the spec does not say (a logged gap when a shared store is used).
      if (policies[i]!.rate.onStoreFailure === 'closed') throw new ServiceError('rate_limited', 'the rate limit cannot be checked right now', undefined, { 'retry-after': '1' });
    };
    const finish = () => {
      reply.header('ratelimit', header);
      if (refusal) {
        const seconds = Math.max(1, Math.ceil(refusal.retryAfterMs / 1000));
        throw new ServiceError('rate_limited', `rate limit ${refusal.policy.name} (${refusal.policy.rate.requests} per ${refusal.policy.rate.per.text}) reached; retry in ${seconds} s`, undefined, { 'retry-after': String(seconds) });
      }
    };
    // Policies are taken in order, each after the previous one answered (as a promise only when the store needs one).
    const from = (start: number): void | Promise<void> => {
      for (let i = start; i < policies.length; i++) {
        const p = policies[i]!;
        let d: Decision | Promise<Decision>;
        try {
          d = store.take(`${p.name}|${partition(p, request, op)}`, p.rate.requests, p.rate.per.ms);
        } catch (err) {
          unavailable(i, err);
          continue;
        }
        if (d instanceof Promise) {
          return d.then(
            (decision) => {
              record(i, decision);
              return from(i + 1);
            },
            (err: unknown) => {
              unavailable(i, err);
              return from(i + 1);
            },
          );
        }
        record(i, d);
      }
      finish();
    };
    return from(0);
  };
}
