import type { FastifyReply, FastifyRequest } from 'fastify';
import { buildErrorBody, FALLBACK_STATUS, getDeclaredErrorFill } from '../model/model-defaults.js';
import { formatHeaderValue } from '../model/model-response-headers.js';
import type { ServiceModel } from '../model/model-types.js';
import type { Condition } from '../spec/spec-types.js';
import { getStorageFault } from './storage/storage-faults.js';

export { FALLBACK_STATUS };

/** One invalid input: a JSON pointer into the body, or a named parameter. */
export interface InvalidField {
  pointer?: string;
  parameter?: string;
  in?: 'path' | 'query' | 'header';
  message: string;
}

/** A failure the runtime answers with a declared error. */
export class ServiceError extends Error {
  constructor(
    readonly condition: Condition,
    readonly detail?: string,
    readonly invalid?: readonly InvalidField[],
    readonly headers?: Readonly<Record<string, string>>,
    /**
     * A declared error code named by a custom handler (`ctx.fail('not_found')`, one of its operation's `errors:`):
     * answered with that code's status and title in the declared body, whatever `condition` would map to.
     */
    readonly code?: string,
  ) {
    super(detail ?? condition);
    this.name = 'ServiceError';
  }
}

export interface ErrorResponder {
  send(request: FastifyRequest, reply: FastifyReply, error: ServiceError): FastifyReply;
  /** The body for a condition answered outside Fastify (a refused connection). */
  raw(condition: Condition, detail: string): { status: number; contentType: string; text: string };
  /** The status a condition is answered with. */
  statusOf(condition: Condition): number;
}

const MAX_LISTED = 20;

/** Every answer the service gives carries the request's id (the client's own, when it sent a plain one). */
export const REQUEST_ID_HEADER = 'x-request-id';

/** Builds error bodies in the spec's declared shape: RFC 9457 problem details, or the declared fields. */
export function createErrorResponder(model: ServiceModel): ErrorResponder {
  const errors = model.errors;
  const resolved = new Map<Condition, { code: string; status: number; title?: string | undefined }>();
  const statusOf = (condition: Condition) => resolved.get(condition)?.status ?? FALLBACK_STATUS[condition];
  for (const [condition, fallback] of Object.entries(FALLBACK_STATUS) as [Condition, number][]) {
    const declaredName = errors?.byCondition[condition];
    const code = errors?.codes.find((c) => c.name === declaredName);
    const status = code?.status ?? fallback;
    const name = code?.name ?? condition;
    resolved.set(condition, { code: name, status, title: code?.title });
  }
  const byCode = new Map((errors?.codes ?? []).map((c) => [c.name, { code: c.name, status: c.status, title: c.title }]));
  const fill = errors?.body?.kind === 'declared' ? getDeclaredErrorFill(errors.body) : undefined;
  // The declared headers the service sends with a code's answers: those with a `default` (errors.headers, then the
  // code's own); the ones it knows (Retry-After, WWW-Authenticate) come with the error. None declared: nothing per answer.
  const defaulted = new Map<string, readonly [string, string][]>();
  for (const c of errors?.codes ?? []) {
    const list = [...(errors?.headers ?? []), ...c.headers].filter((h) => h.hasDefault).map((h) => [h.name, formatHeaderValue(h.default)] as [string, string]);
    if (list.length > 0) defaulted.set(c.name, list);
  }
  const everyError = (errors?.headers ?? []).filter((h) => h.hasDefault).map((h) => [h.name, formatHeaderValue(h.default)] as [string, string]);

  const build = (
    condition: Condition,
    detail: string | undefined,
    instance: string,
    requestId: string | undefined,
    invalid?: readonly InvalidField[],
    code?: string,
  ) => buildErrorBody(fill, (code !== undefined ? byCode.get(code) : undefined) ?? resolved.get(condition)!, { detail, instance, requestId, invalid });

  return {
    statusOf,
    raw(condition, detail) {
      const b = build(condition, detail, '', undefined);
      return { status: b.status, contentType: b.contentType, text: JSON.stringify(b.body) };
    },
    send(request, reply, error) {
      if (error.condition === 'unavailable') unavailableAnswers.add(request);
      reply.header(REQUEST_ID_HEADER, request.id);
      if (error.headers) for (const [k, v] of Object.entries(error.headers)) reply.header(k, v);
      if (defaulted.size > 0 || everyError.length > 0) {
        const name = error.code ?? resolved.get(error.condition)?.code;
        for (const [k, v] of (name !== undefined ? defaulted.get(name) : undefined) ?? everyError) if (!reply.hasHeader(k)) reply.header(k, v);
      }
      const b = build(error.condition, error.detail, request.url.split('?')[0] ?? '', request.id, error.invalid?.slice(0, MAX_LISTED), error.code);
      return reply.code(b.status).type(b.contentType).send(b.body);
    },
  };
}

/** How long a client is asked to wait before trying again after an `unavailable` answer (docs/runtime.md). */
export const UNAVAILABLE_RETRY_AFTER_S = 1;

/** Requests answered `unavailable`: nothing of theirs was applied, or its outcome is unknown; not an answer to keep. */
const unavailableAnswers = new WeakSet<FastifyRequest>();
/** Of those, the requests whose change may have been applied (its COMMIT's answer was lost). */
const unknownOutcomeAnswers = new WeakSet<FastifyRequest>();

/** Whether the request was answered `unavailable` after its change's COMMIT went unanswered (it may be applied). */
export function isUnknownOutcomeAnswer(request: FastifyRequest): boolean {
  return unknownOutcomeAnswers.has(request);
}

/** Marks the request's `unavailable` answer as one whose change may have been applied. */
export function markUnknownOutcome(request: FastifyRequest, err: unknown): void {
  if (getStorageFault(err)?.outcomeUnknown === true) unknownOutcomeAnswers.add(request);
}

/** Requests whose work failed having changed nothing (a custom handler that threw before any write). */
const unappliedFailures = new WeakSet<FastifyRequest>();

/**
 * Marks the request's error answer as one after which nothing was applied and a retry may well succeed (a custom
 * handler's unexpected failure before any write): an Idempotency-Key claimed before the work is released, not kept.
 */
export function markUnapplied(request: FastifyRequest): void {
  unappliedFailures.add(request);
}

/** Whether `markUnapplied` marked the request. */
export function isUnappliedFailure(request: FastifyRequest): boolean {
  return unappliedFailures.has(request);
}

/** Whether the request was answered with the `unavailable` condition (an Idempotency-Key keeps no such answer). */
export function isUnavailableAnswer(request: FastifyRequest): boolean {
  return unavailableAnswers.has(request);
}

/**
 * A database fault (a lost connection, no connection to be had, a serialization failure, SQLite's busy past its
 * time-out) as the `unavailable` condition with Retry-After; undefined for any other error.
 */
export function getUnavailableError(err: unknown): ServiceError | undefined {
  const fault = getStorageFault(err);
  if (fault === undefined) return undefined;
  return new ServiceError('unavailable', `${fault.message}; try again`, undefined, { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_S) });
}
