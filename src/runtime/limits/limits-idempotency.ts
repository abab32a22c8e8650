import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceModel } from '../../model/model-types.js';
import { getIdempotencyHeader } from '../../model/model-defaults.js';
import type { LateAnswer } from '../runtime-deadline.js';
import { isUnappliedFailure, isUnavailableAnswer, isUnknownOutcomeAnswer, ServiceError } from '../runtime-errors.js';
import type { Storage, StorageTx } from '../storage/storage-types.js';

const NAMESPACE = 'idempotency';
/** How long a claim may stay "running" before another request may take it over (a crashed first attempt). */
const RUNNING_LEASE_MS = 60_000;
const KEY_RE = /^[\x21-\x7e]{1,255}$/;
const REPLAYED_HEADERS = ['content-type', 'location', 'etag'] as const;

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
  /**
   * Before the handler: replays a stored answer, refuses a conflict, or claims the key. With `inChange` (a create,
   * on a storage whose transactions hold records) nothing is written yet: the action claims the key and keeps
   * its answer in its own transaction (`request.keyedChange`), so the request commits once.
   */
  begin(request: FastifyRequest, reply: FastifyReply, inChange?: boolean): 'claimed' | 'none' | Promise<'replayed' | 'claimed' | 'none'>;
  /**
   * After the handler answered: stores the answer for the retention period (not a time-out's: see settleLate).
   * Undefined when there is nothing to store (no key, or kept in the change's transaction).
   */
  finish(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<void> | undefined;
  /**
   * Once work the time-out answered has settled: keeps what it would have answered (its change was made, so
   * retries replay it), or releases the key when it failed (nothing was changed, so a retry runs).
   */
  settleLate(request: FastifyRequest, late: LateAnswer | undefined): void;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim?: { key: string; fingerprint: string; inChange?: boolean; settled?: boolean };
  }
}

/**
 * Idempotency-Key handling: the first response (errors included) is stored per credential and key and
 * replayed on retries; the same key with another request is refused; a retry while the first attempt
 * still runs is refused as in progress. A time-out answer is not stored: the key keeps what the work did.
 */
