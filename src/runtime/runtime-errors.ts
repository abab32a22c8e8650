import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { buildErrorBody, FALLBACK_STATUS, getDeclaredErrorFill, getOperationRefusalCode, getUnfilledErrorFields } from '../model/model-defaults.js';
import { formatHeaderValue, UNDECLARED_CONDITION_HEADER, UNSET_FIELDS_HEADER } from '../model/model-response-headers.js';
import type { ErrorCodeModel, OperationModel, ParameterModel, ServiceModel } from '../model/model-types.js';
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

/** A declared header of error answers with the value the service sends: [name as declared, value]. */
export type ErrorHeader = readonly [name: string, value: string];

/** An error answer made outside Fastify (Node's http server, a raw socket): what `send` would have written. */
export interface RawErrorAnswer {
  status: number;
  contentType: string;
  text: string;
  /** The declared headers the code's answers carry (empty when the spec declares none). */
  headers: readonly ErrorHeader[];
  /** The answer's request id: its X-Request-Id header, and the body's `request_id` where the declared body has one. */
  requestId: string;
}

export interface ErrorResponder {
  send(request: FastifyRequest, reply: FastifyReply, error: ServiceError): FastifyReply;
  /**
   * The answer to a condition answered outside Fastify (a refused connection), with a fresh request id (no request
   * was read to have one); written by `getRawAnswerHeaders`.
   */
  raw(condition: Condition, detail: string): RawErrorAnswer;
  /**
   * The declared headers every error answer carries (errors.headers, those with a `default`), for an answer in
   * another protocol's error shape — the token endpoint's RFC 6749 §5.2 errors, which are none of the spec's codes.
   */
  readonly everyErrorHeaders: readonly ErrorHeader[];
  /** The status a condition is answered with. */
  statusOf(condition: Condition): number;
}

const MAX_LISTED = 20;

