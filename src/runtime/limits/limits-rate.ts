import type { FastifyReply, FastifyRequest } from 'fastify';
import { serializeList } from 'structured-headers';
import type { OperationModel, RateLimitModel, ServiceModel } from '../../model/model-types.js';
import { ServiceError } from '../runtime-errors.js';
import { RateLimitStoreUnavailable, type RateLimitStore } from './limits-store.js';

/** A declared policy as served: its name in the headers and the bucket a request falls in. */
interface Policy {
  name: string;
  rate: RateLimitModel;
  windowSeconds: number;
}

export type RateLimiter = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

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
  return async (request, reply) => {
    reply.header('ratelimit-policy', policyHeader);
    const items: [string, Map<string, number>][] = [];
    let refusal: { policy: Policy; retryAfterMs: number } | undefined;
    for (const p of policies) {
      let d;
      try {
        d = await store.take(`${p.name}|${partition(p, request, op)}`, p.rate.requests, p.rate.per.ms);
      } catch (err) {
        if (!(err instanceof RateLimitStoreUnavailable)) throw err;
        // The declared failure mode; open when the spec does not say (a logged gap when a shared store is used).
        if (p.rate.onStoreFailure === 'closed') throw new ServiceError('rate_limited', 'the rate limit cannot be checked right now', undefined, { 'retry-after': '1' });
        continue;
      }
      const t = Math.ceil((d.allowed ? d.resetMs : d.retryAfterMs) / 1000);
      items.push([p.name, new Map([['r', d.remaining], ['t', t]])]);
      if (!d.allowed && (!refusal || d.retryAfterMs > refusal.retryAfterMs)) refusal = { policy: p, retryAfterMs: d.retryAfterMs };
    }
    reply.header('ratelimit', serializeList(items));
    if (refusal) {
      const seconds = Math.max(1, Math.ceil(refusal.retryAfterMs / 1000));
      throw new ServiceError('rate_limited', `rate limit ${refusal.policy.name} (${refusal.policy.rate.requests} per ${refusal.policy.rate.per.text}) reached; retry in ${seconds} s`, undefined, { 'retry-after': String(seconds) });
    }
  };
}