export function createIdempotency(model: ServiceModel, storage: Storage, retentionMs: number, now: () => Date): Idempotency {
  const header = getIdempotencyHeader(model).toLowerCase();
  // The declared response headers, and the declared headers of error answers, are part of the answer a retry gets again.
  const declared = [
    ...(model.endpoints?.operations ?? []).flatMap((o) => o.responseHeaders),
    ...(model.errors?.headers ?? []),
    ...(model.errors?.codes ?? []).flatMap((c) => c.headers),
  ];
  const replayed = [...new Set([...REPLAYED_HEADERS, ...declared.map((h) => h.name.toLowerCase())])];
  const scopeOf = (request: FastifyRequest) => (request.principal ? `${request.principal.scheme}:${request.principal.subject}` : '-');
  const expiry = () => new Date(now().getTime() + retentionMs).toISOString();
  /** What the key holds, answered: a replay of the stored answer, or the conflict or in-progress refusal. */
  const answerStored = (value: string, fingerprint: string, reply: FastifyReply): FastifyReply => {
    const stored = JSON.parse(value) as Running | Done;
    if (stored.fingerprint !== fingerprint) {
      throw new ServiceError('idempotency_conflict', `the ${header} was already used with a different request`);
    }
    if (stored.state === 'running') {
      throw new ServiceError('idempotency_in_progress', `a request with this ${header} is still being processed`, undefined, { 'retry-after': '1' });
    }
    for (const [k, v] of Object.entries(stored.headers)) reply.header(k, v);
    reply.header('idempotent-replayed', 'true');
    return reply.code(stored.status).send(stored.body);
  };
  // Keyed creates claim their key in their own transaction: the answer commits with the change, or neither does.
  // SQLite claims last (the transaction holds the one writer from its start); PostgreSQL claims first (a concurrent
  // request with the key waits for this transaction, then finds its answer), and writes the answer last. A COMMIT
  // whose answer was lost then leaves the key with the change's answer, or free with nothing applied.
  const claimFirst = storage.dialect === 'postgres';
  /** Claims the key in the create's own transaction (see `KeyedChange`): nothing is written yet. */
  const claimInChange = (request: FastifyRequest, record: string, fingerprint: string, at: string, expiresAt: string): 'claimed' => {
    const claim = { key: record, fingerprint, inChange: true, settled: false };
    request.idempotencyClaim = claim;
    const stored = (status: number, headers: Readonly<Record<string, string>>, body: string) =>
      JSON.stringify({ state: 'done', fingerprint, status, headers, body } satisfies Done);
    const kept = (got: { created: boolean; value: string }) => {
      if (!got.created) throw new KeyHeld(got.value);
      claim.settled = true;
    };
    request.keyedChange = {
      async keep(tx, status, headers, body) {
        if (claimFirst) {
          await tx.putRecord!(NAMESPACE, record, stored(status, headers, body), expiry());
          claim.settled = true;
          return;
        }
        // Until this transaction commits no other request sees the key; a held key rolls the change back.
        kept(await tx.claimRecord!(NAMESPACE, record, stored(status, headers, body), expiry(), now().toISOString()));
      },
      ...(claimFirst
        ? {
            async open(tx: StorageTx) {
              const t = now();
              // Claimed, not settled: an error answered after this rolls the claim back, and `finish` keeps that answer.
              const got = await tx.claimRecord!(
                NAMESPACE,
                record,
                JSON.stringify({ state: 'running', fingerprint } satisfies Running),
                new Date(t.getTime() + retentionMs).toISOString(),
                t.toISOString(),
              );
              if (!got.created) throw new KeyHeld(got.value);
            },
          }
        : {}),
      keepNow(writer, status, headers, body) {
        // Claimed in the request's turn, right after the lookup: the clock read there is this claim's.
        kept(writer.claimRecord(NAMESPACE, record, stored(status, headers, body), expiresAt, at));
      },
      answer(err, _request, replyTo) {
        if (!(err instanceof KeyHeld)) return undefined;
        claim.settled = true;
        return answerStored(err.value, fingerprint, replyTo);
      },
    };
    return 'claimed';
  };
  return {
    begin(request, reply, wantsInChange) {
      const raw = request.headers[header];
      if (raw === undefined) return 'none';
      const key = Array.isArray(raw) ? raw[0]! : raw;
      if (!KEY_RE.test(key)) {
        throw new ServiceError('validation', `the ${header} header must be 1 to 255 visible ASCII characters`, [
          { parameter: header, in: 'header', message: 'is not a valid key' },
        ]);
      }
      const fingerprint = createHash('sha256')
        .update(`${request.method} ${request.url}\n${canonicalJson(request.body ?? null)}`)
        .digest('base64url');
      const record = `${scopeOf(request)}|${key}`;
      if (wantsInChange) {
        // One clock reading for the lookup, the claim and its expiry.
        const t = now();
        const at = t.toISOString();
        const expiresAt = new Date(t.getTime() + retentionMs).toISOString();
        // A key answered before (an error, too) is replayed without a transaction; a race is settled in the change's own.
        const held = storage.findRecordNow?.(NAMESPACE, record, at);
        if (held !== undefined) {
          return (async () => {
            await answerStored(held, fingerprint, reply);
            return 'replayed' as const;
          })();
        }
        // Over the network (PostgreSQL): one read answers a retry without opening a transaction.
        if (storage.findRecordNow === undefined && storage.findRecord !== undefined) {
          return storage.findRecord(NAMESPACE, record, at).then(async (found) => {
            if (found === undefined) return claimInChange(request, record, fingerprint, at, expiresAt);
            await answerStored(found, fingerprint, reply);
            return 'replayed' as const;
          });
        }
        return claimInChange(request, record, fingerprint, at, expiresAt);
      }
      return (async () => {
        const t = now();
        const claim = await storage.claimRecord(
          NAMESPACE,
          record,
          JSON.stringify({ state: 'running', fingerprint } satisfies Running),
          new Date(t.getTime() + RUNNING_LEASE_MS).toISOString(),
          t.toISOString(),
        );
        if (claim.created) {
          request.idempotencyClaim = { key: record, fingerprint };
          return 'claimed';
        }
        await answerStored(claim.value, fingerprint, reply);
        return 'replayed';
      })();
    },
    finish(request, reply, payload) {
      const claim = request.idempotencyClaim;
      // The time-out answered while the work runs on: the key stays claimed until the work settles (settleLate).
      if (!claim || claim.settled || request.deadline?.answeredBy === 'timeout') return undefined;
      request.idempotencyClaim = undefined;
      // A database fault is no answer to keep: the key is left free for the retry the answer asks for (claimed in
      // the change's transaction, it rolled back with it; claimed before, the claim is removed, if the database lets).
      // A change whose COMMIT was sent and not answered may be applied: its key stays claimed (for the retention
      // period, so a retry is refused as in progress, never applied twice).
      if (isUnavailableAnswer(request)) {
        if (claim.inChange) return undefined;
        if (isUnknownOutcomeAnswer(request))
          return storage
            .putRecord(NAMESPACE, claim.key, JSON.stringify({ state: 'running', fingerprint: claim.fingerprint } satisfies Running), expiry())
            .catch(() => undefined);
        return storage.deleteRecord(NAMESPACE, claim.key).catch(() => undefined);
      }
      // A custom handler that failed before writing anything: the key is released, so a retry runs it again.
      if (!claim.inChange && isUnappliedFailure(request)) return storage.deleteRecord(NAMESPACE, claim.key).catch(() => undefined);
      const headers: Record<string, string> = {};
      for (const h of replayed) {
        const v = reply.getHeader(h);
        if (v !== undefined) headers[h] = String(v);
      }
      const done = JSON.stringify({
        state: 'done',
        fingerprint: claim.fingerprint,
        status: reply.statusCode,
        headers,
        body: typeof payload === 'string' ? payload : '',
      } satisfies Done);
      // Claimed in the change's transaction, which did not commit (an error answered): the answer is kept unless a
      // concurrent request with the key has committed first (it holds the key then).
      if (claim.inChange) return storage.claimRecord(NAMESPACE, claim.key, done, expiry(), now().toISOString()).then(() => undefined);
      return storage.putRecord(NAMESPACE, claim.key, done, expiry());
    },
    settleLate(request, late) {
      const claim = request.idempotencyClaim;
      // Claimed in the change's transaction: it committed with its answer, or rolled back and left the key free.
      if (!claim || claim.inChange) return;
      request.idempotencyClaim = undefined;
      const kept = late
        ? storage.putRecord(
            NAMESPACE,
            claim.key,
            JSON.stringify({
              state: 'done',
              fingerprint: claim.fingerprint,
              status: late.status,
              headers: { ...late.headers },
              body: late.text,
            } satisfies Done),
            expiry(),
          )
        : storage.deleteRecord(NAMESPACE, claim.key);
      kept.catch((err: unknown) => request.log.error({ err }, 'could not record the outcome of an Idempotency-Key request that timed out'));
    },
  };
}