/** Every answer the service gives carries the request's id (the client's own, when it sent a plain one). */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * Builds error bodies in the spec's declared shape: RFC 9457 problem details, or the declared fields. `operationOf`
 * names the operation a request was routed to: a condition no code declares is answered with that operation's own
 * code of the status HTTP gives it, where it lists exactly one (getOperationRefusalCode: an imported document's 400
 * for a body breaking its schema, not the format's 422 it never mentions).
 */
export function createErrorResponder(model: ServiceModel, operationOf?: (request: FastifyRequest) => OperationModel | undefined): ErrorResponder {
  const errors = model.errors;
  // The declared headers the service sends with a code's answers: those with a `default` (errors.headers, then the
  // code's own); the ones it knows (Retry-After, WWW-Authenticate) come with the error. Worked out once per code, so
  // every answer — sent through Fastify or written raw — reads the same list; none declared: nothing per answer.
  const withDefault = (list: readonly ParameterModel[]): ErrorHeader[] =>
    list.filter((h) => h.hasDefault).map((h) => [h.name, formatHeaderValue(h.default)] as const);
  const everyError = withDefault(errors?.headers ?? []);
  const headersOf = (code: ErrorCodeModel | undefined): readonly ErrorHeader[] => (code ? [...everyError, ...withDefault(code.headers)] : everyError);
  const resolved = new Map<Condition, ResolvedCode>();
  const statusOf = (condition: Condition) => resolved.get(condition)?.status ?? FALLBACK_STATUS[condition];
  for (const [condition, fallback] of Object.entries(FALLBACK_STATUS) as [Condition, number][]) {
    const declaredName = errors?.byCondition[condition];
    const code = errors?.codes.find((c) => c.name === declaredName);
    const status = code?.status ?? fallback;
    const name = code?.name ?? condition;
    // No code declares the condition: the built-in answer (a named gap, served only with --allow-gaps) says so in
    // UNDECLARED_CONDITION_HEADER, so the tester tells it from a service's own answer without guessing.
    const gap: ErrorHeader | undefined = code ? undefined : [UNDECLARED_CONDITION_HEADER, condition];
    resolved.set(condition, { code: name, status, title: code?.title, headers: headersOf(code), gap });
  }
  const byCode = new Map((errors?.codes ?? []).map((c) => [c.name, { code: c.name, status: c.status, title: c.title, headers: headersOf(c) }]));
  const anyHeaders = [...resolved.values(), ...byCode.values()].some((c) => c.headers.length > 0);
  const fill = errors?.body?.kind === 'declared' ? getDeclaredErrorFill(errors.body) : undefined;
  // The required body fields nothing fills (a named gap: their value is the service's, served only with
  // --allow-gaps), left out of every error answer and named in UNSET_FIELDS_HEADER, as a success answer names the
  // `source: service` fields it leaves out: the tester does not hold them against the answer.
  const unset = errors?.body?.kind === 'declared' ? getUnfilledErrorFields(errors.body).map((f) => f.path) : [];
  const unsetHeader: ErrorHeader | undefined = unset.length > 0 ? [UNSET_FIELDS_HEADER, unset.join(', ')] : undefined;

  /** The code an error is answered with: the one a custom handler named, else its condition's. */
  const codeOf = (condition: Condition, code: string | undefined): ResolvedCode =>
    (code !== undefined ? byCode.get(code) : undefined) ?? resolved.get(condition)!;
  // Per operation, the code of each condition no code declares that its own codes answer (null: none does).
  const ownCodes = new WeakMap<OperationModel, Map<Condition, ResolvedCode | null>>();
  const operationCodeOf = (request: FastifyRequest, condition: Condition): ResolvedCode | undefined => {
    if (!operationOf || errors?.byCondition[condition] !== undefined) return undefined;
    const operation = operationOf(request);
    if (!operation) return undefined;
    let byCondition = ownCodes.get(operation);
    if (!byCondition) ownCodes.set(operation, (byCondition = new Map()));
    let own = byCondition.get(condition);
    if (own === undefined) {
      const c = getOperationRefusalCode(errors, operation, condition);
      own = c ? (byCode.get(c.name) ?? null) : null;
      byCondition.set(condition, own);
    }
    return own ?? undefined;
  };

  return {
    statusOf,
    everyErrorHeaders: everyError,
    raw(condition, detail) {
      const code = codeOf(condition, undefined);
      // One id for the X-Request-Id header and the declared body's request_id, as `send` writes request.id in both.
      const requestId = randomUUID();
      const b = buildErrorBody(fill, code, { detail, instance: '', requestId });
      const headers = unsetHeader || code.gap ? [...code.headers, ...(code.gap ? [code.gap] : []), ...(unsetHeader ? [unsetHeader] : [])] : code.headers;
      return { status: b.status, contentType: b.contentType, text: JSON.stringify(b.body), headers, requestId };
    },
    send(request, reply, error) {
      if (error.condition === 'unavailable') unavailableAnswers.add(request);
      reply.header(REQUEST_ID_HEADER, request.id);
      if (error.headers) for (const [k, v] of Object.entries(error.headers)) reply.header(k, v);
      const code = (error.code === undefined ? operationCodeOf(request, error.condition) : undefined) ?? codeOf(error.condition, error.code);
      // The error's own (Retry-After, WWW-Authenticate, Allow) win over a declared default of the same name.
      if (anyHeaders) for (const [k, v] of code.headers) if (!reply.hasHeader(k)) reply.header(k, v);
      if (code.gap) reply.header(code.gap[0], code.gap[1]);
      if (unsetHeader) reply.header(unsetHeader[0], unsetHeader[1]);
      const b = buildErrorBody(fill, code, {
        detail: error.detail,
        instance: request.url.split('?')[0] ?? '',
        requestId: request.id,
        invalid: error.invalid?.slice(0, MAX_LISTED),
      });
      return reply.code(b.status).type(b.contentType).send(b.body);
    },
  };
}

interface ResolvedCode {
  code: string;
  status: number;
  title?: string | undefined;
  headers: readonly ErrorHeader[];
  /** The built-in answer to a condition no code declares: [UNDECLARED_CONDITION_HEADER, the condition]. */
  gap?: ErrorHeader | undefined;
}

/**
 * The headers of an error answer written outside Fastify, in order: what every answer of the service carries (its
 * type, length and request id; the connection closed after it), then the code's declared headers. The one list the
 * raw writers (runtime-service.ts: a refused request, a CONNECT, a client error) send, so none can leave one out.
 */
export function getRawAnswerHeaders(answer: RawErrorAnswer): [string, string][] {
  const out: [string, string][] = [
    ['content-type', answer.contentType],
    ['content-length', String(Buffer.byteLength(answer.text))],
    ['connection', 'close'],
    [REQUEST_ID_HEADER, answer.requestId],
  ];
  for (const [k, v] of answer.headers) out.push([k, v]);
  return out;
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
