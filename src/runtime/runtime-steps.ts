import type { FastifyReply, FastifyRequest } from 'fastify';

// The request pipeline's step runner (as Fastify's hook runner, without its per-request state): a route's steps
// run in order in the turn the request arrived, and the first one that answers with a promise hands the rest to
// it. This file is the one place the runtime asks whether an answer is a promise.

/** What a step answers: `undefined` to go on to the next step, anything else to end the pipeline; or a promise of either. */
export type StepOutcome = unknown;

/** One step of a request's pipeline (version, credential, rate limits, Idempotency-Key, the action). */
export type Step = (request: FastifyRequest, reply: FastifyReply) => StepOutcome;

/** A step that has answered the request itself (a replay, say): the pipeline ends, and Fastify sends nothing more. */
export const ANSWERED: unique symbol = Symbol('answered');

/** Whether work is still pending: a native promise (pluggable parts' other thenables are made native by `fromPluggable`). */
export function isPending(value: unknown): value is Promise<unknown> {
  return value instanceof Promise;
}

/**
 * What a pluggable part answered (an Authenticator, a RateLimitStore), as the runtime handles it: a value as it
 * is, a native promise as it is, and any other thenable (a promise library's) as a native promise.
 */
export function fromPluggable<T>(answer: T | PromiseLike<T>): T | Promise<T> {
  if (answer instanceof Promise || answer === null || (typeof answer !== 'object' && typeof answer !== 'function')) return answer as T | Promise<T>;
  return typeof (answer as { then?: unknown }).then === 'function' ? Promise.resolve(answer) : (answer as T);
}

/** `next(value)` now when the value is at hand, or once its promise fulfils (a rejection passes through, or to `failed`). */
export function andThen<T, U>(value: T | Promise<T>, next: (value: T) => U, failed?: (err: unknown) => U): U | Promise<Awaited<U>> {
  if (!(value instanceof Promise)) return next(value);
  return (failed ? value.then(next, failed) : value.then(next)) as Promise<Awaited<U>>;
}

/**
 * Runs `steps` from `from`: synchronously while each answers without a promise, then in the promise of the first
 * that does not. Returns what ended the pipeline: the last step's answer (the reply, which is a thenable that
 * settles once the response has been sent, so a promise adopting it waits for async onSend hooks), undefined for
 * ANSWERED, or the promise of the rest.
 */
export function runSteps(steps: readonly Step[], from: number, request: FastifyRequest, reply: FastifyReply): unknown {
  for (let i = from; i < steps.length; i++) {
    const out = steps[i]!(request, reply);
    if (out === undefined) continue;
    if (out instanceof Promise) return out.then((v: unknown) => (v === undefined ? runSteps(steps, i + 1, request, reply) : v === ANSWERED ? undefined : v));
    return out === ANSWERED ? undefined : out;
  }
  return undefined;
}

/**
 * A route handler running `steps` in order. Fastify sends what a synchronous handler returns unless it is
 * undefined; the steps send their answers themselves, so only a promise is handed back.
 */
export function createPipeline(steps: readonly Step[]): (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> | undefined {
  const list = steps.slice();
  return (request, reply) => {
    const out = runSteps(list, 0, request, reply);
    return out instanceof Promise ? out : undefined;
  };
}

/**
 * The plain counterpart of createPipeline (SERVICESPEC_FAST_PATHS=off): an async handler awaiting each step's
 * answer in turn, as a handler written by hand would; the same steps, the same answers, a promise every request.
 */
export function createPlainPipeline(steps: readonly Step[]): (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> {
  const list = steps.slice();
  return async (request, reply) => {
    for (const step of list) {
      // A promise is awaited; anything else (the reply a step answered with, say) is taken as it is, as runSteps does.
      const given = step(request, reply);
      const out: unknown = given instanceof Promise ? await given : given;
      if (out !== undefined) return out === ANSWERED ? undefined : out;
    }
    return undefined;
  };
}