/** What a key held when a keyed change tried to claim it in its transaction (which then rolls back). */
class KeyHeld extends Error {
  constructor(readonly value: string) {
    super('the Idempotency-Key is held');
  }
}

/** JSON with every object's keys in code-unit order: one body sent with its keys reordered is one request. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  // Built by concatenation, without an array per object or per key: this runs on every keyed request.
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return `${out}]`;
  }
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o).sort();
  let out = '{';
  for (let i = 0; i < keys.length; i++) out += `${i === 0 ? '' : ','}${JSON.stringify(keys[i])}:${canonicalJson(o[keys[i]!])}`;
  return `${out}}`;
}

/** How often, and how much at a time, expired Idempotency-Key records are removed. */
export const RECORD_SWEEP = { everyMs: 5_000, limit: 20_000 } as const;

/**
 * Removes expired records (stored answers past their retention, abandoned claims) in the background, a bounded
 * batch every `everyMs`, so the records table does not grow with every key ever used. `onError` hears a failed
 * sweep; the next one tries again.
 */
export function startRecordSweep(
  storage: Storage,
  now: () => Date,
  onError: (err: unknown) => void,
  sweep: { everyMs: number; limit: number } = RECORD_SWEEP,
): { stop(): Promise<void> } {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = storage
      .deleteExpiredRecords(now().toISOString(), sweep.limit)
      .catch(onError)
      .finally(() => (running = undefined));
  }, sweep.everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
