import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../util/util-clock.js';
import { ServiceError, type ErrorResponder } from './runtime-errors.js';
import { isPending } from './runtime-steps.js';
import { getAnswerType } from './runtime-versioning.js';
import type { AbortLike, Storage } from './storage/storage-types.js';

/**
 * A request's time-out, which transactions check before they commit and listen to while they run. It is past
 * once its time has come, whether or not the timer has fired: a handler that blocks the event loop cannot
 * delay it. Cheaper than an AbortSignal, which is made only if asked for.
 */
export class Deadline implements AbortLike {
  // Declared and assigned in the constructor, not class fields: one is made per request, and ES2022 fields are
  // defined through a slower path than assignments.
  /** Who started the one answer: the work, or the time-out. */
  declare answeredBy: 'work' | 'timeout' | undefined;
  declare readonly at: number;
  declare private readonly clock: Pick<Clock, 'now'>;
  declare private expired: boolean;
  declare private controller: AbortController | undefined;
  declare private listeners: (() => void)[] | undefined;

  /** `at` is a time on `clock`. */
  constructor(at: number, clock: Pick<Clock, 'now'> = REQUEST_CLOCK) {
    this.at = at;
    this.clock = clock;
    this.answeredBy = undefined;
    this.expired = false;
    this.controller = undefined;
    this.listeners = undefined;
  }

  get aborted(): boolean {
    if (!this.expired && this.clock.now() >= this.at) this.expire();
    return this.expired;
  }

  throwIfAborted(): void {
    if (this.aborted) throw new ServiceError('timeout', 'the request ran past its time-out');
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    (this.listeners ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const i = this.listeners?.indexOf(listener) ?? -1;
    if (i >= 0) this.listeners!.splice(i, 1);
  }

  /** A real AbortSignal for handler code (fetch, timers), created on first use. */
  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    if (this.aborted) this.controller.abort();
    return this.controller.signal;
  }

  expire(): void {
    if (this.expired) return;
    this.expired = true;
    this.controller?.abort();
    const listeners = this.listeners;
    this.listeners = undefined;
    for (const l of listeners ?? []) l();
  }
}

/**
 * The time-out's clock unless a test injects one: monotonic, with a timer that, unlike MONOTONIC_CLOCK's, keeps
 * the process alive while a request waits on it.
 */
const REQUEST_CLOCK: Clock = {
  now: () => performance.now(),
  setTimer: (fire, ms) => setTimeout(fire, ms),
  clearTimer: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** The answer work would have given, had the time-out not answered first. */
export class LateAnswer {
  constructor(
    readonly status: number,
    readonly headers: Readonly<Record<string, string>>,
    readonly text: string,
  ) {}
}

/** Called once work that outlived its time-out settles: with what it would have answered, or undefined when it failed. */
export type LateOutcome = (request: FastifyRequest, late: LateAnswer | undefined) => void;

/**
 * Sends an action's success answer, unless the time-out has answered already: then it returns the answer as a
 * LateAnswer, for the Idempotency-Key to keep (the change it reports was made).
 */
export function sendAnswer(request: FastifyRequest, reply: FastifyReply, status: number, payload: unknown): unknown {
  const d = request.deadline;
  if (d !== undefined) {
    if (d.answeredBy === 'timeout') return toLateAnswer(reply, status, payload);
    d.answeredBy = 'work';
  }
  return reply.code(status).send(payload);
}

export function toLateAnswer(reply: FastifyReply, status: number, payload: unknown): LateAnswer {
  const headers: Record<string, string> = { 'content-type': getAnswerType(reply) };
  const location = reply.getHeader('location');
  if (location !== undefined) headers.location = String(location);
  const etag = reply.getHeader('etag');
  if (etag !== undefined) headers.etag = String(etag);
  return new LateAnswer(status, headers, payload === undefined ? '' : JSON.stringify(payload));
}

/**
 * Runs `work` under the declared time-out, for exactly one answer. Work that finishes synchronously needs no
 * timer (nothing could have interrupted it). Otherwise a timer armed for what is left of `ms` answers with the
 * declared time-out error unless the work's answer has started, and expires the deadline so the work's
 * transaction rolls back. Work that settles past the deadline without having answered is answered as the
 * time-out too (a handler that blocked the event loop); what it would have answered goes to `late`.
 */
export function withTimeout(
  request: FastifyRequest,
  reply: FastifyReply,
  ms: number,
  errors: ErrorResponder,
  work: (request: FastifyRequest, reply: FastifyReply) => unknown,
  late?: LateOutcome,
  clock: Clock = REQUEST_CLOCK,
): unknown {
  const deadline = new Deadline(clock.now() + ms, clock);
  request.deadline = deadline;
  const result = work(request, reply);
  if (!isPending(result)) return result;
  const answerTimeout = () => {
    deadline.expire();
    if (deadline.answeredBy !== undefined || reply.sent) return;
    deadline.answeredBy = 'timeout';
    errors.send(request, reply, new ServiceError('timeout', `the request took longer than ${ms} ms`));
  };
  const timer = clock.setTimer(answerTimeout, Math.max(0, deadline.at - clock.now()));
  const settle = (value: unknown, failed: boolean): unknown => {
    clock.clearTimer(timer);
    if (deadline.answeredBy === 'work' || (deadline.answeredBy === undefined && !deadline.aborted)) {
      deadline.answeredBy = 'work';
      if (failed) throw value;
      return value;
    }
    answerTimeout();
    late?.(request, !failed && value instanceof LateAnswer ? value : undefined);
    return undefined;
  };
  return result.then(
    (value) => settle(value, false),
    (err: unknown) => settle(err, true),
  );
}

/** Either signal aborts the transaction. */
function eitherAborted(a: Deadline, b: AbortLike): AbortLike {
  return {
    get aborted() {
      return a.aborted || b.aborted;
    },
    throwIfAborted() {
      a.throwIfAborted();
      b.throwIfAborted();
    },
    addEventListener(type, listener) {
      a.addEventListener(type, listener);
      b.addEventListener?.(type, listener);
    },
    removeEventListener(type, listener) {
      a.removeEventListener(type, listener);
      b.removeEventListener?.(type, listener);
    },
  };
}

/** The storage a custom handler is given: each of its transactions is bounded by the request's deadline, signal or not. */
export function boundToDeadline(storage: Storage, deadline: Deadline): Storage {
  const transaction: Storage['transaction'] = (work, signal) =>
    storage.transaction(work, signal === undefined || signal === deadline.signal ? deadline : eitherAborted(deadline, signal));
  return new Proxy(storage, {
    get(target, prop) {
      if (prop === 'transaction') return transaction;
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === 'function' ? (v as (...args: unknown[]) => unknown).bind(target) : v;
    },
  });
}
