import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceModel } from '../../model/model-types.js';
import { getIdempotencyHeader } from '../../model/model-defaults.js';
import type { LateAnswer } from '../runtime-deadline.js';
import { ServiceError } from '../runtime-errors.js';
import type { Storage } from '../storage/storage-types.js';

const NAMESPACE = 'idempotency';
/** How long a claim may stay "running" before another request may take it over (a crashed first attempt). */
const RUNNING_LEASE_MS = 60_000;
const KEY_RE = /^[\x21-\x7e]{1,255}$/;
const REPLAYED_HEADERS = ['content-type', 'location'] as const;

interface Running {
  state: 'running';
  fingerprint: string;
}
interface Done {
  state: 'done';
  fingerprint: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface Idempotency {
  /** Before the handler: replays a stored answer, refuses a conflict, or claims the key. */
  begin(request: FastifyRequest, reply: FastifyReply): Promise<'replayed' | 'claimed' | 'none'>;
  /** After the handler answered: stores the answer for the retention period (not a time-out's: see settleLate). */
  finish(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<void>;
  /**
   * Once work the time-out answered has settled: keeps what it would have answered (its change was made, so
   * retries replay it), or releases the key when it failed (nothing was changed, so a retry runs).
   */
  settleLate(request: FastifyRequest, late: LateAnswer | undefined): void;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim?: { key: string; fingerprint: string };
  }
}

/**
 * Idempotency-Key handling: the first response (errors included) is stored per credential and key and
 * replayed on retries; the same key with another request is refused; a retry while the first attempt
 * still runs is refused as in progress. A time-out answer is not stored: the key keeps what the work did.
 */
export function createIdempotency(model: ServiceModel, storage: Storage, retentionMs: number, now: () => Date): Idempotency {
  const header = getIdempotencyHeader(model).toLowerCase();
  const scopeOf = (request: FastifyRequest) => (request.principal ? `${request.principal.scheme}:${request.principal.subject}` : '-');
  return {
    async begin(request, reply) {
      const raw = request.headers[header];
      if (raw === undefined) return 'none';
      const key = Array.isArray(raw) ? raw[0]! : raw;
      if (!KEY_RE.test(key)) {
        throw new ServiceError('validation', `the ${header} header must be 1 to 255 visible ASCII characters`, [{ parameter: header, in: 'header', message: 'is not a valid key' }]);
      }
      const fingerprint = createHash('sha256')
        .update(`${request.method} ${request.url}\n${canonicalJson(request.body ?? null)}`)
        .digest('base64url');
      const record = `${scopeOf(request)}|${key}`;
      const t = now();
      const claim = await storage.claimRecord(NAMESPACE, record, JSON.stringify({ state: 'running', fingerprint } satisfies Running), new Date(t.getTime() + RUNNING_LEASE_MS).toISOString(), t.toISOString());
      if (claim.created) {
        request.idempotencyClaim = { key: record, fingerprint };
        return 'claimed';
      }
      const stored = JSON.parse(claim.value) as Running | Done;
      if (stored.fingerprint !== fingerprint) {
        throw new ServiceError('idempotency_conflict', `the ${header} was already used with a different request`);
      }
      if (stored.state === 'running') {
        throw new ServiceError('idempotency_in_progress', `a request with this ${header} is still being processed`, undefined, { 'retry-after': '1' });
      }
      for (const [k, v] of Object.entries(stored.headers)) reply.header(k, v);
      reply.header('idempotent-replayed', 'true');
      await reply.code(stored.status).send(stored.body);
      return 'replayed';
    },
    async finish(request, reply, payload) {
      const claim = request.idempotencyClaim;
      // The time-out answered while the work runs on: the key stays claimed until the work settles (settleLate).
      if (!claim || request.deadline?.answeredBy === 'timeout') return;
      request.idempotencyClaim = undefined;
      const headers: Record<string, string> = {};
      for (const h of REPLAYED_HEADERS) {
        const v = reply.getHeader(h);
        if (v !== undefined) headers[h] = String(v);
      }
      const done: Done = { state: 'done', fingerprint: claim.fingerprint, status: reply.statusCode, headers, body: typeof payload === 'string' ? payload : '' };
      await storage.putRecord(NAMESPACE, claim.key, JSON.stringify(done), new Date(now().getTime() + retentionMs).toISOString());
    },
    settleLate(request, late) {
      const claim = request.idempotencyClaim;
      if (!claim) return;
      request.idempotencyClaim = undefined;
      const kept = late
        ? storage.putRecord(NAMESPACE, claim.key, JSON.stringify({ state: 'done', fingerprint: claim.fingerprint, status: late.status, headers: { ...late.headers }, body: late.text } satisfies Done), new Date(now().getTime() + retentionMs).toISOString())
        : storage.deleteRecord(NAMESPACE, claim.key);
      kept.catch((err: unknown) => request.log.error({ err }, 'could not record the outcome of an Idempotency-Key request that timed out'));
    },
  };
}

/** JSON with every object's keys in code-unit order: one body sent with its keys reordered is one request. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const o = value as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
    .join(',')}}`;
}
